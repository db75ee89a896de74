"""Each archetype against `random` and against `basic_rush` (2 players, random markets, seats
rotated), with 95% Wilson intervals: win % vs random, win % vs basic_rush on all markets and on the
markets offering all of the archetype's key kinds (its `key` list; none = all markets), and the
speed of its games against basic_rush (games per second of process time, so the figure is per core
whatever --jobs says). A script that prints figures, never a timed test.

    python benchmarks/archetypes.py [--games N] [--jobs J] [--seed S]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from hoc.games.heart_of_crown.agents.catalog import archetypes
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.harness import offers
from hoc.research.simulate import lineup, simulate, wilson


def wins_of(run, name: str) -> np.ndarray:
    """Per game: the agent `name` won it."""
    df = run.games
    won = np.zeros(len(df), bool)
    for j in range(run.ruleset.players):
        won |= (df[f"agent_{j}"].astype(str).values == name) & (df.winner.values == j)
    return won


def cell(won: np.ndarray) -> str:
    if len(won) == 0:
        return "no games"
    lo, hi = wilson(int(won.sum()), len(won))
    return f"{100 * won.mean():5.1f}% [{100 * lo:4.1f},{100 * hi:5.1f}]"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rs = Ruleset(players=2)
    simulate(rs, lineup("basic_rush", 2), 100, seed=1)          # load the compiled kernels
    print(f"{args.games} games per pairing, seed {args.seed}, 2 players, random markets, seats rotated")
    print(f"{'archetype':<18} {'key':<16} {'vs random':>21} {'vs basic_rush, all':>21} "
          f"{'vs basic_rush, key markets':>30} {'games/s':>8}")
    for agent in archetypes():
        name = agent.name
        if name == "basic_rush":
            continue
        runs = {}
        speed = 0.0
        for rival in ("random", "basic_rush"):
            t = time.process_time()
            runs[rival] = simulate(rs, lineup(f"{name},{rival}", 2), args.games, seed=args.seed, jobs=args.jobs,
                                   rotate=True)
            if args.jobs == 1:
                speed = args.games / (time.process_time() - t)
            else:
                speed = args.games / runs[rival].play_seconds / args.jobs
        vs_br = wins_of(runs["basic_rush"], name)
        mask = np.ones(len(vs_br), bool)
        for kind in agent.key_for(rs.edition):
            mask &= offers(runs["basic_rush"].games, kind)
        key_cell = f"{cell(vs_br[mask])} n={mask.sum()}"
        print(f"{name:<18} {','.join(agent.key_for(rs.edition)) or '(all)':<16} {cell(wins_of(runs['random'], name)):>21} "
              f"{cell(vs_br):>21} {key_cell:>30} {speed:>8,.0f}")


if __name__ == "__main__":
    main()
