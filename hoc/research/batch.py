"""Jitted game loops: one game to its end with jitted agents, and a batch of games by index."""
import numpy as np
from numba import njit

from hoc.agents.policies import decide as decide_plain
from hoc.agents.policies import decide_plan, decide_search, decide_search_plan, needs
from hoc.engine.jit import entry, kernel
from hoc.games.heart_of_crown.kernel.constants import (
    DTYPE, H_END, H_NC, H_KINDS, H_N_KINDS, MAX_KINDS, RES_MARKET, H_NP, H_OFF_STATS, H_STEPS, H_TURNS, H_WINNER, H_WIN_MASK, N_STATS, P_BACK_TURN,
    P_PRINCESS, P_SP, P_TURNS, RES_END, RES_ERROR, RES_GAME, RES_SEAT, RES_SEAT_SZ, RES_STEPS,
    RES_TURNS, RES_WINNER, RES_WIN_MASK, R_NC, R_PLAYERS,
)
from hoc.games.heart_of_crown.kernel.invariants import E_ILLEGAL, E_STEPS, OK, check
from hoc.agents.search.kernel import new_search_state
from hoc.games.heart_of_crown.kernel.setup import game_seed, init_game
from hoc.games.heart_of_crown.kernel.state import owned, pb, rule, seat_agent
from hoc.games.heart_of_crown.kernel.turn import apply, is_legal

MAX_STEPS = 200_000


def _game_loops(search, plan):
    """The loops that play one game to its end with the decider of (search, plan): plain, and
    checking each action's legality and the invariants after each step. The flags are constants of
    the closure and the deciders module globals (numba's cache keys a closure by its variables, and a
    dispatcher among them would not pickle the same twice), so each loop compiles just its decider."""

    @kernel
    def play_out(s):
        """Play the game in s to its end. Returns OK, or E_STEPS if it does not end."""
        while s[H_END] == 0:
            if search and plan:
                a = decide_search_plan(s)
            elif search:
                a = decide_search(s)
            elif plan:
                a = decide_plan(s)
            else:
                a = decide_plain(s)
            apply(s, a)
            if s[H_STEPS] > MAX_STEPS:
                return E_STEPS
        return OK

    @kernel
    def play_checked(s, totals, work):
        """`play_out`, checking each action's legality and the invariants after each step. Returns OK
        or the first invariant error code."""
        while s[H_END] == 0:
            if search and plan:
                a = decide_search_plan(s)
            elif search:
                a = decide_search(s)
            elif plan:
                a = decide_plan(s)
            else:
                a = decide_plain(s)
            if not is_legal(s, a):
                return E_ILLEGAL
            apply(s, a)
            e = check(s, totals, work)
            if e != OK:
                return e
            if s[H_STEPS] > MAX_STEPS:
                return E_STEPS
        return OK

    return play_out, play_checked


# (search, plan) -> (play_out, play_checked) with the decider those agents need
GAME_LOOPS = {(search, plan): _game_loops(search, plan) for search in (False, True) for plan in (False, True)}
play_out, play_checked = GAME_LOOPS[False, False]
play_out_search, play_checked_search = GAME_LOOPS[True, False]
play_out_plan, play_checked_plan = GAME_LOOPS[False, True]
play_out_search_plan, play_checked_search_plan = GAME_LOOPS[True, True]


@entry
def card_totals(s, totals, work):
    """Copies of each card in a freshly set-up game (for the no-card-created-or-lost check)."""
    for c in range(rule(s, R_NC)):
        totals[c] = 0
    check(s, totals, work)       # fills work with the counts found
    for c in range(rule(s, R_NC)):
        totals[c] = work[c]


@entry
def record(s, out):
    out[RES_WINNER] = s[H_WINNER]
    out[RES_END] = s[H_END]
    out[RES_TURNS] = s[H_TURNS]
    out[RES_WIN_MASK] = s[H_WIN_MASK]
    out[RES_STEPS] = s[H_STEPS]
    for p in range(s[H_NP]):
        b = pb(s, p)
        o = RES_SEAT + p * RES_SEAT_SZ
        out[o] = s[b + P_SP]
        out[o + 1] = s[b + P_PRINCESS]
        out[o + 2] = s[b + P_BACK_TURN]
        out[o + 3] = s[b + P_TURNS]
        own = owned(s, p)
        lo = 0
        hi = 0
        for c in range(s[H_NC]):
            if s[own + c] > 0:
                if c < 32:
                    lo |= 1 << c
                else:
                    hi |= 1 << (c - 32)
        out[o + 4] = lo
        out[o + 5] = hi
    for i in range(MAX_KINDS):
        out[RES_MARKET + i] = s[H_KINDS + i] if i < s[H_N_KINDS] else -1


def _batch(validate, search=False, plan=False):
    """The batch loop, with the invariant checks or without, with the search agent or without, with
    the turn planner or without. All three are constants of the closure, so the branches not taken
    are pruned before typing: a plain run never compiles the checks, the search nor the planner."""
    @njit(cache=True)
    def run_batch(master, first, T, R, lineup, params, seats, group, out, coverage):
        """Play games first .. first+len(out)-1 of the run with seed `master`. Seat j of game
        first + g is played by lineup[seats[g, j]] (the plan decides: fixed, rotating or drawn);
        game i uses the seed of index i // group (group = players for mirrored games: the same
        shuffles, every seat rotation). One row of out per game; coverage[card, ST_*] adds up the
        games' coverage statistics."""
        s = new_search_state(T, R, lineup, params)    # with the arena a search agent or planner needs
        players = rule(s, R_PLAYERS)
        totals = np.zeros(rule(s, R_NC), DTYPE)
        work = np.zeros(rule(s, R_NC), DTYPE)
        for g in range(out.shape[0]):
            index = first + g
            for j in range(players):   # init_game leaves the lineup block as it is: set it every game
                k = seats[g, j]
                seat_agent(s, j, lineup[k], params[k])
            init_game(s, game_seed(master, index // group))
            out[g, :] = 0
            out[g, RES_GAME] = index
            if validate:
                card_totals(s, totals, work)
                if search and plan:
                    err = play_checked_search_plan(s, totals, work)
                elif search:
                    err = play_checked_search(s, totals, work)
                elif plan:
                    err = play_checked_plan(s, totals, work)
                else:
                    err = play_checked(s, totals, work)
            elif search and plan:
                err = play_out_search_plan(s)
            elif search:
                err = play_out_search(s)
            elif plan:
                err = play_out_plan(s)
            else:
                err = play_out(s)
            record(s, out[g])
            out[g, RES_ERROR] = err
            stats = s[H_OFF_STATS]
            for c in range(coverage.shape[0]):
                for k in range(N_STATS):
                    coverage[c, k] += s[stats + c * N_STATS + k]

    return run_batch


# BATCH_LOOPS[validate, search, plan]: each compiled apart, only when a run needs it
BATCH_LOOPS = {(v, search, plan): _batch(v, search, plan)
               for v in (False, True) for search in (False, True) for plan in (False, True)}
run_batch = {v: BATCH_LOOPS[v, False, False] for v in (False, True)}
run_batch_search = {v: BATCH_LOOPS[v, True, False] for v in (False, True)}


def batch_loop(validate, ids):
    """The batch loop a plan needs: with the checks or not, with the search agent or not, with the
    turn planner or not."""
    return BATCH_LOOPS[(bool(validate),) + needs(ids)]
