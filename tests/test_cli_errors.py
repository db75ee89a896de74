"""Inputs that used to crash, hang or lose a run: each gives one line on stderr naming the problem and
exit code 2 (no traceback), before any game is played; a Ctrl-C gives one line saying what was saved
and how to resume, with exit code 130; a huge run keeps its memory flat."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from hoc.cli import main

BASIC = ["--market", "basic"]
SENATOR_DUKE = "agents/heart_of_crown/archetypes/senator_duke.toml"


def refused(capsys, *argv) -> str:
    """Run the command line; assert it refused the input with one line and exit code 2; return the line."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2, (code, out, err)
    assert len(lines) == 1, err
    assert lines[0].startswith("hoc: error: "), err
    assert "Traceback" not in err and out == ""
    return lines[0]


def agent_file(tmp_path, text: str | bytes, name: str = "mine.toml") -> str:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


# ---- numbers out of range --------------------------------------------------------------------------

def test_a_huge_override_value_is_refused_with_the_fields_range(capsys):
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--override", "duke.cost=99999999999")
    assert "duke.cost=99999999999" in line and "0 to 99" in line


def test_a_negative_copies_override_is_refused(capsys):
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--override", "city.copies=-1")
    assert "copies must be 0 to 99" in line


def test_a_huge_override_in_balance_is_refused_before_playing(capsys):
    line = refused(capsys, "balance", "--games", "2", "--override", "curse_witch.cost=99999999999")
    assert "curse_witch.cost" in line


def test_a_huge_threshold_in_an_agent_file_is_refused_naming_its_line(capsys, tmp_path):
    path = agent_file(tmp_path, '[[buy]]\ncard = "duke"\ncoins_at_least = 99999999999\n')
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)
    assert f"{path}, line 3" in line and "coins_at_least" in line and "99999999999" in line


def test_a_huge_princess_threshold_in_an_agent_file_is_refused(capsys, tmp_path):
    path = agent_file(tmp_path, '[princess]\nmin_coins = 99999999999\n[[buy]]\ncard = "duke"\n')
    assert "min_coins" in refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)


def test_a_huge_turn_cap_is_refused(capsys):
    assert "turn_cap must be a whole number from 1 to 1000" in refused(
        capsys, "simulate", *BASIC, "--games", "2", "--turn-cap", "99999999999")


def test_a_game_index_beyond_64_bits_is_refused_by_replay(capsys):
    assert "--game" in refused(capsys, "replay", *BASIC, "--game", str(2 ** 70))


# ---- agent files ----------------------------------------------------------------------------------

def test_an_agent_file_that_is_not_utf8_is_refused(capsys, tmp_path):
    path = agent_file(tmp_path, b'description = "caf\xe9"\n[[buy]]\ncard = "duke"\n')
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)
    assert path in line and "not UTF-8" in line and "0xe9" in line


def test_a_utf16_agent_file_is_refused(capsys, tmp_path):
    path = agent_file(tmp_path, '[[buy]]\ncard = "duke"\n'.encode("utf-16"))
    assert "not UTF-8" in refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)


def test_an_empty_agent_file_is_refused(capsys, tmp_path):
    path = agent_file(tmp_path, "")
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)
    assert path in line and "no [[buy]] rules" in line


def test_an_agent_file_of_comments_only_is_refused(capsys, tmp_path):
    path = agent_file(tmp_path, '# to do\ndescription = "later"\n')
    assert "no [[buy]] rules" in refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)


@pytest.mark.parametrize("text, problem", [
    ('princess = 3\n[[buy]]\ncard = "duke"\n', "princess must be a table"),
    ('set = "high"\n[[buy]]\ncard = "duke"\n', "set must be a table"),
    ('play = [1]\n[[buy]]\ncard = "duke"\n', "play must be a table"),
    ('choose = 2\n[[buy]]\ncard = "duke"\n', "choose must be a table"),
    ("buy = [1, 2]\n", "buy rules are written [[buy]] tables"),
    ('[[buy]]\ncard = "duke"\ncoins_at_least = 2.5\n', "coins_at_least must be a whole number"),
    ('[[buy]]\ncard = "duke"\nturn_at_most = "5"\n', "turn_at_most must be a whole number"),
    ('[play]\nkeep = "yes"\n[[buy]]\ncard = "duke"\n', "keep must be true or false"),
], ids=["princess-int", "set-string", "play-list", "choose-int", "buy-ints", "float", "string", "keep-string"])
def test_a_value_of_the_wrong_type_in_an_agent_file_is_refused(capsys, tmp_path, text, problem):
    path = agent_file(tmp_path, text)
    assert problem in refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)


def test_an_agent_file_that_is_a_folder_is_refused(capsys, tmp_path):
    (tmp_path / "folder.toml").mkdir()
    assert "cannot read agent file" in refused(capsys, "simulate", *BASIC, "--games", "2",
                                               "--agents", str(tmp_path / "folder.toml"))


def test_an_agent_file_with_a_byte_order_mark_is_read(capsys, tmp_path):
    """Windows Notepad starts UTF-8 files with a byte-order mark: that is still UTF-8."""
    path = agent_file(tmp_path, '\ufeff[[buy]]\ncard = "duke"\n'.encode("utf-8"))
    assert main(["simulate", *BASIC, "--games", "2", "--agents", path]) == 0


# ---- rulesets ---------------------------------------------------------------------------------------

def test_fewer_princesses_than_players_is_refused(capsys):
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--players", "3",
                   "--princesses", "lulunasaika,laolily")
    assert "3 players need at least 3 princesses" in line


def test_five_players_are_refused(capsys):
    assert "players must be 1 to 4" in refused(capsys, "simulate", *BASIC, "--games", "2", "--players", "5")


def test_five_players_are_refused_by_tournament(capsys):
    assert "players must be 1 to 4" in refused(capsys, "tournament", "--players", "5",
                                               "--games-per-pairing", "2")


# ---- output paths, checked before any game is played -------------------------------------------

@pytest.fixture
def no_play(monkeypatch):
    """Fail the test if a game is played: the input must be refused before."""
    from hoc.research import harness

    def play_rows(*args):
        raise AssertionError("a game was played before the bad input was refused")
    monkeypatch.setattr(harness, "play_rows", play_rows)


HUGE = ["--games", str(10 ** 13)]          # a run that could never finish: refusing must come first
NO_FILES = "/proc/hoc-test"                # a folder that takes no new file, even for root
needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")


def test_an_empty_out_is_refused(capsys, no_play):
    assert "--out must name a .parquet folder, got ''" in refused(capsys, "simulate", *BASIC, *HUGE, "--out", "")


def test_an_out_without_parquet_is_refused(capsys, no_play, tmp_path):
    assert ".parquet" in refused(capsys, "tournament", "--out", str(tmp_path / "games"))


def test_an_out_that_exists_as_a_file_is_refused(capsys, no_play, tmp_path):
    (tmp_path / "g.parquet").write_bytes(b"")
    line = refused(capsys, "simulate", *BASIC, *HUGE, "--out", str(tmp_path / "g.parquet"))
    assert "exists and is a file" in line


def test_an_out_inside_a_file_is_refused(capsys, no_play, tmp_path):
    (tmp_path / "f").write_bytes(b"")
    line = refused(capsys, "tournament", "--out", str(tmp_path / "f" / "missing" / "g.parquet"))
    assert "is a file, not a folder" in line


def test_an_out_inside_missing_folders_is_written_there(tmp_path, capsys):
    """The README's tour names outputs such as `--out atlas/festival` in a fresh clone: the folders
    are made."""
    from hoc.cli.main import main

    out = tmp_path / "missing" / "deeper" / "g.parquet"
    assert main(["simulate", "--agents", "basic_rush,basic_rush", "--games", "20", "--out", str(out)]) == 0
    assert list(out.glob("*.parquet"))


@needs_proc
def test_an_out_inside_a_folder_that_takes_no_files_is_refused(capsys, no_play):
    assert "cannot write in /proc" in refused(capsys, "simulate", *BASIC, *HUGE, "--out", f"{NO_FILES}.parquet")


@needs_proc
def test_an_unwritable_plot_is_refused_before_playing(capsys, no_play):
    assert "--plot" in refused(capsys, "simulate", *BASIC, *HUGE, "--plot", f"{NO_FILES}.png")


@needs_proc
def test_an_unwritable_sp_curves_plot_is_refused_before_playing(capsys, no_play):
    assert "--sp-curves" in refused(capsys, "simulate", *BASIC, *HUGE, "--sp-curves", f"{NO_FILES}.png")


@needs_proc
@pytest.mark.parametrize("command", ["tournament", "princesses", "balance"])
def test_an_unwritable_study_plot_is_refused_before_playing(capsys, no_play, command):
    assert "--plot" in refused(capsys, command, "--plot", f"{NO_FILES}.png")


def test_a_plot_without_png_is_refused(capsys, no_play, tmp_path):
    assert "must name a .png file" in refused(capsys, "simulate", *BASIC, *HUGE, "--plot", str(tmp_path / "len"))


def test_an_empty_plot_is_refused(capsys, no_play):
    assert "must name a .png file, got ''" in refused(capsys, "simulate", *BASIC, *HUGE, "--plot", "")


def test_a_plot_that_is_a_folder_is_refused(capsys, no_play, tmp_path):
    (tmp_path / "x.png").mkdir()
    assert "exists and is a folder" in refused(capsys, "simulate", *BASIC, *HUGE, "--plot", str(tmp_path / "x.png"))


def test_a_plot_inside_a_file_is_refused(capsys, no_play, tmp_path):
    (tmp_path / "notes").write_text("")
    line = refused(capsys, "simulate", *BASIC, *HUGE, "--plot", str(tmp_path / "notes" / "len.png"))
    assert "is a file, not a folder" in line


def test_a_plot_and_sp_curves_on_one_file_are_refused(capsys, no_play, tmp_path):
    line = refused(capsys, "simulate", *BASIC, *HUGE, "--plot", str(tmp_path / "a.png"),
                   "--sp-curves", str(tmp_path / "." / "a.png"))
    assert "--sp-curves and --plot name the same file" in line


def test_a_plot_inside_the_out_folder_is_refused(capsys, no_play, tmp_path):
    out = tmp_path / "g.parquet"
    line = refused(capsys, "simulate", *BASIC, *HUGE, "--out", str(out), "--plot", str(out / "len.png"))
    assert "inside the --out folder" in line


def test_a_plot_that_fails_after_the_run_keeps_the_printed_summary(capsys, monkeypatch, tmp_path):
    from hoc.research import plots

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(plots, "length_histogram", disk_full)
    code = main(["simulate", *BASIC, "--games", "20", "--plot", str(tmp_path / "len.png")])
    out, err = capsys.readouterr()
    assert code == 2
    assert "win rate by seat" in out                         # the summary came first
    assert err.strip().splitlines() == [f"hoc: error: cannot write --plot {tmp_path / 'len.png'}: "
                                        "No space left on device (the summary above is complete)"]


def test_a_3_player_tournament_plots_each_agents_win_rate_with_its_interval(capsys, tmp_path):
    from matplotlib.image import imread

    png = tmp_path / "rr.png"
    assert main(["tournament", "--players", "3", "--agents", "senator_duke,curse_witch,basic_rush",
                 "--games-per-pairing", "30", "--plot", str(png)]) == 0
    assert "win rate by agent" in capsys.readouterr().out
    image = imread(png)
    assert image.shape[0] > 200 and image.shape[1] > 400 and image.std() > 0.05


# ---- counts and run options ---------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["simulate", *BASIC, "--games", "0"], ["simulate", *BASIC, "--games", "-5"],
    ["princesses", "--games", "-5"], ["balance", "--games", "0"],
], ids=["simulate-0", "simulate-negative", "princesses-negative", "balance-0"])
def test_zero_or_negative_games_are_refused(capsys, no_play, argv):
    line = refused(capsys, *argv)
    assert "games must be at least 1" in line and argv[-1] in line


def test_negative_games_per_pairing_are_refused(capsys, no_play):
    assert "--games-per-pairing must be at least 1" in refused(capsys, "tournament", "--games-per-pairing", "-1")


def test_more_games_than_64_bit_indices_are_refused(capsys, no_play):
    assert "2**63" in refused(capsys, "simulate", *BASIC, "--games", str(2 ** 64))


def test_more_jobs_than_cores_are_refused(capsys, no_play):
    assert "jobs must be at most" in refused(capsys, "simulate", *BASIC, *HUGE, "--jobs", "1000000")


@pytest.mark.parametrize("argv", [
    ["tournament", "--games-per-pairing", str(10 ** 13)], ["princesses", *HUGE], ["balance", *HUGE],
], ids=["tournament", "princesses", "balance"])
def test_a_study_too_big_for_memory_is_refused_before_playing(capsys, no_play, argv):
    """The studies keep their games in memory (simulate streams them): 10**13 games cannot fit."""
    assert "keeps its" in refused(capsys, *argv)


def test_a_malformed_scheduler_address_is_refused(capsys, no_play):
    line = refused(capsys, "simulate", *BASIC, *HUGE, "--backend", "dask", "--scheduler", "garbage")
    assert "'garbage' is not an address" in line


def test_a_python_agent_without_module_or_function_is_refused(capsys, no_play):
    assert "expected module:function" in refused(capsys, "simulate", *BASIC, *HUGE, "--agents", ":")


def test_a_malformed_sprt_is_refused(capsys, no_play):
    assert "--sprt takes P0,P1" in refused(capsys, "tournament", "--sprt", "abc")


def test_no_agents_for_balance_are_refused(capsys, no_play):
    assert "no agents given" in refused(capsys, "balance", "--agents", "")


# ---- agents that share a name -------------------------------------------------------------------

def test_a_copied_agent_file_is_told_apart_from_the_original(capsys, tmp_path):
    import json
    import shutil

    (tmp_path / "copy").mkdir()
    copy = str(shutil.copy(SENATOR_DUKE, tmp_path / "copy" / "senator_duke.toml"))
    assert main(["simulate", "--agents", f"{copy},senator_duke", "--games", "20", "--rotate-seats", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert set(s["wins_by_agent"]) == {copy, "senator_duke"}
    assert s["seats_by_agent"] == {copy: 20, "senator_duke": 20}


def test_a_copied_agent_file_plays_a_tournament_against_the_original(capsys, tmp_path):
    import shutil

    (tmp_path / "copy").mkdir()
    copy = str(shutil.copy(SENATOR_DUKE, tmp_path / "copy" / "senator_duke.toml"))
    assert main(["tournament", "--agents", f"{copy},senator_duke", "--games-per-pairing", "10"]) == 0
    assert copy in capsys.readouterr().out


def test_two_different_agents_under_one_name_are_refused_by_a_plan(tmp_path):
    from hoc.agents.registry import from_file
    from hoc.errors import HocError
    from hoc.research.harness import Plan
    from hoc.games.heart_of_crown.rules import Ruleset

    for folder, card in (("a", "duke"), ("b", "city")):
        (tmp_path / folder).mkdir()
        agent_file(tmp_path / folder, f'[[buy]]\ncard = "{card}"\n', "plan.toml")
    a, b = from_file(tmp_path / "a" / "plan.toml"), from_file(tmp_path / "b" / "plan.toml")
    with pytest.raises(HocError, match="two different agents are both named 'plan'"):
        Plan(Ruleset(players=2, market="basic"), [a, b], 10)
    assert Plan(Ruleset(players=2, market="basic"), [a, from_file(tmp_path / "a" / "plan.toml")], 10)


# ---- a huge run, and Ctrl-C ---------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def test_a_huge_plan_makes_its_chunks_one_at_a_time():
    import itertools
    import tracemalloc

    from hoc.research.harness import Plan, chunk_size
    from hoc.research.simulate import lineup
    from hoc.games.heart_of_crown.rules import Ruleset

    games = 10 ** 13
    tracemalloc.start()
    plan = Plan(Ruleset(players=2, market="basic"), lineup("basic_rush", 2), games, chunk=chunk_size(games))
    first = list(itertools.islice(plan.chunks(skip={0}), 3))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert first == [(10_000, 10_000), (20_000, 10_000), (30_000, 10_000)]
    assert plan.n_chunks == 10 ** 9
    assert peak < 2 ** 20, f"building the plan and its first chunks took {peak:,} bytes"


def test_a_huge_run_resumes_by_reading_only_the_parts_on_disk(tmp_path, capsys):
    """A rerun of `--games 10**13` finds its finished parts without visiting its 10**9 chunks."""
    import time

    from hoc.research.harness import Chunk, Plan, chunk_size
    from hoc.research.simulate import lineup, simulate
    from hoc.research.store import ParquetStore
    from hoc.games.heart_of_crown.rules import Ruleset

    rs, agents, games = Ruleset(players=2, market="basic"), lineup("basic_rush", 2), 10 ** 13
    plan = Plan(rs, agents, games, chunk=chunk_size(games))
    store = ParquetStore(tmp_path / "g.parquet", plan)
    store.write(Chunk(0, simulate(rs, agents, 10_000).games, None))
    t0 = time.perf_counter()
    assert store.done() == {0}
    assert time.perf_counter() - t0 < 5


def test_a_part_interrupted_before_its_rename_is_neither_read_nor_left_behind(tmp_path, monkeypatch):
    """A Ctrl-C between writing a part and renaming it (the CI run that found this printed 280,000
    games saved while `pandas.read_parquet` read 290,000): the half-done part is hidden from a
    folder reader while written, and removed when the write is interrupted."""
    import pandas as pd

    from hoc.research import store as store_module
    from hoc.research.harness import Chunk, Plan
    from hoc.research.simulate import lineup, simulate
    from hoc.research.store import ParquetStore, saved
    from hoc.games.heart_of_crown.rules import Ruleset

    rs, agents = Ruleset(players=2, market="basic"), lineup("basic_rush", 2)
    store = ParquetStore(tmp_path / "g.parquet", Plan(rs, agents, 20, chunk=10))
    store.write(Chunk(0, simulate(rs, agents, 10).games, None))
    seen = []

    def interrupted(src, dst):
        seen.append(len(pd.read_parquet(store.path)))    # the new part is on disk, not yet renamed
        raise KeyboardInterrupt

    monkeypatch.setattr(store_module.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        store.write(Chunk(10, simulate(rs, agents, 10, first=10).games, None))
    assert seen == [10]
    assert saved(store.path) == (1, 10) and len(pd.read_parquet(store.path)) == 10
    assert sorted(p.name for p in store.path.iterdir()) == ["_run.json", "part-000000000000.parquet"]
    (store.path / "part-000000000010.parquet.tmp").write_bytes(b"")   # an older version's leftover
    ParquetStore(store.path, store.plan)                                   # the run started again
    assert sorted(p.name for p in store.path.iterdir()) == ["_run.json", "part-000000000000.parquet"]


def _rss_mb(pid: int) -> float:
    import psutil

    return psutil.Process(pid).memory_info().rss / 2 ** 20


def test_a_huge_simulate_plays_at_once_in_flat_memory_and_ctrl_c_says_what_is_saved(tmp_path):
    """`hoc simulate --games 10**13` starts writing parts at once, stays far under 1 GB, and a Ctrl-C
    (SIGINT to the whole process group, as a terminal sends it) prints one line with the games
    saved and the command that resumes, exit code 130."""
    import signal
    import subprocess
    import sys
    import time

    import pandas as pd

    out = tmp_path / "huge.parquet"
    argv = ["simulate", *BASIC, "--games", str(10 ** 13), "--out", str(out)]
    proc = subprocess.Popen([sys.executable, "-m", "hoc", *argv], cwd=ROOT, start_new_session=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline, rss = time.time() + 300, []
        while len(list(out.glob("part-*.parquet"))) < 3 and time.time() < deadline and proc.poll() is None:
            time.sleep(0.2)
        for _ in range(20):                                       # 4 s of play after the third part
            rss.append(_rss_mb(proc.pid))
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()[1]
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert max(rss) < 1024, rss
    assert rss[-1] - rss[0] < 50, f"memory grew during the run: {rss}"
    assert proc.returncode == 130
    # a cold numba cache (another checkout's path) adds the compile notice before the games start
    lines = [line for line in stderr.strip().splitlines() if not line.startswith("compiling the engine")]
    games = len(pd.read_parquet(out))
    parts = len(list(out.glob("part-*.parquet")))
    assert lines == [f"hoc: interrupted; {games:,} games in {parts:,} parts are saved in {out}; "
                     f"resume with the same command: hoc {' '.join(argv)}"]


def test_ctrl_c_without_out_says_nothing_was_saved(capsys, monkeypatch):
    from hoc.research import runs

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(runs, "execute", interrupted)
    assert main(["simulate", *BASIC, "--games", "100"]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["hoc: interrupted; nothing was saved (no --out given: add --out NAME.parquet to keep "
                   "the games of a run)"]


def test_ctrl_c_in_a_tournament_counts_the_games_of_every_finished_pairing(capsys, monkeypatch, tmp_path):
    """The second pairing is interrupted as it starts: the first one's parts are what is saved."""
    from hoc.research import runs, studies

    real, calls = runs.execute, []

    def execute(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(studies, "execute", execute)
    out = tmp_path / "rr.parquet"
    argv = ["tournament", "--agents", "senator_duke,curse_witch,basic_rush", "--games-per-pairing", "40",
            "--out", str(out)]
    assert main(argv) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"hoc: interrupted; 40 games in 8 parts are saved in {out}; "
                   f"resume with the same command: hoc {' '.join(argv)}"]


def test_ctrl_c_before_any_part_is_written_says_so(capsys, monkeypatch, tmp_path):
    from hoc.research import runs

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(runs, "execute", interrupted)
    out = tmp_path / "g.parquet"
    assert main(["simulate", *BASIC, "--games", "100", "--out", str(out)]) == 130
    assert capsys.readouterr().err.strip().splitlines() == [
        f"hoc: interrupted before any game was saved in {out}; start again with: "
        f"hoc simulate --market basic --games 100 --out {out}"]


# ---- the study scripts --------------------------------------------------------------------------

def study_refused(capsys, monkeypatch, name: str, *argv) -> str:
    """Run `python -m experiments.NAME ARGV` in this process; assert one line on stderr and exit code 2."""
    import importlib
    import sys

    from experiments.common import cli

    module = importlib.import_module(f"experiments.{name}")
    monkeypatch.setattr(sys, "argv", [module.__file__, *argv])
    with pytest.raises(SystemExit) as e:
        cli(lambda: module.main(list(argv)))
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert e.value.code == 2 and len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


def test_a_study_refuses_zero_games(capsys, monkeypatch, no_play, tmp_path):
    line = study_refused(capsys, monkeypatch, "seat_order", "--games", "0", "--out", str(tmp_path / "s"))
    assert "--games must be at least 1, got 0" in line


def test_the_benchmark_refuses_negative_4_player_games_before_the_2_player_round(capsys, monkeypatch, no_play,
                                                                               tmp_path):
    line = study_refused(capsys, monkeypatch, "benchmark", "--games-4p", "-1", "--out", str(tmp_path / "b"))
    assert "--games-4p must be 0 (skip) or more" in line


def test_the_benchmark_refuses_an_unknown_preset_market_before_the_2_player_round(capsys, monkeypatch, no_play,
                                                                                 tmp_path):
    line = study_refused(capsys, monkeypatch, "benchmark", "--markets", "first_play,nosuch_market",
                         "--out", str(tmp_path / "b"))
    assert "nosuch_market" in line


def test_the_balance_study_refuses_a_huge_what_if_before_playing(capsys, monkeypatch, no_play, tmp_path):
    line = study_refused(capsys, monkeypatch, "balance", "--what-if", "curse_witch.cost=99999999999",
                         "--out", str(tmp_path / "b"))
    assert "curse_witch.cost" in line


@pytest.mark.parametrize("argv,named", [(["--recheck", "0"], "--recheck must be at least 1"),
                                         (["--recheck-seeds", "1"], "--recheck-seeds at least 2"),
                                         (["--cards", "nosuch"], "nosuch")])
def test_the_rule_audit_refuses_bad_input_before_playing(capsys, monkeypatch, no_play, tmp_path, argv, named):
    assert named in study_refused(capsys, monkeypatch, "rule_audit", *argv, "--out", str(tmp_path / "a"))


def test_a_study_refuses_an_out_inside_a_file(capsys, monkeypatch, no_play, tmp_path):
    (tmp_path / "notes").write_text("")
    line = study_refused(capsys, monkeypatch, "seat_order", "--out", str(tmp_path / "notes" / "s"))
    assert "--out" in line and "notes" in line


def test_a_study_refuses_more_jobs_than_cores(capsys, monkeypatch, no_play, tmp_path):
    assert "jobs must be at most" in study_refused(capsys, monkeypatch, "seat_order", "--jobs", "1000000",
                                                   "--out", str(tmp_path / "s"))


def test_a_study_reports_a_usage_error_in_one_line(capsys, monkeypatch):
    assert "--games" in study_refused(capsys, monkeypatch, "princesses", "--games", "many")


def test_ctrl_c_in_a_study_says_what_is_saved_and_how_to_resume(capsys, monkeypatch, tmp_path):
    import sys

    from experiments import seat_order
    from experiments.common import cli

    real, calls = seat_order.execute, []

    def execute(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(seat_order, "execute", execute)
    argv = ["--games", "30", "--jobs", "1", "--out", str(tmp_path / "s")]
    monkeypatch.setattr(sys, "argv", [seat_order.__file__, *argv])
    with pytest.raises(SystemExit) as e:
        cli(lambda: seat_order.main(argv))
    assert e.value.code == 130
    assert capsys.readouterr().err.strip().splitlines() == [
        f"interrupted; 30 games in 8 parts are saved in {tmp_path / 's'}; resume with the same command: "
        f"python -m experiments.seat_order {' '.join(argv)}"]


@pytest.mark.parametrize("python_agent", [False, True], ids=["jitted", "python"])
def test_games_past_2_to_the_31_keep_their_numbers_and_seeds(python_agent):
    """The kernels' result rows hold the game number in 32 bits: the frame numbers games from the
    chunk's first index instead, so a huge run's rows name the right game and seed."""
    from hoc.agents.registry import Agent, get
    from hoc.games.heart_of_crown.game import Game
    from hoc.research.harness import Plan, play
    from hoc.games.heart_of_crown.rules import Ruleset

    rs = Ruleset(players=2, market="basic")
    agent = get("basic_rush")
    if python_agent:
        agent = Agent("first_legal", -1, "the first legal action", agent.params, play=lambda g: g.legal_actions()[0])
    first = 2 ** 31 - 1
    plan = Plan(rs, [agent, get("basic_rush")], 3, seed=9, first=first, chunk=3)
    (chunk,) = list(play(plan))
    assert chunk.games.game.tolist() == [first, first + 1, first + 2]
    assert chunk.games.seed.tolist() == [Game.of_run(rs, 9, i).seed for i in range(first, first + 3)]


def test_the_balance_study_refuses_negative_refinement_seeds_before_playing(capsys, monkeypatch, no_play, tmp_path):
    line = study_refused(capsys, monkeypatch, "balance", "--refine-seeds", "-3", "--out", str(tmp_path / "b"))
    assert "--refine-seeds must be at least 0" in line


def test_the_balance_study_refuses_negative_build_steps_before_playing(capsys, monkeypatch, no_play, tmp_path):
    line = study_refused(capsys, monkeypatch, "balance", "--build-steps", "-1", "--out", str(tmp_path / "b"))
    assert "--build-steps must be at least 0" in line
