"""The hand-elimination seating (1st-edition variant, `Ruleset(seating="hand_elimination")`, `--seating`):
each player secretly picks 5 of their 10 starting cards as the opening hand; the hands are shown together;
the player showing the most Apprentice Maids sits first and plays first, the others follow clockwise in
descending order; ties are broken at random by the game seed. The 5 picked are the first hand, the other
5 the deck. Players keep their numbers (their lineup seats); their places in turn order are recorded."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from hoc.agents.registry import get
from hoc.errors import HocError
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import api, constants as K
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.harness import Plan
from hoc.research.rows import play_rows
from hoc.research.simulate import simulate

from conftest import play_to_end, random_policy

AM, FV = "apprentice_maid", "farming_village"


def hand_elimination(players=2, **kw) -> Ruleset:
    return Ruleset(edition="1e", players=players, market="basic", seating="hand_elimination", **kw)


def pick(game: Game, maids: int) -> None:
    """The decider picks an opening hand of `maids` Apprentice Maids and Farming Villages for the rest."""
    assert game.context == "card choice" and game.turns == 0
    for i in range(5):
        game.apply(f"choose {AM if i < maids else FV}")


def first_turns(game: Game, n: int) -> list[int]:
    """The turn players of the next n turns (everyone passes)."""
    seen = []
    while len(seen) < n and not game.over:
        if game.turns > len(seen):
            seen.append(game.turn_player)
        legal = game.legal_actions()
        game.apply(K.A_PASS if K.A_PASS in legal else legal[0])
    return seen


def test_the_players_pick_their_opening_hands_from_their_ten_starting_cards_before_the_first_turn():
    g = Game(hand_elimination(), seed=1)
    assert (g.turns, g.decider, g.context) == (0, 0, "card choice")
    assert g.hand(0) == {} and sorted(g.deck(0)) == sorted([AM] * 3 + [FV] * 7)
    assert {a.card for a in g.legal_actions()} == {AM, FV}       # any of its own cards, nothing to decline
    pick(g, 1)
    assert (g.turns, g.decider) == (0, 1)                        # then the next player picks


def test_the_five_picked_form_the_first_hand_and_the_other_five_the_deck():
    g = Game(hand_elimination(), seed=2)
    pick(g, 2)
    pick(g, 0)
    assert g.hand(0) == {AM: 2, FV: 3} and sorted(g.deck(0)) == sorted([AM] + [FV] * 4)
    assert g.hand(1) == {FV: 5} and sorted(g.deck(1)) == sorted([AM] * 3 + [FV] * 2)
    assert g.turns == 1 and g.turn_player == 0


def test_the_player_showing_the_most_apprentice_maids_plays_first():
    g = Game(hand_elimination(), seed=3)
    pick(g, 0)
    pick(g, 3)
    assert g.turn_player == 1 and g.seat_order == [1, 0]
    assert (g.position(1), g.position(0)) == (0, 1)
    assert first_turns(g, 4) == [1, 0, 1, 0]


def test_the_others_follow_clockwise_in_descending_order_of_apprentice_maids():
    g = Game(hand_elimination(players=4), seed=4)
    for maids in (1, 3, 0, 2):
        pick(g, maids)
    assert g.seat_order == [1, 3, 0, 2]
    assert [g.position(p) for p in range(4)] == [2, 0, 3, 1]
    assert first_turns(g, 8) == [1, 3, 0, 2] * 2


def test_ties_are_broken_at_random_by_the_game_seed():
    orders = []
    for seed in range(40):
        g = Game(hand_elimination(players=3), seed=seed)
        for maids in (3, 3, 1):
            pick(g, maids)
        orders.append(tuple(g.seat_order))
        assert g.seat_order[2] == 2                               # the fewest Maids sits last
        again = Game(hand_elimination(players=3), seed=seed)
        for maids in (3, 3, 1):
            pick(again, maids)
        assert again.seat_order == g.seat_order                   # the same seed, the same draw
    assert set(orders) == {(0, 1, 2), (1, 0, 2)}
    assert 8 <= orders.count((0, 1, 2)) <= 32                     # about half each (p < 0.001 outside)


def test_the_later_seat_tie_rule_reads_the_seats_in_turn_order():
    g = Game(hand_elimination(tie="later_seat"), seed=5)
    pick(g, 0)
    pick(g, 3)                                                    # player 1 sits first, player 0 second
    assert g.turn_player == 1
    g.arrange(1, coins=20, market={"duke": 1})
    g.apply("pass: end the main phase")
    g.apply("buy duke")                                           # the last Duke: Judgement, 0 SP each
    assert g.end_reason == "judgement" and g.sp(0) == g.sp(1)
    assert g.winners == [0]                                       # the later seat in turn order: player 0


def test_attacks_and_opponents_go_clockwise_in_turn_order():
    """'Every opponent gains a Curse' goes clockwise from the turn player's left, and a pile that runs
    out stops the rest: with one Curse left it goes to the next player in turn order."""
    g = Game(hand_elimination(players=4), seed=6)
    for maids in (1, 3, 0, 2):
        pick(g, maids)                                            # order 1, 3, 0, 2
    assert g.turn_player == 1
    g.arrange(1, hand={"curse_witch": 1, FV: 2}, market={"curse": 1})
    g.apply("exile curse witch")
    assert [g.owned(p, "curse") for p in range(4)] == [0, 0, 0, 1]


def test_the_observation_counts_seats_in_turn_order_from_the_observer():
    from hoc.games.heart_of_crown.observation import layout, observe, size

    g = Game(hand_elimination(players=3), seed=7)
    for maids in (0, 3, 2):
        pick(g, maids)                                            # order 1, 2, 0
    out = np.zeros(size(3), np.float32)
    observe(g.state, 0, out)
    where = layout(3)
    assert out[where["seat"]][0] == 2                              # player 0 plays third
    assert out[where["turn_player"]][0] == 1                       # player 1 is the next seat after player 0
    assert out[where["hand_size/1"]][0] == 5 and out[where["own_turns/1"]][0] == 1   # block 1: player 1


def test_a_default_priority_list_shows_every_apprentice_maid_by_card_data():
    """The jitted lists answer the pick as any question of a card they gain: the dearest first (an
    Apprentice Maid costs 2, a Farming Village 1), so they show all three and sit first or tie."""
    g = Game(hand_elimination(), seed=8)
    agent = get("basic_rush")
    while g.turns == 0:
        g.apply(g.decide(agent))
    assert g.hand(0) == {AM: 3, FV: 2} and g.hand(g.seat_order[1]) == {AM: 3, FV: 2}


def test_a_second_edition_ruleset_refuses_hand_elimination_because_its_seats_start_with_other_cards():
    with pytest.raises(HocError, match="same cards"):
        Ruleset(edition="2e", seating="hand_elimination")
    with pytest.raises(HocError, match="seating must be one of lineup, hand_elimination"):
        Ruleset(edition="1e", seating="dice")


def test_the_lineup_seating_is_the_default_and_is_not_recorded():
    assert Ruleset(edition="1e").vector[K.R_SEATING] == K.SEATING_LINEUP
    assert "seating" not in Ruleset(edition="1e").describe()
    assert hand_elimination().describe()["seating"] == "hand_elimination"
    g = Game(Ruleset(edition="1e", players=3, market="basic"), seed=1)
    assert g.seat_order == [0, 1, 2] and g.turns == 1 and sum(g.hand(0).values()) == 5


def test_a_second_edition_game_with_equal_decks_takes_the_interface_that_has_the_seating_routine():
    rs = Ruleset(edition="2e", market="basic", seating="hand_elimination",
                 overrides=("farming_village.start2=7", "orchard.start2=0"))
    assert rs.game.kernel_for(rs.vector, False) is api
    assert Ruleset(edition="2e").game.kernel_for(Ruleset(edition="2e").vector, False) is api.SECOND_EDITION
    g = Game(rs, seed=1)
    assert g.context == "card choice" and g.turns == 0


def test_results_record_each_players_place_in_turn_order():
    rs = Ruleset(edition="1e", players=3, seating="hand_elimination")
    plan = Plan(rs, [get("basic_rush"), get("random"), get("random")], 300, seed=3)
    df = simulate(rs, plan.agents, 300, seed=3).games
    pos = df[["position_0", "position_1", "position_2"]].to_numpy()
    assert (np.sort(pos, axis=1) == [0, 1, 2]).all()
    assert (pos[:, 0] == 0).mean() > 0.5                          # the list shows 3 Maids; random rarely does
    rows, _ = play_rows(plan, 0, 50)
    packed = rows[:, K.RES_SEATING].astype(np.int64)
    decoded = np.stack([((packed >> (4 * j)) & 15) - 1 for j in range(3)], axis=1)
    assert (decoded == pos[:50]).all()                            # recorded even where nobody moved
    assert "position_0" not in simulate(Ruleset(edition="1e"), [get("random")] * 2, 20).games


@pytest.mark.slow   # 10,000 validated games
def test_invariants_hold_over_ten_thousand_random_games_with_hand_elimination():
    for players, games, agents in ((2, 10_000, ["random"] * 2), (3, 2_000, ["basic_rush", "random", "random"]),
                                   (4, 2_000, ["random", "defense_1e", "random", "basic_rush"])):
        rs = Ruleset(edition="1e", players=players, seating="hand_elimination")
        run = simulate(rs, [get(a) for a in agents], games, seed=players, validate=True)
        df = run.games
        assert len(df) == games
        pos = df[[f"position_{j}" for j in range(players)]].to_numpy()
        assert (np.sort(pos, axis=1) == np.arange(players)).all()


def test_python_agents_a_search_agent_and_the_replay_play_the_variant():
    rs = hand_elimination(players=2)
    g = play_to_end(Game(rs, seed=9), random_policy(9))
    assert g.over and sorted(g.seat_order) == [0, 1]
    plan = Plan(rs, [get("ismcts:iterations=30,rollout=basic_rush"), get("basic_rush")], 2, seed=1)
    rows, _ = play_rows(plan, 0, 2)
    assert (rows[:, K.RES_ERROR] == 0).all() and (rows[:, K.RES_SEATING] != 0).all()
    from hoc.research.replays import replay

    lines = replay(rs, [get("basic_rush"), get("random")], 0, 0)
    assert any("Apprentice Maids seat 0 3" in line and "turn order" in line for line in lines)


def test_the_cli_runs_the_variant_and_refuses_it_in_one_line_where_the_decks_differ(tmp_path):
    base = [sys.executable, "-m", "hoc", "simulate", "--games", "200", "--jobs", "1", "--json",
            "--seating", "hand_elimination"]
    ok = subprocess.run(base + ["--edition", "1e"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    out = json.loads(ok.stdout)
    assert out["rules"]["seating"] == "hand_elimination" and sum(out["wins_by_position"]) == out["games"] - out["draws"]
    bad = subprocess.run(base, capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "same cards" in bad.stderr
    run = tmp_path / "he.parquet"
    made = subprocess.run(base[:5] + ["20", "--jobs", "1", "--edition", "1e", "--seating", "hand_elimination",
                                      "--out", str(run)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    told = subprocess.run([sys.executable, "-m", "hoc", "replay", "--from", str(run), "--game", "2"],
                          capture_output=True, text=True)
    assert told.returncode == 0, told.stderr          # the run's seating is read back from its manifest
    assert "seat 1 picks an Apprentice Maid for its opening hand (hand elimination)" in told.stdout
    assert "The opening hands are shown" in told.stdout


def test_the_environments_play_the_variant_the_learner_picks_its_own_opening_hand():
    from hoc.env import env as aec_env
    from hoc.env.gym import HeartOfCrownEnv
    from hoc.games.heart_of_crown.observation import layout

    where = layout(2)
    learner = HeartOfCrownEnv(opponents="basic_rush", edition="1e", seat=1, seating="hand_elimination")
    obs, info = learner.reset(seed=4)
    assert learner.game.turns == 0 and learner.game.decider == 1             # its pick, after seat 0's
    assert obs["observation"][where["question"]][0] == K.CH_DECK_TOP
    assert obs["observation"][where["deck_window"]].sum() == 10 and obs["action_mask"].sum() == 2
    rng = np.random.default_rng(0)
    done, steps = False, 0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, done, truncated, info = learner.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 5 and sorted(learner.game.seat_order) == [0, 1]
    e = aec_env(edition="1e", seed=3, seating="hand_elimination")
    e.reset(seed=3)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.game.over and len(e.game.seat_order) == 2


def test_a_person_picks_an_opening_hand_in_hoc_play_without_seeing_the_others_and_the_save_replays(tmp_path):
    import io

    from rich.console import Console

    from hoc.cli.session import HUMAN, Session, seats
    from hoc.research.replays import replay_saved

    picks = iter(["2"] * 5)          # the second action listed: choose apprentice_maid
    rng = np.random.default_rng(1)
    plan = Plan(Ruleset(edition="1e", players=2, market="basic", seating="hand_elimination", turn_cap=8),
                seats(f"basic_rush,{HUMAN}", None), 1, 4)
    out = io.StringIO()
    s = Session(plan, [1], Console(file=out, width=100), lambda prompt: "" if not prompt.startswith("seat ") else
                next(picks, None) or str(rng.integers(1, len(s.game.legal_actions()) + 1)), str(tmp_path / "g.json"))
    s.run()
    text = out.getvalue()
    assert "Before the first turn (hand elimination): pick card 1 of the 5 of your opening hand" in text
    assert "seat 0 picks a card for its opening hand" in text and "seat 0 picks an Apprentice" not in text
    assert "seat 1 picks an Apprentice Maid for its opening hand" in text
    r = replay_saved(tmp_path / "g.json")           # the seating is saved with the rules
    assert r.actions == s.actions and "seat 0 picks an Apprentice Maid" in "\n".join(r.lines)
