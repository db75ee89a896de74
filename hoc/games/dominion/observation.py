"""The observation of a Dominion seat: what it may see of a game, written by a jitted kernel into a
flat float vector (the environments' input). `FIELDS` describes it, in order.

Blocks: the table (turn, phase, the turn's Actions/Buys/coins, the pending question, supply, play
area, trash); per seat, the observing seat first and then in turn order, what everyone can track
(cards owned by card, deck/hand/discard sizes, turns, VP); the observing seat's own hand, discard
pile and the contents of its deck as counts (never their order). Never in it: another seat's hand,
the order of any deck, the random streams. Card fields have NCMAX slots (card id order).
"""
from __future__ import annotations

from hoc.engine.jit import entry
from hoc.games.dominion.kernel.constants import (
    CTX_EFFECT, H_ACTIONS, H_ASIDE_SEAT, H_BUYS, H_COINS, H_CTX, H_CUR, H_NC, H_NP, H_PHASE, H_Q, H_Q_ABOUT, H_Q_CARD,
    H_Q_FATE, H_Q_MAX, H_TURNS, LEGAL, NCMAX, N_ACTIONS, P_DECK_N, P_DISCARD_N, P_HAND_N, P_TURNS,
)
from hoc.games.dominion.kernel.state import aside, discard, hand, owned, pb, play, supply, trash
from hoc.games.dominion.kernel.turn import legal_actions
from hoc.games.dominion.kernel.zones import victory_points

FIELDS = (
    # (name, block, slots, what it holds)
    ("turn", "table", 1, "turns played by all players together"),
    ("my_turn", "table", 1, "1 if the observing seat is the turn player"),
    ("phase", "table", 1, "1 Action, 2 Buy, 3 Cleanup"),
    ("actions", "table", 1, "Actions left this turn"),
    ("buys", "table", 1, "Buys left this turn"),
    ("coins", "table", 1, "coins left this turn"),
    ("question", "table", 1, "the pending card question (Q_*), 0 for none"),
    ("fate", "table", 1, "what becomes of the card chosen (FATE_*)"),
    ("asking_card", "table", 1, "card id + 1 whose text asks (0: none)"),
    ("about_card", "table", 1, "card id + 1 the question is about (0: none)"),
    ("cost_cap", "table", 1, "the question's cost limit (gain questions)"),
    ("supply", "table", NCMAX, "cards left in each supply pile"),
    ("play", "table", NCMAX, "cards in play"),
    ("trash", "table", NCMAX, "cards in the trash"),
    ("vp", "seat", 1, "the seat's VP now"),
    ("deck_size", "seat", 1, "cards in the seat's deck"),
    ("hand_size", "seat", 1, "cards in the seat's hand"),
    ("discard_size", "seat", 1, "cards in the seat's discard pile"),
    ("own_turns", "seat", 1, "turns the seat has started"),
    ("owned", "seat", NCMAX, "cards the seat owns, by card"),
    ("hand", "own", NCMAX, "the observing seat's hand"),
    ("discard", "own", NCMAX, "the observing seat's discard pile"),
    ("deck", "own", NCMAX, "the contents of the observing seat's deck (counts, not order)"),
)
TABLE_SLOTS = sum(n for _, b, n, _ in FIELDS if b == "table")
SEAT_SLOTS = sum(n for _, b, n, _ in FIELDS if b == "seat")
OWN_SLOTS = sum(n for _, b, n, _ in FIELDS if b == "own")


def size(players: int) -> int:
    return TABLE_SLOTS + players * SEAT_SLOTS + OWN_SLOTS


@entry
def observe(s, seat, out):
    """Write what `seat` sees of s into out (float32, `size(players)` slots)."""
    out[:] = 0
    nc = s[H_NC]
    asking = s[H_CTX] == CTX_EFFECT
    out[0] = s[H_TURNS]
    out[1] = 1 if s[H_CUR] == seat else 0
    out[2] = s[H_PHASE]
    out[3] = s[H_ACTIONS]
    out[4] = s[H_BUYS]
    out[5] = s[H_COINS]
    if asking:
        out[6] = s[H_Q]
        out[7] = s[H_Q_FATE]
        out[8] = s[H_Q_CARD] + 1
        out[9] = s[H_Q_ABOUT] + 1
        out[10] = s[H_Q_MAX]
    o = 11
    for c in range(nc):
        out[o + c] = s[supply(s) + c]
        out[o + NCMAX + c] = s[play(s) + c]
        out[o + 2 * NCMAX + c] = s[trash(s) + c]
    o = TABLE_SLOTS
    np_ = s[H_NP]
    for k in range(np_):
        p = (seat + k) % np_
        b = pb(s, p)
        out[o] = victory_points(s, p)
        out[o + 1] = s[b + P_DECK_N]
        out[o + 2] = s[b + P_HAND_N]
        out[o + 3] = s[b + P_DISCARD_N]
        out[o + 4] = s[b + P_TURNS]
        for c in range(nc):
            out[o + 5 + c] = s[owned(s, p) + c]
        o += SEAT_SLOTS
    for c in range(nc):
        h = s[hand(s, seat) + c]
        d = s[discard(s, seat) + c]
        out[o + c] = h
        out[o + NCMAX + c] = d
        inplay = s[play(s) + c] if s[H_CUR] == seat else 0
        held = s[aside(s) + c] if s[H_ASIDE_SEAT] == seat else 0
        out[o + 2 * NCMAX + c] = s[owned(s, seat) + c] - h - d - inplay - held
    return o + OWN_SLOTS


@entry
def legal_mask(s, seat, out):
    """out[a] = 1 for each legal action of the pending decision (int8, N_ACTIONS slots)."""
    out[:] = 0
    n = legal_actions(s, s[LEGAL:LEGAL + N_ACTIONS])
    for i in range(n):
        out[s[LEGAL + i]] = 1
    return n


def reference() -> str:
    """The observation's fields as a markdown table (docs)."""
    lines = ["| field | block | slots | what it holds |", "| --- | --- | --- | --- |"]
    lines += [f"| `{n}` | {b} | {k} | {w} |" for n, b, k, w in FIELDS]
    return "\n".join(lines)

