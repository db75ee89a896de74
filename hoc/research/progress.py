"""The progress line of a long command, with its ETA, on stderr: tqdm's bar on a terminal; elsewhere
(a log file, a pipe, CI) the same figures as a plain line every `EVERY` seconds, so a run whose output
is not a terminal still says how far it is and how long it has left."""
from __future__ import annotations

import sys
import time

EVERY = 15.0        # seconds between the lines written off a terminal


class _Lines:
    """A file for tqdm that turns its redrawn bar into one line per refresh (no carriage returns),
    from `EVERY` seconds on: a run shorter than that writes none."""

    def __init__(self, out):
        self.out = out
        self.start = time.monotonic()

    def write(self, text: str) -> None:
        line = text.replace("\r", "").strip()
        if line and time.monotonic() - self.start >= EVERY:
            self.out.write(line + "\n")

    def flush(self) -> None:
        self.out.flush()


class _Told:
    """A bar that tells a listener instead of drawing: `told(n)` after each `update(n)` (a server's job
    follows its games this way; the listener may raise to stop the work)."""

    def __init__(self, told, initial: float = 0):
        self.told = told
        if initial:
            told(initial)

    def update(self, n: float = 1) -> None:
        self.told(n)

    def close(self) -> None:
        pass


def bar(total: float | None, desc: str, unit: str = "games", show=True, **options):
    """A tqdm bar on stderr (`show` False: none; a callable: it is told each step's count instead). On
    a terminal it redraws in place; off one it writes a line such as `playing: 30%|###       |
    3.00k/10.0k [00:12<00:28, 250games/s]` (28 s left) every `EVERY` seconds or so (none in a shorter
    run)."""
    from tqdm import tqdm

    out = sys.stderr
    if callable(show):
        return _Told(show, options.get("initial", 0))
    if not show:
        return tqdm(total=total, disable=True)
    if out.isatty():
        return tqdm(total=total, desc=desc, unit=unit, file=out, leave=False, **options)
    return tqdm(total=total, desc=desc, unit=unit, file=_Lines(out), leave=False,
                **{"ascii": True, "ncols": 100, "mininterval": EVERY, "maxinterval": EVERY, **options})
