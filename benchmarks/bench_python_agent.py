"""Python-agent speed: 2-player games per second on one core with both seats played by the Python
agent `hoc.games.heart_of_crown.agents.examples:basic_rush_py` (through `hoc.games.heart_of_crown.game.Game`, stepped by the harness), and
the jitted `basic_rush` on the same games for scale. A script that prints figures, never a timed test.

    python benchmarks/bench_python_agent.py [--games N] [--repeats R] [--market random|basic]

Speeds are in process time (CPU seconds of this process, one core: the figure does not depend on
what else the shared machine runs), as the mean of R runs with its 95% t-interval. The goal:
at least 500 games/s for the Python agent (it played about 6 games/s before labels,
legal actions and card facts stopped going through pandas at every decision).
"""
from __future__ import annotations

import argparse
import statistics
import time

from scipy import stats

PYTHON_AGENT = "hoc.games.heart_of_crown.agents.examples:basic_rush_py"


def speeds(rules, agent: str, games: int, repeats: int) -> tuple[list[float], object]:
    """Games per process-second of `repeats` runs of `games` games each (fresh seeds), and the last run."""
    from hoc.research.simulate import lineup, simulate

    out, run = [], None
    for r in range(repeats):
        t = time.process_time()
        run = simulate(rules, lineup(agent, 2), games, seed=100 + r)
        out.append(games / (time.process_time() - t))
    return out, run


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:,.0f} games/s (one run: no interval)"
    half = stats.t.ppf(0.975, len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5
    return f"{mean:,.0f} games/s, 95% interval [{mean - half:,.0f}, {mean + half:,.0f}] over {len(values)} runs"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2_000, help="games per run of the Python agent (default 2,000)")
    ap.add_argument("--repeats", type=int, default=5, help="runs per agent (default 5)")
    ap.add_argument("--market", default="random", help="random (default, as `hoc simulate`) or basic")
    args = ap.parse_args()
    from hoc.research.simulate import lineup, simulate
    from hoc.games.heart_of_crown.rules import Ruleset

    rules = Ruleset(players=2, market=args.market)
    for agent in (PYTHON_AGENT, "basic_rush"):
        simulate(rules, lineup(agent, 2), 50, seed=1)          # load the compiled kernels
    python, run = speeds(rules, PYTHON_AGENT, args.games, args.repeats)
    jitted, _ = speeds(rules, "basic_rush", 50 * args.games, args.repeats)
    same = simulate(rules, lineup("basic_rush", 2), args.games, seed=100 + args.repeats - 1).games
    cols = ["winner", "end_reason", "turns", "steps", "sp_0", "sp_1"]
    decisions = run.games.steps.mean()
    mean = statistics.fmean(python)
    print(f"2 players, {args.market} markets, both seats the same agent, 1 core (process time):")
    print(f"  Python agent basic_rush_py: {interval(python)} (goal: at least 500); "
          f"{decisions:.0f} decisions per game, {1e6 / (mean * decisions):.1f} us per decision")
    print(f"  jitted basic_rush:          {interval(jitted)} "
          f"({statistics.fmean(jitted) / mean:,.0f}x the Python agent)")
    print(f"  same games as the jitted agent: {'yes' if run.games[cols].equals(same[cols]) else 'NO'}")


if __name__ == "__main__":
    main()
