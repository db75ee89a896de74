"""The Dominion strength study (experiments/dominion_strength.py): the strongest imported bot of each
kingdom by a round robin, and our methods against it, one resumable kingdom at a time."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from test_cli_errors import study_refused

TINY = ["--kingdoms", "1", "--no-own", "--games", "12", "--match-games", "12", "--tune-games", "600", "--search-games", "2",
        "--search", "dom_search:iterations=10", "--jobs", "1"]


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    from experiments import dominion_strength

    out = tmp_path_factory.mktemp("strength") / "s"
    dominion_strength.main([*TINY, "--out", str(out)])
    return out


def test_the_study_writes_each_method_against_the_kingdoms_strongest_imported_bot(study):
    t = pd.read_csv(study / "strength.csv")
    assert list(t.method) == ["tuned", "search"]                 # no atlas unless --atlas-iterations
    robin = pd.read_csv(study / "roundrobin.csv")
    assert (t.strongest == robin.bot.iloc[0]).all()                # the round robin's best is the one faced
    assert robin.score.is_monotonic_decreasing
    assert t.strongest.str.startswith(("domsim_", "dominiate_", "pyminion_")).all()
    assert list(t.games) == [12, 2]
    tuned = json.loads((study / "kingdoms" / "random_00" / "tune" / "summary.json").read_text())
    assert tuned["opponents"] == [t.strongest.iloc[0]]            # by default tuned against the bot it faces
    assert (study / "strength.parquet").exists() and (study / "strength.png").stat().st_size > 0
    text = (study / "summary.md").read_text()
    assert "python -m experiments.dominion_strength" in text and "## Per method" in text
    assert "## Where the tuned plan does not beat the strongest imported bot" in text


def test_every_rate_and_its_interval_lie_within_0_and_1(study):
    t = pd.read_csv(study / "strength.csv")
    assert ((0 <= t.lo) & (t.lo <= t.rate) & (t.rate <= t.hi) & (t.hi <= 1)).all()
    assert (t.beats == (t.lo > 0.5)).all()


def test_a_rerun_reads_the_finished_kingdom_back_without_playing_it(study, monkeypatch):
    from experiments import dominion_strength

    def replayed(*args):
        raise AssertionError("a finished kingdom was played again")

    saved = study / "kingdoms" / "random_00.json"
    before = saved.stat().st_mtime_ns
    monkeypatch.setattr(dominion_strength, "unit", replayed)
    dominion_strength.main([*TINY, "--out", str(study)])
    assert saved.stat().st_mtime_ns == before
    assert json.loads(saved.read_text())["settings"]["games"] == 12


def test_a_changed_option_plays_the_kingdom_again_and_ctrl_c_says_how_to_resume(study, monkeypatch, capsys):
    from experiments import dominion_strength

    calls = []

    def unit(*args):
        calls.append(args)
        raise KeyboardInterrupt

    monkeypatch.setattr(dominion_strength, "unit", unit)
    with pytest.raises(SystemExit) as e:
        dominion_strength.main([*TINY, "--tune-games", "700", "--out", str(study)])
    assert len(calls) == 1 and calls[0][1]["tune_games"] == 700
    line = capsys.readouterr().err.strip().splitlines()
    assert e.value.code == 130 and len(line) == 1 and "0 of 1 kingdoms are finished" in line[0]
    assert "--tune-games 700" in line[0]


def test_the_search_can_roll_out_the_bot_it_faces(tmp_path):
    from experiments import dominion_strength

    out = tmp_path / "r"
    dominion_strength.main([*TINY, "--search-rollout", "strongest", "--out", str(out)])
    t = pd.read_csv(out / "strength.csv").set_index("method")
    assert t.loc["search", "agent"] == f"dom_search:iterations=10,rollout={t.loc['search', 'strongest']}"


def test_an_authors_kingdom_is_the_cards_named_beside_the_bot_and_the_bots_own():
    from experiments.dominion_strength import eligible, own_kingdoms

    own = {k["author_bot"]: k for k in own_kingdoms(0)}
    skull = own["domsim_burning_skull_htbd_1"]["cards"]           # DominionSim's board: vassal, mine, witch, moat
    assert len(skull) == 10 and {"vassal", "mine", "witch", "moat", "sentry", "laboratory"} <= set(skull)
    assert "domsim_burning_skull_htbd_1" in eligible(skull)
    assert own_kingdoms(0) == own_kingdoms(0)


def test_a_bot_that_buys_a_card_outside_the_kingdom_is_left_out_of_its_round_robin():
    from experiments.dominion_strength import eligible, random_kingdoms

    for k in random_kingdoms(0, 5):
        names = eligible(k["cards"])
        assert ("domsim_smithy" in names) == ("smithy" in k["cards"])
        assert "domsim_basic_big_money" in names                  # buys base cards only: plays every kingdom
    assert random_kingdoms(0, 3) == random_kingdoms(0, 3) != random_kingdoms(1, 3)


def test_the_study_refuses_bad_options_in_one_line(capsys, monkeypatch, tmp_path):
    out = ["--out", str(tmp_path / "s")]
    assert "--kingdoms must be at least 0, got -1" in study_refused(capsys, monkeypatch, "dominion_strength",
                                                                    "--kingdoms", "-1", *out)
    assert "nosuch" in study_refused(capsys, monkeypatch, "dominion_strength", "--search", "nosuch", *out)
    assert "nosuch" in study_refused(capsys, monkeypatch, "dominion_strength", "--tune-opponents", "nosuch", *out)
    assert "--search-rollout" in study_refused(capsys, monkeypatch, "dominion_strength", "--search-rollout", "x",
                                               *out)
    assert "--games" in study_refused(capsys, monkeypatch, "dominion_strength", "--games", "many", *out)
    assert "no kingdom" in study_refused(capsys, monkeypatch, "dominion_strength", "--kingdoms", "0", "--no-own",
                                         *out)


@pytest.mark.slow   # the strategy atlas of the kingdom, one iteration: about a minute on a loaded machine
def test_the_atlas_best_elite_is_judged_when_an_atlas_is_run(tmp_path):
    from experiments import dominion_strength

    out = tmp_path / "a"
    dominion_strength.main([*TINY, "--atlas-iterations", "1", "--out", str(out)])
    t = pd.read_csv(out / "strength.csv").set_index("method")
    assert list(t.index) == ["tuned", "atlas", "search"]
    assert (out / t.loc["atlas", "plan"]).exists() and t.loc["atlas", "plan"].endswith("elite_000.toml")
