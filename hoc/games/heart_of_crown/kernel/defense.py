"""1st-edition Defense: when a player plays an Attack, each opponent in turn (clockwise from the
attacker's left, skipping players out of overtime) may reveal Defense cards from hand or kept in their
domain before the Attack resolves. Each revealed card's Defense text (its routine, trigger
TRIG_DEFENSE, with the defender as its player) resolves at once; the Attack then resolves.

The defender answers one question per Defense card: "reveal this card?" (a card question about the
hand, or the kept cards, allowing only that card; PASS declines), asked card by card in card order,
copy by copy, hand before kept cards. A card that stays where it was (Rampart, Hideout) counts as
revealed; one that leaves (Magic Talisman goes on the deck) does not block the next copy. The question
is marked good for the chooser (default answers reveal) when the card data say the reveal helps."""
from hoc.engine.jit import kernel
from hoc.games.heart_of_crown.kernel.choice import CALL, DONE, FR_A, FR_B, FR_C, FR_D, FR_P, FR_STEP, WAIT, ask, good_for_chooser, narrow, push
from hoc.games.heart_of_crown.kernel.constants import (
    A_CHOOSE, A_PASS, CH_HAND, CH_KEPT, EFF_DEFEND, F_EFFECT, F_TYPES, H_NACTIVE, H_NP, H_SHIELD, P_KEPT_N, P_OUT,
    TRIG_DEFENSE, TRIG_PLAY, TY_ATTACK, TY_DEFENSE, F_FLAGS, F_SUB, FL_DECK_ATTACK, FL_GUARDS_DECK,
    FL_GUARDS_HAND, FL_GUARDS_MILITARY, FL_HAND_ATTACK, P_HAND_N, SUB_MILITARY,
)
from hoc.games.heart_of_crown.kernel.state import active, after, card, hand, kept, pb
from hoc.games.heart_of_crown.kernel.zones import hand_has_type

ASKING = 1
CALLED = 2


@kernel
def defends(s, q):
    """q holds a Defense card in hand or kept in the domain."""
    if hand_has_type(s, q, TY_DEFENSE):
        return True
    if s[pb(s, q) + P_KEPT_N] == 0:
        return False
    k = kept(s, q)
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        if s[k + c] > 0 and card(s, c, F_TYPES) & TY_DEFENSE:
            return True
    return False


@kernel
def attack_played(s, p, c):
    """p has just played c (its routine pushed): for an Attack, clear the Ramparts counted against
    the previous one and open the Defense window above it if an opponent can defend."""
    if card(s, c, F_TYPES) & TY_ATTACK == 0:
        return
    n = s[H_NP]
    for q in range(4):
        s[H_SHIELD + q] = 0
    for j in range(1, n):
        q = after(s, p, j)
        if s[pb(s, q) + P_OUT] == 0 and defends(s, q):
            push(s, EFF_DEFEND, TRIG_PLAY, p, c)
            return


@kernel
def reveal_helps(s, q, c, attack):
    """Revealing Defense card c helps q against `attack`, by the card data: c guards what the Attack
    reaches (Military Attacks; a hand of 5 or more, which the reveal leaves smaller; the draw pile).
    This only marks the question for default answers (H_CH_GOOD); the player may always reveal."""
    g = card(s, c, F_FLAGS)
    f = card(s, attack, F_FLAGS)
    if g & FL_GUARDS_MILITARY and card(s, attack, F_SUB) & SUB_MILITARY:
        return True
    if g & FL_GUARDS_HAND and f & FL_HAND_ATTACK and s[pb(s, q) + P_HAND_N] >= 5:
        return True
    return g & FL_GUARDS_DECK != 0 and f & FL_DECK_ATTACK != 0


@kernel
def in_zone(s, q, c, zone):
    return s[(hand(s, q) if zone == 0 else kept(s, q)) + c]


@kernel
def eff_defend(s, fr, a):
    """The Defense window of Attack FR_A played by FR_P. FR_B: the defender (offset from the
    attacker); FR_C: index of the Defense card asked about in the active list | zone << 8 (0 hand,
    1 kept); FR_D: its revealed copies that stayed in the zone | the zone's count before the last
    reveal << 8."""
    p = s[fr + FR_P]
    n = s[H_NP]
    step = s[fr + FR_STEP]
    if step == 0:
        s[fr + FR_B] = 1
        s[fr + FR_C] = 0
        s[fr + FR_D] = 0
    else:
        q = after(s, p, s[fr + FR_B])
        c = active(s, s[fr + FR_C] & 255)
        zone = s[fr + FR_C] >> 8
        if step == ASKING:
            if a == A_PASS:
                s[fr + FR_C] += 1
                s[fr + FR_D] = 0
            else:
                s[fr + FR_D] = (s[fr + FR_D] & 255) | (in_zone(s, q, c, zone) << 8)
                s[fr + FR_STEP] = CALLED
                push(s, card(s, c, F_EFFECT), TRIG_DEFENSE, q, a - A_CHOOSE)
                return CALL
        else:                       # its Defense text has resolved
            stayed = s[fr + FR_D] & 255
            if in_zone(s, q, c, zone) >= s[fr + FR_D] >> 8:
                stayed += 1
            s[fr + FR_D] = stayed
    while s[fr + FR_B] < n:
        q = after(s, p, s[fr + FR_B])
        if s[pb(s, q) + P_OUT] == 0:
            while (s[fr + FR_C] >> 8) < 2:
                zone = s[fr + FR_C] >> 8
                while (s[fr + FR_C] & 255) < s[H_NACTIVE]:
                    c = active(s, s[fr + FR_C] & 255)
                    if card(s, c, F_TYPES) & TY_DEFENSE and in_zone(s, q, c, zone) > (s[fr + FR_D] & 255):
                        s[fr + FR_STEP] = ASKING
                        ask(s, q, CH_HAND if zone == 0 else CH_KEPT, TY_DEFENSE, 0, 0, 1 << 20, True)
                        narrow(s, 0, c, -1, 1)
                        if reveal_helps(s, q, c, s[fr + FR_A]):
                            good_for_chooser(s)
                        return WAIT
                    s[fr + FR_C] += 1
                    s[fr + FR_D] = 0
                s[fr + FR_C] = (zone + 1) << 8
                s[fr + FR_D] = 0
        s[fr + FR_B] += 1
        s[fr + FR_C] = 0
        s[fr + FR_D] = 0
    return DONE
