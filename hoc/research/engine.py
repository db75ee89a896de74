"""Getting the compiled engine ready in this process, timed apart from the games.

The first run after an install (or after an edit of the engine) compiles the kernels into the cache
folder, which takes tens of seconds; later runs load them from there in about a second. `prepare`
does either before a run's clock starts, says so on stderr when it is about to compile, and returns
how long it took, so that games per second count playing time only.

Whether the folder holds the compiled engine is known from a marker file written there after a
successful compile or load. It records the size and modification time of every compiled source
(what the compiler's own cache checks), so a reinstalled or touched source announces the compile too.
The compiler files its cache by the source files' folder, so two checkouts sharing a cache folder
each compile their own: the marker is each checkout's own (its name holds a digest of the package's
path), and one checkout's run never makes the other announce a compile it will not do.

A compile is announced with the time the last compile of that engine took here, measured and kept
in the cache folder's parent (`compile-seconds.json`, surviving source edits), or a typical time
until one has been measured.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# until a compile has been measured here: the first compiles measured on the 2-core machine (56 s for
# the engine and 25 s for Dominion alone, 2.5 to 3 minutes when other work shares it)
TYPICAL = "usually 30 s to 3 minutes on 2 cores"
TIMES = "compile-seconds.json"


def message(name: str) -> str:
    """The line announcing a compile of engine `name`, with the last measured time of it (else of any
    engine) in this cache."""
    times = compile_times()
    if name in times:
        said = f"it took {_duration(times[name])} here last time"
    elif times:
        said = f"another engine took {_duration(max(times.values()))} here"
    else:
        said = TYPICAL
    return f"compiling the engine {name} (first run only; {said})..."


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} minutes"


def _times_file() -> Path:
    import hoc

    return Path(hoc.CACHE_DIR).parent / TIMES


def compile_times() -> dict[str, float]:
    """The last measured compile seconds of each engine in this cache ({} when none or unreadable)."""
    import json

    try:
        data = json.loads(_times_file().read_text(encoding="utf-8"))
        return {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}
    except (OSError, ValueError, TypeError):
        return {}


def _record(name: str, seconds: float) -> None:
    import json

    path = _times_file()
    try:
        times = {**compile_times(), name: round(seconds, 1)}
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(times, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass


@dataclass(frozen=True)
class Warmup:
    """Seconds spent getting the engine ready, and whether that was compiling (else loading it)."""

    seconds: float = 0.0
    compiled: bool = False

    def __add__(self, other: "Warmup") -> "Warmup":
        return Warmup(self.seconds + other.seconds, self.compiled or other.compiled)

    @property
    def compile_seconds(self) -> float:
        return self.seconds if self.compiled else 0.0

    @property
    def load_seconds(self) -> float:
        return 0.0 if self.compiled else self.seconds


@dataclass(frozen=True)
class Timing:
    """A run's wall time split into playing the games and getting the engine ready."""

    play_seconds: float
    warmup: Warmup = Warmup()

    @property
    def wall_seconds(self) -> float:
        return self.play_seconds + self.warmup.seconds


_ready: set[str] = set()          # engines made ready in this process


def engine_name(plan, stepped: bool | None = None) -> str:
    """Which compiled entry points a plan runs on: its game's, with the deciders its lineup needs (the
    search, the planner, the network compiled in or not), through the batch loop or the `Game`
    interface that steps games for Python agents (`stepped`: that interface whatever the agents, as
    a study replaying the plan's games step by step uses); each with the invariant checks or without."""
    from hoc.agents.ids import needs

    stepped = plan.python if stepped is None else stepped
    parts = [name for name, on in needs([a.id for a in plan.agents])._asdict().items() if on]
    return "-".join([plan.ruleset.game.name, *parts, "game" if stepped else "batch"]) \
        + ("-validated" if plan.validate else "")


def marker(name: str) -> Path:
    """The marker of engine `name` compiled from this checkout's sources (the compiler's cache is filed
    by the sources' path: another checkout's compile is not this one's)."""
    import hashlib

    import hoc
    from hoc._cache import _ROOT

    here = hashlib.sha256(str(_ROOT).encode()).hexdigest()[:12]
    return Path(hoc.CACHE_DIR) / f"ready-{name}-{here}"


def is_compiled(name: str) -> bool:
    """True if the cache folder holds engine `name`, compiled from the sources as they are now."""
    from hoc._cache import source_stamps

    stamps = source_stamps()
    # a marker of before the markers were each checkout's own (`ready-NAME`) still counts when its
    # sources' times are these: no notice for an engine that only loads after an upgrade
    return any(path.exists() and path.read_text(encoding="utf-8") == stamps
               for path in (marker(name), marker(name).with_name(f"ready-{name}")))


def prepare(plan, announce: bool = True, stepped: bool | None = None) -> Warmup:
    """Compile or load what `plan` runs on (`stepped`: its games stepped through the `Game`
    interface, whatever its agents), unless this process already has it. With `announce`, a line on
    stderr says so first when the cache folder lacks it."""
    stepped = plan.python if stepped is None else stepped
    name = engine_name(plan, stepped)
    if name in _ready:
        return Warmup()
    if announce and not is_compiled(name):
        print(message(name), file=sys.stderr, flush=True)
    t = time.perf_counter()
    compiled = _warm_game(plan) if stepped else _warm_batch(plan)
    seconds = time.perf_counter() - t
    _ready.add(name)
    _mark(name)
    if compiled:
        _record(name, seconds)
    return Warmup(seconds, compiled)


def _mark(name: str) -> None:
    from hoc._cache import source_stamps

    path = marker(name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(source_stamps(), encoding="utf-8")
        tmp.replace(path)                   # atomic: concurrent runs never read half a marker
    except OSError:
        pass                                # a read-only cache folder: no announcement, no harm


def _misses(dispatchers) -> int:
    """How many versions these jitted functions compiled in this process (rather than loaded)."""
    return sum(sum(d.stats.cache_misses.values()) for d in dispatchers)


def _warm_batch(plan) -> bool:
    """Run the batch loop on zero games: it compiles or loads exactly what the games will call."""
    from hoc.research.batch import batch_loop
    from hoc.research.rows import play_rows

    loop = batch_loop(plan.ruleset, plan.validate, [a.id for a in plan.agents])
    before = _misses([loop])
    play_rows(plan, plan.first, 0)
    return _misses([loop]) > before


def _warm_game(plan) -> bool:
    """Call each kernel of the `Game` interface that stepping the plan's games uses (`GameSpec.kernel`,
    its deciders), on a throwaway game of the plan's game."""
    from hoc.engine import layout as K
    from hoc.engine import state

    rs = plan.ruleset
    api = rs.game.kernel
    decide = rs.game.deciders_module().decider([a.id for a in plan.agents])
    used = [api.init_game, api.game_seed, api.legal_actions, api.is_legal, api.apply_if_legal, api.record, decide,
            state.seat_agent, api.check, api.card_totals]
    before = _misses(used)
    game = rs.game.game_class()(rs, seed=0)
    jitted = [k for k, a in enumerate(plan.agents) if a.play is None]
    if jitted:
        plan.agents[jitted[0]].decide(game, plan.params[jitted[0]])
    game.apply(game.legal_actions()[0])
    api.record(game.state, np.zeros(K.RES_LEN, K.DTYPE))
    if plan.validate:
        nc = len(rs.cards)
        api.card_totals(game.state, np.zeros(nc, K.DTYPE), np.zeros(nc, K.DTYPE))
        api.check(game.state, np.zeros(nc, K.DTYPE), np.zeros(nc, K.DTYPE))
    return _misses(used) > before
