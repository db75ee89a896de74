"""Turn planner speed beside the plain list, in one run (a script that prints numbers, never a timed test).

    python benchmarks/bench_planner.py [--games N] [--plans tuned_general_2p,tuned_laolily_2p,curse_witch]

For each priority list P: 2-player games of P against P (both seats) with its turn planner off
(its buy rules, the fixed defaults of its [play] section); with the Main-phase planner only (its
[plan] section, or the planner's defaults for a list without one, Second phase by the list's
thresholds); with the Second-phase planner only (back / set / buy weighed by the evaluation,
`NAME+plan`'s settings, Main phase by the list); and with both (`NAME+plan`); full rules, random
markets, seats rotated, in the jitted batch loop on one core (`play_rows`, as `hoc simulate --jobs 1`
plays them), in process time; each with its ratio to the plain list. Issue 20's target: a tuned plan
with the planner plays at least 40% of its games/s without it.
"""
from __future__ import annotations

import argparse
import time


VARIANTS = ("plain", "main", "second", "both")


def versions(name: str):
    """{variant: the list played so} as registry agents (VARIANTS, see the module docstring)."""
    import dataclasses

    from hoc.games.heart_of_crown.agents import priority
    from hoc.games.heart_of_crown.agents.planner import SECOND_DEFAULTS
    from hoc.agents.registry import from_list, list_file

    spec = priority.parse(list_file(name))
    main = spec.with_plan(second=0) if spec.plan is not None else spec.with_plan()
    lists = {"plain": dataclasses.replace(spec, plan=None), "main": main,
             "second": main.with_plan(samples=0, **SECOND_DEFAULTS), "both": main.with_plan(**SECOND_DEFAULTS)}
    return {k: from_list(v, f"{name}-{k}") for k, v in lists.items()}


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
    p.add_argument("--plans", default="tuned_plan_b_2p,tuned_plan_2p,tuned_general_2p,curse_witch")
    args = p.parse_args(argv)
    print(f"{'plan':<22}" + "".join(f" {v + ' games/s':>17}" for v in VARIANTS) + "".join(f" {v:>7}" for v in VARIANTS[1:]))
    for name in args.plans.split(","):
        agents = versions(name)
        rates = {k: games_per_second([a, a], args.games) for k, a in agents.items()}
        print(f"{name:<22}" + "".join(f" {rates[v]:>17,.0f}" for v in VARIANTS)
              + "".join(f" {rates[v] / rates['plain']:>7.2f}" for v in VARIANTS[1:]))


if __name__ == "__main__":
    main()
