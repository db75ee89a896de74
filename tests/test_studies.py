"""The research commands: round robin tables and ratings, SPRT stopping, the cards owned at the end;
JSON output, plots and errors (card value and what-ifs: test_card_value.py)."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from hoc.agents.registry import get
from hoc.cli import main
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.harness import Backend, Plan
from hoc.research.studies import _play, owns, tournament


@pytest.fixture(scope="module")
def rr(warm_kernels):
    return tournament(Ruleset(players=2), [get(n) for n in ("senator_duke", "curse_witch", "random")], 200, seed=2)


def test_round_robin_plays_every_pair_with_balanced_seats(rr):
    df = rr.games
    assert len(df) == 3 * 200
    pairs = df.groupby(["agent_0", "agent_1"], observed=True).size()
    assert set(pairs.values) == {100}            # each pair, each seating, half the games
    assert sorted(df.plan.unique()) == sorted(["senator_duke-vs-curse_witch", "senator_duke-vs-random",
                                               "curse_witch-vs-random"])


def test_round_robin_table_and_ratings_agree_with_the_games(rr):
    long = rr.pairwise.long.set_index(["agent", "opponent"])
    vs = rr.games[rr.games.plan == "senator_duke-vs-curse_witch"]
    sd_wins = int(((vs.agent_0 == "senator_duke") & (vs.winner == 0)).sum()
                  + ((vs.agent_1 == "senator_duke") & (vs.winner == 1)).sum())
    assert long.loc[("senator_duke", "curse_witch"), "wins"] == sd_wins
    assert long.loc[("senator_duke", "random"), "rate"] > 0.95
    assert rr.ratings.agent.iloc[-1] == "random"


def test_sprt_stops_a_lopsided_pairing_early(warm_kernels):
    t = tournament(Ruleset(players=2), [get("senator_duke"), get("random")], 5000, seed=1, sprt=(0.5, 0.6))
    assert len(t.games) < 5000
    assert t.stopped["senator_duke-vs-random"].decision == "accept_h1"


def test_same_seed_same_round_robin(rr):
    again = tournament(Ruleset(players=2), [get(n) for n in ("senator_duke", "curse_witch", "random")], 200, seed=2)
    pd.testing.assert_frame_equal(rr.games, again.games, check_categorical=False)


def owned_games(rs, agents, games, seed):
    """A rotated run's games with the cards each seat owned at the end."""
    plan = Plan(rs, agents, games, seed, rotate=True)
    return _play([("run", plan)], ["game", "seed", "win_mask", "agent", "owned", "market"], Backend(), None, False)


def test_owned_cards_at_the_end_match_a_replay_of_the_game(warm_kernels):
    from hoc.games.heart_of_crown.game import Game

    rs = Ruleset(players=2, market="maids_and_witches")
    agents = [get("curse_witch"), get("senator_duke")]
    games = owned_games(rs, agents, 20, seed=4)
    db = rs.cards
    for i in range(6):
        row = games.iloc[i]
        game = Game.of_run(rs, 4, i)
        seats = [agents[(j + i) % 2] for j in range(2)]
        while not game.over:
            game.apply(game.decide(seats[game.decider]))
        for j in range(2):
            expect = sum(1 << c for c in range(len(db)) if game.owned(j, db.ids[c]) > 0)
            assert int(row[f"owned_{j}"]) == expect
            assert owns(games, j, "curse_witch", db)[i] == (game.owned(j, "curse_witch") > 0)


def test_tournament_command_prints_json_and_plots(tmp_path, capsys, warm_kernels):
    png = tmp_path / "t.png"
    out = tmp_path / "t.parquet"
    code = main(["tournament", "--agents", "senator_duke,random", "--games-per-pairing", "60", "--json",
                 "--plot", str(png), "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    s = json.loads(capsys.readouterr().out)
    assert s["games"] == 60 and {r["agent"] for r in s["agents"]} == {"senator_duke", "random"}
    assert png.stat().st_size > 5000
    assert len(pd.read_parquet(out / "senator_duke-vs-random.parquet")) == 60


def test_balance_command_runs(capsys, warm_kernels):
    assert main(["balance", "--card", "margrave", "--strong", "senator_duke", "--seeds", "20"]) == 0
    assert "margrave" in capsys.readouterr().out


@pytest.mark.parametrize("argv,named", [
    (["tournament", "--agents", "senator_duke,nosuch_agent"], "nosuch_agent"),
    (["tournament", "--agents", "senator_duke", "--games-per-pairing", "5"], "cannot fill"),
    (["tournament", "--agents", "a.toml,b.toml"], "a.toml"),
    (["tournament", "--agents", "senator_duke,random", "--sprt", "0.6,0.5"], "sprt"),
    (["tournament", "--agents", "senator_duke,random", "--plot", "x.jpg"], "png"),
    (["balance", "--override", "duke.cost=abc"], "abc"),
    (["balance", "--override", "nosuchcard.cost=3"], "nosuchcard"),
    (["princesses", "--plans", "twins=nosuch_agent"], "nosuch_agent"),
    (["princesses", "--out", "/dev/null/dir/x.parquet"], "/dev/null is a file"),
])
def test_study_commands_reject_bad_input_with_one_line(capsys, argv, named):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and named in err[0]


def test_owned_masks_cover_cards_above_31(warm_kernels):
    rs = Ruleset(players=2)
    ids = [i for i in range(len(rs.cards)) if i >= 32]
    assert ids, "the 2e database has more than 32 cards"
    games = owned_games(rs, [get("attack_deck"), get("draw_engine")], 100, seed=6)
    masks = np.concatenate([games[f"owned_{j}"].to_numpy() for j in range(2)])
    assert (masks >> 32).any()
