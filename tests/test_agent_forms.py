"""One policy in three forms (jitted, TOML data, Python over the step API) makes identical
decisions on the same seeds; Python agents are selectable by name and checked for legality."""
from pathlib import Path

import pandas as pd
import pytest

from hoc.agents.registry import get, register
from hoc.cli import main
from hoc.errors import IllegalActionError
from hoc.rules import Ruleset
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
    pd.testing.assert_frame_equal(games("basic_rush"), games("hoc.agents.examples:basic_rush_py"))


def test_three_player_mixed_lineup_of_jitted_and_python_seats():
    rules = Ruleset(players=3, market="basic", princesses=("lulunasaika", "laolily", "klam_klam"))
    a = games("basic_rush,random,basic_rush", n=20, players=3, rules=rules)
    b = games("hoc.agents.examples:basic_rush_py,random,basic_rush", n=20, players=3, rules=rules)
    pd.testing.assert_frame_equal(a, b)


def test_registered_python_agent_is_selectable_by_name_and_illegal_actions_raise():
    register("always_buy_duke", lambda game: "buy duke", "tries to buy a Duke at every decision")
    assert get("always_buy_duke").play is not None
    with pytest.raises(IllegalActionError, match=r"action .*buy duke.* is not legal for seat 0"):
        simulate(RULES, lineup("always_buy_duke", 2), 1, seed=1)


def test_cli_accepts_a_python_agent_by_module_path(capsys):
    assert main(["simulate", "--market", "basic", "--games", "5", "--agents",
                 "hoc.agents.examples:basic_rush_py,random", "--json"]) == 0


def test_cli_rejects_an_unloadable_python_agent(capsys):
    assert main(["simulate", "--games", "5", "--agents", "hoc.agents.examples:nope"]) == 2
    assert "cannot load Python agent 'hoc.agents.examples:nope'" in capsys.readouterr().err


def test_replay_of_a_python_agent_matches_the_jitted_agent_move_for_move():
    from hoc.replay import replay

    jitted = replay(RULES, lineup("basic_rush,random", 2), 3, 4)
    python = [line.replace("hoc.agents.examples:basic_rush_py", "basic_rush")       # the logs name the agents
              for line in replay(RULES, lineup("hoc.agents.examples:basic_rush_py,random", 2), 3, 4)]
    assert jitted == python and len(jitted) > 20
