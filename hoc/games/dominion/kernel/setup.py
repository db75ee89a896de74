"""Laying out a state and setting up a game from its seed: the supply (the basic cards and ten
kingdom cards), the starting decks (7 Copper, 3 Estate) and the first hands."""
import numpy as np

from hoc.engine.jit import entry, kernel
from hoc.engine.seeds import game_seed, game_seeds  # noqa: F401 (re-exported: the game's setup)
from hoc.engine.state import load_rules
from hoc.games.dominion.kernel.constants import (
    DTYPE, DYNAMIC, FRAME, F_COPIES, F_KINGDOM, F_PILE, F_START, HEADER, H_CUR, H_DCAP, H_IN_SUPPLY, H_KINDS,
    H_LEN, H_NC, H_NP, H_N_KINDS, H_OFF_ASIDE, H_OFF_DECK, H_OFF_DISCARD, H_OFF_HAND, H_OFF_OWNED, H_OFF_PLAY,
    H_OFF_PLAYER, H_OFF_SCRATCH, H_OFF_STACK, H_OFF_STATS, H_OFF_SUPPLY, H_OFF_TRASH, H_RNG, H_SEED, H_WINNER,
    KINGDOM_FIXED, MAX_KINDS, NCMAX, N_STATS, PILE_LESS_START, PILE_PER_OPPONENT, PILE_VICTORY, PSZ,
    P_ARNG, P_DECK_N, P_OWNED_N, P_RNG, R_HAND_SIZE, R_KINGDOM_MODE, R_NC, R_N_ALWAYS, R_N_PILES,
    R_PILES, R_PLAYERS, STACK_DEPTH,
)
from hoc.games.dominion.kernel.state import (
    below, card, deck, mask_set, owned, pb, rule, seed_stream, shuffle, store_u64, supply,
)
from hoc.games.dominion.kernel.turn import advance, start_turn
from hoc.games.dominion.kernel.zones import draw


@kernel
def pile_size(s, c):
    """The supply pile of c at the start of a game of this many players."""
    players = rule(s, R_PLAYERS)
    rule_ = card(s, c, F_PILE)
    n = card(s, c, F_COPIES)
    if rule_ == PILE_VICTORY:
        return 8 if players <= 2 else 12
    if rule_ == PILE_PER_OPPONENT:
        return n * max(players - 1, 0)
    if rule_ == PILE_LESS_START:
        return max(n - card(s, c, F_START) * players, 0)
    return n


@kernel
def capacity(s):
    """Every card of any game under these rules could end in one deck."""
    total = 0
    for c in range(rule(s, R_NC)):
        total += max(pile_size(s, c), card(s, c, F_COPIES)) + card(s, c, F_START) * rule(s, R_PLAYERS)
    return total


@entry
def layout(s):
    """Write the region offsets into the header of s (its rules already loaded); return its length."""
    players = rule(s, R_PLAYERS)
    nc = rule(s, R_NC)
    dcap = s[H_DCAP] if s[H_DCAP] > 0 else capacity(s)
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
    for h in (H_OFF_PLAY, H_OFF_SUPPLY, H_OFF_TRASH, H_OFF_ASIDE):
        s[h] = off
        off += nc
    s[H_OFF_STACK] = off
    off += STACK_DEPTH * FRAME
    s[H_OFF_SCRATCH] = off
    off += NCMAX
    s[H_OFF_STATS] = off
    off += NCMAX * N_STATS
    s[H_LEN] = off
    return off


def new_state(T, R):
    """A state for games under card table T and ruleset R, laid out (`init_game` deals one). Made in
    Python: kernels never allocate."""
    head = np.zeros(DYNAMIC, DTYPE)
    load_rules(head, T, R)
    s = np.zeros(layout(head), DTYPE)
    load_rules(s, T, R)
    layout(s)
    return s


@kernel
def choose_kingdom(s):
    """The game's ten kingdom cards: the listed ones, or ten drawn from the candidates (the first
    R_N_ALWAYS of them always among them)."""
    n = rule(s, R_N_PILES)
    tmp = s[H_OFF_SCRATCH]
    for i in range(n):
        s[tmp + i] = rule(s, R_PILES + i)
    k = min(n, MAX_KINDS)
    if rule(s, R_KINGDOM_MODE) != KINGDOM_FIXED:
        for i in range(rule(s, R_N_ALWAYS), k):        # partial Fisher-Yates over the rest
            j = i + below(s, H_RNG, n - i)
            t = s[tmp + i]
            s[tmp + i] = s[tmp + j]
            s[tmp + j] = t
        # kingdom cards in id order, whatever the draw's order
        for i in range(1, k):
            j = i
            while j > 0 and s[tmp + j - 1] > s[tmp + j]:
                t = s[tmp + j]
                s[tmp + j] = s[tmp + j - 1]
                s[tmp + j - 1] = t
                j -= 1
    s[H_N_KINDS] = k
    for i in range(k):
        s[H_KINDS + i] = s[tmp + i]


@kernel
def deal(s, seed):
    """Set up a game: supply, starting decks, first hands (`init_game` then runs it to the first decision)."""
    dcap = s[H_DCAP]
    s[:HEADER] = 0
    s[DYNAMIC:] = 0
    s[H_DCAP] = dcap
    layout(s)
    store_u64(s, H_SEED, np.uint64(seed))
    seed_stream(s, H_RNG, seed, 0)
    s[H_WINNER] = -1
    choose_kingdom(s)
    sup = supply(s)
    for c in range(s[H_NC]):
        if card(s, c, F_KINGDOM) == 0:
            s[sup + c] = pile_size(s, c)
            mask_set(s, H_IN_SUPPLY, c)
    for i in range(s[H_N_KINDS]):
        c = s[H_KINDS + i]
        s[sup + c] = pile_size(s, c)
        mask_set(s, H_IN_SUPPLY, c)
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


@entry
def init_game(s, seed):
    """Set up a game from its seed and run it to the first decision."""
    deal(s, seed)
    advance(s)
