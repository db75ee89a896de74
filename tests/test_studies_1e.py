"""The studies under the 1st edition: the seat-order study's `--edition 1e` (1E rules and cards, and the
hand-elimination seating on the same seeds), `hoc balance --edition 1e` starting from the 1E tuned plan."""
from __future__ import annotations

import subprocess
import sys

import pandas as pd

from experiments import seat_order


def test_the_seat_order_study_under_1e_plays_1e_rules_and_the_hand_elimination_seating(tmp_path):
    study = seat_order.main(["--edition", "1e", "--games", "300", "--jobs", "1", "--out", str(tmp_path / "s")])
    t = pd.read_csv(tmp_path / "s" / "seats.csv")
    assert list(t.players) == [2, 2, 3, 3, 3, 4, 4, 4, 4] and set(t.agent) == {"`tuned_general_1e_2p`"}
    text = (tmp_path / "s" / "summary.md").read_text()
    assert "python -m experiments.seat_order --edition 1e --games 300" in text and "hand elimination, by place" in text
    assert study.out == tmp_path / "s"
    bad = subprocess.run([sys.executable, "-m", "experiments.seat_order", "--edition", "3e", "--out", str(tmp_path / "b")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.strip() == "error: --edition must be 2e or 1e, got '3e'"


def test_hoc_balance_under_1e_starts_from_the_1e_tuned_general_plan():
    out = subprocess.run([sys.executable, "-m", "hoc", "balance", "--edition", "1e", "--card", "bank", "--seeds", "20",
                          "--refine-seeds", "20", "--jobs", "1", "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert '"start": "tuned_general_1e_2p"' in out.stdout and '"edition": "1e"' in out.stdout
