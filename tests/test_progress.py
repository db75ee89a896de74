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


def test_a_redraw_right_after_a_line_is_left_out(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    clock = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    bar = progress.bar(1000, "playing", "games", mininterval=0, maxinterval=0)
    for t, n in ((progress.EVERY + 1, 100), (progress.EVERY + 2, 100), (2 * progress.EVERY + 2, 100)):
        clock[0] = t
        bar.update(n)
    bar.close()
    lines = err.getvalue().splitlines()
    assert len(lines) == 2 and "100/1000" in lines[0] and "300/1000" in lines[1]


def test_a_run_in_stages_is_sized_as_games_played_plus_the_games_expected_of_the_stages_ahead():
    told = []
    with progress.metered("margrave", show=told.append) as meter:
        meter.expect(value=400)
        meter.stage("race", 1000)
        progress.played(600)
        assert meter.total() == 1400                    # 600 of the race's 1000 played, the value's 400 ahead
        progress.played(700)                            # a stage playing more than expected: its count
        assert meter.total() == 1700
        meter.stage("refine", 2000)
        progress.more(500)                              # a refinement that knows it has at most 500 left
        assert meter.total() == 1300 + 500 + 400
        progress.played(200)
        meter.stage("value")                            # the refinement stopped early: only its 200 count
        assert meter.total() == 1500 + 400
        progress.played(400)
        assert meter.total() == sum(told) == 1900
    progress.played(10)                                 # no meter after the run: nothing counts
    assert sum(told) == 1900 and not progress.metering()
