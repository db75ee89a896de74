"""hoc tune: plans as genomes (TOML round trip), the structural moves (every result a valid agent
file), the threshold optimiser, the tuner's game loop and its races (common random numbers, seats
mirrored), determinism of a search serially, with jobs and after a restart, and bad input."""
import dataclasses
import pickle

import numpy as np
import pytest

from hoc.games.heart_of_crown.agents import priority
from hoc.games.heart_of_crown.agents import priority_kernel as PK
from hoc.agents.registry import AGENTS
from hoc.games.heart_of_crown.agents.catalog import ARCHETYPES
from hoc.games.heart_of_crown.agents import genome
from hoc.games.heart_of_crown.agents import operators as ops
from hoc.agents.tune.evaluate import race
from hoc.games.heart_of_crown.agents.genome import BOUNDS, NUMERIC, Plan, Rule, Universe, from_spec, from_text
from hoc.games.heart_of_crown.agents.tuning.search import Budget, Settings, State, Thresholds, run, tune
from hoc.cli.main import main
from hoc.errors import HocError
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.research.harness import Backend
from hoc.games.heart_of_crown.rules import Ruleset

SIEGE = Ruleset(players=2, market="siege")
RANDOM = Ruleset(players=2)


def archetype_files():
    return sorted(ARCHETYPES.glob("*.toml"))


# ---- genome <-> TOML ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", archetype_files(), ids=lambda p: p.stem)
def test_every_archetype_becomes_a_plan_that_writes_back_the_same_parameter_row(path):
    spec = priority.parse(path)
    plan = from_spec(spec)
    assert (plan.params(RANDOM) == spec.params(RANDOM)).all()
    assert from_text(plan.toml("described", "a comment\nover two lines")) == plan


def test_plan_file_keeps_condition_order_flags_and_choose_lists():
    plan = Plan(buy=(Rule("duke", (("princess", True), ("sp_below", 14))), Rule("city", (("offered", "library"),))),
                prefer=("twins", "laolily"), min_coins=9, min_owned=20, set_min_sp=4, first=("library",),
                keep=False, abilities=False, territories_only=True, accept_modes=False,
                gain=("senator",), lose=("curse", "farming_village"))
    text = plan.toml('quote " and backslash \\ in a description')
    assert from_text(text) == plan
    assert text.index("princess = true") < text.index("sp_below = 14")
    assert priority.parse("x.toml", text).description == 'quote " and backslash \\ in a description'


def test_recall_is_written_to_a_plan_file_only_when_on():
    plan = from_spec(priority.parse("x.toml", '[[buy]]\ncard = "city"\n'))
    assert "recall" not in plan.toml()
    on = dataclasses.replace(plan, recall=True)
    assert "recall = true" in on.toml() and from_text(on.toml()) == on
    assert "recall" in genome.FLAGS           # so `hoc tune` can turn it on


def test_thresholds_are_read_and_written_in_place_and_held_within_bounds():
    plan = from_spec(priority.parse(ARCHETYPES / "twins_extra_turns.toml"))
    values = plan.thresholds()
    assert plan.with_thresholds(values) == plan
    slots = plan.threshold_slots()
    assert slots[:3] == [("min_coins", None), ("min_owned", None), ("set_min_sp", None)]
    wild = plan.with_thresholds(np.full(len(values), 1000))
    assert all(v == BOUNDS[k][1] for v, (k, _) in zip(wild.thresholds(), slots))
    assert wild.structure() == plan.structure() and wild != plan


def test_universe_of_a_fixed_market_names_only_its_kinds_and_the_basic_and_rare_cards():
    u = Universe(SIEGE)
    assert "library" in u.buyable and "alchemist" not in u.buyable
    assert {"duke", "senator", "large_city", "imperial_crown"} <= set(u.buyable)
    assert "curse" not in u.buyable and "duke" not in u.offers
    assert set(u.playable) <= set(u.buyable) and "city" not in u.playable
    assert "alchemist" in Universe(RANDOM).buyable


# ---- structural moves -----------------------------------------------------------------------------

def assert_valid(plan: Plan, universe: Universe):
    spec = plan.spec()
    assert from_spec(spec) == plan                       # the file says exactly the plan
    row = spec.params(universe.ruleset)                  # binds to the edition's cards
    assert row.shape == (K.N_PARAMS,)
    assert 1 <= len(plan.buy) <= PK.MAX_RULES and len(plan.first) <= PK.MAX_FIRST
    assert len(plan.gain) <= PK.MAX_CHOOSE and len(plan.lose) <= PK.MAX_CHOOSE
    for rule in plan.buy:
        kinds = [k for k, _ in rule.conditions]
        assert len(kinds) == len(set(kinds)) <= PK.MAX_CONDS
    lo, hi = plan.threshold_bounds()
    assert ((plan.thresholds() >= lo) & (plan.thresholds() <= hi)).all()
    if universe.princess:
        assert plan.prefer[0] == universe.princess


@pytest.mark.parametrize("ruleset,princess", [(SIEGE, None), (RANDOM, "twins"), (Ruleset(players=3, market="basic"),
                                                                                  "laolily")])
def test_every_move_from_random_plans_gives_a_valid_agent_file(ruleset, princess):
    u = Universe(ruleset, princess)
    rng = np.random.default_rng(11)
    for _ in range(12):
        plan = ops.random_plan(u, rng)
        assert_valid(plan, u)
        for _, move in ops.MOVES:
            for _ in range(4):
                plan = ops.valid(move(plan, u, rng), u)
                assert_valid(plan, u)
        other = ops.random_plan(u, rng)
        assert_valid(ops.valid(ops.crossover(plan, other, rng), u), u)
        assert ops.mutate(plan, u, rng, 3) != plan


def test_long_random_walks_of_mutations_stay_valid_agent_files():
    u = Universe(RANDOM, "bergamot")
    rng = np.random.default_rng(5)
    plan = from_spec(priority.parse(ARCHETYPES / "bergamot_engine.toml"))
    for _ in range(300):
        plan = ops.mutate(plan, u, rng, 1 + int(rng.integers(3)))
    assert_valid(plan, u)


def test_fresh_thresholds_are_drawn_within_the_bounds_of_every_numeric_condition():
    assert set(ops.TYPICAL) == set(NUMERIC)
    for kind, (lo, hi) in ops.TYPICAL.items():
        assert BOUNDS[kind][0] <= lo <= hi <= BOUNDS[kind][1], kind


def test_moves_change_what_they_name_and_nothing_else():
    u = Universe(SIEGE)
    rng = np.random.default_rng(3)
    plan = from_spec(priority.parse(ARCHETYPES / "attack_deck.toml"))
    n = len(plan.buy)
    assert len(ops.add_rule(plan, u, rng).buy) == n + 1
    assert len(ops.drop_rule(plan, u, rng).buy) == n - 1
    moved = ops.move_rule(plan, u, rng)
    assert sorted(map(repr, moved.buy)) == sorted(map(repr, plan.buy)) and moved.buy != plan.buy
    changed = ops.change_card(plan, u, rng)
    assert [r.conditions for r in changed.buy] == [r.conditions for r in plan.buy]
    assert all(r.card in u.buyable or r.card == q.card for r, q in zip(changed.buy, plan.buy))
    more = ops.add_condition(plan, u, rng)
    assert sum(len(r.conditions) for r in more.buy) == sum(len(r.conditions) for r in plan.buy) + 1
    fewer = ops.drop_condition(plan, u, rng)
    assert sum(len(r.conditions) for r in fewer.buy) == sum(len(r.conditions) for r in plan.buy) - 1
    nudged = ops.nudge_threshold(plan, u, rng)
    assert nudged.structure() == plan.structure()
    assert np.abs(nudged.thresholds() - plan.thresholds()).sum() <= 3
    one = Plan(buy=(Rule("city"),))
    assert ops.drop_rule(one, u, rng) == one and ops.drop_condition(one, u, rng) == one
    full = Plan(buy=tuple(Rule("city") for _ in range(PK.MAX_RULES)))
    assert ops.add_rule(full, u, rng) == full


def test_a_required_princess_stays_first_through_princess_moves():
    u = Universe(RANDOM, "flammaria")
    rng = np.random.default_rng(0)
    plan = ops.valid(Plan(buy=(Rule("duke"),), prefer=("lulunasaika", "flammaria")), u)
    assert plan.prefer == ("flammaria", "lulunasaika")
    for _ in range(50):
        plan = ops.valid(ops.change_princesses(plan, u, rng), u)
        assert plan.prefer[0] == "flammaria"


# ---- the threshold optimiser ----------------------------------------------------------------------

def test_cma_proposals_keep_the_structure_and_resume_identically_from_a_pickle():
    plan = from_spec(priority.parse(ARCHETYPES / "twins_extra_turns.toml"))
    opt = Thresholds(plan, seed=4, popsize=6)
    first = opt.ask()
    assert len(first) == 6 and all(p.structure() == plan.structure() for p in first)
    assert len({p.thresholds().tobytes() for p in first}) > 1
    opt.tell(np.arange(6.0))
    copy = pickle.loads(pickle.dumps(opt))
    np.random.seed(123)                       # the optimiser draws from its own generator only
    assert opt.ask() == copy.ask()
    again = Thresholds(plan, seed=4, popsize=6)
    assert again.ask() == first


# ---- the tuner's games ----------------------------------------------------------------------------

def test_schedule_kernel_plays_the_same_games_as_the_harness(warm_kernels):
    from hoc.agents.tune.kernel import OUT_LEN, play_schedule
    from hoc.research.harness import Plan as Games, play_rows
    from hoc.research.simulate import lineup

    agents = lineup("senator_duke,attack_deck", 2)
    games = Games(SIEGE, agents, 60, seed=9, mirror=True)
    ref, _ = play_rows(games, 0, 60)
    i = np.arange(60)
    seats = np.stack([i % 2, (i + 1) % 2], axis=1).astype(K.DTYPE)
    out = np.zeros((60, OUT_LEN), K.DTYPE)
    play_schedule(np.int64(9), SIEGE.game.name, SIEGE.cards.table, SIEGE.vector, np.array([a.id for a in agents], K.DTYPE),
                  games.params, i // 2, seats, out)
    assert (out[:, 0] == ref[:, K.RES_WIN_MASK]).all()
    assert (out[:, 2] == ref[:, K.RES_SEAT]).all() and (out[:, 3] == ref[:, K.RES_SEAT + K.RES_SEAT_SZ]).all()


def test_a_win_shared_by_k_seats_counts_one_kth_for_each_of_them_and_a_loss_nothing():
    from hoc.agents.tune.evaluate import share
    mask = np.array([0b0001, 0b0101, 0b1111, 0b0000, 0b0110])
    assert share(mask, np.zeros(5, np.int64)).tolist() == [1.0, 0.5, 0.25, 0.0, 0.0]
    assert share(mask, np.full(5, 2)).tolist() == [0.0, 0.5, 0.25, 0.0, 0.5]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_candidate_equal_to_its_opponent_wins_exactly_its_share_with_seats_mirrored(players, warm_kernels):
    rs = Ruleset(players=players, market="siege")
    row = AGENTS["senator_duke"].params(rs)[None, :]
    r = race(rs, np.repeat(row, 2, axis=0), row, np.array([2]), master=5, backend=Backend(), seeds=6)
    # every seat holds the same plan, so a seed's P games are one game, won once by the candidate's seat
    assert (r.games[:, 0] == 6 * players).all()
    assert (r.wins[:, 0] * players == r.games[:, 0]).all()


def test_racing_halves_the_field_and_ranks_a_plan_that_buys_nothing_last(warm_kernels):
    buys_nothing = Plan(buy=(Rule("alchemist"),))        # a card the siege market never offers
    rows = np.stack([buys_nothing.params(SIEGE)] + [AGENTS[n].params(SIEGE) for n in
                                              ("senator_duke", "lulu_crown", "attack_deck", "basic_rush")])
    opponents = np.stack([AGENTS[n].params(SIEGE) for n in ("basic_rush", "curse_witch")])
    r = race(SIEGE, rows, opponents, np.array([2, 2]), master=1, backend=Backend(), seeds=4, keep=2)
    # rounds of 5, 3 and 2 candidates, with 4, 8 and 16 seeds per opponent, each played twice (seats swapped)
    assert r.games_played == 2 * 2 * (5 * 4 + 3 * 8 + 2 * 16)
    assert sorted(r.reached.tolist()) == [0, 0, 1, 2, 2]
    assert r.order[-1] == 0 and r.wins[0].sum() == 0
    assert list(r.order) == sorted(range(5), key=lambda k: (-r.reached[k], -r.score[k], k))


def test_races_do_not_depend_on_how_games_are_split_over_workers(warm_kernels):
    rows = np.stack([AGENTS[n].params(SIEGE) for n in ("senator_duke", "lulu_crown", "attack_deck")])
    a = race(SIEGE, rows, rows[:2], np.array([2, 2]), master=3, backend=Backend(), seeds=200)
    b = race(SIEGE, rows, rows[:2], np.array([2, 2]), master=3, backend=Backend(jobs=2), seeds=200)
    assert (a.wins == b.wins).all() and (a.games == b.games).all() and np.allclose(a.margin, b.margin)


@pytest.mark.parametrize("candidates,seeds,keep", [(5, 4, 2), (3, 8, 6), (13, 2, 4)])
def test_the_games_of_a_race_are_known_before_it_is_played(candidates, seeds, keep, warm_kernels):
    from hoc.agents.tune.evaluate import race_games

    rows = np.stack([AGENTS[n].params(SIEGE) for n in ("senator_duke", "lulu_crown", "attack_deck")])
    rows = rows[np.arange(candidates) % 3]
    r = race(SIEGE, rows, rows[:2], np.array([2, 2]), master=2, backend=Backend(), seeds=seeds, keep=keep)
    assert race_games(candidates, SIEGE.players, 2, seeds, keep) == r.games_played


def test_a_race_counted_by_a_progress_line_plays_the_same_games_in_parts(monkeypatch, warm_kernels):
    """Counted by a progress line, a schedule played in this process goes in parts (each counted as it
    ends): the same games, every one counted once."""
    from hoc.agents.tune import evaluate
    from hoc.research import progress

    rows = np.stack([AGENTS[n].params(SIEGE) for n in ("senator_duke", "lulu_crown", "attack_deck")])
    plain = race(SIEGE, rows, rows[:2], np.array([2, 2]), master=3, backend=Backend(), seeds=40)
    monkeypatch.setattr(evaluate, "METERED_TASK", 50)
    counted = []
    with progress.metered("racing", show=counted.append) as meter:
        meter.stage("race")
        parted = race(SIEGE, rows, rows[:2], np.array([2, 2]), master=3, backend=Backend(), seeds=40)
    assert len(counted) > 3 and sum(counted) == parted.games_played == plain.games_played
    assert (plain.wins == parted.wins).all() and (plain.games == parted.games).all()
    assert np.allclose(plain.margin, parted.margin)


def test_a_race_on_a_dask_cluster_equals_the_serial_race(warm_kernels):
    from dask.distributed import LocalCluster

    rows = np.stack([AGENTS[n].params(SIEGE) for n in ("senator_duke", "lulu_crown", "attack_deck")])
    serial = race(SIEGE, rows, rows[:2], np.array([2, 2]), master=8, backend=Backend(), seeds=100)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        backend = Backend(1, "dask", cluster.scheduler_address)
        try:
            spread = race(SIEGE, rows, rows[:2], np.array([2, 2]), master=8, backend=backend, seeds=100)
        finally:
            backend.close()
    assert (serial.wins == spread.wins).all() and (serial.games == spread.games).all()


# ---- the search -----------------------------------------------------------------------------------

def small(seed=2, **kw) -> Settings:
    return Settings(SIEGE, tuple(AGENTS[n] for n in ("basic_rush", "senator_duke")), seed=seed, population=8,
                    elites=3, proposals=3, first_seeds=4, playoff_seeds=20, **kw)


def test_same_seed_and_games_budget_give_the_same_plan_serially_and_with_jobs(tmp_path, warm_kernels):
    a = tune(small(), Budget(games=8000), tmp_path / "a", validate_games=20, progress=False)
    b = tune(small(), Budget(games=8000), tmp_path / "b", Backend(jobs=2), validate_games=20, progress=False)
    assert a.state.generation >= 3
    assert (tmp_path / "a" / "best.toml").read_text() == (tmp_path / "b" / "best.toml").read_text()
    assert [h["champion"] for h in a.state.history] == [h["champion"] for h in b.state.history]
    c = tune(small(seed=3), Budget(games=8000), tmp_path / "c", validate_games=20, progress=False)
    assert [h["champion"] for h in c.state.history] != [h["champion"] for h in a.state.history]


@pytest.mark.slow   # a tuning run killed and resumed beside an uninterrupted one
def test_a_killed_run_started_again_ends_with_the_plan_of_an_uninterrupted_one(tmp_path, warm_kernels):
    whole = tune(small(), Budget(games=8000), tmp_path / "whole", validate_games=20, progress=False)

    class Killed(Exception):
        pass

    def kill_after_two(state, record):
        if state.generation == 2:
            raise Killed

    with pytest.raises(Killed):
        run(small(), Budget(games=8000), tmp_path / "cut", Backend(), kill_after_two)
    resumed = tune(small(), Budget(games=8000), tmp_path / "cut", validate_games=20, progress=False)
    assert (tmp_path / "cut" / "best.toml").read_text() == (tmp_path / "whole" / "best.toml").read_text()
    def timeless(history):
        return [{k: v for k, v in h.items() if k != "seconds"} for h in history]

    assert timeless(resumed.state.history) == timeless(whole.state.history)


def test_a_run_resumed_with_other_settings_is_refused(tmp_path, warm_kernels):
    run(small(), Budget(games=1), tmp_path, Backend())
    with pytest.raises(HocError, match=r"holds a tuning run with other settings \(seed\)"):
        run(small(seed=9), Budget(games=1), tmp_path, Backend())
    (tmp_path / "checkpoint.pkl").write_bytes(b"not a pickle")
    with pytest.raises(HocError, match="cannot read the checkpoint"):
        run(small(), Budget(games=1), tmp_path, Backend())


def test_search_from_a_plan_keeps_the_required_princess_and_the_hall_of_fame_joins_the_opponents(tmp_path,
                                                                                                 warm_kernels):
    start = from_spec(priority.parse(ARCHETYPES / "senator_duke.toml"))
    settings = small(princess="laolily", start=start, hall_every=1)
    state = run(settings, Budget(games=6000), tmp_path, Backend())
    assert all(p.prefer[0] == "laolily" for p in state.elites)
    assert 1 <= len(state.hall) <= state.generation      # a new champion every generation at most
    assert any(name.startswith("hall_") for name in state.history[-1]["rates"])


def test_tune_with_the_planner_searches_its_weights_and_writes_a_planning_list(tmp_path, warm_kernels):
    """--plan: every candidate plays with the turn planner (its row is the planning agent's), the
    planner's weights are thresholds the optimiser moves, and the plan written plays as `PLANNED`."""
    from hoc.agents.ids import PLANNED
    from hoc.games.heart_of_crown.agents.priority import list_id
    from hoc.agents.registry import from_file

    settings = small(plan=True, start=from_spec(priority.parse(ARCHETYPES / "curse_witch.toml")))
    state = run(settings, Budget(games=6000), tmp_path, Backend())
    assert all(p.plan is not None for p in state.elites)
    assert all(list_id(p.params(SIEGE)) == PLANNED for p in state.elites)
    weights = {tuple(sorted(dict(p.plan).items())) for p in state.elites}
    assert len(weights) > 1 or state.generation < 2, "CMA-ES never moved the planner's weights"
    best = tune(settings, Budget(games=6000), tmp_path, validate_games=20, progress=False)
    agent = from_file(tmp_path / "best.toml")
    assert agent.id == PLANNED and "[plan]" in (tmp_path / "best.toml").read_text()
    assert best.state.identity["plan"] is True


def test_tune_with_the_second_phase_planner_searches_its_margin_and_horizon(tmp_path, warm_kernels):
    """--second: every candidate weighs its Second phase by the turn planner (`second` above 0, its
    Main phase as the start plan had it), the margin and horizon are thresholds the optimiser moves,
    and the plan written plays as `PLANNED` with its [plan] section saying so."""
    from hoc.agents.ids import PLANNED
    from hoc.games.heart_of_crown.agents.priority import list_id
    from hoc.agents.registry import from_file

    settings = small(second=True, start=from_spec(priority.parse(ARCHETYPES / "senator_duke.toml")))
    state = run(settings, Budget(games=3000), tmp_path, Backend())
    assert all(dict(p.plan)["second"] > 0 and dict(p.plan)["samples"] == 0 for p in state.elites)
    assert all(list_id(p.params(SIEGE)) == PLANNED for p in state.elites)
    assert all(("plan.horizon", None) in p.threshold_slots() for p in state.elites)
    tune(settings, Budget(games=3000), tmp_path, validate_games=20, progress=False)
    agent = from_file(tmp_path / "best.toml")
    assert agent.id == PLANNED and "second = " in (tmp_path / "best.toml").read_text()


def test_minutes_budget_stops_before_a_generation_that_would_overrun():
    state = State({}, generation=4, games=40_000, seconds=50.0)
    assert not Budget(minutes=2).spent(state, reserve_games=8_000)     # 50 + 12.5 + 10 s < 120 s
    assert Budget(minutes=1).spent(state, reserve_games=8_000)         # 50 + 12.5 + 10 s > 60 s
    assert not Budget(minutes=0.01).spent(State({}), reserve_games=0)  # the first generation always runs


# ---- the command line -----------------------------------------------------------------------------

def test_cli_tune_writes_an_agent_file_every_command_accepts(tmp_path, capsys, warm_kernels):
    out = tmp_path / "run"
    code = main(["tune", "--market", "siege", "--games", "3000", "--population", "6", "--opponents",
                 "basic_rush,senator_duke", "--validate-games", "40", "--seed", "4", "--out", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "basic_rush" in printed and "senator_duke" in printed and "games per opponent" in printed
    for name in ("best.toml", "history.jsonl", "learning_curve.png", "summary.md", "checkpoint.pkl"):
        assert (out / name).exists(), name
    summary = (out / "summary.md").read_text()
    assert "hoc tune --edition 2e --players 2 --market siege --opponents basic_rush,senator_duke --games 3000" in summary
    assert "| basic_rush | 40 |" in summary
    assert main(["simulate", "--market", "siege", "--agents", f"{out / 'best.toml'},basic_rush", "--games", "20",
                 "--rotate-seats"]) == 0
    assert "best" in capsys.readouterr().out


def exit_code(argv) -> int:
    try:
        return main(argv)
    except SystemExit as e:              # argparse's usage errors
        return e.code


@pytest.mark.parametrize("argv,named", [
    (["--market", "siege", "--out", "X"], "--games --minutes is required"),
    (["--games", "10", "--minutes", "1", "--out", "X"], "not allowed with argument"),
    (["--games", "0", "--out", "X"], "--games must be at least 1"),
    (["--minutes", "0", "--out", "X"], "--minutes must be more than 0"),
    (["--games", "10", "--players", "1", "--out", "X"], "tune plays 2 to 4 players"),
    (["--games", "10", "--market", "nowhere", "--out", "X"], "unknown market 'nowhere'"),
    (["--games", "10", "--opponents", "nobody", "--out", "X"], "unknown agent 'nobody'"),
    (["--games", "10", "--opponents", "basic_rush,basic_rush", "--out", "X"], "names an agent twice"),
    (["--games", "10", "--princess", "nobody", "--out", "X"], "--princess 'nobody' is not in the princess pool"),
    (["--games", "10", "--from", "/nonexistent/plan.toml", "--out", "X"], "cannot read agent file"),
    (["--games", "10", "--population", "3", "--out", "X"], "population must be at least"),
    (["--games", "10", "--seed", "-1", "--out", "X"], "seed must be between"),
    (["--games", "10", "--validate-games", "0", "--out", "X"], "--validate-games must be at least 1"),
    (["--games", "10", "--jobs", "0", "--out", "X"], "jobs must be at least 1"),
])
def test_cli_tune_bad_input_exits_2_with_one_line_naming_the_problem(tmp_path, capsys, argv, named):
    argv = [str(tmp_path / "out") if a == "X" else a for a in argv]
    assert exit_code(["tune"] + argv) == 2
    err = capsys.readouterr().err
    assert named in err and err.count("\n") == 1


def test_cli_tune_out_that_is_a_file_is_a_clean_error(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["tune", "--games", "10", "--opponents", "basic_rush", "--out", str(f)]) == 2
    assert "--out must name a folder" in capsys.readouterr().err


def test_only_the_tuners_game_loop_is_in_the_compiled_code_cache_key():
    """Editing the search, its moves or its output must not throw away the compiled engine."""
    from pathlib import Path

    import hoc.agents.tune as package
    from hoc._cache import _compiled

    keyed = [p.name for p in sorted(Path(package.__file__).parent.glob("*.py")) if _compiled(p)]
    assert keyed == ["kernel.py"]


def test_a_tune_under_1e_from_a_2e_plan_never_breeds_nor_keeps_a_plan_naming_a_card_1e_lacks():
    """`hoc tune --edition 1e --from <a 2E plan>`: the start plan's 2E-only cards leave it (as the agent
    file's 1E reading drops them), so no mutant, crossover or kept plan can end with every buy rule
    naming such a card (which the 1E reading refuses: the agent would never buy)."""
    first = Ruleset(players=2, edition="1e")
    u = Universe(first)
    only_2e = Plan(buy=(Rule("margrave"), Rule("ball", (("coins_at_least", 4),)),
                        Rule("duke", (("offered", "flea_market"),)), Rule("senator", (("not_offered", "lily"),))),
                   prefer=("lulunasaika",), first=("handyman", "city"), gain=("ball",), lose=("orchard", "curse"))
    ops.valid(Plan(buy=(Rule("margrave"), Rule("ball"))), u).params(first)   # the old code raised here
    start = ops.valid(only_2e, u)
    start.params(first)
    names = set(first.cards.ids)
    assert [r.card for r in start.buy] == ["senator"] and start.buy[0].conditions == ()
    assert start.first == ("city",) and start.gain == () and start.lose == ("curse",)
    general = from_spec(priority.parse(ARCHETYPES.parent / "tuned" / "tuned_general_2p.toml"))
    rng = np.random.default_rng(3)
    plans = [ops.valid(general, u)]
    for _ in range(300):
        a, b = plans[int(rng.integers(len(plans)))], plans[int(rng.integers(len(plans)))]
        child = ops.mutate(ops.crossover(a, b, rng) if rng.random() < 0.3 else a, u, rng, 1 + int(rng.integers(3)))
        child.params(first)
        assert {r.card for r in child.buy} <= names
        assert set(child.first + child.gain + child.lose + child.prefer) <= names
        plans.append(child)
