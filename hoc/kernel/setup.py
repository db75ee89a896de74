"""Laying out a state and setting up a game from its seed."""
import numpy as np
from numba import njit

from hoc.kernel.jit import kernel

from hoc.kernel.constants import (
    CAT_BASIC, CAT_COMMON, CAT_RARE, F_CAT, F_COPIES, F_PER_PLAYER, F_START, H_CUR, H_DCAP, H_LEN,
    H_NC, H_NP, H_OFF_ABROAD, H_OFF_DECK, H_OFF_DISCARD, H_OFF_DOMAIN, H_OFF_HAND, H_OFF_KEPT,
    H_OFF_MARKET, H_OFF_OWNED, H_OFF_PLAY, H_OFF_PLAYER, H_OFF_STACK, H_OFF_SUPPLY, H_PHASE, H_RNG,
    H_OFF_ACTIVE, H_NACTIVE, H_OFF_SCRATCH, H_OFF_SUPPLY, H_SUPPLY_N, NCMAX, H_SCAP, H_SEED, H_WINNER, HEADER, MARKET_BASIC, P_ARNG, P_DECK_N, P_PRINCESS, P_RNG, PH_START,
    PSZ, DTYPE, R_HAND_SIZE, R_MARKET_MODE, R_N_POOL, R_NC, R_PLAYERS, R_POOL, STACK_DEPTH, STACK_FRAME,
)
from hoc.kernel.market import build_supply
from hoc.kernel.state import GOLDEN, deck, market, mix64, owned, pb, seed_stream, shuffle, store_u64
from hoc.kernel.turn import advance
from hoc.kernel.zones import draw, own


@kernel
def capacities(T, R):
    """(deck capacity, supply capacity): every card of the game could end in one deck."""
    players = R[R_PLAYERS]
    total = 0
    supply = 0
    for c in range(R[R_NC]):
        n = T[c, F_COPIES] * (players if T[c, F_PER_PLAYER] else 1)
        total += n
        if T[c, F_CAT] == CAT_COMMON or T[c, F_CAT] == CAT_RARE:
            supply += n
        for seat in range(players):
            total += T[c, F_START + min(seat, 3)]
    return total, supply


@kernel
def layout(s, players, nc, dcap, scap):
    """Write the region offsets into the header of s; return the state's length."""
    s[H_NP] = players
    s[H_NC] = nc
    s[H_DCAP] = dcap
    s[H_SCAP] = scap
    off = HEADER
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
    s[H_LEN] = off
    return off


@njit(cache=True)
def state_len(T, R):
    dcap, scap = capacities(T, R)
    h = np.zeros(HEADER, DTYPE)
    return layout(h, R[R_PLAYERS], R[R_NC], dcap, scap)


@kernel
def game_seed(master, index):
    """The seed of game `index` of a run with seed `master`, as a signed 64-bit integer."""
    return np.int64(mix64(np.uint64(master) ^ mix64(np.uint64(index) + GOLDEN)))


@njit(cache=True)
def game_seeds(master, first, n):
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = game_seed(master, first + i)
    return out


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
def init_game(s, T, R, seed):
    """Set up a game: markets, supply, starting decks by seat, opening hands; then run to the
    first decision."""
    s[:] = 0
    players = R[R_PLAYERS]
    dcap, scap = capacities(T, R)
    layout(s, players, R[R_NC], dcap, scap)
    store_u64(s, H_SEED, np.uint64(seed))
    seed_stream(s, H_RNG, seed, 0)
    s[H_WINNER] = -1
    m = market(s)
    for c in range(R[R_NC]):
        if T[c, F_CAT] == CAT_BASIC:
            s[m + c] = T[c, F_COPIES] * (players if T[c, F_PER_PLAYER] else 1)
    for i in range(R[R_N_POOL]):
        s[m + R[R_POOL + i]] = 1
    if R[R_MARKET_MODE] != MARKET_BASIC:
        build_supply(s, T, R)
    for p in range(players):
        b = pb(s, p)
        s[b + P_PRINCESS] = -1
        seed_stream(s, b + P_RNG, seed, 1 + p)
        seed_stream(s, b + P_ARNG, seed, 101 + p)
        k = deck(s, p)
        n = 0
        for c in range(R[R_NC]):
            for _ in range(T[c, F_START + min(p, 3)]):
                s[k + n] = c
                n += 1
            own(s, p, c, T[c, F_START + min(p, 3)])
        s[b + P_DECK_N] = n
        shuffle(s, b + P_RNG, k, n)
        draw(s, T, p, R[R_HAND_SIZE])
    collect_active(s)
    s[H_CUR] = 0
    s[H_PHASE] = PH_START
    advance(s, T, R)
