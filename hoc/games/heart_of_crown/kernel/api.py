"""Heart of Crown's jitted interface: what the engine's loops (`hoc.engine.loops`), the research
batch, the tuner and the environments call, the same names in every game.

- `new_state(T, R)`, `game_seed(master, index)`, `game_seeds(master, first, n)`, `init_game(s, seed)`:
  a state for a ruleset and card table, and a game dealt from a seed;
- `legal_actions(s, out)`, `is_legal(s, a)`, `apply(s, a)`: the decision interface;
- `check(s, totals, work)`, `card_totals(s, totals, work)`: the invariants `--validate` checks;
- `record(s, out)`: the game's result row (`hoc.engine.layout`'s RES_*);
- `owned_copies(s, p, out)`: copies of each card seat p owns (the strategy atlas's measure of a deck).

This module is that interface for games of either edition. `SECOND_EDITION` is the same interface
whose `apply` and `init_game` leave out the routines of the 1st edition's own texts (the loops of a
2nd-edition run take it: `for_rules`), so a 2nd-edition run compiles none of them.
"""
import sys

from hoc.engine.jit import entry
from hoc.engine.layout import (
    MAX_KINDS, RES_END, RES_MARKET, RES_OWNED, RES_OWN_TURNS, RES_SCORE, RES_SEAT, RES_SEAT_SZ, RES_STEPS,
    RES_TURNS, RES_WINNER, RES_WIN_MASK,
)
from hoc.engine.state import copy_owned, record_owned, rule
from hoc.games.heart_of_crown.kernel.constants import (
    H_END, H_KINDS, H_N_KINDS, H_NC, H_NP, H_STEPS, H_TURNS, H_WINNER, H_WIN_MASK, P_BACK_TURN, P_PRINCESS, P_SP,
    P_TURNS, RES_BACK_TURN, RES_PRINCESS, RES_SEATING, R_EDITION, R_NC, R_SEATING, SEATING_LINEUP, SEAT_POS,
)
from hoc.games.heart_of_crown.kernel.invariants import check
from hoc.engine.loops import namespace
from hoc.games.heart_of_crown.kernel.setup import deal, game_seed, game_seeds, init_game, new_state  # noqa: F401
from hoc.games.heart_of_crown.kernel.state import owned, pb
from hoc.games.heart_of_crown.kernel.turn import ALL_EDITIONS as _ALL, SECOND_EDITION as _SECOND
from hoc.games.heart_of_crown.kernel.turn import apply, apply_if_legal, is_legal, legal_actions  # noqa: F401


@entry
def card_totals(s, totals, work):
    """Copies of each card in a freshly set-up game (for the no-card-created-or-lost check)."""
    for c in range(rule(s, R_NC)):
        totals[c] = 0
    check(s, totals, work)       # fills work with the counts found
    for c in range(rule(s, R_NC)):
        totals[c] = work[c]


@entry
def owned_copies(s, p, out):
    """Copies of each card (by id) that seat p owns now, into out[:number of cards] (what the
    strategy atlas measures of a deck)."""
    copy_owned(s, owned(s, p), s[H_NC], out)


@entry
def record(s, out):
    """The result row of the finished game in s: the shared fields (with where each player sat when a
    seating rule seated them: RES_SEATING), then per seat its SP (the score),
    the princess it backed and when, its own turns and the cards it owned at the end."""
    out[RES_WINNER] = s[H_WINNER]
    out[RES_END] = s[H_END]
    out[RES_TURNS] = s[H_TURNS]
    out[RES_WIN_MASK] = s[H_WIN_MASK]
    out[RES_STEPS] = s[H_STEPS]
    seating = 0
    if rule(s, R_SEATING) != SEATING_LINEUP:
        for p in range(s[H_NP]):
            seating |= (s[SEAT_POS + p] + 1) << (4 * p)
    out[RES_SEATING] = seating
    for p in range(s[H_NP]):
        b = pb(s, p)
        o = RES_SEAT + p * RES_SEAT_SZ
        out[o + RES_SCORE] = s[b + P_SP]
        out[o + RES_PRINCESS] = s[b + P_PRINCESS]
        out[o + RES_BACK_TURN] = s[b + P_BACK_TURN]
        out[o + RES_OWN_TURNS] = s[b + P_TURNS]
        own = owned(s, p)
        record_owned(s, own, s[H_NC], out, o + RES_OWNED)
    for i in range(MAX_KINDS):
        out[RES_MARKET + i] = s[H_KINDS + i] if i < s[H_N_KINDS] else -1


SECOND_EDITION = namespace(f"{__name__}.second_edition", "The jitted interface for 2nd-edition games only.")


@entry
def _init_game_2e(s, seed):
    """`init_game` of a 2nd-edition game."""
    deal(s, seed)
    _SECOND.advance(s)


for _name in ("new_state", "game_seed", "game_seeds", "legal_actions", "is_legal", "check", "card_totals", "record",
              "owned_copies"):
    setattr(SECOND_EDITION, _name, globals()[_name])
SECOND_EDITION.apply, SECOND_EDITION.apply_if_legal, SECOND_EDITION.init_game = (_SECOND.apply, _SECOND.apply_if_legal,
                                                                                 _init_game_2e)
assert _ALL.apply is apply


def for_rules(vector, shared: bool):
    """The interface the loops of a ruleset (its vector) take: the 2nd edition's own, unless the
    ruleset is of the 1st edition, or seats its players by a variant (its routine is one of the
    1st edition's own), or the run's agents play games on their own too (`shared`: a
    search agent or a turn planner calls the interface of either edition; giving the loops that
    one too compiles the rules once, not twice). The games are the same either way."""
    if not shared and int(vector[R_EDITION]) == 2 and int(vector[R_SEATING]) == SEATING_LINEUP:
        return SECOND_EDITION
    return sys.modules[__name__]
