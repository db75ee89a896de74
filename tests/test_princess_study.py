"""The princess study: each seat's princess drawn independently by the game's seed and played by her
own plan; first-choice bookkeeping; the princess-against-princess matrix; the market spread with its
multiple-comparison correction; the command's output and its refusals."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chisquare

from hoc.cli import main
from hoc.games.heart_of_crown.studies import princess_study as ps
from hoc.research import stats
from hoc.research.harness import Plan
from hoc.games.heart_of_crown.rules import Ruleset

POOL = ["lulunasaika", "laolily", "klam_klam", "bergamot", "flammaria", "twins"]


@pytest.fixture(scope="module")
def two(warm_kernels):
    rs = Ruleset(players=2)
    return ps.princess_strength(rs, ps.best_plans(rs), 600, seed=3, games_per_pair=30)


@pytest.fixture(scope="module")
def three(warm_kernels):
    rs = Ruleset(players=3)
    return ps.princess_strength(rs, ps.best_plans(rs), 240, seed=4)


# ---- the draws ------------------------------------------------------------------------------------

def test_each_seat_draws_every_princess_about_one_time_in_six_independently_of_the_other_seats():
    rs = Ruleset(players=2)
    plan = Plan(rs, list(ps.best_plans(rs).values()), 6000, seed=11, draw=True)
    seats = plan.seats(0, plan.games)
    for j in range(2):
        counts = np.bincount(seats[:, j], minlength=6)
        assert chisquare(counts).pvalue > 1e-3 and (counts > 850).all()
    pairs = np.bincount(seats[:, 0] * 6 + seats[:, 1], minlength=36)     # independent: the 36 lineups alike
    assert chisquare(pairs).pvalue > 1e-3
    assert abs((seats[:, 0] == seats[:, 1]).mean() - 1 / 6) < 0.02       # the draws coincide 1 time in 6


def test_the_draws_follow_no_fixed_order_and_depend_only_on_the_game_seed():
    rs = Ruleset(players=3)
    agents = list(ps.best_plans(rs).values())
    plan = Plan(rs, agents, 600, seed=5, draw=True)
    seats = plan.seats(0, 600)
    first = seats[:, 0]
    assert not any((first[k:] == first[:-k]).all() for k in range(1, 13))     # no period: not a rotation
    assert (plan.seats(250, 100) == seats[250:350]).all()                    # whatever the chunk
    assert (Plan(rs, agents, 600, seed=5, draw=True, chunk=7).seats(0, 600) == seats).all()
    assert (Plan(rs, agents, 600, seed=6, draw=True).seats(0, 600) != seats).any()


def test_a_mirrored_draw_plays_one_lineup_in_every_seat_rotation():
    rs = Ruleset(players=3)
    plan = Plan(rs, list(ps.best_plans(rs).values()), 30, seed=2, draw=True, mirror=True)
    seats = plan.seats(0, 30)
    for g in range(0, 30, 3):
        group = seats[g:g + 3]
        assert all(sorted(group[:, j]) == sorted(group[0]) for j in range(3))
        assert [list(np.roll(group[0], -k)) for k in range(3)] == [list(r) for r in group]


def test_the_games_frame_names_the_entry_and_agent_each_seat_drew(two):
    plan = Plan(two.ruleset, list(two.plans.values()), 600, seed=3, draw=True)
    seats = plan.seats(0, 600)
    g = two.games.sort_values("game")
    for j in range(2):
        assert (g[f"entry_{j}"].to_numpy() == seats[:, j]).all()
        assert list(g[f"agent_{j}"].astype(str)) == [f"tuned_{POOL[k]}_2p" for k in seats[:, j]]


# ---- first choices and win rates ------------------------------------------------------------------

def test_a_seat_got_its_first_choice_exactly_when_it_backed_the_princess_it_drew(two):
    s = two.seats
    assert (s["got_first"] == (s["backed"] == s["first_choice"])).all()
    assert set(s["first_choice"]) == set(POOL)
    plan_of = {p: a.name for p, a in two.plans.items()}
    assert (s["agent"] == s["first_choice"].map(plan_of)).all()
    by_game = s.pivot(index="row", columns="seat", values="first_choice")
    same = by_game[0] == by_game[1]
    got = s.pivot(index="row", columns="seat", values="got_first")
    assert (got[same].sum(axis=1) <= 1).all()           # one princess for two seats that drew her: one backs her
    assert (got[~same].all(axis=1) | (s.pivot(index="row", columns="seat", values="backed") == stats.NONE)[~same].any(
        axis=1)).all()                                  # different draws: both get theirs unless a seat never backs


def test_the_first_choice_table_counts_every_seat_once_and_only_the_pool(two):
    d = two.draws.set_index("princess")
    assert list(d.index) == POOL
    assert d["drawn"].sum() == 2 * len(two.games)
    assert (d["drawn"] == d["got_first"] + d["backed_other"] + d["backed_none"]).all()
    left = ps.not_first(two.seats)
    assert left["left_out"] == (d["drawn"] - d["got_first"]).sum() > 0


def test_a_small_pool_claims_only_its_own_princesses(warm_kernels):
    rs = Ruleset(players=2, princesses=("bergamot", "twins", "laolily"))
    r = ps.princess_strength(rs, ps.best_plans(rs), 90, seed=1)
    assert list(r.draws.princess) == ["bergamot", "twins", "laolily"] and (r.draws.drawn > 0).all()
    text = "\n".join(ps.report(r))
    assert "pool of 3" in text and "33.3%" in text and "lulunasaika" not in text


def test_win_rates_count_the_seats_that_drew_and_backed_her_and_bergamot_differs_from_the_twins(two):
    t = two.strength.set_index("princess")
    clean = two.seats[two.seats.got_first]
    for p in POOL:
        mine = clean[clean.first_choice == p]
        assert t.loc[p, "seats"] == len(mine) and t.loc[p, "wins"] == mine.won.sum()
        assert t.loc[p, "lo"] <= t.loc[p, "rate"] <= t.loc[p, "hi"]
        assert t.loc[p, "plan"] == f"tuned_{p}_2p"
    assert t.loc["bergamot", "rate"] != t.loc["twins", "rate"]
    assert t.loc["bergamot", "wins"] != t.loc["twins", "wins"]


def test_the_study_is_the_same_for_a_seed_and_differs_for_another(two, warm_kernels):
    rs = two.ruleset
    again = ps.princess_strength(rs, ps.best_plans(rs), 600, seed=3)
    pd.testing.assert_frame_equal(two.seats, again.seats)
    pd.testing.assert_frame_equal(two.strength, again.strength)
    other = ps.princess_strength(rs, ps.best_plans(rs), 600, seed=4)
    assert not two.seats["first_choice"].equals(other.seats["first_choice"])


# ---- the matrix -----------------------------------------------------------------------------------

def test_x_against_y_plus_y_against_x_is_every_game_less_the_ties(two):
    m = two.matrix.set_index(["princess", "opponent"])
    assert len(m) == 30
    for pairing, g in two.pair_games.groupby("pairing", observed=True):
        x, y = pairing.split("-vs-")
        w0, w1 = stats.won(g, 0), stats.won(g, 1)
        no_winner, shared = int((~w0 & ~w1).sum()), int((w0 & w1).sum())
        assert m.loc[(x, y), "wins"] + m.loc[(y, x), "wins"] == len(g) - no_winner + shared
        assert m.loc[(x, y), "games"] == m.loc[(y, x), "games"] == 30
        assert (g.groupby(g.game // 2).seed.nunique() == 1).all()      # mirrored: each seed twice
    x_first = two.pair_games[two.pair_games.pairing == "lulunasaika-vs-laolily"]
    assert set(x_first.agent_0.astype(str)) == {"tuned_lulunasaika_2p", "tuned_laolily_2p"}


def test_at_three_players_the_matrix_reads_who_sits_at_the_table(three):
    m = three.matrix
    assert not (m.princess == m.opponent).any() and len(m) == 30
    clean = three.seats[three.seats.got_first]
    assert three.tables.seats.sum() == len(clean)
    row = m.set_index(["princess", "opponent"]).loc[("laolily", "twins")]
    mine = clean[(clean.first_choice == "laolily") & clean.others.str.contains("twins")]
    assert row["games"] == len(mine) and row["wins"] == mine.won.sum()


# ---- markets --------------------------------------------------------------------------------------

def test_market_comparisons_are_corrected_for_their_number(two):
    m = ps.market_spread(two.games, two.seats, two.pool, min_seats=10)
    assert len(m) > 50
    assert (m.p_corrected >= m.p - 1e-12).all()
    assert (m.significant == (m.p_corrected < 0.05)).all()
    assert ((m.lo <= m["diff"]) & (m["diff"] <= m.hi)).all()
    shown = ps.market_highlights(m)
    assert set(shown.index) >= set(m.index[m.significant & (m["diff"].abs() >= ps.SHOWN_MIN)])
    assert not (shown.significant & (shown["diff"].abs() < ps.SHOWN_MIN) & ~shown.index.isin(
        m.assign(size=m["diff"].abs()).sort_values("size").groupby("princess").tail(ps.TOP_KINDS).index)).any()
    assert shown.groupby("princess").size().min() >= min(ps.TOP_KINDS, m.groupby("princess").size().min())


# ---- the command ----------------------------------------------------------------------------------

def test_plans_specs_may_hold_commas_and_replace_a_princess_plan():
    rs = Ruleset(players=2)
    assert ps.parse_plans(["twins=mod:play,depth=3,bergamot=basic_rush"], rs) == {
        "twins": "mod:play,depth=3", "bergamot": "basic_rush"}
    plans = ps.best_plans(rs, {"twins": "twins_extra_turns"})
    assert plans["twins"].name == "twins_extra_turns" and plans["bergamot"].name == "tuned_bergamot_2p"


def test_under_1e_each_princess_is_played_by_her_1e_tuned_plan_and_under_2e_by_her_2e_one():
    rs1 = Ruleset(players=2, edition="1e")
    assert {p: a.name for p, a in ps.best_plans(rs1).items()} == {p: f"tuned_{p}_1e_2p" for p in POOL}
    rs2 = Ruleset(players=2)
    assert {p: a.name for p, a in ps.best_plans(rs2).items()} == {p: f"tuned_{p}_2p" for p in POOL}
    assert ps.best_plans(rs1, {"twins": "twins_1e"})["twins"].name == "twins_1e"


@pytest.mark.parametrize("players", [3, 4])
def test_under_1e_at_3_and_4_players_each_princess_is_played_by_her_plan_for_that_table_size(players):
    rs = Ruleset(players=players, edition="1e")
    assert {p: a.name for p, a in ps.best_plans(rs).items()} == {p: f"tuned_{p}_1e_{players}p" for p in POOL}


def test_a_1e_princess_without_a_plan_for_the_table_size_falls_back_to_her_1e_2_player_plan(monkeypatch):
    from hoc.agents import registry
    monkeypatch.delitem(registry.AGENTS, "tuned_bergamot_1e_3p")
    plans = ps.best_plans(Ruleset(players=3, edition="1e"))
    assert plans["bergamot"].name == "tuned_bergamot_1e_2p" and plans["twins"].name == "tuned_twins_1e_3p"


def test_under_2e_a_princess_plan_for_the_table_size_is_preferred_when_the_library_has_one(monkeypatch):
    from hoc.agents import registry
    monkeypatch.setitem(registry.AGENTS, "tuned_twins_4p", registry.AGENTS["tuned_twins_2p"])
    assert ps.default_plan(Ruleset(players=4), "twins") == "tuned_twins_4p"
    assert ps.default_plan(Ruleset(players=4), "laolily") == "tuned_laolily_2p"
    assert ps.default_plan(Ruleset(players=3), "twins") == "tuned_twins_2p"


def test_a_1e_princess_without_a_1e_plan_falls_back_to_her_2e_tuned_plan(monkeypatch):
    from hoc.agents import registry
    monkeypatch.delitem(registry.AGENTS, "tuned_bergamot_1e_2p")
    plans = ps.best_plans(Ruleset(players=2, edition="1e"))
    assert plans["bergamot"].name == "tuned_bergamot_2p" and plans["twins"].name == "tuned_twins_1e_2p"


@pytest.mark.parametrize("argv,named", [
    (["--plans", "twinz=basic_rush"], "unknown princess 'twinz'"),
    (["--plans", "bergamot=tuned_bergamot_2p,twinz=basic_rush"], "unknown princess 'twinz'"),
    (["--plans", "nobody=basic_rush"], "unknown princess 'nobody'"),
    (["--plans", "twins=nosuch_agent"], "nosuch_agent"),
    (["--plans", "twins=senator_duke"], "backs lulunasaika first, not twins"),
    (["--plans", "twins=", ], "names no agent"),
    (["--princesses", "laolily,lulunasaika", "--plans", "twins=twins_extra_turns"], "not in the princess pool"),
    (["--agents", "senator_duke"], "--plans"),
    (["--rotate-seats"], "--rotate-seats"),
    (["--games-per-pair", "-1"], "--games-per-pair"),
], ids=["typo", "later-typo", "unknown", "agent", "wrong-first", "empty", "pool", "agents", "rotate", "pairs"])
def test_bad_input_to_the_princess_command_is_one_line_and_exit_2(capsys, argv, named):
    assert main(["princesses", "--games", "10", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and named in err[0]


def test_the_command_prints_json_with_every_interval_and_plots(tmp_path, capsys, warm_kernels):
    png, out = tmp_path / "p.png", tmp_path / "p.parquet"
    assert main(["princesses", "--games", "120", "--games-per-pair", "10", "--json", "--plot", str(png),
                 "--out", str(out), "--princesses", "bergamot,twins,flammaria"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["plans"] == {p: f"tuned_{p}_2p" for p in ("bergamot", "twins", "flammaria")}
    assert {r["princess"] for r in s["princesses"]} == {"bergamot", "twins", "flammaria"}
    assert all({"rate", "lo", "hi", "vs_even_lo", "drawn_lo"} <= set(r) for r in s["princesses"])
    assert len(s["matrix"]) == 6 and all("lo" in r for r in s["matrix"]) and s["matrix_games"] == 30
    assert png.stat().st_size > 5000
    assert len(pd.read_parquet(out / "drawn.parquet")) == 120
    assert len(pd.read_parquet(out / "bergamot-vs-twins.parquet")) == 10


def test_the_command_prints_the_tables_naming_the_plans(capsys, warm_kernels):
    assert main(["princesses", "--players", "3", "--games", "60"]) == 0
    text = capsys.readouterr().out
    assert "tuned_twins_2p" in text and "an even share is 33.3%" in text
    assert "where another seat backed" in text
