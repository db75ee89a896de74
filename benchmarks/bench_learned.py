"""Learned policy speed beside priority lists, in one run (a script that prints numbers, never a timed test).

    python benchmarks/bench_learned.py [--games N] [--policy learned_2p] [--against tuned_laolily_2p,tuned_general_2p]

2-player games of the learned policy (the jitted forward pass, `hoc.games.heart_of_crown.agents.learned.kernel`) against
each priority list, and of that list against itself, on full rules and random markets, seats rotated,
in the jitted batch loop on one core (`play_rows`, as `hoc simulate --jobs 1` plays them), in process
time; with the learned games' share of the list mirror's games/s. The target: at least 2,000
two-player games/s per core for learned_2p against a priority list.
"""
from __future__ import annotations

import argparse

from bench_planner import games_per_second     # the same measure: the batch loop on one core, process time


def main(argv=None) -> None:
    from hoc.agents.registry import get

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10000)
    p.add_argument("--policy", default="learned_2p")
    p.add_argument("--against", default="tuned_laolily_2p,tuned_general_2p,basic_rush")
    args = p.parse_args(argv)
    learner = get(args.policy)
    print(f"{'against':<22} {'learned games/s':>16} {'list mirror games/s':>20} {'share':>6}")
    for name in args.against.split(","):
        other = get(name)
        mine = games_per_second([learner, other], args.games)
        mirror = games_per_second([other, other], args.games)
        print(f"{name:<22} {mine:>16,.0f} {mirror:>20,.0f} {mine / mirror:>6.2f}")


if __name__ == "__main__":
    main()
