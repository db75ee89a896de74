"""Dominion's jitted interface: what the engine's loops (`hoc.engine.loops`), the research batch and
the environments call, the same names in every game (see `hoc.games.heart_of_crown.kernel.api`):
`new_state`, `game_seed`, `game_seeds`, `init_game`, `legal_actions`, `is_legal`, `apply`,
`apply_if_legal`, `check`, `card_totals`, `record`, `owned_copies`."""
import sys

from hoc.engine.jit import entry
from hoc.engine.state import copy_owned, record_owned
from hoc.engine.layout import (
    MAX_KINDS, RES_END, RES_EXTRA, RES_MARKET, RES_OWNED, RES_OWN_TURNS, RES_SCORE, RES_SEAT, RES_SEAT_SZ,
    RES_STEPS, RES_TURNS, RES_WINNER, RES_WIN_MASK,
)
from hoc.games.dominion.kernel.constants import (
    H_CTX, H_END, H_KINDS, H_NC, H_NP, H_N_KINDS, H_STEPS, H_TURNS, H_WINNER, H_WIN_MASK, P_TURNS, P_VP, R_CURSE, R_NC,
    R_PROVINCE,
)
from hoc.games.dominion.kernel.invariants import check
from hoc.games.dominion.kernel.setup import game_seed, game_seeds, init_game, new_state  # noqa: F401
from hoc.games.dominion.kernel.state import owned, pb, rule
from hoc.games.dominion.kernel.turn import advance, apply, apply_if_legal, is_legal, legal_actions  # noqa: F401

RES_PROVINCES = RES_EXTRA       # the seat's extras: Provinces and Curses it owned at the end
RES_CURSES = RES_EXTRA + 1


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
    """The result row of the finished game in s: the shared fields, then per seat its VP (the
    score), the Provinces and Curses it owned, its own turns and the cards it owned at the end."""
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
        out[o + RES_PROVINCES] = s[own + rule(s, R_PROVINCE)]
        out[o + RES_CURSES] = s[own + rule(s, R_CURSE)]
        out[o + RES_OWN_TURNS] = s[b + P_TURNS]
        record_owned(s, own, s[H_NC], out, o + RES_OWNED)
    for i in range(MAX_KINDS):
        out[RES_MARKET + i] = s[H_KINDS + i] if i < s[H_N_KINDS] else -1


def for_rules(vector, shared: bool):
    """The interface the loops of any Dominion ruleset take (one, for every ruleset)."""
    return sys.modules[__name__]


@entry
def resume(s):
    """Run the game on to its next decision, after a Python edit of its zones (`Game.arrange`)."""
    s[H_CTX] = 0
    advance(s)
