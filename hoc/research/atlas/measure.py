"""Plans measured against the reference panel: every plan plays the same seeds against each panel
member, once in every seat with the member in the others (common random numbers, seats mirrored), a
shared win counting 1/k. A plan's fitness is its mean share of the wins over the panel; its
descriptors are measured from its own seats of those games.

The games of a batch are one schedule of the tuner's loop (`hoc.agents.tune.kernel.play_profiled`),
split over the backend's workers; the split changes no game.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from hoc.engine import layout as L
from hoc.engine.layout import DTYPE
from hoc.errors import InvariantError
from hoc.agents.tune.evaluate import METERED_TASK, workers
from hoc.research.harness import Backend, run_tasks

MIN_TASK = 256          # games per parallel task at least
MAX_CARDS = 64          # card ids a deck is counted over (a result row's owned bits cover as many)


@dataclass
class Measured:
    """Per plan: its fitness (mean share of the wins), each seed's share against each panel member
    (`shares`: plans x members x seeds, for intervals over seeds), its descriptors (plans x
    descriptors) and its mean copies of each card id at the end (`copies`: plans x cards)."""

    fitness: np.ndarray
    shares: np.ndarray
    descriptors: np.ndarray
    copies: np.ndarray

    def interval(self, i: int) -> tuple[float, float]:
        """A 95% interval of plan i's fitness over seeds (the seed is the unit: its games share a deal)."""
        per_seed = self.shares[i].mean(0)
        n = len(per_seed)
        if n < 2:
            return math.nan, math.nan
        from scipy.stats import t

        half = float(t.ppf(0.975, n - 1)) * float(per_seed.std(ddof=1)) / math.sqrt(n)
        m = float(per_seed.mean())
        return max(0.0, m - half), min(1.0, m + half)


def schedule(plans: int, members: int, seeds: int, players: int, first: int):
    """Each plan (row p) against each member (row plans + m) on `seeds` seeds of that member (game
    index first + m * seeds + i), once in every seat t with the member in the others: (p, m, i, t,
    seed_index, seats) per game, plan-major."""
    p, m, i, t = (a.ravel() for a in np.meshgrid(np.arange(plans), np.arange(members), np.arange(seeds),
                                                  np.arange(players), indexing="ij"))
    seats = np.repeat((plans + m)[:, None], players, axis=1)
    seats[np.arange(len(p)), t] = p
    return p, m, i, t, first + m * seeds + i, seats


def measure(space, xs: np.ndarray, panel, master: int, seeds: int, first: int, backend: Backend,
            descriptors: tuple[str, ...]) -> Measured:
    """Plans `xs` (points of the game's space) against the panel (agents) on `seeds` seeds each."""
    ruleset = space.ruleset
    players = ruleset.players
    plans = [space.row(x) for x in xs]
    ids = np.array([k for k, _ in plans] + [a.id for a in panel], DTYPE)
    rows = np.stack([r for _, r in plans] + [a.params(ruleset) for a in panel]).astype(DTYPE)
    P, M = len(plans), len(panel)
    p, m, i, t, seed_index, seats = schedule(P, M, seeds, players, first)
    won, results, copies = play(ruleset, ids, rows, master, seed_index, seats, backend)
    g = np.arange(len(t))
    mask = won.astype(np.int64)
    winners = sum((mask >> j) & 1 for j in range(players))
    share = np.where((mask >> t) & 1 == 1, 1.0 / np.maximum(winners, 1), 0.0)
    shares = share.reshape(P, M, seeds, players).mean(3)
    mine = copies[g, t]                                  # the plan's own deck in each game
    seat = L.RES_SEAT + t * L.RES_SEAT_SZ
    from hoc.agents.plan_space import Profile, descriptor

    chosen = [descriptor(space, d) for d in descriptors]
    D = np.zeros((P, len(chosen)))
    per_plan = len(g) // P
    for k in range(P):
        s = slice(k * per_plan, (k + 1) * per_plan)
        prof = Profile(mine[s], results[g[s], seat[s] + L.RES_OWN_TURNS], results[g[s], seat[s] + L.RES_SCORE],
                       np.stack([results[g[s], seat[s] + L.RES_EXTRA + e] for e in range(2)], 1))
        D[k] = [d.of(prof) for d in chosen]
    return Measured(shares.mean((1, 2)), shares, D, mine.reshape(P, per_plan, -1).mean(1))


def play(ruleset, ids, rows, master: int, seed_index: np.ndarray, seats: np.ndarray, backend: Backend):
    """A schedule's games: per game the win mask, the result row and every seat's copies of each card."""
    from hoc.research import progress

    n = len(seed_index)
    if backend.in_process:      # in parts only for a progress line that counts them (`progress.played`)
        parts = max(1, n // METERED_TASK) if progress.metering() else 1
    else:
        parts = max(1, min(n // MIN_TASK, 4 * workers(backend)))
    bounds = np.linspace(0, n, parts + 1).astype(int)
    tasks = [(ruleset.game.name, ruleset.cards.table, ruleset.vector, ids, rows, master, seed_index[a:b], seats[a:b])
             for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    parts = []
    for part in run_tasks(backend, _task, tasks, len(tasks)):
        parts.append(part)
        progress.played(len(part[0]))
    out = np.concatenate([o for o, _, _ in parts])
    results = np.concatenate([r for _, r, _ in parts])
    copies = np.concatenate([c for _, _, c in parts])
    bad = np.flatnonzero(out[:, 1])
    if len(bad):
        k = int(bad[0])
        raise InvariantError(f"an atlas game broke an invariant (code {int(out[k, 1])}): game {int(seed_index[k])} "
                             f"of run seed {master}, seats played by rows {seats[k].tolist()}")
    return out[:, 0], results, copies


def _task(game, T, R, ids, rows, master, seed_index, seats):
    from hoc.agents.tune.kernel import OUT_LEN, play_profiled   # imported in the worker: loads the compiled code

    n = len(seed_index)
    out = np.zeros((n, OUT_LEN), DTYPE)
    results = np.zeros((n, L.RES_LEN), DTYPE)
    copies = np.zeros((n, L.MAX_SEATS, MAX_CARDS), DTYPE)
    play_profiled(np.int64(master), game, T, R, ids, rows, seed_index.astype(np.int64), seats.astype(DTYPE), out,
                  results, copies)
    return out, results, copies
