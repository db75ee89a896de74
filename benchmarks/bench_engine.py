"""Engine speed figures (a script that prints numbers, never a timed test).

    python benchmarks/bench_engine.py [--games N]

Prints: cold start (compiling into an empty cache) and warm start of `hoc simulate`, games per
second (best of 3 runs) of 2-player basic_rush on the basic market (pool Lulunasaika, Laolily,
Klam Klam) on one core, the same with --jobs 2, and 2-player games on random markets (all six
princesses; random markets use the implemented common kinds) for basic_rush and random agents, and
the archetype round robin (every pair of priority-list agents, 3,000 games each, seats rotated) on
one core, in process time (issue 4's target: 20,000 games/s per core).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time


def start_time(cache_dir: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "hoc.cli", "simulate", "--market", "basic", "--games", "100"],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def rate(players, market, agent, games, jobs=1, princesses=None, repeats=3) -> float:
    """Best of `repeats` runs (the machine is shared: the best run is the least disturbed)."""
    from hoc.rules import Ruleset
    from hoc.research.simulate import lineup, simulate

    rs = Ruleset(players=players, market=market, princesses=princesses)
    agents = lineup(agent, players)
    simulate(rs, agents, 200, seed=1, jobs=jobs)          # load kernels (and workers)
    return max(games / simulate(rs, agents, games, seed=2 + r, jobs=jobs).wall_seconds for r in range(repeats))


def archetype_rate(games: int = 3000) -> tuple[float, float]:
    """Every pair of the priority-list agents (the archetypes and basic_rush), seats rotated, in
    process time: (the jitted games alone, whole `simulate` calls with their result frames)."""
    from itertools import combinations

    from hoc.agents.registry import AGENTS
    from hoc.research.harness import Plan, play_rows
    from hoc.rules import Ruleset
    from hoc.research.simulate import lineup, simulate

    rs = Ruleset(players=2)
    names = [n for n, a in AGENTS.items() if a.play is None and n != "random"]
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
    args = ap.parse_args()
    if not args.skip_cold:
        with tempfile.TemporaryDirectory() as tmp:
            cold = start_time(tmp)
            warm = start_time(tmp)
        print(f"start of `hoc simulate --games 100`: cold (compiling) {cold:.1f} s, warm (cached) {warm:.2f} s")
    import hoc  # noqa: F401  (sets the cache folder)

    pool = ("lulunasaika", "laolily", "klam_klam")
    one = rate(2, "basic", "basic_rush", args.games, princesses=pool)
    print(f"2-player basic_rush, basic market, 1 core: {one:,.0f} games/s (target 40,000)")
    two = rate(2, "basic", "basic_rush", 2 * args.games, jobs=2, princesses=pool)
    print(f"same with --jobs 2: {two:,.0f} games/s ({two / one:.2f}x)")
    for agent, n in (("basic_rush", args.games), ("random", max(2_000, args.games // 100))):
        r = rate(2, "random", agent, n, repeats=1)
        print(f"2-player {agent}, random markets, 1 core: {r:,.0f} games/s")
    jitted, whole = archetype_rate()
    print(f"2-player archetype round robin, random markets, 1 core: {jitted:,.0f} games/s in the jitted loop "
          f"(target 20,000), {whole:,.0f} games/s through simulate() in 3,000-game runs (process time)")
    print(f"numba threads: {os.environ.get('NUMBA_NUM_THREADS', 'default')}, cpu count {os.cpu_count()}")


if __name__ == "__main__":
    main()
