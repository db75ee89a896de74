"""The learning example (`experiments/learn.py`) on a tiny budget: it trains over the stepper, writes
its learning curve and its evaluation with intervals, and its policy only ever picks legal actions."""
from __future__ import annotations

import numpy as np
import pandas as pd

from experiments import learn
from hoc.env import VecHoc


def test_the_untrained_policy_is_uniform_over_the_legal_actions_and_samples_only_legal_ones():
    vec = VecHoc(8, opponents="random", seed=3)
    obs, masks = vec.reset()
    x = learn.features(obs)
    pol = learn.Policy.untrained(x.shape[1], masks.shape[1])
    p = pol.probabilities(x, masks)
    legal = masks.astype(bool)
    assert np.allclose(p[~legal], 0) and np.allclose(p.sum(axis=1), 1)
    assert np.allclose(p[legal], np.repeat(1 / legal.sum(axis=1), legal.sum(axis=1)))
    rng = np.random.default_rng(0)
    pol.W = rng.normal(size=pol.W.shape).astype(np.float32)      # any weights: still only legal actions
    for _ in range(50):
        a = pol.sample(pol.probabilities(learn.features(obs), masks), rng)
        assert masks[np.arange(8), a].all()
        obs, masks, _, _ = vec.step(a)


def test_a_tiny_training_run_writes_its_curve_and_its_evaluation_with_intervals(tmp_path):
    out = tmp_path / "learn"
    assert learn.main(["--minutes", "0.05", "--eval-games", "20", "--envs", "16", "--horizon", "8",
                       "--log-every", "1", "--out", str(out)]) == 0
    curve = pd.read_csv(out / "curve.csv")
    assert len(curve) >= 1 and curve["decisions"].is_monotonic_increasing
    assert set(curve["opponent"]) <= {"random", "basic_rush"}
    ev = pd.read_csv(out / "evaluation.csv")
    assert sorted(ev["opponent"].unique()) == sorted(learn.EVAL_OPPONENTS) and len(ev) == 6
    assert (ev["games"] == 20).all() and (ev["wins"] + ev["draws"] + ev["losses"] == ev["games"]).all()
    assert ((ev["win_lo"] <= ev["win_rate"]) & (ev["win_rate"] <= ev["win_hi"])).all()
    untrained = ev[ev["policy"].str.startswith("untrained")].set_index("opponent")
    assert untrained.loc["basic_rush", "wins"] == 0          # uniform play never beats basic_rush
    assert (out / "curve.png").stat().st_size > 0 and (out / "policy.npz").exists()
    assert "python -m experiments.learn" in (out / "summary.md").read_text()


def test_bad_learning_arguments_exit_with_code_2(capsys, tmp_path):
    import pytest

    with pytest.raises(SystemExit) as e:
        learn.main(["--minutes", "0"])
    assert e.value.code == 2 and "--minutes must be positive" in capsys.readouterr().err
    assert learn.main(["--opponent", "nobody", "--out", str(tmp_path)]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
