"""Backing a princess, and the princesses' texts; Karikuma's (shared) start-of-cleanup set.

A princess with an activation ability (the A_ABILITY action) has, beside her routine, `<name>_ready`:
whether the ability can be used now (its cost can be paid, its once-per-turn not spent), and may have
`<name>_worth`: whether using it now does more than pay its cost. `effects.ability_ready` and
`effects.ability_worth` map the princess's routine to them, as `effects.dispatch` maps it to the routine."""
from hoc.engine.jit import kernel
from hoc.games.heart_of_crown.kernel.choice import (
    ANY_COST, CALL, DONE, FR_A, FR_B, FR_P, FR_STEP, FR_TRIG, WAIT, ask, good_for_chooser, push,
)
from hoc.games.heart_of_crown.kernel.constants import (
    A_CHOOSE, A_NUMBER, A_PASS, CH_DISCARD, CH_HAND, CH_MARKET, CH_NUMBER, CH_PLAY,
    FL_BACK_WITHOUT_FARMING_VILLAGES, F_COST, F_EFFECT, F_FLAGS, F_TRIGGERS, F_TYPES, H_END,
    H_EXTRA_PENDING, H_IN_EXTRA, H_NACTIVE, H_NP, H_USED, P_BACK_TURN, P_HAND_N, P_OWNED_N, P_PRINCESS, P_TURNS,
    P_TWIN_CTR, R_COURT_MAID, R_EDITION, R_FARMING_VILLAGE, TRIG_ABILITY, TRIG_BACK, TRIG_CLEANUP, TY_ACTION,
    TY_CALAMITY, TY_TERRITORY, USED_PRINCESS,
)
from hoc.games.heart_of_crown.kernel.endgame import rescore
from hoc.games.heart_of_crown.kernel.state import active, card, discard, market, pb, play, rule
from hoc.games.heart_of_crown.kernel.zones import (
    discard_add, discard_has, gain, gain_to_deck_top, hand_add, hand_has, market_choice_exists, to_domain_from_play,
)

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
        rescore(s, p)
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
        if card(s, k, F_TRIGGERS) & (1 << TRIG_BACK) and s[H_END] == 0:
            push(s, card(s, k, F_EFFECT), TRIG_BACK, p, k)
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
    good_for_chooser(s)
    return WAIT


@kernel
def twins_ready(s, p):
    """A Twin counter to remove, not in an extra turn. 2E: and none pending (at most one a turn, never
    two extra turns in a row); 1E: as many a regular turn as there are counters."""
    if s[pb(s, p) + P_TWIN_CTR] <= 0 or s[H_IN_EXTRA] != 0:
        return False
    return rule(s, R_EDITION) == 1 or s[H_EXTRA_PENDING] == 0


@kernel
def eff_twins(s, fr, a):
    """When backed: 2 Twin counters with 22-24 cards in the field, 3 with 25 or more (the Twins
    themselves count); 1E: as many as the princesses other players have backed, plus 1. Ability:
    remove a counter to take an extra turn after this one; each use adds one extra turn to those
    pending, which are taken one after another (`twins_ready` says how many a turn)."""
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
        s[H_EXTRA_PENDING] += 1
    return DONE


@kernel
def bergamot_ready(s, p):
    """Once per Main phase, with a card in hand to discard (1E: a card that is not a Curse)."""
    if s[H_USED] & USED_PRINCESS != 0:
        return False
    if rule(s, R_EDITION) == 1:
        return hand_has(s, p, TY_CALAMITY)
    return s[pb(s, p) + P_HAND_N] > 0


@kernel
def bergamot_worth(s, p):
    """Her ability takes something back only with an Action already in the discard pile (the card
    discarded to pay for it may be one too, but a player does not count on that)."""
    return discard_has(s, p, TY_ACTION, 0, 0, ANY_COST)


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
                good_for_chooser(s)
                return WAIT
        return DONE
    c = a - A_CHOOSE
    discard_add(s, p, c, -1)
    hand_add(s, p, c, 1)
    return DONE
