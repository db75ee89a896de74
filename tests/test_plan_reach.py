"""The plan_reach study (experiments/plan_reach.py): what weighing the set and the next turn in the
turn planner's Main phase changes, for planning lists and for the balance study's buying plans."""
from __future__ import annotations

import pytest

from test_cli_errors import study_refused

PLANS = "results/balance/plans/rules"


def test_the_plan_reach_study_writes_both_tables_with_intervals(tmp_path):
    from experiments import plan_reach

    summary = plan_reach.main(["--games", "12", "--lists", "tuned_general_2p", "--kinds", "scout", "--plans", PLANS,
                               "--out", str(tmp_path / "s")])
    text = summary.read_text()
    assert "python -m experiments.plan_reach" in text
    assert "| tuned_general_2p+plan |" in text and "| scout |" in text
    scout = next(line for line in text.splitlines() if line.startswith("| scout |"))
    assert scout.count("[") == 5            # four values and their paired change, each with its interval


@pytest.mark.parametrize("argv,named", [(["--settle", "0"], "--settle must be above 0"),
                                         (["--kinds", "nosuch"], "nosuch"),
                                         (["--lists", "nosuch_plan"], "nosuch_plan"),
                                         (["--kinds", "scout", "--plans", "/nonexistent"], "scout-forced.toml")])
def test_the_plan_reach_study_refuses_bad_input_in_one_line(capsys, monkeypatch, tmp_path, argv, named):
    assert named in study_refused(capsys, monkeypatch, "plan_reach", *argv, "--out", str(tmp_path / "s"))
