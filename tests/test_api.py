"""The Python front door (`hoc.api`, read through `import hoc`): `hoc.simulate` plays the games
`hoc simulate` plays and returns its summary and a DataFrame of its Parquet rows; `hoc.Game`,
`hoc.agent`, `hoc.games()`; agent names in every form the command line takes; bad input in one line;
and `import hoc` stays light."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import hoc
from hoc.cli import main
from hoc.errors import HocError

ROOT = Path(__file__).resolve().parent.parent
TIMING = {"wall_seconds", "play_seconds", "games_per_second", "compile_seconds", "load_seconds"}


def test_import_hoc_loads_no_game_agent_or_pandas():
    """`import hoc` reads the front door's names only when asked: no game, kernel, agent or pandas."""
    code = "import hoc, sys; print(' '.join(sorted(m for m in sys.modules if m.startswith(('hoc.', 'pandas')))))"
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    assert loaded == ["hoc._cache", "hoc._moved", "hoc._version"]


def test_simulate_plays_the_games_of_hoc_simulate_and_returns_its_summary_and_rows(tmp_path, capsys):
    out = tmp_path / "run.parquet"
    argv = ["simulate", "--agents", "basic_rush,senator_duke", "--games", "1000", "--seed", "3", "--rotate-seats",
            "--market", "basic", "--out", str(out), "--json"]
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    r = hoc.simulate(["basic_rush", "senator_duke"], games=1000, seed=3, rotate_seats=True, market="basic",
                     progress=False)
    assert r.frame.shape == (1000, len(pd.read_parquet(out).columns))
    saved = pd.read_parquet(out).sort_values("game").reset_index(drop=True)
    assert list(r.frame.columns) == list(saved.columns)
    for column in ("game", "seed", "winner", "end_reason", "turns", "sp_0", "sp_1", "agent_0", "princess_1"):
        assert r.frame[column].astype(str).tolist() == saved[column].astype(str).tolist(), column
    assert {k: v for k, v in r.summary.items() if k not in TIMING} == \
        {k: v for k, v in printed.items() if k not in TIMING}


def test_the_summary_is_data_and_the_report_hoc_simulate_prints():
    from hoc.research.simulate import report

    r = hoc.simulate("basic_rush", games=200, market="basic", progress=False)
    assert r.summary["agents"] == ["basic_rush", "basic_rush"] and r.summary["games"] == 200
    assert str(r.summary) == repr(r.summary) == r.summary.text == report(r.summary.data)
    assert "win rate by seat" in r.summary.text
    assert dict(r.summary) == r.summary.data
    assert repr(r) == "<Results: 200 games of heart_of_crown, basic_rush vs basic_rush>"


def test_agents_in_every_form_the_command_line_takes(tmp_path):
    plan = tmp_path / "mine.toml"
    plan.write_text((ROOT / "agents/heart_of_crown/archetypes/senator_duke.toml").read_text())
    duke = hoc.agent("senator_duke")
    r = hoc.simulate([str(plan), duke, "basic_rush"], games=30, market="basic", progress=False)
    assert r.summary["players"] == 3                     # as many seats as agents given
    assert r.summary["agents"] == ["mine", "senator_duke", "basic_rush"]
    assert hoc.simulate("basic_rush,senator_duke", games=10, market="basic", progress=False).summary["agents"] == \
        ["basic_rush", "senator_duke"]
    assert hoc.simulate("basic_rush", games=10, players=4, market="basic", progress=False).frame.shape[0] == 10


def test_simulate_plays_dominion_by_the_game_argument():
    r = hoc.simulate(["dom_smithy_bm", "dom_big_money"], games=1000, game="dominion", market="first_game",
                     rotate_seats=True, progress=False)
    assert r.frame.shape[0] == 1000 and "vp_0" in r.frame.columns
    assert r.summary["game"] == "dominion" and r.summary["agents"] == ["dom_smithy_bm", "dom_big_money"]


def test_a_games_own_rules_and_the_shared_ones():
    r = hoc.simulate("basic_rush", games=20, market=["basic"], edition="1e", princesses=["laolily", "twins"],
                     overrides=["duke.cost=7"], progress=False)
    assert r.summary["edition"] == "1e" and r.summary["princesses"] == ["laolily", "twins"]
    assert r.summary["overrides"] == ["duke.cost=7"]


@pytest.mark.parametrize("call,named", [
    (lambda: hoc.simulate("basic_rush", games=10, princesess="laolily"), "did you mean 'princesses'"),
    (lambda: hoc.simulate("nosuch_agent", games=10), "nosuch_agent"),
    (lambda: hoc.simulate(["basic_rush", 7], games=10), "int"),
    (lambda: hoc.simulate("basic_rush", games=0), "games"),
    (lambda: hoc.simulate("dom_big_money", games=10), "dominion"),
    (lambda: hoc.simulate("basic_rush", games=10, game="chess"), "chess"),
    (lambda: hoc.agent("dom_big_money", game="heart_of_crown"), "dom_big_money"),
])
def test_bad_input_is_one_line_naming_it(call, named):
    with pytest.raises(HocError) as e:
        call()
    assert named in str(e.value) and "\n" not in str(e.value)


def test_game_agent_and_games_by_the_names_one_would_guess():
    from hoc.games.heart_of_crown.game import Game

    assert hoc.Game is Game
    g = hoc.Game(players=2, market="basic", seed=7)
    assert hoc.agent("senator_duke").decide(g) in g.legal_actions()
    assert hoc.games() == ("heart_of_crown", "dominion")
    assert hoc.games.get("dominion").title == "Dominion"          # the package itself works as before
    assert {"simulate", "Game", "agent", "games"} <= set(dir(hoc))
    with pytest.raises(AttributeError):
        hoc.no_such_name
