"""Card effect routines and the small stack that lets an effect wait for a player's choice.

A routine is called with its stack frame and the action just chosen (-1 when resuming without a
choice). It returns DONE, WAIT (it asked a question through `ask`) or CALL (it pushed a child
frame, and resumes when the child is done). Each card's text is one routine; the card data names it.
"""
from hoc.kernel.constants import (
    A_CHOOSE, A_NUMBER, A_PASS, CH_DECK_TOP, CH_DISCARD, CH_HAND, CH_MARKET, CH_MODE, CH_NUMBER,
    CH_PLAY, CTX_EFFECT, EFF_BACK, EFF_BALL, EFF_BANK, EFF_BERGAMOT, EFF_DONATION, EFF_DRAW_1,
    EFF_DRAW_2, EFF_FLAMMARIA, EFF_HIDEOUT, EFF_LAOLILY, EFF_LIBRARY, EFF_RAMPART, EFF_SCOUT,
    EFF_SET_AT_CLEANUP, EFF_TRADING_SHIP, EFF_TWINS, EFF_WISHING_WELL, F_COST, F_EFFECT, F_FLAGS,
    F_TYPES, FL_BACK_WITHOUT_FARMING_VILLAGES, H_ACTION_BONUS, H_CH_KIND, H_CH_MAX, H_CH_MIN,
    H_CH_NOT, H_CH_OPT, H_CH_TYPES, H_COINS, H_CTX, H_DECIDER, H_DEPTH, H_END, H_EXTRA_PENDING,
    H_IN_EXTRA, H_NACTIVE, H_NP, H_OFF_STACK, H_SUCC_RED, H_USED, P_BACK_TURN, P_HAND_N, P_OWNED_N,
    P_PRINCESS, P_TURNS, P_TWIN_CTR, R_CITY, R_COURT_MAID, R_EDITION, R_FARMING_VILLAGE,
    R_LARGE_CITY, STACK_FRAME, TY_ACTION, TY_ATTACK, TY_CALAMITY, TY_SUCCESSION, TY_TERRITORY,
    USED_PRINCESS,
)
from hoc.kernel.endgame import domain_changed
from hoc.kernel.jit import kernel
from hoc.kernel.state import active, card, discard, hand, market, pb, play, rule
from hoc.kernel.zones import (
    discard_add, draw, ensure_deck, exile_from_hand, gain, gain_to_deck_top, hand_add, in_market,
    pop_deck, push_deck, to_domain_from_play,
)

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


# ---- built-in: backing a princess ------------------------------------------------------------
@kernel
def eff_back(s, fr, a):
    """Take the princess, then move the 3 highest-cost Territories of the play area to the new
    domain (the player chooses among equal costs), then her own 'when backed' text."""
    p = s[fr + FR_P]
    k = s[fr + FR_A]
    b = pb(s, p)
    step = s[fr + FR_STEP]
    if step == 0:
        s[market(s) + k] -= 1
        s[b + P_PRINCESS] = k
        s[b + P_BACK_TURN] = s[b + P_TURNS]
        s[fr + FR_B] = 3
        domain_changed(s, p)
        step = 1
    elif step == 2:
        to_domain_from_play(s, p, a - A_CHOOSE, 1)
        s[fr + FR_B] -= 1
        step = 1
    if step == 1:
        pa = play(s)
        skip_fv = card(s, k, F_FLAGS) & FL_BACK_WITHOUT_FARMING_VILLAGES != 0
        fv = rule(s, R_FARMING_VILLAGE)
        while s[fr + FR_B] > 0 and s[H_END] == 0:
            top = -1
            kinds = 0
            n = 0
            pick = -1
            for i in range(s[H_NACTIVE]):
                c = active(s, i)
                if s[pa + c] > 0 and card(s, c, F_TYPES) & TY_TERRITORY and not (skip_fv and c == fv):
                    cost = card(s, c, F_COST)
                    if cost > top:
                        top, kinds, n, pick = cost, 1, s[pa + c], c
                    elif cost == top:
                        kinds += 1
                        n += s[pa + c]
            if top < 0:
                break
            left = s[fr + FR_B]
            if kinds == 1:
                m = min(n, left)
                to_domain_from_play(s, p, pick, m)
                s[fr + FR_B] = left - m
            elif n <= left:
                for i in range(s[H_NACTIVE]):
                    c = active(s, i)
                    if (s[pa + c] > 0 and card(s, c, F_TYPES) & TY_TERRITORY and card(s, c, F_COST) == top
                            and not (skip_fv and c == fv)):
                        to_domain_from_play(s, p, c, s[pa + c])
                s[fr + FR_B] = left - n
            else:
                s[fr + FR_STEP] = 2
                ask(s, p, CH_PLAY, TY_TERRITORY, 0, top, top, False)
                return WAIT
        s[fr + FR_STEP] = 3
        eff = card(s, k, F_EFFECT)
        if eff != 0 and s[H_END] == 0:
            push(s, eff, TRIG_BACK, p, k)
            return CALL
    return DONE


# ---- start of Cleanup: Karikuma, Imperial Estate, Margrave -----------------------------------
@kernel
def eff_set_at_cleanup(s, fr, a):
    """'At the start of the Cleanup phase, if you have a domain, set this card.' Only played
    copies (in the play area) are set; a copy in hand does nothing (FAQ)."""
    if s[fr + FR_TRIG] != TRIG_CLEANUP:
        return DONE
    p = s[fr + FR_P]
    c = s[fr + FR_A]
    n = s[play(s) + c]
    if s[pb(s, p) + P_PRINCESS] >= 0 and n > 0:
        to_domain_from_play(s, p, c, n)
    return DONE


# ---- princesses -------------------------------------------------------------------------------
@kernel
def eff_laolily(s, fr, a):
    """When backed: gain up to 5 Court Maids from the market (the player picks how many)."""
    if s[fr + FR_TRIG] != TRIG_BACK:
        return DONE
    p = s[fr + FR_P]
    cm = rule(s, R_COURT_MAID)
    if s[fr + FR_STEP] == 0:
        n = min(5, s[market(s) + cm])
        if n == 0:
            return DONE
        s[fr + FR_STEP] = 1
        ask(s, p, CH_NUMBER, 0, 0, 0, n, False)
        return WAIT
    for _ in range(a - A_NUMBER):
        if s[H_END] != 0:
            break
        gain(s, p, cm)
    return DONE


@kernel
def market_choice_exists(s, max_cost):
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        if in_market(s, c) and card(s, c, F_COST) <= max_cost:
            return True
    return False


@kernel
def eff_flammaria(s, fr, a):
    """When backed: choose up to 2 cards costing 5 or less from the market and put them on top of
    the draw pile in any order (the last one chosen ends on top). 1E: gain them (to the discard
    pile); her Farming Villages stay out of the domain (a flag of her card data)."""
    if s[fr + FR_TRIG] != TRIG_BACK:
        return DONE
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 1:
        if a == A_PASS:
            return DONE
        if rule(s, R_EDITION) == 1:
            gain(s, p, a - A_CHOOSE)
        else:
            gain_to_deck_top(s, p, a - A_CHOOSE)
        s[fr + FR_B] += 1
    if s[fr + FR_B] >= 2 or s[H_END] != 0 or not market_choice_exists(s, 5):
        return DONE
    s[fr + FR_STEP] = 1
    ask(s, p, CH_MARKET, 0, 0, 0, 5, True)
    return WAIT


@kernel
def eff_twins(s, fr, a):
    """When backed: 2 Twin counters with 22-24 cards in the field, 3 with 25 or more (the Twins
    themselves count). Ability: remove a counter to take an extra turn after this one."""
    p = s[fr + FR_P]
    b = pb(s, p)
    trig = s[fr + FR_TRIG]
    if trig == TRIG_BACK:
        if rule(s, R_EDITION) == 1:
            backed = 0
            for q in range(s[H_NP]):
                if q != p and s[pb(s, q) + P_PRINCESS] >= 0:
                    backed += 1
            s[b + P_TWIN_CTR] += backed + 1
        else:
            n = s[b + P_OWNED_N] + 1
            s[b + P_TWIN_CTR] += 3 if n >= 25 else (2 if n >= 22 else 0)
    elif trig == TRIG_ABILITY:
        s[b + P_TWIN_CTR] -= 1
        s[H_EXTRA_PENDING] = 1
    return DONE


@kernel
def eff_bergamot(s, fr, a):
    """Ability, once per Main phase: discard 1 card from hand (1E: a non-Curse card); then put 1
    Action card from the discard pile into hand (nothing if there is none: the cost is still paid)."""
    if s[fr + FR_TRIG] != TRIG_ABILITY:
        return DONE
    p = s[fr + FR_P]
    step = s[fr + FR_STEP]
    if step == 0:
        s[fr + FR_STEP] = 1
        ask(s, p, CH_HAND, 0, TY_CALAMITY if rule(s, R_EDITION) == 1 else 0, 0, ANY_COST, False)
        return WAIT
    if step == 1:
        c = a - A_CHOOSE
        hand_add(s, p, c, -1)
        discard_add(s, p, c, 1)
        d = discard(s, p)
        for i in range(s[H_NACTIVE]):
            x = active(s, i)
            if s[d + x] > 0 and card(s, x, F_TYPES) & TY_ACTION:
                s[fr + FR_STEP] = 2
                ask(s, p, CH_DISCARD, TY_ACTION, 0, 0, ANY_COST, False)
                return WAIT
        return DONE
    c = a - A_CHOOSE
    discard_add(s, p, c, -1)
    hand_add(s, p, c, 1)
    return DONE


# ---- common cards ---------------------------------------------------------------------------
@kernel
def first_of_turn(s, c):
    """The card c just played is the first of its name played this turn."""
    return s[play(s) + c] == 1


@kernel
def eff_draw(s, fr, a, n):
    draw(s, s[fr + FR_P], n)
    return DONE


@kernel
def eff_trading_ship(s, fr, a):
    """Choose one: draw 2 cards, or gain 2 coins."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        s[fr + FR_STEP] = 1
        ask(s, p, CH_MODE, 0, 0, 0, 1, False)
        return WAIT
    if a - A_NUMBER == 0:
        draw(s, p, 2)
    else:
        s[H_COINS] += 2
    return DONE


@kernel
def eff_bank(s, fr, a):
    """+1 coin if a City or Large City was played earlier this turn."""
    pa = play(s)
    if s[pa + rule(s, R_CITY)] > 0 or s[pa + rule(s, R_LARGE_CITY)] > 0:
        s[H_COINS] += 1
    return DONE


@kernel
def eff_library(s, fr, a):
    """The first Library of the turn: every later Action played this turn gives 1 more coin."""
    if first_of_turn(s, s[fr + FR_A]):
        s[H_ACTION_BONUS] = 1
    return DONE


@kernel
def eff_donation(s, fr, a):
    """Exile 1 card from your hand."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        if s[pb(s, p) + P_HAND_N] == 0:
            return DONE
        s[fr + FR_STEP] = 1
        ask(s, p, CH_HAND, 0, 0, 0, ANY_COST, False)
        return WAIT
    exile_from_hand(s, p, a - A_CHOOSE)
    return DONE


@kernel
def eff_ball(s, fr, a):
    """Draw 1. The first Ball of the turn: gain 1 coin, or Succession cards cost 1 less this turn
    (not below 2)."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        draw(s, p, 1)
        if not first_of_turn(s, s[fr + FR_A]):
            return DONE
        s[fr + FR_STEP] = 1
        ask(s, p, CH_MODE, 0, 0, 0, 1, False)
        return WAIT
    if a - A_NUMBER == 0:
        s[H_COINS] += 1
    else:
        s[H_SUCC_RED] += 1
    return DONE


@kernel
def eff_wishing_well(s, fr, a):
    """Discard any number of cards from your hand, then draw as many (0 is allowed: FAQ)."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 1:
        if a == A_PASS:
            draw(s, p, s[fr + FR_B])
            return DONE
        c = a - A_CHOOSE
        hand_add(s, p, c, -1)
        discard_add(s, p, c, 1)
        s[fr + FR_B] += 1
    if s[pb(s, p) + P_HAND_N] == 0:
        draw(s, p, s[fr + FR_B])
        return DONE
    s[fr + FR_STEP] = 1
    ask(s, p, CH_HAND, 0, 0, 0, ANY_COST, True)
    return WAIT


@kernel
def eff_scout(s, fr, a):
    """Look at the top card of your deck; you may discard it (even if face up: FAQ); draw 1."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        if ensure_deck(s, p, 1) > 0:
            s[fr + FR_STEP] = 1
            ask(s, p, CH_DECK_TOP, 0, 0, 0, ANY_COST, True)
            return WAIT
    elif a != A_PASS:
        discard_add(s, p, pop_deck(s, p), 1)
    draw(s, p, 1)
    return DONE


@kernel
def discard_has(s, p, types, not_types, lo, hi):
    d = discard(s, p)
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        if (s[d + c] > 0 and (types == 0 or card(s, c, F_TYPES) & types) and card(s, c, F_TYPES) & not_types == 0
                and lo <= card(s, c, F_COST) <= hi):
            return True
    return False


@kernel
def eff_hideout(s, fr, a):
    """The first Hideout of the turn: you may put an Action or Succession card without Attack
    from your discard pile face up on top of your deck."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        if not first_of_turn(s, s[fr + FR_A]) or not discard_has(s, p, TY_ACTION | TY_SUCCESSION, TY_ATTACK, 0, ANY_COST):
            return DONE
        s[fr + FR_STEP] = 1
        ask(s, p, CH_DISCARD, TY_ACTION | TY_SUCCESSION, TY_ATTACK, 0, ANY_COST, True)
        return WAIT
    if a != A_PASS:
        c = a - A_CHOOSE
        discard_add(s, p, c, -1)
        push_deck(s, p, c, True)
    return DONE


@kernel
def eff_rampart(s, fr, a):
    """The first Rampart of the turn: you may put the lowest-cost Territory of your discard pile
    into your hand."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        if not first_of_turn(s, s[fr + FR_A]):
            return DONE
        d = discard(s, p)
        low = ANY_COST
        for i in range(s[H_NACTIVE]):
            c = active(s, i)
            if s[d + c] > 0 and card(s, c, F_TYPES) & TY_TERRITORY:
                low = min(low, card(s, c, F_COST))
        if low == ANY_COST:
            return DONE
        s[fr + FR_STEP] = 1
        ask(s, p, CH_DISCARD, TY_TERRITORY, 0, low, low, True)
        return WAIT
    if a != A_PASS:
        c = a - A_CHOOSE
        discard_add(s, p, c, -1)
        hand_add(s, p, c, 1)
    return DONE


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
