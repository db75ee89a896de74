"""The fair-price study (experiments/fair_price.py): a kind's value at lower costs, with the balance
study's measurement, until it is worth something."""
from __future__ import annotations

import json

import pytest

from test_cli_errors import study_refused

TINY = ["--games", "6", "--select-seeds", "4", "--refine-seeds", "0", "--start", "tuned_general_2p"]


@pytest.mark.slow   # the fair-price study end to end: plans tuned at each cost
def test_the_fair_price_study_prices_lower_costs_and_resumes(tmp_path):
    from experiments import fair_price

    out = tmp_path / "f"
    summary = fair_price.main([*TINY, "--cards", "donation", "--out", str(out)])
    text = summary.read_text()
    assert "python -m experiments.fair_price" in text and "| donation | 2 |" in text
    saved = json.loads((out / "values" / "donation.cost1.json").read_text())
    assert saved["settings"]["cost"] == 1 and saved["value"]["seeds"] == 6
    # the plans searched under the changed card price Donation at 1
    assert (out / "plans" / "donation.cost1" / "donation-override-allowed.toml").exists()
    before = (out / "values" / "donation.cost1.json").stat().st_mtime_ns
    fair_price.main([*TINY, "--cards", "donation", "--out", str(out)])
    assert (out / "values" / "donation.cost1.json").stat().st_mtime_ns == before      # read back, not measured


def test_the_fair_price_study_refuses_bad_input_in_one_line(capsys, monkeypatch, tmp_path):
    line = study_refused(capsys, monkeypatch, "fair_price", "--balance", str(tmp_path / "none"),
                         "--out", str(tmp_path / "f"))
    assert "values.csv" in line
    assert "nosuch" in study_refused(capsys, monkeypatch, "fair_price", "--cards", "nosuch", "--out", str(tmp_path / "g"))
