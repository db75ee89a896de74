"""State invariants, checked after every step by `--validate` and by the test suite."""
from hoc.engine.jit import entry
from hoc.engine.layout import E_ILLEGAL, E_STEPS, OK
from hoc.games.dominion.kernel.constants import (
    H_ACTIONS, H_ASIDE_N, H_ASIDE_SEAT, H_BUYS, H_COINS, H_CUR, H_DCAP, H_DEPTH, H_NC, H_NP, H_TRASH_N, P_DECK_N,
    P_DISCARD_N, P_HAND_N, P_OWNED_N, STACK_DEPTH,
)
from hoc.games.dominion.kernel.state import aside, deck, discard, hand, owned, pb, play, supply, trash

E_CARD_COUNT = 1      # a card was created or lost
E_NEGATIVE = 2        # a pile or zone count below zero
E_SIZE = 3            # a zone's size counter disagrees with its cards
E_BOUNDS = 4          # a zone or the effect stack outgrew its room
E_OWNED = 5           # ownership record disagrees with where the cards are
E_COUNTERS = 6        # negative coins, actions or buys
ERRORS = {E_CARD_COUNT: "a card was created or lost", E_NEGATIVE: "a pile or zone count below zero",
          E_SIZE: "a zone's size counter disagrees with its cards", E_BOUNDS: "a zone outgrew its capacity",
          E_OWNED: "ownership record disagrees with the zones", E_COUNTERS: "negative coins, actions or buys",
          E_ILLEGAL: "an agent chose an illegal action", E_STEPS: "the game exceeded the step limit"}


@entry
def check(s, totals, work):
    """OK or the first broken invariant. totals[c]: copies of c in the game; work: scratch of one
    int per card (left holding the copies found)."""
    nc = s[H_NC]
    if s[H_COINS] < 0 or s[H_ACTIONS] < 0 or s[H_BUYS] < 0:
        return E_COUNTERS
    if not 0 <= s[H_DEPTH] <= STACK_DEPTH:
        return E_BOUNDS
    trash_n = 0
    aside_n = 0
    for c in range(nc):
        for z in (supply(s), trash(s), play(s), aside(s)):
            if s[z + c] < 0:
                return E_NEGATIVE
        work[c] = s[supply(s) + c] + s[trash(s) + c]
        trash_n += s[trash(s) + c]
        aside_n += s[aside(s) + c]
    if trash_n != s[H_TRASH_N] or aside_n != s[H_ASIDE_N]:
        return E_SIZE
    for p in range(s[H_NP]):
        b = pb(s, p)
        n = s[b + P_DECK_N]
        if n < 0 or n > s[H_DCAP]:
            return E_BOUNDS
        k = deck(s, p)
        for i in range(n):
            if not 0 <= s[k + i] < nc:
                return E_BOUNDS
            work[s[k + i]] += 1
        hn = 0
        dn = 0
        on = 0
        for c in range(nc):
            h = s[hand(s, p) + c]
            d = s[discard(s, p) + c]
            if h < 0 or d < 0 or s[owned(s, p) + c] < 0:
                return E_NEGATIVE
            hn += h
            dn += d
            on += s[owned(s, p) + c]
            work[c] += h + d
        if hn != s[b + P_HAND_N] or dn != s[b + P_DISCARD_N] or on != s[b + P_OWNED_N]:
            return E_SIZE
        here = hn + dn + n
        if p == s[H_CUR]:
            for c in range(nc):
                here += s[play(s) + c]
        if p == s[H_ASIDE_SEAT]:
            here += aside_n
        if here != on:
            return E_OWNED
    for c in range(nc):
        work[c] += s[play(s) + c] + s[aside(s) + c]
        if work[c] != totals[c]:
            return E_CARD_COUNT
        held = 0
        for p in range(s[H_NP]):
            held += s[owned(s, p) + c]
        if held != work[c] - s[supply(s) + c] - s[trash(s) + c]:
            return E_OWNED
    return OK


