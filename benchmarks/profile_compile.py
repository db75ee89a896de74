"""Where the cold start goes: compile time per jitted function, per compiler pass and per LLVM stage.

    python benchmarks/profile_compile.py [--top N] [--games N] [-- more hoc simulate options]

Runs the README's main job (`hoc simulate`, 2 basic_rush agents, random markets; other options
after `--`) for a few games in this process with an empty cache folder, and prints:
- per jitted function: its specialisations (signatures), and the seconds spent compiling it
  *exclusive* of the callees it compiled on the way (numba compiles a callee while typing its caller);
- per compiler pass (typing, lowering, ...), exclusive seconds summed over every function;
- the LLVM stages inside lowering (function passes, module passes, machine code), summed;
- the time spent writing the cache.
Seconds are CPU seconds of this process (the machine may be shared). A profiling tool, not a
figure users see: one run, no interval.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import sys
import tempfile
import time
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Profile:
    """Exclusive times from numba's nested compile and pass events."""

    def __init__(self):
        self.stacks = {"f": [], "p": []}             # per event kind: [name, start, seconds in children]
        self.by_function = defaultdict(float)
        self.by_pass = defaultdict(float)
        self.signatures = defaultdict(list)

    def listener(self, prefix):
        from numba.core import event

        profile = self

        class Listener(event.Listener):
            def on_start(self, ev):
                name = profile.name(prefix, ev.data)
                profile.stacks[prefix].append([name, time.process_time(), 0.0])

            def on_end(self, ev):
                stack = profile.stacks[prefix]
                name, t0, children = stack.pop()
                took = time.process_time() - t0
                if stack:
                    stack[-1][2] += took
                (profile.by_function if prefix == "f" else profile.by_pass)[name] += took - children

        return Listener()

    def name(self, prefix, data):
        if prefix == "f":
            d = data["dispatcher"]
            name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
            self.signatures[name].append(tuple(str(a) for a in data["args"]))
            return name
        return data["name"].split(" [")[0]


LLVM_STAGES = {
    "_optimize_functions": "function passes (per function, before linking)",
    "_optimize_final_module": "module passes (after linking the callees in)",
    "_finalize_specific": "machine code (MCJIT)",
}


def time_llvm_stages() -> dict[str, float]:
    """Wrap the stages of numba's CPU code library with timers; returns the totals, filled as it runs."""
    from numba.core.codegen import CPUCodeLibrary, JITCodeLibrary

    totals = defaultdict(float)
    for cls, method in ((CPUCodeLibrary, "_optimize_functions"), (CPUCodeLibrary, "_optimize_final_module"),
                        (JITCodeLibrary, "_finalize_specific")):
        original = getattr(cls, method)

        def timed(self, *a, _original=original, _stage=LLVM_STAGES[method], **kw):
            t = time.process_time()
            try:
                return _original(self, *a, **kw)
            finally:
                totals[_stage] += time.process_time() - t

        setattr(cls, method, timed)
    return totals


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=30, help="functions to list (default 30)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("simulate", nargs=argparse.REMAINDER, help="more `hoc simulate` options, after --")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="hoc-profile-")
    os.environ["HOC_CACHE_DIR"] = tmp
    os.environ.pop("NUMBA_CACHE_DIR", None)
    try:
        report(profiled(args.games, [a for a in args.simulate if a != "--"]), args.top)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def profiled(games: int, options: list[str]) -> dict:
    """Run `hoc simulate` here with the compile events recorded."""
    import numba.core.caching as caching
    from numba.core import event

    save = defaultdict(float)
    original = caching.Cache.save_overload

    def timed_save(self, sig, data):
        t = time.process_time()
        original(self, sig, data)
        save[self._name] += time.process_time() - t

    caching.Cache.save_overload = timed_save
    import numpy as np
    from numba import njit

    # numba's first compile in a process sets up its typing and lowering registries: time it apart
    t = time.process_time()
    njit(lambda a, i: a[i])(np.zeros(1, np.int32), 0)
    first = time.process_time() - t
    llvm = time_llvm_stages()
    profile = Profile()
    event.register("numba:compile", profile.listener("f"))
    event.register("numba:run_pass", profile.listener("p"))

    t0, c0 = time.perf_counter(), time.process_time()
    import hoc  # noqa: F401
    from hoc.cli.main import main as cli
    with contextlib.redirect_stdout(io.StringIO()):          # the run's summary is not the point here
        cli(["simulate", "--games", str(games), "--json", *options])
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return dict(profile=profile, llvm=llvm, save=save, first=first, wall=wall, cpu=cpu)


def report(r: dict, top: int) -> None:
    profile, llvm, save = r["profile"], r["llvm"], r["save"]
    compiled = sum(profile.by_function.values())
    print(f"whole run: {r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU (this process); compiling {compiled:.1f} s; "
          f"writing the cache {sum(save.values()):.1f} s; numba's set-up (its first compile) {r['first']:.1f} s")
    n_sigs = sum(len(v) for v in profile.signatures.values())
    print(f"{len(profile.signatures)} functions, {n_sigs} specialisations\n")
    print(f"{'seconds':>8} {'sigs':>4}  function (exclusive of the callees it compiled)")
    for name, sec in sorted(profile.by_function.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{sec:8.2f} {len(profile.signatures[name]):4d}  {name}")
    many = {n: s for n, s in profile.signatures.items() if len(s) > 1}
    if many:
        print("\nfunctions with more than one specialisation:")
        for name, sigs in sorted(many.items(), key=lambda kv: -len(kv[1])):
            print(f"  {name}: " + " | ".join(", ".join(s) for s in sigs))
    print(f"\n{'seconds':>8}  compiler pass (exclusive, all functions)")
    for name, sec in sorted(profile.by_pass.items(), key=lambda kv: -kv[1])[:12]:
        print(f"{sec:8.2f}  {name}")
    print(f"\n{'seconds':>8}  LLVM stage inside lowering (all functions)")
    for name, sec in sorted(llvm.items(), key=lambda kv: -kv[1]):
        print(f"{sec:8.2f}  {name}")


if __name__ == "__main__":
    main()
