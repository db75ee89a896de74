"""Supply combos (`hoc combos`): which pairs of kinds are stronger together than apart, and which
blunt or counter each other.

The design (`design`) is the 2 x 2 factorial of experimental design, run on decks that may or may
not use each kind of the pair. A pair (A, B) is studied in a market that offers both with eight
other kinds drawn at random. Four searches (`pair`) find the strongest deck that may use both kinds,
A and not B, B and not A, and neither (by default only the pair's kinds and the basic supply: the
pair's own strength, not masked by a stronger card elsewhere in the market); each is CMA-ES over
the game's plan space (the strategy atlas's, `hoc.agents.plan_space`) against the game's yardstick,
from the space's best guess and from that guess changed to buy the allowed kinds of the pair, with
the same budget in every condition. A search of its own per condition rather than one shared tuned
plan because a combo shows only if some player builds around it: a plan tuned for random markets
never does.

Then, on fresh seeds common to the decks (each seed in every seat):
- the same-seat interaction `v(A,B) - v(A,-B) - v(-A,B) + v(-A,-B)`, each `v` the deck's share of the
  wins against the yardstick: positive is a combo, negative two kinds that do one job (substitutes)
  or get in each other's way;
- across seats, both ways: how much more B helps the best response to A's deck than it helps
  against the yardstick (responses searched against A's deck, with B and without); reported
  negated for A's deck, so that negative means B counters A.

Under `--measure built` the four decks are instead one deck built on the pair (owning a copy of
each) and its knock-outs (above one copy of each, by default each swept card by card,
`--knockouts repaired`, so that a knock-out is not left with the hole its barred kind filled),
against the strongest deck without them: what the kinds add to each other
in a deck built on them, the combos of players' guides, whether or not the deck is the market's
best. `combined`, the command's default, reads the same seat so and across seats as above, between
decks built on each kind and responses searched against them (`--across built`, `kind_decks`).

Two stages (`screen`): every pair once (one market, its searches), then the pairs the screen ranks
highest, either way, again in fresh markets with fresh searches and fresh seeds, as many replicates
as asked. A confirmed pair's interval and p-value are over replicates (so they hold the searches'
and the markets' noise, not only the games'), and Benjamini-Hochberg over the pairs followed up
keeps the false discoveries among the confirmed pairs at the rate asked (`analysis`).
"""
