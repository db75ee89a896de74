"""The meta-game (`hoc meta`, hoc/research/meta.py): equilibria of hand-built matrices with known
answers, α-Rank against OpenSpiel's and on known cases, the command end to end at a tiny size."""
from __future__ import annotations

import itertools
import json

import numpy as np
import pandas as pd
import pytest

from hoc.cli import main
from hoc.research import meta

BASIC = ["--market", "basic"]
TINY = ["--agents", "basic_rush,senator_duke,court_politics", "--games-per-pairing", "8", "--bootstrap", "20"]


def two_player(agents: list[str], rate: np.ndarray, games: int = 10_000) -> meta.Results:
    """A results table whose pairings have the given win rates (rate[i, j] + rate[j, i] = 1)."""
    rows = []
    for i, j in itertools.combinations(range(len(agents)), 2):
        wins = round(rate[i, j] * games)
        key = f"{agents[i]}+{agents[j]}"
        rows += [{"lineup": key, "agent": agents[i], "count": 1, "seats": games, "wins": wins, "games": games},
                 {"lineup": key, "agent": agents[j], "count": 1, "seats": games, "wins": games - wins, "games": games}]
    return meta.Results(2, agents, pd.DataFrame(rows, columns=meta.COLUMNS))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- Nash equilibrium of the 2-player game --------------------------------------------------------

def test_rock_paper_scissors_plans_have_the_uniform_mixture_as_equilibrium():
    rps = np.array([[0.5, 0.3, 0.7], [0.7, 0.5, 0.3], [0.3, 0.7, 0.5]])   # rock beats scissors, ...
    m = meta.analyse(two_player(["rock", "paper", "scissors"], rps), reps=50)
    assert np.allclose(m.nash.mixture, 1 / 3, atol=1e-3)
    assert sorted(m.nash.support) == ["paper", "rock", "scissors"] and m.nash.dominant is None
    assert m.nash.value == pytest.approx(0.5) and m.nash.worst == pytest.approx(0.5, abs=1e-3)
    # a cycle has no plan α-Rank prefers either
    assert np.allclose(m.alpharank.mass, 1 / 3, atol=1e-3)
    assert "the equilibrium mixes" in meta.verdict(m)
    assert meta.cycles(m.matrix) == (1, [("rock", "scissors", "paper")])


def test_a_plan_beating_every_other_is_dominant_and_the_equilibrium_is_pure():
    rate = np.array([[0.5, 0.6, 0.7], [0.4, 0.5, 0.6], [0.3, 0.4, 0.5]])
    m = meta.analyse(two_player(["strong", "middle", "weak"], rate), reps=50)
    assert m.nash.support == ["strong"] and m.nash.pure and m.nash.dominant == "strong"
    assert m.alpharank.table().iloc[0].agent == "strong" and m.alpharank.mass[0] > 0.99
    stab = m.stability.set_index("agent")
    assert stab.at["strong", "in_support"] == 1.0 and stab.at["strong", "ranked_first"] == 1.0
    assert meta.verdict(m).startswith("strong is dominant")
    assert meta.cycles(m.matrix) == (0, [])


def test_a_best_plan_whose_interval_reaches_half_is_not_called_dominant():
    rate = np.array([[0.5, 0.51, 0.7], [0.49, 0.5, 0.6], [0.3, 0.4, 0.5]])
    m = meta.analyse(two_player(["strong", "close", "weak"], rate, games=400), reps=100)
    assert m.nash.dominant is None and m.nash.support == ["strong"]
    # 51% of 400 games is noise: the bootstrap often puts the close plan in the support
    assert m.stability.set_index("agent").at["close", "in_support"] > 0.1


def test_a_mixed_equilibrium_of_a_hand_solved_game():
    # rock-paper-scissors where rock's win over scissors pays double: the equilibrium solves x A = 1/2
    a, b, c = 0.5 + 0.4, 0.5 + 0.2, 0.5 + 0.2   # rock beats scissors by 0.4, paper rock, scissors paper by 0.2
    rate = np.array([[0.5, 1 - b, a], [b, 0.5, 1 - c], [1 - a, c, 0.5]])
    m = meta.analyse(two_player(["rock", "paper", "scissors"], rate, games=100_000), reps=0)
    x = m.nash.mixture
    # each plan scores exactly 1/2 against the equilibrium mixture
    assert np.allclose(x @ m.matrix.payoff, 0.5, atol=1e-3)
    assert np.allclose(x, [0.25, 0.5, 0.25], atol=2e-3)


# ---- α-Rank -----------------------------------------------------------------------------------------

def test_the_players_generalisation_of_alpharank_is_openspiels_at_two_players():
    """The single-population model written for 3-4 players gives OpenSpiel's masses at 2 players, on a
    game that is not constant-sum (so OpenSpiel takes its general, not its closed-form, branch)."""
    from open_spiel.python.egt import alpharank

    rng = np.random.default_rng(3)
    payoff = rng.uniform(0, 1, (4, 4))
    agents = list("abcd")
    hpt = {tuple(sorted((agents[i], agents[j]))): {agents[i]: payoff[i, j], agents[j]: payoff[j, i]}
           for i, j in itertools.combinations_with_replacement(range(4), 2)}
    for alpha in (0.5, 5.0, 50.0):
        ours = meta.alpharank_table(hpt, agents, 2, alpha=alpha).mass
        with np.errstate(over="ignore"):      # OpenSpiel's product of exponentials overflows to inf: rho 0
            theirs = alpharank.compute([payoff], m=meta.POPULATION, alpha=alpha, use_local_selection_model=False)[2]
        assert np.allclose(ours, np.real(theirs), atol=1e-9)


def test_alpharank_at_three_players_puts_the_mass_on_a_plan_that_wins_every_lineup():
    agents = ["winner", "b", "c"]
    hpt = {}
    for lineup in itertools.combinations_with_replacement(agents, 3):
        # the winner's seats share the wins; without it, the seats are even
        if "winner" in lineup:
            share = 1 / lineup.count("winner")
            hpt[tuple(sorted(lineup))] = {a: (share if a == "winner" else 0.0) for a in set(lineup)}
        else:
            hpt[tuple(sorted(lineup))] = {a: 1 / 3 for a in set(lineup)}
    ar = meta.alpharank_table(hpt, agents, 3)
    assert ar.table().iloc[0].agent == "winner" and ar.mass[0] > 0.99 and ar.swept


def test_alpharank_at_three_players_reads_the_lineups_with_several_newcomers():
    """A lone 'rare' seat beats two 'common' seats in both games below; whether rare takes over the
    population depends on how two rare seats fare against one common seat, a lineup a two-player
    reduction would never look at."""
    agents = ["common", "rare"]
    alone = {("common",) * 3: {"common": 1 / 3}, ("rare",) * 3: {"rare": 1 / 3},
             ("common", "common", "rare"): {"common": 0.2, "rare": 0.6}}
    crowded = meta.alpharank_table(alone | {("common", "rare", "rare"): {"common": 0.8, "rare": 0.1}}, agents, 3,
                                   alpha=5.0)
    spreading = meta.alpharank_table(alone | {("common", "rare", "rare"): {"common": 0.1, "rare": 0.45}}, agents, 3,
                                     alpha=5.0)
    assert crowded.mass[0] > 0.9
    assert spreading.mass[1] > 0.9


# ---- the command line ---------------------------------------------------------------------------------

def test_hoc_meta_prints_the_matrix_the_equilibrium_and_alpharank(capsys, tmp_path, warm_kernels):
    plot = tmp_path / "meta.png"
    code, out, err = run(capsys, "meta", *TINY, "--plot", str(plot))
    assert code == 0, err
    assert "head to head" in out and "Nash equilibrium" in out and "α-Rank" in out and "answer:" in out
    assert "reproduce: hoc meta" in out
    # the support is printed with its probabilities, and they add up to 100%
    nash = out.split("Nash equilibrium", 1)[1].split("dominant strategy", 1)[0].splitlines()[1:]
    shares = [float(line.split()[1].rstrip("%")) for line in nash if "bootstrap" in line and "outside" not in line]
    assert shares and sum(shares) == pytest.approx(100, abs=0.2)
    assert plot.exists() and plot.stat().st_size > 10_000


def test_hoc_meta_json_has_the_support_probabilities_and_masses(capsys, warm_kernels):
    code, out, err = run(capsys, "meta", *TINY, "--json")
    assert code == 0, err
    d = json.loads(out)
    for key in ("command", "players", "market", "agents", "games", "games_per_lineup", "seats", "matrix", "nash",
                "alpharank", "verdict"):
        assert key in d, key
    assert d["games"] == 3 * 8 and len(d["matrix"]) == 6
    assert set(d["nash"]["support"]) <= set(d["agents"])
    assert sum(d["nash"]["probabilities"].values()) == pytest.approx(1)
    assert all(d["nash"]["probabilities"][a] > 0 for a in d["nash"]["support"])
    assert d["alpharank"]["alpha"] > 0 and sum(r["mass"] for r in d["alpharank"]["ranking"]) == pytest.approx(1)
    assert {"in_support", "p_lo", "p_hi", "mass_lo", "mass_hi"} <= set(d["nash"]["bootstrap"]["agents"][0])
    for row in d["matrix"]:
        assert row["lo"] <= row["rate"] <= row["hi"]


def test_hoc_meta_is_determined_by_its_seed(capsys, warm_kernels):
    first = json.loads(run(capsys, "meta", *TINY, "--json", "--seed", "5")[1])
    again = json.loads(run(capsys, "meta", *TINY, "--json", "--seed", "5")[1])
    other = json.loads(run(capsys, "meta", *TINY, "--json", "--seed", "6")[1])
    assert first == again
    assert first["matrix"] != other["matrix"]


def test_hoc_meta_at_three_players_ranks_by_alpharank_and_plots(capsys, tmp_path, warm_kernels):
    plot = tmp_path / "meta3.png"
    code, out, err = run(capsys, "meta", "--players", "3", *TINY, "--json", "--plot", str(plot))
    assert code == 0, err
    d = json.loads(out)
    assert "nash" not in d and d["players"] == 3
    # every multiset of 3 of the 3 plans but the 3 one-plan lineups: 10 - 3
    assert d["games"] == 7 * 9 and d["games_per_lineup"] == 9     # 8 rounded up to a multiple of 3 seats
    assert sum(r["mass"] for r in d["alpharank"]["ranking"]) == pytest.approx(1)
    assert plot.exists()


def test_a_saved_matrix_gives_the_same_analysis_without_playing(capsys, tmp_path, warm_kernels):
    saved = tmp_path / "m.csv"
    played = json.loads(run(capsys, "meta", *TINY, "--json", "--save-matrix", str(saved))[1])
    again = json.loads(run(capsys, "meta", "--matrix", str(saved), "--bootstrap", "20", "--json")[1])
    assert again["matrix"] == played["matrix"] and again["nash"] == played["nash"]
    assert again["alpharank"] == played["alpharank"]


@pytest.mark.parametrize("argv,named", [
    (["--agents", "basic_rush,nosuch_agent", *BASIC], "nosuch_agent"),
    (["--agents", "basic_rush", *BASIC], "at least 2 agents"),
    (["--agents", "basic_rush,basic_rush", *BASIC], "named twice"),
    (["--players", "5", "--agents", "basic_rush,senator_duke", *BASIC], "2 to 4"),
    (["--agents", "basic_rush,senator_duke", "--market", "nosuch_preset"], "nosuch_preset"),
    (["--agents", "basic_rush,senator_duke", *BASIC, "--games-per-pairing", "0"], "games-per-pairing"),
    (["--agents", "basic_rush,senator_duke", *BASIC, "--bootstrap", "-1"], "--bootstrap"),
    (["--agents", "basic_rush,senator_duke", *BASIC, "--alpha", "0"], "--alpha"),
    (["--agents", "basic_rush,senator_duke", *BASIC, "--plot", "x.jpg"], ".png"),
    (["--agents", "basic_rush,senator_duke", *BASIC, "--save-matrix", "x.txt"], ".csv"),
    (["--matrix", "/nonexistent/m.csv"], "no such file"),
    (["--matrix", "m.csv", "--players", "3"], "--players cannot apply"),
    (["--matrix", "m.csv", "--market", "basic", "--games-per-pairing", "9"], "--market, --games-per-pairing"),
])
def test_hoc_meta_bad_input_exits_2_with_one_line(capsys, argv, named):
    code, out, err = run(capsys, "meta", *argv)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith("hoc: error: ") and named in lines[0]


def test_a_matrix_file_that_is_not_a_saved_matrix_is_refused(capsys, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    code, out, err = run(capsys, "meta", "--matrix", str(bad))
    assert code == 2 and "missing columns" in err and len(err.strip().splitlines()) == 1


def test_the_sub_game_of_a_saved_matrix_keeps_only_its_agents_pairings(capsys, tmp_path, warm_kernels):
    saved = tmp_path / "m.csv"
    full = json.loads(run(capsys, "meta", *TINY, "--json", "--save-matrix", str(saved))[1])
    code, out, err = run(capsys, "meta", "--matrix", str(saved), "--agents", "senator_duke,court_politics", "--json")
    assert code == 0, err
    sub = json.loads(out)
    assert sub["agents"] == ["senator_duke", "court_politics"] and sub["market"] == "random"
    assert sub["matrix"] == [r for r in full["matrix"] if {r["agent"], r["opponent"]} == {"senator_duke",
                                                                                       "court_politics"}]
    line = run(capsys, "meta", "--matrix", str(saved), "--agents", "senator_duke,nosuch")[2]
    assert "nosuch not in the saved matrix" in line


def test_the_equilibrium_of_thirty_plans_leaves_no_plan_a_winning_reply():
    """nashpy's linear program at the size of a real population (30 plans, a random tournament):
    no plan scores above 1/2 against the equilibrium mixture."""
    rng = np.random.default_rng(11)
    k = 30
    rate = np.full((k, k), 0.5)
    upper = np.triu_indices(k, 1)
    rate[upper] = rng.uniform(0.2, 0.8, len(upper[0]))
    rate.T[upper] = 1 - rate[upper]
    m = meta.analyse(two_player([f"plan{i}" for i in range(k)], rate, games=1_000_000), reps=0)
    assert (m.nash.mixture @ m.matrix.payoff).min() >= 0.5 - 1e-4
    assert m.nash.mixture.sum() == pytest.approx(1) and 1 < len(m.nash.support) < k


def test_the_default_population_takes_the_1e_library_under_1e_only():
    from hoc.games.heart_of_crown.rules import Ruleset as Rules
    from hoc.games.heart_of_crown.studies.card_value import what_if_agents
    from hoc.research.meta import population

    second = {a.name for a in population(Rules(edition="2e"))}
    first = {a.name for a in population(Rules(edition="1e"))}
    assert not any("_1e_" in n for n in second) and "tuned_laolily_2p" in second
    assert "tuned_laolily_1e_2p" in first
    assert not any("_1e_" in a.name for a in what_if_agents(2, "2e"))
    assert any("_1e_" in a.name for a in what_if_agents(2, "1e"))


def test_alpharank_and_nash_tables_order_plans_by_mass_then_strength_not_by_name():
    from hoc.research.meta import AlphaRank, Nash

    agents = ["a_weak", "b_strong", "c_top", "d_mid"]
    strength = {"a_weak": 0.30, "b_strong": 0.62, "c_top": 0.70, "d_mid": 0.45}
    ar = AlphaRank(agents, np.array([3e-15, 0.0, 1.0 - 4e-15, 1e-15]), 1.0, 50, "test", strength=strength)
    assert list(ar.table()["agent"]) == ["c_top", "b_strong", "d_mid", "a_weak"]     # zero masses: strongest first
    assert list(ar.table()["rank"]) == [1, 2, 3, 4]
    nash = Nash(agents, np.array([0.25, 0.25, 0.5, 0.0]), 0.5, 0.5, None, strength=strength)
    assert nash.support == ["c_top", "b_strong", "a_weak"]                           # equal weights: strongest first
    assert list(AlphaRank(agents, np.array([0.0, 0.0, 1.0, 0.0]), 1.0, 50, "test").table()["agent"])[1:] == \
        ["a_weak", "b_strong", "d_mid"]                                                # no strengths: by name
