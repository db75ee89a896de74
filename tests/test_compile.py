"""What keeps the cold start short and its cost apart from the games: one compiled version per
kernel, no invariant checks compiled into a plain run, a compile announced only when the cache
folder lacks the engine, and games per second over playing time alone."""
from __future__ import annotations

import importlib
import json
import pkgutil
import sys

import numpy as np
import pytest
from numba import njit, types
from numba.core.dispatcher import Dispatcher

import hoc
from hoc.cli.main import main
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.kernel.state import card, load_u64
from hoc.games.heart_of_crown.kernel.zones import draw
from hoc.research import batch, engine
from hoc.research.engine import Timing, Warmup
from hoc.research.harness import Plan, play_rows
from hoc.research.simulate import Summary, lineup, report, simulate
from hoc.games.heart_of_crown.rules import Ruleset


def jitted_functions() -> list[Dispatcher]:
    """Every jitted function of the engine, the game's kernel, the agents' policies and the loops made."""
    names = [f"hoc.games.heart_of_crown.kernel.{m.name}" for m in pkgutil.iter_modules(hoc.games.heart_of_crown.kernel.__path__)]
    names += [f"hoc.engine.{m.name}" for m in pkgutil.iter_modules(hoc.engine.__path__)]
    names += ["hoc.games.heart_of_crown.agents.policies", "hoc.games.heart_of_crown.agents.priority_kernel", "hoc.games.heart_of_crown.agents.search.kernel", "hoc.research.batch"]
    names += [name for name in sys.modules if name.startswith("hoc.engine.loops.")]   # the loops made at run time
    found = {}
    for name in names:
        for value in vars(importlib.import_module(name)).values():
            for d in value.values() if isinstance(value, dict) else [value]:
                if isinstance(d, Dispatcher):
                    found[id(d)] = d
    return list(found.values())


def test_a_kernel_compiles_one_version_for_literal_int32_and_int64_arguments():
    @njit
    def costs(s):
        # a literal field, an int32 card read from the state, an int64 card: one version of `card`
        return card(s, 0, K.F_COST) + card(s, s[K.H_CUR], K.F_SP) + card(s, np.int64(1), 2)

    costs(Game(Ruleset(players=2, market="basic"), seed=1).state)
    assert len(card.signatures) == 1
    assert card.signatures[0][1:] == (types.int64, types.int64)


def test_an_entry_called_from_python_with_int32_and_int_arguments_has_one_version():
    s = Game(Ruleset(players=2, market="basic"), seed=3).state
    assert load_u64(s, np.int32(K.H_SEED)) == load_u64(s, K.H_SEED)
    assert len(load_u64.signatures) == 1


@pytest.mark.slow   # compiles every variant in a fresh process (~2 min)
def test_every_jitted_function_has_at_most_one_version_after_runs_and_a_python_game():
    rs = Ruleset(players=2)
    simulate(rs, lineup("basic_rush", 2), 20, seed=1, announce=False)
    simulate(rs, lineup("senator_duke,random", 2), 20, seed=2, validate=True, announce=False)
    simulate(rs, lineup("ismcts:iterations=10,random", 2), 2, seed=3, announce=False)
    game = Game(rs, seed=5)
    while not game.over:
        game.apply(game.legal_actions()[0])
    many = {d.py_func.__qualname__: d.signatures for d in jitted_functions() if len(d.signatures) > 1}
    assert not many


def test_calling_a_kernel_from_python_raises_a_type_error_naming_it():
    s = Game(Ruleset(players=2, market="basic"), seed=1).state
    with pytest.raises(TypeError, match=r"hoc\.games\.heart_of_crown\.kernel\.zones\.draw is a @kernel"):
        draw(s, 0, 1)


def typed_callees(validate) -> set[str]:
    """The jitted functions a fresh (uncached) compile of a batch loop types."""
    plan = Plan(Ruleset(players=2), lineup("basic_rush", 2), 1, validate=validate)
    play_rows(plan, 0, 0)
    loop = batch.batch_loop(plan.ruleset, validate, [a.id for a in plan.agents])
    fresh = njit(loop.py_func)
    sig = loop.signatures[0]
    fresh.compile(sig)
    typemap = fresh.overloads[sig].type_annotation.typemap
    return {t.dispatcher.py_func.__name__ for t in typemap.values() if isinstance(t, types.Dispatcher)}


def test_the_plain_batch_loop_does_not_compile_the_invariant_checks():
    plain = typed_callees(False)
    assert "play_out" in plain
    assert not plain & {"play_checked", "card_totals"}
    assert {"play_checked", "card_totals"} <= typed_callees(True)


@pytest.fixture
def empty_cache_folder(tmp_path, monkeypatch):
    """Markers in an empty folder; the compiled code itself still comes from the real cache."""
    monkeypatch.setattr(hoc, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(engine, "_ready", set())
    return tmp_path


def test_a_compile_is_announced_when_the_cache_folder_lacks_the_engine_and_only_then(empty_cache_folder, capsys):
    plan = Plan(Ruleset(players=2), lineup("basic_rush", 2), 10)
    engine.prepare(plan)
    assert capsys.readouterr().err == engine.message("heart_of_crown-batch") + "\n"
    assert engine.marker("heart_of_crown-batch").exists()
    assert engine.prepare(plan) == Warmup()          # ready in this process: nothing to do
    engine._ready.clear()                            # a new process, same folder
    engine.prepare(plan)
    assert capsys.readouterr().err == ""


def test_a_marker_from_other_sources_announces_the_compile_again(empty_cache_folder, capsys):
    engine.marker("heart_of_crown-batch").write_text("hoc/games/heart_of_crown/kernel/turn.py 1 2\n", encoding="utf-8")
    assert not engine.is_compiled("heart_of_crown-batch")
    engine.prepare(Plan(Ruleset(players=2), lineup("basic_rush", 2), 10), announce=True)
    assert "compiling the engine heart_of_crown-batch" in capsys.readouterr().err
    assert engine.is_compiled("heart_of_crown-batch")


def test_python_agents_and_validation_are_engines_of_their_own(empty_cache_folder, capsys):
    plan = Plan(Ruleset(players=2), lineup("hoc.games.heart_of_crown.agents.examples:basic_rush_py,basic_rush", 2), 10, validate=True)
    assert engine.engine_name(plan) == "heart_of_crown-game-validated"
    engine.prepare(plan)
    assert capsys.readouterr().err == engine.message("heart_of_crown-game-validated") + "\n"
    assert [p.name for p in empty_cache_folder.iterdir()] == [engine.marker("heart_of_crown-game-validated").name]


def test_a_checkouts_marker_is_its_own_so_another_checkout_sharing_the_cache_never_makes_it_announce(
        empty_cache_folder, monkeypatch, capsys):
    from hoc import _cache

    plan = Plan(Ruleset(players=2), lineup("basic_rush", 2), 10)
    engine.prepare(plan)                                         # this checkout: compiled (here: loaded) and marked
    capsys.readouterr()
    mine = engine.marker("heart_of_crown-batch")
    with monkeypatch.context() as other:                        # another checkout: its path, its sources' times
        other.setattr(_cache, "_ROOT", empty_cache_folder / "elsewhere" / "hoc")
        other.setattr(_cache, "source_stamps", lambda: "hoc/engine/loop.py 1 2\n")
        assert engine.marker("heart_of_crown-batch") != mine
        assert not engine.is_compiled("heart_of_crown-batch")   # its compiled code is its own: not there yet
        engine._mark("heart_of_crown-batch")
        assert engine.is_compiled("heart_of_crown-batch")
    assert engine.is_compiled("heart_of_crown-batch")           # this checkout's marker untouched
    engine._ready.clear()
    engine.prepare(plan)
    assert capsys.readouterr().err == ""                          # no false notice


def test_a_marker_of_before_the_per_checkout_markers_still_counts_when_its_sources_match(empty_cache_folder):
    from hoc._cache import source_stamps

    legacy = empty_cache_folder / "ready-heart_of_crown-batch"
    legacy.write_text(source_stamps(), encoding="utf-8")
    assert engine.is_compiled("heart_of_crown-batch")
    legacy.write_text("hoc/engine/loop.py 1 2\n", encoding="utf-8")
    assert not engine.is_compiled("heart_of_crown-batch")


def test_the_notice_gives_the_last_measured_compile_time_of_the_engine(empty_cache_folder, monkeypatch):
    monkeypatch.setattr(hoc, "CACHE_DIR", empty_cache_folder / "numba-0123")
    assert engine.TYPICAL in engine.message("heart_of_crown-batch")        # nothing measured here yet
    engine._record("dominion-batch", 41.2)
    assert "another engine took 41 s here" in engine.message("heart_of_crown-batch")
    engine._record("heart_of_crown-batch", 155.0)
    assert "it took 2.6 minutes here last time" in engine.message("heart_of_crown-batch")
    assert engine.compile_times() == {"dominion-batch": 41.2, "heart_of_crown-batch": 155.0}
    assert (empty_cache_folder / engine.TIMES).exists()          # beside the numba-HASH folders: kept across edits


def test_games_per_second_count_playing_time_and_the_compile_is_shown_apart():
    rs = Ruleset(players=2)
    run = simulate(rs, lineup("basic_rush", 2), 30, seed=4, announce=False)
    s = Summary(rs, run.agents, run.seed, run.rotate)
    s.add(run.games)
    r = s.result(Timing(2.0, Warmup(30.0, compiled=True)))
    assert r["games_per_second"] == 30 / 2.0
    assert (r["play_seconds"], r["compile_seconds"], r["load_seconds"], r["wall_seconds"]) == (2.0, 30.0, 0.0, 32.0)
    assert report(r).splitlines()[-1] == "30 games in 2.00 s (15 games/s), plus 30.0 s compiling the engine (first run only)"
    loaded = s.result(Timing(2.0, Warmup(0.5)))
    assert (loaded["compile_seconds"], loaded["load_seconds"]) == (0.0, 0.5)
    assert report(loaded).endswith("plus 0.5 s loading the compiled engine")


def test_a_run_keeps_its_warm_up_apart_from_its_play_time():
    run = simulate(Ruleset(players=2), lineup("basic_rush", 2), 30, seed=6, announce=False)
    assert run.wall_seconds == run.play_seconds + run.warmup.seconds
    assert run.summary()["games_per_second"] == 30 / run.play_seconds


def test_cli_json_gives_play_compile_and_load_seconds_apart(capsys):
    assert main(["simulate", "--games", "40", "--seed", "3", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["games_per_second"] == 40 / s["play_seconds"]
    assert s["wall_seconds"] == s["play_seconds"] + s["compile_seconds"] + s["load_seconds"]
    assert s["compile_seconds"] == 0.0 or s["load_seconds"] == 0.0


@pytest.mark.slow   # two checkouts each compile Dominion's engine, then load it (13 minutes on 2 cores at load 9)
def test_two_checkouts_sharing_a_cache_folder_announce_their_own_compiles_and_no_other(tmp_path):
    import os
    import shutil
    import subprocess
    from pathlib import Path

    root = Path(hoc.__file__).resolve().parent.parent
    for name, copy in (("a", shutil.copy2), ("b", shutil.copy)):      # b's sources: other modification times
        for folder in ("hoc", "agents"):
            shutil.copytree(root / folder, tmp_path / name / folder, copy_function=copy,
                            ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env["HOC_CACHE_DIR"] = str(tmp_path / "cache")                 # one cache folder for both

    def run(name: str) -> str:
        out = subprocess.run([sys.executable, "-m", "hoc", "simulate", "--game", "dominion", "--games", "10"],
                             cwd=tmp_path / name, env={**env, "PYTHONPATH": str(tmp_path / name)},
                             capture_output=True, text=True, timeout=1200)
        assert out.returncode == 0, out.stderr
        return out.stderr

    assert "compiling the engine dominion-batch" in run("a")
    assert "compiling the engine dominion-batch (first run only; it took" in run("b")   # a's time, measured
    assert "compiling" not in run("a")          # b's run left a's compiled engine and marker as they were
    assert "compiling" not in run("b")
    assert list(json.loads((tmp_path / "cache" / engine.TIMES).read_text())) == ["dominion-batch"]


def test_the_sp_curves_compile_is_announced_once_before_the_summary_and_counted_in_it(empty_cache_folder, capsys,
                                                                                     tmp_path):
    png = tmp_path / "sp.png"
    assert main(["simulate", "--games", "20", "--market", "basic", "--sp-curves", str(png), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err.count("compiling the engine heart_of_crown-batch") == 1
    assert err.count("compiling the engine heart_of_crown-game") == 1       # the curves' replay, said once
    s = json.loads(out)
    assert s["compile_seconds"] + s["load_seconds"] > 0 and s["wall_seconds"] >= s["play_seconds"]
    assert png.exists() and engine.marker("heart_of_crown-game").exists()
