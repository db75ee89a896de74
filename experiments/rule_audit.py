"""An audit of the balance study's rule search: for each common kind, every plan the search considers
(the start plan without the kind, and with one rule for a card of the kind at any place with any of
its conditions) played against the banned plan on the same seeds, with no culling; the best few
played again on fresh seeds by the study's own head to head.

It answers whether the study's race culled a plan worth something: a kind the study reads as worth
nothing, whose rechecked best plan is also within noise of 0 (or below it), gains nothing from any
single rule for it in the start plan (`hoc.games.heart_of_crown.studies.rule_audit`).

Resumable per kind: each result is a file in `audits/` (with its every plan's figures in
`plans/<kind>.csv`); a rerun skips what is done (`--cards` limits the kinds)."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from experiments.balance import START, digest, engine_of, kinds_of
from experiments.common import Study, cli, parser, points, saved
from hoc.errors import HocError
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.games.heart_of_crown.studies import card_value as cv
from hoc.games.heart_of_crown.studies import rule_audit as ra

NAME = "rule_audit"


def arguments(argv):
    p = parser(NAME, __doc__, ra.SEEDS, "game seeds per audited plan, each played in both seats")
    p.add_argument("--recheck", type=int, default=ra.RECHECK,
                   help=f"best plans of each kind played again on fresh seeds (default {ra.RECHECK})")
    p.add_argument("--recheck-seeds", type=int, default=ra.RECHECK_SEEDS,
                   help=f"fresh seeds per recheck (default {ra.RECHECK_SEEDS})")
    p.add_argument("--cards", default="all", help="kinds to audit, comma-separated (default all)")
    p.add_argument("--start", default=START, help=f"the start plan (default {START}, as the balance study)")
    return p.parse_args(argv)


def audit_of(kind: str, args, study: Study) -> dict:
    """One kind's audit: read from `audits/` when a run with the same settings left it, else
    measured and written there (its plans' table in `plans/`)."""
    settings = {"kind": kind, "seeds": args.games, "recheck": args.recheck, "recheck_seeds": args.recheck_seeds,
                "seed": args.seed, "start": args.start, "start_plan": digest(cv.start_plan(args.start).toml().encode()),
                **engine_of(args.start)}
    path = study.out / "audits" / f"{kind}.json"
    if (audit := saved(path, settings, "audit")) is not None:
        return audit
    a = ra.audit(Ruleset(players=2), kind, cv.Tuning(start=args.start), args.games, args.recheck, args.recheck_seeds,
                 args.seed, study.backend)
    (study.out / "plans").mkdir(exist_ok=True)
    a.plans.to_csv(study.out / "plans" / f"{kind}.csv", index=False)
    fired = a.plans[a.plans.uneven > 0]
    top = None if fired.empty else fired.iloc[0]
    result = {"plans": len(a.plans), "games": a.games,
              "top": None if top is None else {"plan": top.plan, "value": float(top.value), "lo": float(top.lo),
                                               "hi": float(top.hi)},
              "rechecks": [{"plan": p, **{c: getattr(v, c) for c in ("value", "lo", "hi", "bought", "seeds")}}
                           for p, v in a.rechecks]}
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"settings": settings, "audit": result}, indent=1))
    return result


def main(argv: list[str] | None = None) -> Path:
    args = arguments(argv)
    if args.recheck < 1 or args.recheck_seeds < 2:
        raise HocError("--recheck must be at least 1 and --recheck-seeds at least 2 "
                       f"(got {args.recheck} and {args.recheck_seeds})")
    study = Study(NAME, "Audit of the balance study's rule search (2 players, random markets)", args, argv)
    kinds = kinds_of(args.cards, Ruleset(players=2))
    study.text(
        f"For each kind X, on random markets that always offer X: every plan the balance study's rule search "
        f"considers (`{args.start}` without its rules for X, the start plan itself, and one rule for a card of X at "
        f"any place with any of {len(cv.CONDITION_GRID)} sets of conditions) against the plan with X banned, on "
        f"the same {args.games:,} seeds each played in both seats, with no culling. *Best audited* is the best "
        "of those whose results ever differ from 50% on those seeds (a rule that never fires plays the banned plan's "
        "games): a maximum over about 200 noisy figures, biased upward. *Rechecked* is the best of "
        f"the {args.recheck} best audited plans whose results ever differ from 50%, played again on {args.recheck_seeds:,} fresh seeds by the study's own head to "
        "head: an honest interval, and the share of its seats that end owning X. Every plan's figures: `plans/`.")
    rows = []
    for k in kinds:
        a = audit_of(k, args, study)
        best = max(a["rechecks"], key=lambda r: r["value"]) if a["rechecks"] else None
        top = a["top"]
        rows.append({"kind": k, "plans": a["plans"],
                     "best audited": "-" if top is None else points(top["value"], top["lo"], top["hi"]),
                     "rechecked": "every plan plays as the banned one" if best is None else
                     f"{points(best['value'], best['lo'], best['hi'])} ({best['bought']:.0%} own it)",
                     "its plan": "" if best is None else best["plan"],
                     "_value": -1.0 if best is None else best["value"], "_lo": -1.0 if best is None else best["lo"]})
    t = pd.DataFrame(rows).sort_values(["_value", "kind"], ascending=[False, True])
    above = int((t["_lo"] > 0).sum())
    study.text(f"## {len(t)} kinds audited",
               f"{above} of {len(t)} have a rechecked plan with its interval above 0.")
    study.table(t.drop(columns=["_value", "_lo"]))
    return study.finish()


if __name__ == "__main__":
    cli(main)
