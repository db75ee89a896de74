"""Laying out a state and setting up a game from its seed."""
import numpy as np

from hoc.engine.jit import entry, kernel
from hoc.engine.seeds import game_seed, game_seeds  # noqa: F401 (re-exported: the game's setup)
from hoc.engine.state import load_rules, tail_start
from hoc.games.heart_of_crown.kernel.constants import (
    CAT_BASIC, CAT_COMMON, CAT_PRINCESS, CAT_RARE, DTYPE, DYNAMIC, FL_NOT_IN_MARKET, F_CAT, F_COPIES, F_COST,
    F_FLAGS, F_PER_PLAYER, F_START, F_TRIGGERS, H_CLEANUP_CARDS, H_FREE_CARDS, TRIG_CLEANUP,
    HEADER, H_CUR, H_DCAP, H_LEN, H_NACTIVE, H_NC, H_NP, H_OFF_ABROAD, H_OFF_ACTIVE, H_OFF_DECK,
    H_OFF_DISCARD, H_OFF_DOMAIN, H_OFF_HAND, H_OFF_KEPT, H_OFF_MARKET, H_OFF_OWNED, H_OFF_PLAY,
    H_OFF_PLAYER, H_OFF_SCRATCH, H_OFF_STACK, H_OFF_STATS, H_OFF_SUPPLY, H_PHASE, H_RNG, H_SCAP, H_SEED,
    H_SUPPLY_N, H_WINNER, MARKET_BASIC, NCMAX, N_STATS, PH_START, PSZ, P_ARNG, P_DECK_N,
    P_PRINCESS, P_RNG, R_HAND_SIZE, R_MARKET_MODE, R_NC, R_N_POOL, R_PLAYERS, R_POOL,
    STACK_DEPTH, STACK_FRAME, EFF_HAND_ELIMINATION, R_SEATING, SEATING_HAND_ELIMINATION, SEATING_LEN, SEAT_ORDER,
    SEAT_POS, TRIG_PLAY,
)
from hoc.games.heart_of_crown.kernel.choice import push
from hoc.games.heart_of_crown.kernel.market import build_supply
from hoc.games.heart_of_crown.kernel.state import (
    card, deck, market, mask_set, owned, pb, rule, seed_stream, shuffle, store_u64,
)
from hoc.games.heart_of_crown.kernel.turn import advance
from hoc.games.heart_of_crown.kernel.zones import draw, own


@kernel
def capacities(s):
    """(deck capacity, supply capacity): every card of the game could end in one deck."""
    players = rule(s, R_PLAYERS)
    total = 0
    supply = 0
    for c in range(rule(s, R_NC)):
        n = card(s, c, F_COPIES) * (players if card(s, c, F_PER_PLAYER) else 1)
        total += n
        if card(s, c, F_CAT) == CAT_COMMON or card(s, c, F_CAT) == CAT_RARE:
            supply += n
        for seat in range(players):
            total += card(s, c, F_START + min(seat, 3))
    return total, supply


@entry
def layout(s):
    """Write the region offsets into the header of s (its rules already loaded); return the
    state's length."""
    players = rule(s, R_PLAYERS)
    nc = rule(s, R_NC)
    if s[H_DCAP] > 0:           # a state laid out before (init_game keeps the capacities)
        dcap, scap = s[H_DCAP], s[H_SCAP]
    else:
        dcap, scap = capacities(s)
    s[H_NP] = players
    s[H_NC] = nc
    s[H_DCAP] = dcap
    s[H_SCAP] = scap
    off = DYNAMIC + SEATING_LEN          # the seating block first (constants: SEAT_ORDER, SEAT_POS)
    s[H_OFF_PLAYER] = off
    off += players * PSZ
    for h in (H_OFF_HAND, H_OFF_DISCARD, H_OFF_DOMAIN, H_OFF_KEPT, H_OFF_OWNED):
        s[h] = off
        off += players * nc
    s[H_OFF_DECK] = off
    off += players * dcap
    for h in (H_OFF_PLAY, H_OFF_MARKET, H_OFF_ABROAD):
        s[h] = off
        off += nc
    s[H_OFF_SUPPLY] = off
    off += scap
    s[H_OFF_STACK] = off
    off += STACK_DEPTH * STACK_FRAME
    s[H_OFF_SCRATCH] = off
    off += NCMAX
    s[H_OFF_ACTIVE] = off
    off += NCMAX
    s[H_OFF_STATS] = off
    off += NCMAX * N_STATS
    s[H_LEN] = off
    return off


def new_state(T, R):
    """A state for games under card table T and ruleset R, laid out (call init_game to set one up).
    Made here in Python: kernels never allocate (an allocation in jitted code compiles numba's
    error-message machinery, a second of the cold start)."""
    head = np.zeros(DYNAMIC, DTYPE)
    load_rules(head, T, R)
    s = np.zeros(layout(head), DTYPE)
    load_rules(s, T, R)
    layout(s)
    return s


@kernel
def collect_active(s):
    """List the cards present anywhere at setup; no other card can enter this game."""
    flag = s[H_OFF_SCRATCH]
    nc = s[H_NC]
    m = market(s)
    for c in range(nc):
        s[flag + c] = 1 if s[m + c] > 0 else 0
        for p in range(s[H_NP]):
            if s[owned(s, p) + c] > 0:
                s[flag + c] = 1
    for i in range(s[H_SUPPLY_N]):
        s[flag + s[s[H_OFF_SUPPLY] + i]] = 1
    n = 0
    for c in range(nc):
        if s[flag + c]:
            s[s[H_OFF_ACTIVE] + n] = c
            n += 1
    s[H_NACTIVE] = n


@kernel
def deal(s, seed):
    """Set up a game: markets, supply, starting decks by seat, opening hands (`init_game` then runs
    it to the first decision). Under the hand-elimination seating the opening hands are the players'
    first decisions (`hoc.games.heart_of_crown.kernel.seating`)."""
    dcap = s[H_DCAP]
    scap = s[H_SCAP]
    s[:HEADER] = 0
    s[DYNAMIC:tail_start(s)] = 0       # the arena too; a tail of learned networks stays
    players = rule(s, R_PLAYERS)
    s[H_DCAP] = dcap
    s[H_SCAP] = scap
    layout(s)
    for c in range(rule(s, R_NC)):
        if card(s, c, F_TRIGGERS) & (1 << TRIG_CLEANUP):
            mask_set(s, H_CLEANUP_CARDS, c)
        if card(s, c, F_COST) == 0 and card(s, c, F_CAT) != CAT_PRINCESS and card(s, c, F_FLAGS) & FL_NOT_IN_MARKET == 0:
            s[H_FREE_CARDS] = 1
    store_u64(s, H_SEED, np.uint64(seed))
    seed_stream(s, H_RNG, seed, 0)
    s[H_WINNER] = -1
    m = market(s)
    for c in range(rule(s, R_NC)):
        if card(s, c, F_CAT) == CAT_BASIC:
            s[m + c] = card(s, c, F_COPIES) * (players if card(s, c, F_PER_PLAYER) else 1)
    for i in range(rule(s, R_N_POOL)):
        s[m + rule(s, R_POOL + i)] = 1
    if rule(s, R_MARKET_MODE) != MARKET_BASIC:
        build_supply(s)
    hand_elimination = rule(s, R_SEATING) == SEATING_HAND_ELIMINATION
    for p in range(players):
        s[SEAT_ORDER + p] = p           # every player at its own number, until a seating rule says otherwise
        s[SEAT_POS + p] = p
        b = pb(s, p)
        s[b + P_PRINCESS] = -1
        seed_stream(s, b + P_RNG, seed, 1 + p)
        seed_stream(s, b + P_ARNG, seed, 101 + p)
        k = deck(s, p)
        n = 0
        for c in range(rule(s, R_NC)):
            for _ in range(card(s, c, F_START + min(p, 3))):
                s[k + n] = c
                n += 1
            own(s, p, c, card(s, c, F_START + min(p, 3)))
        s[b + P_DECK_N] = n
        shuffle(s, b + P_RNG, k, n)
        if not hand_elimination:
            draw(s, p, rule(s, R_HAND_SIZE))
    collect_active(s)
    s[H_CUR] = 0
    s[H_PHASE] = PH_START
    if hand_elimination:
        # the players pick their opening hands from their decks, then sit (kernel.seating); the
        # routine is one of the 1st edition's own, so a 2nd-edition run never compiles it
        push(s, EFF_HAND_ELIMINATION, TRIG_PLAY, 0, -1)


@entry
def init_game(s, seed):
    """Set up a game from its seed and run it to the first decision."""
    deal(s, seed)
    advance(s)
