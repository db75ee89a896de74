"""Cold and warm start of the README's main job (a script that prints numbers, never a timed test).

    python benchmarks/bench_compile.py [--repeats N] [--games N]

Runs `hoc simulate --games 10000` (random markets, two basic_rush agents, one job) in a fresh
process, first with an empty cache folder (the engine compiles: the first run after an install),
then again with the folder it filled (the engine loads). For each it prints the wall time and the
CPU time (user + sys) of the whole process, its peak memory, and the engine's compile or load time
as the summary reports it apart from the games. With --repeats N it prints the range over N runs.
The machine may be shared: CPU seconds move much less with the load than wall seconds, so the load
average is printed too. The target: the cold start at most 45 s on a 2-core machine.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def start(cache: str, games: int) -> dict:
    """One `hoc simulate` in a fresh process with this cache folder: wall and CPU seconds of the
    process, its peak memory, and its JSON summary."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["HOC_CACHE_DIR"] = cache
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "hoc", "simulate", "--games", str(games), "--json"],
                                 cwd=ROOT, env=env, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(child.pid, 0)       # this child's own resource usage
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if child.returncode != 0:
        sys.exit(f"hoc simulate failed:\n{stderr}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_gb": usage.ru_maxrss / 2**20,
            "summary": json.loads(stdout), "announced": "compiling the engine" in stderr}


def cold_and_warm(games: int = 10_000) -> tuple[dict, dict]:
    with tempfile.TemporaryDirectory(prefix="hoc-cold-") as cache:
        cold = start(cache, games)
        warm = start(cache, games)
    return cold, warm


def span(values: list[float], unit: str, digits: int = 1) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:.{digits}f} {unit}" if len(values) == 1 else f"{lo:.{digits}f}-{hi:.{digits}f} {unit}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=1, help="cold/warm pairs to run (default 1)")
    ap.add_argument("--games", type=int, default=10_000)
    args = ap.parse_args()
    runs = [cold_and_warm(args.games) for _ in range(args.repeats)]
    colds, warms = [c for c, _ in runs], [w for _, w in runs]
    load = os.getloadavg()
    print(f"`hoc simulate --games {args.games:,}` in a fresh process ({args.repeats} run(s); "
          f"load average {load[0]:.1f}, {os.cpu_count()} cores):")
    for name, rs, what in (("cold start (empty cache folder)", colds, "compile_seconds"),
                           ("warm start (cache filled)", warms, "load_seconds")):
        print(f"  {name}: {span([r['wall'] for r in rs], 's wall')}, {span([r['cpu'] for r in rs], 's CPU')}"
              f" (user+sys), peak {span([r['peak_gb'] for r in rs], 'GB', 2)}; "
              f"{'compiling' if what == 'compile_seconds' else 'loading'} the engine "
              f"{span([r['summary'][what] for r in rs], 's', 2)}, games "
              f"{span([r['summary']['play_seconds'] for r in rs], 's', 2)}")
    if not all(c["announced"] for c in colds) or any(w["announced"] for w in warms):
        print("  note: the compile line on stderr was missing from a cold start or shown on a warm one")
    print(f"cold start target: at most 45 s (wall) here; worst run {max(c['wall'] for c in colds):.1f} s wall, "
          f"{max(c['cpu'] for c in colds):.1f} s CPU")


if __name__ == "__main__":
    main()
