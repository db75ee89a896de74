"""The effect stack and the questions effects ask.

A card routine is called with its stack frame and the action just chosen (-1 when resuming
without a choice). It returns DONE, WAIT (it asked a question through `ask`) or CALL (it pushed
a child frame, and resumes when the child is done)."""
from hoc.kernel.constants import (
    CTX_EFFECT, H_CH_KIND, H_CH_MAX, H_CH_MIN,
    H_CH_NOT, H_CH_OPT, H_CH_TYPES, H_CTX, H_DECIDER, H_DEPTH, H_OFF_STACK, STACK_FRAME,
)
from hoc.kernel.jit import kernel

DONE = 0
WAIT = 1
CALL = 2
ANY_COST = 1 << 20

TRIG_PLAY = 0
TRIG_BACK = 1
TRIG_ABILITY = 2
TRIG_CLEANUP = 3
TRIG_SET = 4

# frame slots
FR_EFF = 0
FR_TRIG = 1
FR_STEP = 2
FR_A = 3
FR_B = 4
FR_P = 5


@kernel
def push(s, eff, trig, p, a):
    fr = s[H_OFF_STACK] + s[H_DEPTH] * STACK_FRAME
    s[fr + FR_EFF] = eff
    s[fr + FR_TRIG] = trig
    s[fr + FR_STEP] = 0
    s[fr + FR_A] = a
    s[fr + FR_B] = 0
    s[fr + FR_P] = p
    s[H_DEPTH] += 1


@kernel
def ask(s, p, kind, types, not_types, mn, mx, optional):
    """Wait for p to choose: a card of a zone (types, not_types, printed cost in [mn, mx]), a
    number or a mode in [mn, mx]; PASS declines when optional."""
    s[H_CTX] = CTX_EFFECT
    s[H_DECIDER] = p
    s[H_CH_KIND] = kind
    s[H_CH_TYPES] = types
    s[H_CH_NOT] = not_types
    s[H_CH_MIN] = mn
    s[H_CH_MAX] = mx
    s[H_CH_OPT] = 1 if optional else 0
