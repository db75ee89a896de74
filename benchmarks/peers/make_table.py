"""Render results/dominion_peers/README.md's table from peers.json.

    python benchmarks/peers/make_table.py [--json results/dominion_peers/peers.json]

Prints the markdown table (side by side, one column per peer configuration).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ORDER = [("hoc", "hoc"), ("dominionsim", "DominionSim (Geronimoo)"), ("dominiate", "Dominiate"),
         ("pyminion", "pyminion + last-Province rule"), ("pyminion_no_lpr", "pyminion default (no rule)")]


def pct(d):
    return f"{100 * d['value']:.2f}% [{100 * d['lo']:.2f}, {100 * d['hi']:.2f}]"


def num(d, k=2):
    return f"{d['value']:.{k}f} [{d['lo']:.{k}f}, {d['hi']:.{k}f}]"


def table(data: dict) -> str:
    cols = [(k, name) for k, name in ORDER if k in data["peers"]]
    rows = []

    def row(label, f):
        cells = []
        for k, _ in cols:
            try:
                cells.append(f(data["peers"][k]))
            except (KeyError, TypeError):
                cells.append("n/a")
        rows.append(f"| {label} | " + " | ".join(cells) + " |")

    row("**BM mirror** games (n)", lambda e: f"{e['mirror']['n']:,}")
    row("mean rounds (first seat's turns)", lambda e: num(e["mirror"]["rounds"]))
    row("tie rate (shared games)", lambda e: pct(e["mirror"]["tie_rate"]))
    row("first-seat share of decisive games", lambda e: pct(e["mirror"]["first_seat_share_of_decisive"]))
    row("**smithy_bm vs big_money** games (n)", lambda e: f"{e['smithy']['n']:,}")
    row("smithy_bm score (wins + ties/2)", lambda e: pct(e["smithy"]["a_score"]))
    row("smithy_bm win rate", lambda e: pct(e["smithy"]["a_win_rate"]))
    row("tie rate", lambda e: pct(e["smithy"]["tie_rate"]))
    row("mean rounds", lambda e: num(e["smithy"]["rounds"]))
    row("smithy_bm score moving first / second",
        lambda e: f"{100 * e['smithy']['a_score_moving_first']['value']:.1f}% / "
                  f"{100 * e['smithy']['a_score_moving_second']['value']:.1f}%")
    for mode, label in (("solo_bm", "big_money"), ("solo_smithy", "smithy_bm")):
        row(f"**solo {label}**: turns to 4 Provinces (n)", lambda e, m=mode: f"{e[m]['n']:,}")
        row("mean", lambda e, m=mode: num(e[m]["turns"], 3))
        row("median; p10 / p25 / p75 / p90",
            lambda e, m=mode: f"{e[m]['median']:g}; {e[m]['percentiles']['p10']} / {e[m]['percentiles']['p25']}"
                              f" / {e[m]['percentiles']['p75']} / {e[m]['percentiles']['p90']}")
    row("**speed**: BM-mirror games/s, 1 process, 1 CPU", lambda e: f"{e['speed']['games_per_s']:,.0f}")
    head = "| | " + " | ".join(name for _, name in cols) + " |\n|---|" + "---|" * len(cols)
    return head + "\n" + "\n".join(rows) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", default=str(REPO / "results" / "dominion_peers" / "peers.json"))
    ap.add_argument("--hoc", default=str(REPO / "results" / "dominion_peers" / "hoc.json"),
                    help="our own figures (python -m experiments.dominion_check), the first column if present")
    a = ap.parse_args()
    data = json.loads(Path(a.json).read_text())
    if Path(a.hoc).is_file():
        data["peers"] = {"hoc": json.loads(Path(a.hoc).read_text()), **data["peers"]}
    print(table(data), end="")


if __name__ == "__main__":
    main()
