"""The game contract is complete: Toy, a third and tiny deck-building game that lives in `tests/toy_game/`
and knows the engine only through `hoc.engine.spec.GameSpec`, registers itself with
`hoc.games.register` and then plays every shared command and library entry point (simulate, agents,
replay, tournament, meta, cards, play and its saved games, tune; the research harness with workers
and Parquet; the registry's agent files and search agents; the Gymnasium, PettingZoo and vectorized
environments). The studies a game does not declare are refused in one line. The web table and `hoc
learn` are Heart of Crown's own front ends (they take no --game), so they are not part of the contract."""
from __future__ import annotations

import json
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))       # the toy game's package, toy_game, sits beside this file

import hoc.cli.options  # noqa: E402,F401 (the command line as a program has it before any game registers)
import hoc.games  # noqa: E402
from hoc.cli.main import main  # noqa: E402

SPEC = "toy_game.spec"
ROOT = HERE.parent


@pytest.fixture(scope="module", autouse=True)
def toy():
    """The toy registered for this module's tests; afterwards the games and the agent registry as they
    were (hoc.games has no unregister: its state is put back by hand, so later test modules see the
    built-in games only)."""
    import hoc.agents.registry as registry

    before = (dict(hoc.games._SPECS), hoc.games.GAMES, dict(registry.AGENTS), list(registry._GAME_PARSERS),
              list(registry._GATHERED))
    yield hoc.games.register(SPEC)
    hoc.games._SPECS.clear()
    hoc.games._SPECS.update(before[0])
    hoc.games.GAMES = before[1]
    registry.AGENTS.clear()
    registry.AGENTS.update(before[2])
    registry._GAME_PARSERS[:] = before[3]
    registry._GATHERED[:] = before[4]


def run(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def simulate_json(capsys, *argv) -> dict:
    code, out, err = run(capsys, "simulate", "--game", "toy", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def ruleset(**options):
    from toy_game.rules import Ruleset

    return Ruleset(**options)


# ---- the registry of games ------------------------------------------------------------------------

def test_the_toy_registers_by_its_spec_module_and_is_found_by_name(toy):
    assert hoc.games.get("toy") is toy and "toy" in hoc.games.names()
    assert hoc.games.register(SPEC) is toy          # registered again: nothing changes
    assert toy.ruleset(players=3).players == 3 and toy.game_class()(toy.ruleset(), 1).players == 2
    assert toy.parameter_row().size > 0 and toy.catalog().GAME == "toy"


def test_nothing_outside_the_toy_folder_names_the_toy_game():
    words = re.compile(r"toy_game|\btoy\b|\bToy\b")
    named = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "hoc").rglob("*.py"))
             if words.search(p.read_text(encoding="utf-8"))]
    assert named == []


# ---- hoc simulate ---------------------------------------------------------------------------------

@pytest.mark.parametrize("agents, options", [("random", ("--players", 4, "--shuffle-seats")),
                                             ("toy_big_money,toy_lab", ("--rotate-seats",)),
                                             ("toy_search_fast,toy_big_money", ("--mirror",))])
def test_simulate_plays_random_priority_lists_and_the_search(capsys, agents, options):
    s = simulate_json(capsys, "--games", 24, "--agents", agents, *options)
    assert s["game"] == "toy" and s["games"] == 24 and s["score"] == "vp"
    rates = [r["rate"] for r in s["win_rate_by_seat"]]
    assert sum(rates) + s["draw_rate"]["rate"] == pytest.approx(1.0)      # a shared win is no seat's
    assert sum(r["score"] * r["games"] for r in s["score_by_agent"]) == pytest.approx(24)
    assert set(s["end_reasons"]) == {"duchies", "turn_cap"} and sum(s["end_reasons"].values()) == 24
    assert all(v > 0 for v in s["mean_final_vp_by_seat"])


def test_the_search_agent_beats_random_and_its_own_rollout_list(capsys):
    s = simulate_json(capsys, "--games", 16, "--agents", "toy_search_fast,random", "--rotate-seats")
    assert s["wins_by_agent"]["toy_search_fast"] >= 14
    s = simulate_json(capsys, "--games", 100, "--agents", "toy_search,toy_big_money", "--rotate-seats")
    score = {r["agent"]: r["score"] for r in s["score_by_agent"]}
    assert score["toy_search"] > 0.55 > score["toy_big_money"]


def test_simulate_validate_checks_the_invariants_after_every_step(capsys):
    s = simulate_json(capsys, "--games", 12, "--players", 3, "--agents", "toy_big_money,toy_lab,random",
                      "--market", "all", "--validate", "--override", "silver.cost=4", "--hand-size", 6,
                      "--turn-cap", 20)
    assert s["games"] == 12 and s["players"] == 3 and s["overrides"] == ["silver.cost=4"]
    assert s["rules"]["hand_size"] == 6 and s["rules"]["turn_cap"] == 20
    code, _, err = run(capsys, "simulate", "--game", "toy", "--games", 2, "--princesses", "laolily")
    assert code == 2 and "--princesses is not an option of Toy" in err


def test_the_toys_invariants_catch_a_card_created_or_a_zone_miscounted():
    from toy_game.game import Game
    from toy_game.kernel import api
    from toy_game.kernel import constants as K

    g = Game(ruleset(), seed=4)
    totals, work = np.zeros(6, np.int32), np.zeros(6, np.int32)
    api.card_totals(g.state, totals, work)
    assert api.check(g.state, totals, work) == K.OK and totals.sum() == 30 + 20 + 8 + 6 + 8 + 20
    g.state[g[K.H_OFF_SUPPLY] + 1] += 1                  # a Silver from nowhere
    assert api.check(g.state, totals, work) == K.E_CARD_COUNT
    g.state[g[K.H_OFF_SUPPLY] + 1] -= 1
    g.state[g[K.H_OFF_PLAYER] + K.P_HAND_N] += 1         # player 0's hand size off by one
    assert api.check(g.state, totals, work) == K.E_SIZE


def test_a_broken_invariant_is_reported_with_the_games_own_message(capsys, monkeypatch):
    from hoc.engine.layout import RES_ERROR
    from hoc.research import rows

    real = rows.play_rows

    def broken(plan, first, n):
        out, coverage = real(plan, first, n)
        out[:, RES_ERROR] = 1                           # E_CARD_COUNT in every game
        return out, coverage

    monkeypatch.setattr("hoc.research.harness.play_rows", broken)
    code, out, err = run(capsys, "simulate", "--game", "toy", "--games", 4, "--agents", "toy_big_money")
    assert code == 1 and "a card was created or lost" in err


def test_parallel_runs_equal_serial_ones_and_parquet_keeps_the_run(capsys, tmp_path):
    argv = ["--games", 32, "--agents", "toy_lab,toy_big_money", "--rotate-seats", "--seed", 7]
    serial = simulate_json(capsys, *argv, "--out", tmp_path / "serial.parquet")
    parallel = simulate_json(capsys, *argv, "--jobs", 2, "--out", tmp_path / "parallel.parquet")
    for key in ("wins_by_seat", "wins_by_agent", "draws", "end_reasons", "mean_final_vp_by_seat"):
        assert serial[key] == parallel[key]
    a = pd.read_parquet(tmp_path / "serial.parquet")
    b = pd.read_parquet(tmp_path / "parallel.parquet")
    assert len(a) == 32 and a.game.tolist() == list(range(32))
    pd.testing.assert_frame_equal(a, b)
    assert {"vp_0", "vp_1", "duchies_0", "cards_1", "turns_0", "owned_1", "market"} <= set(a.columns)
    assert set(a.market.astype(str)) <= {"lab", "bazaar"}           # one kingdom card drawn per game
    assert (a.cards_0 >= 10).all() and set(a.end_reason.astype(str)) <= {"duchies", "turn_cap"}
    manifest = json.loads((tmp_path / "serial.parquet" / "_run.json").read_text())
    assert manifest["game"] == "toy" and manifest["plan"]["hand_size"] == 5


def test_a_python_agent_steps_the_toy_from_python_with_the_same_jitted_seats(capsys):
    from hoc.agents.registry import register

    register("toy_first_legal", lambda game: game.legal_actions()[-1], "the last legal action")
    s = simulate_json(capsys, "--games", 6, "--agents", "toy_first_legal,toy_big_money", "--validate")
    assert s["games"] == 6 and s["seats_by_agent"] == {"toy_first_legal": 6, "toy_big_money": 6}


def test_same_seed_same_result_rows():
    from hoc.agents.registry import get
    from hoc.research.simulate import simulate

    rs = ruleset(players=3, market="all")
    agents = [get("toy_lab"), get("random"), get("toy_search_fast")]
    a = simulate(rs, agents, 9, seed=11, announce=False)
    b = simulate(rs, agents, 9, seed=11, announce=False)
    c = simulate(rs, agents, 9, seed=12, announce=False)
    pd.testing.assert_frame_equal(a.games, b.games)
    assert not a.games.seed.equals(c.games.seed)
    assert (a.coverage.bought > 0).any() and a.coverage.loc["lab", "played"] > 0


def test_a_jitted_agent_decides_in_a_python_toy_game():
    from hoc.agents.registry import get
    from toy_game.game import Game

    g = Game(ruleset(market="all"), seed=2)
    for name in ("random", "toy_lab", "toy_search_fast"):
        a = get(name).decide(g)
        assert g.is_legal(a)
    while not g.over:
        g.apply(get("toy_search:iterations=8").decide(g))
    assert g.winners and g.end_reason in ("duchies", "turn_cap")


def test_the_studies_the_toy_does_not_have_are_refused_in_one_line(capsys):
    code, _, err = run(capsys, "princesses", "--game", "toy")
    assert code == 2 and "Toy has none" in err
    code, _, err = run(capsys, "simulate", "--game", "toy", "--games", 2, "--sp-curves", "curves.png")
    assert code == 2 and "not available for Toy" in err


# ---- hoc agents, cards, replay, play ---------------------------------------------------------------

def test_agents_lists_the_toys_agents_and_no_other_games(capsys):
    from hoc.agents.registry import AGENTS

    code, out, _ = run(capsys, "agents", "--game", "toy")
    names = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and {"random", "toy_bazaar", "toy_big_money", "toy_lab", "toy_search",
                          "toy_search_fast"} <= set(names)
    assert all(AGENTS[n].game in (None, "toy") for n in names) and "dom_big_money" in AGENTS


def test_cards_shows_the_toys_card_sheet_through_its_commands(capsys):
    code, out, _ = run(capsys, "cards", "--game", "toy")
    assert code == 0 and "Toy: 6 cards" in out and "Lab (action; cost 4): +2 cards" in out
    code, out, _ = run(capsys, "cards", "--game", "toy", "duchy", "--json")
    assert code == 0 and json.loads(out)[0]["vp"] == 3


def test_replay_tells_a_game_of_the_toy_by_its_name(capsys):
    code, out, err = run(capsys, "replay", "--game", "toy", "--index", 2, "--agents", "toy_lab,toy_search_fast",
                         "--seed", 3)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Toy, 2 players") and lines[-1].startswith("game over (")
    assert any("buys duchy" in line for line in lines) and "toy_search_fast" in out


def test_replay_without_agents_seats_the_toys_default_agent(capsys):
    code, out, err = run(capsys, "replay", "--game", "toy", "--index", 1)
    assert code == 0, err
    assert "toy_big_money" in out


def test_a_saved_run_replays_each_game_as_it_was_played(capsys, tmp_path):
    run_dir = tmp_path / "run.parquet"
    simulate_json(capsys, "--games", 6, "--agents", "toy_search_fast,toy_lab", "--rotate-seats", "--seed", 5,
                  "--out", run_dir)
    for index in (0, 5):
        code, out, err = run(capsys, "replay", "--from", run_dir, "--game", index)
        assert code == 0, err
        assert f"the run saved the same result for game {index}" in out


def test_play_at_the_terminal_through_the_toys_commands(capsys, monkeypatch):
    answers = iter(["x"] + ["0"] * 500)       # a word that is no action, then always the first legal one
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, err = run(capsys, "play", "--game", "toy", "--agents", "human,toy_big_money", "--turn-cap", 8)
    assert code == 0, err
    assert "not a legal action: 'x'" in out and "[0] pass" in out and "buys " in out
    assert out.splitlines()[-1].startswith("game over (")


def test_a_toy_game_saved_by_play_replays_from_its_file(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    saved = tmp_path / "game.json"
    code, _, err = run(capsys, "play", "--game", "toy", "--agents", "human,toy_big_money", "--save", saved)
    assert code == 0, err
    code, out, err = run(capsys, "replay", saved)
    assert code == 0 and out.startswith("Toy"), err
    assert "saved before the end, after 0 decisions" in out


def test_a_finished_toy_game_replays_to_the_result_it_saved_and_a_changed_result_is_refused(capsys, monkeypatch,
                                                                                           tmp_path):
    import json

    monkeypatch.setattr("builtins.input", lambda prompt="": "0")     # always the first legal action
    saved = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "--game", "toy", "--agents", "human,toy_big_money", "--save", saved)
    assert code == 0, err
    data = json.loads(saved.read_text())
    assert data["rules"]["game"] == "toy" and data["result"]["over"]
    code, told, err = run(capsys, "replay", saved)
    assert code == 0, err
    assert told.splitlines()[-1] == out.splitlines()[-2]            # the same ending line as the game played
    data["result"]["vp"][0] += 1
    saved.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", saved)
    assert code == 2 and "does not end as the game was saved: vp" in err
    data["rules"]["game"] = "no_such_game"
    saved.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", saved)
    assert code == 2 and "rules.game must name a game" in err


def test_tune_writes_a_list_file_that_plays_by_its_path(capsys, tmp_path):
    code, out, err = run(capsys, "tune", "--game", "toy", "--games", 8, "--population", 2, "--out", tmp_path / "t")
    assert code == 0, err
    best = tmp_path / "t" / "best.toml"
    s = simulate_json(capsys, "--games", 4, "--agents", f"{best},toy_big_money")
    assert s["agents"] == ["best", "toy_big_money"]


# ---- the priority list: a TOML file by its path, or a library name ----------------------------------

LIST = """game = "toy"
description = "Lab first"
play = ["lab"]
buy = [
  { card = "duchy", coins = 6 },
  { card = "lab", coins = 4, owned_below = 3 },
  { card = "silver", coins = 3 },
]
"""


def test_a_priority_list_reads_from_a_toml_file_or_by_library_name(capsys, tmp_path):
    from hoc.agents.ids import PRIORITY
    from hoc.agents.registry import from_file, get
    from toy_game.agents.kernel import BR_COINS, L_BUY, L_N_BUY

    path = tmp_path / "lab_first.toml"
    path.write_text(LIST)
    agent = from_file(path)
    assert agent.game == "toy" and agent.id == PRIORITY and agent.name == "lab_first"
    row = agent.params(ruleset())
    assert row[L_N_BUY] == 3 and row[L_BUY + BR_COINS] == 6
    assert get("toy_lab").game == "toy" and get("toy_lab").id == PRIORITY
    s = simulate_json(capsys, "--games", 8, "--agents", f"{path},toy_lab", "--market", "lab", "--validate")
    assert s["agents"] == ["lab_first", "toy_lab"]


def test_every_toy_agent_writes_its_row_only_into_the_fields_its_kind_carries(toy):
    from hoc.agents import ids
    from hoc.agents.registry import of_game
    from hoc.engine.layout import N_PARAMS

    kinds = {ids.PRIORITY: "priority", ids.ISMCTS: "search"}
    table = toy.parameter_row()
    assert table.size == N_PARAMS and table.kinds() == set(kinds.values())
    checked = 0
    for name, agent in of_game("toy").items():
        if agent.game != "toy":
            continue
        row = agent.params(ruleset())
        allowed = np.zeros(N_PARAMS, bool)
        for f in table.carried(kinds[agent.id]):
            allowed[f.offset:f.end] = True
        assert not ((row != 0) & ~allowed).any(), name
        checked += 1
    assert checked == 5


def test_a_bad_list_file_is_one_line_naming_it(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(LIST.replace('"lab", coins = 4', '"labb", coins = 4'))
    code, _, err = run(capsys, "simulate", "--game", "toy", "--games", 2, "--agents", path)
    assert code == 2 and "unknown Toy card 'labb'" in err


def test_the_search_agent_reads_its_options_and_the_toy_refuses_other_games_agents(capsys):
    from hoc.agents.ids import ISMCTS
    from hoc.agents.registry import get
    from toy_game.agents.search import S_ITERATIONS

    agent = get("toy_search:iterations=5,rollout=toy_lab")
    assert agent.id == ISMCTS and agent.params(ruleset())[S_ITERATIONS] == 5
    code, _, err = run(capsys, "simulate", "--game", "toy", "--games", 2, "--agents", "dom_big_money")
    assert code == 2 and "plays dominion, not toy" in err


# ---- hoc tournament and hoc meta ----------------------------------------------------------------

def test_tournament_plays_a_round_robin_of_the_toys_agents(capsys):
    code, out, err = run(capsys, "tournament", "--game", "toy", "--agents", "toy_big_money,toy_lab,random",
                         "--games-per-pairing", 8, "--json")
    assert code == 0, err
    t = json.loads(out)
    assert t["games"] == 24 and {r["agent"] for r in t["agents"]} == {"toy_big_money", "toy_lab", "random"}


def test_tournament_without_agents_plays_the_toys_own(capsys):
    code, _, err = run(capsys, "tournament", "--game", "toy", "--games-per-pairing", 4)
    assert code == 0, err


def test_meta_finds_the_equilibrium_of_the_toys_population(capsys):
    code, out, err = run(capsys, "meta", "--game", "toy", "--games-per-pairing", 8, "--bootstrap", 0, "--json")
    assert code == 0, err
    m = json.loads(out)
    text = json.dumps(m)
    assert all(name in text for name in ("toy_big_money", "toy_lab", "toy_bazaar"))
    assert "--game toy" in m["command"]


# ---- the environments ---------------------------------------------------------------------------

def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def test_the_gymnasium_environment_plays_the_toy_to_its_rewards():
    from gymnasium.utils.env_checker import check_env

    from hoc.env import HeartOfCrownEnv
    from toy_game import observation

    env = HeartOfCrownEnv(opponents="toy_big_money", ruleset=ruleset())
    quiet(check_env, env, skip_render_check=True)
    rng = np.random.default_rng(0)
    rewards = []
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        assert obs["observation"].shape == (observation.size(2),) and obs["action_mask"].shape == (env.action_space.n,)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, r, done, _, info = env.step(int(rng.choice(legal)))
        rewards.append(r)
        assert set(info["winners"]) <= {0, 1} and info["end_reason"] in ("duchies", "turn_cap")
    assert all(r in (-1.0, 0.5, 1.0) for r in rewards)


def test_the_pettingzoo_environment_plays_the_toy_seat_by_seat():
    from pettingzoo.test import api_test

    from hoc.env.aec import HeartOfCrownAEC

    quiet(api_test, HeartOfCrownAEC(ruleset=ruleset(players=3), seed=2), num_cycles=300)
    rng = np.random.default_rng(1)
    for episode in range(3):
        env = HeartOfCrownAEC(ruleset=ruleset(), seed=1)
        env.reset(seed=episode)
        final = {}
        for agent in env.agent_iter(max_iter=10_000):
            obs, reward, done, truncated, _ = env.last()
            if done or truncated:
                final[agent] = reward
                env.step(None)
                continue
            other = env.possible_agents[1 - env.possible_agents.index(agent)]
            assert env.observe(other)["action_mask"].sum() == 0      # only the seat to decide has actions
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert sorted(final.values()) in ([-1.0, 1.0], [0.5, 0.5])


def test_the_vectorized_stepper_plays_toy_games_with_auto_reset():
    from hoc.env.vector import VecHoc
    from toy_game.game import Game

    from toy_game import observation
    from toy_game.kernel.constants import H_SEED, N_ACTIONS

    vec = VecHoc(4, opponents="toy_lab", ruleset=ruleset(), seed=3)
    obs, masks = vec.reset()
    assert obs.shape == (4, observation.size(2)) and masks.shape == (4, N_ACTIONS) and (masks.sum(1) > 0).all()
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(400):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        obs, masks, rewards, dones = vec.step(actions)
        finished += int(dones.sum())
        assert set(rewards[dones].tolist()) <= {-1.0, 0.5, 1.0} and (rewards[~dones] == 0).all()
    assert finished >= 4
    g = Game(ruleset(), vec.game_seed(0))                            # a slot's game is the engine's game
    assert (g.state[H_SEED:H_SEED + 2] == vec.states[0][H_SEED:H_SEED + 2]).all()


# ---- gaps in the shared contract (strict: these fail once the gap is fixed) ------------------------

def test_the_compiled_code_cache_is_keyed_by_the_registered_games_kernel_sources():
    from hoc import _cache

    assert "toy_game" in _cache.source_stamps()


def test_the_tuners_races_play_a_registered_game_on_worker_processes():
    from hoc.agents.registry import get
    from hoc.agents.tune.evaluate import play_games
    from hoc.research.harness import Backend

    rs = ruleset()
    agents = [get("toy_big_money"), get("toy_lab")]
    ids = np.array([a.id for a in agents], np.int32)
    rows = np.stack([a.params(rs) for a in agents])
    seats = np.tile(np.array([[0, 1]], np.int32), (1100, 1))
    parallel = play_games(rs, ids, rows, 3, np.arange(1100), seats, Backend(jobs=2))
    serial = play_games(rs, ids, rows, 3, np.arange(1100), seats, Backend())
    assert np.array_equal(serial, parallel)


def test_replay_from_a_run_refuses_a_registered_games_own_option(capsys, tmp_path):
    run_dir = tmp_path / "run.parquet"
    simulate_json(capsys, "--games", 2, "--agents", "toy_big_money", "--out", run_dir)
    code, _, err = run(capsys, "replay", "--from", run_dir, "--hand-size", 3)
    assert code == 2 and "--hand-size" in err


def test_the_engine_warm_up_is_keyed_by_the_game():
    from hoc.agents.registry import get
    from hoc.games.dominion.rules import Ruleset as DominionRules
    from hoc.research.engine import engine_name
    from hoc.research.harness import Plan

    toy_plan = Plan(ruleset(), [get("toy_big_money")] * 2, 1)
    dominion_plan = Plan(DominionRules(), [get("dom_big_money")] * 2, 1)
    assert engine_name(toy_plan) != engine_name(dominion_plan)


def _declared(protocol) -> set[str]:
    """The members a Protocol class declares: its annotated attributes, properties and methods."""
    return set(getattr(protocol, "__annotations__", {})) | {
        n for n, v in vars(protocol).items() if not n.startswith("_") and (isinstance(v, property) or callable(v))}


def test_a_ruleset_with_only_the_protocols_members_runs_the_shared_studies():
    from hoc.agents.registry import get
    from hoc.engine.spec import Ruleset as Protocol
    from hoc.research import meta
    from hoc.research.simulate import simulate

    real = ruleset()
    members = _declared(Protocol)
    Bare = type("Bare", (), {n: property(lambda self, n=n: getattr(real, n)) for n in members})
    bare = Bare()
    agents = [get("toy_big_money"), get("toy_lab")]
    run = simulate(bare, agents, 4, announce=False)
    assert run.summary()["games"] == 4
    assert len(meta.play(bare, agents, 2).table) == 2


def test_end_reasons_are_read_by_their_codes_not_by_their_order():
    import dataclasses

    from hoc.agents.registry import get
    from hoc.engine import layout as L
    from hoc.research.harness import Plan, frame
    from toy_game.rules import Ruleset

    spec = dataclasses.replace(hoc.games.get("toy"), end_reasons={2: "turn_cap", 1: "duchies"})

    class Reordered(Ruleset):
        @property
        def game(self):
            return spec

    rows = np.zeros((2, L.RES_LEN), np.int32)
    rows[:, L.RES_END] = [1, 2]                          # the Duchies ran out; the turn cap
    rows[:, L.RES_MARKET:] = -1
    df = frame(rows, Plan(Reordered(), [get("toy_big_money")] * 2, 2), 0)
    assert df.end_reason.astype(str).tolist() == ["duchies", "turn_cap"]
