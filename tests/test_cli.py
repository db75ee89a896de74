"""The `hoc` command line: bad input gives exit code 2 and one clear line on stderr; the JSON summary,
the card list, the Parquet output and the replay log."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from hoc.cli import main

BASIC = ["--market", "basic"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv,named", [
    (["simulate", "--agents", "nosuch_agent", *BASIC], "nosuch_agent"),
    (["simulate", "--market", "scout,nosuch_kind,wishing_well,post_horse,trading_ship,purveyor,supply_unit,"
      "library,city_development,adventurer"], "nosuch_kind"),
    (["simulate", "--princesses", "lulunasaika,nosuch_princess", *BASIC], "nosuch_princess"),
    (["simulate", "--market", "nosuch_preset"], "nosuch_preset"),
    (["simulate", "--players", "3", "--agents", "random,basic_rush", *BASIC], "3 players"),
    (["simulate", "--players", "0", *BASIC], "players"),
    (["simulate", "--players", "5", *BASIC], "players"),
    (["simulate", "--override", "duke.nosuch=1", *BASIC], "nosuch"),
    (["simulate", "--override", "nosuchcard.cost=3", *BASIC], "nosuchcard"),
    (["simulate", "--override", "duke.cost=abc", *BASIC], "abc"),
    (["simulate", "--override", "dukecost3", *BASIC], "dukecost3"),
    (["simulate", "--games", "0", *BASIC], "games"),
    (["simulate", "--edition", "3e", *BASIC], "3e"),
    (["simulate", "--out", "x.csv", "--games", "1", *BASIC], "parquet"),
    (["replay", "--game", "-1", *BASIC], "game"),
    (["replay", "--agents", "nosuch_agent", *BASIC], "nosuch_agent"),
    (["cards", "--edition", "3e"], "3e"),
])
def test_cli_bad_input_exits_2_with_one_line_naming_the_problem(capsys, argv, named):
    code, out, err = run(capsys, *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("hoc: error: ")
    assert named in lines[0]
    assert "Traceback" not in err


def test_cli_simulate_json_has_the_required_keys(capsys):
    code, out, err = run(capsys, "simulate", "--players", "3", "--agents", "basic_rush", *BASIC,
                         "--games", "50", "--seed", "4", "--json", "--validate")
    assert code == 0, err
    s = json.loads(out)
    for key in ("version", "games", "players", "agents", "seed", "wins_by_seat", "wins_by_agent", "draws",
                "end_reasons", "mean_turns", "sd_turns", "mean_final_sp_by_seat", "wall_seconds",
                "games_per_second"):
        assert key in s, key
    assert set(s["end_reasons"]) >= {"coronation", "overtime", "judgement", "turn_cap"}
    assert (s["games"], s["players"], s["seed"]) == (50, 3, 4)
    assert s["agents"] == ["basic_rush"] * 3
    assert len(s["wins_by_seat"]) == len(s["mean_final_sp_by_seat"]) == 3
    assert sum(s["wins_by_seat"]) + s["draws"] == 50
    assert sum(s["end_reasons"].values()) == 50
    assert s["wins_by_agent"] == {"basic_rush": sum(s["wins_by_seat"])}
    assert s["mean_turns"] > 0 and s["sd_turns"] >= 0


def test_cli_simulate_mixed_agents_and_options(capsys):
    code, out, err = run(capsys, "simulate", "--players", "2", "--agents", "random,basic_rush", *BASIC,
                         "--princesses", "lulunasaika,laolily", "--games", "40", "--rotate-seats",
                         "--override", "duke.cost=7", "--turn-cap", "50", "--json")
    assert code == 0, err
    s = json.loads(out)
    assert set(s["wins_by_agent"]) == {"random", "basic_rush"}
    assert s["overrides"] == ["duke.cost=7"]
    assert s["princesses"] == ["lulunasaika", "laolily"]


def test_cli_simulate_text_report(capsys):
    code, out, err = run(capsys, "simulate", "--players", "2", *BASIC, "--games", "20")
    assert code == 0, err
    assert "win rate by seat" in out and "end reasons" in out


def test_cli_cards_2e_lists_52_cards(capsys):
    code, out, err = run(capsys, "cards", "--edition", "2e", "--json")
    assert code == 0
    cards = json.loads(out)
    assert len(cards) == 52
    ids = {c["id"] for c in cards}
    assert {"lulunasaika", "twins", "duke", "court_maid", "karikuma", "imperial_crown", "margrave"} <= ids


def test_cli_cards_1e_lists_46_cards(capsys):
    code, out, err = run(capsys, "cards", "--edition", "1e", "--json")
    assert code == 0
    assert len(json.loads(out)) == 46


def test_cli_cards_text(capsys):
    code, out, err = run(capsys, "cards")
    assert code == 0 and "duke" in out


def test_cli_agents_lists_the_agents(capsys):
    code, out, err = run(capsys, "agents")
    assert code == 0
    names = {line.split()[0] for line in out.strip().splitlines() if line.strip()}
    assert {"random", "basic_rush"} <= names


def test_cli_out_writes_a_readable_parquet_file(capsys, tmp_path):
    path = tmp_path / "x.parquet"
    code, out, err = run(capsys, "simulate", "--players", "2", *BASIC, "--games", "30", "--seed", "8",
                         "--out", str(path), "--json")
    assert code == 0, err
    df = pd.read_parquet(path)
    assert len(df) == 30
    assert {"game", "seed", "winner", "end_reason", "turns", "sp_0", "sp_1", "princess_0", "turns_1"} <= set(df.columns)
    assert list(df.game) == list(range(30))
    assert sum(json.loads(out)["wins_by_seat"]) == int((df.winner >= 0).sum())


def test_cli_out_to_unwritable_place_is_a_clean_error(capsys, tmp_path):
    (tmp_path / "no").write_bytes(b"")          # a file where a folder would be made
    code, out, err = run(capsys, "simulate", *BASIC, "--games", "2", "--out",
                         str(tmp_path / "no" / "such" / "dir" / "x.parquet"))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("hoc: error: ")


def test_cli_replay_prints_a_log_ending_with_the_games_end(capsys):
    code, out, err = run(capsys, "replay", "--players", "2", *BASIC, "--seed", "3", "--game", "2")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[0].startswith("Game 2 of run seed 3")
    assert any(line.startswith("Turn 1, seat 0") for line in lines)
    assert lines[-2].startswith("End after ")
    assert lines[-1].startswith("Final SP: ")


def test_cli_replay_matches_simulate_row(capsys):
    code, out, err = run(capsys, "simulate", "--players", "3", *BASIC, "--games", "5", "--seed", "12", "--json")
    code, out, err = run(capsys, "replay", "--players", "3", *BASIC, "--seed", "12", "--game", "4")
    assert code == 0
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.research.simulate import lineup, simulate

    row = simulate(Ruleset(players=3, market="basic"), lineup("basic_rush", 3), 5, seed=12).games.iloc[4]
    end = out.strip().splitlines()[-2]
    assert end.startswith(f"End after {row.turns} turns by {row.end_reason}")
    assert (f"seat {row.winner} (basic_rush) wins" if row.winner >= 0 else "no winner") in end


def test_cli_non_integer_option_exits_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--players", "abc"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "abc" in err.strip().splitlines()[-1] and "Traceback" not in err


@pytest.mark.parametrize("command", ["simulate", "replay"])
def test_cli_seed_out_of_range_exits_2(capsys, command):
    code, out, err = run(capsys, command, *BASIC, "--games" if command == "simulate" else "--game", "2",
                         "--seed", str(2 ** 63))
    assert code == 2
    assert err.startswith("hoc: error: ") and "seed" in err


def test_cli_empty_princess_pool_exits_2(capsys):
    code, out, err = run(capsys, "simulate", *BASIC, "--games", "2", "--princesses", ",")
    assert code == 2 and "princess" in err


def test_hoc_agents_shows_each_plans_rating_from_the_committed_ladder(capsys):
    """The ladder's figures are those of results/benchmark/summary.md's 2-player table, plan by plan."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    table = (root / "results" / "benchmark" / "summary.md").read_text().split("## 2 players, random markets")[1]
    rows = dict(re.findall(r"^\| (\w+) \| ([\d.]+% \[[\d.]+, [\d.]+\]) \|", table.split("\n## ")[0], re.M))
    assert len(rows) == 26
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rating: win rate per seat in the ladder of 26 plans") and "matrix_2p_random.csv" in out
    lines = {line.split()[0]: line for line in out.splitlines()[2:] if line.strip()}
    for plan, rating in rows.items():
        assert f" {rating} " in lines[plan], (plan, rating, lines[plan])
    assert "%" not in lines["random"].split("uniform")[0]            # no rating for a plan off the ladder


@pytest.mark.parametrize("command", ["tournament", "princesses", "meta", "balance", "tune", "atlas"])
def test_each_long_commands_help_states_its_measured_time_on_2_cores(command, capsys):
    import re

    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "on 2 cores" in text and re.search(r"\d+ (s|minutes)\b", text), text[:400]
