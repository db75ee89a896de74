"""hoc.research.stats on hand-built games frames whose answers are known, plus one small real run."""
from __future__ import annotations

import math
import random

import numpy as np
import pandas as pd
import pytest

from hoc.research import stats as S


def frame(games: list[dict]) -> pd.DataFrame:
    """A games frame in the shape of `simulate(...).games` from short game descriptions:
    agents (by seat), win (a seat, a list of seats for a shared win, or None), and optionally
    sp, princess, backed, turns, market, end."""
    p = len(games[0]["agents"])
    rows = []
    for i, g in enumerate(games):
        win = g.get("win")
        seats = [] if win is None else [win] if isinstance(win, int) else list(win)
        mask = sum(1 << s for s in seats)
        row = {"game": i, "seed": i, "winner": seats[0] if len(seats) == 1 else -1,
               "end_reason": g.get("end", "coronation" if seats else "turn_cap"),
               "turns": g.get("turns", 40), "steps": 200, "win_mask": mask, "market": g.get("market", "")}
        for j in range(p):
            row[f"agent_{j}"] = g["agents"][j]
            row[f"sp_{j}"] = g.get("sp", [20 if j in seats else 10] * p)[j]
            row[f"princess_{j}"] = g.get("princess", [""] * p)[j]
            row[f"backed_turn_{j}"] = g.get("backed", [0] * p)[j]
            row[f"turns_{j}"] = 20
        rows.append(row)
    df = pd.DataFrame(rows)
    for c in ["end_reason", "market"] + [f"agent_{j}" for j in range(p)]:
        df[c] = df[c].astype("category")
    return df


def round_robin(results: dict[tuple[str, str], tuple[int, int]]) -> pd.DataFrame:
    """2-player games: for (a, b): (games, wins of a), half with a seated first, half second."""
    games = []
    for (a, b), (n, wins) in results.items():
        for k in range(n):
            first = k % 2 == 0
            a_wins = k < wins
            seat_a = 0 if first else 1
            games.append({"agents": [a, b] if first else [b, a], "win": seat_a if a_wins else 1 - seat_a})
    return frame(games)


# ---- wilson -------------------------------------------------------------------------------------


def test_wilson_7_of_10_matches_published_interval():
    lo, hi = S.wilson(7, 10)
    assert lo == pytest.approx(0.3968, abs=5e-5)
    assert hi == pytest.approx(0.8922, abs=5e-5)


def test_wilson_0_of_10_has_lower_bound_zero_and_upper_0_2775():
    lo, hi = S.wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12)
    assert hi == pytest.approx(0.2775, abs=5e-5)


def test_wilson_of_no_games_is_nan():
    lo, hi = S.wilson(0, 0)
    assert math.isnan(lo) and math.isnan(hi)


def test_wilson_rejects_more_wins_than_games():
    with pytest.raises(ValueError):
        S.wilson(11, 10)


def test_a_score_interval_stays_inside_0_1_at_small_n_where_a_t_interval_left_it():
    assert S.share_interval(7, 10) == pytest.approx(S.wilson(7, 10))     # 70.0% [39.7, 89.2], not [35.4, 104.6]
    for n in (1, 2, 3, 5, 10):
        for total in np.linspace(0, n, 2 * n + 1):                     # shares of 1/2 too
            lo, hi = S.share_interval(total, n)
            assert 0.0 <= lo <= total / n <= hi <= 1.0
    lo, hi = S.share_interval(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=5e-5)
    with pytest.raises(ValueError):
        S.share_interval(10.5, 10)


def test_a_paired_units_interval_is_clipped_to_0_1():
    m, lo, hi = S.unit_interval([1.0, 1.0, 0.5, 1.0])
    assert m == 0.875 and 0.0 <= lo < m < hi == 1.0
    m, lo, hi = S.unit_interval([0.0, 0.0, 0.5])
    assert lo == 0.0 and hi < 1.0
    assert math.isnan(S.unit_interval([0.5])[1])


def test_every_rate_and_score_interval_of_a_small_simulate_is_inside_0_1():
    import hoc

    summary = hoc.simulate(["basic_rush", "senator_duke"], games=6, market="basic", seed=2).summary
    checked = 0
    for key, rows in summary.items():
        if key.startswith(("win_rate", "score_by")) and isinstance(rows, list):
            for r in rows:
                if r["games"]:
                    assert 0.0 <= r["lo"] <= r["hi"] <= 1.0, (key, r)
                    checked += 1
    assert checked >= 4


# ---- win rates ----------------------------------------------------------------------------------


def test_win_rates_by_agent_counts_each_seat_played():
    df = frame([{"agents": ["A", "B"], "win": 0}, {"agents": ["B", "A"], "win": 1},
                {"agents": ["A", "B"], "win": 1}, {"agents": ["B", "A"], "win": 1}])
    t = S.win_rates(df, "agent").set_index("agent")
    assert list(t.index) == ["A", "B"]               # best first
    assert (t.loc["A", "wins"], t.loc["A", "games"]) == (3, 4)
    assert (t.loc["B", "wins"], t.loc["B", "games"]) == (1, 4)
    assert t.loc["A", "rate"] == 0.75
    assert (t.loc["A", "lo"], t.loc["A", "hi"]) == pytest.approx(S.wilson(3, 4))


def test_win_rates_by_seat_in_seat_order_for_four_players():
    df = frame([{"agents": list("ABCD"), "win": w} for w in [3, 3, 0, 2, 3]])
    t = S.win_rates(df, "seat")
    assert list(t["seat"]) == [0, 1, 2, 3]
    assert list(t["wins"]) == [1, 0, 1, 3]
    assert list(t["games"]) == [5] * 4


def test_win_rates_count_a_shared_win_for_every_sharing_seat_and_a_draw_for_none():
    df = frame([{"agents": list("ABC"), "win": [0, 1]},   # shared by A and B
                {"agents": list("ABC"), "win": None},     # no winner
                {"agents": list("ABC"), "win": 2}])
    t = S.win_rates(df, "agent").set_index("agent")
    assert dict(t["wins"]) == {"A": 1, "B": 1, "C": 1}
    assert dict(t["games"]) == {"A": 3, "B": 3, "C": 3}


def test_win_rates_by_princess_labels_never_backed_seats_none():
    df = frame([{"agents": ["A", "B"], "win": 0, "princess": ["laolily", ""]},
                {"agents": ["A", "B"], "win": 1, "princess": ["laolily", "twins"]}])
    t = S.win_rates(df, "princess").set_index("princess")
    assert dict(t["wins"]) == {"laolily": 1, "twins": 1, "none": 0}
    assert dict(t["games"]) == {"laolily": 2, "twins": 1, "none": 1}


def test_win_rates_rejects_unknown_grouping():
    with pytest.raises(ValueError, match="by must be"):
        S.win_rates(frame([{"agents": ["A", "B"], "win": 0}]), "market")


def test_win_rates_do_not_modify_the_games_frame():
    df = frame([{"agents": ["A", "B"], "win": 0}])
    before = df.copy()
    S.win_rates(df, "agent")
    S.princess_table(df)
    pd.testing.assert_frame_equal(df, before)


# ---- pairwise -----------------------------------------------------------------------------------

RR = {("A", "B"): (10, 8), ("A", "C"): (10, 9), ("B", "C"): (10, 6)}


def test_pairwise_three_agent_round_robin_rates():
    p = S.pairwise(round_robin(RR))
    long = p.long.set_index(["agent", "opponent"])
    assert long.loc[("A", "B"), "rate"] == 0.8
    assert long.loc[("B", "A"), "rate"] == pytest.approx(0.2)
    assert long.loc[("A", "C"), "rate"] == 0.9
    assert long.loc[("C", "B"), "rate"] == pytest.approx(0.4)
    assert (long.loc[("B", "C"), "lo"], long.loc[("B", "C"), "hi"]) == pytest.approx(S.wilson(6, 10))
    assert set(long["games"]) == {10}


def test_pairwise_pools_both_seatings_of_a_pair():
    p = S.pairwise(round_robin(RR))
    long = p.long.set_index(["agent", "opponent"])
    assert set(long["first"]) == {5}       # each agent sat first in 5 of its 10 games per pair
    for a, b in RR:
        assert long.loc[(a, b), "wins"] == long.loc[(b, a), "losses"]
        assert long.loc[(a, b), "rate"] + long.loc[(b, a), "rate"] == pytest.approx(1.0)


def test_pairwise_wide_orders_agents_best_first_with_nan_diagonal():
    p = S.pairwise(round_robin(RR))
    assert p.agents == ["A", "B", "C"]
    assert p.wide.loc["A", "B"] == 0.8 and p.wide.loc["C", "A"] == pytest.approx(0.1)
    assert np.isnan(np.diag(p.wide.to_numpy())).all()
    assert p.matrix("games").loc["B", "C"] == 10


def test_pairwise_leaves_out_self_play_and_counts_draws():
    games = [{"agents": ["A", "A"], "win": 0}, {"agents": ["A", "B"], "win": None}, {"agents": ["B", "A"], "win": 0}]
    long = S.pairwise(frame(games)).long.set_index(["agent", "opponent"])
    assert len(long) == 2
    assert long.loc[("A", "B")][["wins", "losses", "draws", "games"]].tolist() == [0, 1, 1, 2]


def test_pairwise_refuses_three_player_games():
    with pytest.raises(ValueError, match="2-player"):
        S.pairwise(frame([{"agents": list("ABC"), "win": 0}]))


# ---- ratings ------------------------------------------------------------------------------------


def test_game_ranks_winner_first_then_by_sp_with_ties_equal():
    assert S.game_ranks(0b0001, [20, 15, 18, 15]) == [0, 2, 1, 2]
    assert S.game_ranks(0b0100, [25, 15, 20, 15]) == [1, 2, 0, 2]   # the winner need not have most SP


def test_game_ranks_shared_win_and_no_winner():
    assert S.game_ranks(0b011, [20, 20, 12]) == [0, 0, 1]
    assert S.game_ranks(0, [10, 14, 10]) == [1, 0, 1]


def test_ratings_rank_a_dominant_agent_first():
    rng = random.Random(3)
    games = []
    for _ in range(60):
        order = rng.sample(["A", "B", "C"], 2)
        win = order.index("A") if "A" in order else rng.randrange(2)
        games.append({"agents": order, "win": win})
    t = S.ratings(frame(games))
    assert t["agent"].iloc[0] == "A"
    assert list(t.columns) == ["agent", "mu", "sigma", "ordinal", "games"]
    assert t["ordinal"].is_monotonic_decreasing
    assert t["ordinal"].tolist() == pytest.approx((t["mu"] - 3 * t["sigma"]).tolist())


def test_ratings_order_four_players_by_finishing_sp():
    games = [{"agents": rot, "win": rot.index("A"), "sp": [{"A": 22, "B": 18, "C": 12, "D": 6}[a] for a in rot]}
             for k in range(12) for rot in [list("ABCD")[k % 4:] + list("ABCD")[:k % 4]]]
    t = S.ratings(frame(games))
    assert t["agent"].tolist() == ["A", "B", "C", "D"]
    assert set(t["games"]) == {12}


def test_ratings_are_computed_in_game_order_whatever_the_row_order():
    games = [{"agents": ["A", "B"], "win": k % 3 == 0} for k in range(30)]
    df = frame([{**g, "win": int(g["win"])} for g in games])
    shuffled = df.sample(frac=1, random_state=1)
    pd.testing.assert_frame_equal(S.ratings(df), S.ratings(shuffled))


def test_ratings_skip_games_with_one_agent_in_every_seat():
    df = frame([{"agents": ["A", "A"], "win": 0}, {"agents": ["A", "B"], "win": 0}])
    t = S.ratings(df).set_index("agent")
    assert t.loc["A", "games"] == 1 and t.loc["B", "games"] == 1
    assert t.loc["A", "mu"] > 25 > t.loc["B", "mu"]


# ---- sprt ---------------------------------------------------------------------------------------


def first_decision(outcomes, **kw):
    w = n = 0
    for k, x in enumerate(outcomes, 1):
        w += x
        n += 1
        r = S.sprt(w, n - w, **kw)
        if r.decision != "continue":
            return r.decision, k
    return "continue", len(outcomes)


def test_sprt_log_likelihood_ratio_and_bounds_by_hand():
    r = S.sprt(60, 40)
    assert r.llr == pytest.approx(60 * math.log(1.1) + 40 * math.log(0.9))
    assert r.upper == pytest.approx(math.log(19)) and r.lower == pytest.approx(-math.log(19))
    assert r.decision == "continue"


def test_sprt_accepts_h1_on_a_clearly_biased_sequence():
    rng = random.Random(0)
    decision, _ = first_decision([rng.random() < 0.7 for _ in range(2000)])
    assert decision == "accept_h1"


def test_sprt_does_not_accept_h1_on_a_fair_sequence():
    rng = random.Random(0)
    decision, _ = first_decision([rng.random() < 0.5 for _ in range(5000)])
    assert decision == "accept_h0"


def test_sprt_rejects_equal_hypotheses_and_bad_error_rates():
    with pytest.raises(ValueError):
        S.sprt(5, 5, p0=0.5, p1=0.5)
    with pytest.raises(ValueError):
        S.sprt(5, 5, alpha=0.0)


# ---- first player -------------------------------------------------------------------------------


def test_first_player_advantage_against_one_third_for_three_players():
    df = frame([{"agents": list("ABC"), "win": 0 if k < 60 else 1 + k % 2} for k in range(100)])
    f = S.first_player_advantage(df)
    assert (f.players, f.wins, f.games) == (3, 60, 100)
    assert f.rate == 0.6 and f.expected == pytest.approx(1 / 3)
    assert f.excess == pytest.approx(0.6 - 1 / 3)
    assert (f.lo, f.hi) == pytest.approx(S.wilson(60, 100))
    assert f.p_value < 1e-6


def test_first_player_advantage_of_a_fair_two_player_run_is_not_significant():
    f = S.first_player_advantage(frame([{"agents": ["A", "B"], "win": k % 2} for k in range(100)]))
    assert f.rate == 0.5 and f.p_value == pytest.approx(1.0)


# ---- princesses ---------------------------------------------------------------------------------


def test_princess_table_win_rate_share_and_backing_turns():
    df = frame([
        {"agents": ["A", "B"], "win": 0, "princess": ["laolily", "twins"], "backed": [2, 5]},
        {"agents": ["A", "B"], "win": 0, "princess": ["twins", "laolily"], "backed": [3, 4]},
        {"agents": ["A", "B"], "win": 0, "princess": ["laolily", ""], "backed": [9, 0]},
    ])
    t = S.princess_table(df).set_index("princess")
    assert list(t.index) == ["laolily", "twins", "none"]   # by rate, 'none' last
    lily = t.loc["laolily"]
    assert (lily["backed"], lily["wins"]) == (3, 2)
    assert lily["rate"] == pytest.approx(2 / 3)
    assert (lily["lo"], lily["hi"]) == pytest.approx(S.wilson(2, 3))
    assert (lily["mean_turn"], lily["median_turn"]) == (5.0, 4.0)
    assert lily["seat_share"] == pytest.approx(3 / 6) and lily["game_share"] == 1.0
    assert t.loc["twins", "game_share"] == pytest.approx(2 / 3)
    assert t.loc["none", "backed"] == 1 and np.isnan(t.loc["none", "mean_turn"])


# ---- market cards -------------------------------------------------------------------------------


def test_card_effects_first_player_rate_and_length_with_and_without_a_kind():
    games = ([{"agents": ["A", "B"], "win": 0, "market": "bank,city", "turns": 30 + k % 2} for k in range(20)]
             + [{"agents": ["A", "B"], "win": k % 2, "market": "city,scout", "turns": 40 + k % 2} for k in range(40)])
    t = S.card_effects(frame(games)).set_index("kind")
    assert list(t.index) == ["bank", "city", "scout"]
    bank = t.loc["bank"]
    assert (bank["games_with"], bank["games_without"]) == (20, 40)
    assert bank["first_with"] == 1.0 and bank["first_without"] == 0.5 and bank["first_diff"] == 0.5
    assert (bank["first_with_lo"], bank["first_with_hi"]) == pytest.approx(S.wilson(20, 20))
    assert bank["first_diff_lo"] < 0.5 < bank["first_diff_hi"] and bank["first_diff_lo"] > 0
    assert bank["turns_diff"] == pytest.approx(-10.0)
    assert bank["turns_diff_lo"] < -10 < bank["turns_diff_hi"] < 0
    city = t.loc["city"]                       # offered in every game: nothing to compare against
    assert city["games_without"] == 0 and np.isnan(city["first_diff_lo"]) and np.isnan(city["turns_without"])


def test_card_effects_newcombe_interval_matches_statsmodels():
    from statsmodels.stats.proportion import confint_proportions_2indep

    games = ([{"agents": ["A", "B"], "win": int(k >= 7), "market": "bank"} for k in range(10)]
             + [{"agents": ["A", "B"], "win": int(k >= 3), "market": "scout"} for k in range(10)])
    t = S.card_effects(frame(games), ["bank"]).set_index("kind")
    assert t.loc["bank", "first_diff"] == pytest.approx(0.4)
    lo, hi = confint_proportions_2indep(7, 10, 3, 10, method="newcomb")
    assert (t.loc["bank", "first_diff_lo"], t.loc["bank", "first_diff_hi"]) == pytest.approx((lo, hi))


# ---- a real run ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_games():
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.research.simulate import lineup, simulate

    return simulate(Ruleset(players=2), lineup("senator_duke,curse_witch", 2), 300, seed=5, rotate=True).games


def test_real_run_output_is_accepted_by_every_function(real_games):
    df = real_games
    n = len(df)
    single = (df["winner"] >= 0).to_numpy()
    for by in ("agent", "seat", "princess"):
        t = S.win_rates(df, by)
        assert t["games"].sum() == 2 * n and t["wins"].sum() == int(single.sum())
        assert ((t["lo"] <= t["rate"]) & (t["rate"] <= t["hi"])).all()
    p = S.pairwise(df)
    assert p.agents and set(p.agents) == {"senator_duke", "curse_witch"}
    assert set(p.long["games"]) == {n}
    r = S.ratings(df)
    assert set(r["agent"]) == {"senator_duke", "curse_witch"} and set(r["games"]) == {n}
    f = S.first_player_advantage(df)
    assert f.games == n and f.lo <= f.rate <= f.hi
    pt = S.princess_table(df)
    assert pt["backed"].sum() == 2 * n
    backed = pt[pt["princess"] != "none"]
    assert (backed["mean_turn"] >= 1).all()
    ce = S.card_effects(df)
    assert len(ce) == len(S.market_kinds(df)) > 10
    assert (ce["games_with"] + ce["games_without"] == n).all()


def test_a_quantile_interval_is_the_order_statistics_bounding_the_binomials_middle_95_percent():
    q, lo, hi = S.quantile_interval({v: 1 for v in range(1, 101)}, 0.5)
    assert (q, lo, hi) == (50, 40, 61)                      # the textbook ranks for the median of 100
    q, lo, hi = S.quantile_interval({20: 3}, 0.9)
    assert q == lo == hi == 20
    assert all(math.isnan(x) for x in S.quantile_interval({}, 0.5))


def test_a_solo_run_reads_in_turns_to_coronation_with_percentiles_not_as_a_win_rate(capsys):
    import json

    from hoc.cli import main

    argv = ["simulate", "--players", "1", "--agents", "senator_duke", "--market", "basic", "--games", "40"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "1 player," in text and "1 players" not in text and "win rate" not in text
    assert "turns to coronation: mean" in text and "turns to coronation by percentile (95% interval): 10% " in text
    assert main([*argv, "--json"]) == 0
    solo = json.loads(capsys.readouterr().out)["solo"]
    assert solo["end"] == "coronation" and solo["ended"]["games"] == 40
    assert [p["percentile"] for p in solo["percentiles"]] == [10, 25, 50, 75, 90]
    turns = [p["turns"] for p in solo["percentiles"]]
    assert turns == sorted(turns) and all(p["lo"] <= p["turns"] <= p["hi"] for p in solo["percentiles"])
