"""The effect stack and card questions: a card played pushes a frame that its routine resolves step
by step; a step that needs a player's choice asks a question (the game's decision context becomes
CTX_EFFECT and the player answers through `apply`), and the routine resumes with the answer."""
from hoc.engine.jit import kernel
from hoc.games.dominion.kernel.constants import (
    ASK, CTX_EFFECT, FR_CARD, FR_I, FR_N, FR_STEP, FR_X, FR_Y, F_COST, H_CTX, H_DECIDER, H_DEPTH, H_NC, H_Q,
    H_Q_ABOUT, H_Q_CARD, H_Q_FATE, H_Q_MAX, H_Q_MODES, H_Q_OPT, H_Q_OTHER, H_Q_SEAT, H_Q_TYPES, ST_BONUS,
)
from hoc.games.dominion.kernel.state import card, discard, frame, hand, is_type, supply


@kernel
def push(s, c):
    """A play of c: its plain bonuses, then its text (the frame on top of the stack)."""
    f = frame(s, s[H_DEPTH])
    s[f + FR_CARD] = c
    s[f + FR_STEP] = ST_BONUS
    s[f + FR_I] = 0
    s[f + FR_X] = -1
    s[f + FR_Y] = -1
    s[f + FR_N] = 0
    s[H_DEPTH] += 1


@kernel
def ask(s, f, step, seat, q, fate, types, cap, optional, modes, about):
    """Ask `seat` question q (the chosen card's fate: FATE_*) for the card of frame f, to resume at
    `step` with the answer."""
    s[f + FR_STEP] = step
    s[H_Q] = q
    s[H_Q_FATE] = fate
    s[H_Q_CARD] = s[f + FR_CARD]
    s[H_Q_SEAT] = seat
    s[H_Q_TYPES] = types
    s[H_Q_MAX] = cap
    s[H_Q_OPT] = 1 if optional else 0
    s[H_Q_MODES] = modes
    s[H_Q_ABOUT] = about
    s[H_Q_OTHER] = -1
    s[H_CTX] = CTX_EFFECT
    s[H_DECIDER] = seat
    return ASK


@kernel
def matches(s, c, types):
    return types == 0 or is_type(s, c, types)


@kernel
def hand_has(s, p, types):
    """p's hand holds a card with one of the types (0: any card)."""
    h = hand(s, p)
    for c in range(s[H_NC]):
        if s[h + c] > 0 and matches(s, c, types):
            return True
    return False


@kernel
def discard_has(s, p):
    d = discard(s, p)
    for c in range(s[H_NC]):
        if s[d + c] > 0:
            return True
    return False


@kernel
def supply_has(s, cap, types):
    """The supply holds a card costing up to cap with one of the types (0: any)."""
    sup = supply(s)
    for c in range(s[H_NC]):
        if s[sup + c] > 0 and card(s, c, F_COST) <= cap and matches(s, c, types):
            return True
    return False
