"""Toy's jitted interface, the names the engine calls in every game: `new_state`, `game_seed`,
`game_seeds`, `init_game`, `legal_actions`, `is_legal`, `apply`, `apply_if_legal`, `check`,
`card_totals`, `record` (and `for_rules`, the spec's `kernel_for`)."""
import sys

from hoc.engine.jit import entry
from hoc.engine.state import record_owned
from toy_game.kernel.constants import (
    H_END, H_KINDS, H_NC, H_NP, H_N_KINDS, H_STEPS, H_TURNS, H_WINNER, H_WIN_MASK, MAX_KINDS, P_TURNS, P_VP,
    RES_END, RES_EXTRA, RES_MARKET, RES_OWNED, RES_OWN_TURNS, RES_SCORE, RES_SEAT, RES_SEAT_SZ, RES_STEPS,
    RES_TURNS, RES_WINNER, RES_WIN_MASK, R_DUCHY, R_NC,
)
from toy_game.kernel.core import (  # noqa: F401 (the interface)
    apply, apply_if_legal, check, game_seed, game_seeds, init_game, is_legal, legal_actions, new_state, owned, pb,
    rule,
)

RES_DUCHIES = RES_EXTRA         # the seat's extras: the Duchies it owned, and every card it owned
RES_CARDS = RES_EXTRA + 1


@entry
def card_totals(s, totals, work):
    """Copies of each card in a freshly dealt game (for the no-card-created-or-lost check)."""
    for c in range(rule(s, R_NC)):
        totals[c] = 0
    check(s, totals, work)
    for c in range(rule(s, R_NC)):
        totals[c] = work[c]


@entry
def record(s, out):
    """The result row of the finished game in s (`hoc.engine.layout` RES_*)."""
    out[RES_WINNER] = s[H_WINNER]
    out[RES_END] = s[H_END]
    out[RES_TURNS] = s[H_TURNS]
    out[RES_WIN_MASK] = s[H_WIN_MASK]
    out[RES_STEPS] = s[H_STEPS]
    for p in range(s[H_NP]):
        b = pb(s, p)
        o = RES_SEAT + p * RES_SEAT_SZ
        own = owned(s, p)
        out[o + RES_SCORE] = s[b + P_VP]
        out[o + RES_DUCHIES] = s[own + rule(s, R_DUCHY)]
        total = 0
        for c in range(s[H_NC]):
            total += s[own + c]
        out[o + RES_CARDS] = total
        out[o + RES_OWN_TURNS] = s[b + P_TURNS]
        record_owned(s, own, s[H_NC], out, o + RES_OWNED)
    for i in range(MAX_KINDS):
        out[RES_MARKET + i] = s[H_KINDS + i] if i < s[H_N_KINDS] else -1


def for_rules(vector, shared: bool):
    """The interface the loops of any Toy ruleset take (one for all)."""
    return sys.modules[__name__]
