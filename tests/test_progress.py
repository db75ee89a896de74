"""The progress line of a long command off a terminal: plain lines with the ETA, none in a short run; a
listener told each step's count instead (a web job following its games)."""
from __future__ import annotations

import io

from hoc.research import progress


def test_off_a_terminal_the_bar_writes_plain_lines_with_its_eta_from_every_seconds_on(monkeypatch):
    err = io.StringIO()                                 # not a terminal
    monkeypatch.setattr("sys.stderr", err)
    clock = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    bar = progress.bar(1000, "playing", "games", mininterval=0, maxinterval=0)
    bar.update(100)
    assert err.getvalue() == ""                         # a short run says nothing
    clock[0] = progress.EVERY + 1
    bar.update(300)
    bar.close()
    lines = err.getvalue().splitlines()
    assert lines and all("\r" not in line for line in lines)
    assert lines[0].startswith("playing:  40%") and "400/1000" in lines[0] and "<" in lines[0]   # elapsed<left


def test_a_bar_not_shown_writes_nothing(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    bar = progress.bar(10, "playing", show=False)
    bar.update(10)
    bar.close()
    assert err.getvalue() == ""


def test_a_bar_given_a_listener_tells_it_each_steps_count_and_writes_nothing(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    told = []
    bar = progress.bar(1000, "playing", "games", told.append, initial=200, unit_scale=True)
    bar.update(300)
    bar.update(500)
    bar.close()
    assert told == [200, 300, 500] and err.getvalue() == ""
