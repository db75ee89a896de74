"""The tuner's game loop: a schedule of games, each a game seed and the parameter row that plays
each seat, so one compiled call plays every candidate of a generation against every opponent.
Candidates are rows of data, never code: a new candidate never compiles anything."""
from numba import njit

from hoc.games.heart_of_crown.kernel.constants import H_WIN_MASK, P_SP, R_PLAYERS
from hoc.agents.search.kernel import new_search_state
from hoc.games.heart_of_crown.kernel.setup import game_seed, init_game
from hoc.games.heart_of_crown.kernel.state import pb, rule, seat_agent
from hoc.research.batch import play_out, play_out_plan, play_out_search, play_out_search_plan

OUT_WIN_MASK = 0       # bit j: seat j won
OUT_ERROR = 1          # 0, or the invariant error code of `play_out`
OUT_SP = 2             # then the final SP of each seat
OUT_LEN = OUT_SP + 4


def _schedule(search, plan=False):
    """The tuner's loop, with the search agent or without, with the turn planner or without (closure
    constants: the plain loop compiles neither)."""

    @njit(cache=True)
    def play_schedule(master, T, R, ids, rows, seed_index, seats, out):
        """Play game g of the schedule for each g: its seed is game `seed_index[g]` of the run with seed
        `master` (equal indices deal equal markets and shuffles), seat j is played by agent `ids[k]` with
        parameter row `rows[k]`, where k = seats[g, j]. One row of `out` (OUT_*) per game."""
        s = new_search_state(T, R, ids, rows)
        players = rule(s, R_PLAYERS)
        for g in range(seats.shape[0]):
            for j in range(players):          # init_game leaves the lineup block as it is
                k = seats[g, j]
                seat_agent(s, j, ids[k], rows[k])
            init_game(s, game_seed(master, seed_index[g]))
            if search and plan:
                out[g, OUT_ERROR] = play_out_search_plan(s)
            elif search:
                out[g, OUT_ERROR] = play_out_search(s)
            elif plan:
                out[g, OUT_ERROR] = play_out_plan(s)
            else:
                out[g, OUT_ERROR] = play_out(s)
            out[g, OUT_WIN_MASK] = s[H_WIN_MASK]
            for j in range(players):
                out[g, OUT_SP + j] = s[pb(s, j) + P_SP]

    return play_schedule


_play_schedule = {(search, plan): _schedule(search, plan) for search in (False, True) for plan in (False, True)}


def play_schedule(master, T, R, ids, rows, seed_index, seats, out):
    """The tuner's loop for these agent ids (with the search or the planner compiled in only when a
    seat needs it)."""
    from hoc.agents.policies import needs

    _play_schedule[needs(ids)](master, T, R, ids, rows, seed_index, seats, out)
