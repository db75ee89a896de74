"""The turn: phases, the decision interface (is_legal / legal_actions / apply) and the automatic
steps between decisions.

`apply` takes one legal action and then `advance`s the game through every step that needs no
choice, stopping at the next decision point (H_CTX, H_DECIDER) or at the end of the game. A
decision point whose only legal action would be PASS is mostly skipped.
"""
import numpy as np

from hoc.engine.jit import entry, kernel
from hoc.engine.loops import namespace
from hoc.games.heart_of_crown.kernel.choice import push
from hoc.games.heart_of_crown.kernel.constants import (
    A_ABILITY, A_BACK, A_BUY, A_CHOOSE, A_COIN, A_DECLARE, A_DOMAIN_ABILITY, A_KEEP, A_NUMBER,
    A_PASS, A_PLAY, A_RECALL, A_SET, CAT_PRINCESS, CH_DECK_TOP, CH_DISCARD, CH_HAND, CH_KEPT, CH_MARKET,
    CH_MODE, CH_NUMBER, CH_PLAY, CTX_DECLARE, CTX_EFFECT, CTX_KEEP, CTX_MAIN, CTX_NONE, CTX_SECOND,
    EFF_BACK, EFF_SET_AT_CLEANUP, END_TURN_CAP, FL_CANNOT_KEEP,
    F_CAT, F_COINS, F_COST, F_EFFECT, F_FLAGS, F_LINKS, F_TRIGGERS, F_TYPES, H_ACTION_BONUS, H_CH_CARD,
    H_CH_EXCEPT, H_CH_FLAGS, H_CH_OWNER, H_CH_KIND, H_CH_MAX, H_CH_MIN, H_CH_N, H_CH_NOT, H_CH_OPT, H_CH_TYPES,
    H_COINS, H_CTX, H_CUR, H_DECIDER, H_DEPTH, H_DOMAIN_USED, H_END, H_EXTRA_PENDING, H_IN_EXTRA,
    H_CLEANUP_CARDS, H_MARKET_DIRTY, H_MODE, H_PLAY_MASK, H_NACTIVE, H_NC, H_NP, H_OPEN, H_PHASE, H_PLAYED, H_STEPS, H_SUCC_RED,
    H_TURNS, H_USED, H_WITCH_N, KEEP_CLEANUP, KEEP_MAIN, MARKET_BASIC, MODE_BUYING, MODE_NONE,
    MODE_SETTING, NCMAX, NUMBER_MAX, N_ACTIONS, PH_CLEANUP, PH_DECLARE, PH_DRAW, PH_END, PH_KEEP,
    PH_MAIN, PH_SECOND, PH_START, P_COIN_CTR, P_HANDY_CTR, P_HAND_ACTION, P_HAND_PLAYABLE, P_HAND_SUCC,
    P_DOMAIN_MASK, P_HAND_MASK, P_KEPT_N, P_OUT, P_PRINCESS, P_TURNS, R_HAND_SIZE, R_KEEP_TIMING, R_MARKET_MODE, R_TURN_CAP,
    ST_KEPT, ST_PLAYED, TRIG_ABILITY, TRIG_BACK, TRIG_CLEANUP, TRIG_DOMAIN, TRIG_PLAY,
    TRIG_SET, TY_ACTION, TY_SUCCESSION, TY_TERRITORY, USED_PRINCESS,
    FL_NAMED_FARMING_VILLAGE, H_TURN_FLAGS, TF_VILLAGES_YIELD_2,
    A_HAND_ABILITY, CH_DOMAIN, FL_EXILE_FROM_HAND, R_EDITION, H_DEBT, H_DEBT_NEW, FIRST_1E, H_OFF_STACK, STACK_FRAME,
)
from hoc.games.heart_of_crown.kernel.buying import buy, buyable
from hoc.games.heart_of_crown.kernel.defense import attack_played
from hoc.games.heart_of_crown.kernel.choice import DONE, FR_EFF, WAIT
from hoc.games.heart_of_crown.kernel.effects import ability_ready, domain_ability_card, domain_ability_ready
from hoc.games.heart_of_crown.kernel.effects import dispatch as dispatch_2e
from hoc.games.heart_of_crown.kernel.effects import dispatch_1e
from hoc.games.heart_of_crown.kernel.endgame import coronation_check, declare, finish, may_declare, turn_completed
from hoc.games.heart_of_crown.kernel.market import refill
from hoc.games.heart_of_crown.kernel.state import (
    active, after, card, count, discard, domain, hand, highest, kept, lowest, market, mask_load, mask_set, pb, play,
    rule,
)
from hoc.games.heart_of_crown.kernel.zones import (
    deck_window_has, draw, free_buy_exists, gain_coins, hand_add, hand_card_with_flag,
    hand_has_flag, hand_to_discard_all, in_market,
    play_to_discard_all, set_from_hand,
)

ONE = np.uint64(1)


# ---- legality -------------------------------------------------------------------------------
@kernel
def keep_fits(s, p, c):
    """One more c can be kept: every kept Action sits on its own domain Territory whose cost is at
    least the Action's (Hall's condition on the cost thresholds)."""
    d = domain(s, p)
    k = kept(s, p)
    nk = s[pb(s, p) + P_KEPT_N]
    n = s[H_NACTIVE]
    for j in range(0 if nk > 0 else n, n + 1):     # with nothing kept, c's cost is the only threshold
        if j == n:
            thr = card(s, c, F_COST)
        elif s[k + active(s, j)] > 0:
            thr = card(s, active(s, j), F_COST)
        else:
            continue
        need = 1 if card(s, c, F_COST) >= thr else 0
        if nk > 0:
            for i in range(n):
                x = active(s, i)
                if s[k + x] > 0 and card(s, x, F_COST) >= thr:
                    need += s[k + x]
        have = 0
        m = mask_load(s, pb(s, p) + P_DOMAIN_MASK)   # covers the domain
        while m:
            x = lowest(m)
            m &= m - ONE
            if s[d + x] > 0 and card(s, x, F_TYPES) & TY_TERRITORY and card(s, x, F_COST) >= thr:
                have += s[d + x]
        if need > have:
            return False
    return True


@kernel
def can_keep(s, p, c):
    return (s[hand(s, p) + c] > 0 and card(s, c, F_TYPES) & TY_ACTION != 0
            and card(s, c, F_FLAGS) & FL_CANNOT_KEEP == 0 and s[pb(s, p) + P_PRINCESS] >= 0
            and keep_fits(s, p, c))


@kernel
def card_of(a, verb):
    return a - verb


@entry
def is_legal(s, a):
    """Whether action a is legal at the current decision point."""
    ctx = s[H_CTX]
    if a < 0 or a >= N_ACTIONS or ctx == CTX_NONE:
        return False
    p = s[H_DECIDER]
    b = pb(s, p)
    nc = s[H_NC]
    if a >= A_PLAY:
        verb = A_PLAY + ((a - A_PLAY) // NCMAX) * NCMAX
        c = a - verb
        if c >= nc:
            return False
    else:
        verb = -1
        c = -1
    if ctx == CTX_MAIN:
        if a == A_PASS:
            return True
        if a == A_COIN:
            return s[b + P_COIN_CTR] + s[b + P_HANDY_CTR] > 0
        if a == A_ABILITY:
            return ability_ready(s, p)
        if a == A_DOMAIN_ABILITY:
            return domain_ability_ready(s, p)
        if a == A_HAND_ABILITY:
            return rule(s, R_EDITION) == 1 and hand_has_flag(s, p, FL_EXILE_FROM_HAND)
        if verb == A_PLAY:
            return (s[H_OPEN] > 0 and s[hand(s, p) + c] > 0
                    and card(s, c, F_TYPES) & (TY_TERRITORY | TY_ACTION) != 0)
        if verb == A_RECALL:
            return s[kept(s, p) + c] > 0
        if verb == A_KEEP:
            return rule(s, R_KEEP_TIMING) == KEEP_MAIN and can_keep(s, p, c)
        return False
    if ctx == CTX_SECOND:
        mode = s[H_MODE]
        if a == A_PASS:
            return True
        if verb == A_BUY:
            if mode == MODE_SETTING:
                return False
            return buyable(s, p, c)
        if verb == A_BACK:
            return (mode == MODE_NONE and s[b + P_PRINCESS] < 0 and card(s, c, F_CAT) == CAT_PRINCESS
                    and s[market(s) + c] > 0 and card(s, c, F_COST) <= s[H_COINS])
        if verb == A_SET:
            return (mode != MODE_BUYING and s[b + P_PRINCESS] >= 0 and s[hand(s, p) + c] > 0
                    and card(s, c, F_TYPES) & TY_SUCCESSION != 0)
        return False
    if ctx == CTX_KEEP:
        return a == A_PASS or (verb == A_KEEP and can_keep(s, p, c))
    if ctx == CTX_DECLARE:
        return a == A_PASS or a == A_DECLARE
    # CTX_EFFECT: the question the effect asked
    kind = s[H_CH_KIND]
    if a == A_PASS:
        return s[H_CH_OPT] != 0
    if kind == CH_NUMBER:
        n = a - A_NUMBER
        return A_NUMBER <= a <= A_NUMBER + NUMBER_MAX and s[H_CH_MIN] <= n <= s[H_CH_MAX]
    if kind == CH_MODE:
        n = a - A_NUMBER
        return A_NUMBER <= a <= A_NUMBER + NUMBER_MAX and (s[H_CH_N] >> n) & 1 == 1
    if verb != A_CHOOSE:
        return False
    types = s[H_CH_TYPES]
    ty = card(s, c, F_TYPES)
    if (types != 0 and ty & types == 0) or ty & s[H_CH_NOT] != 0:
        return False
    if not s[H_CH_MIN] <= card(s, c, F_COST) <= s[H_CH_MAX]:
        return False
    if (s[H_CH_CARD] >= 0 and c != s[H_CH_CARD]) or c == s[H_CH_EXCEPT]:
        return False
    if card(s, c, F_FLAGS) & s[H_CH_FLAGS] != s[H_CH_FLAGS]:
        return False
    if kind == CH_HAND:
        return s[hand(s, p) + c] > 0
    if kind == CH_DISCARD:
        return s[discard(s, p) + c] > 0
    if kind == CH_MARKET:
        return in_market(s, c)
    if kind == CH_PLAY:
        return s[play(s) + c] > 0
    if kind == CH_DECK_TOP:
        return deck_window_has(s, s[H_CH_OWNER], s[H_CH_N], c)
    if kind == CH_KEPT:
        return s[kept(s, s[H_CH_OWNER]) + c] > 0
    if kind == CH_DOMAIN:
        return s[domain(s, s[H_CH_OWNER]) + c] > 0
    return False


@entry
def legal_actions(s, out):
    """Write the legal actions into out (length >= N_ACTIONS); return how many."""
    n = 0
    ctx = s[H_CTX]
    if ctx == CTX_NONE:
        return 0
    for a in range(A_PLAY):
        if is_legal(s, a):
            out[n] = a
            n += 1
    for verb in range(A_PLAY, N_ACTIONS, NCMAX):
        if ctx == CTX_MAIN and verb != A_PLAY and verb != A_RECALL and verb != A_KEEP:
            continue
        if ctx == CTX_SECOND and verb != A_BUY and verb != A_BACK and verb != A_SET:
            continue
        if ctx == CTX_KEEP and verb != A_KEEP:
            continue
        if ctx == CTX_EFFECT and verb != A_CHOOSE:
            continue
        if ctx == CTX_DECLARE:
            continue
        for i in range(s[H_NACTIVE]):
            c = active(s, i)
            if is_legal(s, verb + c):
                out[n] = verb + c
                n += 1
    return n


# ---- automatic steps --------------------------------------------------------------------------
@kernel
def start_turn(s):
    p = s[H_CUR]
    b = pb(s, p)
    if s[H_IN_EXTRA] == 0:
        coronation_check(s, p)
        if s[H_END] != 0:
            return
    if s[b + P_TURNS] >= rule(s, R_TURN_CAP):
        finish(s, END_TURN_CAP, -1, 0)
        return
    s[b + P_TURNS] += 1
    s[H_TURNS] += 1
    s[H_COINS] = 0
    s[H_OPEN] = 1
    s[H_PLAYED] = 0
    s[H_USED] = 0
    s[H_ACTION_BONUS] = 0
    s[H_SUCC_RED] = 0
    s[H_WITCH_N] = 0
    s[H_TURN_FLAGS] = 0
    s[H_DOMAIN_USED] = 0
    s[H_MODE] = MODE_NONE
    s[H_PHASE] = PH_MAIN


@kernel
def main_has_choice(s, p):
    b = pb(s, p)
    return ((s[H_OPEN] > 0 and s[b + P_HAND_PLAYABLE] > 0)
            or s[b + P_COIN_CTR] + s[b + P_HANDY_CTR] > 0
            or s[b + P_KEPT_N] > 0
            or ability_ready(s, p)
            or domain_ability_ready(s, p)
            or (rule(s, R_EDITION) == 1 and hand_has_flag(s, p, FL_EXILE_FROM_HAND))
            or (rule(s, R_KEEP_TIMING) == KEEP_MAIN and s[b + P_HAND_ACTION] > 0 and s[b + P_PRINCESS] >= 0))


@kernel
def second_has_choice(s, p):
    """The Second phase offers p a choice: coins to spend, a card to set, or a card to buy at 0."""
    b = pb(s, p)
    can_set = s[b + P_PRINCESS] >= 0 and s[b + P_HAND_SUCC] > 0
    if s[H_MODE] == MODE_SETTING:
        return can_set
    return s[H_COINS] > 0 or (s[H_MODE] == MODE_NONE and can_set) or free_buy_exists(s, p)


@kernel
def keep_has_choice(s, p):
    b = pb(s, p)
    if rule(s, R_KEEP_TIMING) != KEEP_CLEANUP or s[b + P_HAND_ACTION] == 0 or s[b + P_PRINCESS] < 0:
        return False
    m = mask_load(s, b + P_HAND_MASK)
    while m:
        c = lowest(m)
        m &= m - ONE
        if can_keep(s, p, c):
            return True
    return False


@kernel
def cleanup_start(s, p):
    """'At the start of the Cleanup phase' texts of the cards in the play area. The mandatory sets
    (Karikuma, Imperial Estate, Margrave) resolve before the optional ones (Supply Unit), so a
    played Margrave is always set. Reading: the engine fixes this order, the player does not."""
    pa = play(s)
    for mandatory in range(2):
        # the cards played this turn whose text acts now (usually none), highest id first
        m = mask_load(s, H_PLAY_MASK) & mask_load(s, H_CLEANUP_CARDS)
        while m:
            c = highest(m)
            m ^= np.uint64(1) << np.uint64(c)
            if (s[pa + c] > 0 and card(s, c, F_TRIGGERS) & (1 << TRIG_CLEANUP)
                    and (card(s, c, F_EFFECT) == EFF_SET_AT_CLEANUP) == (mandatory == 1)):
                push(s, card(s, c, F_EFFECT), TRIG_CLEANUP, p, c)


@kernel
def cleanup_draw(s, p):
    hand_to_discard_all(s, p)
    play_to_discard_all(s, p)
    s[H_COINS] = 0
    s[H_OPEN] = 0
    draw(s, p, rule(s, R_HAND_SIZE))
    if rule(s, R_MARKET_MODE) != MARKET_BASIC and s[H_MARKET_DIRTY] != 0:
        refill(s)


@kernel
def end_turn(s, p):
    turn_completed(s, p)
    s[H_DEBT + p] += s[H_DEBT_NEW]         # 1E Moneylender: "at the end of the turn"
    s[H_DEBT_NEW] = 0
    if s[H_EXTRA_PENDING] > 0:             # the extra turns pending, one after another
        s[H_EXTRA_PENDING] -= 1
        s[H_IN_EXTRA] = 1
    else:
        s[H_IN_EXTRA] = 0
        q = p
        for _ in range(s[H_NP]):
            q = after(s, q, 1)
            if s[pb(s, q) + P_OUT] == 0:
                break
        s[H_CUR] = q
    s[H_PHASE] = PH_START


@kernel
def wait_for(s, ctx, p):
    s[H_CTX] = ctx
    s[H_DECIDER] = p


# ---- actions ------------------------------------------------------------------------------------
@kernel
def play_card(s, p, c):
    count(s, c, ST_PLAYED)
    hand_add(s, p, c, -1)
    s[play(s) + c] += 1
    mask_set(s, H_PLAY_MASK, c)
    s[H_PLAYED] += 1
    s[H_OPEN] += card(s, c, F_LINKS) - 1
    n = card(s, c, F_COINS)
    if card(s, c, F_TYPES) & TY_ACTION:
        n += s[H_ACTION_BONUS]
    if s[H_TURN_FLAGS] & TF_VILLAGES_YIELD_2 and card(s, c, F_FLAGS) & FL_NAMED_FARMING_VILLAGE:
        n += 1
    gain_coins(s, p, n)
    if card(s, c, F_TRIGGERS) & (1 << TRIG_PLAY):
        push(s, card(s, c, F_EFFECT), TRIG_PLAY, p, c)
    attack_played(s, p, c)


@kernel
def keep_card(s, p, c):
    count(s, c, ST_KEPT)
    hand_add(s, p, c, -1)
    s[kept(s, p) + c] += 1
    s[pb(s, p) + P_KEPT_N] += 1


@kernel
def main_action(s, p, a):
    b = pb(s, p)
    if a == A_PASS:
        s[H_PHASE] = PH_SECOND
    elif a == A_COIN:
        # Handyman's counters go first: that leaves room to make more of them (their cap is 2)
        if s[b + P_HANDY_CTR] > 0:
            s[b + P_HANDY_CTR] -= 1
        else:
            s[b + P_COIN_CTR] -= 1
        gain_coins(s, p, 1)
    elif a == A_DOMAIN_ABILITY:
        s[H_DOMAIN_USED] += 1
        c = domain_ability_card(s, p)
        push(s, card(s, c, F_EFFECT), TRIG_DOMAIN, p, c)
    elif a == A_HAND_ABILITY:
        c = hand_card_with_flag(s, p, FL_EXILE_FROM_HAND)
        push(s, card(s, c, F_EFFECT), TRIG_ABILITY, p, c)
    elif a == A_ABILITY:
        s[H_USED] |= USED_PRINCESS
        push(s, card(s, s[b + P_PRINCESS], F_EFFECT), TRIG_ABILITY, p, s[b + P_PRINCESS])
    elif a < A_RECALL:
        play_card(s, p, a - A_PLAY)
    elif a < A_BUY:
        c = a - A_RECALL
        s[kept(s, p) + c] -= 1
        s[b + P_KEPT_N] -= 1
        hand_add(s, p, c, 1)
    else:
        keep_card(s, p, a - A_KEEP)


@kernel
def second_action(s, p, a):
    if a == A_PASS:
        s[H_PHASE] = PH_CLEANUP
    elif a < A_BACK:
        s[H_MODE] = MODE_BUYING
        buy(s, p, a - A_BUY)
    elif a < A_SET:
        # backing: leftover coins are lost
        s[H_COINS] = 0
        s[H_PHASE] = PH_CLEANUP
        push(s, EFF_BACK, TRIG_BACK, p, a - A_BACK)
    else:
        s[H_MODE] = MODE_SETTING
        c = a - A_SET
        set_from_hand(s, p, c)
        if card(s, c, F_TRIGGERS) & (1 << TRIG_SET):
            push(s, card(s, c, F_EFFECT), TRIG_SET, p, c)


# ---- the chain from an action to the card routines, per edition set -----------------------------
def edition_rules(first_edition):
    """`run_effects`, `advance`, `apply` and `apply_if_legal`, with the routines of the 1st edition's
    own texts or without them (`first_edition`, a constant of the closure: the 2nd edition's loops
    compile none of them, about a sixth of the engine). The module-level names below are the
    variant with every routine, for games of either edition; `hoc.games.heart_of_crown.kernel.api`
    hands the loops the one a ruleset needs."""
    made = namespace(f"{__name__}.{'all_editions' if first_edition else 'second_edition'}")

    @kernel
    def dispatch(s, fr, a):
        if first_edition and s[fr + FR_EFF] >= FIRST_1E:
            return dispatch_1e(s, fr, a)
        return dispatch_2e(s, fr, a)

    @kernel
    def run_effects(s, a):
        """Resume the effect stack with action a (-1: no choice). True if it waits for a decision."""
        while s[H_DEPTH] > 0:
            if s[H_END] != 0:
                s[H_DEPTH] = 0
                return False
            fr = s[H_OFF_STACK] + (s[H_DEPTH] - 1) * STACK_FRAME
            status = made.dispatch(s, fr, a)
            a = -1
            if status == WAIT:
                if s[H_END] != 0:
                    s[H_DEPTH] = 0
                    return False
                return True
            if status == DONE:
                s[H_DEPTH] -= 1
        return False

    @entry
    def advance(s):
        """Run the game forward to the next decision point or the end."""
        while s[H_END] == 0:
            if s[H_DEPTH] > 0:
                if made.run_effects(s, -1):
                    return
                continue
            ph = s[H_PHASE]
            p = s[H_CUR]
            if ph == PH_START:
                start_turn(s)
            elif ph == PH_MAIN:
                if main_has_choice(s, p):
                    wait_for(s, CTX_MAIN, p)
                    return
                s[H_PHASE] = PH_SECOND
            elif ph == PH_SECOND:
                if second_has_choice(s, p):
                    wait_for(s, CTX_SECOND, p)
                    return
                s[H_PHASE] = PH_CLEANUP
            elif ph == PH_CLEANUP:
                s[H_PHASE] = PH_KEEP
                cleanup_start(s, p)
            elif ph == PH_KEEP:
                if keep_has_choice(s, p):
                    wait_for(s, CTX_KEEP, p)
                    return
                s[H_PHASE] = PH_DRAW
            elif ph == PH_DRAW:
                cleanup_draw(s, p)
                s[H_PHASE] = PH_DECLARE
            elif ph == PH_DECLARE:
                if may_declare(s, p):
                    wait_for(s, CTX_DECLARE, p)
                    return
                s[H_PHASE] = PH_END
            else:
                end_turn(s, p)

    @entry
    def apply(s, a):
        """Carry out legal action a of the decider, then advance to the next decision point."""
        ctx = s[H_CTX]
        p = s[H_DECIDER]
        s[H_CTX] = CTX_NONE
        s[H_STEPS] += 1
        if ctx == CTX_MAIN:
            main_action(s, p, a)
        elif ctx == CTX_SECOND:
            second_action(s, p, a)
        elif ctx == CTX_KEEP:
            if a == A_PASS:
                s[H_PHASE] = PH_DRAW
            else:
                keep_card(s, p, a - A_KEEP)
        elif ctx == CTX_DECLARE:
            if a == A_DECLARE:
                declare(s, p)
            s[H_PHASE] = PH_END
        elif ctx == CTX_EFFECT:
            if made.run_effects(s, a):
                return
        made.advance(s)


    @entry
    def apply_if_legal(s, a):
        """`apply(s, a)` if a is legal; returns whether it was. One call from Python instead of two."""
        if not is_legal(s, a):
            return False
        made.apply(s, a)
        return True

    made.dispatch, made.run_effects, made.advance = dispatch, run_effects, advance
    made.apply, made.apply_if_legal = apply, apply_if_legal
    return made


ALL_EDITIONS = edition_rules(True)
SECOND_EDITION = edition_rules(False)
run_effects, advance, apply, apply_if_legal = (ALL_EDITIONS.run_effects, ALL_EDITIONS.advance, ALL_EDITIONS.apply,
                                               ALL_EDITIONS.apply_if_legal)
