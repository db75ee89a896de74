"""The effect stack and the questions effects ask.

A card routine is called with its stack frame and the action just chosen (-1 when resuming
without a choice). It returns DONE, WAIT (it asked a question through `ask`) or CALL (it pushed
a child frame, and resumes when the child is done)."""
from hoc.engine.jit import kernel
from hoc.games.heart_of_crown.kernel.constants import (
    CH_MODE, CTX_EFFECT, H_CH_CARD, H_CH_OWNER, H_CH_EXCEPT, H_CH_FLAGS, H_CH_GOOD, H_CH_KIND, H_CH_MAX, H_CH_MIN,
    H_CH_N, H_CH_NOT, H_CH_OPT, H_CH_TYPES, H_CTX, H_DECIDER, H_DEPTH, H_OFF_STACK, STACK_FRAME,
)

DONE = 0
WAIT = 1
CALL = 2
ANY_COST = 1 << 20


# frame slots
FR_EFF = 0
FR_TRIG = 1
FR_STEP = 2
FR_A = 3
FR_B = 4
FR_P = 5
FR_C = 6
FR_D = 7


@kernel
def push(s, eff, trig, p, a):
    fr = s[H_OFF_STACK] + s[H_DEPTH] * STACK_FRAME
    s[fr + FR_EFF] = eff
    s[fr + FR_TRIG] = trig
    s[fr + FR_STEP] = 0
    s[fr + FR_A] = a
    s[fr + FR_B] = 0
    s[fr + FR_P] = p
    s[fr + FR_C] = 0
    s[fr + FR_D] = 0
    s[H_DEPTH] += 1


@kernel
def ask(s, p, kind, types, not_types, mn, mx, optional):
    """Wait for p to choose: a card of a zone (types, not_types, printed cost in [mn, mx]), a
    number in [mn, mx], or a mode; PASS declines when optional. `narrow` adds filters."""
    s[H_CTX] = CTX_EFFECT
    s[H_DECIDER] = p
    s[H_CH_KIND] = kind
    s[H_CH_TYPES] = types
    s[H_CH_NOT] = not_types
    s[H_CH_MIN] = mn
    s[H_CH_MAX] = mx
    s[H_CH_OPT] = 1 if optional else 0
    s[H_CH_FLAGS] = 0
    s[H_CH_CARD] = -1
    s[H_CH_EXCEPT] = -1
    s[H_CH_N] = 1
    s[H_CH_GOOD] = 0
    s[H_CH_OWNER] = p


@kernel
def about(s, q):
    """The question just asked reads seat q's zone (its deck top or kept cards), not the decider's:
    1E Scout and Royal Guard show the attacker an opponent's deck top."""
    s[H_CH_OWNER] = q


@kernel
def good_for_chooser(s):
    """Mark the question just asked as one where the chosen card benefits the chooser (a gain, a
    card back to hand or deck, a set): agents that do not care then take the best card and accept
    rather than decline. Questions that discard or exile default to the least valuable card."""
    s[H_CH_GOOD] = 1


@kernel
def narrow(s, flags, only, excluded, n):
    """Further filters of the question just asked: required card flags, the only card allowed,
    a card not allowed (-1: none), and the mode mask or deck window."""
    s[H_CH_FLAGS] = flags
    s[H_CH_CARD] = only
    s[H_CH_EXCEPT] = excluded
    s[H_CH_N] = n


@kernel
def ask_mode(s, p, modes, optional):
    """'Choose one': NUMBER n for each mode n in the bitmask modes."""
    ask(s, p, CH_MODE, 0, 0, 0, 0, optional)
    s[H_CH_N] = modes
