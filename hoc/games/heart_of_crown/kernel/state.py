"""Index arithmetic on Heart of Crown's state: the player blocks and the card-count zones.

A state is one flat int32 array: the shared header slots and blocks of `hoc.engine.layout`, this
game's own header slots (H_*), a block of per-player scalars (P_*), and per-card count regions whose
offsets are stored in the header, so a state is self-describing and can be copied, hashed or saved
as it is. The shared blocks' accessors and the random streams are `hoc.engine.state`'s, re-exported.
"""
from hoc.engine.jit import kernel
from hoc.engine.state import (  # noqa: F401 (re-exported for the game's kernels)
    GOLDEN, MIX1, MIX2, agent_of, below, card, count, highest, load_u64, lowest, mask_clear, mask_has, mask_load,
    mask_set, mix64, next_u64, param, rule, seat_agent, seed_stream, shuffle, store_u64, tail_start,
)
from hoc.games.heart_of_crown.kernel.constants import (
    H_DCAP, H_NC, H_OFF_ABROAD, H_OFF_ACTIVE, H_OFF_DECK, H_OFF_DISCARD,
    H_OFF_DOMAIN, H_OFF_HAND, H_OFF_KEPT, H_OFF_MARKET, H_OFF_OWNED, H_OFF_PLAY, H_OFF_PLAYER,
    H_NP, H_PLAY_MASK, PSZ, P_DISCARD_MASK, P_DOMAIN_MASK, P_HAND_MASK, SEAT_ORDER, SEAT_POS,
)


@kernel
def active(s, i):
    """The i-th card present in this game (0 <= i < s[H_NACTIVE])."""
    return s[s[H_OFF_ACTIVE] + i]


@kernel
def position(s, p):
    """Player p's place in turn order (0 plays first)."""
    return s[SEAT_POS + p]


@kernel
def after(s, p, j):
    """The player j places clockwise after player p (turn order; j = 0: p itself)."""
    return s[SEAT_ORDER + (s[SEAT_POS + p] + j) % s[H_NP]]


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
