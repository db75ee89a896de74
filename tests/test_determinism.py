"""A run is a pure function of (ruleset, lineup, seed, game index): repeated runs, any split into
workers, and replaying one game through `Game.of_run` all give the same games."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.simulate import lineup, simulate

from conftest import SIX_PRINCESSES


@pytest.fixture(scope="module")
def rules3():
    return Ruleset(players=3, market="basic", princesses=SIX_PRINCESSES)


@pytest.mark.parametrize("agents", ["basic_rush", "random"])
def test_same_seed_gives_identical_dataframe(rules3, agents, warm_kernels):
    a = simulate(rules3, lineup(agents, 3), 300, seed=42).games
    b = simulate(rules3, lineup(agents, 3), 300, seed=42).games
    pd.testing.assert_frame_equal(a, b)


def test_validate_does_not_change_the_games(rules3, warm_kernels):
    a = simulate(rules3, lineup("random", 3), 200, seed=9).games
    b = simulate(rules3, lineup("random", 3), 200, seed=9, validate=True).games
    pd.testing.assert_frame_equal(a, b)


def test_serial_and_parallel_runs_give_identical_rows(rules3, warm_kernels):
    serial = simulate(rules3, lineup("basic_rush,random,basic_rush", 3), 400, seed=5, jobs=1, rotate=True)
    parallel = simulate(rules3, lineup("basic_rush,random,basic_rush", 3), 400, seed=5, jobs=2, rotate=True)
    a = serial.games.sort_values("game").reset_index(drop=True)
    b = parallel.games.sort_values("game").reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b, check_categorical=False)   # categories: the markets a chunk saw
    assert list(a.game) == list(range(400))


def test_a_slice_of_a_run_equals_the_same_games_of_the_whole_run(rules3, warm_kernels):
    whole = simulate(rules3, lineup("random", 3), 100, seed=3).games
    part = simulate(rules3, lineup("random", 3), 30, seed=3, first=50).games
    pd.testing.assert_frame_equal(whole.iloc[50:80].reset_index(drop=True), part.reset_index(drop=True),
                                  check_categorical=False)


def play_with_jitted_agents(game: Game, agents) -> Game:
    dtype = game.state.dtype            # the kernels' integer type
    params = np.ascontiguousarray(np.stack([a.params(game.ruleset) for a in agents]).astype(dtype))
    while not game.over:
        p = game.decider
        game.apply(game.decide(agents[p], params[p]))
    return game


@pytest.mark.parametrize("players,agents", [(2, "basic_rush"), (3, "random"), (4, "basic_rush,random,random,basic_rush")])
def test_game_of_run_replays_row_i_of_simulate(players, agents, warm_kernels):
    rules = Ruleset(players=players, market="basic", princesses=SIX_PRINCESSES)
    team = lineup(agents, players)
    df = simulate(rules, team, 12, seed=2024).games
    for i in (0, 5, 11):
        g = play_with_jitted_agents(Game.of_run(rules, 2024, i), team)
        row = df.iloc[i]
        assert row.game == i
        assert g.seed == int(row.seed)
        assert (g.winner if g.winner is not None else -1) == row.winner
        assert g.end_reason == row.end_reason
        assert g.turns == row.turns
        assert g.steps == row.steps
        for j in range(players):
            assert g.sp(j) == row[f"sp_{j}"]
            assert (g.princess(j) or "") == row[f"princess_{j}"]
            assert g.turns_taken(j) == row[f"turns_{j}"]


def test_game_with_the_same_seed_is_the_same_game(rules3):
    a, b = Game(rules3, seed=123), Game(rules3, seed=123)
    assert np.array_equal(a.state, b.state)
    import random
    rng = random.Random(0)
    while not a.over:
        act = rng.choice(a.legal_actions())
        a.apply(act)
        b.apply(act)
        assert np.array_equal(a.state, b.state)


def test_clone_is_independent(rules3):
    g = Game(rules3, seed=11)
    c = g.clone()
    g.apply(g.legal_actions()[-1])
    assert not np.array_equal(g.state, c.state)
    c.apply(c.legal_actions()[-1])
    assert np.array_equal(g.state, c.state)


def test_different_seeds_give_different_games(rules3, warm_kernels):
    a = simulate(rules3, lineup("basic_rush", 3), 200, seed=1).games
    b = simulate(rules3, lineup("basic_rush", 3), 200, seed=2).games
    assert not a.seed.equals(b.seed)
    assert a.seed.nunique() == 200
    cols = ["winner", "turns", "steps"] + [f"sp_{j}" for j in range(3)]
    assert not a[cols].equals(b[cols])
    # and different games of one run differ from each other
    assert a.turns.nunique() > 5
    g0, g1 = Game.of_run(rules3, 1, 0), Game.of_run(rules3, 1, 1)
    assert not np.array_equal(g0.state, g1.state)
