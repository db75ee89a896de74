"""Turn planner speed beside the plain list, in one run (a script that prints numbers, never a timed test).

    python benchmarks/bench_planner.py [--games N] [--plans tuned_general_2p,tuned_laolily_2p,curse_witch]

For each priority list P: 2-player games of P against P (both seats) with its turn planner off
(its buy rules, the fixed defaults of its [play] section) and on (its [plan] section, or the planner's
defaults for a list without one), full rules, random markets, seats rotated, in the jitted batch loop
on one core (`play_rows`, as `hoc simulate --jobs 1` plays them), in process time; then the ratio.
Issue 20's target: a tuned plan with the planner plays at least 40% of its games/s without it.
"""
from __future__ import annotations

import argparse
import time


def versions(name: str):
    """(the list with its planner off, the list with it on) as registry agents."""
    import dataclasses

    from hoc.games.heart_of_crown.agents import priority
    from hoc.agents.registry import from_list, list_file

    spec = priority.parse(list_file(name))
    on = spec if spec.planned else spec.with_plan()
    return from_list(dataclasses.replace(spec, plan=None), f"{name}-plain"), from_list(on, f"{name}-plan")


def games_per_second(agents, games: int) -> float:
    from hoc.research.harness import Plan, play_rows
    from hoc.games.heart_of_crown.rules import Ruleset

    rs = Ruleset(players=2, market="random")
    plan = Plan(rs, list(agents), games, seed=101, rotate=True)
    play_rows(plan, 0, 1)                       # load (or compile) the kernels
    t = time.process_time()
    play_rows(plan, 0, games)
    return games / (time.process_time() - t)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20000)
    p.add_argument("--plans", default="tuned_plan_2p,tuned_general_2p,tuned_laolily_2p,curse_witch")
    args = p.parse_args(argv)
    print(f"{'plan':<22} {'plain games/s':>14} {'+plan games/s':>14} {'ratio':>7}")
    for name in args.plans.split(","):
        off, on = versions(name)
        plain = games_per_second([off, off], args.games)
        planned = games_per_second([on, on], args.games)
        print(f"{name:<22} {plain:>14,.0f} {planned:>14,.0f} {planned / plain:>7.2f}")


if __name__ == "__main__":
    main()
