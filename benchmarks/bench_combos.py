"""How `hoc combos` scales with workers: one small screen (no confirmation) played by 1 and 2 local
processes (loky) and by a local Dask cluster of 1 and 2 workers, in one run (a script that prints
numbers, never a timed test).

    python benchmarks/bench_combos.py [--game dominion] [--kinds village,smithy,witch,moat,gardens]
                                      [--iterations 6] [--workers 1,2]

Prints per backend and worker count: wall seconds, runs of a pair per minute, and the speed-up over
one worker of the same backend. Every configuration plays the same runs (their figures are checked
equal), each in a fresh folder; a first pass on one worker loads the compiled code and is not
counted. A cluster of N machines runs the same tasks, one run of a pair each.
"""
from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="dominion")
    p.add_argument("--kinds", default="village,smithy,witch,moat,gardens")
    p.add_argument("--iterations", type=int, default=6)
    p.add_argument("--workers", default="1,2")
    args = p.parse_args()

    from hoc.games import get
    from hoc.research.combos import screen
    from hoc.research.combos.design import Settings
    from hoc.research.harness import Backend

    # the screen the scaling was first measured on (docs/combos.md): decks offered the pair, no planner
    earlier = dict(measure="offered", planner=False)
    settings = Settings.of(get(args.game).ruleset(players=2), args.kinds.split(","), iterations=args.iterations,
                           confirm=0, **earlier)
    quiet = lambda line: None       # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        screen.run(Settings.of(get(args.game).ruleset(players=2), args.kinds.split(",")[:2], iterations=1,
                               confirm=0, **earlier), Path(tmp) / "warm", Backend(1), quiet)
        reference, base = None, {}
        print(f"{args.game}: {len(settings.pairs())} runs of a pair, {args.iterations} iterations per search")
        for name in ("loky", "dask"):
            for n in (int(w) for w in args.workers.split(",")):
                cluster = None
                if name == "dask":
                    from dask.distributed import LocalCluster

                    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
                    backend = Backend(1, "dask", cluster.scheduler_address)
                else:
                    backend = Backend(n)
                folder = Path(tmp) / f"{name}{n}"
                t = time.perf_counter()
                rows = screen.run(settings, folder, backend, quiet)
                seconds = time.perf_counter() - t
                backend.close()
                if cluster is not None:
                    cluster.close()
                figures = sorted(json.dumps({k: r[k] for k in ("a", "b", "same", "cross_a", "cross_b")}) for r in rows)
                if reference is None:
                    reference = figures
                same = "same figures" if figures == reference else "FIGURES DIFFER"
                base.setdefault(name, seconds)
                print(f"  {name:5} {n} worker(s): {seconds:7.1f} s, {60 * len(rows) / seconds:6.1f} runs/min, "
                      f"x{base[name] / seconds:.2f} over 1 worker ({same})")


if __name__ == "__main__":
    main()
