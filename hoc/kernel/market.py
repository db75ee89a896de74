"""The supply deck and the random market."""
import numpy as np

from hoc.kernel.jit import entry, kernel
from hoc.kernel.constants import (
    CAT_COMMON, CAT_RARE, F_CAT, F_COPIES, F_PILE, H_MARKET_DIRTY, H_NACTIVE, H_NC, H_OFF_SCRATCH,
    H_KINDS, H_N_KINDS, H_OFF_SUPPLY, H_REVEALED, H_REVEALED_AT, H_RNG, H_SUPPLY_N, H_TURNS, MARKET_RANDOM,
    R_MARKET_MODE,
    R_MARKET_SIZE, R_N_PILES, R_PILES, R_SUPPLY_KINDS,
)
from hoc.kernel.state import active, below, card, market, rule, shuffle


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
        s[H_REVEALED] = 0
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
    """Buried Treasure: the bottom card of the supply goes face up on its top."""
    n = s[H_SUPPLY_N]
    if n == 0:
        return
    sup = s[H_OFF_SUPPLY]
    c = s[sup]
    for i in range(n - 1):
        s[sup + i] = s[sup + i + 1]
    s[sup + n - 1] = c
    s[H_REVEALED] = 1
    s[H_REVEALED_AT] = s[H_TURNS]


@entry
def revealed_card(s):
    """The face-up card on top of the supply, -1 if none."""
    if s[H_REVEALED] == 0 or s[H_SUPPLY_N] == 0:
        return -1
    return s[s[H_OFF_SUPPLY] + s[H_SUPPLY_N] - 1]


@kernel
def take_revealed(s):
    s[H_SUPPLY_N] -= 1
    s[H_REVEALED] = 0


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
        for i in range(k):       # partial Fisher-Yates: the first k are a uniform sample
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
