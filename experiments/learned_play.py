"""How the learned player plays, beside the tuned plans: what it buys, when it backs, which princess.

    python -m experiments.learned_play [--agents learned_2p,tuned_plan_d_2p,tuned_laolily_2p,tuned_general_2p]
        [--opponent tuned_plan_c_2p] [--games 4000] [--seed 31] [--out results/learned]

Each agent plays `--games` games against the same opponent (seats rotated, the same seeds for every
agent: common random numbers), on random markets. For the agent's seat: its win rate; which princess it
backs (share of games, 95% Wilson intervals) and on which own turn (mean, t interval); and, for every
common kind, how often it ends the game owning the kind when the market offers it. Writes
`summary.md`, `princesses.csv` and `kinds.csv` into --out.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd


def seat_view(df: pd.DataFrame, name: str, players: int) -> pd.DataFrame:
    """One row per game: the columns of the seat `name` played (its princess, backing turn, cards)."""
    rows = []
    for j in range(players):
        mine = df[f"agent_{j}"].astype(str).to_numpy() == name
        part = pd.DataFrame({"won": df["winner"].to_numpy()[mine] == j,
                             "princess": df[f"princess_{j}"].astype(str).to_numpy()[mine],
                             "backed_turn": df[f"backed_turn_{j}"].to_numpy()[mine],
                             "owned": df[f"owned_{j}"].to_numpy()[mine].astype(np.int64),
                             "market": df["market"].astype(str).to_numpy()[mine]})
        rows.append(part)
    return pd.concat(rows, ignore_index=True)


def main(argv=None) -> int:
    from hoc.agents.registry import get
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.research.simulate import simulate
    from statsmodels.stats.weightstats import DescrStatsW

    from hoc.research.stats import wilson

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--agents", default="learned_2p,tuned_plan_d_2p,tuned_laolily_2p,tuned_general_2p")
    p.add_argument("--opponent", default="tuned_plan_c_2p")
    p.add_argument("--games", type=int, default=4000)
    p.add_argument("--seed", type=int, default=31)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", default="results/learned")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rs = Ruleset(players=2)
    db = rs.cards
    names = args.agents.split(",")
    princess_rows, kind_rows, lines = [], [], []
    for name in names:
        df = simulate(rs, [get(name), get(args.opponent)], args.games, seed=args.seed, jobs=args.jobs,
                      rotate=True).games
        v = seat_view(df, name, 2)
        n = len(v)
        lo, hi = wilson(int(v.won.sum()), n)
        turn = v.backed_turn[v.backed_turn > 0].to_numpy(dtype=float)
        m = turn.mean()
        tlo, thi = DescrStatsW(turn).tconfint_mean()
        lines.append(f"| {name} | {100 * v.won.mean():.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | "
                     f"{100 * (v.backed_turn > 0).mean():.1f}% | {m:.2f} [{tlo:.2f}, {thi:.2f}] |")
        for princess, k in v.princess.value_counts().items():
            plo, phi = wilson(int(k), n)
            princess_rows.append({"agent": name, "princess": princess, "share": k / n, "lo": plo, "hi": phi})
        for kind in dict.fromkeys(db.kinds):
            cards = db.cards_of_pile(kind)
            if not cards or kind in db.pile_ids("princess"):
                continue
            offered = v.market.str.split(",").apply(lambda ks, kind=kind: kind in ks).to_numpy()
            if offered.sum() < 50:
                continue
            bits = sum(1 << c for c in cards)
            owns = (v.owned.to_numpy()[offered] & bits) != 0
            klo, khi = wilson(int(owns.sum()), int(offered.sum()))
            kind_rows.append({"agent": name, "kind": kind, "offered": int(offered.sum()), "owns": owns.mean(),
                              "lo": klo, "hi": khi})
    princesses = pd.DataFrame(princess_rows)
    kinds = pd.DataFrame(kind_rows)
    princesses.to_csv(out / "princesses.csv", index=False)
    kinds.to_csv(out / "kinds.csv", index=False)
    text = [f"# How the learned player plays: {', '.join(names)} against {args.opponent}", "",
            f"`python -m experiments.learned_play --agents {args.agents} --opponent {args.opponent} "
            f"--games {args.games} --seed {args.seed}`: {args.games:,} games each, random markets, seats rotated, "
            "the same seeds for every agent; 95% intervals.", "",
            "| agent | win rate | backs a princess | own turn of backing |", "| --- | --- | --- | --- |", *lines, "",
            "## Princess backed (share of games)", "",
            "| princess | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
    for princess in sorted(princesses.princess.unique()):
        cells = []
        for name in names:
            r = princesses[(princesses.agent == name) & (princesses.princess == princess)]
            cells.append(f"{100 * r.share.iat[0]:.1f}% [{100 * r.lo.iat[0]:.1f}, {100 * r.hi.iat[0]:.1f}]"
                         if len(r) else "0")
        text.append(f"| {princess} | " + " | ".join(cells) + " |")
    text += ["", "## Common kinds: share of games it ends owning the kind, when the market offers it", "",
             "| kind | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
    wide = kinds.pivot(index="kind", columns="agent", values="owns")
    order = wide[names[0]].sort_values(ascending=False).index
    for kind in order:
        text.append(f"| {kind} | " + " | ".join(f"{100 * wide.at[kind, a]:.0f}%" for a in names) + " |")
    (out / "summary.md").write_text("\n".join(text) + "\n")
    print("\n".join(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
