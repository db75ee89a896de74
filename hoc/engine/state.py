"""The state's shared blocks and the random streams, for every game.

A state is one flat int32 array (`hoc.engine.layout`): it carries the ruleset vector and the card
table it was made with (`rule`, `card`), the lineup of jitted agents (`agent_of`, `param`,
`seat_agent`), per-card coverage statistics (`count`), and 64-bit random streams stored in two
slots each (splitmix64: `seed_stream`, `next_u64`, `below`, `shuffle`). Card masks keep one bit per
card id in two slots, so a loop over a zone visits only the cards in it.
"""
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from hoc.engine.jit import entry, kernel
from hoc.engine.layout import AGENTS, AGENT_SZ, CARDS, H_OFF_STATS, LEARNED_TAIL, N_FIELDS, N_STATS, RULES, R_LEN

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@entry
def load_rules(s, T, R):
    """Copy the ruleset vector and the card table into the state's rules and cards blocks: a
    state carries its own rules, so every kernel needs only the state."""
    for i in range(R_LEN):
        s[RULES + i] = R[i]
    for c in range(T.shape[0]):
        for f in range(N_FIELDS):
            s[CARDS + c * N_FIELDS + f] = T[c, f]


@kernel
def copy_owned(s, own, nc, out):
    """Copy the per-card region s[own:own + nc] (a seat's copies of each card owned) into out[:nc]."""
    for c in range(nc):
        out[c] = s[own + c]


@kernel
def record_owned(s, own, nc, out, o):
    """Write into out[o], out[o + 1] the bits of the card ids 0-31 and 32-63 with copies in the
    per-card region s[own:own + nc] (a seat's cards owned, in a result row's RES_OWNED)."""
    lo = 0
    hi = 0
    for c in range(nc):
        if s[own + c] > 0:
            if c < 32:
                lo |= 1 << c
            else:
                hi |= 1 << (c - 32)
    out[o] = lo
    out[o + 1] = hi


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
def tail_start(s):
    """Where a state's tail of learned networks starts (`hoc.games.heart_of_crown.agents.learned`; its end marks it: s[-1]
    is LEARNED_TAIL, s[-2] its length), or the state's length: a game's setup clears the state up to
    there and leaves the weights."""
    L = s.shape[0]
    if L >= 2 and s[L - 1] == LEARNED_TAIL:
        return L - s[L - 2]
    return L


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
