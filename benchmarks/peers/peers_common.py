"""Shared helpers for the Dominion peer benchmarks (stdlib only).

Where the peers live, how to run their drivers, and the statistics.
Nothing here imports a peer: each peer runs in its own process (its own
Python venv, node, or the JVM) and prints one JSON object.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import statistics
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("HOC_PEERS_CACHE", str(Path.home() / ".cache" / "hoc-peers")))
PYMINION_VENV = Path(os.environ.get("HOC_PEERS_VENV", str(CACHE / "pyminion-venv")))
PEERS = ("pyminion", "dominiate", "dominionsim")
SETUP = "bash benchmarks/peers/setup.sh {peer}"
Z = 1.959963984540054


class PeerMissing(RuntimeError):
    pass


def _pin() -> list[str]:
    """Run every peer on one CPU (taskset -c 0) when taskset exists."""
    if os.environ.get("HOC_PEERS_NO_PIN") or not shutil.which("taskset"):
        return []
    return ["taskset", "-c", os.environ.get("HOC_PEERS_CPU", "0")]


def command(peer: str, mode: str, n: int, seconds: float = 0.0) -> list[str]:
    """The command line that runs `peer`'s driver; PeerMissing if not set up."""
    hint = f"{peer} is not set up; run: {SETUP.format(peer=peer)}"
    if peer == "pyminion":
        py = PYMINION_VENV / "bin" / "python"
        if not py.exists():
            raise PeerMissing(hint + f" (no venv at {PYMINION_VENV}; HOC_PEERS_VENV overrides)")
        ok = subprocess.run([str(py), "-c", "import pyminion"], capture_output=True).returncode == 0
        if not ok:
            raise PeerMissing(hint + f" (pyminion not importable in {PYMINION_VENV})")
        return _pin() + [str(py), str(HERE / "pyminion" / "driver.py"), mode, str(n), str(seconds)]
    if peer == "dominiate":
        d = CACHE / "dominiate"
        if not shutil.which("node") or not (d / "js" / "gameState.js").exists() \
                or not (d / "node" / "node_modules" / "coffee-script").exists():
            raise PeerMissing(hint)
        return _pin() + ["node", str(HERE / "dominiate" / "driver.js"), mode, str(n), str(seconds)]
    if peer == "dominionsim":
        d = CACHE / "dominionsim"
        if not shutil.which("java") or not (d / "classes" / "HocPeerDriver.class").exists():
            raise PeerMissing(hint)
        cp = f"{d / 'classes'}:{(d / 'classpath.txt').read_text().strip()}"
        return _pin() + ["java", "-XX:+UseSerialGC", "-cp", cp, "HocPeerDriver",
                         str(HERE / "dominionsim" / "bots.xml"), mode, str(n), str(seconds)]
    raise ValueError(f"unknown peer {peer!r}; one of {', '.join(PEERS)}")


def run(peer: str, mode: str, n: int, seconds: float = 0.0, extra: list[str] | None = None) -> dict:
    cmd = command(peer, mode, n, seconds) + list(extra or [])
    if os.environ.get("HOC_PEERS_NICE", "10") != "0" and shutil.which("nice"):
        cmd = ["nice", "-n", os.environ.get("HOC_PEERS_NICE", "10")] + cmd
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{peer} {mode} failed ({out.returncode}): {out.stderr.strip()[-2000:]}")
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("{")][-1]
    return json.loads(line)


# ---------------------------------------------------------------- statistics
def wilson(k: int, n: int) -> dict:
    if n == 0:
        return {"value": None, "lo": None, "hi": None, "k": k, "n": n}
    p = k / n
    den = 1 + Z * Z / n
    mid = (p + Z * Z / (2 * n)) / den
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / den
    return {"value": p, "lo": mid - half, "hi": mid + half, "k": k, "n": n}


def mean_ci(xs: list[float]) -> dict:
    n = len(xs)
    m = statistics.fmean(xs)
    sd = statistics.stdev(xs) if n > 1 else 0.0
    half = Z * sd / math.sqrt(n) if n else 0.0
    return {"value": m, "lo": m - half, "hi": m + half, "sd": sd, "n": n}


def percentiles(xs: list[int]) -> dict:
    s = sorted(xs)
    n = len(s)

    def q(p):  # nearest-rank percentile
        return s[max(0, min(n - 1, math.ceil(p / 100 * n) - 1))]

    return {f"p{p}": q(p) for p in (5, 10, 25, 50, 75, 90, 95)} | {"min": s[0], "max": s[-1]}


def two_player_stats(records: list[list[int]]) -> dict:
    """records: [a_first, vpA, vpB, turnsA, turnsB, result(0 A, 1 B, 2 shared)].

    Rounds = turns taken by the seat that moved first (= rounds begun).
    """
    n = len(records)
    rounds = [r[3] if r[0] else r[4] for r in records]
    ties = sum(1 for r in records if r[5] == 2)
    a_wins = sum(1 for r in records if r[5] == 0)
    b_wins = sum(1 for r in records if r[5] == 1)
    first_wins = sum(1 for r in records if (r[5] == 0 and r[0]) or (r[5] == 1 and not r[0]))
    decisive = n - ties
    score = [1.0 if r[5] == 0 else 0.5 if r[5] == 2 else 0.0 for r in records]
    a_first = [s for s, r in zip(score, records) if r[0]]
    a_second = [s for s, r in zip(score, records) if not r[0]]
    # a tie in VP settled by turns (fewer turns wins): VP equal but result decisive
    vp_tie_decided = sum(1 for r in records if r[1] == r[2] and r[5] != 2)
    return {
        "n": n,
        "rounds": mean_ci(rounds),
        "rounds_median": statistics.median(rounds),
        "total_turns_mean": statistics.fmean(r[3] + r[4] for r in records),
        "tie_rate": wilson(ties, n),
        "first_seat_share_of_decisive": wilson(first_wins, decisive),
        "a_win_rate": wilson(a_wins, n),
        "b_win_rate": wilson(b_wins, n),
        "a_score": mean_ci(score),
        "a_score_moving_first": mean_ci(a_first),
        "a_score_moving_second": mean_ci(a_second),
        "vp_ties_decided_by_turns": vp_tie_decided,
        "outcomes": outcomes(records),
    }


def outcomes(records: list[list[int]]) -> dict:
    """Counts of 'VP of first seat-VP of second seat, ended by first|second seat: result'."""
    out: dict[str, int] = {}
    for a_first, va, vb, ta, tb, res in records:
        vf, vs, tf, ts = (va, vb, ta, tb) if a_first else (vb, va, tb, ta)
        won = "shared" if res == 2 else ("first seat" if (res == 0) == bool(a_first) else "second seat")
        key = f"{vf}-{vs}, ended by {'first' if tf > ts else 'second'} seat: {won} wins" if won != "shared" \
            else f"{vf}-{vs}, ended by {'first' if tf > ts else 'second'} seat: shared"
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def solo_stats(records: list[int]) -> dict:
    hist: dict[int, int] = {}
    for t in records:
        hist[t] = hist.get(t, 0) + 1
    return {"n": len(records), "turns": mean_ci(records), "median": statistics.median(records),
            "percentiles": percentiles(records), "histogram": {str(k): hist[k] for k in sorted(hist)}}
