"""The supply deck and the random market."""
import numpy as np

from hoc.engine.jit import kernel
from hoc.games.heart_of_crown.kernel.constants import (
    CAT_COMMON, CAT_RARE, F_CAT, F_COPIES, F_PILE, H_MARKET_DIRTY, H_NACTIVE, H_NC, H_OFF_SCRATCH,
    H_KINDS, H_N_KINDS, H_OFF_SUPPLY, H_REVEALED, H_REVEALED_AT, H_REVEALED_NEW, H_RNG, H_SUPPLY_N, H_TURNS,
    MARKET_RANDOM, R_MARKET_ALWAYS, R_MARKET_MODE,
    R_MARKET_SIZE, R_N_PILES, R_PILES, R_SUPPLY_KINDS,
)
from hoc.games.heart_of_crown.kernel.state import active, below, card, market, rule, shuffle


@kernel
def piles_showing(s):
    """Bitmask of the random-market piles (kinds) showing at least one card."""
    m = market(s)
    seen = np.int64(0)
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        cat = card(s, c, F_CAT)
        if s[m + c] > 0 and (cat == CAT_COMMON or cat == CAT_RARE):
            seen |= np.int64(1) << np.int64(card(s, c, F_PILE))
    return seen


@kernel
def popcount(bits):
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


@kernel
def refill(s):
    """Reveal supply cards until the random market shows R_MARKET_SIZE kinds or the supply runs
    out; a card of a kind already showing stacks on it."""
    seen = piles_showing(s)
    kinds = popcount(seen)
    sup = s[H_OFF_SUPPLY]
    while kinds < rule(s, R_MARKET_SIZE) and s[H_SUPPLY_N] > 0:
        # a face-up card on top is the first one revealed (ref §4 #27)
        s[H_REVEALED] = max(0, s[H_REVEALED] - 1)
        s[H_REVEALED_NEW] = max(0, s[H_REVEALED_NEW] - 1)
        s[H_SUPPLY_N] -= 1
        c = s[sup + s[H_SUPPLY_N]]
        s[market(s) + c] += 1
        bit = np.int64(1) << np.int64(card(s, c, F_PILE))
        if not seen & bit:
            seen |= bit
            kinds += 1
    s[H_MARKET_DIRTY] = 0


@kernel
def reveal_bottom(s):
    """Buried Treasure: the bottom card of the supply goes face up on its top (nothing happens
    with an empty supply: FAQ). Face-up cards pile up on the top, the latest uppermost."""
    n = s[H_SUPPLY_N]
    if n == 0:
        return
    if s[H_REVEALED_AT] != s[H_TURNS]:
        s[H_REVEALED_NEW] = 0
    was_face_up = s[H_REVEALED] >= n           # the bottom card is face up only when all are
    was_new = was_face_up and n - 1 < s[H_REVEALED_NEW]
    sup = s[H_OFF_SUPPLY]
    c = s[sup]
    for i in range(n - 1):
        s[sup + i] = s[sup + i + 1]
    s[sup + n - 1] = c
    if not was_face_up:
        s[H_REVEALED] += 1
    if not was_new:
        s[H_REVEALED_NEW] += 1
    s[H_REVEALED_AT] = s[H_TURNS]


@kernel
def take_supply_bottom(s):
    """Take the bottom card of the supply (1E Buried Treasure; the supply must not be empty)."""
    n = s[H_SUPPLY_N]
    sup = s[H_OFF_SUPPLY]
    c = s[sup]
    for i in range(n - 1):
        s[sup + i] = s[sup + i + 1]
    s[H_SUPPLY_N] = n - 1
    return c


@kernel
def face_up_offered(s):
    """How many of the face-up cards on top of the supply are in the market now: the topmost,
    which later players may buy at its cost (FAQ; ref §4 #27), and every card revealed this turn,
    which "is treated as being in the market" (card text) even under a later one."""
    if s[H_REVEALED] == 0:
        return 0
    if s[H_REVEALED_AT] == s[H_TURNS]:
        return max(1, s[H_REVEALED_NEW])
    return 1


@kernel
def face_up_depth(s, c):
    """Depth below the supply top of the uppermost face-up copy of c in the market (the one
    revealed last, so the cheapest), -1 if none."""
    top = s[H_OFF_SUPPLY] + s[H_SUPPLY_N] - 1
    for d in range(face_up_offered(s)):
        if s[top - d] == c:
            return d
    return -1


@kernel
def revealed_this_turn(s, d):
    """The face-up supply card at depth d was revealed this turn (it costs 3 less)."""
    return s[H_REVEALED_AT] == s[H_TURNS] and d < s[H_REVEALED_NEW]


@kernel
def take_face_up(s, d):
    """Take the face-up supply card at depth d below the top; the cards above it close up."""
    n = s[H_SUPPLY_N]
    sup = s[H_OFF_SUPPLY]
    for i in range(n - 1 - d, n - 1):
        s[sup + i] = s[sup + i + 1]
    s[H_SUPPLY_N] = n - 1
    s[H_REVEALED] -= 1
    if d < s[H_REVEALED_NEW]:
        s[H_REVEALED_NEW] -= 1


@kernel
def add_pile(s, pile):
    sup = s[H_OFF_SUPPLY]
    for c in range(s[H_NC]):
        if card(s, c, F_PILE) == pile:
            for _ in range(card(s, c, F_COPIES)):
                s[sup + s[H_SUPPLY_N]] = c
                s[H_SUPPLY_N] += 1


@kernel
def build_supply(s):
    """The chosen (or randomly drawn) common kinds x their copies plus every rare, shuffled."""
    n = rule(s, R_N_PILES)
    chosen = s[H_OFF_SCRATCH]
    for i in range(n):
        s[chosen + i] = rule(s, R_PILES + i)
    k = n
    if rule(s, R_MARKET_MODE) == MARKET_RANDOM:
        k = min(rule(s, R_SUPPLY_KINDS), n)
        # partial Fisher-Yates: the first k are a uniform sample of the candidates, except the
        # R_MARKET_ALWAYS first ones (kinds a study requires), which stay in place and in the game
        for i in range(rule(s, R_MARKET_ALWAYS), k):
            j = i + below(s, H_RNG, n - i)
            s[chosen + i], s[chosen + j] = s[chosen + j], s[chosen + i]
    s[H_SUPPLY_N] = 0
    s[H_N_KINDS] = k
    for i in range(k):
        s[H_KINDS + i] = s[chosen + i]
        add_pile(s, card(s, s[chosen + i], F_PILE))
    for c in range(s[H_NC]):
        if card(s, c, F_CAT) == CAT_RARE:
            for _ in range(card(s, c, F_COPIES)):
                s[s[H_OFF_SUPPLY] + s[H_SUPPLY_N]] = c
                s[H_SUPPLY_N] += 1
    shuffle(s, H_RNG, s[H_OFF_SUPPLY], s[H_SUPPLY_N])
    refill(s)
