"""The harness at scale: N two-player full-rules games between archetype agents, from the command
line to a Parquet folder, with a warm cache. Prints wall time, games/s and the peak memory of the
command and its worker processes (a script that prints figures; the target is 1,000,000
games in under 60 s and under 2 GB on the 2-core machine).

    python benchmarks/bench_harness.py [--games 1000000] [--jobs 2] [--agents senator_duke,curse_witch]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pandas as pd
import psutil


def peak_rss(proc: psutil.Process, stop: threading.Event, peak: list[int]) -> None:
    """Sample the summed resident memory of the command and all its children."""
    while not stop.is_set():
        try:
            procs = [proc, *proc.children(recursive=True)]
            peak[0] = max(peak[0], sum(p.memory_info().rss for p in procs if p.is_running()))
        except psutil.Error:
            pass
        time.sleep(0.05)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--agents", default="senator_duke,curse_witch")
    args = ap.parse_args()
    base = [sys.executable, "-m", "hoc.cli", "simulate", "--agents", args.agents, "--rotate-seats",
            "--jobs", str(args.jobs)]
    subprocess.run([*base, "--games", "2000"], check=True, capture_output=True)   # warm the cache
    folder = Path(tempfile.mkdtemp()) / "games.parquet"
    t0 = time.perf_counter()
    proc = psutil.Popen([*base, "--games", str(args.games), "--out", str(folder)], stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL)
    stop, peak = threading.Event(), [0]
    sampler = threading.Thread(target=peak_rss, args=(proc, stop, peak))
    sampler.start()
    out, _ = proc.communicate()
    wall = time.perf_counter() - t0
    stop.set()
    sampler.join()
    if proc.returncode:
        sys.exit(f"the run failed with code {proc.returncode}")
    rows = len(pd.read_parquet(folder, columns=["game"]))
    size = sum(f.stat().st_size for f in folder.glob("*.parquet"))
    shutil.rmtree(folder.parent)
    print(f"{rows:,} games ({args.agents}, 2 players, random markets, --jobs {args.jobs}) to Parquet")
    print(f"wall {wall:.1f} s ({rows / wall:,.0f} games/s), peak memory {peak[0] / 2**30:.2f} GB "
          f"(command + workers), Parquet {size / 2**20:.0f} MB")


if __name__ == "__main__":
    main()
