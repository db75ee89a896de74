"""The common cards' texts: one routine per card (cards with the same text share one)."""
import numpy as np

from hoc.engine.jit import kernel
from hoc.games.heart_of_crown.kernel.choice import (
    ANY_COST, CALL, DONE, FR_A, FR_B, FR_C, FR_EFF, FR_P, FR_STEP, FR_TRIG, WAIT, about, ask, ask_mode,
    good_for_chooser, narrow, push,
)
from hoc.games.heart_of_crown.kernel.constants import (
    A_CHOOSE, A_NUMBER, A_PASS, CH_DECK_TOP, CH_DISCARD, CH_HAND, CH_KEPT, CH_MARKET, CH_PLAY,
    EFF_CHARM_WITCH, EFF_CITY_DEVELOPMENT_1E, R_EDITION, FL_NAMED_FARMING_VILLAGE, F_COST, F_EFFECT, F_FLAGS, F_SUB, F_TRIGGERS, F_TYPES,
    H_ACTION_BONUS, H_COINS, H_END, H_NACTIVE, H_NP, H_SUCC_RED, H_WITCH, H_WITCH_N, MAX_WITCHES,
    P_COIN_CTR, P_DECK_N, P_HANDY_CTR, P_HAND_N, P_PRINCESS, P_SUCC_CTR, R_CITY, R_COURT_MAID, R_DUKE,
    R_FARMING_VILLAGE, R_LARGE_CITY, R_SENATOR, ST_ATTACKS, TRIG_ABILITY, TRIG_CLEANUP, TRIG_PLAY,
    TRIG_DOMAIN, TRIG_SET, TY_ACTION, TY_ATTACK, TY_CALAMITY, TY_SUCCESSION, TY_TERRITORY,
    H_PLAY_MASK, H_SHIELD, H_SUPPLY_N, H_TURN_FLAGS, R_CURSE, ST_EXILED, ST_GAINED, SUB_MILITARY,
    TF_BUYS_TO_DECK_BOTTOM, TF_VILLAGES_YIELD_2, TRIG_DEFENSE, CH_DOMAIN, FL_COURT_TITLE, P_KEPT_N, P_OUT,
    F_COINS, H_DEBT_NEW, H_DEPTH, EFF_SHINOBI, TF_BUY_FROM_OPPONENTS,
)
from hoc.games.heart_of_crown.kernel.defense import attack_played
from hoc.games.heart_of_crown.kernel.endgame import rescore
from hoc.games.heart_of_crown.kernel.market import reveal_bottom, take_supply_bottom
from hoc.games.heart_of_crown.kernel.state import (
    abroad, active, after, card, count, deck, discard, domain, hand, lowest, market, mask_load, pb, play, rule,
)
from hoc.games.heart_of_crown.kernel.zones import (
    FACE_UP, discard_add, discard_has, domain_to_discard, draw, ensure_deck, exile_from_discard,
    exile_from_hand, gain, gain_coins, give_curse, hand_add, hand_has, hand_has_card, hand_has_flag, hand_has_type,
    in_market, kept_lowest_cost, kept_to_discard, market_choice_exists, market_to_hand, own, play_has,
    pop_deck, push_deck, push_deck_bottom, set_from_discard, take_from_market, take_from_window,
)

ONE = np.uint64(1)

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
        ask_mode(s, p, 3, False)
        return WAIT
    if a - A_NUMBER == 0:
        draw(s, p, 2)
    else:
        gain_coins(s, p, 2)
    return DONE


@kernel
def eff_bank(s, fr, a):
    """+1 coin if a City or Large City was played earlier this turn."""
    pa = play(s)
    if s[pa + rule(s, R_CITY)] > 0 or s[pa + rule(s, R_LARGE_CITY)] > 0:
        s[H_COINS] += 1
    return DONE


@kernel
def eff_bank_1e(s, fr, a):
    """1E: +X coins, X = the Banks, Cities and Large Cities played this turn (this Bank among them,
    as they are all in the play area now) + 1 (ref §4 #42)."""
    pa = play(s)
    gain_coins(s, s[fr + FR_P], s[pa + s[fr + FR_A]] + s[pa + rule(s, R_CITY)] + s[pa + rule(s, R_LARGE_CITY)] + 1)
    return DONE


@kernel
def eff_library(s, fr, a):
    """The first Library of the turn: every later Action played this turn gives 1 more coin."""
    if first_of_turn(s, s[fr + FR_A]):
        s[H_ACTION_BONUS] = 1
    return DONE


@kernel
def eff_donation(s, fr, a):
    """Exile 1 card from your hand. 1E: "Pay 1 coin: exile any 1 card from your hand": the player
    may pay (choose the card) or decline (pass); without a coin nothing happens."""
    p = s[fr + FR_P]
    first = rule(s, R_EDITION) == 1
    if s[fr + FR_STEP] == 0:
        if s[pb(s, p) + P_HAND_N] == 0 or (first and s[H_COINS] < 1):
            return DONE
        s[fr + FR_STEP] = 1
        ask(s, p, CH_HAND, 0, 0, 0, ANY_COST, first)
        return WAIT
    if a == A_PASS:
        return DONE
    if first:
        s[H_COINS] -= 1
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
        ask_mode(s, p, 3, False)
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
def eff_hideout(s, fr, a):
    """The first Hideout of the turn: you may put an Action or Succession card without Attack
    from your discard pile face up on top of your deck."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        if not first_of_turn(s, s[fr + FR_A]) or not discard_has(s, p, TY_ACTION | TY_SUCCESSION, TY_ATTACK, 0, ANY_COST):
            return DONE
        s[fr + FR_STEP] = 1
        ask(s, p, CH_DISCARD, TY_ACTION | TY_SUCCESSION, TY_ATTACK, 0, ANY_COST, True)
        good_for_chooser(s)
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
        good_for_chooser(s)
        return WAIT
    if a != A_PASS:
        c = a - A_CHOOSE
        discard_add(s, p, c, -1)
        hand_add(s, p, c, 1)
    return DONE


@kernel
def eff_handyman(s, fr, a):
    """Choose one: exile a non-Calamity card from hand, or gain a coin counter (at most 2 coin
    counters from Handyman at a time; Minnyan's are counted apart: FAQ)."""
    p = s[fr + FR_P]
    step = s[fr + FR_STEP]
    if step == 0:
        s[fr + FR_STEP] = 1
        ask_mode(s, p, (1 if hand_has(s, p, TY_CALAMITY) else 0) | 2, False)
        return WAIT
    if step == 1:
        if a - A_NUMBER == 1:
            if s[pb(s, p) + P_HANDY_CTR] < 2:
                s[pb(s, p) + P_HANDY_CTR] += 1
            return DONE
        s[fr + FR_STEP] = 2
        ask(s, p, CH_HAND, 0, TY_CALAMITY, 0, ANY_COST, False)
        return WAIT
    exile_from_hand(s, p, a - A_CHOOSE)
    return DONE


@kernel
def eff_city_development(s, fr, a):
    """Choose one: pay 1 coin, exile a Farming Village from hand, put a City from the market into
    hand; or pay 1 coin, exile a City, put a Large City into hand. With none left in the market
    the exile still happens (FAQ)."""
    p = s[fr + FR_P]
    step = s[fr + FR_STEP]
    city = rule(s, R_CITY)
    upgrade = 2 if s[fr + FR_EFF] == EFF_CITY_DEVELOPMENT_1E else 1     # 1E: City -> Large City costs 2
    if step == 0:
        modes = 0
        if s[H_COINS] >= 1 and hand_has_flag(s, p, FL_NAMED_FARMING_VILLAGE):
            modes |= 1
        if s[H_COINS] >= upgrade and s[hand(s, p) + city] > 0:
            modes |= 2
        if modes == 0:
            return DONE
        s[fr + FR_STEP] = 1
        ask_mode(s, p, modes, True)
        return WAIT
    if step == 1:
        if a == A_PASS:
            return DONE
        s[H_COINS] -= 1 if a - A_NUMBER == 0 else upgrade
        s[fr + FR_B] = a - A_NUMBER
        s[fr + FR_STEP] = 2
        ask(s, p, CH_HAND, 0, 0, 0, ANY_COST, False)
        if s[fr + FR_B] == 0:
            narrow(s, FL_NAMED_FARMING_VILLAGE, -1, -1, 1)
        else:
            narrow(s, 0, city, -1, 1)
        return WAIT
    exile_from_hand(s, p, a - A_CHOOSE)
    target = city if s[fr + FR_B] == 0 else rule(s, R_LARGE_CITY)
    if in_market(s, target):
        market_to_hand(s, p, target)
    return DONE


@kernel
def eff_adventurer(s, fr, a):
    """Exile a non-Calamity card from hand; if you did, gain a card from the market costing up to
    its cost + 2 (a gain: backing or setting is still open: FAQ). 1E: "Pay 1 coin:" first, so the
    player may decline (pass), and without a coin nothing happens."""
    p = s[fr + FR_P]
    step = s[fr + FR_STEP]
    first = rule(s, R_EDITION) == 1
    if step == 0:
        if not hand_has(s, p, TY_CALAMITY) or (first and s[H_COINS] < 1):
            return DONE
        s[fr + FR_STEP] = 1
        ask(s, p, CH_HAND, 0, TY_CALAMITY, 0, ANY_COST, first)
        return WAIT
    if step == 1:
        if a == A_PASS:
            return DONE
        if first:
            s[H_COINS] -= 1
        c = a - A_CHOOSE
        exile_from_hand(s, p, c)
        limit = card(s, c, F_COST) + 2
        if not market_choice_exists(s, limit):
            return DONE
        s[fr + FR_STEP] = 2
        ask(s, p, CH_MARKET, 0, 0, 0, limit, False)
        good_for_chooser(s)
        return WAIT
    gain(s, p, a - A_CHOOSE)
    return DONE


@kernel
def eff_magic_talisman(s, fr, a):
    """The first Magic Talisman of the turn, choose one: exile a Calamity from the discard pile or
    hand, or put an Action/Succession card from the discard pile into hand."""
    p = s[fr + FR_P]
    step = s[fr + FR_STEP]
    if step == 0:
        if not first_of_turn(s, s[fr + FR_A]):
            return DONE
        modes = 0
        if hand_has_type(s, p, TY_CALAMITY):
            modes |= 1
        if discard_has(s, p, TY_CALAMITY, 0, 0, ANY_COST):
            modes |= 2
        if discard_has(s, p, TY_ACTION | TY_SUCCESSION, 0, 0, ANY_COST):
            modes |= 4
        if modes == 0:
            return DONE
        s[fr + FR_STEP] = 1
        ask_mode(s, p, modes, False)
        return WAIT
    if step == 1:
        mode = a - A_NUMBER
        s[fr + FR_B] = mode
        s[fr + FR_STEP] = 2
        if mode == 0:
            ask(s, p, CH_HAND, TY_CALAMITY, 0, 0, ANY_COST, False)
        elif mode == 1:
            ask(s, p, CH_DISCARD, TY_CALAMITY, 0, 0, ANY_COST, False)
        else:
            ask(s, p, CH_DISCARD, TY_ACTION | TY_SUCCESSION, 0, 0, ANY_COST, False)
            good_for_chooser(s)
        return WAIT
    c = a - A_CHOOSE
    mode = s[fr + FR_B]
    if mode == 0:
        exile_from_hand(s, p, c)
    elif mode == 1:
        exile_from_discard(s, p, c)
    else:
        discard_add(s, p, c, -1)
        hand_add(s, p, c, 1)
    return DONE


@kernel
def eff_stargazing_witch(s, fr, a):
    """Look at the top 2 cards of your deck, discard any of them, put the rest back in any order;
    then draw 1. Choosing a card discards it; passing keeps the rest, and with two different
    cards left you then choose the one to put on top."""
    p = s[fr + FR_P]
    step = s[fr + FR_STEP]
    if step == 0:
        s[fr + FR_B] = min(2, ensure_deck(s, p, 2))
    elif step == 1:
        if a == A_PASS:
            k = deck(s, p) + s[pb(s, p) + P_DECK_N]
            if s[fr + FR_B] == 2 and (s[k - 1] ^ s[k - 2]) & (FACE_UP - 1) != 0:
                s[fr + FR_STEP] = 2
                ask(s, p, CH_DECK_TOP, 0, 0, 0, ANY_COST, False)
                narrow(s, 0, -1, -1, 2)
                return WAIT
            draw(s, p, 1)
            return DONE
        c = a - A_CHOOSE
        take_from_window(s, p, s[fr + FR_B], c)
        discard_add(s, p, c, 1)
        s[fr + FR_B] -= 1
    else:
        k = deck(s, p) + s[pb(s, p) + P_DECK_N]
        if s[k - 1] & (FACE_UP - 1) != a - A_CHOOSE:
            s[k - 1], s[k - 2] = s[k - 2], s[k - 1]
        draw(s, p, 1)
        return DONE
    if s[fr + FR_B] == 0:
        draw(s, p, 1)
        return DONE
    s[fr + FR_STEP] = 1
    ask(s, p, CH_DECK_TOP, 0, 0, 0, ANY_COST, True)
    narrow(s, 0, -1, -1, s[fr + FR_B])
    return WAIT


@kernel
def eff_supply_unit(s, fr, a):
    """Draw 1. At the start of Cleanup each Supply Unit played may put an Action other than Supply
    Unit from the play area face up on top of your deck (two cannot return each other: FAQ).
    1E: any card other than Supply Unit played this turn (still in the play area), not only Actions."""
    p = s[fr + FR_P]
    if s[fr + FR_TRIG] == TRIG_PLAY:
        draw(s, p, 1)
        return DONE
    if s[fr + FR_TRIG] != TRIG_CLEANUP:
        return DONE
    unit = s[fr + FR_A]
    if s[fr + FR_STEP] == 1:
        if a == A_PASS:
            return DONE
        c = a - A_CHOOSE
        s[play(s) + c] -= 1
        push_deck(s, p, c, True)
    types = TY_ACTION | TY_TERRITORY if rule(s, R_EDITION) == 1 else TY_ACTION
    if s[fr + FR_B] >= s[play(s) + unit] or not play_has(s, types, unit):
        return DONE
    s[fr + FR_B] += 1
    s[fr + FR_STEP] = 1
    ask(s, p, CH_PLAY, types, 0, 0, ANY_COST, True)
    narrow(s, 0, -1, unit, 1)
    good_for_chooser(s)
    return WAIT


@kernel
def eff_set_on_buy(s, fr, a):
    """An Attendant Maid just bought may be set at once when you have a domain; her 'when set'
    text then resolves. (Her on_buy routine: TRIG_BUY.)"""
    p = s[fr + FR_P]
    c = s[fr + FR_A]
    if s[fr + FR_STEP] == 0:
        if s[pb(s, p) + P_PRINCESS] < 0 or s[discard(s, p) + c] == 0:
            return DONE
        s[fr + FR_STEP] = 1
        ask(s, p, CH_DISCARD, 0, 0, 0, ANY_COST, True)
        narrow(s, 0, c, -1, 1)
        good_for_chooser(s)
        return WAIT
    if s[fr + FR_STEP] == 2 or a == A_PASS:
        return DONE
    set_from_discard(s, p, c)
    s[fr + FR_STEP] = 2
    if card(s, c, F_TRIGGERS) & (1 << TRIG_SET):
        push(s, card(s, c, F_EFFECT), TRIG_SET, p, c)
        return CALL
    return DONE


@kernel
def eff_minnyan(s, fr, a):
    """When set: gain a coin counter."""
    if s[fr + FR_TRIG] == TRIG_SET:
        s[pb(s, s[fr + FR_P]) + P_COIN_CTR] += 1
    return DONE


@kernel
def lily_ready(s, p):
    """Her ability (TRIG_DOMAIN) can be paid for: 3 coins."""
    return s[H_COINS] >= 3


@kernel
def eff_lily(s, fr, a):
    """While set, once per Main phase: pay 3 coins to put a +1 succession counter on the princess."""
    if s[fr + FR_TRIG] == TRIG_DOMAIN:
        p = s[fr + FR_P]
        s[H_COINS] -= 3
        s[pb(s, p) + P_SUCC_CTR] += 1
        rescore(s, p)
    return DONE


@kernel
def next_victim(s, fr):
    """The next opponent an attack reaches, clockwise from the attacker's left, skipping players
    out of overtime; -1 when all were reached. FR_B counts the opponents visited."""
    p = s[fr + FR_P]
    n = s[H_NP]
    while s[fr + FR_B] < n - 1:
        s[fr + FR_B] += 1
        q = after(s, p, s[fr + FR_B])
        if s[pb(s, q) + P_OUT] == 0:
            count(s, s[fr + FR_A], ST_ATTACKS)
            return q
    return -1


@kernel
def victim(s, fr):
    return after(s, s[fr + FR_P], s[fr + FR_B])


@kernel
def domain_lowest_or_highest(s, q, highest):
    """Among the Court Maids, Senators and Dukes in q's domain, the lowest- (or highest-) cost
    card; -1 if none. On equal costs the first in card order."""
    best = -1
    for c in (rule(s, R_COURT_MAID), rule(s, R_SENATOR), rule(s, R_DUKE)):
        if s[domain(s, q) + c] > 0:
            if best < 0 or (highest and card(s, c, F_COST) > card(s, best, F_COST)) or \
                    (not highest and card(s, c, F_COST) < card(s, best, F_COST)):
                best = c
    return best


@kernel
def eff_domain_raid(s, fr, a, highest):
    """Petit (lowest) and the Gossip-Loving Duchess (highest), when set: every opponent discards
    that card of Court Maid / Senator / Duke from their domain."""
    if s[fr + FR_TRIG] != TRIG_SET:
        return DONE
    q = next_victim(s, fr)
    while q >= 0 and s[H_END] == 0:
        c = domain_lowest_or_highest(s, q, highest)
        if c >= 0:
            domain_to_discard(s, q, c)
        q = next_victim(s, fr)
    return DONE


@kernel
def curse_opponents(s, fr, on_deck_top):
    """Every opponent in turn gains a Curse until the pile runs out (FAQ: later ones get none)."""
    q = next_victim(s, fr)
    while q >= 0 and give_curse(s, q, on_deck_top):
        q = next_victim(s, fr)


@kernel
def eff_sharifa(s, fr, a):
    """When set: every opponent takes a Curse face up on top of their deck (until none is left)."""
    if s[fr + FR_TRIG] == TRIG_SET:
        curse_opponents(s, fr, True)
    return DONE


@kernel
def eff_royal_guard(s, fr, a):
    """Every opponent discards the top 3 cards of their deck."""
    q = next_victim(s, fr)
    while q >= 0:
        # short of 3 cards, the discard pile goes under the deck first (RULINGS 15)
        for _ in range(min(3, ensure_deck(s, q, 3))):
            discard_add(s, q, pop_deck(s, q), 1)
        q = next_victim(s, fr)
    return DONE


@kernel
def eff_land_reclamation(s, fr, a):
    """Every opponent without a Farming Village face up on top of their deck takes one from the
    market face up on top of their deck (until the pile runs out)."""
    fv = rule(s, R_FARMING_VILLAGE)
    q = next_victim(s, fr)
    while q >= 0 and s[market(s) + fv] > 0:
        n = s[pb(s, q) + P_DECK_N]
        top = s[deck(s, q) + n - 1] if n > 0 else 0
        if not (n > 0 and top & FACE_UP and card(s, top & (FACE_UP - 1), F_FLAGS) & FL_NAMED_FARMING_VILLAGE):
            push_deck(s, q, fv, True)
            own(s, q, fv, 1)
            take_from_market(s, fv)
        q = next_victim(s, fr)
    return DONE


@kernel
def eff_battering_ram(s, fr, a):
    """Draw 1. Every opponent discards the lowest-cost card kept in their domain (their choice
    among equal costs)."""
    if s[fr + FR_STEP] == 0:
        draw(s, s[fr + FR_P], 1)
    else:
        kept_to_discard(s, victim(s, fr), a - A_CHOOSE)
    q = next_victim(s, fr)
    while q >= 0:
        low = kept_lowest_cost(s, q)
        if low >= 0:
            s[fr + FR_STEP] = 1
            ask(s, q, CH_KEPT, 0, 0, low, low, False)
            return WAIT
        q = next_victim(s, fr)
    return DONE


@kernel
def eff_hand_attack(s, fr, a, types, min_cost, draw_first):
    """Infantry Battalion, Hunted Beast, Charm Witch: every opponent with 5 or more cards in hand
    discards a card of the given types (or costing min_cost or more); anyone without one reveals
    their hand (no effect here). A Charm Witch notes the types of the cards discarded: this turn
    cards sharing one of them cost 1 less to buy (not below 2; each Witch once)."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        if draw_first:
            draw(s, p, 1)
    else:
        q = victim(s, fr)
        c = a - A_CHOOSE
        hand_add(s, q, c, -1)
        discard_add(s, q, c, 1)
        s[fr + FR_C] |= card(s, c, F_TYPES) | (card(s, c, F_SUB) << 8)
    q = next_victim(s, fr)
    while q >= 0:
        if s[pb(s, q) + P_HAND_N] >= 5 and hand_has_card(s, q, types, min_cost) and shield(s, q, s[fr + FR_A]) == 0:
            s[fr + FR_STEP] = 1
            ask(s, q, CH_HAND, types, 0, min_cost, ANY_COST, False)
            return WAIT
        q = next_victim(s, fr)
    if s[fr + FR_EFF] == EFF_CHARM_WITCH and s[fr + FR_C] != 0 and s[H_WITCH_N] < MAX_WITCHES:
        s[H_WITCH + s[H_WITCH_N]] = s[fr + FR_C]
        s[H_WITCH_N] += 1
    return DONE


@kernel
def eff_curse_witch(s, fr, a):
    """Pay 1 coin, or exile an Action/Succession card from hand. If you did, choose one: every
    opponent gains a Curse (clockwise, until none is left: FAQ), or draw 2 cards."""
    p = s[fr + FR_P]
    step = s[fr + FR_STEP]
    if step == 0:
        modes = (1 if s[H_COINS] >= 1 else 0) | (2 if hand_has_card(s, p, TY_ACTION | TY_SUCCESSION, 0) else 0)
        if modes == 0:
            return DONE
        s[fr + FR_STEP] = 1
        ask_mode(s, p, modes, True)
        return WAIT
    if step == 1:
        if a == A_PASS:
            return DONE
        if a - A_NUMBER == 0:
            s[H_COINS] -= 1
        else:
            s[fr + FR_STEP] = 2
            ask(s, p, CH_HAND, TY_ACTION | TY_SUCCESSION, 0, 0, ANY_COST, False)
            return WAIT
    elif step == 2:
        exile_from_hand(s, p, a - A_CHOOSE)
    if step <= 2:
        s[fr + FR_STEP] = 3
        ask_mode(s, p, 4 | 8, False)
        return WAIT
    if a - A_NUMBER == 3:
        draw(s, p, 2)
    else:
        curse_opponents(s, fr, False)
    return DONE


@kernel
def eff_buried_treasure(s, fr, a):
    """The bottom card of the supply goes face up on top of it; this turn it is in the market
    (bought 3 cheaper, not below 0, or gained by effects within their cost limits). Later players
    may buy it at its cost while it lies on top (FAQ; ref §4 #27); it is the first card revealed
    at the next refill. Nothing happens with an empty supply (FAQ). All of it is the market's
    (`face_up_offered`, `in_market`, `buy_cost`): the turn knows only "in the market"."""
    reveal_bottom(s)
    return DONE


# ---- 1st-edition texts that differ from the 2nd edition's ------------------------------------
@kernel
def in_play(s, types, flags):
    """Cards in the play area (those played this turn) with one of the types, or all the flags."""
    pa = play(s)
    n = 0
    m = mask_load(s, H_PLAY_MASK)
    while m:
        c = lowest(m)
        m &= m - ONE
        if card(s, c, F_TYPES) & types or (flags != 0 and card(s, c, F_FLAGS) & flags == flags):
            n += s[pa + c]
    return n


@kernel
def actions_in_play(s):
    """Action cards in the play area (those played this turn, this one included)."""
    return in_play(s, TY_ACTION, 0)


@kernel
def window_to_bottom(s, p, n, c):
    """Move the topmost c among the top n cards of p's deck under the other n - 1 (keeping its face):
    the top n - 1 are then the ones still to order."""
    k = deck(s, p)
    top = s[pb(s, p) + P_DECK_N]
    lo = max(0, top - n)
    for i in range(top - 1, lo - 1, -1):
        if s[k + i] & (FACE_UP - 1) == c:
            x = s[k + i]
            for j in range(i, lo, -1):
                s[k + j] = s[k + j - 1]
            s[k + lo] = x
            return


@kernel
def window_all_alike(s, p, n):
    k = deck(s, p) + s[pb(s, p) + P_DECK_N]
    for i in range(2, n + 1):
        if (s[k - i] ^ s[k - 1]) & (FACE_UP - 1) != 0:
            return False
    return True


@kernel
def eff_stargazing_witch_1e(s, fr, a):
    """1E: X = Actions already played this turn + 1. Look at the top X cards of your deck, discard
    any number of them, put the rest back in any order, then draw 1. Choosing a card discards it;
    passing keeps the rest, which the player then orders by choosing, one at a time, the card that
    goes under the others still to order (the last one left lies on top)."""
    p = s[fr + FR_P]
    step = s[fr + FR_STEP]
    if step == 0:
        x = actions_in_play(s)          # this Witch is in the play area: "already played" + 1
        s[fr + FR_B] = min(x, ensure_deck(s, p, x))
    elif step == 1:
        if a == A_PASS:
            step = 2
        else:
            c = a - A_CHOOSE
            take_from_window(s, p, s[fr + FR_B], c)
            discard_add(s, p, c, 1)
            s[fr + FR_B] -= 1
    else:
        window_to_bottom(s, p, s[fr + FR_B], a - A_CHOOSE)
        s[fr + FR_B] -= 1
    if step == 0 or step == 1:
        if s[fr + FR_B] > 0:
            s[fr + FR_STEP] = 1
            ask(s, p, CH_DECK_TOP, 0, 0, 0, ANY_COST, True)
            narrow(s, 0, -1, -1, s[fr + FR_B])
            return WAIT
    if s[fr + FR_B] >= 2 and not window_all_alike(s, p, s[fr + FR_B]):
        s[fr + FR_STEP] = 3
        ask(s, p, CH_DECK_TOP, 0, 0, 0, ANY_COST, False)
        narrow(s, 0, -1, -1, s[fr + FR_B])
        return WAIT
    draw(s, p, 1)
    return DONE


@kernel
def eff_library_1e(s, fr, a):
    """1E, choose one: choose 2 non-Succession cards in your discard pile and put them face up on
    the bottom of your deck (each under the one before; with one such card, that one), or draw 1."""
    p = s[fr + FR_P]
    step = s[fr + FR_STEP]
    if step == 0:
        s[fr + FR_STEP] = 1
        ask_mode(s, p, (1 if discard_has(s, p, 0, TY_SUCCESSION, 0, ANY_COST) else 0) | 2, False)
        return WAIT
    if step == 1:
        if a - A_NUMBER == 1:
            draw(s, p, 1)
            return DONE
    else:
        c = a - A_CHOOSE
        discard_add(s, p, c, -1)
        push_deck_bottom(s, p, c, True)
        s[fr + FR_B] += 1
    if s[fr + FR_B] >= 2 or not discard_has(s, p, 0, TY_SUCCESSION, 0, ANY_COST):
        return DONE
    s[fr + FR_STEP] = 2
    ask(s, p, CH_DISCARD, 0, TY_SUCCESSION, 0, ANY_COST, False)
    good_for_chooser(s)
    return WAIT


@kernel
def eff_purveyor_1e(s, fr, a):
    """1E: the cards you buy this turn go face up to the bottom of your deck instead of the discard
    pile (buys only; each under the ones bought before, so the buying order is the "any order")."""
    s[H_TURN_FLAGS] |= TF_BUYS_TO_DECK_BOTTOM
    return DONE


@kernel
def eff_royal_guard_1e(s, fr, a):
    """1E: every opponent without a face-up card on top of their deck reveals its top 3 cards (one
    fewer per Rampart revealed against it); you choose 1 to put back on top (face up: it has been
    revealed), the others are discarded."""
    if s[fr + FR_STEP] == 1:
        q = victim(s, fr)
        finish_royal_guard(s, q, s[fr + FR_C], a - A_CHOOSE)
    q = next_victim(s, fr)
    while q >= 0:
        n = s[pb(s, q) + P_DECK_N]
        top = s[deck(s, q) + n - 1] if n > 0 else 0
        if not (n > 0 and top & FACE_UP):
            n3 = 3 - shield(s, q, s[fr + FR_A])
            k = min(n3, ensure_deck(s, q, n3)) if n3 > 0 else 0
            if k >= 2 and not window_all_alike(s, q, k):
                s[fr + FR_C] = k
                s[fr + FR_STEP] = 1
                ask(s, s[fr + FR_P], CH_DECK_TOP, 0, 0, 0, ANY_COST, False)
                narrow(s, 0, -1, -1, k)
                about(s, q)
                return WAIT
            if k >= 1:
                finish_royal_guard(s, q, k, s[deck(s, q) + s[pb(s, q) + P_DECK_N] - 1] & (FACE_UP - 1))
        q = next_victim(s, fr)
    return DONE


@kernel
def finish_royal_guard(s, q, k, c):
    """Of q's top k revealed cards, c goes back on top face up and the others are discarded."""
    take_from_window(s, q, k, c)
    for _ in range(k - 1):
        discard_add(s, q, pop_deck(s, q), 1)
    push_deck(s, q, c, True)


@kernel
def eff_scout_1e(s, fr, a):
    """1E: every player, from you clockwise, reveals the top card of their deck; for each you decide
    whether it stays (face up: it has been revealed) or is discarded. An opponent who revealed a
    Rampart reveals none."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        s[fr + FR_STEP] = 1
        if ensure_deck(s, p, 1) > 0:
            s[fr + FR_STEP] = 2
            ask(s, p, CH_DECK_TOP, 0, 0, 0, ANY_COST, True)
            return WAIT
    elif s[fr + FR_STEP] == 2:
        q = victim(s, fr)
        if a == A_PASS:
            k = deck(s, q) + s[pb(s, q) + P_DECK_N] - 1
            s[k] |= FACE_UP
        else:
            discard_add(s, q, pop_deck(s, q), 1)
    q = next_victim(s, fr)
    while q >= 0:
        if shield(s, q, s[fr + FR_A]) == 0 and ensure_deck(s, q, 1) > 0:
            s[fr + FR_STEP] = 2
            ask(s, p, CH_DECK_TOP, 0, 0, 0, ANY_COST, True)
            about(s, q)
            good_for_chooser(s)             # an opponent's card: discarding it is the chooser's gain
            return WAIT
        q = next_victim(s, fr)
    return DONE


@kernel
def eff_conscription_writ(s, fr, a):
    """Pay X coins: choose X non-Territory cards in your discard pile and put them face up on top of
    your deck in any order. One at a time: each chosen card costs 1 coin and goes on top (the last
    one chosen lies uppermost); passing stops."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 1:
        if a == A_PASS:
            return DONE
        c = a - A_CHOOSE
        s[H_COINS] -= 1
        discard_add(s, p, c, -1)
        push_deck(s, p, c, True)
    if s[H_COINS] < 1 or not discard_has(s, p, 0, TY_TERRITORY, 0, ANY_COST):
        return DONE
    s[fr + FR_STEP] = 1
    ask(s, p, CH_DISCARD, 0, TY_TERRITORY, 0, ANY_COST, True)
    return WAIT


@kernel
def eff_slash_and_burn(s, fr, a):
    """Gain a Curse: this turn each of your Farming Villages yields 2 coins, those played before this
    card too (ref §4 #41). Optional; it does not stack; nothing with the Curse pile empty (S002)."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        if s[market(s) + rule(s, R_CURSE)] == 0 or s[H_TURN_FLAGS] & TF_VILLAGES_YIELD_2:
            return DONE
        s[fr + FR_STEP] = 1
        ask_mode(s, p, 1, True)
        if hand_has_flag(s, p, FL_NAMED_FARMING_VILLAGE) or villages_in_play(s) > 0:
            good_for_chooser(s)
        return WAIT
    if a == A_PASS:
        return DONE
    give_curse(s, p, False)
    s[H_TURN_FLAGS] |= TF_VILLAGES_YIELD_2
    gain_coins(s, p, villages_in_play(s))
    return DONE


@kernel
def villages_in_play(s):
    """Farming Villages (cards named so) in the play area."""
    return in_play(s, 0, FL_NAMED_FARMING_VILLAGE)


@kernel
def eff_buried_treasure_1e(s, fr, a):
    """1E: reveal the bottom card of the supply; you may gain it; if you don't, it leaves the game
    (abroad). Nothing happens with an empty supply."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        if s[H_SUPPLY_N] == 0:
            return DONE
        s[fr + FR_STEP] = 1
        ask_mode(s, p, 1, True)
        good_for_chooser(s)
        return WAIT
    c = take_supply_bottom(s)
    if a == A_PASS:
        s[abroad(s) + c] += 1
        count(s, c, ST_EXILED)
    else:
        count(s, c, ST_GAINED)
        discard_add(s, p, c, 1)
        own(s, p, c, 1)
    return DONE


@kernel
def shield(s, q, attack):
    """Ramparts q revealed against the Attack card `attack` now resolving, if it is a Military card
    (1E Defense: each Rampart reduces its discards and reveals by 1); 0 otherwise."""
    if card(s, attack, F_SUB) & SUB_MILITARY:
        return s[H_SHIELD + q]
    return 0


# ---- 1st-edition Defense cards (the window before an Attack: defense.py) -----------------------
@kernel
def eff_rampart_1e(s, fr, a):
    """Defense: the numbers of cards an opponent's Military card makes you discard and reveal are
    each reduced by 1 (per Rampart revealed; the Attack routines read `shield`). Played, only its coin."""
    if s[fr + FR_TRIG] == TRIG_DEFENSE:
        s[H_SHIELD + s[fr + FR_P]] += 1
    return DONE


@kernel
def face_up_on_top(s, p):
    """How many cards lie face up on top of p's deck, one after the other from the top."""
    k = deck(s, p)
    n = s[pb(s, p) + P_DECK_N]
    m = 0
    while m < n and s[k + n - 1 - m] & FACE_UP:
        m += 1
    return m


@kernel
def eff_hideout_1e(s, fr, a):
    """Played: you may put all the face-up cards on top of your deck into your hand (all or none).
    Defense: put any number of Succession or Action cards from your hand face up on top of your deck,
    one at a time (passing stops). The default answer moves cards while the hand holds 5 or more,
    which no hand Attack can then reach."""
    p = s[fr + FR_P]
    if s[fr + FR_TRIG] == TRIG_PLAY:
        if s[fr + FR_STEP] == 0:
            if face_up_on_top(s, p) == 0:
                return DONE
            s[fr + FR_STEP] = 1
            ask_mode(s, p, 1, True)
            good_for_chooser(s)
            return WAIT
        if a != A_PASS:
            for _ in range(face_up_on_top(s, p)):
                hand_add(s, p, pop_deck(s, p), 1)
        return DONE
    if s[fr + FR_TRIG] != TRIG_DEFENSE:
        return DONE
    if s[fr + FR_STEP] == 1:
        if a == A_PASS:
            return DONE
        c = a - A_CHOOSE
        hand_add(s, p, c, -1)
        push_deck(s, p, c, True)
    if not hand_has_type(s, p, TY_ACTION | TY_SUCCESSION):
        return DONE
    s[fr + FR_STEP] = 1
    ask(s, p, CH_HAND, TY_ACTION | TY_SUCCESSION, 0, 0, ANY_COST, True)
    if s[pb(s, p) + P_HAND_N] >= 5:
        good_for_chooser(s)
    return WAIT


@kernel
def eff_magic_talisman_1e(s, fr, a):
    """Played: discard X cards from your hand for X coins (one at a time; passing stops). Defense:
    put this card face up on top of your deck (its Curse type then stops the witches that look for
    a face-up Curse or stop at a Curse)."""
    p = s[fr + FR_P]
    if s[fr + FR_TRIG] == TRIG_DEFENSE:
        c = s[fr + FR_A]
        if s[hand(s, p) + c] > 0:
            hand_add(s, p, c, -1)
            push_deck(s, p, c, True)
        return DONE
    if s[fr + FR_STEP] == 1:
        if a == A_PASS:
            return DONE
        c = a - A_CHOOSE
        hand_add(s, p, c, -1)
        discard_add(s, p, c, 1)
        gain_coins(s, p, 1)
    if s[pb(s, p) + P_HAND_N] == 0:
        return DONE
    s[fr + FR_STEP] = 1
    ask(s, p, CH_HAND, 0, 0, 0, ANY_COST, True)
    return WAIT


# ---- 1st-edition Battering Ram, Gossip-Loving Duchess, the witches ------------------------------
@kernel
def eff_battering_ram_1e(s, fr, a):
    """1E (not an Attack): draw 1; you may choose one card kept in each opponent's domain and put it
    into that player's discard pile (opponent by opponent, clockwise; players out of overtime are
    left alone)."""
    p = s[fr + FR_P]
    n = s[H_NP]
    if s[fr + FR_STEP] == 0:
        draw(s, p, 1)
    elif a != A_PASS:
        kept_to_discard(s, after(s, p, s[fr + FR_B]), a - A_CHOOSE)
    while s[fr + FR_B] < n - 1:
        s[fr + FR_B] += 1
        q = after(s, p, s[fr + FR_B])
        if s[pb(s, q) + P_OUT] == 0 and s[pb(s, q) + P_KEPT_N] > 0:
            s[fr + FR_STEP] = 1
            ask(s, p, CH_KEPT, 0, 0, 0, ANY_COST, True)
            about(s, q)
            good_for_chooser(s)
            return WAIT
    return DONE


@kernel
def eff_gossip_duchess_1e(s, fr, a):
    """1E, when set: you may choose one Court Maid, Senator or Duke in an opponent's domain and put
    it into its owner's discard pile. One card in all: the opponents are offered in turn, clockwise;
    passing goes to the next one."""
    if s[fr + FR_TRIG] != TRIG_SET:
        return DONE
    p = s[fr + FR_P]
    n = s[H_NP]
    if s[fr + FR_STEP] == 1 and a != A_PASS:
        domain_to_discard(s, after(s, p, s[fr + FR_B]), a - A_CHOOSE)
        return DONE
    while s[fr + FR_B] < n - 1:
        s[fr + FR_B] += 1
        q = after(s, p, s[fr + FR_B])
        if s[pb(s, q) + P_OUT] == 0 and domain_has_flag(s, q, FL_COURT_TITLE):
            s[fr + FR_STEP] = 1
            ask(s, p, CH_DOMAIN, 0, 0, 0, ANY_COST, True)
            narrow(s, FL_COURT_TITLE, -1, -1, 1)
            about(s, q)
            good_for_chooser(s)
            return WAIT
    return DONE


@kernel
def domain_has_flag(s, q, flags):
    d = domain(s, q)
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        if s[d + c] > 0 and card(s, c, F_FLAGS) & flags == flags:
            return True
    return False


@kernel
def charm_marked(s, fr, c):
    """Card c is among those this Charm Witch made opponents discard (ids 0-29 in FR_C, 30-59 in FR_D)."""
    return (s[fr + FR_C + c // 30] >> (c % 30)) & 1 == 1


@kernel
def charm_mark(s, fr, c, on):
    bit = 1 << (c % 30)
    if on:
        s[fr + FR_C + c // 30] |= bit
    else:
        s[fr + FR_C + c // 30] &= ~bit


@kernel
def charm_reveal(s, fr, q):
    """q reveals cards from the top of the deck until a Curse or 2 cards show; the revealed cards
    other than Curses and Territories are discarded (and marked); the others stay on top, face up."""
    if ensure_deck(s, q, 1) == 0:
        return
    k = deck(s, q)
    n = s[pb(s, q) + P_DECK_N]
    t0 = s[k + n - 1] & (FACE_UP - 1)
    t1 = -1
    if card(s, t0, F_TYPES) & TY_CALAMITY == 0 and ensure_deck(s, q, 2) >= 2:
        k = deck(s, q)
        n = s[pb(s, q) + P_DECK_N]
        t1 = s[k + n - 2] & (FACE_UP - 1)
    pop_deck(s, q)
    if t1 >= 0:
        pop_deck(s, q)
        if card(s, t1, F_TYPES) & (TY_CALAMITY | TY_TERRITORY):
            push_deck(s, q, t1, True)
        else:
            discard_add(s, q, t1, 1)
            charm_mark(s, fr, t1, True)
    if card(s, t0, F_TYPES) & (TY_CALAMITY | TY_TERRITORY):
        push_deck(s, q, t0, True)
    else:
        discard_add(s, q, t0, 1)
        charm_mark(s, fr, t0, True)


@kernel
def eff_charm_witch_1e(s, fr, a):
    """1E: draw 1. Every opponent reveals cards from the top of the deck until a Curse card or 2
    cards show, and discards the revealed cards other than Curses and Territories. You may then gain
    from the market a card of the same name as one of the cards discarded this way: offered one
    name at a time, the most expensive first; passing offers the next."""
    p = s[fr + FR_P]
    step = s[fr + FR_STEP]
    if step == 0:
        draw(s, p, 1)
        q = next_victim(s, fr)
        while q >= 0:
            charm_reveal(s, fr, q)
            q = next_victim(s, fr)
    elif a != A_PASS:
        gain(s, p, a - A_CHOOSE)
        return DONE
    else:
        charm_mark(s, fr, step - 1, False)
    best = -1
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        if c < 60 and charm_marked(s, fr, c):
            if not in_market(s, c):
                charm_mark(s, fr, c, False)
            elif best < 0 or card(s, c, F_COST) > card(s, best, F_COST):
                best = c
    if best < 0:
        return DONE
    s[fr + FR_STEP] = best + 1
    ask(s, p, CH_MARKET, 0, 0, 0, ANY_COST, True)
    narrow(s, 0, best, -1, 1)
    good_for_chooser(s)
    return WAIT


@kernel
def face_up_curse_in_deck(s, q):
    k = deck(s, q)
    for i in range(s[pb(s, q) + P_DECK_N]):
        x = s[k + i]
        if x & FACE_UP and card(s, x & (FACE_UP - 1), F_TYPES) & TY_CALAMITY:
            return True
    return False


@kernel
def eff_curse_witch_1e(s, fr, a):
    """1E: exile a card costing 2 or more from your hand; if you did, every opponent with no face-up
    Curse anywhere in their deck takes a Curse face up to the bottom of their deck (clockwise, until
    the pile runs out). From hand (the A_HAND_ABILITY action, no open play needed): exile this Curse
    Witch: every opponent gains a Curse."""
    p = s[fr + FR_P]
    if s[fr + FR_TRIG] == TRIG_ABILITY:
        exile_from_hand(s, p, s[fr + FR_A])
        curse_opponents(s, fr, False)
        return DONE
    if s[fr + FR_STEP] == 0:
        if not hand_has_card(s, p, 0, 2):
            return DONE
        s[fr + FR_STEP] = 1
        ask(s, p, CH_HAND, 0, 0, 2, ANY_COST, False)
        return WAIT
    exile_from_hand(s, p, a - A_CHOOSE)
    curse = rule(s, R_CURSE)
    q = next_victim(s, fr)
    while q >= 0 and s[market(s) + curse] > 0:
        if not face_up_curse_in_deck(s, q):
            s[market(s) + curse] -= 1
            count(s, curse, ST_GAINED)
            own(s, q, curse, 1)
            push_deck_bottom(s, q, curse, True)
        q = next_victim(s, fr)
    return DONE


# ---- 1st-edition-only Moneylender and Shinobi ---------------------------------------------------
@kernel
def eff_moneylender(s, fr, a):
    """(+3 coins: its coins.) At the end of the turn, 4 debt counters go into your Moneylender area
    (4 per Moneylender played); while any remain, coins you would gain remove that many counters
    instead (`gain_coins`)."""
    s[H_DEBT_NEW] += 4
    return DONE


@kernel
def eff_shinobi(s, fr, a):
    """Choose an Action card other than Shinobi in your discard pile: you get its effect (its coins
    and the text it acts with when played, resolving as that card, with its types, so an Attack
    opens the Defense window); not its links. The chosen card stays in the discard pile."""
    p = s[fr + FR_P]
    me = s[fr + FR_A]
    step = s[fr + FR_STEP]
    if step == 0:
        d = discard(s, p)
        for i in range(s[H_NACTIVE]):
            c = active(s, i)
            if s[d + c] > 0 and c != me and card(s, c, F_TYPES) & TY_ACTION and card(s, c, F_EFFECT) != EFF_SHINOBI:
                s[fr + FR_STEP] = 1
                ask(s, p, CH_DISCARD, TY_ACTION, 0, 0, ANY_COST, False)
                narrow(s, 0, -1, me, 1)
                good_for_chooser(s)
                return WAIT
        return DONE
    if step == 1:
        c = a - A_CHOOSE
        s[fr + FR_STEP] = 2
        gain_coins(s, p, card(s, c, F_COINS))
        depth = s[H_DEPTH]
        if card(s, c, F_TRIGGERS) & (1 << TRIG_PLAY):
            push(s, card(s, c, F_EFFECT), TRIG_PLAY, p, c)
        attack_played(s, p, c)
        if s[H_DEPTH] > depth:
            return CALL
    return DONE


@kernel
def eff_bribery(s, fr, a):
    """(An Attack: opponents may defend first.) This turn Action cards of opponents' discard piles,
    face-up deck tops and kept cards can be bought too, for their cost + 1 (buying.py)."""
    s[H_TURN_FLAGS] |= TF_BUY_FROM_OPPONENTS
    return DONE
