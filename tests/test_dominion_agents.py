"""Dominion's bots: the buy menus and play orders as data, the answers they give to card questions,
the last-Province guard, and the lineups and commands that seat them."""
from __future__ import annotations

import json

import numpy as np
import pytest

from hoc.agents.registry import AGENTS, from_file, get
from hoc.engine.state import seat_agent
from hoc.errors import HocError
from hoc.games.dominion.agents.policies import decide
from hoc.games.dominion.game import Game
from hoc.games.dominion.kernel import constants as K
from hoc.games.dominion.rules import Ruleset

KINGDOM = ("cellar", "chapel", "moat", "militia", "smithy", "witch", "remodel", "mine", "village", "library")
LIBRARY = ("dom_big_money", "dom_smithy_bm", "dom_witch_bm", "dom_militia_bm", "dom_big_money_ultimate",
           "dom_village_smithy", "dom_chapel_lab", "dom_festival_library", "dom_workshop_gardens")


def seated(game, *names):
    for seat, name in enumerate(names):
        agent = get(name)
        seat_agent(game.state, seat, agent.id, agent.params(game.ruleset))
    return game


def choice(game):
    return game.label(decide(game.state))


def test_the_library_bots_are_named_agents_of_dominion():
    for name in LIBRARY:
        assert AGENTS[name].game == "dominion"
    assert AGENTS["random"].game is None and AGENTS["basic_rush"].game == "heart_of_crown"


def test_the_library_reads_bots_from_agents_dominion_bots_and_from_their_old_folder(tmp_path, monkeypatch):
    """agents/dominion/bots/ is the library; a bot file left in (or added to) the old folder
    hoc/games/dominion/agents/library/ is in it too, and the new folder's file wins a name both hold."""
    from hoc.agent_folders import library
    from hoc.games.dominion.agents import bots

    assert bots.LIBRARY == library() / "dominion" / "bots"
    assert (bots.LIBRARY / "dom_big_money.toml").is_file()
    old = tmp_path / "library"
    old.mkdir()
    text = (bots.LIBRARY / "dom_smithy_bm.toml").read_text()
    (old / "domsim_late_bot.toml").write_text(text)
    (old / "dom_big_money.toml").write_text(text)           # the same name as a bot of the new folder
    monkeypatch.setattr(bots, "OLD_LIBRARY", old)
    found = bots.library()
    assert found["domsim_late_bot"].path == str(old / "domsim_late_bot.toml")
    assert found["dom_big_money"].path == str(bots.LIBRARY / "dom_big_money.toml")
    assert list(found) == sorted(found)



@pytest.mark.parametrize("coins, buys", [(8, "buy:province"), (9, "buy:province"), (7, "buy:gold"), (6, "buy:gold"),
                                         (5, "buy:silver"), (3, "buy:silver"), (2, "pass")])
def test_big_money_buys_province_gold_silver_by_coins(coins, buys):
    g = seated(Game(Ruleset(market=KINGDOM), seed=0), "dom_big_money", "dom_big_money")
    g.arrange(0, hand=["copper"], deck=["copper"] * 5)
    g.apply("treasures").set(K.H_COINS, coins)
    assert choice(g) == buys


def test_smithy_big_money_buys_one_smithy_with_four_or_five_and_plays_it():
    g = seated(Game(Ruleset(market=KINGDOM), seed=0), "dom_smithy_bm", "dom_big_money")
    g.arrange(0, hand=["copper"], deck=["copper"] * 5)
    g.apply("treasures").set(K.H_COINS, 4)
    assert choice(g) == "buy:smithy"
    g.arrange(0, hand=["copper", "smithy"], deck=["copper"] * 5, discard=["smithy"])
    assert choice(g) == "play:smithy"
    g.apply("play:smithy", "treasures").set(K.H_COINS, 5)
    assert choice(g) == "buy:silver"        # it owns a Smithy now


def test_a_bot_without_a_play_order_plays_throne_room_on_its_smithy_and_a_village_before_both(tmp_path):
    # the default order: +Actions first, then a card playing another Action (Throne Room), then by
    # cost; Smithy played first would spend the only Action and leave Throne Room dead in hand
    path = tmp_path / "throne_smithy.toml"
    path.write_text('game = "dominion"\nbuy = [{ card = "province", coins = 8 }, { card = "silver", coins = 3 }]\n')
    agent = from_file(path)
    g = Game(Ruleset(market=("throne_room", *KINGDOM[:-1])), seed=0)
    seat_agent(g.state, 0, agent.id, agent.params(g.ruleset))
    big_money = get("dom_big_money")
    seat_agent(g.state, 1, big_money.id, big_money.params(g.ruleset))
    g.arrange(0, hand=["smithy", "throne_room", "copper"], deck=["copper"] * 8)
    assert choice(g) == "play:throne_room"
    g.apply("play:throne_room")
    assert choice(g) == "choose:smithy"
    g.apply("choose:smithy")
    assert g.hand(0) == {"copper": 7}               # Smithy twice: six cards
    g.arrange(0, hand=["smithy", "throne_room", "village"], deck=["copper"] * 8)
    assert choice(g) == "play:village"


def test_a_bot_plays_all_treasures_before_buying():
    g = seated(Game(Ruleset(market=KINGDOM), seed=0), "dom_big_money", "dom_big_money")
    g.arrange(0, hand=["copper", "silver"], deck=["copper"] * 5)
    assert choice(g) == "treasures"


def _last_province(guard: bool, behind: bool):
    g = seated(Game(Ruleset(market=KINGDOM, last_province_guard=guard), seed=0), "dom_big_money", "dom_big_money")
    g.state[g[K.H_OFF_SUPPLY] + g.db.index("province")] = 1
    g.arrange(1, hand=["copper"] * 5, deck=["copper"] * 5, discard=["province"] * (2 if behind else 0))
    g.arrange(0, hand=["gold", "gold", "gold"], deck=["copper"] * 5)
    g.apply("treasures")
    return choice(g)


def test_the_last_province_guard_stops_a_bot_buying_the_province_that_loses_it_the_game():
    assert _last_province(guard=True, behind=True) == "buy:gold"
    assert _last_province(guard=False, behind=True) == "buy:province"
    assert _last_province(guard=True, behind=False) == "buy:province"     # it wins: buy it


def test_bots_reveal_moat_and_discard_their_least_valued_cards_to_militia():
    g = seated(Game(Ruleset(market=KINGDOM), seed=0), "dom_militia_bm", "dom_big_money")
    g.arrange(1, hand=["moat", "copper", "estate", "silver", "gold"])
    g.arrange(0, hand=["militia"], deck=["copper"] * 5)
    g.apply("play:militia")
    assert choice(g) == "yes"
    g.apply("pass")
    assert choice(g) == "choose:estate"
    g.apply("choose:estate")
    assert choice(g) == "choose:copper"


def test_a_chapel_bot_trashes_estates_early_and_coppers_while_its_money_lasts():
    g = seated(Game(Ruleset(market=KINGDOM), seed=0), "dom_chapel_lab", "dom_big_money")
    g.arrange(0, hand=["chapel", "estate", "copper", "copper", "copper"], deck=["copper"] * 5,
              discard=["silver", "silver", "gold"])
    g.apply("play:chapel")
    answers = []
    while g.question():
        answers.append(choice(g))
        g.apply(answers[-1])
    # money 3 Coppers + 2 Silvers + a Gold + 5 Coppers = 15: trash the Estate and Coppers, at most 4
    assert answers[0] == "choose:estate" and answers.count("choose:copper") == 3


def test_a_remodel_bot_remodels_gold_into_province_and_estate_into_silver(tmp_path):
    path = tmp_path / "remodeller.toml"
    path.write_text('game = "dominion"\nplay = ["remodel"]\nbuy = [{ card = "province", coins = 8 }, '
                    '{ card = "gold", coins = 6 }, { card = "silver", coins = 3 }]\n')
    agent = from_file(path)
    for hand, trashed, gained in ((["remodel", "gold", "copper"], "gold", "province"),
                                  (["remodel", "estate", "silver", "copper"], "estate", "silver")):
        g = Game(Ruleset(market=KINGDOM), seed=0)
        seat_agent(g.state, 0, agent.id, agent.params(g.ruleset))
        g.arrange(0, hand=hand, deck=["copper"] * 5)
        g.apply("play:remodel")
        assert choice(g) == f"choose:{trashed}"
        g.apply(f"choose:{trashed}")
        assert choice(g) == f"choose:{gained}"


def test_bot_files_with_errors_are_one_line_errors(tmp_path):
    cases = {
        'game = "dominion"\nbuy = [{ card = "provinse" }]\n': "province",
        'game = "dominion"\nbuy = [{ card = "gold", coin = 6 }]\n': "unknown keys coin",
        'game = "dominion"\nplay = ["gold"]\nbuy = [{ card = "gold" }]\n': "not an Action",
        'game = "dominion"\nbuy = []\n': "non-empty",
        'game = "dominion"\nbuy = [{ card = "gold", coins = -1 }]\n': "whole number",
    }
    for i, (text, words) in enumerate(cases.items()):
        path = tmp_path / f"bot{i}.toml"
        path.write_text(text)
        with pytest.raises(HocError, match=words):
            from_file(path)


def test_a_bot_file_by_path_plays_dominion(tmp_path):
    path = tmp_path / "silver_only.toml"
    path.write_text('game = "dominion"\nbuy = [{ card = "silver" }]\n')
    agent = from_file(path)
    assert agent.game == "dominion" and agent.name == "silver_only"


def test_a_lineup_of_another_games_agents_is_refused():
    from hoc.games.heart_of_crown.rules import Ruleset as HocRules
    from hoc.research.harness import Plan

    with pytest.raises(HocError, match="plays heart_of_crown, not dominion"):
        Plan(Ruleset(), [get("basic_rush")] * 2, 10)
    with pytest.raises(HocError, match="plays dominion, not heart_of_crown"):
        Plan(HocRules(), [get("dom_big_money")] * 2, 10)


def test_simulate_dominion_reports_ties_rounds_and_scores(capsys):
    from hoc.cli.main import main

    code = main(["simulate", "--game", "dominion", "--agents", "dom_smithy_bm,dom_big_money", "--games", "2000",
                 "--rotate-seats", "--market", "first_game", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and d["game"] == "dominion" and d["rules"]["last_province_guard"] is True
    assert d["ties"] == d["tie_rate"]["wins"] and 0 <= d["ties"] < 2000
    assert 10 < d["mean_rounds"] < 25 and len(d["mean_final_vp_by_seat"]) == 2
    score = {s["agent"]: s["score"] for s in d["score_by_agent"]}
    assert score["dom_smithy_bm"] > 0.6 and abs(sum(score.values()) - 1) < 1e-9
    assert d["first_seat_share_of_decisive"]["games"] == d["decisive"]


def test_simulate_dominion_defaults_to_big_money_and_refuses_heart_of_crown_options(capsys):
    from hoc.cli.main import main

    assert main(["simulate", "--game", "dominion", "--games", "100", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["agents"] == ["dom_big_money"] * 2
    assert main(["simulate", "--game", "dominion", "--princesses", "laolily"]) == 2
    assert "Heart of Crown option" in capsys.readouterr().err
    assert main(["simulate", "--game", "chess"]) == 2


def test_every_library_bot_plays_random_kingdoms_without_breaking_a_rule():
    from hoc.research.harness import Plan
    from hoc.research.rows import play_rows

    for players in (2, 3):
        agents = [get(n) for n in LIBRARY]
        plan = Plan(Ruleset(players=players), agents, 9 * 300, seed=5, rotate=False, mirror=False, validate=True,
                    draw=True)
        rows, _ = play_rows(plan, 0, plan.games)
        assert (rows[:, K.RES_ERROR] == 0).all()
        assert (rows[:, K.RES_END] != K.END_TURN_CAP).mean() > 0.99



@pytest.mark.slow   # 60,000 tuning games
def test_tune_dominion_writes_a_bot_file_for_the_kingdom_validated_on_fresh_seeds(tmp_path, capsys):
    from hoc.cli.main import main

    out = tmp_path / "tuned"
    code = main(["tune", "--game", "dominion", "--market", "first_game", "--games", "60000", "--population", "6",
                 "--validate-games", "400", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0 and "vs dom_smithy_bm" in text and "vs dom_witch_bm" in text
    agent = from_file(out / "best.toml")
    assert agent.game == "dominion"
    summary = json.loads((out / "summary.json").read_text())
    assert [v["opponent"] for v in summary["validation"]] == ["dom_smithy_bm", "dom_witch_bm"]
    assert all(v["lo"] <= v["score"] <= v["hi"] and v["games"] == 400 for v in summary["validation"])
    assert summary["rules"]["market"] == "first_game" and summary["generations"] >= 1


@pytest.mark.slow   # 30,000 tuning games, twice
def test_the_same_tune_command_finds_the_same_plan(tmp_path, capsys):
    from hoc.cli.main import main

    plans = []
    for name in ("a", "b"):
        main(["tune", "--game", "dominion", "--market", "first_game", "--games", "30000", "--population", "4",
              "--validate-games", "100", "--seed", "7", "--out", str(tmp_path / name)])
        plans.append(json.loads((tmp_path / name / "summary.json").read_text())["best"])
    capsys.readouterr()
    assert plans[0] == plans[1]


def test_the_tuner_starts_from_a_money_deck_around_each_kingdom_card_with_an_endgame():
    from hoc.games.dominion.agents.genome import ENDGAME_PLAN, STARTING_PLAN, bot, starts

    rs = Ruleset(players=2, market=KINGDOM)
    menus = starts(rs)
    assert menus[:2] == [STARTING_PLAN, ENDGAME_PLAN]
    for card in KINGDOM:                # one, two, one per 11 cards of each kingdom card; the rest the endgame plan
        around = [[e for e in g if e.card == card][0] for g in menus if any(e.card == card for e in g)]
        assert [(e.owned_below, e.density) for e in around] == [(1, None), (2, None), (None, 11)]
        assert all([e for e in g if e.card != card] == list(ENDGAME_PLAN) for g in menus[2:] if any(
            e.card == card for e in g))
    before = {e.card: [x.card for x in g].index(e.card) < [x.card for x in g].index("gold")
              for g in menus[2:] for e in g if e.card in KINGDOM}
    assert before["witch"] and not before["smithy"]          # cost 5 before Gold, cost 4 after it
    for g in menus:
        assert bot(g, "start").params(rs).any()              # each a valid bot row on the kingdom


def test_a_tuned_entrys_gains_to_end_rule_is_a_when_condition_of_its_bot_file(tmp_path):
    from hoc.games.dominion.agents.bots import parse
    from hoc.games.dominion.agents.genome import ENDGAME_PLAN, toml

    (tmp_path / "p.toml").write_text(toml(ENDGAME_PLAN, "a test"), encoding="utf-8")
    buy = parse(tmp_path / "p.toml").buy
    assert buy[1] == {"card": "duchy", "coins": 5, "when": ["gains_to_end <= 4"]}
    assert buy[2] == {"card": "estate", "coins": 2, "when": ["gains_to_end <= 2"]}


def test_a_tuned_entrys_share_of_the_deck_and_money_threshold_are_when_conditions_the_bot_reads():
    from hoc.games.dominion.agents.genome import Entry, bot, fit

    e = Entry("smithy", 4, density=11, money_above=15)
    assert e.buy() == {"card": "smithy", "coins": 4, "when": ["11 * owned(smithy) < owned(all)", "money > 15"]}
    rs = Ruleset(players=2, market=KINGDOM)
    assert bot((e, Entry("silver", 3)), "x").params(rs).any()
    crowded = fit(tuple(Entry("smithy", 4, density=9, money_above=12) for _ in range(12)))   # 24 conditions
    assert sum(x.conditions() for x in crowded) <= 16 and crowded[0].density == 9           # a row holds 16


def test_one_generation_of_the_tuner_finds_a_witch_deck_that_beats_big_money(tmp_path):
    """Witch with money beats Big Money nearly always; the tuner's starts hold it, so the first
    generation finds it (from plain Big Money it took hundreds of thousands of games)."""
    from hoc.games.dominion.agents.tuning import tune

    rs = Ruleset(players=2, market=KINGDOM)
    r = tune(rs, [get("dom_big_money")], 1, 3, str(tmp_path / "t"), population=4, keep=2, games_per_opponent=200,
             validate_games=400, progress=lambda line: None)
    assert r.generations == 1 and any(e.card == "witch" for e in r.genome)
    assert r.validation[0]["lo"] > 0.7


def test_tune_dominion_needs_a_fixed_kingdom(tmp_path, capsys):
    from hoc.cli.main import main

    assert main(["tune", "--game", "dominion", "--games", "1000", "--out", str(tmp_path / "x")]) == 2
    assert "one kingdom" in capsys.readouterr().err


def test_the_vector_environment_plays_dominion_against_a_bot():
    from hoc.env.vector import VecHoc
    from hoc.games.dominion import observation

    vec = VecHoc(16, opponents="dom_big_money", ruleset=Ruleset(market="first_game"), seed=3)
    obs, masks = vec.reset()
    assert obs.shape == (16, observation.size(2)) and masks.shape[1] == K.N_ACTIONS
    rng = np.random.default_rng(0)
    done = 0
    for _ in range(3000):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, masks, rewards, dones = vec.step(actions)
        done += int(dones.sum())
        assert set(np.unique(rewards[dones])) <= {-1.0, 0.5, 1.0}
    assert done > 16                    # games end and restart
    with pytest.raises(HocError, match="plays heart_of_crown"):
        VecHoc(2, opponents="basic_rush", ruleset=Ruleset())


def test_tournament_and_meta_play_dominion_bots(capsys):
    from hoc.cli.main import main

    assert main(["tournament", "--game", "dominion", "--agents", "dom_big_money,dom_smithy_bm,dom_witch_bm",
                 "--games-per-pairing", "300", "--market", "first_game", "--json"]) == 0
    t = json.loads(capsys.readouterr().out)
    assert {r["agent"] for r in t["ratings"]} == {"dom_big_money", "dom_smithy_bm", "dom_witch_bm"}
    assert main(["meta", "--game", "dominion", "--agents", "dom_big_money,dom_smithy_bm,dom_big_money_ultimate",
                 "--games-per-pairing", "200", "--market", "first_game", "--bootstrap", "20"]) == 0
    assert "dom_smithy_bm" in capsys.readouterr().out


def test_replay_tells_a_dominion_game_as_the_harness_played_it(tmp_path, capsys):
    from hoc.cli.main import main

    out = tmp_path / "run.parquet"
    assert main(["simulate", "--game", "dominion", "--agents", "dom_smithy_bm,dom_militia_bm", "--games", "40",
                 "--market", "first_game", "--rotate-seats", "--out", str(out), "--json"]) == 0
    capsys.readouterr()
    assert main(["replay", "--from", str(out), "--game", "17"]) == 0
    text = capsys.readouterr().out
    assert "the run saved the same result for game 17" in text and "turn 1 (round 1), seat 0" in text
    assert main(["replay", "--game", "dominion", "--index", "17", "--market", "first_game", "--agents",
                 "dom_smithy_bm,dom_militia_bm", "--rotate-seats"]) == 0
    told = capsys.readouterr().out
    assert told.splitlines()[-1] == text.splitlines()[-2]       # the same game's ending


def test_play_dominion_at_the_terminal(monkeypatch, capsys):
    from hoc.cli.main import main

    answers = iter(["treasures", "? smithy", "99", "0"] + ["0"] * 400)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", "--game", "dominion", "--market", "first_game", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Smithy (action; cost 4): +3 Cards." in out and "not a legal action: '99'" in out
    assert "game over" in out or "unfinished" in out


def test_a_dominion_game_saved_by_play_replays_to_its_saved_end(monkeypatch, capsys, tmp_path):
    import json

    from hoc.cli.main import main

    monkeypatch.setattr("builtins.input", lambda prompt="": "0")      # always the first legal action
    saved = tmp_path / "game.json"
    assert main(["play", "--game", "dominion", "--market", "first_game", "--seed", "5", "--save", str(saved)]) == 0
    played = capsys.readouterr().out.splitlines()
    data = json.loads(saved.read_text())
    assert data["rules"]["game"] == "dominion" and data["result"]["over"] and data["seed"] == 5
    assert main(["replay", str(saved)]) == 0
    told = capsys.readouterr().out.splitlines()
    assert told[-1] == played[-2] and told[-1].startswith("game over")     # the same end as the game played
    data["actions"] = data["actions"][:40]                                  # a file cut short
    saved.write_text(json.dumps(data))
    assert main(["replay", str(saved)]) == 2
    assert "does not end as the game was saved: over False (saved: True)" in capsys.readouterr().err


def test_shuffled_seats_draw_each_games_seat_order_from_its_seed(tmp_path, capsys):
    from hoc.cli.main import main
    from hoc.research.harness import Plan

    plan = Plan(Ruleset(players=3), [get("dom_big_money"), get("dom_smithy_bm"), get("dom_witch_bm")], 6000,
                seed=4, shuffle=True)
    seats = plan.seats(0, 6000)
    assert (np.sort(seats, axis=1) == [0, 1, 2]).all()                 # every game seats each agent once
    firsts = np.bincount(seats[:, 0], minlength=3) / 6000
    assert np.allclose(firsts, 1 / 3, atol=0.03)                        # a fair first seat
    assert (plan.seats(100, 50) == seats[100:150]).all()                # by game, whatever the chunk
    with pytest.raises(HocError, match="do not combine"):
        Plan(Ruleset(), [get("dom_big_money")] * 2, 10, rotate=True, shuffle=True)
    out = tmp_path / "s.parquet"
    assert main(["simulate", "--game", "dominion", "--agents", "dom_smithy_bm,dom_big_money", "--games", "200",
                 "--shuffle-seats", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shuffle_seats"] is True
    assert main(["replay", "--from", str(out), "--game", "3"]) == 0
    assert "the run saved the same result" in capsys.readouterr().out


def test_the_dominion_search_agent_plays_valid_games_and_beats_its_rollout_bot():
    from hoc.research.harness import Plan
    from hoc.research.rows import play_rows

    rs = Ruleset(market="first_game")
    plan = Plan(rs, [get("dom_search:iterations=100,rollout=dom_smithy_bm"), get("dom_smithy_bm")], 200, seed=8,
                mirror=True, validate=True)
    rows, _ = play_rows(plan, 0, plan.games)
    assert (rows[:, K.RES_ERROR] == 0).all()
    seats = plan.seats(0, plan.games)
    mine = np.argmax(seats == 0, axis=1)
    mask = rows[:, K.RES_WIN_MASK].astype(np.int64)
    winners = (mask & 1) + (mask >> 1 & 1)
    score = np.where((mask >> mine) & 1 == 1, 1.0 / np.maximum(winners, 1), 0.0).mean()
    assert score > 0.55                 # 200 fixed games (100 seeds, both seatings)


def test_dominion_search_specs_and_their_errors():
    from hoc.agents.registry import split_names

    assert split_names("dom_search:iterations=50,rollout=dom_big_money,dom_smithy_bm") == [
        "dom_search:iterations=50,rollout=dom_big_money", "dom_smithy_bm"]
    agent = get("dom_search:iterations=50,c=2,prior=0.3,questions=1")
    assert agent.game == "dominion" and "50 determinized playouts" in agent.description
    for spec, words in (("dom_search:iterations=0", "out of range"), ("dom_search:rollout=basic_rush", "Dominion bot"),
                        ("dom_search:depth=3", "not an option"), ("dom_search:prior=1", "out of range")):
        with pytest.raises(HocError, match=words):
            get(spec)


def test_a_search_seat_is_told_in_a_replay(capsys):
    from hoc.cli.main import main

    assert main(["replay", "--game", "dominion", "--agents", "dom_search:iterations=20,dom_big_money",
                 "--market", "first_game"]) == 0
    assert "game over" in capsys.readouterr().out


def test_the_gymnasium_and_pettingzoo_environments_play_dominion():
    from pettingzoo.test import api_test

    from hoc.env.aec import HeartOfCrownAEC
    from hoc.env.gym import HeartOfCrownEnv

    env = HeartOfCrownEnv(opponents="dom_smithy_bm", ruleset=Ruleset(market="first_game"))
    rng = np.random.default_rng(1)
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(obs["action_mask"]))
            obs, reward, done, truncated, info = env.step(action)
        assert reward in (-1.0, 0.5, 1.0) and len(info["vp"]) == 2 and info["end_reason"] in K.END_REASONS.values()
    shown = HeartOfCrownEnv(opponents="dom_big_money", ruleset=Ruleset(), render_mode="ansi")
    shown.reset(seed=1)
    assert "VP" in shown.render() and "Dominion game" in shown.render()
    api_test(HeartOfCrownAEC(ruleset=Ruleset(market="first_game"), seed=3), num_cycles=200)


def test_a_dominion_observation_hides_other_hands_and_every_decks_order():
    from hoc.games.dominion.observation import observe, size

    def seen(hand1, deck1, deck0):
        g = Game(Ruleset(market=KINGDOM), seed=0)
        g.arrange(1, hand=hand1, deck=deck1)
        g.arrange(0, hand=["copper"] * 5, deck=deck0)
        out = np.zeros(size(2), np.float32)
        observe(g.state, 0, out)
        return out

    a = seen(["gold", "copper"], ["estate", "silver"], ["smithy", "estate", "copper"])
    b = seen(["estate", "silver"], ["gold", "copper"], ["copper", "smithy", "estate"])
    c = seen(["gold", "gold"], ["estate", "silver"], ["smithy", "estate", "copper"])
    assert (a == b).all() and not (a == c).all()


def test_a_python_agent_plays_dominion_beside_jitted_bots(tmp_path, monkeypatch, capsys):
    from hoc.cli.main import main

    (tmp_path / "mybot.py").write_text('def play(game):\n    """buys Silver when it can"""\n'
                                       '    legal = game.legal()\n'
                                       '    return "buy:silver" if "buy:silver" in legal else legal[0]\n')
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--game", "dominion", "--agents", "mybot:play,dom_big_money", "--games", "30",
                 "--rotate-seats", "--validate", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["games"] == 30 and d["wins_by_agent"]["dom_big_money"] > 20
