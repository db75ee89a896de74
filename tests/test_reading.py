"""What the tool says to a person: card texts, did-you-mean hints, the version, seat numbers, the
simulate summary's intervals, the SPRT's wording, and replay logs in a player's words."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from hoc import __version__
from hoc.games.heart_of_crown.cards import CardDB
from hoc.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- card texts -----------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", ["2e", "1e"])
def test_every_card_with_an_effect_routine_has_an_english_text(edition):
    db = CardDB(edition)
    for i, card in enumerate(db.ids):
        if db.frame.effect.iat[i]:
            assert db.text(card), f"{edition} {card} has an effect routine but no text"
        assert "…" not in db.text(card), f"{edition} {card}: the text is a fragment"


def test_card_text_is_found_by_id_english_name_or_the_english_editions_name():
    db = CardDB("2e")
    assert db.text("laolily") == db.text("Second Princess Laolily") == db.text(db.index("laolily"))
    assert "Court Maid" in db.text("laolily")
    assert db.lookup("Royal Maid") == db.lookup("court maid") == db.index("court_maid")
    assert db.text("duke") == ""          # no text: the card is its values


@pytest.mark.parametrize("edition", ["2e", "1e"])
def test_hoc_cards_prints_every_text_within_100_columns(capsys, edition):
    code, out, err = run(capsys, "cards", "--edition", edition)
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 100
    flat = " ".join(out.split())
    db = CardDB(edition)
    for i in range(len(db)):
        assert f"{db.english(i)} [{db.name(i)}]" in flat
        assert " ".join(db.text(i).split()) in flat


def test_hoc_cards_name_shows_one_card_with_its_values_and_text(capsys):
    code, out, err = run(capsys, "cards", "Curse Witch")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Curse Witch [curse_witch]: Action/Attack (Magic), cost 5, 0 links"
    assert "each gain a 'Curse'" in out and "Duke" not in out


def test_hoc_cards_json_carries_the_text(capsys):
    code, out, err = run(capsys, "cards", "hunted_beast", "--json")
    (card,) = json.loads(out)
    assert card["text_en"].startswith("Draw 1 card.")


# ---- did you mean, version --------------------------------------------------------------------------

@pytest.mark.parametrize("argv,hint", [
    (["simulate", "--agents", "basic_rsh", "--market", "basic"], "basic_rush"),
    (["simulate", "--market", "seige"], "siege"),
    (["simulate", "--market", "scout,wishing_wel,post_horse,trading_ship,purveyor,supply_unit,library,"
      "city_development,adventurer,alchemist"], "wishing_well"),
    (["simulate", "--princesses", "laolilly", "--market", "basic"], "laolily"),
    (["simulate", "--override", "dukr.cost=7", "--market", "basic"], "duke"),
    (["simulate", "--override", "duke.cots=7", "--market", "basic"], "cost"),
    (["simulate", "--override", "royal_maid.cost=2", "--market", "basic"], "court_maid"),
    (["cards", "alchemyst"], "alchemist"),
])
def test_a_mistyped_name_gets_one_line_with_a_guess_and_exit_code_2(capsys, argv, hint):
    code, out, err = run(capsys, *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hoc: error: ")
    assert f"(did you mean {hint!r}?)" in lines[0]


def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"hoc {__version__}"


# ---- seats from 0, intervals in the summary, games/s of a resumed run --------------------------------

SIM = ["simulate", "--market", "basic", "--players", "3", "--agents", "basic_rush,random,basic_rush", "--seed", "6"]


def test_simulate_json_carries_an_interval_for_every_rate_the_report_prints(capsys, warm_kernels):
    from hoc.research.simulate import report
    from hoc.research.stats import wilson

    code, out, err = run(capsys, *SIM, "--games", "60", "--json")
    assert code == 0, err
    s = json.loads(out)
    seats = s["win_rate_by_seat"]
    assert [r["seat"] for r in seats] == [0, 1, 2]
    assert [r["wins"] for r in seats] == s["wins_by_seat"]
    for r in seats + s["win_rate_by_agent"] + s["win_rate_by_princess"] + s["end_reason_rates"] + [s["draw_rate"]]:
        assert (r["lo"], r["hi"]) == pytest.approx(wilson(r["wins"], r["games"]))
        assert r["lo"] <= r["rate"] <= r["hi"]
    lo, hi = s["mean_turns_interval"]
    assert lo < s["mean_turns"] < hi
    for m, (lo, hi) in zip(s["mean_final_sp_by_seat"], s["mean_final_sp_by_seat_interval"]):
        assert lo <= m <= hi
    text = report(s)
    for r in seats:
        rate = f"{100 * r['rate']:5.1f}%  [{100 * r['lo']:5.1f}, {100 * r['hi']:5.1f}]"
        assert f"seat {r['seat']} ({r['agent']}): {rate}" in text
    for r in s["end_reason_rates"]:
        assert f"{r['end_reason']} {r['wins']} ({100 * r['rate']:.1f}%  [{100 * r['lo']:5.1f}" in text
    assert "seat 3" not in text


def test_a_resumed_run_reports_games_per_second_over_the_games_it_played(capsys, tmp_path, warm_kernels):
    out = tmp_path / "r.parquet"
    assert main([*SIM, "--games", "80", "--out", str(out), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["games_played"] == 80 and first["games_resumed"] == 0
    parts = sorted(out.glob("part-*.parquet"))
    lost = sum(len(pd.read_parquet(p)) for p in parts[-3:])
    for p in parts[-3:]:
        p.unlink()
    assert main([*SIM, "--games", "80", "--out", str(out), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert (again["games_played"], again["games_resumed"]) == (lost, 80 - lost)
    assert again["games_per_second"] == pytest.approx(lost / again["play_seconds"])
    assert again["wins_by_seat"] == first["wins_by_seat"]
    assert main([*SIM, "--games", "80", "--out", str(out)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("0 games in ") and last.endswith("(80 more read back from the run's earlier parts)")


# ---- the sequential test ----------------------------------------------------------------------------

def test_sprt_stops_at_the_first_game_where_walds_test_decides(warm_kernels):
    from hoc.agents.registry import get
    from hoc.research import stats
    from hoc.research.studies import tournament
    from hoc.games.heart_of_crown.rules import Ruleset

    t = tournament(Ruleset(players=2, market="basic"), [get("basic_rush"), get("random")], 400, seed=3,
                   sprt=(0.5, 0.55))
    o = t.sprt["basic_rush-vs-random"]
    games = t.games[t.games.plan == "basic_rush-vs-random"]
    assert o.decided and len(games) == o.games < 400

    def test_after(n):
        g = t.games[t.games.plan == "basic_rush-vs-random"].iloc[:n]
        mine = [(g[f"agent_{j}"] == "basic_rush").to_numpy() for j in range(2)]
        w = sum(int((stats.won(g, j) & mine[j]).sum()) for j in range(2))
        lost = sum(int((stats.won(g, j) & ~mine[j]).sum()) for j in range(2))
        return stats.sprt(w, lost, 0.5, 0.55).decision

    assert test_after(o.games) == "accept_h1" and test_after(o.games - 1) == "continue"
    assert o.words() == (f"stopped after {o.games} games: basic_rush beats random (win rate 100.0% "
                         f"[{100 * o.rate[1]:.1f}, 100.0]; the test chose 55% over 50%)")


def test_tournament_prints_each_sprt_outcome_in_words_and_json(capsys, warm_kernels):
    argv = ["tournament", "--agents", "basic_rush,random", "--market", "basic", "--games-per-pairing", "300",
            "--sprt", "0.5,0.55", "--seed", "3"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert "applied after every game" in out
    assert "basic_rush-vs-random: stopped after " in out and "basic_rush beats random (win rate 100.0%" in out
    assert "seat 0 " in out and "seat 2" not in out
    code, out, err = run(capsys, *argv, "--json")
    s = json.loads(out)["sprt"]["basic_rush-vs-random"]
    assert s["decided"] and s["decision"] == "accept_h1" and s["tested_every"] == 1
    assert s["words"].startswith(f"stopped after {s['games']} games")


# ---- replays in a player's words ----------------------------------------------------------------------

def _replays():
    """A few games over the three 2E test markets (30 of the 31 supply kinds, every attack), 2 to 4
    players, with agents that play Actions, attack and use their princesses."""
    from hoc.games.heart_of_crown.replay import replay_game
    from hoc.research.harness import Plan
    from hoc.research.simulate import lineup
    from hoc.games.heart_of_crown.rules import Ruleset

    games = [("maids_and_witches", "attack_deck,curse_witch,laolily_maids"), ("siege", "bergamot_engine,attack_deck"),
             ("festival", "twins_extra_turns,klam_discount,draw_engine,flammaria_opening"),
             ("maids_and_witches", "draw_engine,court_politics")]
    out = []
    for k, (market, agents) in enumerate(games):
        rs = Ruleset(players=agents.count(",") + 1, market=market)
        out.append(replay_game(Plan(rs, lineup(agents, rs.players), 2, 11 + k, rotate=True), 1))
    return out


@pytest.fixture(scope="module")
def replays(warm_kernels):
    return _replays()


def test_replay_tells_every_move_with_printed_names_and_no_engine_words(replays):
    db = CardDB("2e")
    ids = [c for c in db.ids if "_" in c]
    for r in replays:
        body = r.lines[4:]
        for line in body:
            assert "(also:" not in line, line                 # a move the log could not tell
            words = line
            for agent in r.seats:                               # agents may be named like cards
                words = words.replace(f"({agent})", "")
            assert not any(i in words for i in ids), line       # card ids are not player words
            assert " choose " not in line and "number " not in line, line
        assert body[-2].startswith("End after ") and body[-1].startswith("Final SP: ")


def test_replay_names_the_card_that_made_a_seat_discard(replays):
    db = CardDB("2e")
    territories = {db.english(i) for i in range(len(db)) if "territory" in db.frame.types.iat[i]}
    told = [line for r in replays for line in r.lines if line.endswith("(Infantry Battalion)")]
    assert told, "no Infantry Battalion attack in the sample games"
    for line in told:
        words = line.split()
        assert words[0] == "seat" and words[2] == "discards" and words[3] in ("a", "an"), line
        assert " ".join(words[4:-2]) in territories, line


def test_replay_counts_cards_and_says_which_princess_gave_them():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_golden import produce

    lines = produce("basic_rush_2p_seed7_game3_laolily_first").splitlines()
    assert "  gains 5 Court Maids (Second Princess Laolily)" in lines
    assert any(line.startswith("  backs Second Princess Laolily with 6 coins; ") for line in lines)


def test_replay_header_names_a_preset_market_given_as_its_kinds(warm_kernels):
    from hoc.games.heart_of_crown.presets import RECOMMENDED
    from hoc.research.replays import replay
    from hoc.research.simulate import lineup
    from hoc.games.heart_of_crown.rules import Ruleset

    rs = Ruleset(players=2, market=tuple(reversed(RECOMMENDED["siege"])))
    lines = replay(rs, lineup("basic_rush", 2), 0, 0)
    assert lines[3].startswith("Market: preset siege: ")
    assert "Gossip-Loving Duchess" in lines[3]


# ---- hoc replay --from RUN.parquet --game N ------------------------------------------------------------

RUN = ["simulate", "--market", "siege", "--players", "3", "--agents", "attack_deck,bergamot_engine,random",
       "--rotate-seats", "--mirror", "--override", "duke.cost=7", "--seed", "21", "--games", "12"]


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory, warm_kernels):
    out = tmp_path_factory.mktemp("runs") / "r.parquet"
    assert main([*RUN, "--out", str(out), "--json"]) == 0
    return out


@pytest.mark.parametrize("index", [0, 7, 11])
def test_replay_from_a_saved_run_ends_as_the_saved_game(saved_run, index):
    from hoc.research.replays import replay_run

    r = replay_run(saved_run, index)
    row = pd.read_parquet(saved_run).set_index("game").loc[index]
    assert (r.game.winner if r.game.winner is not None else -1) == row.winner
    assert [r.game.sp(j) for j in range(3)] == [row[f"sp_{j}"] for j in range(3)]
    assert r.seats == [row[f"agent_{j}"] for j in range(3)]          # the rotated (mirrored) seats
    assert r.game.end_reason == row.end_reason and r.game.turns == row.turns
    assert r.lines[-1].startswith(f"(the run saved the same result for game {index}")


def test_hoc_replay_from_prints_the_log_with_the_runs_options(capsys, saved_run):
    code, out, err = run(capsys, "replay", "--from", str(saved_run), "--game", "5")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Game 5 of run seed 21 ") and "overrides duke.cost=7" in lines[0]
    assert lines[3].startswith("Market: preset siege: ")


@pytest.mark.parametrize("argv,named", [
    (["--game", "12"], "games 0 to 11"),
    (["--game", "1", "--seed", "3"], "drop --seed"),
    (["--game", "1", "--agents", "basic_rush"], "agents"),
])
def test_hoc_replay_from_refuses_what_the_run_does_not_hold(capsys, saved_run, argv, named):
    code, out, err = run(capsys, "replay", "--from", str(saved_run), *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and named in err


def test_hoc_replay_from_says_when_the_saved_result_differs(capsys, saved_run, tmp_path):
    import shutil

    copy = tmp_path / "c.parquet"
    shutil.copytree(saved_run, copy)
    part = sorted(copy.glob("part-*.parquet"))[0]
    df = pd.read_parquet(part)
    df.loc[df.game == 0, "sp_0"] += 1
    df.to_parquet(part)
    code, out, err = run(capsys, "replay", "--from", str(copy), "--game", "0")
    assert code == 2 and "but the run saved" in err and out == ""
