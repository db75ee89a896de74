"""Card value under strong play: for every common kind of the 2nd edition, the change in win rate
when a strong player may use the kind, against the same player with it banned; and what a card
change (Curse Witch costing 6) does to its value and to every agent.

For each kind X, on random markets that always offer X: a plan re-tuned from `tuned_general_2p`
with X allowed plays head to head against the same start re-tuned with X banned (same tune seed
and budget), on the same game seeds, each seed played in both seats. The value is the allowed
plan's win rate minus 50%, with a 95% interval over seeds. A second pair of re-tunes (another tune
seed) shows how much of a value is the luck of the search rather than the card.

Resumable per kind: each kind's result is a file in `values/`, its plans in `plans/`; a rerun skips
what is done (`--cards` limits the kinds)."""
from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from experiments.common import Study, cli, parser, pct, points
from hoc.research import card_value as cv
from hoc.research import plots
from hoc.rules import Ruleset

NAME = "balance"


def arguments(argv):
    p = parser(NAME, __doc__, 5000, "game seeds per head to head, each played in both seats")
    p.add_argument("--tune-games", type=int, default=None,
                   help="games per re-tune (default 20 x --games: 100000)")
    p.add_argument("--cards", default="all", help="kinds to price, comma-separated (default all)")
    p.add_argument("--replicate", type=int, default=1,
                   help="further tune seeds per kind, to show the search's own noise (default 1)")
    p.add_argument("--what-if", default="curse_witch.cost=6", help="card change to price (default curse_witch.cost=6)")
    return p.parse_args(argv)


def value_of(kind: str, tune_seed: int, args, study: Study) -> dict:
    """One kind's value at one tune seed: read from `values/` when a run with the same settings
    left it, else measured and written there."""
    rs = Ruleset(players=2)
    settings = {"kind": kind, "tune_seed": tune_seed, "tune_games": args.tune_games, "seeds": args.games,
                "seed": args.seed, "start": "tuned_general_2p"}
    path = study.out / "values" / f"{kind}.tune{tune_seed}.json"
    if path.exists():
        saved = json.loads(path.read_text())
        if saved.get("settings") == settings:
            return saved["value"]
    tuning = cv.Tuning(games=args.tune_games, seed=tune_seed)
    v = cv.card_value(rs, kind, cv.TUNED, tuning, args.games, args.seed, study.out / "plans" / f"tune{tune_seed}",
                      study.backend, progress=study.verbose)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"settings": settings, "value": v.as_dict()}, indent=1))
    return v.as_dict()


def main(argv: list[str] | None = None) -> Study:
    args = arguments(argv)
    if args.tune_games is None:
        args.tune_games = 20 * args.games
    study = Study(NAME, "Card value under strong play (2 players, random markets)", args, argv)
    rs = Ruleset(players=2)
    what_if = Ruleset(players=2, overrides=(args.what_if,))       # a bad change is refused before playing
    what_if.vector
    kind = cv.kind_of_override(what_if, args.what_if)
    _, every = rs.market_piles
    kinds = every if args.cards == "all" else [k.strip() for k in args.cards.split(",") if k.strip()]
    for k in kinds:
        cv.check_kind(rs, k)
    study.text(
        "Strong player: for each kind X, a plan re-tuned by `hoc tune` from `tuned_general_2p` against it "
        f"({args.tune_games:,} games, tune seed 0) on random markets that always offer X, once with X allowed "
        "and once with X banned (its rules for X dropped; it never buys X nor picks it to gain). "
        f"The two plans play {args.games:,} game seeds head to head, each seed in both seats. "
        "**Value** = the allowed plan's win rate minus 50%, 95% interval over seeds. The re-tuned plans are "
        "in `plans/` (each `best.toml` names the command that made it). The interval covers the games' luck, "
        "not the search's: the second value of each row re-tunes both plans with tune seed 1.")
    rows = []
    for k in kinds:
        v = value_of(k, 0, args, study)
        reps = [value_of(k, s, args, study) for s in range(1, 1 + args.replicate)]
        rows.append({"kind": k, **{f"{c}": v[c] for c in ("value", "lo", "hi", "rate", "bought", "seeds", "games")},
                     **{f"{c}_tune{s}": r[c] for s, r in enumerate(reps, 1) for c in ("value", "lo", "hi", "bought")}})
    t = pd.DataFrame(rows).sort_values("value", ascending=False).reset_index(drop=True)
    t.to_csv(study.path("values.csv"), index=False)
    above, below = int((t.lo > 0).sum()), int((t.hi < 0).sum())
    study.text(f"## Value of each kind ({len(t)} kinds)",
               f"{above} kinds are worth more than nothing to the strong player (interval above 0), {below} are "
               f"worth less than nothing (it does better never buying them: interval below 0), "
               f"{len(t) - above - below} are within noise of 0.")
    png = plots.effect_bars(t.assign(label=t.kind), "label", study.path("values.png"),
                            "Card value: re-tuned plan allowed the kind against it banned",
                            "win rate minus 50%, percentage points", value="value")
    study.figure(str(png), "value of each common kind under strong play")
    table = {"kind": t.kind,
             "value (tune seed 0)": [points(r.value, r.lo, r.hi) for r in t.itertuples()],
             "allowed plan's seats ending with the kind": [f"{100 * b:.0f}%" for b in t.bought]}
    for s in range(1, 1 + args.replicate):
        table[f"value (tune seed {s})"] = [points(getattr(r, f"value_tune{s}"), getattr(r, f"lo_tune{s}"),
                                                  getattr(r, f"hi_tune{s}")) for r in t.itertuples()]
    study.table(pd.DataFrame(table))
    if args.replicate:
        d = t.value - t.value_tune1
        apart = int(((t.lo > t.hi_tune1) | (t.hi < t.lo_tune1)).sum())
        sign = int(((t.lo > 0) & (t.lo_tune1 > 0)).sum() + ((t.hi < 0) & (t.hi_tune1 < 0)).sum())
        corr = float(np.corrcoef(t.value, t.value_tune1)[0, 1]) if len(t) > 2 else math.nan
        study.text("## The search's own noise",
                   f"Re-tuning both plans with another tune seed moves a kind's value by {100 * d.abs().mean():.1f} "
                   f"points on average (largest {100 * d.abs().max():.1f}); the two values' intervals are disjoint "
                   f"for {apart} of {len(t)} kinds; {sign} kinds are clear of 0 on the same side with both seeds; "
                   f"correlation of the two columns {corr:.2f}. Read a value as settled only when both seeds agree.")
    w = cv.what_if(what_if, kind, _field(), cv.TUNED, cv.Tuning(games=args.tune_games), args.games, 4 * args.games,
                   args.seed, study.out / "plans" / "what_if", study.backend, progress=study.verbose)
    study.text(f"## What if: {args.what_if}",
               f"The value of {kind} with the printed card and with the change, each with its own pair of re-tuned "
               "plans (tune seed 0), on the same game seeds:",
               f"- printed: {points(w.baseline.value, w.baseline.lo, w.baseline.hi)} (the allowed plan's seats end "
               f"with {kind} {100 * w.baseline.bought:.0f}% of the time)",
               f"- changed: {points(w.changed.value, w.changed.lo, w.changed.hi)} ({100 * w.changed.bought:.0f}%)",
               f"- change: {points(w.change, w.lo, w.hi)} (paired over the same seeds)")
    a = w.agents.sort_values("change")
    a.to_csv(study.path("what_if_agents.csv"), index=False)
    study.text(f"Every agent's win rate per seat in a round robin of {len(a)} agents on markets that always offer "
               f"{kind}, printed → changed, same seeds ({int(a.games.min()):,} seats per agent); the corrected interval "
               f"is Bonferroni's for {len(a)} agents:")
    study.table(pd.DataFrame({
        "agent": a.agent, "printed": [f"{100 * x:.1f}%" for x in a.rate_baseline],
        "changed": [f"{100 * x:.1f}%" for x in a.rate_changed],
        "change": [points(r.change, r.change_lo, r.change_hi) for r in a.itertuples()],
        "corrected": [f"[{100 * r.change_lo_corrected:+.1f}, {100 * r.change_hi_corrected:+.1f}]" for r in a.itertuples()]}))
    moved = w.largest()
    study.text("Changes clear of noise (corrected interval excludes 0): "
               + (", ".join(f"{r.agent} {points(r.change, r.change_lo_corrected, r.change_hi_corrected)}"
                            for r in moved.itertuples()) or "none") + ".")
    study.text(f"Same what-if from the command line: `hoc balance --override {args.what_if} --tune-games "
               f"{args.tune_games} --seeds {args.games} --games {4 * args.games}`.")
    return study.finish()


def _field():
    """The agents whose win-rate change the what-if reports: the hand-written plans and the tuned
    2-player library."""
    from hoc.agents.registry import AGENTS, archetypes

    return archetypes() + [a for n, a in AGENTS.items() if n.startswith("tuned_") and n.endswith("_2p")]


if __name__ == "__main__":
    cli(main)
