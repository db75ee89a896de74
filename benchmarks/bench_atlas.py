"""The strategy atlas's speed beside the tuner's, on the same market and cores, in one run (a script
that prints numbers, never a timed test).

    python benchmarks/bench_atlas.py [--market first_play] [--iterations 40] [--games 200000] [--jobs 1]

Prints, for Heart of Crown on one market (2 players), and for Dominion on one kingdom:
- the atlas: `--iterations` iterations of the default search (3 emitters of 12 plans, 8 seeds per
  panel member, each in every seat), everything included (decoding the plans, ribs's ask and tell,
  the checkpoint after each iteration), without the final re-measurement;
- the tuner (Heart of Crown's `hoc tune` from nothing; Dominion's evolved buy menus) with a budget of
  `--games` games;
- for each, plans measured per second and games per second, and the atlas's rates as shares of the
  tuner's.
With --jobs 1 the rates are of process time (a busy shared machine does not bias them); with more
jobs, of wall time on that many worker processes. The first pass of each only loads the compiled
code and is not counted.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def atlas_rate(ruleset, jobs: int, iterations: int) -> tuple[float, float, int]:
    """(plans per second, games per second, plans) of the atlas's search."""
    from hoc.agents.registry import get
    from hoc.research.atlas import search
    from hoc.agents.plan_space import space_of
    from hoc.research.harness import Backend

    space = space_of(ruleset)
    panel = tuple(get(n) for n in space.panel())
    backend = Backend(jobs)
    clock = time.process_time if jobs == 1 else time.perf_counter
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "warm").mkdir()
        (Path(tmp) / "run").mkdir()
        settings = search.Settings(space, panel, space.default_descriptors, iterations=1)
        search.run(settings, Path(tmp) / "warm", backend, progress=lambda line: None)       # load the kernels
        settings = search.Settings(space, panel, space.default_descriptors, seed=1, iterations=iterations)
        t = clock()
        s = search.run(settings, Path(tmp) / "run", backend, progress=lambda line: None)
        seconds = clock() - t
    return s.evaluations / seconds, s.games / seconds, s.evaluations


def heart_tune_rate(ruleset, jobs: int, games: int) -> tuple[float, float, int]:
    """(plans per second, games per second, plans) of `hoc tune` from nothing."""
    from hoc.games.heart_of_crown.agents.catalog import archetypes
    from hoc.games.heart_of_crown.agents.tuning.search import Budget, Settings, run
    from hoc.research.harness import Backend

    opponents = tuple(archetypes())
    backend = Backend(jobs)
    clock = time.process_time if jobs == 1 else time.perf_counter
    with tempfile.TemporaryDirectory() as tmp:
        run(Settings(ruleset, opponents, 0), Budget(games=1), Path(tmp) / "warm", backend)
        t = clock()
        state = run(Settings(ruleset, opponents, 0), Budget(games=games), Path(tmp) / "run", backend)
        seconds = clock() - t
    plans = state.generation * Settings(ruleset, opponents, 0).population
    return plans / seconds, state.games / seconds, plans


def dominion_tune_rate(ruleset, jobs: int, games: int) -> tuple[float, float, int]:
    """(plans per second, games per second, plans) of `hoc tune --game dominion` (jobs: in-process only)."""
    from hoc.agents.registry import get
    from hoc.games.dominion.agents import tuning

    opponents = [get("dom_smithy_bm"), get("dom_witch_bm")]
    with tempfile.TemporaryDirectory() as tmp:
        tuning.tune(ruleset, opponents, 1, 0, Path(tmp) / "warm", population=4, games_per_opponent=16,
                    validate_games=2, progress=lambda line: None)
        t = time.process_time()
        r = tuning.tune(ruleset, opponents, games, 0, Path(tmp) / "run", validate_games=2, progress=lambda line: None)
        seconds = time.process_time() - t
    plans = r.generations * (24 + 6)        # population and parents, every one measured each generation
    return plans / seconds, r.games / seconds, plans


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--market", default="first_play", help="Heart of Crown's market (a preset or 10 kinds)")
    ap.add_argument("--kingdom", default="first_game", help="Dominion's kingdom")
    ap.add_argument("--iterations", type=int, default=40, help="the atlas's iterations")
    ap.add_argument("--games", type=int, default=200_000, help="the tuner's budget in games")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    import hoc  # noqa: F401  (sets the compiled-code cache folder)
    from hoc.games.dominion.rules import Ruleset as DominionRules
    from hoc.games.heart_of_crown.rules import Ruleset

    unit = "process time" if args.jobs == 1 else f"wall time, {args.jobs} workers"
    for title, ruleset, tune in (("Heart of Crown, market " + args.market, Ruleset(players=2, market=args.market),
                                  heart_tune_rate),
                                 ("Dominion, kingdom " + args.kingdom, DominionRules(players=2, market=args.kingdom),
                                  dominion_tune_rate)):
        a_plans, a_games, a_n = atlas_rate(ruleset, args.jobs, args.iterations)
        t_plans, t_games, t_n = tune(ruleset, args.jobs, args.games)
        print(f"{title}, 2 players ({unit}):")
        print(f"  atlas: {a_plans:,.1f} plans/s, {a_games:,.0f} games/s ({a_n:,} plans)")
        print(f"  tuner: {t_plans:,.1f} plans/s, {t_games:,.0f} games/s ({t_n:,} plans)")
        print(f"  atlas / tuner: {100 * a_plans / t_plans:.0f}% of the plans/s, {100 * a_games / t_games:.0f}% of the "
              f"games/s")


if __name__ == "__main__":
    main()
