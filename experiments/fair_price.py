"""At what price is a market card worth something to a strong player? For each kind the balance study
reads as worth nothing at its printed cost, the same measurement (the rule search under the changed
card, head to head against the plan with the kind banned) at a cost 1 lower, then 2 lower, down to 1,
stopping at the first cost where the value's interval is above 0.

    python -m experiments.fair_price --games 5000 [--cards a,b] [--balance results/balance]

A card designer's question, and a check on the strong player: a kind that becomes worth something a
coin cheaper is one the player can use, priced above what that use is worth to it; a kind worth
nothing even at cost 1 is one it has no use for at any price (its text, not its price, is the
matter), or one this player cannot play. Each (kind, cost) is resumable: a file in `values/`.
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from experiments.balance import START, digest, engine_of, kinds_of
from experiments.common import Study, cli, parser, points, saved
from hoc.errors import HocError
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.games.heart_of_crown.studies import card_value as cv

NAME = "fair_price"
SELECT, REFINE = 500, 200       # a lighter search than the balance study's (1,000 and 400): many (kind, cost) pairs


def arguments(argv):
    p = parser(NAME, __doc__, 5000, "game seeds of each value, each played in both seats")
    p.add_argument("--cards", default=None,
                   help="kinds to price, comma-separated (default: those whose value in --balance has its interval "
                        "touching 0)")
    p.add_argument("--balance", default="results/balance",
                   help="the balance study's folder, whose values.csv gives the printed values (default %(default)s)")
    p.add_argument("--select-seeds", type=int, default=SELECT, help=f"the rule search's (default {SELECT})")
    p.add_argument("--refine-seeds", type=int, default=REFINE, help=f"the rule search's (default {REFINE})")
    p.add_argument("--start", default=START, help=f"the strong player's start plan (default {START})")
    return p.parse_args(argv)


def priced(kind: str, cost: int) -> Ruleset:
    """2 players with every card of the kind's pile at `cost`."""
    rs = Ruleset(players=2)
    return Ruleset(players=2, overrides=tuple(f"{rs.cards.name(c)}.cost={cost}" for c in rs.cards.cards_of_pile(kind)))


def value_at(kind: str, cost: int, args, study: Study) -> dict:
    """The kind's value at `cost`: read from `values/` when a run with the same settings left it."""
    settings = {"kind": kind, "cost": cost, "seeds": args.games, "seed": args.seed, "start": args.start,
                "start_plan": digest(cv.start_plan(args.start).toml().encode()), "select_seeds": args.select_seeds,
                "refine_seeds": args.refine_seeds, "forced": 7, **engine_of(args.start)}
    path = study.out / "values" / f"{kind}.cost{cost}.json"
    if (value := saved(path, settings, "value")) is not None:
        return value
    tuning = cv.Tuning(start=args.start, select_seeds=args.select_seeds, refine_seeds=args.refine_seeds)
    v = cv.card_value(priced(kind, cost), kind, cv.RULES, tuning, args.games, args.seed,
                      study.out / "plans" / f"{kind}.cost{cost}", study.backend, progress=study.verbose)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"settings": settings, "value": v.as_dict()}, indent=1))
    return v.as_dict()


def main(argv: list[str] | None = None) -> Path:
    args = arguments(argv)
    if args.select_seeds < 1 or args.refine_seeds < 0:
        raise HocError(f"--select-seeds must be at least 1 and --refine-seeds at least 0 (got {args.select_seeds} "
                       f"and {args.refine_seeds})")
    rs = Ruleset(players=2)
    table = Path(args.balance) / "values.csv"
    printed = pd.read_csv(table).set_index("kind") if table.exists() else None
    if args.cards is None:
        if printed is None:
            raise HocError(f"--balance {args.balance}: no values.csv (run python -m experiments.balance, or give "
                           f"--cards)")
        kinds = [k for k, r in printed.iterrows() if r.lo <= 0]
    else:
        kinds = kinds_of(args.cards, rs)
    study = Study(NAME, "The price at which a market card is worth something (2 players, random markets)", args, argv)
    study.text(
        f"For each kind X: the balance study's measurement (`{args.start}` with its rules for X searched, against "
        f"it with X banned, on random markets that always offer X; a lighter search: {args.select_seeds:,} selection "
        f"seeds, {args.refine_seeds:,} refinement seeds a step) with every card of X costing 1 less than printed, "
        "then 2 less, down to 1, until the value's interval is above 0. Value: the allowed plan's win rate minus "
        f"50% over {args.games:,} seeds each played in both seats. *Printed*: the balance study's value "
        f"(`{table}`).")
    rows = []
    for kind in kinds:
        cost = int(rs.cards[rs.cards.name(rs.cards.cards_of_pile(kind)[0])].cost)
        row = {"kind": kind, "printed cost": cost,
               "printed": "" if printed is None or kind not in printed.index else
               points(*printed.loc[kind, ["value", "lo", "hi"]])}
        found = None
        tried = []
        for c in range(cost - 1, 0, -1):
            v = value_at(kind, c, args, study)
            tried.append(f"{c}: {points(v['value'], v['lo'], v['hi'])}")
            if v["lo"] > 0:
                found = (c, v)
                break
        row["worth something at"] = "no cost down to 1" if found is None else f"cost {found[0]}"
        row["value there"] = "" if found is None else (points(found[1]["value"], found[1]["lo"], found[1]["hi"])
                                                       + f" ({100 * found[1]['bought']:.0f}% own it)")
        row["every cost tried"] = "; ".join(tried) or "(printed cost 1: none lower)"
        rows.append(row)
    t = pd.DataFrame(rows)
    t.to_csv(study.path("prices.csv"), index=False)
    if rows:
        cheaper = int(t["worth something at"].str.startswith("cost").sum())
        study.text(f"## {len(t)} kinds", f"{cheaper} of {len(t)} are worth something at a lower cost.")
        study.table(t)
    return study.finish()


if __name__ == "__main__":
    cli(main)
