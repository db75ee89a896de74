"""Toy's rules in jitted code: the state's regions, setting a game up from its seed, the turn, the
decision interface (`legal_actions`, `is_legal`, `apply`) and the invariants (`check`)."""
import numpy as np

from hoc.engine.jit import entry, kernel
from hoc.engine.seeds import game_seed, game_seeds  # noqa: F401 (re-exported: the game's setup)
from hoc.engine.state import (  # noqa: F401 (rule: re-exported)
    below, card, count, load_rules, rule, seed_stream, shuffle, store_u64,
)
from toy_game.kernel.constants import (
    A_BUY, A_PASS, A_PLAY, CTX_ACTION, CTX_BUY, CTX_NONE, DTYPE, DYNAMIC, END_DUCHIES, END_TURN_CAP, E_BOUNDS,
    E_CARD_COUNT, E_NEGATIVE, E_OWNED, E_SIZE, F_ACTIONS, F_COINS, F_COPIES, F_COST, F_DRAW, F_KINGDOM,
    F_PER_PLAYER, F_START, F_TYPES, F_VP, HEADER, H_ACTIONS, H_BUYS, H_COINS, H_CTX, H_CUR, H_DCAP, H_DECIDER,
    H_END, H_KINDS, H_LEN, H_NC, H_NP, H_N_KINDS, H_OFF_DECK, H_OFF_DISCARD, H_OFF_HAND, H_OFF_OWNED, H_OFF_PLAY,
    H_OFF_PLAYER, H_OFF_SCRATCH, H_OFF_STATS, H_OFF_SUPPLY, H_PHASE, H_RNG, H_SEED, H_STEPS, H_TURNS, H_WINNER,
    H_WIN_MASK, MAX_CARDS, MAX_KINDS, NCMAX, N_ACTIONS, N_STATS, OK, PH_ACTION, PH_BUY, PH_CLEANUP, PSZ, P_ARNG,
    P_DECK_N, P_DISCARD_N, P_HAND_N, P_OWNED_N, P_RNG, P_TURNS, P_VP, R_CANDIDATES, R_DUCHY, R_HAND_SIZE,
    R_MARKET_DRAW, R_NC, R_N_CANDIDATES, R_PLAYERS, R_TURN_CAP, ST_BOUGHT, ST_GAINED, ST_PLAYED, TY_ACTION,
    TY_TREASURE,
)


# ---- regions -------------------------------------------------------------------------------------
@kernel
def pb(s, p):
    return s[H_OFF_PLAYER] + p * PSZ


@kernel
def hand(s, p):
    return s[H_OFF_HAND] + p * s[H_NC]


@kernel
def discard(s, p):
    return s[H_OFF_DISCARD] + p * s[H_NC]


@kernel
def owned(s, p):
    return s[H_OFF_OWNED] + p * s[H_NC]


@kernel
def deck(s, p):
    return s[H_OFF_DECK] + p * s[H_DCAP]


@kernel
def supply(s):
    return s[H_OFF_SUPPLY]


@kernel
def play_area(s):
    return s[H_OFF_PLAY]


@kernel
def is_type(s, c, t):
    return card(s, c, F_TYPES) & t != 0


@kernel
def pile_size(s, c):
    return card(s, c, F_COPIES) + card(s, c, F_PER_PLAYER) * rule(s, R_PLAYERS)


@kernel
def victory_points(s, p):
    o = owned(s, p)
    vp = 0
    for c in range(s[H_NC]):
        vp += s[o + c] * card(s, c, F_VP)
    return vp


# ---- laying a state out and dealing a game -------------------------------------------------------
@entry
def layout(s):
    """Write the regions' offsets into the header of s (its rules loaded); return the state's length."""
    players = rule(s, R_PLAYERS)
    nc = rule(s, R_NC)
    dcap = 0
    for c in range(nc):
        dcap += card(s, c, F_COPIES) + card(s, c, F_PER_PLAYER) * players + card(s, c, F_START) * players
    s[H_NP] = players
    s[H_NC] = nc
    s[H_DCAP] = dcap
    off = DYNAMIC
    s[H_OFF_PLAYER] = off
    off += players * PSZ
    for h in (H_OFF_HAND, H_OFF_DISCARD, H_OFF_OWNED):
        s[h] = off
        off += players * nc
    s[H_OFF_DECK] = off
    off += players * dcap
    s[H_OFF_PLAY] = off
    off += nc
    s[H_OFF_SUPPLY] = off
    off += nc
    s[H_OFF_SCRATCH] = off
    off += MAX_CARDS
    s[H_OFF_STATS] = off
    off += NCMAX * N_STATS
    s[H_LEN] = off
    return off


def new_state(T, R):
    """A state for games of card table T and ruleset vector R (`init_game` deals one); made in Python."""
    head = np.zeros(DYNAMIC, DTYPE)
    load_rules(head, T, R)
    s = np.zeros(layout(head), DTYPE)
    load_rules(s, T, R)
    layout(s)
    return s


@kernel
def draw(s, p, n):
    """p draws n cards (shuffling its discard pile into its deck when the deck runs out)."""
    b = pb(s, p)
    k = deck(s, p)
    h = hand(s, p)
    d = discard(s, p)
    for _ in range(n):
        if s[b + P_DECK_N] == 0:
            if s[b + P_DISCARD_N] == 0:
                return
            m = 0
            for c in range(s[H_NC]):
                for _ in range(s[d + c]):
                    s[k + m] = c
                    m += 1
                s[d + c] = 0
            s[b + P_DISCARD_N] = 0
            s[b + P_DECK_N] = m
            shuffle(s, b + P_RNG, k, m)
        s[b + P_DECK_N] -= 1
        c = s[k + s[b + P_DECK_N]]
        s[h + c] += 1
        s[b + P_HAND_N] += 1


@kernel
def choose_market(s):
    """The game's kingdom cards: R_MARKET_DRAW of the candidates drawn (in id order), or all of them."""
    n = rule(s, R_N_CANDIDATES)
    k = rule(s, R_MARKET_DRAW)
    if k <= 0 or k > n:
        k = n
    tmp = s[H_OFF_SCRATCH]
    for i in range(n):
        s[tmp + i] = rule(s, R_CANDIDATES + i)
    for i in range(k):                  # a partial Fisher-Yates
        j = i + below(s, H_RNG, n - i)
        t = s[tmp + i]
        s[tmp + i] = s[tmp + j]
        s[tmp + j] = t
    for i in range(1, k):               # in id order
        j = i
        while j > 0 and s[tmp + j - 1] > s[tmp + j]:
            t = s[tmp + j]
            s[tmp + j] = s[tmp + j - 1]
            s[tmp + j - 1] = t
            j -= 1
    s[H_N_KINDS] = min(k, MAX_KINDS)
    for i in range(s[H_N_KINDS]):
        s[H_KINDS + i] = s[tmp + i]


@kernel
def start_turn(s):
    s[pb(s, s[H_CUR]) + P_TURNS] += 1
    s[H_TURNS] += 1
    s[H_PHASE] = PH_ACTION
    s[H_ACTIONS] = 1
    s[H_BUYS] = 1
    s[H_COINS] = 0


@kernel
def deal(s, seed):
    """Set the game of this seed up: the market, the supply, the starting decks, the first hands."""
    s[:HEADER] = 0
    L = layout(s)
    s[DYNAMIC:L] = 0                    # the game's regions (an agents' arena after them is theirs)
    store_u64(s, H_SEED, np.uint64(seed))
    seed_stream(s, H_RNG, seed, 0)
    s[H_WINNER] = -1
    choose_market(s)
    sup = supply(s)
    for c in range(s[H_NC]):
        if card(s, c, F_KINGDOM) == 0:
            s[sup + c] = pile_size(s, c)
    for i in range(s[H_N_KINDS]):
        c = s[H_KINDS + i]
        s[sup + c] = pile_size(s, c)
    for p in range(s[H_NP]):
        b = pb(s, p)
        seed_stream(s, b + P_RNG, seed, 1 + p)
        seed_stream(s, b + P_ARNG, seed, 101 + p)
        k = deck(s, p)
        n = 0
        for c in range(s[H_NC]):
            for _ in range(card(s, c, F_START)):
                s[k + n] = c
                n += 1
            s[owned(s, p) + c] = card(s, c, F_START)
        s[b + P_DECK_N] = n
        s[b + P_OWNED_N] = n
        shuffle(s, b + P_RNG, k, n)
        draw(s, p, rule(s, R_HAND_SIZE))
    s[H_CUR] = 0
    start_turn(s)


# ---- the turn ------------------------------------------------------------------------------------
@kernel
def hand_has(s, p, t):
    h = hand(s, p)
    for c in range(s[H_NC]):
        if s[h + c] > 0 and is_type(s, c, t):
            return True
    return False


@kernel
def finish(s, reason):
    """Count the VP; the most VP win, then fewer turns; still equal, the win is shared (H_WIN_MASK bits;
    H_WINNER only for a sole winner)."""
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
    n = 0
    winner = -1
    for p in range(s[H_NP]):
        if s[pb(s, p) + P_VP] == best and s[pb(s, p) + P_TURNS] == fewest:
            mask |= 1 << p
            winner = p
            n += 1
    s[H_WIN_MASK] = mask
    s[H_WINNER] = winner if n == 1 else -1


@kernel
def cleanup(s):
    p = s[H_CUR]
    h = hand(s, p)
    d = discard(s, p)
    pl = play_area(s)
    b = pb(s, p)
    for c in range(s[H_NC]):
        n = s[h + c] + s[pl + c]
        s[d + c] += n
        s[b + P_DISCARD_N] += n
        s[h + c] = 0
        s[pl + c] = 0
    s[b + P_HAND_N] = 0
    draw(s, p, rule(s, R_HAND_SIZE))
    if s[supply(s) + rule(s, R_DUCHY)] == 0:
        finish(s, END_DUCHIES)
    elif s[pb(s, s[H_NP] - 1) + P_TURNS] >= rule(s, R_TURN_CAP):
        finish(s, END_TURN_CAP)
    else:
        s[H_CUR] = (p + 1) % s[H_NP]
        start_turn(s)


@kernel
def play_treasures(s, p):
    h = hand(s, p)
    pl = play_area(s)
    for c in range(s[H_NC]):
        n = s[h + c]
        if n > 0 and is_type(s, c, TY_TREASURE):
            s[h + c] = 0
            s[pl + c] += n
            s[pb(s, p) + P_HAND_N] -= n
            s[H_COINS] += n * card(s, c, F_COINS)


@kernel
def advance(s):
    """Run the game on to its next decision (or its end)."""
    while s[H_END] == 0:
        p = s[H_CUR]
        s[H_DECIDER] = p
        ph = s[H_PHASE]
        if ph == PH_ACTION:
            if s[H_ACTIONS] > 0 and hand_has(s, p, TY_ACTION):
                s[H_CTX] = CTX_ACTION
                return
            play_treasures(s, p)
            s[H_PHASE] = PH_BUY
        elif ph == PH_BUY:
            if s[H_BUYS] > 0:
                s[H_CTX] = CTX_BUY
                return
            s[H_PHASE] = PH_CLEANUP
        else:
            cleanup(s)


@entry
def init_game(s, seed):
    """Set the game of this seed up and run it to the first decision."""
    deal(s, seed)
    advance(s)


@kernel
def can_buy(s, c):
    return 0 <= c < s[H_NC] and s[H_BUYS] > 0 and s[supply(s) + c] > 0 and card(s, c, F_COST) <= s[H_COINS]


@entry
def is_legal(s, a):
    """Action a is legal in the decision pending in s."""
    if s[H_END] != 0 or a < 0 or a >= N_ACTIONS:
        return False
    ctx = s[H_CTX]
    if a == A_PASS:
        return ctx == CTX_ACTION or ctx == CTX_BUY
    if ctx == CTX_ACTION:
        c = a - A_PLAY
        return 0 <= c < s[H_NC] and a < A_BUY and s[hand(s, s[H_DECIDER]) + c] > 0 and is_type(s, c, TY_ACTION)
    if ctx == CTX_BUY:
        return a >= A_BUY and can_buy(s, a - A_BUY)
    return False


@entry
def legal_actions(s, out):
    """Write the legal actions into out in id order; return how many."""
    if s[H_END] != 0:
        return 0
    n = 0
    for a in range(N_ACTIONS):
        if is_legal(s, a):
            out[n] = a
            n += 1
    return n


@entry
def apply(s, a):
    """Take the (legal) action a and run on to the next decision."""
    ctx = s[H_CTX]
    p = s[H_CUR]
    s[H_STEPS] += 1
    s[H_CTX] = CTX_NONE
    if ctx == CTX_ACTION:
        if a == A_PASS:
            play_treasures(s, p)
            s[H_PHASE] = PH_BUY
        else:
            c = a - A_PLAY
            s[hand(s, p) + c] -= 1
            s[pb(s, p) + P_HAND_N] -= 1
            s[play_area(s) + c] += 1
            s[H_ACTIONS] -= 1
            count(s, c, ST_PLAYED)
            s[H_ACTIONS] += card(s, c, F_ACTIONS)
            s[H_COINS] += card(s, c, F_COINS)
            draw(s, p, card(s, c, F_DRAW))
    elif ctx == CTX_BUY:
        if a == A_PASS:
            s[H_PHASE] = PH_CLEANUP
        else:
            c = a - A_BUY
            s[H_COINS] -= card(s, c, F_COST)
            s[H_BUYS] -= 1
            s[supply(s) + c] -= 1
            s[discard(s, p) + c] += 1
            s[pb(s, p) + P_DISCARD_N] += 1
            s[owned(s, p) + c] += 1
            s[pb(s, p) + P_OWNED_N] += 1
            count(s, c, ST_BOUGHT)
            count(s, c, ST_GAINED)
    advance(s)


@entry
def apply_if_legal(s, a):
    if not is_legal(s, a):
        return False
    apply(s, a)
    return True


# ---- invariants ----------------------------------------------------------------------------------
@entry
def check(s, totals, work):
    """OK, or the first broken invariant (totals[c]: copies of c in the game; work: scratch per card,
    left holding the copies found)."""
    nc = s[H_NC]
    if s[H_COINS] < 0 or s[H_ACTIONS] < 0 or s[H_BUYS] < 0:
        return E_NEGATIVE
    for c in range(nc):
        if s[supply(s) + c] < 0 or s[play_area(s) + c] < 0:
            return E_NEGATIVE
        work[c] = s[supply(s) + c] + s[play_area(s) + c]
    for p in range(s[H_NP]):
        b = pb(s, p)
        n = s[b + P_DECK_N]
        if n < 0 or n > s[H_DCAP]:
            return E_BOUNDS
        k = deck(s, p)
        for i in range(n):
            if not 0 <= s[k + i] < nc:
                return E_BOUNDS
            work[s[k + i]] += 1
        hn = 0
        dn = 0
        on = 0
        for c in range(nc):
            h = s[hand(s, p) + c]
            d = s[discard(s, p) + c]
            o = s[owned(s, p) + c]
            if h < 0 or d < 0 or o < 0:
                return E_NEGATIVE
            hn += h
            dn += d
            on += o
            work[c] += h + d
        if hn != s[b + P_HAND_N] or dn != s[b + P_DISCARD_N] or on != s[b + P_OWNED_N]:
            return E_SIZE
        here = hn + dn + n
        if p == s[H_CUR]:
            for c in range(nc):
                here += s[play_area(s) + c]
        if here != on:
            return E_OWNED
    for c in range(nc):
        if work[c] != totals[c]:
            return E_CARD_COUNT
        held = 0
        for p in range(s[H_NP]):
            held += s[owned(s, p) + c]
        if held != work[c] - s[supply(s) + c]:
            return E_OWNED
    return OK
