"""The tuner's game loop: a schedule of games, each a game seed and the parameter row that plays
each seat, so one compiled call plays every candidate of a generation against every opponent.
Candidates are rows of data, never code: a new candidate never compiles anything. The games are
played by the engine's loops (`hoc.engine.loops`) for the ruleset's game."""
import numpy as np
from numba import njit

from hoc.agents.ids import built, loops_for
from hoc.engine.layout import H_WIN_MASK, MAX_SEATS, RES_LEN, RES_OWNED, RES_SCORE, RES_SEAT, RES_SEAT_SZ, R_PLAYERS
from hoc.engine.state import rule, seat_agent

OUT_WIN_MASK = 0       # bit j: seat j won
OUT_ERROR = 1          # 0, or the invariant error code of `play_out`
OUT_SP = 2             # then the final score of each seat
OUT_OWNED = OUT_SP + MAX_SEATS   # then the cards each seat owned at the end: bits of card ids 0-31, 32-63
OUT_LEN = OUT_OWNED + 2 * MAX_SEATS

def _schedule(loops):
    """The tuner's loop over a game's loops (`game_loops`: with or without the search agent and the
    turn planner, as the lineup needs)."""
    rules = loops.rules

    @njit(cache=True)
    def play_schedule(master, s, ids, rows, seed_index, seats, out, result):
        """Play game g of the schedule for each g in the state s (made for the rules and the lineup):
        its seed is game `seed_index[g]` of the run with seed `master` (equal indices deal equal
        markets and shuffles), seat j is played by agent `ids[k]` with parameter row `rows[k]`, where
        k = seats[g, j]. One row of `out` (OUT_*) per game; `result` is scratch for a result row."""
        players = rule(s, R_PLAYERS)
        for g in range(seats.shape[0]):
            for j in range(players):          # init_game leaves the lineup block as it is
                k = seats[g, j]
                seat_agent(s, j, ids[k], rows[k])
            rules.init_game(s, rules.game_seed(master, seed_index[g]))
            out[g, OUT_ERROR] = loops.play_out(s)
            out[g, OUT_WIN_MASK] = s[H_WIN_MASK]
            rules.record(s, result)
            for j in range(players):
                out[g, OUT_SP + j] = result[RES_SEAT + j * RES_SEAT_SZ + RES_SCORE]
                for h in range(2):      # 32 bits a field: the int32 row keeps them, sign and all
                    out[g, OUT_OWNED + 2 * j + h] = result[RES_SEAT + j * RES_SEAT_SZ + RES_OWNED + h]

    return play_schedule


def _profiled(loops):
    """The tuner's loop that also keeps each seat's deck at the end (the strategy atlas's measure)."""
    rules = loops.rules
    schedule = _schedule(loops)

    @njit(cache=True)
    def play_profiled(master, s, ids, rows, seed_index, seats, out, results, copies):
        """`play_schedule`, game by game, keeping each game's result row (`results[g]`) and
        copies[g, j, c]: the copies of card c seat j owned at the end of game g."""
        players = rule(s, R_PLAYERS)
        for g in range(seats.shape[0]):
            schedule(master, s, ids, rows, seed_index[g:g + 1], seats[g:g + 1], out[g:g + 1], results[g])
            for j in range(players):
                rules.owned_copies(s, j, copies[g, j])

    return play_profiled


def play_schedule(master, game: str, T, R, ids, rows, seed_index, seats, out):
    """The tuner's loop for these agent ids on a ruleset (card table T, vector R) of the game named
    `game` (with the search or the planner compiled in only when a seat needs it)."""
    from hoc.games import get

    spec = get(game)
    s = spec.with_room(spec.kernel.new_state(T, R), ids, rows)
    built(_schedule, loops_for(spec, R, ids))(master, s, ids, rows, seed_index, seats, out, np.zeros(RES_LEN, s.dtype))


def play_profiled(master, game: str, T, R, ids, rows, seed_index, seats, out, results, copies):
    """`play_schedule`, keeping each game's result row in `results` (games x RES_LEN) and each seat's
    copies of each card at the end of each game in `copies` (games x seats x cards)."""
    from hoc.games import get

    spec = get(game)
    s = spec.with_room(spec.kernel.new_state(T, R), ids, rows)
    built(_profiled, loops_for(spec, R, ids))(master, s, ids, rows, seed_index, seats, out, results, copies)

