"""Games per second of one peer's big_money mirror, single process, one core.

    python benchmarks/peers/speed.py --peer pyminion --seconds 10 --json

Prints {"peer", "games", "seconds", "games_per_s", ...}. The clock is the
peer driver's own, around its game loop only (process start, JVM start and
module loading excluded; JIT warm-up included). The process is pinned to one
CPU with taskset when available and niced (HOC_PEERS_NICE, default 10).
Exit code 2 with a one-line message if the peer is not set up.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers_common as pc  # noqa: E402


def measure(peer: str, seconds: float) -> dict:
    d = pc.run(peer, "mirror", 10**9, seconds)
    return {"peer": peer, "games": d["games"], "seconds": d["seconds"],
            "games_per_s": d["games"] / d["seconds"], "mode": "big_money mirror, 2 players",
            "pinned_cpu": bool(pc._pin())}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", required=True, choices=pc.PEERS)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args()
    try:
        r = measure(a.peer, a.seconds)
    except pc.PeerMissing as e:
        print(str(e), file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(r))
    else:
        print(f"{r['peer']}: {r['games']} games in {r['seconds']:.2f} s = {r['games_per_s']:.1f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
