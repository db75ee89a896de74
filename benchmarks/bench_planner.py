"""Turn planner speed beside the plain list, in one run (a script that prints numbers, never a timed test).

    python benchmarks/bench_planner.py [--games N] [--rounds R] [--plans tuned_plan_b_2p,...]

For each priority list P: 2-player games of P against P (both seats) with its turn planner off (its buy rules,
the fixed defaults of its [play] section); with the Main-phase planner only (its [plan] section with
`NAME+plan`'s Main-phase settings where it leaves them at 0: 4 determinizations, sets weighed, tied questions
a turn on; Second phase by the list's thresholds); with the Second-phase look-ahead only (back / set / buy
played a turn on and weighed by the evaluation, `NAME+plan`'s settings, Main phase by the list); with both
(`NAME+plan`); and with the Second phase weighed by the preference network instead (`preference`: `second = 1,
horizon = -1`, no look-ahead, the Main phase by the list, as `tuned_plan_e_2p` plays); full rules, random
markets, seats rotated, in the jitted batch loop on one core (`play_rows`, as `hoc simulate --jobs 1` plays
them), in process time. The variants take turns over R rounds and each keeps its fastest round (a shared
machine's noise only ever slows a round down); each is printed with its ratio to the plain list. The
target: a tuned plan with the new play at least 40% of its games/s without it.
"""
from __future__ import annotations

import argparse
import time


VARIANTS = ("plain", "main", "second", "both", "preference")


def versions(name: str):
    """{variant: the list played so} as registry agents (VARIANTS, see the module docstring)."""
    import dataclasses

    from hoc.games.heart_of_crown.agents import priority
    from hoc.games.heart_of_crown.agents.planner import MAIN_DEFAULTS, SECOND_DEFAULTS
    from hoc.games.heart_of_crown.agents.catalog import from_list, list_file

    spec = priority.parse(list_file(name))
    # the Main phase as `NAME+plan` plays it (`MAIN_DEFAULTS` where the file leaves a setting at 0)
    own = dict(spec.plan or ())
    main = spec.with_plan(second=0, **{k: own.get(k, 0) or v for k, v in MAIN_DEFAULTS.items()})
    look = SECOND_DEFAULTS
    lists = {"plain": dataclasses.replace(spec, plan=None), "main": main,
             "second": main.with_plan(samples=0, **look), "both": main.with_plan(**look),
             "preference": main.with_plan(samples=0, second=1, horizon=-1)}
    return {k: from_list(v, f"{name}-{k}") for k, v in lists.items()}


def games_per_second(agents, games: int, rounds: int = 1) -> float:
    return best_rates({"x": agents}, games, rounds)["x"]


def best_rates(lineups: dict, games: int, rounds: int) -> dict:
    """{name: games/s} of each lineup (agents), the fastest of `rounds` rounds that take turns."""
    from hoc.research.harness import Plan, play_rows
    from hoc.games.heart_of_crown.rules import Ruleset

    rs = Ruleset(players=2, market="random")
    plans = {k: Plan(rs, list(agents), games, seed=101, rotate=True) for k, agents in lineups.items()}
    for plan in plans.values():
        play_rows(plan, 0, 1)                   # load (or compile) the kernels
    best = {k: 0.0 for k in plans}
    for _ in range(rounds):
        for k, plan in plans.items():
            t = time.process_time()
            play_rows(plan, 0, games)
            best[k] = max(best[k], games / (time.process_time() - t))
    return best


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--variants", default=",".join(VARIANTS), help=f"which of {', '.join(VARIANTS)} (plain always)")
    p.add_argument("--plans", default="tuned_plan_b_2p,tuned_plan_2p,tuned_general_2p,curse_witch")
    args = p.parse_args(argv)
    chosen = ["plain"] + [v for v in VARIANTS[1:] if v in args.variants.split(",")]
    print(f"{'plan':<22}" + "".join(f" {v + ' games/s':>17}" for v in chosen) + "".join(f" {v:>10}" for v in chosen[1:]))
    for name in args.plans.split(","):
        agents = versions(name)
        rates = best_rates({k: [agents[k], agents[k]] for k in chosen}, args.games, args.rounds)
        print(f"{name:<22}" + "".join(f" {rates[v]:>17,.0f}" for v in chosen)
              + "".join(f" {rates[v] / rates['plain']:>10.2f}" for v in chosen[1:]))


if __name__ == "__main__":
    main()
