"""Many games with `validate=True`: after every step the engine checks that no card was created or
lost, zone counters match their cards, piles never go negative and cached SP is right; a violation
raises InvariantError naming the seed. Random agents explore odd corners (declining coronations,
setting Apprentice Maids, backing with spare coins, Twins extra turns ...).

Budget: about 10,000 random games plus basic_rush games, in well under 90 s.
"""
from __future__ import annotations

import numpy as np
import pytest

from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.simulate import lineup, simulate

from conftest import END_REASONS, SIX_PRINCESSES

RANDOM_GAMES = {1: 2500, 2: 2500, 3: 2500, 4: 2500}      # 10,000 in total
RUSH_GAMES = {1: 1000, 2: 1000, 3: 1000, 4: 1000}


def check_frame(df, players, turn_cap=100, shared_ties=False):
    n = len(df)
    assert n > 0
    assert df.end_reason.notna().all(), "a game did not end"
    assert set(df.end_reason.astype(str)) <= END_REASONS
    turns_by_seat = df[[f"turns_{j}" for j in range(players)]].sum(axis=1)
    assert (turns_by_seat == df.turns).all(), "sum of turns_j differs from turns"
    assert df.winner.between(-1, players - 1).all()
    draw = df.winner == -1
    if shared_ties:
        # 1E: a judgement tie is shared (no single winner, several bits in win_mask)
        shared = (df.end_reason == "judgement") & draw
        assert (np.bitwise_count(df.win_mask[shared].to_numpy().astype(np.uint64)) >= 2).all()
        assert (draw == ((df.end_reason == "turn_cap") | shared)).all()
    else:
        # 2E: ties go to the later seat, so the only draw is the turn cap
        assert (draw == (df.end_reason == "turn_cap")).all()
    won = ~draw
    assert (df.win_mask[won].to_numpy() == np.left_shift(1, df.winner[won].to_numpy())).all()
    seat_turns = df[[f"turns_{j}" for j in range(players)]].to_numpy()
    assert (seat_turns <= turn_cap).all()
    capped = (df.end_reason == "turn_cap").to_numpy()
    assert (seat_turns[capped].max(axis=1) == turn_cap).all()
    sp = df[[f"sp_{j}" for j in range(players)]].to_numpy()
    winner_sp = sp[np.arange(n)[won.to_numpy()], df.winner[won].to_numpy()]
    reasons = df.end_reason[won].astype(str).to_numpy()
    assert (winner_sp[reasons == "coronation"] >= 20).all()
    assert (winner_sp[reasons == "overtime"] >= 30).all()
    for j in range(players):
        no_princess = df[f"princess_{j}"] == ""
        assert (df[f"sp_{j}"][no_princess] == 0).all()
        assert set(df[f"princess_{j}"][~no_princess]) <= set(SIX_PRINCESSES)
    # princesses are unique within a game
    for _, row in df[[f"princess_{j}" for j in range(players)]].iterrows():
        backed = [p for p in row if p]
        assert len(backed) == len(set(backed))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_invariants_random_agents_basic_market_all_six_princesses(players, warm_kernels):
    ruleset = Ruleset(players=players, market="basic", princesses=SIX_PRINCESSES)
    run = simulate(ruleset, lineup("random", players), RANDOM_GAMES[players], seed=1000 + players,
                   validate=True)
    df = run.games
    assert len(df) == RANDOM_GAMES[players]
    check_frame(df, players)
    # random play mostly hits the turn cap, but some games end otherwise
    assert (df.end_reason != "turn_cap").any()
    backed = set()
    for j in range(players):
        backed |= set(df[f"princess_{j}"]) - {""}
    assert backed == set(SIX_PRINCESSES)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_invariants_basic_rush_basic_market(players, warm_kernels):
    ruleset = Ruleset(players=players, market="basic", princesses=SIX_PRINCESSES)
    run = simulate(ruleset, lineup("basic_rush", players), RUSH_GAMES[players], seed=2000 + players,
                   validate=True)
    df = run.games
    check_frame(df, players)
    assert (df.end_reason != "turn_cap").all()
    if players == 1:
        assert (df.end_reason == "coronation").all()
    # judgement: most SP wins, a tie goes to the later seat (basic_rush always declares, so players
    # left out of an overtime are below 20 and never lead)
    sp = df[[f"sp_{j}" for j in range(players)]].to_numpy()
    judged = (df.end_reason == "judgement").to_numpy()
    for row, w in zip(sp[judged], df.winner.to_numpy()[judged]):
        assert row[w] == row.max()
        assert w == max(j for j in range(players) if row[j] == row.max())


def test_invariants_mixed_lineup_with_rotation(warm_kernels):
    ruleset = Ruleset(players=3, market="basic")
    run = simulate(ruleset, lineup("random,basic_rush,random", 3), 600, seed=77, rotate=True, validate=True)
    check_frame(run.games, 3)
    s = run.summary()
    assert sum(s["wins_by_seat"]) + s["draws"] == 600
    assert s["seats_by_agent"] == {"random": 1200, "basic_rush": 600}


def test_invariants_short_turn_cap_and_small_piles(warm_kernels):
    """Piles emptied early (small judgement piles) and a short cap: judgement and cap paths."""
    ruleset = Ruleset(players=4, market="basic", turn_cap=30,
                      overrides=("duke.copies=2", "senator.copies=2", "court_maid.copies=2"))
    run = simulate(ruleset, lineup("basic_rush", 4), 500,
                   seed=5, validate=True)
    check_frame(run.games, 4, turn_cap=30)
    assert (run.games.end_reason == "judgement").any()
    run = simulate(ruleset, lineup("random", 4), 500, seed=6, validate=True)
    check_frame(run.games, 4, turn_cap=30)


@pytest.mark.parametrize("players", [2, 4])
def test_invariants_first_edition_basic_market(players, warm_kernels):
    """1E shares the engine: Duke-only judgement, shared ties, Keep in the Main phase."""
    ruleset = Ruleset(edition="1e", players=players, market="basic")
    for agents, games in (("random", 300), ("basic_rush", 500)):
        run = simulate(ruleset, lineup(agents, players), games, seed=3000 + players, validate=True)
        check_frame(run.games, players, shared_ties=True)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_legal_actions_agree_with_is_legal_and_never_run_out(players):
    """At every decision of random games: legal_actions() == every action is_legal() accepts, it is
    never empty, an illegal action is refused, and the game ends with no legal action left."""
    import random

    from hoc.errors import IllegalActionError
    from hoc.games.heart_of_crown.game import Game
    from hoc.games.heart_of_crown.kernel import constants as K

    ruleset = Ruleset(players=players, market="basic", turn_cap=40)
    rng = random.Random(players)
    for seed in range(8):
        g = Game(ruleset, seed=seed)
        step = 0
        while not g.over:
            legal = g.legal_actions()
            assert legal, f"no legal action at step {step} of seed {seed}"
            assert legal == sorted(set(legal))
            if step % 7 == 0:
                assert legal == [a for a in range(K.N_ACTIONS) if g.is_legal(a)]
                assert (np.flatnonzero(g.legal_mask()) == legal).all()
                illegal = next(a for a in range(K.N_ACTIONS) if a not in legal)
                before = g.state.copy()
                with pytest.raises(IllegalActionError):
                    g.apply(illegal)
                assert np.array_equal(before, g.state)
            g.apply(rng.choice(legal))
            step += 1
        assert g.legal_actions() == []
        assert g.end_reason in END_REASONS
