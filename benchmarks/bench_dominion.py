"""Dominion speed figures beside a peer simulator's, in one run (a script that prints numbers, never a
timed test).

    python benchmarks/bench_dominion.py [--games N] [--peer dominionsim|pyminion|dominiate|none] [--peer-seconds S]

Prints games per second on one core (best of 3 runs, process time) of the jitted games alone for the
2-player Big Money mirror (`dom_big_money`, kingdom first_game, seats rotated), Smithy-BM against
Big Money, the Witch-BM mirror and random agents on random kingdoms, then `hoc simulate --json`'s
figure for the Big Money mirror (result frames and summary included), then the peer's Big Money
mirror measured by `benchmarks/peers/speed.py` in a process of its own (one core, the same
minutes). The target: 45,000 games/s or more for the Big Money mirror on one core. The
machine may be shared: on Linux a process of another session takes a core whatever its nice value
(autogroups), so the figures are those of a quiet machine only.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def jitted_rate(agents: str, market: str, games: int, repeats: int = 3) -> float:
    from hoc.games.dominion.rules import Ruleset
    from hoc.research.harness import Plan
    from hoc.research.rows import play_rows
    from hoc.research.simulate import lineup

    rs = Ruleset(market=market)
    seats = lineup(agents, 2)
    play_rows(Plan(rs, seats, 200, seed=1, rotate=True), 0, 200)            # load the kernels
    best = 0.0
    for r in range(repeats):
        plan = Plan(rs, seats, games, seed=2 + r, rotate=True)
        t = time.process_time()
        for first in range(0, games, plan.chunk):
            play_rows(plan, first, min(plan.chunk, games - first))
        best = max(best, games / (time.process_time() - t))
    return best


def cli_rate(games: int) -> float:
    argv = [sys.executable, "-m", "hoc", "simulate", "--game", "dominion", "--agents", "dom_big_money",
            "--market", "first_game", "--rotate-seats", "--games", str(games), "--seed", "2", "--json"]
    subprocess.run(argv, capture_output=True, check=True)          # a warm cache
    return max(json.loads(subprocess.run(argv, capture_output=True, check=True, text=True).stdout)["games_per_second"]
               for _ in range(3))


def peer_rate(peer: str, seconds: float) -> str:
    script = ROOT / "benchmarks" / "peers" / "speed.py"
    if not script.is_file():
        return f"{peer}: benchmarks/peers/speed.py is missing"
    run = subprocess.run([sys.executable, str(script), "--peer", peer, "--seconds", str(seconds), "--json"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return f"{peer}: not measured ({(run.stderr or run.stdout).strip().splitlines()[-1:]})"
    d = json.loads(run.stdout)
    return f"{peer}: {d['games_per_s']:,.0f} games/s ({d['games']:,} games in {d['seconds']:.1f} s)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--peer", default="dominionsim",
                    help="a peer of benchmarks/peers/speed.py (set up by benchmarks/peers/setup.sh), or none")
    ap.add_argument("--peer-seconds", type=float, default=20.0)
    args = ap.parse_args()
    print(f"hoc {__import__('hoc').__version__}, one core, best of 3 (process time)", flush=True)
    for label, agents, market in (("Big Money mirror (first_game)", "dom_big_money", "first_game"),
                                  ("Smithy-BM vs Big Money (first_game)", "dom_smithy_bm,dom_big_money", "first_game"),
                                  ("Witch-BM mirror (random kingdoms)", "dom_witch_bm", "random"),
                                  ("random agents (random kingdoms)", "random", "random")):
        games = args.games if agents != "random" else args.games // 20
        print(f"  {label}: {jitted_rate(agents, market, games):,.0f} games/s", flush=True)
    print(f"  hoc simulate --json, Big Money mirror: {cli_rate(args.games):,.0f} games/s", flush=True)
    if args.peer != "none":
        print(f"  peer {peer_rate(args.peer, args.peer_seconds)}", flush=True)


if __name__ == "__main__":
    main()
