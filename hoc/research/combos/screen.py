"""The two stages of a combo screen in a folder: every pair once, then the top pairs again in fresh
markets (`run`), in waves until a table's last wave shows its ranking ran dry (`analysis.deeper`).
Each finished run of a pair is one line of `runs.jsonl`, written as it arrives, so an interrupted
screen goes on from its last finished run when the same command is given again.
Runs are independent tasks for the backend: local worker processes (`--jobs`) or a Dask cluster.
Under `--across built` the runs of a stage's kinds (`kind_decks`: the baseline's, then each kind's)
come before its pairs', one line each of `decks.jsonl`, and resume the same way. Each session that
plays a run adds a line to `sessions.jsonl` (its wall time and the runs it found and added), so a
screen finished over several sessions can say how long it took in all.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from hoc.errors import HocError
from hoc.research.combos import analysis, kind_decks
from hoc.research.combos.design import LEFT_OUT, SCREEN, Settings

RUNS = "runs.jsonl"
DECKS = "decks.jsonl"           # `--across built`: the runs of one kind's decks (`kind_decks`)
IDENTITY = "settings.json"
SESSIONS = "sessions.jsonl"     # one line a session that played a run: `wall` seconds, runs held `before`, `added`


def run(settings: Settings, folder: str | Path, backend, progress=print) -> list[dict]:
    """Screen every pair, confirm the top ones; every run's row (screen and confirmation)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    _claim(folder, settings)
    before, began = held(folder), time.perf_counter()
    try:
        return _stages(settings, folder, backend, progress)
    finally:                                    # an interrupted session too: the runs it finished cost its time
        _record(folder, before, began)


def _record(folder: Path, before: int, began: float) -> None:
    """A line of `SESSIONS` for a session that played a run (one that played none took no screen time)."""
    added = held(folder) - before
    if added:
        with (folder / SESSIONS).open("a", encoding="utf-8") as f:
            f.write(json.dumps({"wall": round(time.perf_counter() - began, 1), "before": before, "added": added,
                                "ended": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}) + "\n")


def _stages(settings: Settings, folder: Path, backend, progress) -> list[dict]:
    rows = load(folder)
    screen = [(SCREEN, a, b, 0) for a, b in settings.pairs()]
    then = f", then up to {counted(settings.most_follow_ups())} following up the top pairs in fresh markets"
    rows += _play(settings, _missing(screen, rows), folder, backend, progress, "screen",
                  then if settings.confirm else "")
    depth, last, before = analysis.first_wave(settings), None, set()
    for wave in range(1, settings.waves + 1):
        chosen = analysis.followed_up_by_family(settings, analysis.screen_frame(rows), depth)
        confirm = settings.follow_ups(chosen)
        pairs = {(stage, a, b) for stage, a, b, _ in confirm}       # a pair once for each family it serves
        what = (f"confirmation, wave {wave} of at most {settings.waves}, of {len(pairs - before)} more pairs "
                f"({_deepened(depth, last)})" if last else f"confirmation of {len({p[1:] for p in pairs})} pairs")
        rows += _play(settings, _missing(confirm, rows), folder, backend, progress, what)
        last, depth, before = depth, analysis.deeper(settings, rows, depth), pairs
        if depth == last:
            break
    return rows


def _deepened(depth: dict, last: dict) -> str:
    """Which tables a wave follows further, and why."""
    deeper = [name for t, name in analysis.TABLES.items() if depth[t] > last[t]]
    return f"{' and '.join(deeper)}: the last wave did not show the ranking ran dry"


def load(folder: Path, name: str = RUNS) -> list[dict]:
    """The finished runs in a folder: of pairs (`RUNS`) or of kinds' decks (`DECKS`)."""
    path = Path(folder) / name
    if not path.exists():
        return []
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            # an interruption mid-line leaves the last line cut: that run is played again
            if n != len(path.read_text(encoding="utf-8").splitlines()):
                raise HocError(f"{path}: line {n} is not a run of hoc combos; remove the folder to start over") from None
    return rows


def sessions(folder: Path) -> tuple[float, int, int]:
    """The wall time in seconds of the sessions `SESSIONS` records, how many, and the runs the folder
    holds that none of them played (sessions before the record, or killed outright: a gap between
    one session's end and the next one's start)."""
    path = Path(folder) / SESSIONS
    recorded = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []
    unrecorded, end = 0, 0
    for s in recorded:
        unrecorded, end = unrecorded + s["before"] - end, s["before"] + s["added"]
    return sum(s["wall"] for s in recorded), len(recorded), unrecorded + held(folder) - end


def held(folder: Path) -> int:
    """The finished runs a folder holds, of pairs and of kinds' decks (what a session adds to)."""
    return len(load(folder)) + len(load(folder, DECKS))


def _claim(folder: Path, settings: Settings) -> None:
    path = folder / IDENTITY
    identity = settings.identity()
    if path.exists():
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            saved = None
        if saved != identity:
            differ = sorted(k for k in set(saved or {}) | set(identity) if (saved or {}).get(k) != identity.get(k))
            shown = ", ".join(f"{k}: {_shown(saved, k)} there, {_shown(identity, k)} here" for k in differ[:3])
            raise HocError(f"{folder} holds a combo screen with other settings ({shown}); give another --out, or "
                           f"the same options as that run (see {path})")
        return
    path.write_text(json.dumps(identity, indent=1) + "\n", encoding="utf-8")


def _shown(identity: dict | None, name: str) -> str:
    """A setting's value in a folder's identity, where the identity leaves out a default (a measure
    of `offered`, no planner: folders from before they existed) saying so."""
    if identity is None:
        return "unreadable"
    value = identity.get(name, LEFT_OUT.get(name, "unset"))
    return ("on" if value else "off") if name == "planner" else str(value)


def _key(task) -> tuple:
    stage, a, b, r = task
    return stage, a, b, r


def _missing(tasks, rows) -> list:
    """The tasks no finished run in `rows` has played."""
    held = _keys(rows)
    return [t for t in tasks if _key(t) not in held]


def _keys(rows) -> set:
    return {(r["stage"], r["a"], r["b"], r["replicate"]) for r in rows}


def _play(settings, tasks, folder: Path, backend, progress, what: str, then: str = "") -> list[dict]:
    if not tasks:
        return []
    decks = _decks(settings, tasks, folder, backend, progress, what)
    progress(f"{what}: {counted(len(tasks))} of a pair to play{then}")

    def shown(row):
        figures = ([f"same seat {100 * row['same']:+.1f}"] if row["same"] is not None else []) + (
            [f"across seats {100 * row['cross_a']:+.1f} and {100 * row['cross_b']:+.1f}"]
            if row["cross_a"] is not None else [])
        return f"{row['a']} + {row['b']}: {', '.join(figures)} points"

    work = ((settings, *t, _read(settings, decks, t)) for t in tasks)
    return _write(folder / RUNS, _task, work, len(tasks), backend, progress, what, shown)


def _decks(settings, tasks, folder: Path, backend, progress, what: str) -> dict:
    """The runs of kinds' decks that `tasks` read, (stage, kind, replicate) -> row: those of the
    folder, the others played now (the baselines first: a kind's run reads its baseline's)."""
    have = {(r["stage"], r["kind"], r["replicate"]): r for r in load(folder, DECKS)}
    needed = [t for t in kind_decks.needed(settings, tasks) if t not in have]
    for wave in ([t for t in needed if t[1] == kind_decks.BASELINE], [t for t in needed if t[1] != kind_decks.BASELINE]):
        if wave:
            progress(f"{what}, decks of one kind: {counted(len(wave))} to play")
            work = ((settings, *t, have.get((t[0], kind_decks.BASELINE, t[2]))) for t in wave)
            for row in _write(folder / DECKS, kind_decks.run, work, len(wave), backend, progress,
                              f"{what}, decks of one kind", lambda row: row["kind"] or "the baseline"):
                have[row["stage"], row["kind"], row["replicate"]] = row
    return have


def _read(settings, decks: dict, task) -> dict | None:
    """The rows of kinds' decks a run of a pair reads (None: it reads none)."""
    keys = kind_decks.needed(settings, [task])
    return {k: decks[k] for k in keys} if keys else None


def _write(path: Path, fn, work, count: int, backend, progress, what: str, shown) -> list[dict]:
    """fn(*task) for each task of `work` on the backend, each row a line of `path` as it arrives."""
    from hoc.research.harness import run_tasks

    out, began = [], time.perf_counter()
    _mend(path)
    with path.open("a", encoding="utf-8") as f:
        for n, row in enumerate(run_tasks(backend, fn, work, count), 1):
            f.write(json.dumps(row) + "\n")
            f.flush()
            os.fsync(f.fileno())
            out.append(row)
            per = (time.perf_counter() - began) / n
            progress(f"{what}: {n}/{count} runs ({shown(row)}), about {_clock(per * (count - n))} left")
    return out


def _mend(path: Path) -> None:
    """Drop a last line cut by an interruption, so new runs start on a line of their own."""
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if text and not text.endswith("\n"):
            path.write_text(text[:text.rfind("\n") + 1], encoding="utf-8")


def _task(settings, stage, a, b, replicate, decks=None):
    from hoc.research.combos import pair

    began = time.process_time()
    row = pair.run(settings, stage, a, b, replicate, decks=decks)
    # its core's time, so a screen resumed over several sessions can say what it cost in all
    return {**row, "seconds": round(time.process_time() - began, 2)}


def counted(n: int, noun: str = "run") -> str:
    """`n` and the noun, plural unless one."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h} h {m:02d} min" if h else f"{m} min {s:02d} s" if m else f"{s} s"
