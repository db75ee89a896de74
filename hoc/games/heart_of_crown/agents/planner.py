"""The turn planner: a priority list that plays its own Main phase and answers its own card questions
by looking ahead to the end of its turn, instead of by fixed defaults.

A priority list decides buys, backing and setting well (that is what `hoc tune` searches), but its
Main phase follows a fixed order (links first, then other Actions, then Territories) and its card
questions a fixed answer (the first mode or a decline, the cheapest card to lose). A card whose value
lies in those decisions (Curse Witch's cost and mode, Adventurer's exile, City Development's upgrade,
Trading Ship's draw-or-coins) then plays as a blank.

At each decision of the player's own turn that fixed rules cannot weigh (a Main-phase decision while a
card with a text, an ability (the princess's or a domain card's) or a kept card is at hand; a card question of its own turn with a
choice), the planner tries every legal action on copies of the state: for each of `samples`
determinizations (what the player cannot see shuffled, as the search agent does: its own deck, the
other players' hands and decks, the face-down supply, the future random numbers), it applies the
action and plays on by its list, and scores where the look-ahead stops: a Main-phase decision at the
end of the Main phase, by the position there plus what the Second phase can spend (`coin` per coin
up to `coin_cap`, a quarter beyond: the coins, or the printed price of what the list then takes,
whichever is more, so that a discount counts), since the Second phase is its list's to play; a card
question of the Second phase or the Cleanup at the end of the turn. Valuing the Second phase by what
can be spent rather than by a score of the cards the list then buys keeps the planner from steering
its list (a static score that ranked a Senator above a Large City would otherwise play fewer coins so
that the list buys the Senator: measured, it lost games). The Second phase may set instead of buy:
with `settle` above 0, where the list would then set the Succession cards in hand (a domain, and
their SP reaching its `[set] min_sp`), that set scores `settle` per SP when it is worth more than
the coins. Without it, a Succession card in hand scores like one in the discard pile, and a card
that trades hand cards for draws or gains (Wishing Well, Adventurer) gives up a set for coins the
turn then does not spend (measured: docs/planner.md). A card question whose answers tie
at the turn's end puts a card where a later turn finds it (Scout's top card, Hideout, Supply Unit):
with `next`, its answers are played on to the end of the player's next Main phase and scored there.
The same determinizations serve every action (common random numbers), so actions are compared
on the same deals. Inside a look-ahead the player's later card questions are planned once more, one
level deep and with one determinization each, so that playing a card is valued with its question
answered well; everything else follows the list. The list's own action is kept unless another one
scores better by more than `margin`: the planner is a one-step improvement of its list (a rollout
policy in Bertsekas's sense), never a different plan.

The score of a turn's end, from the player p's side, is F(p) - opponents x mean F(q) over the other
players q still in the game, with, for every player,

    F(q) = SP(q) + potential x SP of q's Succession cards outside its domain
           + deck x sum over q's cards and backed princess of (printed cost - par)
           + backed if q has backed a princess + counter x q's coin counters

and, for the opponents, minus hand x the cards they hold (what an attack made them discard). Every
term reads printed card data and zones only: no card is named. The deck term prices a card by its
printed cost (a Calamity at 0) against a par, wherever it lies: a bought card adds more the dearer it
is, a backed princess counts like a bought card plus `backed` (her domain: a list backs whenever it
may, before any buy) and cards moved to the domain keep their price, so more coins never score less
and the planner does not second-guess its list's Second phase; exiling a card below par (a
Farming Village, an Apprentice Maid with its -2 SP) raises the score, a Curse given to an opponent
lowers theirs. The weights are parameters of the plan (`[plan]` in the agent file; x 100, SP = 100),
so `hoc tune` can search them with the buy rules.

Memory. The planner works in the arena at the tail of the state (`hoc.games.heart_of_crown.agents.arena`): the buffers
for determinizing, then three game copies (one per look-ahead level, and the determinized game every
weighed action starts from). A lineup with a planning seat gets the arena
(`hoc.games.heart_of_crown.agents.search.kernel.new_search_state`); other games pay nothing.
"""
import numpy as np

from hoc.games.heart_of_crown.agents.priority_kernel import (
    ROW, PR_ABILITIES, PR_BACK_MIN_COINS, PR_N_PRINCESS, PR_PRINCESS, PR_SET_MIN_SP, banned_choice,
    positive_succession, priority_buy, priority_policy, priority_question, unbanned,
)
from hoc.games.heart_of_crown.kernel.constants import (
    AGENTS, AGENT_SZ, A_ABILITY, A_BACK, A_HAND_ABILITY, A_SET, CTX_SECOND, H_MODE, H_WIN_MASK, H_WINNER, MODE_NONE, A_COIN, A_KEEP, A_DOMAIN_ABILITY, A_RECALL, A_PASS, A_PLAY, CTX_EFFECT, CTX_MAIN, DYNAMIC, F_COST,
    F_EFFECT, F_LINKS, F_SP, F_TRIGGERS, F_TYPES, HEADER, H_COINS, H_CTX, H_CUR, H_DECIDER,
    H_DEPTH, H_END, H_LEN, H_NACTIVE, H_NP, H_OFF_STATS, H_OPEN,
    H_PHASE, H_STEPS, H_TURNS, LEGAL, NCMAX, N_ACTIONS, PH_MAIN, PH_SECOND, P_ARNG, P_COIN_CTR, P_HANDY_CTR, P_HAND_N, P_KEPT_N, P_OUT, P_PRINCESS, P_SP, TRIG_PLAY, TY_ACTION, TY_CALAMITY, TY_SUCCESSION,
    TY_TERRITORY,
)
from hoc.games.heart_of_crown.kernel.effects import ability_ready, domain_ability_ready
from hoc.engine.jit import entry, kernel
from hoc.games.heart_of_crown.kernel.state import GOLDEN, active, card, domain, hand_mask, lowest, mix64, next_u64, owned, param, pb, store_u64
from hoc.games.heart_of_crown.kernel.turn import apply, is_legal, legal_actions
from hoc.games.heart_of_crown.kernel.zones import discounts_this_turn
from hoc.games.heart_of_crown.agents.arena import AR_COMMIT, AR_FIXED, AR_INNER, AR_MARK, AR_RNG, copy_offset, determinize
from hoc.games.heart_of_crown.agents.evaluation import N_FEATURES, feature, rival_terms, seat_terms, weighed
from hoc.engine.networks import BLOCK_HEAD, head, layers, network_block, obs_at

ONE = np.uint64(1)

# the plan block of the priority row: the row's table (`hoc.games.heart_of_crown.agents.row`), weights x 100
PL_SAMPLES = ROW.at("plan.samples")
PL_POTENTIAL = ROW.at("plan.potential")
PL_DECK = ROW.at("plan.deck")
PL_COUNTER = ROW.at("plan.counter")
PL_HAND = ROW.at("plan.hand")
PL_OPPONENTS = ROW.at("plan.opponents")
PL_MARGIN = ROW.at("plan.margin")
PL_NESTED = ROW.at("plan.nested")
PL_PAR = ROW.at("plan.par")
PL_BACKED = ROW.at("plan.backed")
PL_COIN = ROW.at("plan.coin")
PL_COIN_CAP = ROW.at("plan.coin_cap")
PL_SECOND = ROW.at("plan.second")
PL_HORIZON = ROW.at("plan.horizon")
PL_SECOND_MARGIN = ROW.at("plan.second_margin")
PL_SECOND_AT = ROW.at("plan.second_at")
PL_SETTLE = ROW.at("plan.settle")
PL_NEXT = ROW.at("plan.next")
PL_WEIGHTS = ROW.at("plan.weights")
WEIGHT_SCALE = ROW["plan.weights"].scale
assert 1 + N_FEATURES <= ROW["plan.weights"].length
DEFAULTS = {"samples": 1, "potential": 70, "deck": 100, "par": 150, "backed": 800, "counter": 80, "hand": 40,
            "opponents": 100, "margin": 5, "nested": 1, "coin": 100, "coin_cap": 8,
            "second": 0, "horizon": 1, "second_margin": 0, "second_at": 3, "settle": 0, "next": 0}
SECOND_DEFAULTS = {"second": 2, "horizon": 1, "second_margin": 0, "second_at": 3}    # what `NAME+plan` turns on
# ... and for its Main phase (measured: docs/planner.md): 4 determinizations (1 plays
# Wishing Well's and Scout's draws on one guess of the deck), a set weighed against what the Second
# phase can spend (100 to 600 play alike; 0 gives sets up for coins), tied questions weighed a turn on
MAIN_DEFAULTS = {"samples": 4, "settle": 200, "next": 1}
SLOTS = {"samples": PL_SAMPLES, "potential": PL_POTENTIAL, "deck": PL_DECK, "par": PL_PAR, "backed": PL_BACKED, "counter": PL_COUNTER,
         "hand": PL_HAND, "opponents": PL_OPPONENTS, "margin": PL_MARGIN, "nested": PL_NESTED,
         "coin": PL_COIN, "coin_cap": PL_COIN_CAP, "second": PL_SECOND, "horizon": PL_HORIZON,
         "second_margin": PL_SECOND_MARGIN, "second_at": PL_SECOND_AT, "settle": PL_SETTLE, "next": PL_NEXT}

INNER_SALT = np.uint64(0x91A7E5)


@kernel
def base_choice(s):
    """The list's own action for the decision s waits for (any seat: in a look-ahead every seat plays
    its list, the planner's model of the other players)."""
    if s[H_CTX] == CTX_EFFECT:
        a = priority_question(s)
        return a if a >= 0 else banned_choice(s)
    return priority_policy(s)


@kernel
def main_needs_plan(s, p):
    """A Main-phase decision the list's fixed order cannot weigh: a playable card in hand has a text
    that acts when played, or the princess's or a domain card's ability is ready (when the list uses them).
    With only plain cards the order does not matter and every one is worth playing."""
    if param(s, p, PR_ABILITIES) and (ability_ready(s, p) or domain_ability_ready(s, p)):
        return True
    if s[pb(s, p) + P_KEPT_N] > 0:
        return True
    if s[H_OPEN] <= 0:
        return False
    m = hand_mask(s, p)
    while m:
        c = lowest(m)
        m &= m - ONE
        if card(s, c, F_TYPES) & (TY_ACTION | TY_TERRITORY) and card(s, c, F_TRIGGERS) & (1 << TRIG_PLAY) \
                and card(s, c, F_EFFECT) != 0:
            return True
    return False


@kernel
def planned(s, p):
    """The decision s waits for is one the planner takes for p: p's own turn, the Main phase or a
    card question (with `samples`), the open Second phase where p may back or set (with `second`)."""
    if s[H_CUR] != p or s[H_DECIDER] != p:
        return False
    ctx = s[H_CTX]
    if ctx == CTX_SECOND:
        return second_needs_plan(s, p)
    if param(s, p, PL_SAMPLES) <= 0:
        return False
    if ctx == CTX_MAIN:
        return main_needs_plan(s, p)
    return ctx == CTX_EFFECT


@kernel
def standing(w, q, pot, deck, par, counter, backed):
    """F(q) x 100 (see the module docstring)."""
    b = pb(w, q)
    own = owned(w, q)
    dom = domain(w, q)
    worth = 0
    potential = 0
    for i in range(w[H_NACTIVE]):
        c = active(w, i)
        n = w[own + c]
        if n <= 0:
            continue
        if card(w, c, F_TYPES) & TY_CALAMITY == 0:
            worth += n * 100 * card(w, c, F_COST)
        worth -= n * par
        if card(w, c, F_TYPES) & TY_SUCCESSION:
            potential += (n - w[dom + c]) * card(w, c, F_SP)
    k = w[b + P_PRINCESS]
    bonus = 0
    if k >= 0:                   # the princess backed: priced like a card bought, plus what a domain is worth
        worth += 100 * card(w, k, F_COST) - par
        bonus = backed
    counters = w[b + P_COIN_CTR] + w[b + P_HANDY_CTR]
    return 100.0 * w[b + P_SP] + pot * potential + deck / 100.0 * worth + counter * counters + bonus


@kernel
def turn_value(w, p, row):
    """The score of the end of p's turn in w (x 100), the weights read from p's row in `row` (the real
    state)."""
    pot = param(row, p, PL_POTENTIAL)
    deck = param(row, p, PL_DECK)
    par = param(row, p, PL_PAR)
    counter = param(row, p, PL_COUNTER)
    backed = param(row, p, PL_BACKED)
    v = standing(w, p, pot, deck, par, counter, backed)
    others = 0.0
    n = 0
    held = 0
    for q in range(w[H_NP]):
        if q != p and w[pb(w, q) + P_OUT] == 0:
            others += standing(w, q, pot, deck, par, counter, backed)
            held += w[pb(w, q) + P_HAND_N]
            n += 1
    if n > 0:
        v -= param(row, p, PL_OPPONENTS) / 100.0 * others / n
        v -= param(row, p, PL_HAND) * held / n
    return v


@kernel
def priced(w, p):
    """The printed cost of every card p owns, added up."""
    own = owned(w, p)
    total = 0
    for i in range(w[H_NACTIVE]):
        c = active(w, i)
        total += w[own + c] * card(w, c, F_COST)
    return total


@kernel
def second_phase_out(w, turn):
    """The lists play w on to the end of the Second phase of the turn `turn`: its closing pass not
    taken (the Cleanup and the draw after it change nothing a Second phase is valued by, and cost
    more than the phase: measured), a backing's Cleanup, or the game's end."""
    while w[H_END] == 0 and w[H_TURNS] == turn and (w[H_PHASE] == PH_SECOND or w[H_DEPTH] > 0):
        a = base_choice(w)
        if a == A_PASS and w[H_PHASE] == PH_SECOND and w[H_DEPTH] == 0:
            return
        apply(w, a)


@kernel
def buying_power(w, p, turn):
    """Play the list's Second phase on in w (a Main-phase look-ahead stopped at its end) and return
    what p could spend there: its coins, or the printed price of what the list took (cards bought or
    gained, a princess backed and what she brings), whichever is more. Discounts (a card Buried
    Treasure revealed, Ball, Charm Witch, Klam-Klam) and reaching the list's backing threshold so count
    for what they bring, and more coins never count less. The Second phase is played on only when one
    of those can happen (otherwise the coins are the measure: a speed cut, measured)."""
    if w[H_END] != 0 or w[H_TURNS] != turn or w[H_CUR] != p:
        return 0
    coins = w[H_COINS]
    backs = w[pb(w, p) + P_PRINCESS] < 0 and coins >= param(w, p, PR_BACK_MIN_COINS)
    if not backs and not discounts_this_turn(w, p):
        return coins                  # nothing sells below its price, no backing: the coins are the measure
    before = priced(w, p)
    had_princess = w[pb(w, p) + P_PRINCESS] >= 0
    second_phase_out(w, turn)
    took = priced(w, p) - before
    k = w[pb(w, p) + P_PRINCESS]
    if not had_princess and k >= 0:
        took += card(w, k, F_COST)
    return max(coins, took)


@kernel
def settable(w, p):
    """The SP p's list would set from hand in the Second phase w has reached: its positive-SP
    Succession cards in hand when p has a domain and they reach the list's `[set] min_sp`, else 0."""
    if w[H_PHASE] != PH_SECOND or w[H_MODE] != MODE_NONE or w[pb(w, p) + P_PRINCESS] < 0:
        return 0
    total, first = positive_succession(w, p)
    if first < 0 or total < param(w, p, PR_SET_MIN_SP) or not is_legal(w, A_SET + first):
        return 0
    return total


@kernel
def end_value(s, w, p, turn, main):
    """The score of where a look-ahead stopped (x 100): the end of the turn; or, for a Main-phase
    decision, the end of the Main phase plus the better of the Second phase's buy and set: what it
    can spend (`coin` per coin up to `coin_cap`, a quarter beyond), its cards priced by that and not
    again by the deck term; or `settle` per SP the list would set from hand. Without the set, a
    look-ahead prices a Succession card in hand like one in the discard pile, and a card that trades
    hand cards for draws (Wishing Well) gives up a set for coins the turn will not spend."""
    v = turn_value(w, p, s)
    if main:
        sp = settable(w, p) if w[H_CUR] == p and w[H_TURNS] == turn and w[H_END] == 0 else 0
        power = buying_power(w, p, turn) + 0.0
        cap = param(s, p, PL_COIN_CAP)
        v += max(param(s, p, PL_COIN) * (min(power, cap) + 0.25 * max(0.0, power - cap)),
                 param(s, p, PL_SETTLE) * sp + 0.0)
    return v


@kernel
def copy_game(s, w):
    """w's header and game regions from s, but the coverage statistics (the last region: a look-ahead
    only adds to them, and nothing it reads depends on them); the rules, card table and lineup of w
    are written apart (`copy_fixed`). Whole regions: a plain loop compiles to a block copy, faster
    than copying only the live part of each pile (measured)."""
    for i in range(HEADER):          # loops, not slice copies: those may allocate a temporary
        w[i] = s[i]
    for i in range(DYNAMIC, s[H_OFF_STATS]):
        w[i] = s[i]


@kernel
def copy_fixed(s, w, rules):
    """w's lineup from s (the rows of the seats in play) and, with `rules`, its ruleset vector and
    card table (those never change in a state's life: written once, see AR_FIXED)."""
    if rules:
        for i in range(HEADER, AGENTS):
            w[i] = s[i]
    for i in range(AGENTS, AGENTS + s[H_NP] * AGENT_SZ):
        w[i] = s[i]


@kernel
def plain_card(s, c):
    """A card without a text that acts when played: playing it only adds its coins and links."""
    return card(s, c, F_TRIGGERS) & (1 << TRIG_PLAY) == 0 or card(s, c, F_EFFECT) == 0


@kernel
def plain_link_in_hand(s, p):
    if s[H_OPEN] <= 0:
        return False
    m = hand_mask(s, p)
    while m:
        c = lowest(m)
        m &= m - ONE
        if card(s, c, F_TYPES) & (TY_ACTION | TY_TERRITORY) and plain_card(s, c) and card(s, c, F_LINKS) > 0:
            return True
    return False


@entry
def main_actions(s, p, out):
    """`legal_actions` for a Main-phase decision, from the player's hand and kept cards rather than
    from every action of the space (the same actions, in the same ascending order, about ten
    legality tests instead of 140)."""
    n = 0
    for a in (A_PASS, A_COIN, A_ABILITY, A_DOMAIN_ABILITY, A_HAND_ABILITY):
        if is_legal(s, a):
            out[n] = a
            n += 1
    kept = s[pb(s, p) + P_KEPT_N] > 0
    for verb in (A_PLAY, A_RECALL, A_KEEP):
        if verb == A_RECALL and kept:
            for i in range(s[H_NACTIVE]):
                if is_legal(s, A_RECALL + active(s, i)):
                    out[n] = A_RECALL + active(s, i)
                    n += 1
        elif verb != A_RECALL:
            m = hand_mask(s, p)
            while m:
                c = lowest(m)
                m &= m - ONE
                if is_legal(s, verb + c):
                    out[n] = verb + c
                    n += 1
    return n


@kernel
def candidates(s, p, out):
    """The actions the planner weighs (into out; returns how many): the legal ones, without the
    abilities when the list does not use them, and in the Main phase one plain card with a link for
    all of them (the first): which of those is played first changes nothing the rest of the turn
    cannot play too, so weighing each would only multiply the look-aheads; and no pass while such a
    card is playable (its coins and link cost nothing)."""
    if s[H_CTX] != CTX_MAIN:
        return legal_actions(s, out)
    n = main_actions(s, p, out)
    abilities = param(s, p, PR_ABILITIES) != 0
    m = 0
    plain_seen = False
    for i in range(n):
        a = out[i]
        if (a == A_ABILITY or a == A_DOMAIN_ABILITY) and not abilities:
            continue
        if a == A_PASS and plain_link_in_hand(s, p):
            continue                  # ending the Main phase with a free play left never scores more
        if A_PLAY <= a < A_PLAY + NCMAX:
            c = a - A_PLAY
            if plain_card(s, c) and card(s, c, F_LINKS) > 0:
                if plain_seen:
                    continue
                plain_seen = True
        out[m] = a
        m += 1
    return m


@kernel
def going(w, turn, main):
    """A look-ahead goes on: the game and the turn `turn` are not over and, when `main`, neither is
    its Main phase (effects still resolving count as the Main phase)."""
    if w[H_END] != 0 or w[H_TURNS] != turn:
        return False
    return not main or w[H_PHASE] == PH_MAIN or w[H_DEPTH] > 0


@kernel
def play_turn_out(w, turn, main):
    """The lists play w on to the end of the turn `turn` (the next turn starting, or the game's end),
    or with `main` to the end of its Main phase."""
    while going(w, turn, main):
        apply(w, base_choice(w))


@kernel
def finish_turn(s, w, x, p, turn, main):
    """`play_turn_out`, but p's own card questions with a choice are planned one level down (in
    copy x): playing a card is then valued with its question answered well."""
    while going(w, turn, main):
        if w[H_CTX] == CTX_EFFECT and w[H_DECIDER] == p and w[H_CUR] == p:
            a = plan_inner(s, w, x, p, turn, main)
        else:
            a = base_choice(w)
        apply(w, a)


@kernel
def plan_inner(s, w, x, p, turn, main):
    """A card question inside a look-ahead: each legal answer tried once on its own determinization
    of w (one seed for all answers), the rest of the turn by the lists."""
    own = base_choice(w)
    n = legal_actions(w, w[LEGAL:LEGAL + N_ACTIONS])
    if n <= 1:
        return own
    seed = next_u64(s, s[H_LEN] + AR_INNER)
    best = own
    best_v = -1e300
    for i in range(-1, n):            # the list's own answer first: the others must beat it by the margin
        a = own if i < 0 else w[LEGAL + i]
        if i >= 0 and a == own:
            continue
        copy_game(w, x)
        store_u64(s, s[H_LEN] + AR_RNG, seed)
        determinize(s, x, p)
        apply(x, a)
        play_turn_out(x, turn, main)
        v = end_value(s, x, p, turn, main)
        if i < 0:
            best_v = v + param(s, p, PL_MARGIN)
        elif v > best_v:
            best_v = v
            best = a
    return best


@kernel
def prepare_arena(s):
    """Write the fixed part (rules, card table, lineup) of the arena's game copies, once per state."""
    length = s[H_LEN]
    start = copy_offset(s)
    rules = s[s[H_LEN] + AR_FIXED] == 0
    copy_fixed(s, s[start:start + length], rules)
    copy_fixed(s, s[start + length:start + 2 * length], rules)
    s[s[H_LEN] + AR_FIXED] = 1


@kernel
def score_candidates(s, p, n, first, sums, ahead):
    """Add up, into sums[i] (x 1, rounded), the score of the end of p's turn after the i-th action of
    s's LEGAL block (the list's own action `first` before them, into sums[n]), over p's `samples`
    determinizations. Each determinization is drawn once and every action starts from it (common
    random numbers: actions are compared on the same deals), so an action costs a copy and the rest
    of the turn, not a determinization. With `ahead` (a card question whose answers the end of this
    turn cannot tell apart: a card put on the deck for a later turn), each action is played on by the
    lists to the end of p's next Main phase and scored there (`end_value`: its position, and what its
    Second phase can spend or set): the effect of such an answer lands in that turn's hand."""
    length = s[H_LEN]
    start = copy_offset(s)
    w = s[start:start + length]
    x = s[start + length:start + 2 * length]
    saved = s[start + 2 * length:start + 3 * length]      # the determinized game, header and game part
    if not ahead:
        prepare_arena(s)
    nested = param(s, p, PL_NESTED) != 0
    seed = next_u64(s, pb(s, p) + P_ARNG)
    if not ahead:
        store_u64(s, s[H_LEN] + AR_INNER, mix64(seed ^ INNER_SALT))
    turn = s[H_TURNS]
    main = s[H_PHASE] == PH_MAIN
    for i in range(n + 1):
        sums[i] = 0
    for k in range(max(1, param(s, p, PL_SAMPLES))):
        copy_game(s, w)
        store_u64(s, s[H_LEN] + AR_RNG, mix64(seed + np.uint64(k + 1) * GOLDEN))
        determinize(s, w, p)
        copy_game(w, saved)
        for i in range(n + 1):
            a = first if i == n else s[LEGAL + i]
            if i < n and a == first:
                continue
            if k > 0 or i > 0:
                copy_game(saved, w)
            apply(w, a)
            if ahead:
                t = play_next_main(w, p, turn)
                sums[i] += np.int32(end_value(s, w, p, t, t >= 0) + 0.5)
                continue
            if nested:
                finish_turn(s, w, x, p, turn, main)
            else:
                play_turn_out(w, turn, main)
            sums[i] += np.int32(end_value(s, w, p, turn, main) + 0.5)


@kernel
def play_next_main(w, p, turn):
    """The lists play w on to the end of p's next Main phase after the turn `turn` (its next own turn),
    and return that turn's number; -1 if the game ends first."""
    while w[H_END] == 0:
        if w[H_TURNS] != turn and w[H_CUR] == p and w[H_PHASE] > PH_MAIN and w[H_DEPTH] == 0:
            return w[H_TURNS]
        apply(w, base_choice(w))
    return -1


@kernel
def tied(s, n, first, sums):
    """Every candidate scored as the list's own action `first` (sums[n])."""
    for i in range(n):
        if s[LEGAL + i] != first and sums[i] != sums[n]:
            return False
    return True


@kernel
def score_answers(s, p, n, own, sums):
    """`score_candidates` to the end of this turn; for a card question whose answers all tie there,
    again to the end of the next turn's Main phase (`[plan] next`)."""
    score_candidates(s, p, n, own, sums, False)
    if s[H_CTX] == CTX_EFFECT and param(s, p, PL_NEXT) != 0 and tied(s, n, own, sums):
        score_candidates(s, p, n, own, sums, True)


@kernel
def has_arena(s):
    return s.shape[0] >= copy_offset(s) + 3 * s[H_LEN]


@kernel
def committed(s, p, own):
    """The planner's last Main-phase choice was a plain card with a link, the very decision before
    this one (nothing drawn, no other decision since), and the list's action now is another: keep to
    the line that look-ahead scored (its continuation played the list's order, plain cards first)."""
    c = s[H_LEN] + AR_COMMIT
    if s[c] != s[H_TURNS] + 1 or s[c + 1] != s[H_STEPS] or s[c + 2] != p or s[c + 3] != s[pb(s, p) + P_HAND_N]:
        return False
    return A_PLAY <= own < A_PLAY + NCMAX and plain_card(s, own - A_PLAY) and card(s, own - A_PLAY, F_LINKS) > 0


@kernel
def commit(s, p, a):
    """Remember a plain card chosen (see `committed`); any other choice forgets."""
    c = s[H_LEN] + AR_COMMIT
    if s[H_CTX] == CTX_MAIN and A_PLAY <= a < A_PLAY + NCMAX and plain_card(s, a - A_PLAY):
        s[c] = s[H_TURNS] + 1
        s[c + 1] = s[H_STEPS] + 1
        s[c + 2] = p
        s[c + 3] = s[pb(s, p) + P_HAND_N] - 1
    else:
        s[c] = 0


@kernel
def plan_choice(s, p):
    """The planner's action for the decision s waits for (see the module docstring): the list's own
    action unless another legal action scores better by more than the margin. The real state comes
    out as it went in but for p's own random stream (one draw seeds the look-aheads) and the arena."""
    if s[H_CTX] == CTX_SECOND:
        return second_choice(s, p)
    own = base_choice(s)
    if not has_arena(s):              # (a state without the arena is never made so by the loops)
        return own
    if committed(s, p, own):
        commit(s, p, own)
        return own
    n = unbanned(s, p, s[LEGAL:LEGAL + N_ACTIONS], candidates(s, p, s[LEGAL:LEGAL + N_ACTIONS]))
    if n <= 1:
        commit(s, p, -1)
        return own
    sums = s[s[H_LEN] + AR_MARK:s[H_LEN] + AR_MARK + N_ACTIONS]   # the search's marks: free between its decisions
    score_answers(s, p, n, own, sums)
    samples = max(1, param(s, p, PL_SAMPLES))
    best = own
    best_sum = sums[n] + param(s, p, PL_MARGIN) * samples
    for i in range(n):
        if s[LEGAL + i] != own and sums[i] > best_sum:
            best_sum = sums[i]
            best = s[LEGAL + i]
    commit(s, p, best)
    return best


# ---- the Second phase: back, set or buy, weighed by the evaluation a turn or two ahead --------------
@kernel
def list_back(s, p):
    """Backing the first princess of p's list that p may back now (whatever its thresholds say), or -1."""
    for i in range(param(s, p, PR_N_PRINCESS)):
        k = param(s, p, PR_PRINCESS + i)
        if is_legal(s, A_BACK + k):
            return A_BACK + k
    return -1


@kernel
def list_set(s, p):
    """Setting the first Succession card of positive SP in p's hand, if p may set, or -1."""
    if s[pb(s, p) + P_PRINCESS] < 0:
        return -1
    total, first = positive_succession(s, p)
    if first >= 0 and is_legal(s, A_SET + first):
        return A_SET + first
    return -1


@kernel
def second_needs_plan(s, p):
    """An open Second phase (nothing bought, backed nor set yet) in which p may back or set."""
    if param(s, p, PL_SECOND) <= 0 or s[H_MODE] != MODE_NONE:
        return False
    at = param(s, p, PL_SECOND_AT)
    if not ((at & 1 != 0 and list_back(s, p) >= 0) or (at & 2 != 0 and list_set(s, p) >= 0)):
        return False
    return param(s, p, PL_HORIZON) >= 0 or preference_gate(s, p)


@kernel
def preference_gate(s, p):
    """`horizon = -1`: whether the preference network's gate, a linear score of p's features now
    (the weights after the network's in its block, `hoc.games.heart_of_crown.agents.preference`),
    expects the network may prefer another option to the list's own. Where it does not, the list's
    own action stands unweighed. The copies and the network are most of the preference's cost, so the
    gate's threshold trades strength for speed (measured: docs/planner.md, "The Second phase
    without look-ahead")."""
    b = network_block(s, param(s, p, PL_WEIGHTS))
    if b < 0 or s[b] != 2 * N_FEATURES:
        return False
    h1 = s[b + 1]
    h2 = s[b + 2]
    g = s[b] * h1 + h1 + h1 * h2 + h2 + s[b + 3] * (h2 + 1) + h2 + 1      # after the network's weights
    f = s[b + BLOCK_HEAD + g:b + BLOCK_HEAD + g + 1 + N_FEATURES].view(np.float32)
    own = seat_terms(s, p)
    rival = rival_terms(s, p)
    z = f[0] + 0.0
    for j in range(N_FEATURES):
        z += f[1 + j] * feature(s, p, own, rival, j)
    return z > 0


@kernel
def second_options(s, p, out):
    """The options weighed (into out, the list's own first; returns how many): the list's own action,
    backing its first princess, setting its first Succession card, and its buy (the buy rules alone)."""
    out[0] = base_choice(s)
    n = 1
    for a in (list_back(s, p), list_set(s, p), priority_buy(s, p)):
        if a < 0:
            continue
        seen = False
        for i in range(n):
            seen = seen or out[i] == a
        if not seen:
            out[n] = a
            n += 1
    return n


@kernel
def play_own_turns(w, p, k):
    """The lists play w on until p has ended k turns (the current one counts when it is p's) or
    the game is over."""
    done = 0
    while w[H_END] == 0:
        t = w[H_TURNS]
        cur = w[H_CUR]
        apply(w, base_choice(w))
        if w[H_TURNS] != t and cur == p:
            done += 1
            if done >= k:
                return


@kernel
def outlook(s, w, p):
    """The evaluation's log-odds for p where a Second-phase look-ahead stopped (x 1000): a won game
    +20, a lost one -20, a shared win 0."""
    if w[H_END] != 0:
        mask = w[H_WIN_MASK]
        if mask == 0:             # no mask: one winner or none (a capped game)
            return 0.0 if w[H_WINNER] < 0 else (20_000.0 if w[H_WINNER] == p else -20_000.0)
        if (mask >> p) & 1:
            return 0.0 if mask != (1 << p) else 20_000.0
        return -20_000.0
    return 1000.0 * weighed(w, p, s, AGENTS + p * AGENT_SZ + 1 + PL_WEIGHTS, WEIGHT_SCALE)


@kernel
def end_features(w, p, rival, x, at, minus):
    """p's evaluation features where w stopped (its rivals' terms `rival` given) into
    x[at:at + N_FEATURES], less x[minus:...] when minus is 0 or more."""
    own = seat_terms(w, p)
    for j in range(N_FEATURES):
        v = feature(w, p, own, rival, j)
        x[at + j] = v - x[minus + j] if minus >= 0 else v


@kernel
def preferred(s, p, w, opts, n, sums):
    """`horizon = -1`: sums[i] (x 1000) the preference network's score of option opts[i] against the
    list's own opts[0], each played on in the copy w to the end of this Second phase (nothing
    determinized). The network (its key in the plan's evaluation slot, its weights in the state's tail,
    `hoc.games.heart_of_crown.agents.preference`) reads the features where the own option's Second
    phase ends and how the other option's differ from them; an option that ends the game scores by its
    result. Without the network every option scores 0 and the list's own stays."""
    for i in range(n):
        sums[i] = 0
    b = network_block(s, param(s, p, PL_WEIGHTS))
    if b < 0 or s[b] != 2 * N_FEATURES:
        return
    o = obs_at(s)
    x = s[o:o + 2 * N_FEATURES].view(np.float32)
    turn = s[H_TURNS]
    rival = rival_terms(s, p)         # p's Second phase leaves the rivals' cards as they are (a speed cut, measured)
    for i in range(n):
        copy_game(s, w)
        apply(w, opts[i])
        second_phase_out(w, turn)
        if w[H_END] != 0:
            sums[i] = np.int32(outlook(s, w, p) + 0.5)
            if i == 0:
                return                    # the list's own ends the game: nothing to weigh against it
            continue
        if i == 0:
            end_features(w, p, rival, x, 0, -1)
            continue
        end_features(w, p, rival, x, N_FEATURES, 0)
        r = layers(s, b)
        sums[i] = np.int32(1000.0 * head(s, b, r, r + s[b + 2]) + 0.5)


@kernel
def second_sums(s, p, opts, n, sums):
    """sums[i]: the score of option opts[i] of an open Second phase (log-odds x 1000, see `outlook`),
    added up over the determinizations; returns how many were added up. With `horizon` 0 or more:
    each option is played by the lists on `second` determinizations (the same ones for every option)
    to the end of p's turn and `horizon` more of p's turns. With `horizon` -1, no look-ahead and
    nothing determinized: each option is played on to the end of this Second phase (p's list buys
    with what is left; only p's own hand and the supply are read) and scored there, by the
    preference the plan carries (fitted to the look-ahead's choices, `SECOND_PREFERENCE`)."""
    length = s[H_LEN]
    start = copy_offset(s)
    w = s[start:start + length]
    saved = s[start + 2 * length:start + 3 * length]
    prepare_arena(s)
    for i in range(n):
        sums[i] = 0
    if param(s, p, PL_HORIZON) < 0:
        preferred(s, p, w, opts, n, sums)
        return 1
    seed = next_u64(s, pb(s, p) + P_ARNG)
    turns = 1 + param(s, p, PL_HORIZON)
    samples = max(1, param(s, p, PL_SECOND))
    for k in range(samples):
        copy_game(s, w)
        store_u64(s, s[H_LEN] + AR_RNG, mix64(seed + np.uint64(k + 1) * GOLDEN))
        determinize(s, w, p)
        copy_game(w, saved)
        for i in range(n):
            if i > 0:
                copy_game(saved, w)
            apply(w, opts[i])
            play_own_turns(w, p, turns)
            sums[i] += np.int32(outlook(s, w, p) + 0.5)
    return samples


@kernel
def second_choice(s, p):
    """The option of an open Second phase (`second_options`) that `second_sums` scores highest; the
    list's own unless another beats it by the margin."""
    opts = s[LEGAL:LEGAL + N_ACTIONS]
    n = second_options(s, p, opts)
    if n <= 1 or not has_arena(s):
        return opts[0]
    sums = s[s[H_LEN] + AR_MARK:s[H_LEN] + AR_MARK + N_ACTIONS]
    samples = second_sums(s, p, opts, n, sums)
    best = 0
    best_sum = sums[0] + param(s, p, PL_SECOND_MARGIN) * samples
    for i in range(1, n):
        if sums[i] > best_sum:
            best_sum = sums[i]
            best = i
    return opts[best]


@entry
def second_scores(s, p, actions, values):
    """The options of the open Second phase s waits for (the list's own first) and their mean scores,
    as `second_choice` weighs them, into actions and values; returns how many (0 where p's planner
    does not weigh this Second phase; s must have the arena). For tests and for fitting the
    preference to the look-ahead's choices (`experiments.second_preference`)."""
    if not (s[H_CTX] == CTX_SECOND and s[H_CUR] == p and s[H_DECIDER] == p and second_needs_plan(s, p)):
        return 0
    n = second_options(s, p, actions)
    sums = s[s[H_LEN] + AR_MARK:s[H_LEN] + AR_MARK + N_ACTIONS]
    samples = second_sums(s, p, actions, n, sums)
    for i in range(n):
        values[i] = sums[i] / samples
    return n


@entry
def second_ends(s, p, actions, n, out):
    """For each of actions[:n] (options of the open Second phase s waits for), p's evaluation features
    (`hoc.games.heart_of_crown.agents.evaluation.FEATURE_NAMES`) where that Second phase ends, the
    rivals' terms as they are now, as `horizon = -1` scores it, into out[i, :]."""
    length = s[H_LEN]
    start = copy_offset(s)
    w = s[start:start + length]
    prepare_arena(s)
    turn = s[H_TURNS]
    rival = rival_terms(s, p)
    for i in range(n):
        copy_game(s, w)
        apply(w, actions[i])
        second_phase_out(w, turn)
        own = seat_terms(w, p)
        for j in range(N_FEATURES):
            out[i, j] = feature(w, p, own, rival, j)


@entry
def plan_scores(s, p, actions, values):
    """Every candidate action of the decision s waits for and its mean score, as `plan_choice`
    weighs them (for tests and for reading the planner's reasons; s must have the arena). Returns
    how many."""
    n = unbanned(s, p, s[LEGAL:LEGAL + N_ACTIONS], candidates(s, p, s[LEGAL:LEGAL + N_ACTIONS]))
    own = base_choice(s)
    sums = s[s[H_LEN] + AR_MARK:s[H_LEN] + AR_MARK + N_ACTIONS]
    score_answers(s, p, n, own, sums)
    samples = max(1, param(s, p, PL_SAMPLES))
    for i in range(n):
        actions[i] = s[LEGAL + i]
        values[i] = (sums[n] if actions[i] == own else sums[i]) / samples
    return n
