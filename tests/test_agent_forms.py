"""One policy in three forms (jitted, TOML data, Python over the step API) makes identical
decisions on the same seeds; Python agents are selectable by name and checked for legality."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from hoc.agents.registry import get, register
from hoc.cli import main
from hoc.errors import HocError, IllegalActionError
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.simulate import lineup, simulate

TOML = str(Path(__file__).parent / "data" / "basic_rush.toml")
RULES = Ruleset(players=2, market="basic", princesses=("lulunasaika", "laolily", "klam_klam"))
SAME = ["winner", "end_reason", "turns", "steps", "sp_0", "sp_1", "princess_0", "princess_1",
        "backed_turn_0", "backed_turn_1"]


def games(agent_names, n=60, players=2, rules=RULES):
    return simulate(rules, lineup(agent_names, players), n, seed=11).games[SAME].reset_index(drop=True)


def test_toml_agent_with_basic_rush_policy_plays_the_same_games_as_the_jitted_one():
    pd.testing.assert_frame_equal(games("basic_rush", n=300), games(TOML, n=300))


def test_python_agent_with_basic_rush_policy_plays_the_same_games_as_the_jitted_one():
    pd.testing.assert_frame_equal(games("basic_rush"), games("hoc.games.heart_of_crown.agents.examples:basic_rush_py"))


def test_three_player_mixed_lineup_of_jitted_and_python_seats():
    rules = Ruleset(players=3, market="basic", princesses=("lulunasaika", "laolily", "klam_klam"))
    a = games("basic_rush,random,basic_rush", n=20, players=3, rules=rules)
    b = games("hoc.games.heart_of_crown.agents.examples:basic_rush_py,random,basic_rush", n=20, players=3, rules=rules)
    pd.testing.assert_frame_equal(a, b)


def test_python_and_jitted_seats_rotating_on_random_markets_play_the_jitted_games():
    """One Game serves a chunk of games: each starts afresh from its seed, with the jitted seats
    re-seated as the lineup rotates (checked against run_batch, invariants on)."""
    rules = Ruleset(players=2, market="random")

    def run(names):
        return simulate(rules, lineup(names, 2), 40, seed=5, rotate=True, validate=True).games[SAME]

    pd.testing.assert_frame_equal(run("basic_rush,random"), run("hoc.games.heart_of_crown.agents.examples:basic_rush_py,random"))


def test_registered_python_agent_is_selectable_by_name_and_illegal_actions_raise():
    register("always_buy_duke", lambda game: "buy duke", "tries to buy a Duke at every decision")
    assert get("always_buy_duke").play is not None
    with pytest.raises(IllegalActionError, match=r"action .*buy duke.* is not legal for seat 0"):
        simulate(RULES, lineup("always_buy_duke", 2), 1, seed=1)


def test_cli_accepts_a_python_agent_by_module_path(capsys):
    assert main(["simulate", "--market", "basic", "--games", "5", "--agents",
                 "hoc.games.heart_of_crown.agents.examples:basic_rush_py,random", "--json"]) == 0


def test_cli_rejects_an_unloadable_python_agent(capsys):
    assert main(["simulate", "--games", "5", "--agents", "hoc.games.heart_of_crown.agents.examples:nope"]) == 2
    assert "cannot load Python agent 'hoc.games.heart_of_crown.agents.examples:nope'" in capsys.readouterr().err


HOC_CONSOLE = [sys.executable, "-P", "-c", "import sys; from hoc.cli import main; sys.exit(main())"]


def console(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """`hoc ARGS` run in `folder` as the console script runs it: without the current folder on sys.path
    (-P), the repository's hoc found through PYTHONPATH."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    return subprocess.run([*HOC_CONSOLE, *args], cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def test_cli_finds_a_python_agent_module_in_the_current_folder(tmp_path):
    (tmp_path / "mybot.py").write_text('"""Buys what it can."""\n'
                                       "from hoc.games.heart_of_crown.agents.examples import basic_rush_py as play\n")
    done = console(tmp_path, "simulate", "--market", "basic", "--games", "3", "--agents", "mybot:play,random",
                   "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 3


def test_cli_says_where_it_looked_for_a_missing_agent_module(tmp_path):
    done = console(tmp_path, "simulate", "--market", "basic", "--games", "3", "--agents", "nobot:play")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"hoc: error: cannot load Python agent 'nobot:play': no module 'nobot' on the Python path, and no "
        f"{tmp_path / 'nobot.py'}; run hoc in the folder that holds nobot.py, or add that folder to PYTHONPATH"]


@pytest.mark.parametrize("source, says", [
    ("import numpyy\n", "importing bot failed: No module named 'numpyy'"),
    ("def play(game)\n    pass\n", "expected ':' ("),
    ("x = undefined_name\n", "importing bot failed: NameError: name 'undefined_name' is not defined ("),
    ("x = 1\n", "module 'bot' has no 'play'"),
])
def test_an_agent_module_that_fails_to_load_is_one_line_naming_why(tmp_path, monkeypatch, capsys, request, source,
                                                                   says):
    (tmp_path / "bot.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])   # as the console script
    sys.modules.pop("bot", None)
    request.addfinalizer(lambda: sys.modules.pop("bot", None))
    assert main(["simulate", "--market", "basic", "--games", "1", "--agents", "bot:play"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hoc: error: cannot load Python agent 'bot:play': ") and says in err
    assert len(err.strip().splitlines()) == 1


def test_a_module_name_without_its_function_gets_a_hint(tmp_path, monkeypatch):
    (tmp_path / "mybot.py").write_text("def play(game):\n    return 0\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(HocError, match="mybot.py is in this folder: name its function, e.g. mybot:play"):
        get("mybot")


def test_replay_of_a_python_agent_matches_the_jitted_agent_move_for_move():
    from hoc.research.replays import replay

    jitted = replay(RULES, lineup("basic_rush,random", 2), 3, 4)
    python = [line.replace("hoc.games.heart_of_crown.agents.examples:basic_rush_py", "basic_rush")       # the logs name the agents
              for line in replay(RULES, lineup("hoc.games.heart_of_crown.agents.examples:basic_rush_py,random", 2), 3, 4)]
    assert jitted == python and len(jitted) > 20


def test_a_kind_of_agent_plugs_in_by_registering_how_its_names_read():
    from hoc.agents import registry

    def make(name):          # "first!": always the first legal action, a Python agent
        return registry.Agent(name, -1, "first legal action", registry.no_params, lambda g: g.legal_actions()[0])

    registry.register_kind("first-action agent", lambda n: n.startswith("first!"), make)
    try:
        agent = get("first!any")
        assert agent.play is not None and agent.description == "first legal action"
        assert simulate(RULES, [agent, get("basic_rush")], 4, seed=3).games.winner.notna().all()
        with pytest.raises(HocError, match="unknown agent 'nobody'"):
            get("nobody")
    finally:
        registry.PARSERS.pop()


def test_the_compiled_decider_a_lineup_needs_comes_from_its_agents_kinds():
    from hoc.agents.ids import ISMCTS, KINDS, LEARNED, PLANNED, PRIORITY, RANDOM, needs

    assert needs([PRIORITY, RANDOM]) == (False, False, False)
    assert needs([ISMCTS, PRIORITY]) == (True, False, False)
    assert needs([PLANNED, -1]) == (False, True, False)          # a Python seat (-1) needs none
    assert needs([get("ismcts").id, get("tuned_general_2p+plan").id]) == (True, True, False)
    assert needs([LEARNED, PRIORITY]) == (False, False, True)
    assert {k.name for k in KINDS.values()} == {"random", "priority list", "search agent", "planning list",
                                                    "learned policy"}
