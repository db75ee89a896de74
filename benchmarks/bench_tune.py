"""Tuning speed against the archetype round robin on the same cores (a script that prints numbers,
never a timed test).

    python benchmarks/bench_tune.py [--market siege] [--games 300000] [--jobs 1] [--seed 0]

Prints, on one market (2 players):
- the archetype round robin: every pair of the priority-list agents (the archetypes and
  basic_rush), 2,000 games each, seats rotated: with --jobs 1 the jitted loop alone (as
  bench_engine.py measures it, without result frames), with more jobs through the harness;
- the tuner: a search from nothing with a budget of --games games, everything included (drawing
  and parsing candidates, racing, CMA-ES, the checkpoint after each generation), without the final
  playoff and validation;
- the tuner's rate as a share of the round robin's (the floor: 70%).
With --jobs 1 the rates are games per second of process time (so a busy shared machine does not
bias them); with --jobs J > 1, of wall time on J worker processes.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from itertools import combinations
from pathlib import Path


def round_robin_rate(market: str, jobs: int, games: int = 2000) -> float:
    from hoc.agents.registry import AGENTS
    from hoc.games.heart_of_crown.agents.catalog import archetypes
    from hoc.research.harness import Backend, Plan, play, play_rows
    from hoc.games.heart_of_crown.rules import Ruleset

    rs = Ruleset(players=2, market=market)
    names = [a.name for a in archetypes()]
    plans = [Plan(rs, [AGENTS[a], AGENTS[b]], games, seed=2, rotate=True, chunk=max(games // max(jobs, 1), 1))
             for a, b in combinations(names, 2)]
    backend = Backend(jobs)
    list(play(Plan(rs, [AGENTS[names[0]], AGENTS[names[1]]], 100, seed=1), backend))      # load the workers
    if jobs == 1:               # the jitted loop alone, as bench_engine measures it: no result frames
        t = time.process_time()
        for plan in plans:
            play_rows(plan, 0, games)
        return len(plans) * games / (time.process_time() - t)
    t = time.perf_counter()
    for plan in plans:
        for _ in play(plan, backend):
            pass
    return len(plans) * games / (time.perf_counter() - t)


def tune_rate(market: str, jobs: int, games: int, seed: int) -> tuple[float, int, int]:
    """(games per second, games played, generations) of a search from nothing."""
    from hoc.games.heart_of_crown.agents.catalog import archetypes
    from hoc.games.heart_of_crown.agents.tuning.search import Budget, Settings, run
    from hoc.research.harness import Backend
    from hoc.games.heart_of_crown.rules import Ruleset

    rs = Ruleset(players=2, market=market)
    opponents = tuple(archetypes())
    backend = Backend(jobs)
    clock = time.process_time if jobs == 1 else time.perf_counter
    with tempfile.TemporaryDirectory() as tmp:
        run(Settings(rs, opponents, seed), Budget(games=1), Path(tmp) / "warm", backend)   # load the kernels
        t = clock()
        state = run(Settings(rs, opponents, seed), Budget(games=games), Path(tmp) / "run", backend)
        return state.games / (clock() - t), state.games, state.generation


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--market", default="siege")
    ap.add_argument("--games", type=int, default=300_000, help="the tuner's budget")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    import hoc  # noqa: F401  (sets the compiled-code cache folder)

    unit = "process time" if args.jobs == 1 else f"wall time, {args.jobs} workers"
    rr = round_robin_rate(args.market, args.jobs)
    print(f"archetype round robin, market {args.market}, 2 players: {rr:,.0f} games/s ({unit})")
    rate, games, generations = tune_rate(args.market, args.jobs, args.games, args.seed)
    print(f"hoc tune from nothing, market {args.market}: {rate:,.0f} games/s ({unit}; {games:,} games, "
          f"{generations} generations)")
    print(f"tuning rate / round-robin rate: {100 * rate / rr:.0f}% (floor: 70%)")


if __name__ == "__main__":
    main()
