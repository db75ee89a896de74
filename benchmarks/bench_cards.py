"""Full-rules figures for the 2E common cards (a script that prints numbers, never a timed test).

    python benchmarks/bench_cards.py [--games N] [--jobs J]

1. Validated random games: N games (default 100,000) on random markets with --validate (the
   invariants checked after every step), half between `random` agents and half `random` against
   `basic_rush`, 2 to 4 players; prints how often every common card was played, bought, gained,
   kept, exiled and attacked with, and fails loudly on any invariant violation.
2. Speed on random markets: 2-player games per second on one core, `basic_rush` and `random`.
"""
from __future__ import annotations

import argparse
import time

import pandas as pd


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.research.simulate import lineup, simulate

    total = None
    played = 0
    t0 = time.perf_counter()
    plans = [(2, "random"), (3, "random"), (4, "random"), (2, "random,basic_rush"), (3, "random,basic_rush,random"),
             (4, "basic_rush,random,random,random")]
    per = args.games // len(plans)
    for i, (players, agents) in enumerate(plans):
        rs = Ruleset(players=players, market="random")
        run = simulate(rs, lineup(agents, players), per, seed=1000 + i, jobs=args.jobs, rotate=True, validate=True)
        total = run.coverage if total is None else total + run.coverage
        played += per
        print(f"{per} validated games, {players} players, {agents}: {run.wall_seconds:.0f} s, "
              f"end reasons {dict(run.summary()['end_reasons'])}")
    cards = rs.cards.frame
    commons = cards.id[cards.category == "common"]
    table = total.loc[commons]
    with pd.option_context("display.max_rows", None, "display.width", 120):
        print(f"\ncoverage over {played:,} validated games ({time.perf_counter() - t0:.0f} s), zero invariant "
              f"violations:")
        print(table.to_string())
    print(f"kinds never played: {list(table.index[table.played == 0])} (Attendant Maids and the Duchess are "
          f"not playable: they are set)")
    for agent in ("basic_rush", "random"):
        rs = Ruleset(players=2, market="random")
        n = 100_000 if agent == "basic_rush" else 2_000
        simulate(rs, lineup(agent, 2), 200, seed=1)
        best = max(n / simulate(rs, lineup(agent, 2), n, seed=2 + r).play_seconds for r in range(3))
        print(f"2-player {agent} on random markets, 1 core: {best:,.0f} games/s (best of 3)")


if __name__ == "__main__":
    main()
