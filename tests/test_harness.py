"""The tournament harness: the same games whatever runs them (serial, joblib processes, a Dask
cluster), mirrored games, Parquet output with provenance, resuming an interrupted run, and clean
errors for bad run options."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from hoc.cli import main
from hoc.errors import HocError
from hoc.research.harness import Backend, Plan, play
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.simulate import concat, lineup, simulate

ROOT = Path(__file__).resolve().parent.parent


def games_of(plan: Plan, backend: Backend) -> pd.DataFrame:
    return concat([c.games for c in play(plan, backend)])


@pytest.fixture(scope="module")
def plan():
    rs = Ruleset(players=2)
    return Plan(rs, lineup("senator_duke,curse_witch", 2), 600, seed=11, rotate=True, chunk=100)


@pytest.fixture(scope="module")
def serial(plan, warm_kernels):
    return games_of(plan, Backend(1))


def test_chunks_come_back_in_game_order_and_cover_the_plan(plan, serial):
    assert list(serial.game) == list(range(600))
    assert [s for s, _ in plan.chunks()] == list(range(0, 600, 100))


def test_two_worker_processes_give_the_serial_games(plan, serial):
    pd.testing.assert_frame_equal(serial, games_of(plan, Backend(2)), check_categorical=False)


def test_a_dask_cluster_gives_the_serial_games(plan, serial):
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        backend = Backend(1, "dask", cluster.scheduler_address)
        try:
            games = games_of(plan, backend)
        finally:
            backend.close()
    pd.testing.assert_frame_equal(serial, games, check_categorical=False)


def test_mirrored_games_replay_one_seed_with_the_seats_swapped(warm_kernels):
    rs = Ruleset(players=2)
    df = simulate(rs, lineup("senator_duke,curse_witch", 2), 40, seed=4, mirror=True).games
    even, odd = df.iloc[0::2].reset_index(drop=True), df.iloc[1::2].reset_index(drop=True)
    assert (even.seed.values == odd.seed.values).all()
    assert len(set(even.seed)) == 20
    assert (even.market.astype(str).values == odd.market.astype(str).values).all()
    assert (even.agent_0.astype(str).values == odd.agent_1.astype(str).values).all()
    assert (even.agent_0.astype(str) == "senator_duke").all()


def test_a_mirrored_game_is_the_rotated_game_with_the_same_seed_and_seats(warm_kernels):
    """Mirrored game 2k+r uses the seed of index k and rotation r; the rotated run's game k uses the
    seed of index k and rotation k % 2: so mirrored game 2k + k % 2 is that very game."""
    rs = Ruleset(players=2)
    agents = lineup("senator_duke,curse_witch", 2)
    mirrored = simulate(rs, agents, 20, seed=4, mirror=True).games
    rotated = simulate(rs, agents, 10, seed=4, rotate=True).games
    same = mirrored.iloc[[2 * k + k % 2 for k in range(10)]].drop(columns="game").reset_index(drop=True)
    pd.testing.assert_frame_equal(same, rotated.drop(columns="game"), check_categorical=False)


def test_a_drawn_lineup_plays_the_same_games_stepped_from_python_as_in_the_batch_loop(warm_kernels):
    """The seats a drawn plan deals reach both game loops: a Python agent that moves as the jitted
    tuned_bergamot_2p would, drawn in its place, gives the batch loop's games."""
    from hoc.agents.registry import Agent, get
    from hoc.research.harness import play_rows

    rs = Ruleset(players=3)
    jitted = [get("tuned_bergamot_2p"), get("tuned_twins_2p")]
    bergamot = jitted[0]
    stepped = Agent("bergamot_in_python", -1, "", bergamot.params, lambda game: game.decide(bergamot))
    fast = Plan(rs, jitted, 12, seed=8, draw=True)
    slow = Plan(rs, [stepped, jitted[1]], 12, seed=8, draw=True)
    assert slow.python and len({tuple(r) for r in fast.seats(0, 12)}) > 3
    a, b = play_rows(fast, 0, 12)[0], play_rows(slow, 0, 12)[0]
    assert (a == b).all()


def _cli(*argv):
    return subprocess.run([sys.executable, "-m", "hoc.cli", *argv], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


RUN = ["simulate", "--agents", "senator_duke,curse_witch", "--rotate-seats", "--seed", "5"]


def test_parquet_parts_carry_engine_version_game_rules_and_card_data_hash(tmp_path, warm_kernels, capsys):
    out = tmp_path / "g.parquet"
    assert main([*RUN, "--games", "300", "--out", str(out)]) == 0
    parts = sorted(out.glob("part-*.parquet"))
    assert len(parts) == 8
    meta = pq.read_metadata(parts[0]).metadata
    assert meta[b"hoc.game"] == b"heart_of_crown"
    for key in (b"hoc.engine_version", b"hoc.game", b"hoc.rules", b"hoc.rules_hash", b"hoc.card_data_hash", b"hoc.plan"):
        assert key in meta
    assert json.loads(meta[b"hoc.rules"])["players"] == 2
    df = pd.read_parquet(out)
    assert list(df.game) == list(range(300))


def test_rerunning_after_losing_parts_plays_only_those_and_gives_a_clean_runs_games(tmp_path, warm_kernels, capsys):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    assert main([*RUN, "--games", "400", "--out", str(a), "--json"]) == 0
    clean = json.loads(capsys.readouterr().out)
    assert main([*RUN, "--games", "400", "--out", str(b)]) == 0
    parts = sorted(b.glob("part-*.parquet"))
    kept = {p: p.stat().st_mtime_ns for p in parts[:3]}
    for p in parts[3:]:
        p.unlink()
    (b / f".{parts[5].name}.tmp").write_bytes(b"half a file")          # a write cut short (killed)
    (b / (parts[6].name + ".tmp")).write_bytes(b"half a file")         # the same, as older versions named it
    capsys.readouterr()
    assert main([*RUN, "--games", "400", "--out", str(b), "--json"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert all(p.stat().st_mtime_ns == t for p, t in kept.items())    # finished parts untouched
    pd.testing.assert_frame_equal(pd.read_parquet(a), pd.read_parquet(b))
    assert not [f.name for f in b.iterdir() if f.name.endswith(".tmp")]    # the replayed parts took their place
    for key in ("wins_by_seat", "wins_by_agent", "end_reasons", "mean_turns", "sd_turns"):
        assert clean[key] == resumed[key]


@pytest.mark.slow   # 40,000 games, killed and run again
def test_a_killed_run_rerun_with_the_same_command_ends_with_the_clean_runs_games(tmp_path, warm_kernels):
    """Kill the command line halfway (SIGKILL, no clean-up) and start it again."""
    out, ref = tmp_path / "k.parquet", tmp_path / "ref.parquet"
    argv = [*RUN, "--games", "40000", "--out"]
    proc = subprocess.Popen([sys.executable, "-m", "hoc.cli", *argv, str(out)], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while len(list(out.glob("part-*.parquet"))) < 2 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    written = len(list(out.glob("part-*.parquet")))
    assert 2 <= written < 8, "the run should be killed halfway"
    assert _cli(*argv, str(out)).returncode == 0
    assert _cli(*argv, str(ref)).returncode == 0
    pd.testing.assert_frame_equal(pd.read_parquet(out), pd.read_parquet(ref))
    assert len(pd.read_parquet(out)) == 40000


def test_an_output_folder_of_another_run_is_refused(tmp_path, warm_kernels, capsys):
    out = tmp_path / "g.parquet"
    assert main([*RUN, "--games", "50", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main([*RUN, "--games", "50", "--seed", "6", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "different run" in err and "seed" in err


@pytest.mark.parametrize("argv,named", [
    (["--backend", "spark"], "spark"),
    (["--backend", "dask"], "--scheduler"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--backend dask"),
    (["--jobs", "0"], "jobs"),
])
def test_bad_run_options_exit_2_naming_the_problem(capsys, argv, named):
    assert main(["simulate", "--games", "10", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and named in err[0]


def test_an_unreachable_scheduler_fails_at_once_with_one_line(capsys):
    t0 = time.perf_counter()
    assert main(["simulate", "--games", "10", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "tcp://127.0.0.1:9" in err[0]
    assert time.perf_counter() - t0 < 30


def test_an_output_path_that_is_a_file_is_refused(tmp_path, capsys):
    f = tmp_path / "x.parquet"
    f.write_bytes(b"")
    assert main(["simulate", "--games", "10", "--out", str(f)]) == 2
    assert "file" in capsys.readouterr().err


def test_plans_reject_impossible_sizes():
    rs = Ruleset(players=2)
    with pytest.raises(HocError, match="games"):
        Plan(rs, lineup("random", 2), 0)
    with pytest.raises(HocError, match="3 agents"):
        Plan(rs, lineup("random,random,random", 3), 10)
    assert np.diff([s for s, _ in Plan(rs, lineup("random", 2), 25, chunk=10).chunks()]).tolist() == [10, 10]
