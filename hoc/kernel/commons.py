"""The common cards' texts: one routine per card (cards with the same text share one)."""
from hoc.kernel.constants import (
    A_CHOOSE, A_NUMBER, A_PASS, CH_DECK_TOP, CH_DISCARD, CH_HAND, CH_MODE, F_COST, F_TYPES, H_ACTION_BONUS, H_COINS, H_NACTIVE, H_SUCC_RED, P_HAND_N, R_CITY, R_LARGE_CITY, TY_ACTION, TY_ATTACK, TY_SUCCESSION, TY_TERRITORY,
)
from hoc.kernel.jit import kernel
from hoc.kernel.state import active, card, discard, pb, play, rule
from hoc.kernel.zones import (
    discard_add, draw, ensure_deck, exile_from_hand, hand_add, pop_deck, push_deck,
)
from hoc.kernel.choice import ANY_COST, DONE, FR_A, FR_B, FR_P, FR_STEP, WAIT, ask

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
