"""The arena: the scratch at the tail of a state where agents that think ahead (the search agent,
the turn planner) copy and determinize games, and the determinization itself.

Kernels never allocate, so such agents work after the game part of the state array (s[0:s[H_LEN]]).
Only states made for a lineup that needs it have an arena (`hoc.games.heart_of_crown.agents.search.kernel.new_search_state`,
`hoc.games.heart_of_crown.agents.search.reserve`); other games pay nothing. Layout, from a = s[H_LEN]:

    AR_RNG    the stream of the current determinization
    AR_SEED   the search's seed, AR_TREE the search tree's own stream
    AR_INNER  the turn planner's nested stream, AR_COMMIT its commitment, AR_FIXED whether its copies
              hold the rules and card table (hoc.games.heart_of_crown.agents.planner)
    AR_CNT    NCMAX counts (hidden cards gathered by card id)
    AR_MARK   N_ACTIONS slots: child node + 1 of each action at the current tree node (the search);
              the planner's score sums (between the search's decisions)
    AR_PATH   MAX_PATH tree nodes of the current iteration (the search)
    AR_BUF    max(deck capacity, supply capacity) cards being shuffled
    copy      a game copy (s[H_LEN] ints): a view `w` the engine plays like any state
    copy 2    a second game copy, for the planner's nested look-ahead
    copy 3    the planner's determinized game, which every action it weighs starts from
    tree      the search's nodes

Determinization. Everything the player cannot see is gathered by card id (so that two states that
differ only in hidden arrangement give the same samples) and shuffled with the determinization's
stream: its own deck below any window it is looking at (CH_DECK_TOP), each opponent's hand and deck
together (then the hand is dealt back at its public size), and the face-down part of the supply.
Face-up deck cards and face-up supply cards stay. Then every game stream (deck shuffles, market, the
agents' own) is reseeded from the determinization's stream, since the game's future random numbers
are hidden too. What the player saw earlier and no longer sees in the state (a card a text showed and
left on the deck, a card a text put face down on the deck) is forgotten: the sample is drawn from a
larger set than the player could know, never from information it lacks.
"""
import numpy as np

from hoc.games.heart_of_crown.kernel.constants import (
    CH_DECK_TOP, CTX_EFFECT, H_CH_KIND, H_CH_N, H_CH_OWNER, H_CTX, H_DCAP, H_DECIDER, H_LEN, H_NC, H_NP, H_OFF_SUPPLY,
    H_REVEALED, H_RNG, H_SCAP, H_SUPPLY_N, NCMAX, N_ACTIONS, P_ARNG, P_DECK_N, P_HAND_N, P_RNG,
)
from hoc.engine.jit import kernel
from hoc.games.heart_of_crown.kernel.state import deck, hand, hand_mask, lowest, next_u64, pb, shuffle, store_u64
from hoc.games.heart_of_crown.kernel.zones import FACE_UP, hand_add

# arena slots (after s[H_LEN])
AR_RNG = 0             # the stream of the current determinization
AR_SEED = 2            # the search's seed
AR_TREE = 4            # the tree's own stream (random expansions)
AR_INNER = 6           # the turn planner's nested stream (hoc.games.heart_of_crown.agents.planner)
AR_COMMIT = 8          # 4 slots: the turn planner's commitment (hoc.games.heart_of_crown.agents.planner)
AR_FIXED = 12          # 1 once the planner's copies hold the state's rules and card table (they never change)
AR_CNT = 16
AR_MARK = AR_CNT + NCMAX
AR_PATH = AR_MARK + N_ACTIONS
MAX_PATH = 256
AR_BUF = AR_PATH + MAX_PATH


@kernel
def copy_offset(s):
    """Where the arena's game copy starts."""
    return s[H_LEN] + AR_BUF + max(s[H_DCAP], s[H_SCAP])


@kernel
def deal_counted(s, nc):
    """Lay the cards counted in the arena (copies per card id) out in its buffer in id order, then
    shuffle them with the determinization's stream: the sample depends on the counts alone."""
    a = s[H_LEN]
    cnt = a + AR_CNT
    buf = a + AR_BUF
    n = 0
    for c in range(nc):
        for _ in range(s[cnt + c]):
            s[buf + n] = c
            n += 1
    shuffle(s, a + AR_RNG, buf, n)


@kernel
def deal_hidden(s, w, q, keep_top, with_hand):
    """Shuffle what the searcher cannot see of seat q's cards in the copy w: its face-down deck
    cards below the top `keep_top`, and with `with_hand` its hand too (dealt back at its size).
    The cards are gathered by id first, so the arrangement in w does not matter."""
    a = s[H_LEN]
    cnt = a + AR_CNT
    buf = a + AR_BUF
    nc = w[H_NC]
    for c in range(nc):
        s[cnt + c] = 0
    k = deck(w, q)
    below_window = w[pb(w, q) + P_DECK_N] - keep_top
    for i in range(below_window):
        x = w[k + i]
        if x & FACE_UP == 0:
            s[cnt + x] += 1
    n_hand = w[pb(w, q) + P_HAND_N]
    if with_hand:
        h = hand(w, q)
        m = hand_mask(w, q)
        while m:
            c = lowest(m)
            m &= m - np.uint64(1)
            s[cnt + c] += w[h + c]
            hand_add(w, q, c, -w[h + c])
    deal_counted(s, nc)
    j = 0
    if with_hand:
        for _ in range(n_hand):
            hand_add(w, q, s[buf + j], 1)
            j += 1
    for i in range(below_window):
        if w[k + i] & FACE_UP == 0:
            w[k + i] = s[buf + j]
            j += 1


@kernel
def shuffle_supply(s, w):
    """The face-down supply (below the face-up cards a text put on top), by id, shuffled."""
    a = s[H_LEN]
    cnt = a + AR_CNT
    buf = a + AR_BUF
    nc = w[H_NC]
    sup = w[H_OFF_SUPPLY]
    hidden = w[H_SUPPLY_N] - w[H_REVEALED]
    if hidden <= 1:
        return
    for c in range(nc):
        s[cnt + c] = 0
    for i in range(hidden):
        s[cnt + w[sup + i]] += 1
    deal_counted(s, nc)
    for i in range(hidden):
        w[sup + i] = s[buf + i]


@kernel
def determinize(s, w, p):
    """Turn w (a copy of the game) into a sample of the states the searcher p cannot tell from it. The
    top cards of a deck the searcher is choosing from stay: its own, or an opponent's that a 1E Scout
    or Royal Guard reveals to it (H_CH_OWNER); that opponent's hand and the rest of its deck are
    shuffled as any opponent's."""
    window = 0
    owner = -1
    if w[H_CTX] == CTX_EFFECT and w[H_CH_KIND] == CH_DECK_TOP and w[H_DECIDER] == p:
        window = w[H_CH_N]
        owner = w[H_CH_OWNER]
    deal_hidden(s, w, p, window if owner == p else 0, False)
    for q in range(w[H_NP]):
        if q != p:
            deal_hidden(s, w, q, window if owner == q else 0, True)
    shuffle_supply(s, w)
    rng = s[H_LEN] + AR_RNG
    store_u64(w, H_RNG, next_u64(s, rng))
    for q in range(w[H_NP]):
        store_u64(w, pb(w, q) + P_RNG, next_u64(s, rng))
        store_u64(w, pb(w, q) + P_ARNG, next_u64(s, rng))


