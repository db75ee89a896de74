"""Cross-check the engine against the independent plain-Python reference implementation in
`tests/reference/basic_rush_reference.py` (basic market, pool Lulunasaika, Laolily, Klam Klam,
basic_rush in every seat). The two use different random streams, so they can only agree in
distribution: seat-1 win rate (two-proportion z-test), the share of each end reason (two-proportion
z-tests) and the mean game length (Welch t-test) must agree at a strict level (p > 0.001).
"""
from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.simulate import lineup, simulate

ALPHA = 0.001
POOL = ("lulunasaika", "laolily", "klam_klam")
GAMES = {1: 3000, 2: 4000, 3: 4000}          # reference games per player count
ENGINE_GAMES = 20_000                        # the engine is cheap: a larger sample narrows the test


def _load_reference():
    path = Path(__file__).parent / "reference" / "basic_rush_reference.py"
    spec = importlib.util.spec_from_file_location("basic_rush_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REF = _load_reference()


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of H0: equal proportions (pooled z-test)."""
    pooled = (k1 + k2) / (n1 + n2)
    if pooled in (0.0, 1.0):
        return 1.0
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    z = (k1 / n1 - k2 / n2) / se
    return float(2 * stats.norm.sf(abs(z)))


@pytest.fixture(scope="module", params=[1, 2, 3], ids=lambda p: f"{p}p")
def both(request, warm_kernels):
    players = request.param
    ref_results = REF.simulate(players, GAMES[players], seed=20240 + players)
    ref = REF.summarize(ref_results)
    ruleset = Ruleset(players=players, market="basic", princesses=POOL)
    run = simulate(ruleset, lineup("basic_rush", players), ENGINE_GAMES, seed=31337 + players)
    return players, ref_results, ref, run.games, run.summary()


def test_reference_seat1_win_rate_agrees(both):
    players, _, ref, df, eng = both
    p = two_proportion_p(ref["wins_by_seat"][0], ref["games"], eng["wins_by_seat"][0], eng["games"])
    assert p > ALPHA, (f"{players}p seat 1 wins: reference {ref['wins_by_seat'][0]}/{ref['games']}, "
                       f"engine {eng['wins_by_seat'][0]}/{eng['games']} (p={p:.2g})")


def test_reference_draws_agree(both):
    players, _, ref, df, eng = both
    p = two_proportion_p(ref["draws"], ref["games"], eng["draws"], eng["games"])
    assert p > ALPHA


@pytest.mark.parametrize("reason", ["coronation", "overtime", "judgement", "turn_cap"])
def test_reference_end_reason_shares_agree(both, reason):
    players, _, ref, df, eng = both
    k_ref, k_eng = ref["end_reasons"][reason], eng["end_reasons"][reason]
    p = two_proportion_p(k_ref, ref["games"], k_eng, eng["games"])
    assert p > ALPHA, (f"{players}p {reason}: reference {k_ref}/{ref['games']}, "
                       f"engine {k_eng}/{eng['games']} (p={p:.2g})")
    if players == 1:
        assert k_ref == (ref["games"] if reason == "coronation" else 0)
        assert k_eng == (eng["games"] if reason == "coronation" else 0)


def test_reference_mean_turns_agree_welch(both):
    players, ref_results, ref, df, eng = both
    a = np.array([r["turns"] for r in ref_results], float)
    b = df.turns.to_numpy(float)
    t, p = stats.ttest_ind(a, b, equal_var=False)
    assert p > ALPHA, f"{players}p mean turns: reference {a.mean():.3f}, engine {b.mean():.3f} (p={p:.2g})"
    # the spread agrees too (Levene / Brown-Forsythe)
    assert stats.levene(a, b, center="median").pvalue > ALPHA


def test_reference_winner_final_sp_in_coronation_games_agrees_welch(both):
    """At a coronation the final SP is the SP of the check, unaffected by the reference's atomic-set
    reading (READINGS 2, which changes final SP only in overtime), so these must agree."""
    players, ref_results, ref, df, eng = both
    a = np.array([r["final_sp"][r["winner"]] for r in ref_results if r["end_reason"] == "coronation"], float)
    crowned = df[df.end_reason == "coronation"]
    b = crowned[[f"sp_{j}" for j in range(players)]].to_numpy()[np.arange(len(crowned)), crowned.winner.to_numpy()]
    p = stats.ttest_ind(a, b.astype(float), equal_var=False).pvalue
    assert p > ALPHA, f"{players}p crowned SP: reference {a.mean():.3f}, engine {b.mean():.3f} (p={p:.2g})"
