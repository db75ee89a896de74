"""Index arithmetic on Dominion's state: the player blocks and the per-card count zones (the shared
blocks' accessors and the random streams are `hoc.engine.state`'s, re-exported)."""
from hoc.engine.jit import kernel
from hoc.engine.state import (  # noqa: F401 (re-exported for the game's kernels)
    agent_of, below, card, count, load_u64, mask_has, mask_set, param, rule, seat_agent, seed_stream, shuffle,
    store_u64,
)
from hoc.games.dominion.kernel.constants import (
    F_TYPES, H_DCAP, H_NC, H_OFF_ASIDE, H_OFF_DECK, H_OFF_DISCARD, H_OFF_HAND, H_OFF_OWNED, H_OFF_PLAY,
    H_OFF_PLAYER, H_OFF_STACK, H_OFF_SUPPLY, H_OFF_TRASH, FRAME, PSZ,
)


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
def owned(s, p):
    return s[H_OFF_OWNED] + p * s[H_NC]


@kernel
def deck(s, p):
    return s[H_OFF_DECK] + p * s[H_DCAP]


@kernel
def play(s):
    return s[H_OFF_PLAY]


@kernel
def supply(s):
    return s[H_OFF_SUPPLY]


@kernel
def trash(s):
    return s[H_OFF_TRASH]


@kernel
def aside(s):
    return s[H_OFF_ASIDE]


@kernel
def frame(s, depth):
    """Offset of the effect stack's frame at depth (0: the bottom)."""
    return s[H_OFF_STACK] + depth * FRAME


@kernel
def is_type(s, c, types):
    """Card c has one of the types (a TY_* bitmask)."""
    return card(s, c, F_TYPES) & types != 0
