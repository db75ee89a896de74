"""The user's agent folders (`--agents-dir DIR`, `HOC_AGENTS_PATH`): a file dropped in one is an agent
by its name in every command, beside the library of the top-level agents/ folder."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from hoc.agent_folders import ENV, library
from hoc.cli import main

SENATOR_DUKE = library() / "heart_of_crown" / "archetypes" / "senator_duke.toml"
BIG_MONEY = library() / "dominion" / "bots" / "dom_big_money.toml"


@pytest.fixture(autouse=True)
def no_user_folders(monkeypatch):
    monkeypatch.setenv(ENV, "")         # the user's folders are the test's only (restored after it)


def simulate(capsys, *argv) -> dict:
    assert main(["simulate", "--games", "40", "--market", "basic", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_plan_dropped_in_the_agents_dir_plays_by_its_name_in_simulate_as_its_file_does(tmp_path, capsys):
    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copy(SENATOR_DUKE, mine / "my_plan.toml")
    by_name = simulate(capsys, "--agents", "my_plan,basic_rush", "--agents-dir", str(mine))
    assert by_name["agents"] == ["my_plan", "basic_rush"]
    by_path = simulate(capsys, "--agents", f"{SENATOR_DUKE},basic_rush")
    assert by_name["wins_by_seat"] == by_path["wins_by_seat"]     # the same plan, the same seeds: the same games


def test_hoc_agents_path_holds_several_folders_and_the_first_wins_a_name(tmp_path, monkeypatch, capsys):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    shutil.copy(SENATOR_DUKE, first / "twin.toml")
    (second / "twin.toml").write_text(SENATOR_DUKE.read_text().replace("description =", "description = 'other' #", 1))
    shutil.copy(SENATOR_DUKE, second / "only_here.toml")
    monkeypatch.setenv(ENV, os.pathsep.join([str(first), str(second)]))
    from hoc.agents.registry import get

    assert get("twin").description == get("senator_duke").description and get("only_here").name == "only_here"
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    assert "your agents (2 files)" in out and str(first / "twin.toml") in out and str(second / "only_here.toml") in out


def test_a_library_name_stays_the_librarys_and_hoc_agents_says_the_file_is_hidden(tmp_path, capsys):
    (tmp_path / "senator_duke.toml").write_text(BIG_MONEY.read_text())        # a Dominion bot by that name
    assert main(["agents", "--agents-dir", str(tmp_path)]) == 0
    assert "hidden by the library's senator_duke" in capsys.readouterr().out
    from hoc.agents.registry import get

    assert get("senator_duke").game == "heart_of_crown"


def test_a_dominion_bot_and_a_plan_with_its_planner_are_read_from_the_users_folder(tmp_path, monkeypatch):
    shutil.copy(BIG_MONEY, tmp_path / "my_bot.toml")
    shutil.copy(SENATOR_DUKE, tmp_path / "my_plan.toml")
    monkeypatch.setenv(ENV, str(tmp_path))
    from hoc.agents.registry import get

    assert get("my_bot").game == "dominion" and get("my_bot").name == "my_bot"
    assert get("my_plan+plan").name == "my_plan+plan" and "turn planner" in get("my_plan+plan").description


def test_a_python_agent_in_the_users_folder_is_found_from_another_working_folder(tmp_path, monkeypatch, capsys):
    folder, elsewhere = tmp_path / "bots", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (folder / "folder_bot.py").write_text("from hoc.games.heart_of_crown.agents.examples import basic_rush_py as play\n")
    monkeypatch.chdir(elsewhere)
    out = simulate(capsys, "--agents", "folder_bot:play,basic_rush", "--games", "6", "--agents-dir", str(folder))
    assert out["agents"] == ["folder_bot:play", "basic_rush"] and sum(out["wins_by_seat"]) <= 6


def test_a_missing_agents_dir_and_an_unknown_name_are_one_line_errors(tmp_path, capsys):
    assert main(["simulate", "--agents", "basic_rush", "--agents-dir", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--agents-dir" in err and "no such folder" in err
    shutil.copy(SENATOR_DUKE, tmp_path / "my_plan.toml")
    assert main(["simulate", "--agents", "my_plann", "--agents-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did you mean 'my_plan'" in err and "--agents-dir" in err
