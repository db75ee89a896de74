"""Dominion's statistics as the established simulators measure them, on our engine: the Big Money
mirror and Smithy-BM against Big Money (2 players, seats rotated: each seed played with either bot
first), and solo turns to 4 Provinces for both bots. Writes results/dominion_peers/hoc.json in the
shape of the peers' figures (benchmarks/peers: pyminion, Dominiate, Geronimoo's DominionSim), so
`benchmarks/peers/make_table.py` puts hoc beside them.

    python -m experiments.dominion_check [--games 100000] [--out results/dominion_peers/hoc.json]
"""
from __future__ import annotations

import argparse
import json
import math
import platform
import time
from pathlib import Path

import numpy as np

KINGDOM = "smithy,village,market,militia,moat,cellar,chapel,workshop,laboratory,festival"   # as the peers ran


def wilson(k: int, n: int) -> dict:
    from hoc.research.stats import wilson as w

    lo, hi = w(k, n)
    return {"value": k / n if n else math.nan, "lo": lo, "hi": hi, "k": int(k), "n": int(n)}


def mean(x: np.ndarray) -> dict:
    m, sd = float(x.mean()), float(x.std(ddof=1))
    half = 1.959964 * sd / math.sqrt(len(x))
    return {"value": m, "lo": m - half, "hi": m + half, "sd": sd, "n": int(len(x))}


def games(agents: str, players: int, n: int, seed: int):
    from hoc.games.dominion.rules import Ruleset
    from hoc.research.simulate import lineup, simulate

    rs = Ruleset(players=players, market=KINGDOM)
    seats = lineup(agents, players)
    t = time.perf_counter()
    run = simulate(rs, seats, n, seed=seed, rotate=players > 1)
    return run.games, time.perf_counter() - t


def duel(agents: str, n: int, seed: int) -> dict:
    df, seconds = games(agents, 2, n, seed)
    a = agents.split(",")[0]
    mask = df.win_mask.to_numpy().astype(np.int64)
    winners = (mask & 1) + (mask >> 1 & 1)
    # A's seat: the rotation seats the first-listed bot first in even games (in a mirror, "A" is that entry)
    a_seat = np.arange(len(df)) % 2
    assert (df.agent_0.astype(str).to_numpy()[a_seat == 0] == a).all()
    a_share = np.where((mask >> a_seat) & 1 == 1, 1.0 / np.maximum(winners, 1), 0.0)
    decisive = winners == 1
    first_won = decisive & (mask & 1 == 1)
    a_wins = ((mask >> a_seat) & 1 == 1) & decisive
    b_wins = ((mask >> (1 - a_seat)) & 1 == 1) & decisive
    return {"n": int(len(df)), "seconds": seconds,
            "rounds": mean(df.turns_0.to_numpy(float)),
            "tie_rate": wilson(int((winners > 1).sum()), len(df)),
            "first_seat_share_of_decisive": wilson(int(first_won.sum()), int(decisive.sum())),
            "a_score": mean(a_share), "a_win_rate": wilson(int(a_wins.sum()), len(df)),
            "b_win_rate": wilson(int(b_wins.sum()), len(df)),
            "a_score_moving_first": mean(a_share[a_seat == 0]), "a_score_moving_second": mean(a_share[a_seat == 1])}


def solo(agent: str, n: int, seed: int) -> dict:
    df, seconds = games(agent, 1, n, seed)
    t = df.turns_0.to_numpy(int)
    assert (df.end_reason.astype(str) == "solo_provinces").all()
    pct = {f"p{q}": int(np.percentile(t, q, method="inverted_cdf")) for q in (10, 25, 75, 90)}
    return {"n": int(n), "turns": mean(t.astype(float)), "median": float(np.median(t)), "percentiles": pct,
            "seconds": seconds}


def speed(n: int) -> dict:
    from benchmarks.bench_dominion import jitted_rate

    return {"games_per_s": jitted_rate("dom_big_money", KINGDOM, n), "how": "jitted games alone, best of 3, "
            "process time, one core (benchmarks/bench_dominion.py)"}


def main() -> None:
    import hoc

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="results/dominion_peers/hoc.json")
    args = ap.parse_args()
    result = {
        "configuration": {
            "bots": "agents/dominion/bots/dom_big_money.toml, dom_smithy_bm.toml",
            "kingdom": KINGDOM, "last_province_rule": "on (the default): a bot never buys a last Province that "
            "ends the game with it not among the winners", "seats": "rotated game by game (A first in even games)",
            "solo": "1 player, 8 Provinces; the game ends when the player has bought 4 Provinces",
            "ties": "most VP, then fewer turns, then shared", "engine": f"hoc {hoc.__version__}",
            "command": f"python -m experiments.dominion_check --games {args.games} --seed {args.seed}"},
        "machine": {"platform": platform.platform(), "processor": platform.processor()},
        "mirror": duel("dom_big_money,dom_big_money", args.games, args.seed),
        "smithy": duel("dom_smithy_bm,dom_big_money", args.games, args.seed + 1),
        "solo_bm": solo("dom_big_money", args.games, args.seed + 2),
        "solo_smithy": solo("dom_smithy_bm", args.games, args.seed + 3),
        "speed": speed(200_000),
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    for key in ("mirror", "smithy"):
        r = result[key]
        print(f"{key}: rounds {r['rounds']['value']:.2f}, ties {100 * r['tie_rate']['value']:.2f}%, first seat "
              f"{100 * r['first_seat_share_of_decisive']['value']:.2f}% of decisive, A score {100 * r['a_score']['value']:.2f}%")
    for key in ("solo_bm", "solo_smithy"):
        print(f"{key}: {result[key]['turns']['value']:.3f} turns to 4 Provinces, median {result[key]['median']:g}")
    print(f"speed: {result['speed']['games_per_s']:,.0f} games/s")


if __name__ == "__main__":
    main()
