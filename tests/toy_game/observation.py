"""What a Toy seat sees, as a float vector (the environments' input); `FIELDS` describes it. Never in
it: another seat's hand, the order of any deck, the random streams."""
from __future__ import annotations

from hoc.engine.jit import entry
from toy_game.kernel.constants import (
    H_ACTIONS, H_BUYS, H_COINS, H_CUR, H_DECIDER, H_NC, H_NP, H_PHASE, H_TURNS, LEGAL, MAX_CARDS, N_ACTIONS, P_DECK_N,
    P_DISCARD_N, P_HAND_N, P_TURNS,
)
from toy_game.kernel.core import discard, hand, legal_actions, owned, pb, play_area, supply, victory_points

FIELDS = (
    ("turn", "table", 1, "turns played by all players"),
    ("my_turn", "table", 1, "1 if the observing seat is the turn player"),
    ("phase", "table", 1, "1 action, 2 buy"),
    ("actions", "table", 1, "actions left"),
    ("buys", "table", 1, "buys left"),
    ("coins", "table", 1, "coins this turn"),
    ("supply", "table", MAX_CARDS, "cards left in each pile"),
    ("play", "table", MAX_CARDS, "cards in play"),
    ("vp", "seat", 1, "the seat's VP"),
    ("deck_size", "seat", 1, "cards in its deck"),
    ("hand_size", "seat", 1, "cards in its hand"),
    ("discard_size", "seat", 1, "cards in its discard pile"),
    ("own_turns", "seat", 1, "turns it started"),
    ("owned", "seat", MAX_CARDS, "cards it owns"),
    ("hand", "own", MAX_CARDS, "the observing seat's hand"),
    ("discard", "own", MAX_CARDS, "its discard pile"),
    ("deck", "own", MAX_CARDS, "its deck's contents (counts, not order)"),
)
TABLE_SLOTS = sum(n for _, b, n, _ in FIELDS if b == "table")
SEAT_SLOTS = sum(n for _, b, n, _ in FIELDS if b == "seat")
OWN_SLOTS = sum(n for _, b, n, _ in FIELDS if b == "own")


def size(players: int) -> int:
    return TABLE_SLOTS + players * SEAT_SLOTS + OWN_SLOTS


@entry
def observe(s, seat, out):
    out[:] = 0
    nc = s[H_NC]
    out[0] = s[H_TURNS]
    out[1] = 1 if s[H_CUR] == seat else 0
    out[2] = s[H_PHASE]
    out[3] = s[H_ACTIONS]
    out[4] = s[H_BUYS]
    out[5] = s[H_COINS]
    for c in range(nc):
        out[6 + c] = s[supply(s) + c]
        out[6 + MAX_CARDS + c] = s[play_area(s) + c]
    o = TABLE_SLOTS
    n = s[H_NP]
    for k in range(n):
        p = (seat + k) % n
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
        inplay = s[play_area(s) + c] if s[H_CUR] == seat else 0
        out[o + c] = h
        out[o + MAX_CARDS + c] = d
        out[o + 2 * MAX_CARDS + c] = s[owned(s, seat) + c] - h - d - inplay
    return o + OWN_SLOTS


@entry
def legal_mask(s, seat, out):
    """out[a] = 1 for each legal action of the pending decision when `seat` decides it (int8)."""
    out[:] = 0
    if s[H_DECIDER] != seat:            # another seat decides
        return 0
    n = legal_actions(s, s[LEGAL:LEGAL + N_ACTIONS])
    for i in range(n):
        out[s[LEGAL + i]] = 1
    return n
