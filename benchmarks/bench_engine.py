"""Engine speed figures (a script that prints numbers, never a timed test).

    python benchmarks/bench_engine.py [--games N] [--skip-cold] [--against REV]

With `--against REV` (a git revision, e.g. the last release or `HEAD~5`) it first prints the same
figures for that revision, checked out in a temporary worktree and run from there, then this tree's:
before and after in one run, on the same machine in the same minutes. The machine may be shared,
and on Linux a process of another session takes a core whatever its nice value (autogroups): the
figures are of a quiet machine only.

Prints: cold start (compiling into an empty cache) and warm start of `hoc simulate` (as
`bench_compile.py` measures them), games per second (best of 3 runs, play time only) of 2-player
basic_rush on the basic market (pool Lulunasaika, Laolily, Klam Klam) on one core, the same with --jobs 2, and 2-player games on random markets (all six
princesses; random markets use the implemented common kinds) for basic_rush and random agents, and
the archetype round robin (every pair of priority-list agents, 3,000 games each, seats rotated) on
one core, in process time (the target: 20,000 games/s per core).
"""
from __future__ import annotations

import argparse
import os
import time


def rate(players, market, agent, games, jobs=1, princesses=None, repeats=3) -> float:
    """Best of `repeats` runs (the machine is shared: the best run is the least disturbed)."""
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.research.simulate import lineup, simulate

    rs = Ruleset(players=players, market=market, princesses=princesses)
    agents = lineup(agent, players)
    simulate(rs, agents, 200, seed=1, jobs=jobs)          # load kernels (and workers)
    return max(games / simulate(rs, agents, games, seed=2 + r, jobs=jobs).play_seconds for r in range(repeats))


def jitted_rate(players, market, agent, games, princesses=None, repeats=3) -> float:
    """Best of `repeats` runs of the jitted games alone (the batch loop, no result frames), process time."""
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.research.harness import Plan, play_rows
    from hoc.research.simulate import lineup

    rs = Ruleset(players=players, market=market, princesses=princesses)
    agents = lineup(agent, players)
    play_rows(Plan(rs, agents, 200, seed=1), 0, 200)
    best = 0.0
    for r in range(repeats):
        plan = Plan(rs, agents, games, seed=2 + r)
        t = time.process_time()
        for first in range(0, games, plan.chunk):
            play_rows(plan, first, min(plan.chunk, games - first))
        best = max(best, games / (time.process_time() - t))
    return best


def cli_rate(games: int, princesses) -> float:
    """`hoc simulate --json` in a new process (2-player basic_rush, basic market): its games/s."""
    import json
    import subprocess
    import sys

    argv = [sys.executable, "-m", "hoc", "simulate", "--market", "basic", "--princesses", ",".join(princesses),
            "--games", str(games), "--seed", "2", "--json"]
    subprocess.run(argv, capture_output=True, check=True)          # a warm cache
    return max(json.loads(subprocess.run(argv, capture_output=True, check=True, text=True).stdout)["games_per_second"]
               for _ in range(3))


def against(rev: str, games: int) -> None:
    """The figures of revision `rev`, from a temporary worktree of it (its own benchmark script)."""
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "-q", str(tree), rev], check=True)
        try:
            print(f"== {rev} ({subprocess.run(['git', '-C', str(tree), 'log', '-1', '--format=%h %s'], capture_output=True, text=True).stdout.strip()[:70]})", flush=True)
            env = {**os.environ, "PYTHONPATH": str(tree)}
            subprocess.run([sys.executable, str(tree / "benchmarks" / "bench_engine.py"), "--skip-cold",
                            "--games", str(games)], cwd=tree / "benchmarks", env=env, check=False)
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], check=False)
    print("== this tree", flush=True)


def archetype_rate(games: int = 3000) -> tuple[float, float]:
    """Every pair of the priority-list agents (the archetypes and basic_rush), seats rotated, in
    process time: (the jitted games alone, whole `simulate` calls with their result frames)."""
    from itertools import combinations

    from hoc.games.heart_of_crown.agents.catalog import archetypes
    from hoc.research.harness import Plan, play_rows
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.research.simulate import lineup, simulate

    rs = Ruleset(players=2)
    names = [a.name for a in archetypes()]
    pairs = [lineup(f"{a},{b}", 2) for a, b in combinations(names, 2)]
    simulate(rs, pairs[0], 200, seed=1, rotate=True)
    plans = [Plan(rs, agents, games, seed=2, rotate=True) for agents in pairs]
    t = time.process_time()
    for plan in plans:
        play_rows(plan, 0, games)
    jitted = len(pairs) * games / (time.process_time() - t)
    t = time.process_time()
    for agents in pairs:
        simulate(rs, agents, games, seed=2, rotate=True)
    return jitted, len(pairs) * games / (time.process_time() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--skip-cold", action="store_true", help="skip the cold-start measurement")
    ap.add_argument("--against", metavar="REV", help="first the figures of this git revision (before and after)")
    args = ap.parse_args()
    if args.against:
        against(args.against, args.games)
    if not args.skip_cold:
        from bench_compile import cold_and_warm     # benchmarks/ is on the path of a script run from it

        cold, warm = cold_and_warm()
        print(f"start of `hoc simulate` (10,000 games): cold (compiling) {cold['wall']:.1f} s wall, "
              f"{cold['cpu']:.1f} s CPU; warm (cached) {warm['wall']:.1f} s wall, {warm['cpu']:.1f} s CPU "
              f"(benchmarks/bench_compile.py for details)")
    import hoc  # noqa: F401  (sets the cache folder)

    pool = ("lulunasaika", "laolily", "klam_klam")
    one = rate(2, "basic", "basic_rush", args.games, princesses=pool)
    print(f"2-player basic_rush, basic market, 1 core: {one:,.0f} games/s (target 70,000)")
    print(f"  in the jitted loop alone: {jitted_rate(2, 'basic', 'basic_rush', args.games, princesses=pool):,.0f} "
          f"games/s; through `hoc simulate --json`: {cli_rate(args.games, pool):,.0f} games/s", flush=True)
    two = rate(2, "basic", "basic_rush", 2 * args.games, jobs=2, princesses=pool)
    print(f"same with --jobs 2: {two:,.0f} games/s ({two / one:.2f}x)")
    for agent, n in (("basic_rush", args.games), ("random", max(2_000, args.games // 100))):
        r = rate(2, "random", agent, n, repeats=1)
        print(f"2-player {agent}, random markets, 1 core: {r:,.0f} games/s")
    jitted, whole = archetype_rate()
    print(f"2-player archetype round robin, random markets, 1 core: {jitted:,.0f} games/s in the jitted loop "
          f"(target 45,000), {whole:,.0f} games/s through simulate() in 3,000-game runs (process time)")
    print(f"numba threads: {os.environ.get('NUMBA_NUM_THREADS', 'default')}, cpu count {os.cpu_count()}")


if __name__ == "__main__":
    main()
