"""The progress line of a long command, with its ETA, on stderr: tqdm's bar on a terminal; elsewhere
(a log file, a pipe, CI) the same figures as a plain line every `EVERY` seconds, so a run whose output
is not a terminal still says how far it is and how long it has left. A run in stages (`metered`) has
one line over all of them, counted where games are played (`played`)."""
from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from contextvars import ContextVar

EVERY = 15.0        # seconds between the lines written off a terminal


class _Lines:
    """A file for tqdm that turns its redrawn bar into one line per refresh (no carriage returns),
    from `EVERY` seconds on: a run shorter than that writes none; a redraw soon after a line (tqdm's
    monitor thread and an update can both draw at the same moment) is left out."""

    def __init__(self, out):
        self.out = out
        self.start = time.monotonic()
        self.last = float("-inf")

    def write(self, text: str) -> None:
        line = text.replace("\r", "").strip()
        now = time.monotonic()
        if line and now - self.start >= EVERY and now - self.last >= EVERY / 2:
            self.out.write(line + "\n")
            self.last = now

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


class Stages:
    """The meter of a run in stages whose sizes are known only as it goes (a search, then its
    finalists, then a refinement ...): one bar over all their games. Its total is the games played
    so far plus what each stage not yet ended is expected to play (at least what it has played): a
    stage's estimate (`expect`, `more`) gives way to the games it did play once it ends, so work not
    done is not counted for long, and the ETA is the whole run's, as good as the stages' estimates."""

    def __init__(self, bar):
        self.bar = bar
        self.expected: dict[str, float] = {}
        self.played: dict[str, float] = {}
        self.current: str | None = None

    def expect(self, **games: float) -> None:
        """Stages ahead (or the current one) and the games each is expected to play."""
        self.expected.update(games)
        self._size()

    def stage(self, name: str, games: float | None = None) -> None:
        """The current stage ends (its size is now the games it played) and `name` begins (its name
        shown after the figures on the bar)."""
        self.end()
        self.current = name
        if games is not None:
            self.expected[name] = games
        self._size()
        if hasattr(self.bar, "set_postfix_str"):
            self.bar.set_postfix_str(name, refresh=False)

    def more(self, games: float) -> None:
        """The current stage is expected to play `games` more than it has played so far."""
        self.expect(**{self.current: self.played.get(self.current, 0) + games})

    def end(self) -> None:
        if self.current is not None:
            self.expected[self.current] = self.played.get(self.current, 0)
            self.current = None

    def count(self, n: float) -> None:
        self.played[self.current] = self.played.get(self.current, 0) + n
        if self.played[self.current] > self.expected.get(self.current, 0):
            self._size()
        self.bar.update(n)

    def total(self) -> float:
        return sum(max(self.expected.get(s, 0), self.played.get(s, 0)) for s in {*self.expected, *self.played})

    def _size(self) -> None:
        self.bar.total = self.total()


_METER: ContextVar[Stages | None] = ContextVar("hoc_progress_meter", default=None)


@contextmanager
def metered(desc: str, unit: str = "games", show=True, **options):
    """A `Stages` meter over `bar(desc, unit, show)` for the duration: the games played meanwhile
    (`played`, called where games are played) count on it, and `stage`/`expect` size it."""
    meter = Stages(bar(0, desc, unit, show, **options))
    token = _METER.set(meter)
    try:
        yield meter
    finally:
        _METER.reset(token)
        meter.end()
        meter.bar.close()


def metering() -> bool:
    """Whether a meter counts the games played now (an inner progress line would only repeat it)."""
    return _METER.get() is not None


def played(n: float) -> None:
    """`n` games were played: the run's meter counts them (nothing without one)."""
    meter = _METER.get()
    if meter is not None:
        meter.count(n)


def stage(name: str, games: float | None = None) -> None:
    """The run's meter (if any) begins stage `name`, expected to play `games`."""
    meter = _METER.get()
    if meter is not None:
        meter.stage(name, games)


def more(games: float) -> None:
    """The run's meter (if any) expects its current stage to play `games` more."""
    meter = _METER.get()
    if meter is not None and meter.current is not None:
        meter.more(games)


def say(line: str) -> None:
    """A line on stderr that does not break a progress line drawn on a terminal."""
    from tqdm import tqdm

    tqdm.write(line, file=sys.stderr)


def expect(**games: float) -> None:
    """The run's meter (if any) expects these stages to play these games."""
    meter = _METER.get()
    if meter is not None:
        meter.expect(**games)
