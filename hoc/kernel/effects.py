"""Which routine runs a card's text, and running the effect stack until it needs a decision.

Each card's text is one routine (in `princesses.py` or `commons.py`); the card data names it and
`dispatch` maps the name's id to the routine."""
from hoc.kernel.constants import (
    EFF_BACK, EFF_BALL, EFF_BANK, EFF_BERGAMOT, EFF_DONATION, EFF_DRAW_1,
    EFF_DRAW_2, EFF_FLAMMARIA, EFF_HIDEOUT, EFF_LAOLILY, EFF_LIBRARY, EFF_RAMPART, EFF_SCOUT,
    EFF_SET_AT_CLEANUP, EFF_TRADING_SHIP, EFF_TWINS, EFF_WISHING_WELL, F_EFFECT, F_TYPES, H_DEPTH, H_END, H_EXTRA_PENDING,
    H_IN_EXTRA, H_NACTIVE, H_OFF_STACK, H_USED, P_HAND_N, P_PRINCESS, P_TWIN_CTR, R_EDITION, STACK_FRAME, TY_CALAMITY, USED_PRINCESS,
)
from hoc.kernel.jit import kernel
from hoc.kernel.state import active, card, hand, pb, rule
from hoc.kernel.choice import DONE, FR_EFF, WAIT
from hoc.kernel.commons import (
    eff_ball, eff_bank, eff_donation, eff_draw, eff_hideout, eff_library, eff_rampart, eff_scout, eff_trading_ship,
    eff_wishing_well,
)
from hoc.kernel.princesses import eff_back, eff_bergamot, eff_flammaria, eff_laolily, eff_set_at_cleanup, eff_twins

@kernel
def hand_has(s, p, not_types):
    """p holds a card without any of not_types."""
    h = hand(s, p)
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        if s[h + c] > 0 and card(s, c, F_TYPES) & not_types == 0:
            return True
    return False


@kernel
def ability_ready(s, p):
    """The backed princess's activation ability can be used now (Main phase)."""
    b = pb(s, p)
    pr = s[b + P_PRINCESS]
    if pr < 0:
        return False
    eff = card(s, pr, F_EFFECT)
    if eff == EFF_BERGAMOT:
        if rule(s, R_EDITION) == 1:
            return (s[H_USED] & USED_PRINCESS) == 0 and hand_has(s, p, TY_CALAMITY)
        return (s[H_USED] & USED_PRINCESS) == 0 and s[b + P_HAND_N] > 0
    if eff == EFF_TWINS:
        return s[b + P_TWIN_CTR] > 0 and s[H_IN_EXTRA] == 0 and s[H_EXTRA_PENDING] == 0
    return False


@kernel
def dispatch(s, fr, a):
    e = s[fr + FR_EFF]
    if e == EFF_BACK:
        return eff_back(s, fr, a)
    if e == EFF_SET_AT_CLEANUP:
        return eff_set_at_cleanup(s, fr, a)
    if e == EFF_LAOLILY:
        return eff_laolily(s, fr, a)
    if e == EFF_FLAMMARIA:
        return eff_flammaria(s, fr, a)
    if e == EFF_TWINS:
        return eff_twins(s, fr, a)
    if e == EFF_BERGAMOT:
        return eff_bergamot(s, fr, a)
    if e == EFF_DRAW_1:
        return eff_draw(s, fr, a, 1)
    if e == EFF_DRAW_2:
        return eff_draw(s, fr, a, 2)
    if e == EFF_TRADING_SHIP:
        return eff_trading_ship(s, fr, a)
    if e == EFF_BANK:
        return eff_bank(s, fr, a)
    if e == EFF_LIBRARY:
        return eff_library(s, fr, a)
    if e == EFF_DONATION:
        return eff_donation(s, fr, a)
    if e == EFF_BALL:
        return eff_ball(s, fr, a)
    if e == EFF_WISHING_WELL:
        return eff_wishing_well(s, fr, a)
    if e == EFF_SCOUT:
        return eff_scout(s, fr, a)
    if e == EFF_HIDEOUT:
        return eff_hideout(s, fr, a)
    if e == EFF_RAMPART:
        return eff_rampart(s, fr, a)
    return DONE


@kernel
def run_effects(s, a):
    """Resume the effect stack with action a (-1: no choice). True if it waits for a decision."""
    while s[H_DEPTH] > 0:
        if s[H_END] != 0:
            s[H_DEPTH] = 0
            return False
        fr = s[H_OFF_STACK] + (s[H_DEPTH] - 1) * STACK_FRAME
        status = dispatch(s, fr, a)
        a = -1
        if status == WAIT:
            if s[H_END] != 0:
                s[H_DEPTH] = 0
                return False
            return True
        if status == DONE:
            s[H_DEPTH] -= 1
    return False
