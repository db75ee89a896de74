"""A supply's figures against their distribution over random supplies.

A report reduces to a few figures (`FIGURES`); the baseline keeps them for random supplies measured
with the same budget (`baseline`). A figure's percentile is the share of the baseline's supplies
below it, a tie counting half (a mid-rank), with a 95% Wilson interval for that share: with n
supplies the percentile moves in steps of 100/n points, and its interval says how far the
baseline's own draw leaves it uncertain.
"""
from __future__ import annotations

import math

import numpy as np

# name -> what it measures (each a number of the report)
FIGURES = {
    "best_fitness": "the best deck's share of the wins against the panel (fresh seeds)",
    "viable": "elites whose interval overlaps the best's",
    "distinct_viable": "distinct viable decks (different kinds owned)",
    "dominant": "1 when one deck beats every other of the round robin (interval above an even share), else 0",
    "top_margin": "the round robin's strongest deck's mean share against the others",
    "first_seat_edge": "the first seat's share of the wins minus an even share",
    "length": "each player's own turns",
    "unbought": "kinds that no viable deck owns",
    "princess_spread": "the strongest princess's rate minus the weakest's (a game with princesses)",
}


def figures(report: dict) -> dict:
    """The report's figures (`FIGURES`), those its game has."""
    shares = report["dominant"]["mean_share"]
    out = {"best_fitness": report["viable"]["best"]["fitness"], "viable": report["viable"]["viable"],
           "distinct_viable": report["viable"]["distinct"], "dominant": int(report["dominant"]["deck"] is not None),
           "top_margin": max(shares), "first_seat_edge": report["first_seat"]["edge"],
           "length": report["length"]["turns"], "unbought": len(report["kinds"]["unbought"])}
    if report.get("princesses"):
        rates = [p["rate"] for p in report["princesses"]]
        out["princess_spread"] = max(rates) - min(rates)
    return out


def place(values: dict, baseline: list[dict]) -> dict:
    """Each figure's percentile among the baseline's supplies (those with the figure)."""
    from hoc.research.stats import wilson

    out = {}
    for name, v in values.items():
        others = np.array([b["figures"][name] for b in baseline if name in b.get("figures", {})], float)
        n = len(others)
        if not n:
            out[name] = {"value": v, "percentile": None, "lo": None, "hi": None, "supplies": 0}
            continue
        below = float((others < v).sum() + 0.5 * (others == v).sum())
        lo, hi = wilson(int(math.floor(below)), n)
        if below != math.floor(below):          # a half count: the wider of the two neighbours' intervals
            lo2, hi2 = wilson(int(math.ceil(below)), n)
            lo, hi = min(lo, lo2), max(hi, hi2)
        out[name] = {"value": v, "percentile": 100 * below / n, "lo": 100 * lo, "hi": 100 * hi, "supplies": n}
    return out
