"""The turn: Action phase, Buy phase, Cleanup, the end of the game, and the decision interface
(`legal_actions`, `is_legal`, `apply`). Cards' texts are the routines of effects.py, resolved on the
effect stack; nothing here knows a card but through the card table and the ruleset's named cards."""

from hoc.engine.jit import entry, kernel
from hoc.games.dominion.kernel.constants import (
    ASK, A_ALL_TREASURES, A_BUY, A_CHOOSE, A_MODE, A_PASS, A_PLAY, A_YES, CTX_ACTION, CTX_BUY, CTX_EFFECT,
    CTX_NONE, DONE, H_ANSWER, END_PILES, END_PROVINCES, END_SOLO, END_TURN_CAP, F_COINS, F_COST, H_ACTIONS, H_BOUGHT,
    H_BUYS, H_COINS, H_CTX, H_CUR, H_DECIDER, H_DEPTH, H_END, H_MERCHANTS, H_NC, H_NP, H_PHASE, H_Q, H_Q_MAX,
    H_Q_MODES, H_Q_OPT, H_Q_SEAT, H_Q_TYPES, H_SILVERS, H_STEPS, H_TURNS, H_WINNER, H_WIN_MASK, N_ACTIONS,
    N_MODES, PH_ACTION, PH_BUY, PH_CLEANUP, P_HAND_N, P_PROVINCES_BOUGHT, P_TURNS, P_VP, Q_DISCARD, Q_HAND,
    Q_MODE, Q_SUPPLY, Q_YES_NO, R_HAND_SIZE, R_PROVINCE, R_SOLO_PROVINCES, R_TURN_CAP, ST_BOUGHT, TY_ACTION,
    TY_TREASURE,
)
from hoc.games.dominion.kernel.effects import empty_piles, played_treasure, run
from hoc.games.dominion.kernel.stack import hand_has, matches, push
from hoc.games.dominion.kernel.state import card, count, discard, frame, hand, is_type, pb, play, rule, supply
from hoc.games.dominion.kernel.zones import WHERE_DISCARD, draw, from_hand, gain, to_discard, victory_points


@kernel
def resolve(s):
    """Resolve the effect stack until it is empty (True) or a question is pending (False)."""
    while s[H_DEPTH] > 0:
        r = run(s, frame(s, s[H_DEPTH] - 1))
        if r == ASK:
            return False
        if r == DONE:
            s[H_DEPTH] -= 1
    return True


@kernel
def start_turn(s):
    p = s[H_CUR]
    s[pb(s, p) + P_TURNS] += 1
    s[H_TURNS] += 1
    s[H_PHASE] = PH_ACTION
    s[H_ACTIONS] = 1
    s[H_BUYS] = 1
    s[H_COINS] = 0
    s[H_BOUGHT] = 0
    s[H_MERCHANTS] = 0
    s[H_SILVERS] = 0


@kernel
def finish(s, reason):
    """Count every player's VP and name the winners: most VP, then fewer turns; still equal: shared."""
    s[H_END] = reason
    s[H_CTX] = CTX_NONE
    best = -(1 << 30)
    for p in range(s[H_NP]):
        vp = victory_points(s, p)
        s[pb(s, p) + P_VP] = vp
        best = max(best, vp)
    fewest = 1 << 30
    for p in range(s[H_NP]):
        if s[pb(s, p) + P_VP] == best:
            fewest = min(fewest, s[pb(s, p) + P_TURNS])
    mask = 0
    winner = -1
    n = 0
    if reason != END_TURN_CAP:
        for p in range(s[H_NP]):
            if s[pb(s, p) + P_VP] == best and s[pb(s, p) + P_TURNS] == fewest:
                mask |= 1 << p
                winner = p
                n += 1
    s[H_WIN_MASK] = mask
    s[H_WINNER] = winner if n == 1 else -1


@kernel
def cleanup(s):
    """Discard hand and play area, draw the next hand; then the game may end, else the next turn."""
    p = s[H_CUR]
    h = hand(s, p)
    pl = play(s)
    for c in range(s[H_NC]):
        n = s[h + c] + s[pl + c]
        s[h + c] = 0
        s[pl + c] = 0
        for _ in range(n):
            to_discard(s, p, c)
    s[pb(s, p) + P_HAND_N] = 0
    draw(s, p, rule(s, R_HAND_SIZE))
    province = rule(s, R_PROVINCE)
    goal = rule(s, R_SOLO_PROVINCES)
    if goal > 0 and s[pb(s, p) + P_PROVINCES_BOUGHT] >= goal:
        finish(s, END_SOLO)
    elif s[supply(s) + province] == 0:
        finish(s, END_PROVINCES)
    elif empty_piles(s) >= 3:
        finish(s, END_PILES)
    elif s[pb(s, s[H_NP] - 1) + P_TURNS] >= rule(s, R_TURN_CAP):
        finish(s, END_TURN_CAP)
    else:
        s[H_CUR] = (p + 1) % s[H_NP]
        start_turn(s)


@kernel
def advance(s):
    """Run the game on to its next decision (or its end)."""
    while s[H_END] == 0:
        if s[H_DEPTH] > 0:
            if not resolve(s):
                return
            continue
        p = s[H_CUR]
        s[H_DECIDER] = p
        ph = s[H_PHASE]
        if ph == PH_ACTION:
            if s[H_ACTIONS] > 0 and hand_has(s, p, TY_ACTION):
                s[H_CTX] = CTX_ACTION
                return
            s[H_PHASE] = PH_BUY
        elif ph == PH_BUY:
            if s[H_BUYS] > 0 or (s[H_BOUGHT] == 0 and hand_has(s, p, TY_TREASURE)):
                s[H_CTX] = CTX_BUY
                return
            s[H_PHASE] = PH_CLEANUP
        else:
            cleanup(s)


@kernel
def play_treasure(s, c):
    from_hand(s, s[H_CUR], c)
    s[play(s) + c] += 1
    s[H_COINS] += card(s, c, F_COINS)
    played_treasure(s, c)


@kernel
def buy(s, c):
    p = s[H_CUR]
    s[H_COINS] -= card(s, c, F_COST)
    s[H_BUYS] -= 1
    s[H_BOUGHT] = 1
    count(s, c, ST_BOUGHT)
    if c == rule(s, R_PROVINCE):
        s[pb(s, p) + P_PROVINCES_BOUGHT] += 1
    gain(s, p, c, WHERE_DISCARD)


@kernel
def can_buy(s, c):
    return s[H_BUYS] > 0 and s[supply(s) + c] > 0 and card(s, c, F_COST) <= s[H_COINS]


@entry
def is_legal(s, a):
    """Action a is legal in the decision pending in s."""
    ctx = s[H_CTX]
    p = s[H_DECIDER]
    nc = s[H_NC]
    if a < 0 or a >= N_ACTIONS:
        return False
    if ctx == CTX_ACTION:
        if a == A_PASS:
            return True
        c = a - A_PLAY
        return A_PLAY <= a < A_PLAY + nc and s[hand(s, p) + c] > 0 and is_type(s, c, TY_ACTION)
    if ctx == CTX_BUY:
        if a == A_PASS:
            return True
        if a == A_ALL_TREASURES:
            return s[H_BOUGHT] == 0 and hand_has(s, p, TY_TREASURE)
        if A_PLAY <= a < A_PLAY + nc:
            c = a - A_PLAY
            return s[H_BOUGHT] == 0 and s[hand(s, p) + c] > 0 and is_type(s, c, TY_TREASURE)
        if A_BUY <= a < A_BUY + nc:
            return can_buy(s, a - A_BUY)
        return False
    if ctx == CTX_EFFECT:
        q = s[H_Q]
        if a == A_PASS:
            return q == Q_YES_NO or s[H_Q_OPT] == 1
        if q == Q_YES_NO:
            return a == A_YES
        if q == Q_MODE:
            m = a - A_MODE
            return 0 <= m < N_MODES and (s[H_Q_MODES] >> m) & 1 == 1
        c = a - A_CHOOSE
        if not 0 <= c < nc:
            return False
        seat = s[H_Q_SEAT]
        if q == Q_HAND:
            return s[hand(s, seat) + c] > 0 and matches(s, c, s[H_Q_TYPES])
        if q == Q_DISCARD:
            return s[discard(s, seat) + c] > 0
        if q == Q_SUPPLY:
            return s[supply(s) + c] > 0 and card(s, c, F_COST) <= s[H_Q_MAX] and matches(s, c, s[H_Q_TYPES])
    return False


@entry
def legal_actions(s, out):
    """Write the legal actions of the pending decision into out, in id order; return how many."""
    n = 0
    if s[H_END] != 0:
        return 0
    ctx = s[H_CTX]
    nc = s[H_NC]
    if ctx == CTX_EFFECT:
        q = s[H_Q]
        if q == Q_YES_NO or s[H_Q_OPT] == 1:
            out[n] = A_PASS
            n += 1
        if q == Q_YES_NO:
            out[n] = A_YES
            return n + 1
        if q == Q_MODE:
            for m in range(N_MODES):
                if (s[H_Q_MODES] >> m) & 1:
                    out[n] = A_MODE + m
                    n += 1
            return n
        for c in range(nc):
            if is_legal(s, A_CHOOSE + c):
                out[n] = A_CHOOSE + c
                n += 1
        return n
    out[n] = A_PASS
    n += 1
    if ctx == CTX_BUY and is_legal(s, A_ALL_TREASURES):
        out[n] = A_ALL_TREASURES
        n += 1
    for c in range(nc):
        if is_legal(s, A_PLAY + c):
            out[n] = A_PLAY + c
            n += 1
    if ctx == CTX_BUY:
        for c in range(nc):
            if can_buy(s, c):
                out[n] = A_BUY + c
                n += 1
    return n


@entry
def apply(s, a):
    """Take action a (legal: `is_legal`) in the pending decision and run on to the next one."""
    ctx = s[H_CTX]
    s[H_STEPS] += 1
    s[H_CTX] = CTX_NONE
    p = s[H_CUR]
    if ctx == CTX_EFFECT:
        s[H_ANSWER] = a
    elif ctx == CTX_ACTION:
        if a == A_PASS:
            s[H_PHASE] = PH_BUY
        else:
            c = a - A_PLAY
            s[H_ACTIONS] -= 1
            from_hand(s, p, c)
            s[play(s) + c] += 1
            push(s, c)
    elif ctx == CTX_BUY:
        if a == A_PASS:
            s[H_PHASE] = PH_CLEANUP
        elif a == A_ALL_TREASURES:
            h = hand(s, p)
            for c in range(s[H_NC]):
                if is_type(s, c, TY_TREASURE):
                    while s[h + c] > 0:
                        play_treasure(s, c)
        elif a < A_BUY:
            play_treasure(s, a - A_PLAY)
        else:
            buy(s, a - A_BUY)
    advance(s)


@entry
def apply_if_legal(s, a):
    """`apply` if a is legal (True), else leave s as it is (False)."""
    if not is_legal(s, a):
        return False
    apply(s, a)
    return True



