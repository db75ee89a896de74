"""The web table while a search agent thinks (a script that prints numbers, never a timed test).

    python benchmarks/bench_web.py [--iterations N] [--seconds S] [--against REV]

Starts `hoc serve` on a free port of 127.0.0.1 in its own process, warms it (the engine and the search
compiled), then starts a game whose seat 0 is `ismcts:iterations=N` (default: the web's largest
budget, `hoc.web.limits.MAX_ITERATIONS`) against `basic_rush` on a random market with no human seat, so
the agents think for the whole game. Meanwhile a client asks for cheap things in turn for S seconds
or until the game is over (the options, another game's state, a page, a replay frame) and prints the
median, 90th percentile and largest answer time of each, and of all of them (the target: a cheap request under 0.2 s at the
median while a search thinks at the largest budget).

With `--against REV` it first runs the same against that revision (a temporary worktree), then this
tree: before and after in one run. The machine may be shared: the figures are of a quiet machine only.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path


def request(url: str, body=None, timeout=900):
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(url, data, {"content-type": "application/json"} if data else {})
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(r, timeout=timeout) as f:
            raw = f.read()
            status = f.status
    except urllib.error.HTTPError as e:
        raw, status = e.read(), e.code
    return status, raw, time.perf_counter() - t


def measure(tree: Path, iterations: int, seconds: float) -> dict:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    served = tempfile.mkdtemp(prefix="hoc-bench-web-")
    server = subprocess.Popen([sys.executable, "-m", "hoc", "serve", "--port", str(port), "--root", served],
                              cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                request(url + "/api/options", timeout=5)
                break
            except OSError:
                time.sleep(0.5)
        # warm: the engine, a replay, and the search decider compiled before anything is timed
        _, raw, _ = request(url + "/api/games", {"agents": ["human", "basic_rush"], "market": "basic"})
        warm = json.loads(raw)["id"]
        _, raw, _ = request(url + "/api/replays", {"agents": ["basic_rush", "basic_rush"], "market": "basic"})
        replay = json.loads(raw)["id"]
        request(url + "/api/replays", {"agents": ["ismcts:iterations=5", "basic_rush"], "market": "basic",
                                       "turn_cap": 2})
        created = {}

        def create():           # the game whose search thinks; before the web table's worker threads this request played it all
            status, raw, dt = request(url + "/api/games", {"agents": [f"ismcts:iterations={iterations}", "basic_rush"],
                                                           "market": "random", "seed": 1})
            created.update(json.loads(raw), seconds=dt)

        thread = threading.Thread(target=create)
        thread.start()
        cheap = {"options": "/api/options", "state": f"/api/games/{warm}", "page": "/play",
                 "frame": f"/api/replays/{replay}/frames/3"}
        times = {k: [] for k in cheap}
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for k, path in cheap.items():
                times[k].append(request(url + path)[2])
            time.sleep(0.02)
            if not thread.is_alive() and not thinking(url, created):
                break
        window = seconds - max(0.0, end - time.monotonic())
        thread.join()
        everything = [t for ts in times.values() for t in ts]
        _, raw, _ = request(url + f"/api/games/{created['id']}")
        last = json.loads(raw)
        at_end = f"{last['decisions']} decisions, " + ("over" if last["over"] else last.get("stopped") or "thinking")
        return {"game_request_s": created["seconds"], "window_s": window, "game_then": at_end,
                "requests": len(everything), **{k: summary(ts) for k, ts in times.items()}, "all": summary(everything)}
    finally:
        server.terminate()
        server.wait(30)


def thinking(url: str, created: dict) -> bool:
    """The game's agents are still thinking (a server without the worker threads answers once they are done)."""
    return json.loads(request(url + f"/api/games/{created['id']}")[1]).get("thinking") is not None


def summary(ts: list[float]) -> str:
    ts = sorted(ts)
    return (f"median {statistics.median(ts) * 1000:.1f} ms, p90 {ts[int(0.9 * (len(ts) - 1))] * 1000:.1f} ms, "
            f"max {ts[-1] * 1000:.1f} ms")


def main() -> None:
    from hoc.web import limits

    p = argparse.ArgumentParser()
    p.add_argument("--iterations", type=int, default=limits.MAX_ITERATIONS)
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--against", default=None, help="a git revision to measure first")
    a = p.parse_args()
    here = Path(__file__).resolve().parent.parent
    trees = []
    if a.against:
        tmp = Path(tempfile.mkdtemp(prefix="hoc-against-"))
        subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", str(tmp), a.against], check=True,
                       capture_output=True)
        trees.append((a.against, tmp))
    trees.append(("this tree", here))
    try:
        for name, tree in trees:
            print(f"{name}: ismcts:iterations={a.iterations} thinking through a game, cheap requests for {a.seconds:g} s")
            for k, v in measure(tree, a.iterations, a.seconds).items():
                print(f"  {k}: {v:.2f} s" if isinstance(v, float) else f"  {k}: {v}")
    finally:
        if a.against:
            subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(trees[0][1])],
                           capture_output=True)


if __name__ == "__main__":
    main()
