"""The decks of a combo screen's runs: a search per condition (`search`), the choice among every
plan the searches found (`choose`, both with `best`), and a chosen deck measured against its
opponent on fresh seeds (`measured`). `pair` and `kind_decks` search their decks so.

A search is CMA-ES (`cma`) over the game's plan space with the barred kinds' cards never bought,
from starts with equal budgets: the space's best guess, that guess changed to buy two copies of
the condition's allowed kinds of the pair whenever they are the dearest card it would take
(`Layout.favouring`), and changed to buy them first without a cap (`Layout.rushing`: a deck that
is mostly the pair, which a search from the guess does not reach); with nothing to favour, the
guess again on its own random stream.
Each start is swept card by card first (`hoc.research.atlas.sweep`). A search's estimates come from
its own few games, so the decks are chosen among every search's best plans on more seeds
(`choose`), and the figures come from a third set of seeds no search or choice saw (the winner's
curse stays behind).
"""
from __future__ import annotations

import math

import numpy as np

from hoc.research.combos.design import BASIC, Settings

# the conditions within each (barring more): a condition may play their decks
INNER = {"neither": (), "a": ("neither",), "b": ("neither",), "both": ("a", "b")}
# A deck replaces an inner condition's deck when better on the choice's seeds by this many standard
# errors: 0, strictly better. A threshold above 0 made the conditions choose inconsistently (the
# deck with A and B adopted an attack's deck that the deck with the attack alone, a little less lucky on
# the same seeds, did not: a spurious interaction of +11 points); ties keep the inner deck.
CLEARLY = 0.0
PICK_FIRST = 1 << 40                              # game indices of the choices, apart from the search's
MEASURE_FIRST = 1 << 41
SWEEPS = 2                                        # rounds of the card sweep before CMA-ES, from every start
# what a copy missing costs a plan (a share of the wins): enough that a deck which ignores the pair
# loses to one built on it, not so much that a deck which owns the pair and never wins beats a sane
# deck a little short of it (a whole share per copy chose such decks: they never ended a game)
SHORT = 0.25


def best(settings: Settings, spaces: dict, favour: dict, order, opponent, seed: int, backend, inner=None,
         starts=None, need=None) -> dict:
    """Each condition's deck against `opponent`: a search per condition (`search`, from `starts[c]` where
    given), then `choose`; a condition in `need` is built on the kinds it names."""
    starts, need = starts or {}, need or {}
    found = {c: search(settings, spaces[c], favour[c], opponent, seed + k, backend, starts.get(c), need.get(c, ()))
             for k, c in enumerate(order)}
    return choose(settings, spaces, found, opponent, seed + len(order), backend, inner or INNER, need)


def choose(settings: Settings, spaces: dict, found: dict, opponent, seed: int, backend, inner: dict,
           need=None) -> dict:
    """Each condition's deck, from every plan the searches found, read in the condition's space (a
    plan that buys a barred kind plays without it), measured again on common seeds: the best deck of
    the conditions within it (which it may play), unless its own best does better (`CLEARLY`). So the
    conditions share their searches' work and choose among the same plans, and when the best plan
    uses neither kind the decks are one and the interactions exactly 0. A condition in `need` takes
    the best plan by its share less `SHORT` per copy it lacks of `settings.copies` of each kind it names, never
    an inner condition's deck (which does not own them)."""
    from hoc.research.atlas.measure import measure

    conditions = list(found)
    xs = np.concatenate([found[c] for c in conditions])
    rows, where = {}, {}
    for c in conditions:
        for i, x in enumerate(xs):
            kind, row = spaces[c].row(x)
            where[c, i] = rows.setdefault((kind, row.tobytes()), (len(rows), kind, row))[0]
    table = _Rows(spaces[conditions[0]].ruleset, [(kind, row) for _, kind, row in sorted(rows.values())])
    m = measure(table, np.arange(len(table.rows))[:, None], (opponent,), seed, settings.pick_seeds, PICK_FIRST,
                backend, ())
    per_seed = m.shares[:, 0]                       # decoded plans x seeds
    need = need or {}
    chosen = {}                                     # condition -> (decoded plan, condition it was read in, point)
    for c in sorted(conditions, key=lambda c: _depth(c, inner)):
        short = _short(m.copies, kind_ids(spaces[c], need.get(c, ())), settings.copies)
        value = m.fitness - SHORT * short
        own = max(range(len(xs)), key=lambda i: (value[where[c, i]], -where[c, i]))
        pick = (where[c, own], c, own)
        if inner[c] and not need.get(c):
            keep = max((chosen[k] for k in inner[c]), key=lambda d: m.fitness[d[0]])
            diff = per_seed[pick[0]] - per_seed[keep[0]]
            se = diff.std(ddof=1) / math.sqrt(len(diff))
            if not diff.mean() > CLEARLY * se:
                pick = keep
        chosen[c] = pick
    return {c: (spaces[w], xs[i]) for c, (_, w, i) in chosen.items()}


def kind_ids(space, kinds) -> list[np.ndarray]:
    """Each kind's card ids."""
    return [np.asarray(space.kinds[k], np.int64) for k in kinds]


def _short(copies: np.ndarray, ids: list[np.ndarray], least: float) -> np.ndarray:
    """Per plan (rows of `copies`, mean copies of each card id at the end), the copies it lacks of
    `least` of each kind; 0 when it needs none."""
    lack = np.zeros(len(copies))
    for k in ids:
        lack += np.maximum(0.0, least - copies[:, k].sum(1))
    return lack


def _depth(c: str, inner: dict) -> int:
    return 0 if not inner[c] else 1 + max(_depth(k, inner) for k in inner[c])


class _Rows:
    """Decoded plans as a space the measurement reads (point [i] is the i-th row)."""

    def __init__(self, ruleset, rows):
        self.ruleset, self.rows = ruleset, rows

    def row(self, x):
        return self.rows[int(x[0])]


def measured(settings: Settings, deck, opponent, master: int, backend):
    """A deck (its space and point) against `opponent` on the run's fresh seeds."""
    from hoc.research.atlas.measure import measure

    space, x = deck
    return measure(space, x[None], (opponent,), master, settings.measure_seeds, MEASURE_FIRST, backend,
                   tuple(space.default_descriptors))


def same_plan(d1, d2) -> bool:
    k1, r1 = d1[0].row(d1[1])
    k2, r2 = d2[0].row(d2[1])
    return k1 == k2 and np.array_equal(r1, r2)


def search(settings: Settings, space, kinds, opponent, seed: int, backend, start=None, need=()) -> np.ndarray:
    """The `pick` strongest plans (by the search's own estimates) CMA-ES finds against `opponent` in
    `space`, from starts with equal budgets: `start` (default the space's best guess), and with
    `kinds` it changed to favour them (two copies each) and to rush them (first, uncapped), else a
    second search from the guess; each start swept first (`SWEEPS` rounds of the card sweep,
    `hoc.research.atlas.sweep`); a given start is one of the plans returned. A plan short of
    `settings.copies` copies of a kind of `need` counts `SHORT` less per copy it lacks (a deck built on them)."""
    from hoc.research.atlas import climb
    from hoc.research.atlas.measure import measure
    from hoc.research.atlas.sweep import sweep

    guess = space.starts()[0] if start is None else np.asarray(start, float)
    starts = [guess, space.favouring(guess, kinds), space.rushing(guess, kinds)] if kinds else [guess, guess]
    rng = np.random.default_rng(seed)
    descriptors = tuple(space.default_descriptors)
    ids = kind_ids(space, need)
    seen, fitness = [], []
    for _ in range(SWEEPS):         # whole cards first (a rush lacks its cheap fillers), then the numbers
        starts, xs, m = sweep(space, starts, (opponent,), int(rng.integers(0, 2 ** 62)), settings.seeds, backend,
                              descriptors, [space.slots(kinds)] * len(starts))
        seen.extend(xs)
        fitness.extend(m.fitness - SHORT * _short(m.copies, ids, settings.copies))
    # the barred cards' genes stay the guess's: no plan here reads them
    es = climb.strategies(space, starts, settings.sigma, settings.batch,
                          [int(rng.integers(1, 2 ** 31 - 1)) for _ in starts])
    for it in range(settings.iterations):
        asked, xs = climb.ask(space, es, [guess] * len(es))
        m = measure(space, xs, (opponent,), int(rng.integers(0, 2 ** 62)), settings.seeds, 0, backend, descriptors)
        value = m.fitness - SHORT * _short(m.copies, ids, settings.copies)
        climb.tell(es, asked, value)
        seen.extend(xs)
        fitness.extend(value)
    best = np.argsort(-np.asarray(fitness), kind="stable")[:settings.pick]
    return np.array([seen[i] for i in best] + ([guess] if start is not None else []))


def repaired(settings: Settings, space, x, keep, opponent, seed: int, backend) -> np.ndarray:
    """A deck built on the pair, or a knock-out of it, swept (`--knockouts repaired`): `SWEEPS`
    rounds from it against `opponent`, each moving to the best of the plan, its card sweep (`flips`,
    a card opened taking the genes of the space's best guess) and each card it buys given the guess's
    genes for it (`_reset`), among the steps that lack no more copies of the kinds of the pair it
    keeps (`keep`, whose genes stay) than the plan does (`_keeping`).

    Why: a plan built on the pair leaves to the pair what a deck without it needs (a pair that
    makes a deck's money: its dearest Treasure never bought, or only at a price above its cost), so
    the deck without either, read with those rules idle, won 0 to 6 games in 400 against the
    baseline; there every log-odds effect is huge, the additive prediction for the deck with both
    nears 1, and a documented combo of Dominion read -21 points (docs/combos.md). Whole cards and
    the guess's rules only (no search of its own): the decks stay the plan's, a step or two from it."""
    from hoc.research.atlas.measure import measure
    from hoc.research.atlas.sweep import flips

    rng = np.random.default_rng(seed)
    guess = space.starts()[0]
    fixed, ids = space.slots(keep), kind_ids(space, keep)
    x = np.asarray(x, float)
    for _ in range(SWEEPS):
        xs = np.array([x, *flips(space, x, fixed, guess), *_reset(space, x, fixed, guess)])
        m = measure(space, xs, (opponent,), int(rng.integers(0, 2 ** 62)), settings.seeds, 0, backend,
                    tuple(space.default_descriptors))
        x = xs[_keeping(m.fitness, _short(m.copies, ids, settings.copies))]
    return x


def _keeping(fitness: np.ndarray, short: np.ndarray) -> int:
    """The best step from a plan (the first) that lacks no more copies of the kinds it keeps than the plan
    does, half a copy of noise allowed. Not `SHORT` a copy: at the floor, a deck that dropped three
    copies of its kept kind for a Treasure beat the kind's deck by more than that."""
    return int(np.argmax(np.where(short <= short[0] + 0.5, fitness, -np.inf)))


def _reset(space, x, fixed, guess) -> list[np.ndarray]:
    """Point x with each card it buys (but the `fixed`) given in turn `guess`'s genes for it (ranked
    where the guess ranks it, `adopted`), where the guess buys it too and that changes x."""
    from hoc.research.atlas.sweep import adopted

    per, gate = space.per_card, space.gate
    out = []
    for c in range(len(space.cards)):
        if c in space.barred or c in fixed or x[c * per + gate] < 0.5 or guess[c * per + gate] < 0.5:
            continue
        y = adopted(space, x, c, guess)
        if not np.array_equal(y, x):
            out.append(y)
    return out


def yardstick(settings: Settings, space, market, ruleset, default: str = BASIC):
    """The agent the searches play: `--yardstick`, else `default`; `BASIC` is the space's best guess
    on the basic supply alone (`market` barred)."""
    from hoc.agents.registry import get

    name = settings.yardstick or default
    if name == BASIC:
        return deck_agent(space.without(market), space.starts()[0], BASIC, ruleset)
    agent = get(name)
    agent.params(ruleset)                   # an agent of another game: one line now
    return agent


def deck_agent(space, x, name: str, ruleset):
    """A decoded plan as an agent the measurement can seat."""
    from hoc.agents.agent import Agent

    kind, row = space.row(x)
    return Agent(name, int(kind), "a deck of hoc combos", lambda _r, row=row: row, game=ruleset.game.name)
