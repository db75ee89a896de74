"""Evaluating a generation: every candidate plays the same game seeds against every opponent, in
every seat (common random numbers, seats mirrored), and successive halving stops spending games
on the clear losers.

A round plays `seeds` new seeds per opponent for each surviving candidate; each seed is played
once with the candidate in each seat and the opponent in all the others. After a round the better
half (by the score of all its games so far) goes on, and the next round plays twice as many new
seeds, until `keep` candidates are left. All candidates of a round share the round's seeds, so
their differences are not the luck of the deal.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from hoc.engine.layout import DTYPE
from hoc.engine.spec import Ruleset
from hoc.errors import InvariantError
from hoc.research.harness import Backend, run_tasks

SHAPING = 0.05       # weight of the SP margin: a signal while every candidate still loses every game
MARGIN_SCALE = 20    # SP margin of a game: (own SP - best other SP) / 20, clipped to [-1, 1]
MIN_TASK = 512       # games per parallel task at least
METERED_TASK = 4096  # games per part of a schedule played in this process while a progress line counts them


def play_games(ruleset: Ruleset, ids: np.ndarray, rows: np.ndarray, master: int, seed_index: np.ndarray,
               seats: np.ndarray, backend: Backend) -> np.ndarray:
    """Play a schedule (game g: seed `seed_index[g]` of the run `master`, seat j played by row
    `seats[g, j]`); one OUT_* row per game. The split into tasks does not change any game."""
    from hoc.agents.tune.kernel import OUT_LEN
    from hoc.research import progress

    n = len(seed_index)
    if backend.in_process:      # in parts only for a progress line that counts them (`progress.played`)
        parts = max(1, n // METERED_TASK) if progress.metering() else 1
    else:
        parts = max(1, min(n // MIN_TASK, 4 * workers(backend)))
    bounds = np.linspace(0, n, parts + 1).astype(int)
    tasks = [(ruleset.game.name, ruleset.cards.table, ruleset.vector, ids, rows, master, seed_index[a:b], seats[a:b])
             for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    done = []
    for part in run_tasks(backend, _play_task, tasks, len(tasks)):
        done.append(part)
        progress.played(len(part))
    out = np.concatenate(done) if done else np.zeros((0, OUT_LEN), DTYPE)
    bad = np.flatnonzero(out[:, 1])
    if len(bad):
        g = int(bad[0])
        raise InvariantError(f"a tuning game broke an invariant (code {int(out[g, 1])}): game {int(seed_index[g])} "
                             f"of run seed {master}, seats played by parameter rows {seats[g].tolist()}")
    return out


def workers(backend: Backend) -> int:
    """Worker processes: --jobs, or the workers of the Dask cluster."""
    if backend.name == "dask":
        return max(1, len(backend.connect().scheduler_info().get("workers", {})))
    return backend.jobs


def _play_task(game, T, R, ids, rows, master, seed_index, seats) -> np.ndarray:
    from hoc.agents.tune.kernel import OUT_LEN, play_schedule   # imported in the worker: loads the compiled code

    out = np.zeros((len(seed_index), OUT_LEN), DTYPE)
    play_schedule(np.int64(master), game, T, R, ids, rows, seed_index.astype(np.int64), seats.astype(DTYPE), out)
    return out


def share(win_mask: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """What each game gives `seat` (per game): 1 for a win, 1/k for a win shared by k seats, 0 else."""
    mask = np.asarray(win_mask).astype(np.int64)
    return ((mask >> seat) & 1) / np.maximum(np.bitwise_count(mask), 1)


def score(wins: np.ndarray, games: np.ndarray, margin: np.ndarray, fair: float) -> np.ndarray:
    """Per candidate (row) over its opponents (columns): the mean win rate, minus the mean shortfall
    below the fair share (so every point short of it against one opponent counts twice: a plan must
    beat each opponent, not the average), plus SHAPING times the mean SP margin."""
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = wins / games
        return rate.mean(1) - np.maximum(0.0, fair - rate).mean(1) + SHAPING * (margin / games).mean(1)


@dataclass
class Race:
    """A generation's results: per candidate and opponent, games won (a win shared by k seats counts
    1/k: at 3 and 4 players a plan gains nothing by steering games to a tie) and played and the summed SP
    margin; per candidate the last round it played; `order` ranks the candidates (later rounds
    first, then by score); `games_played` counts every game."""

    wins: np.ndarray
    games: np.ndarray
    margin: np.ndarray
    reached: np.ndarray
    score: np.ndarray
    order: np.ndarray
    games_played: int

    def fitness(self) -> np.ndarray:
        """A number per candidate that orders them as `order` does (higher is better)."""
        return 10.0 * self.reached + np.nan_to_num(self.score, nan=-1.0)

    def rates(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.wins / self.games


def _mirrored(alive: np.ndarray, C: int, O: int, seeds: int, players: int, base: int):
    """A round's schedule: each candidate of `alive` (row c) against each opponent (row C + o) on
    `seeds` seeds of the opponent (seed index base + o * seeds + i), once in every seat t with the
    opponent in the others; (c, o, t, seed_index, seats) per game, candidate-major."""
    c, o, i, t = (a.ravel() for a in np.meshgrid(alive, np.arange(O), np.arange(seeds), np.arange(players),
                                                  indexing="ij"))
    seats = np.repeat((C + o)[:, None], players, axis=1)
    seats[np.arange(len(c)), t] = c
    return c, o, t, base + o * seeds + i, seats


@dataclass
class Seeds:
    """Every candidate's games against one opponent on common seeds (`seed_games`): for candidate c,
    seed i and the candidate's seat t, what that seat won (`share`) and the card ids it owned at the end."""

    won: np.ndarray        # (candidates, seeds, players) 1 a win, 1/k a win shared by k seats, 0 a loss
    owned: np.ndarray      # (candidates, seeds, players) bits of card ids 0-63 (uint64)

    def share(self) -> np.ndarray:
        """The candidate's share of each seed's games won, one row per candidate."""
        return self.won.mean(2)

    def owning(self, cards) -> np.ndarray:
        """Per candidate, the share of its seats that ended owning any of the card ids `cards`."""
        mask = np.uint64(sum(1 << int(c) for c in cards))
        return ((self.owned & mask) != 0).mean((1, 2))


def seed_games(ruleset: Ruleset, candidates: np.ndarray, opponent: np.ndarray, opponent_id: int, master: int,
               seeds: int, backend: Backend) -> Seeds:
    """Every candidate row against one opponent row on the same `seeds` seeds (common random
    numbers), each seed played with the candidate in every seat. The games are the first round of a
    `race` with the same master seed."""
    from hoc.agents.tune.kernel import OUT_OWNED

    list_id = ruleset.game.catalog().row_kind

    C, players = len(candidates), ruleset.players
    rows = np.concatenate([candidates, opponent[None, :]]).astype(DTYPE)
    ids = np.array([list_id(r) for r in candidates] + [opponent_id], DTYPE)
    c, o, t, seed_index, seats = _mirrored(np.arange(C), C, 1, seeds, players, 0)
    out = play_games(ruleset, ids, rows, master, seed_index, seats, backend)
    g = np.arange(len(t))
    low, high = (out[g, OUT_OWNED + 2 * t + h].astype(np.int64) & 0xFFFFFFFF for h in (0, 1))
    owned = (low | (high << 32)).astype(np.uint64)
    return Seeds(share(out[:, 0], t).reshape(C, seeds, players), owned.reshape(C, seeds, players))


def per_seed(ruleset: Ruleset, candidates: np.ndarray, opponent: np.ndarray, opponent_id: int, master: int,
             seeds: int, backend: Backend) -> np.ndarray:
    """`seed_games`' share of each seed's games won by each candidate, one row per candidate."""
    return seed_games(ruleset, candidates, opponent, opponent_id, master, seeds, backend).share()


def race_games(candidates: int, players: int, opponents: int = 1, seeds: int = 8, keep: int = 2) -> int:
    """The games a `race` of `candidates` plays (its rounds' sizes are fixed by its settings alone)."""
    games, alive = 0, candidates
    while True:
        games += alive * opponents * seeds * players
        if alive <= keep:
            return games
        alive = math.ceil(alive / 2)
        seeds *= 2


def race(ruleset: Ruleset, candidates: np.ndarray, opponents: np.ndarray, opponent_ids: np.ndarray, master: int,
         backend: Backend, seeds: int = 8, keep: int = 2, penalty: np.ndarray | None = None) -> Race:
    """Successive halving of the candidate parameter rows (priority lists) against the opponents
    (parameter rows and the ids of their jitted policies). `penalty` is taken off each candidate's
    score (a parsimony tie-break: plans that play the same games rank by size). A candidate's kind is
    what its game reads of its row (the catalog's `row_kind`: a plain or a planning list)."""
    list_id = ruleset.game.catalog().row_kind

    players = ruleset.players
    C, O = len(candidates), len(opponents)
    rows = np.concatenate([candidates, opponents]).astype(DTYPE)
    ids = np.concatenate([[list_id(r) for r in candidates], opponent_ids]).astype(DTYPE)
    wins = np.zeros((C, O))                  # a win shared by k seats counts 1/k (a score, as `hoc simulate`'s)
    games = np.zeros((C, O), np.int64)
    margin = np.zeros((C, O))
    reached = np.zeros(C, np.int64)
    alive = np.arange(C)
    base, played, r = 0, 0, 0
    fair = 1.0 / players
    penalty = np.zeros(C) if penalty is None else np.asarray(penalty, float)
    while True:
        c, o, t, seed_index, seats = _mirrored(alive, C, O, seeds, players, base)
        out = play_games(ruleset, ids, rows, master, seed_index, seats, backend)
        won = share(out[:, 0], t)
        sp = out[:, 2:2 + players].astype(float)
        own = sp[np.arange(len(c)), t]
        sp[np.arange(len(c)), t] = -np.inf
        m = np.clip((own - sp.max(1)) / MARGIN_SCALE, -1.0, 1.0)
        np.add.at(wins, (c, o), won)
        np.add.at(games, (c, o), 1)
        np.add.at(margin, (c, o), m)
        reached[alive] = r
        played += len(c)
        base += O * seeds
        if len(alive) <= keep:
            break
        s = score(wins[alive], games[alive], margin[alive], fair) - penalty[alive]
        alive = alive[np.lexsort((alive, -s))][:math.ceil(len(alive) / 2)]
        alive.sort()
        seeds *= 2
        r += 1
    s = score(wins, games, margin, fair) - penalty
    order = np.lexsort((np.arange(C), -s, -reached))
    return Race(wins, games, margin, reached, s, order, played)

