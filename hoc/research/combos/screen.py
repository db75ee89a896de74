"""The two stages of a combo screen in a folder: every pair once, then the top pairs again in fresh
markets (`run`). Each finished run of a pair is one line of `runs.jsonl`, written as it arrives, so
an interrupted screen goes on from its last finished run when the same command is given again.
Runs are independent tasks for the backend: local worker processes (`--jobs`) or a Dask cluster.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from hoc.errors import HocError
from hoc.research.combos import analysis
from hoc.research.combos.design import LEFT_OUT, SCREEN, Settings

RUNS = "runs.jsonl"
IDENTITY = "settings.json"


def run(settings: Settings, folder: str | Path, backend, progress=print) -> list[dict]:
    """Screen every pair, confirm the top ones; every run's row (screen and confirmation)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    _claim(folder, settings)
    rows = load(folder)
    screen = [(SCREEN, a, b, 0) for a, b in settings.pairs()]
    rows += _play(settings, [t for t in screen if _key(t) not in _keys(rows)], folder, backend, progress, "screen")
    chosen = analysis.followed_up_by_family(settings, analysis.screen_frame(rows))
    confirm = settings.follow_ups(chosen)
    pairs = len({(a, b) for _, a, b, _ in confirm})
    rows += _play(settings, [t for t in confirm if _key(t) not in _keys(rows)], folder, backend, progress,
                  f"confirmation of {pairs} pairs")
    return rows


def load(folder: Path) -> list[dict]:
    path = folder / RUNS
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


def _keys(rows) -> set:
    return {(r["stage"], r["a"], r["b"], r["replicate"]) for r in rows}


def _play(settings, tasks, folder: Path, backend, progress, what: str) -> list[dict]:
    from hoc.research.harness import run_tasks

    if not tasks:
        return []
    progress(f"{what}: {len(tasks)} runs of a pair to play")
    out, began = [], time.perf_counter()
    path = folder / RUNS
    _mend(path)
    with path.open("a", encoding="utf-8") as f:
        for n, row in enumerate(run_tasks(backend, _task, ((settings, *t) for t in tasks), len(tasks)), 1):
            f.write(json.dumps(row) + "\n")
            f.flush()
            os.fsync(f.fileno())
            out.append(row)
            per = (time.perf_counter() - began) / n
            figures = ([f"same seat {100 * row['same']:+.1f}"] if row["same"] is not None else []) + (
                [f"across seats {100 * row['cross_a']:+.1f} and {100 * row['cross_b']:+.1f}"]
                if row["cross_a"] is not None else [])
            progress(f"{what}: {n}/{len(tasks)} runs ({row['a']} + {row['b']}: {', '.join(figures)} points), "
                     f"about {_clock(per * (len(tasks) - n))} left")
    return out


def _mend(path: Path) -> None:
    """Drop a last line cut by an interruption, so new runs start on a line of their own."""
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if text and not text.endswith("\n"):
            path.write_text(text[:text.rfind("\n") + 1], encoding="utf-8")


def _task(settings, stage, a, b, replicate):
    from hoc.research.combos import pair

    began = time.process_time()
    row = pair.run(settings, stage, a, b, replicate)
    # its core's time, so a screen resumed over several sessions can say what it cost in all
    return {**row, "seconds": round(time.process_time() - began, 2)}


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h} h {m:02d} min" if h else f"{m} min {s:02d} s" if m else f"{s} s"
