"""Index arithmetic on the flat state and the per-game random streams.

A state is one int64 array: a fixed header (H_*), a block of per-player scalars (P_*), and per-card
count regions whose offsets are stored in the header, so a state is self-describing and can be
copied, hashed or saved as it is.
"""
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from hoc.engine.jit import entry, kernel
from hoc.games.heart_of_crown.kernel.constants import (
    AGENTS, AGENT_SZ, CARDS, H_DCAP, H_NC, H_OFF_ABROAD, H_OFF_ACTIVE, H_OFF_DECK, H_OFF_DISCARD,
    H_OFF_DOMAIN, H_OFF_HAND, H_OFF_KEPT, H_OFF_MARKET, H_OFF_OWNED, H_OFF_PLAY, H_OFF_PLAYER,
    H_NP, H_OFF_STATS, H_PLAY_MASK, N_FIELDS, N_STATS, PSZ, P_DISCARD_MASK, P_DOMAIN_MASK, P_HAND_MASK,
    RULES,
)

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@kernel
def card(s, c, f):
    """Field f of card c's row in the card table the state carries."""
    return s[CARDS + c * N_FIELDS + f]


@kernel
def rule(s, i):
    """Entry i (R_*) of the ruleset vector the state carries."""
    return s[RULES + i]


@kernel
def agent_of(s, seat):
    """The jitted agent playing seat."""
    return s[AGENTS + seat * AGENT_SZ]


@kernel
def param(s, seat, i):
    """Parameter i of the agent playing seat."""
    return s[AGENTS + seat * AGENT_SZ + 1 + i]


@entry
def seat_agent(s, seat, agent, params):
    s[AGENTS + seat * AGENT_SZ] = agent
    for i in range(min(params.shape[0], AGENT_SZ - 1)):
        s[AGENTS + seat * AGENT_SZ + 1 + i] = params[i]


@kernel
def count(s, c, stat):
    """One more occurrence of a coverage statistic of card c."""
    s[s[H_OFF_STATS] + c * N_STATS + stat] += 1


@kernel
def active(s, i):
    """The i-th card present in this game (0 <= i < s[H_NACTIVE])."""
    return s[s[H_OFF_ACTIVE] + i]


@kernel
def pb(s, p):
    """Offset of player p's scalar block."""
    return s[H_OFF_PLAYER] + p * PSZ


@kernel
def hand(s, p):
    return s[H_OFF_HAND] + p * s[H_NC]


@kernel
def discard(s, p):
    return s[H_OFF_DISCARD] + p * s[H_NC]


@kernel
def domain(s, p):
    return s[H_OFF_DOMAIN] + p * s[H_NC]


@kernel
def kept(s, p):
    return s[H_OFF_KEPT] + p * s[H_NC]


@kernel
def owned(s, p):
    return s[H_OFF_OWNED] + p * s[H_NC]


@kernel
def deck(s, p):
    return s[H_OFF_DECK] + p * s[H_DCAP]


@kernel
def play(s):
    return s[H_OFF_PLAY]


@kernel
def market(s):
    return s[H_OFF_MARKET]


@kernel
def abroad(s):
    return s[H_OFF_ABROAD]


@kernel
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@kernel
def store_u64(s, off, x):
    # the conversions truncate, keeping the low and the high 32 bits
    s[off] = np.int32(x & np.uint64(0xFFFFFFFF))
    s[off + 1] = np.int32(x >> np.uint64(32))


@entry
def load_u64(s, off):
    return np.uint64(np.uint32(s[off])) | (np.uint64(np.uint32(s[off + 1])) << np.uint64(32))


@kernel
def seed_stream(s, off, seed, stream):
    """Start the splitmix64 stream stored at s[off] from (seed, stream number)."""
    store_u64(s, off, mix64(np.uint64(seed) + np.uint64(stream) * GOLDEN))


@kernel
def next_u64(s, off):
    """splitmix64: advance the stream at s[off] and return 64 random bits."""
    x = load_u64(s, off) + GOLDEN
    store_u64(s, off, x)
    return mix64(x)


@kernel
def below(s, off, n):
    """A uniform integer in [0, n) from the stream at s[off] (multiply-shift; bias < n / 2**32)."""
    return np.int64(((next_u64(s, off) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@kernel
def shuffle(s, off_rng, lo, n):
    """Fisher-Yates shuffle of s[lo:lo+n] with the stream at s[off_rng] (the draws of `below`,
    with the stream kept in a register)."""
    x = load_u64(s, off_rng)
    for i in range(n - 1, 0, -1):
        x = x + GOLDEN
        j = np.int64(((mix64(x) >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        t = s[lo + i]
        s[lo + i] = s[lo + j]
        s[lo + j] = t
    store_u64(s, off_rng, x)


# ---- card masks: 64 bits (one per card id) in two int32 slots ---------------------------------
@kernel
def mask_set(s, off, c):
    s[off + (c >> 5)] |= 1 << (c & 31)


@kernel
def mask_clear(s, off, c):
    s[off + (c >> 5)] &= ~(1 << (c & 31))


@kernel
def mask_has(s, off, c):
    return (s[off + (c >> 5)] >> (c & 31)) & 1 != 0


@kernel
def mask_load(s, off):
    """The mask at s[off] as a uint64; walk it with `lowest` / `highest` (ascending id order is
    the order of the active list)."""
    return load_u64(s, off)


@kernel
def lowest(m):
    """The lowest card id in the non-empty mask m."""
    return np.int64(trailing_zeros(m))


@kernel
def highest(m):
    """The highest card id in the non-empty mask m."""
    return 63 - np.int64(leading_zeros(m))


@kernel
def hand_mask(s, p):
    """The cards in p's hand, one bit per card id (uint64)."""
    return load_u64(s, pb(s, p) + P_HAND_MASK)


@kernel
def sync_masks(s):
    """Re-derive every zone mask from the count regions (after a Python edit of the zones)."""
    nc = s[H_NC]
    for p in range(s[H_NP]):
        b = pb(s, p)
        for w in range(2):
            s[b + P_HAND_MASK + w] = 0
            s[b + P_DISCARD_MASK + w] = 0
            s[b + P_DOMAIN_MASK + w] = 0
        for c in range(nc):
            if s[hand(s, p) + c] > 0:
                mask_set(s, b + P_HAND_MASK, c)
            if s[discard(s, p) + c] > 0:
                mask_set(s, b + P_DISCARD_MASK, c)
            if s[domain(s, p) + c] > 0:
                mask_set(s, b + P_DOMAIN_MASK, c)
    s[H_PLAY_MASK] = 0
    s[H_PLAY_MASK + 1] = 0
    for c in range(nc):
        if s[play(s) + c] > 0:
            mask_set(s, H_PLAY_MASK, c)
