"""The research batch loop: a run's games, played by index with jitted agents, one result row each.

Its games are played by the engine's loops (`hoc.engine.loops`) for the game of the ruleset (its
`GameSpec`), with that game's jitted deciders (`GameSpec.deciders`, the lineup's variant)."""
import numpy as np
from numba import njit

from hoc.agents.deciders import state_for
from hoc.agents.ids import built, loops_for
from hoc.engine.layout import DTYPE, H_OFF_STATS, N_STATS, RES_ERROR, RES_GAME, R_PLAYERS
from hoc.engine.state import rule, seat_agent

def _batch(loops, validate):
    """The batch loop of a game's loops (`game_loops`), with the invariant checks or without
    (`validate`, a constant of the closure: a plain run never compiles the checks)."""
    rules = loops.rules

    @njit(cache=True)
    def run_batch(master, first, s, lineup, params, seats, group, out, coverage, totals, work):
        """Play games first .. first+len(out)-1 of the run with seed `master` in the state s (made for
        the run's rules and lineup: `state_for`). Seat j of game first + g is played by
        lineup[seats[g, j]] (the plan decides: fixed, rotating or drawn); game i uses the seed of
        index i // group (group = players for mirrored games: the same shuffles, every seat
        rotation). One row of out per game; coverage[card, ST_*] adds up the games' coverage
        statistics; totals and work are scratch of one int per card for the checks."""
        players = rule(s, R_PLAYERS)
        for g in range(out.shape[0]):
            index = first + g
            for j in range(players):   # init_game leaves the lineup block as it is: set it every game
                k = seats[g, j]
                seat_agent(s, j, lineup[k], params[k])
            rules.init_game(s, rules.game_seed(master, index // group))
            out[g, :] = 0
            out[g, RES_GAME] = index
            if validate:
                rules.card_totals(s, totals, work)
                err = loops.play_checked(s, totals, work)
            else:
                err = loops.play_out(s)
            rules.record(s, out[g])
            out[g, RES_ERROR] = err
            stats = s[H_OFF_STATS]
            for c in range(coverage.shape[0]):
                for k in range(N_STATS):
                    coverage[c, k] += s[stats + c * N_STATS + k]

    return run_batch


def batch_loop(ruleset, validate, ids):
    """The batch loop a plan needs: for its ruleset's game (`ruleset.game`, a `GameSpec`), with the
    checks or not, with the search agent or not, with the turn planner or not (each made and compiled
    only when a run needs it)."""
    return built(_batch, loops_for(ruleset.game, ruleset.vector, ids), bool(validate))


def play(ruleset, validate, ids, params, master, first, seats, group, out, coverage) -> None:
    """Play games first .. first+len(out)-1 of a run on `ruleset` with the lineup (agent ids, parameter
    rows) into `out` and `coverage` (see `run_batch`), in a state made here for them."""
    s = state_for(ruleset, ids, params)       # with the arena a search agent or planner needs
    nc = len(ruleset.cards)
    batch_loop(ruleset, validate, ids)(master, first, s, ids, params, seats, group, out, coverage,
                                       np.zeros(nc, DTYPE), np.zeros(nc, DTYPE))
