"""Each archetype against `random` and against `basic_rush` (2 players, random markets, seats
rotated), with 95% Wilson intervals, and the speed of archetype games (a script that prints
figures).

    python benchmarks/archetypes.py [--games N] [--jobs J]
"""
from __future__ import annotations

import argparse

from agents.registry import AGENTS
from hoc.rules import Ruleset
from hoc.simulate import lineup, simulate, wilson


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    rs = Ruleset(players=2)
    print(f"{'archetype':<20} {'vs random':>22} {'vs basic_rush':>22} {'games/s':>9}")
    for name in AGENTS:
        if name in ("random", "basic_rush"):
            continue
        cells = []
        speed = 0.0
        for rival in ("random", "basic_rush"):
            run = simulate(rs, lineup(f"{name},{rival}", 2), args.games, seed=7, jobs=args.jobs, rotate=True)
            w = run.summary()["wins_by_agent"][name]
            lo, hi = wilson(w, args.games)
            cells.append(f"{100 * w / args.games:5.1f}% [{100 * lo:4.1f},{100 * hi:5.1f}]")
            speed = args.games / run.wall_seconds
        print(f"{name:<20} {cells[0]:>22} {cells[1]:>22} {speed:>9,.0f}")


if __name__ == "__main__":
    main()
