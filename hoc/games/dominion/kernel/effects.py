"""The cards' routines: one per card text beyond the plain bonuses (+Cards, +Actions, +Buys, +coins,
which are card data). `run` resolves one step of the frame on top of the stack: it returns GO (keep
resolving), ASK (a question is pending) or DONE (the frame is finished). Attacks share the steps that
visit each other player in turn order and let a victim reveal a Reaction (Moat) first.
"""
from hoc.engine.jit import kernel
from hoc.games.dominion.kernel.constants import (
    AT_HIT, AT_MOAT, AT_NEXT, A_CHOOSE, A_MODE, A_PASS, A_YES, DONE, EFF_ARTISAN, EFF_BANDIT, EFF_BUREAUCRAT,
    EFF_CELLAR, EFF_CHAPEL, EFF_COUNCIL_ROOM, EFF_HARBINGER, EFF_LIBRARY, EFF_MERCHANT, EFF_MILITIA, EFF_MINE,
    EFF_MONEYLENDER, EFF_POACHER, EFF_REMODEL, EFF_SENTRY, EFF_THRONE_ROOM, EFF_VASSAL, EFF_WITCH, EFF_WORKSHOP,
    FATE_DISCARD, FATE_GAIN, FATE_PLAY, FATE_REVEAL, FATE_SIFT, FATE_SKIP, FATE_TOPDECK, FATE_TRASH,
    FATE_UPGRADE, FR_CARD, FR_I, FR_N, FR_STEP, FR_X, FR_Y, F_ACTIONS, F_BUYS, F_CARDS, F_COINS, F_COST, F_EFFECT, F_REACTION,
    GO, H_ACTIONS, H_ANSWER, H_ASIDE_N, H_ASIDE_SEAT, H_BUYS, H_COINS, H_CUR, H_IN_SUPPLY, H_MERCHANTS, H_NC,
    H_NP, H_Q_OTHER, H_SILVERS, M_DISCARD, M_FIRST, M_KEEP, M_SECOND, M_TRASH, P_DISCARD_N, P_HAND_N, Q_DISCARD, Q_HAND,
    Q_MODE, Q_SUPPLY, Q_YES_NO, REACT_ATTACK, R_COPPER, R_CURSE, R_GOLD, R_SILVER, ST_ATTACKS, ST_PLAYED, ST_TEXT,
    TY_ACTION, TY_TREASURE, TY_VICTORY,
)
from hoc.games.dominion.kernel.stack import ask, discard_has, hand_has, push, supply_has
from hoc.games.dominion.kernel.state import aside, card, count, discard, hand, is_type, mask_has, pb, play, rule, supply
from hoc.games.dominion.kernel.zones import (
    WHERE_DECK, WHERE_DISCARD, WHERE_HAND, discard_from_hand, draw, draw_one, from_hand, gain, pop_top,
    put_on_deck, reveal, to_discard, to_hand, trash_from_hand, trash_owned,
)


# ---- shared pieces ---------------------------------------------------------------------------
@kernel
def chosen(s):
    """The card the last answer chose (A_CHOOSE + card), or -1 for A_PASS."""
    a = s[H_ANSWER]
    return a - A_CHOOSE if a >= A_CHOOSE else -1


@kernel
def to_aside(s, p, c):
    s[aside(s) + c] += 1
    s[H_ASIDE_N] += 1
    s[H_ASIDE_SEAT] = p


@kernel
def from_aside(s, c):
    s[aside(s) + c] -= 1
    s[H_ASIDE_N] -= 1


@kernel
def discard_aside(s):
    """The cards set aside go to their owner's discard pile."""
    p = s[H_ASIDE_SEAT]
    a = aside(s)
    for c in range(s[H_NC]):
        while s[a + c] > 0:
            from_aside(s, c)
            to_discard(s, p, c)


@kernel
def victim(s, f):
    return (s[H_CUR] + s[f + FR_I]) % s[H_NP]


@kernel
def reaction_in_hand(s, p):
    """A card in p's hand that may be revealed against an Attack, or -1."""
    h = hand(s, p)
    for c in range(s[H_NC]):
        if s[h + c] > 0 and card(s, c, F_REACTION) == REACT_ATTACK:
            return c
    return -1


@kernel
def next_victim(s, f):
    """The attack steps every Attack shares: on to the next other player in turn order, who may
    first reveal a Reaction (Moat) to be unaffected. Leaves the frame at AT_HIT for the victim
    s[f + FR_I] players after the turn player (GO), asks the Reaction question (ASK), or DONE when
    every other player has been visited."""
    if s[f + FR_STEP] == AT_MOAT:
        if s[H_ANSWER] == A_YES:
            s[f + FR_STEP] = AT_NEXT
            return GO
        s[f + FR_STEP] = AT_HIT
        count(s, s[f + FR_CARD], ST_ATTACKS)
        return GO
    s[f + FR_I] += 1
    if s[f + FR_I] >= s[H_NP]:
        return DONE
    v = victim(s, f)
    r = reaction_in_hand(s, v)
    if r >= 0:
        return ask(s, f, AT_MOAT, v, Q_YES_NO, FATE_REVEAL, 0, 0, True, 0, r)
    s[f + FR_STEP] = AT_HIT
    count(s, s[f + FR_CARD], ST_ATTACKS)
    return GO


@kernel
def start_attack(s, f):
    s[f + FR_I] = 0
    s[f + FR_STEP] = AT_NEXT
    return GO


@kernel
def bonus(s, f):
    """Step 0 of every play: count it, then the card's plain bonuses; its text next, if it has one."""
    c = s[f + FR_CARD]
    count(s, c, ST_PLAYED)
    if card(s, c, F_CARDS):
        draw(s, s[H_CUR], card(s, c, F_CARDS))
    s[H_ACTIONS] += card(s, c, F_ACTIONS)
    s[H_BUYS] += card(s, c, F_BUYS)
    s[H_COINS] += card(s, c, F_COINS)
    if card(s, c, F_EFFECT) == 0:
        return DONE
    s[f + FR_STEP] = ST_TEXT
    return GO


@kernel
def empty_piles(s):
    n = 0
    sup = supply(s)
    for c in range(s[H_NC]):
        if mask_has(s, H_IN_SUPPLY, c) and s[sup + c] == 0:
            n += 1
    return n


@kernel
def played_treasure(s, c):
    """What playing a Treasure sets off: the coin of every Merchant played with the first Silver."""
    if c == rule(s, R_SILVER):
        if s[H_SILVERS] == 0:
            s[H_COINS] += s[H_MERCHANTS]
        s[H_SILVERS] += 1


# ---- the routines (step ST_TEXT = 1 first; see each card's text in the card data) ---------------
@kernel
def cellar(s, f):
    p = s[H_CUR]
    if s[f + FR_STEP] == 2:
        c = chosen(s)
        if c < 0:
            draw(s, p, s[f + FR_N])
            return DONE
        discard_from_hand(s, p, c)
        s[f + FR_N] += 1
    if not hand_has(s, p, 0):
        draw(s, p, s[f + FR_N])
        return DONE
    return ask(s, f, 2, p, Q_HAND, FATE_DISCARD, 0, 0, True, 0, -1)


@kernel
def chapel(s, f):
    p = s[H_CUR]
    if s[f + FR_STEP] == 2:
        c = chosen(s)
        if c < 0:
            return DONE
        trash_from_hand(s, p, c)
        s[f + FR_N] += 1
    if s[f + FR_N] >= 4 or not hand_has(s, p, 0):
        return DONE
    return ask(s, f, 2, p, Q_HAND, FATE_TRASH, 0, 0, True, 0, -1)


@kernel
def harbinger(s, f):
    p = s[H_CUR]
    if s[f + FR_STEP] == ST_TEXT:
        if not discard_has(s, p):
            return DONE
        return ask(s, f, 2, p, Q_DISCARD, FATE_TOPDECK, 0, 0, True, 0, -1)
    c = chosen(s)
    if c >= 0:
        s[discard(s, p) + c] -= 1
        s[pb(s, p) + P_DISCARD_N] -= 1
        put_on_deck(s, p, c)
    return DONE


@kernel
def vassal(s, f):
    p = s[H_CUR]
    if s[f + FR_STEP] == ST_TEXT:
        if reveal(s, p, 1) == 0:
            return DONE
        c = pop_top(s, p)
        to_discard(s, p, c)
        if not is_type(s, c, TY_ACTION):
            return DONE
        s[f + FR_X] = c
        return ask(s, f, 2, p, Q_YES_NO, FATE_PLAY, 0, 0, True, 0, c)
    c = s[f + FR_X]
    if s[H_ANSWER] == A_YES:
        s[discard(s, p) + c] -= 1           # played from the discard pile, without using an Action
        s[pb(s, p) + P_DISCARD_N] -= 1
        s[play(s) + c] += 1
        s[f + FR_CARD] = c                  # this frame becomes that card's play
        s[f + FR_STEP] = 0
        return GO
    return DONE


@kernel
def workshop(s, f):
    return gain_up_to(s, f, 4, 0, WHERE_DISCARD)


@kernel
def gain_up_to(s, f, cap, types, where):
    """Gain a card costing up to cap (one of types) from the supply: ask, then gain (at step 2)."""
    p = s[H_CUR]
    if s[f + FR_STEP] == ST_TEXT:
        if not supply_has(s, cap, types):
            return DONE
        return ask(s, f, 2, p, Q_SUPPLY, FATE_GAIN, types, cap, False, 0, -1)
    gain(s, p, chosen(s), where)
    return DONE


@kernel
def bureaucrat(s, f):
    st = s[f + FR_STEP]
    if st == ST_TEXT:
        gain(s, s[H_CUR], rule(s, R_SILVER), WHERE_DECK)
        return start_attack(s, f)
    if st == AT_NEXT or st == AT_MOAT:
        return next_victim(s, f)
    v = victim(s, f)
    if st == AT_HIT:
        kinds = 0
        only = -1
        h = hand(s, v)
        for c in range(s[H_NC]):
            if s[h + c] > 0 and is_type(s, c, TY_VICTORY):
                kinds += 1
                only = c
        s[f + FR_STEP] = AT_NEXT
        if kinds == 0:                      # reveals a hand without Victory cards
            return GO
        if kinds > 1:
            return ask(s, f, AT_HIT + 1, v, Q_HAND, FATE_TOPDECK, TY_VICTORY, 0, False, 0, -1)
        from_hand(s, v, only)
        put_on_deck(s, v, only)
        return GO
    c = chosen(s)
    from_hand(s, v, c)
    put_on_deck(s, v, c)
    s[f + FR_STEP] = AT_NEXT
    return GO


@kernel
def militia(s, f):
    st = s[f + FR_STEP]
    if st == ST_TEXT:
        return start_attack(s, f)
    if st == AT_NEXT or st == AT_MOAT:
        return next_victim(s, f)
    v = victim(s, f)
    if st == AT_HIT + 1:
        discard_from_hand(s, v, chosen(s))
    if s[pb(s, v) + P_HAND_N] > 3:
        return ask(s, f, AT_HIT + 1, v, Q_HAND, FATE_DISCARD, 0, 0, False, 0, -1)
    s[f + FR_STEP] = AT_NEXT
    return GO


@kernel
def moneylender(s, f):
    p = s[H_CUR]
    copper = rule(s, R_COPPER)
    if s[f + FR_STEP] == ST_TEXT:
        if s[hand(s, p) + copper] == 0:
            return DONE
        return ask(s, f, 2, p, Q_YES_NO, FATE_TRASH, 0, 0, True, 0, copper)
    if s[H_ANSWER] == A_YES:
        trash_from_hand(s, p, copper)
        s[H_COINS] += 3
    return DONE


@kernel
def poacher(s, f):
    p = s[H_CUR]
    st = s[f + FR_STEP]
    if st == ST_TEXT:
        s[f + FR_N] = empty_piles(s)
    elif st == 2:
        discard_from_hand(s, p, chosen(s))
    if s[f + FR_N] == 0 or not hand_has(s, p, 0):
        return DONE
    s[f + FR_N] -= 1
    return ask(s, f, 2, p, Q_HAND, FATE_DISCARD, 0, 0, False, 0, -1)


@kernel
def remodel(s, f):
    p = s[H_CUR]
    st = s[f + FR_STEP]
    if st == ST_TEXT:
        if not hand_has(s, p, 0):
            return DONE
        return ask(s, f, 2, p, Q_HAND, FATE_UPGRADE, 0, 2, False, 0, -1)
    if st == 2:
        c = chosen(s)
        trash_from_hand(s, p, c)
        cap = card(s, c, F_COST) + 2
        if not supply_has(s, cap, 0):
            return DONE
        return ask(s, f, 3, p, Q_SUPPLY, FATE_GAIN, 0, cap, False, 0, -1)
    gain(s, p, chosen(s), WHERE_DISCARD)
    return DONE


@kernel
def throne_room(s, f):
    p = s[H_CUR]
    st = s[f + FR_STEP]
    if st == ST_TEXT:
        if not hand_has(s, p, TY_ACTION):
            return DONE
        return ask(s, f, 2, p, Q_HAND, FATE_PLAY, TY_ACTION, 0, True, 0, -1)
    if st == 2:
        c = chosen(s)
        if c < 0:
            return DONE
        from_hand(s, p, c)
        s[play(s) + c] += 1
        s[f + FR_X] = c
        s[f + FR_STEP] = 3
        push(s, c)
        return GO
    if st == 3:
        s[f + FR_STEP] = 4
        push(s, s[f + FR_X])
        return GO
    return DONE


@kernel
def bandit(s, f):
    st = s[f + FR_STEP]
    if st == ST_TEXT:
        gain(s, s[H_CUR], rule(s, R_GOLD), WHERE_DISCARD)
        return start_attack(s, f)
    if st == AT_NEXT or st == AT_MOAT:
        return next_victim(s, f)
    v = victim(s, f)
    if st == AT_HIT:
        n = reveal(s, v, 2)
        s[f + FR_X] = -1
        s[f + FR_Y] = -1
        if n >= 1:
            s[f + FR_X] = pop_top(s, v)
            to_aside(s, v, s[f + FR_X])
        if n >= 2:
            s[f + FR_Y] = pop_top(s, v)
            to_aside(s, v, s[f + FR_Y])
        x = s[f + FR_X]
        y = s[f + FR_Y]
        gx = x >= 0 and is_type(s, x, TY_TREASURE) and x != rule(s, R_COPPER)
        gy = y >= 0 and is_type(s, y, TY_TREASURE) and y != rule(s, R_COPPER)
        if gx and gy and x != y:
            r = ask(s, f, AT_HIT + 1, v, Q_MODE, FATE_TRASH, 0, 0, False, (1 << M_FIRST) | (1 << M_SECOND), x)
            s[H_Q_OTHER] = y
            return r
        if gx:
            from_aside(s, x)
            trash_owned(s, v, x)
        elif gy:
            from_aside(s, y)
            trash_owned(s, v, y)
    else:
        t = s[f + FR_X] if s[H_ANSWER] == A_MODE + M_FIRST else s[f + FR_Y]
        from_aside(s, t)
        trash_owned(s, v, t)
    discard_aside(s)
    s[f + FR_STEP] = AT_NEXT
    return GO


@kernel
def council_room(s, f):
    for i in range(1, s[H_NP]):
        draw(s, (s[H_CUR] + i) % s[H_NP], 1)
    return DONE


@kernel
def library(s, f):
    p = s[H_CUR]
    if s[f + FR_STEP] == 3:
        if s[H_ANSWER] != A_YES:            # kept: into the hand after all
            from_aside(s, s[f + FR_X])
            to_hand(s, p, s[f + FR_X])
    while s[pb(s, p) + P_HAND_N] < 7:
        c = draw_one(s, p)
        if c < 0:
            break
        if is_type(s, c, TY_ACTION):
            to_aside(s, p, c)
            s[f + FR_X] = c
            return ask(s, f, 3, p, Q_YES_NO, FATE_SKIP, 0, 0, True, 0, c)
        to_hand(s, p, c)
    discard_aside(s)
    return DONE


@kernel
def mine(s, f):
    p = s[H_CUR]
    st = s[f + FR_STEP]
    if st == ST_TEXT:
        if not hand_has(s, p, TY_TREASURE):
            return DONE
        return ask(s, f, 2, p, Q_HAND, FATE_UPGRADE, TY_TREASURE, 3, True, 0, -1)
    if st == 2:
        c = chosen(s)
        if c < 0:
            return DONE
        trash_from_hand(s, p, c)
        cap = card(s, c, F_COST) + 3
        if not supply_has(s, cap, TY_TREASURE):
            return DONE
        return ask(s, f, 3, p, Q_SUPPLY, FATE_GAIN, TY_TREASURE, cap, False, 0, -1)
    gain(s, p, chosen(s), WHERE_HAND)
    return DONE


SENTRY_MODES = (1 << M_TRASH) | (1 << M_DISCARD) | (1 << M_KEEP)


@kernel
def sentry_fate(s, f, c):
    """Trash, discard or keep (set aside until put back) the revealed c, as answered."""
    a = s[H_ANSWER] - A_MODE
    if a == M_TRASH:
        from_aside(s, c)
        trash_owned(s, s[H_CUR], c)
        return False
    if a == M_DISCARD:
        from_aside(s, c)
        to_discard(s, s[H_CUR], c)
        return False
    return True


@kernel
def sentry(s, f):
    p = s[H_CUR]
    st = s[f + FR_STEP]
    if st == ST_TEXT:
        n = reveal(s, p, 2)
        if n == 0:
            return DONE
        s[f + FR_X] = pop_top(s, p)
        to_aside(s, p, s[f + FR_X])
        if n == 2:
            s[f + FR_Y] = pop_top(s, p)
            to_aside(s, p, s[f + FR_Y])
        return ask(s, f, 2, p, Q_MODE, FATE_SIFT, 0, 0, False, SENTRY_MODES, s[f + FR_X])
    if st == 2:
        s[f + FR_N] = 1 if sentry_fate(s, f, s[f + FR_X]) else 0
        if s[f + FR_Y] >= 0:
            return ask(s, f, 3, p, Q_MODE, FATE_SIFT, 0, 0, False, SENTRY_MODES, s[f + FR_Y])
        st = 4
    if st == 3:
        if sentry_fate(s, f, s[f + FR_Y]):
            s[f + FR_N] |= 2
        st = 4
    x = s[f + FR_X]
    y = s[f + FR_Y]
    if st == 4:
        if s[f + FR_N] == 3 and x != y:
            r = ask(s, f, 5, p, Q_MODE, FATE_TOPDECK, 0, 0, False, (1 << M_FIRST) | (1 << M_SECOND), x)
            s[H_Q_OTHER] = y
            return r
        for c, keep in ((x, s[f + FR_N] & 1), (y, s[f + FR_N] & 2)):
            if keep:
                from_aside(s, c)
                put_on_deck(s, p, c)
        return DONE
    top = x if s[H_ANSWER] == A_MODE + M_FIRST else y    # step 5: which of the two goes on top
    under = y if top == x else x
    from_aside(s, under)
    put_on_deck(s, p, under)
    from_aside(s, top)
    put_on_deck(s, p, top)
    return DONE


@kernel
def witch(s, f):
    st = s[f + FR_STEP]
    if st == ST_TEXT:
        return start_attack(s, f)
    if st == AT_NEXT or st == AT_MOAT:
        return next_victim(s, f)
    gain(s, victim(s, f), rule(s, R_CURSE), WHERE_DISCARD)
    s[f + FR_STEP] = AT_NEXT
    return GO


@kernel
def artisan(s, f):
    p = s[H_CUR]
    st = s[f + FR_STEP]
    if st == ST_TEXT:
        if supply_has(s, 5, 0):
            return ask(s, f, 2, p, Q_SUPPLY, FATE_GAIN, 0, 5, False, 0, -1)
        s[H_ANSWER] = A_PASS
        st = 2
    if st == 2:
        c = chosen(s)
        if c >= 0:
            gain(s, p, c, WHERE_HAND)
        if not hand_has(s, p, 0):
            return DONE
        return ask(s, f, 3, p, Q_HAND, FATE_TOPDECK, 0, 0, False, 0, -1)
    c = chosen(s)
    from_hand(s, p, c)
    put_on_deck(s, p, c)
    return DONE


@kernel
def run(s, f):
    """Resolve one step of the frame at f."""
    if s[f + FR_STEP] == 0:
        return bonus(s, f)
    e = card(s, s[f + FR_CARD], F_EFFECT)
    if e == EFF_CELLAR:
        return cellar(s, f)
    if e == EFF_CHAPEL:
        return chapel(s, f)
    if e == EFF_HARBINGER:
        return harbinger(s, f)
    if e == EFF_MERCHANT:
        s[H_MERCHANTS] += 1
        return DONE
    if e == EFF_VASSAL:
        return vassal(s, f)
    if e == EFF_WORKSHOP:
        return workshop(s, f)
    if e == EFF_BUREAUCRAT:
        return bureaucrat(s, f)
    if e == EFF_MILITIA:
        return militia(s, f)
    if e == EFF_MONEYLENDER:
        return moneylender(s, f)
    if e == EFF_POACHER:
        return poacher(s, f)
    if e == EFF_REMODEL:
        return remodel(s, f)
    if e == EFF_THRONE_ROOM:
        return throne_room(s, f)
    if e == EFF_BANDIT:
        return bandit(s, f)
    if e == EFF_COUNCIL_ROOM:
        return council_room(s, f)
    if e == EFF_LIBRARY:
        return library(s, f)
    if e == EFF_MINE:
        return mine(s, f)
    if e == EFF_SENTRY:
        return sentry(s, f)
    if e == EFF_WITCH:
        return witch(s, f)
    if e == EFF_ARTISAN:
        return artisan(s, f)
    return DONE
