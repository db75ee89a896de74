"""What the turn planner adds to a priority list, kind by kind: for each common kind X, the list with
one buy rule for X added (planner on) against the same list (planner off), on random markets that
always offer X, mirrored games.

    python -m experiments.plan_gain --base tuned_plan_2p --games 2000 [--kinds a,b] [--before city]
        [--owned-below 2] [--out results/plan_gain]

A kind whose gain is large is one whose value lies in the decisions the planner takes; a kind near
50% plays as well by the list's fixed defaults. `--kinds none` measures the list as it is.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

import numpy as np


def variants(spec, card: str | None, before: str, owned_below: int, **settings):
    """(planner on, planner off) of spec with a rule for `card` inserted before the first rule for
    `before` (or at the end)."""
    from hoc.games.heart_of_crown.agents.catalog import from_list

    buy = list(spec.buy)
    if card is not None:
        at = next((i for i, r in enumerate(buy) if r["card"] == before), len(buy))
        buy.insert(at, {"card": card, "owned_below": owned_below})
    s = dataclasses.replace(spec, buy=tuple(buy))
    on = s.with_plan(**settings) if settings or not s.planned else s
    off = dataclasses.replace(s, plan=None)
    return from_list(on, "on"), from_list(off, "off")


def gain(on, off, games: int, seed: int, kind: str | None):
    from hoc.games.heart_of_crown.kernel import constants as K
    from hoc.research.harness import Plan, play_rows
    from hoc.research.stats import wilson
    from hoc.games.heart_of_crown.rules import Ruleset

    rs = Ruleset(players=2, market="random", market_with=(kind,) if kind else ())
    plan = Plan(rs, [on, off], games, seed=seed, mirror=True)
    rows = play_rows(plan, 0, games)[0]
    seats = plan.seats(0, games)
    w = rows[:, K.RES_WINNER]
    wins = int(np.sum(seats[np.arange(games), w] == 0))
    lo, hi = wilson(wins, games)
    return wins / games, lo, hi


def main(argv=None) -> None:
    from hoc.games.heart_of_crown.agents import priority
    from hoc.games.heart_of_crown.agents.catalog import list_file
    from hoc.games.heart_of_crown.rules import Ruleset

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", default="tuned_plan_2p")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--kinds", default="all")
    p.add_argument("--before", default="city")
    p.add_argument("--owned-below", type=int, default=2)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a [plan] setting of the planning list (repeatable), e.g. samples=4")
    p.add_argument("--against", default="off", help="off: the same list with its planner off; base: the base "
                                                   "list as it is (planner on): what the rule adds to its strength")
    p.add_argument("--out", default=None, help="write the table to OUT/<base>.md")
    a = p.parse_args(argv)
    spec = priority.parse(list_file(a.base))
    db = Ruleset(players=2).cards
    kinds = db.pile_ids("common") if a.kinds == "all" else [None if k == "none" else k for k in a.kinds.split(",")]
    lines = [f"# Planner on vs off, `{a.base}` + one rule per kind (`owned_below = {a.owned_below}`, before "
             f"`{a.before}`)", "", f"`python -m experiments.plan_gain {' '.join(sys.argv[1:] if argv is None else argv)}`"
             f" ({a.games} mirrored games per kind, random markets offering the kind, seed {a.seed}; 95% Wilson)", "",
             f"| kind | planner on vs {'off' if a.against == 'off' else 'the base list, planner on'} |", "| --- | --- |"]
    settings = {k: int(v) for k, v in (kv.split("=") for kv in a.set)}
    t = time.time()
    for kind in kinds:
        card = None if kind is None else db.name(db.cards_of_pile(kind)[0])
        on, off = variants(spec, card, a.before, a.owned_below, **settings)
        if a.against == "base":
            off = dataclasses.replace(variants(spec, None, a.before, a.owned_below)[0], name="base")
        r, lo, hi = gain(on, off, a.games, a.seed, kind)
        line = f"| {kind or '(as it is)'} | {100 * r:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] |"
        print(line, f"({time.time() - t:.0f} s)", flush=True)
        lines.append(line)
    if a.out:
        Path(a.out).mkdir(parents=True, exist_ok=True)
        (Path(a.out) / f"{a.base}_{a.against}_{a.before}_{a.owned_below}{''.join('_' + kv for kv in a.set)}.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
