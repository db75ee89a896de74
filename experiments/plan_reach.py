"""What the turn planner's Main phase weighs beyond the coins of its turn, as `NAME+plan` plays it:
the set its Second phase may make instead of a buy (`settle`); for a card question whose answers tie
at the turn's end, the next turn's hand (`next`); each decision on 4 determinizations, not 1
(`samples`). The planning lists as they play now against themselves as they played before (one
determinization, neither weighed), and the balance study's plans that buy a kind before, with each
change added in turn, each against its banned plan playing the same way.

    python -m experiments.plan_reach --games 4000 [--lists A,B] [--kinds a,b] [--plans results/balance/plans/rules]

A Main-phase look-ahead scores the end of the Main phase by what the Second phase can spend; with
`settle` it scores the set the list would make from hand instead when that is worth more. A card
question that puts a card on the deck for a later turn (Scout's top card kept or discarded, Hideout,
Supply Unit) ties at the turn's end; with `next` it is weighed at the end of the next turn's Main
phase. A list whose Main phase never meets such a decision plays alike either way. Every head to
head plays each seed once with each plan in every seat (random markets; for a kind, markets that
always offer it), and a kind's head to heads share their seeds, so its changes are paired over seeds.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd

from experiments.common import Study, cli, parser, pct, points

NAME = "plan_reach"
LISTS = "tuned_plan_c_2p,tuned_general_2p,tuned_laolily_2p,curse_witch,draw_engine,attack_deck"
KINDS = ("adventurer,wishing_well,scout,stargazing_witch,handyman,trading_ship,curse_witch,alchemist,donation,"
         "magic_talisman,hideout,supply_unit")


def arguments(argv):
    p = parser(NAME, __doc__, 4000, "game seeds per head to head, each played in both seats")
    p.add_argument("--lists", default=LISTS, help=f"planning lists NAME (played as NAME+plan; default {LISTS})")
    p.add_argument("--kinds", default=KINDS, help=f"kinds whose buying plans are measured (default {KINDS})")
    p.add_argument("--plans", default="results/balance/plans/rules",
                   help="the balance study's plans: KIND-forced.toml and KIND-banned.toml (default %(default)s)")
    p.add_argument("--settle", type=int, default=None, help="the set's weight measured (default: what NAME+plan sets)")
    return p.parse_args(argv)


def shares(ruleset, plans, opponent, seeds: int, seed: int, backend):
    """Each plan's share of every seed's games against `opponent` (seats mirrored, common seeds), and
    the share of its seats that end owning the kind the markets offer."""
    import numpy as np

    from hoc.agents.tune import evaluate
    from hoc.games.heart_of_crown.agents.priority import list_id

    row = opponent.params(ruleset)
    g = evaluate.seed_games(ruleset, np.stack([p.params(ruleset) for p in plans]), row, list_id(row), seed, seeds,
                            backend)
    return g.share(), g.owning(ruleset.cards.cards_of_pile(ruleset.market_with[0])) if ruleset.market_with else None


def main(argv: list[str] | None = None) -> Path:
    from hoc.games.heart_of_crown.agents.catalog import planned_spec
    from hoc.errors import HocError
    from hoc.games.heart_of_crown.agents.genome import from_spec, load
    from hoc.games.heart_of_crown.agents.planner import MAIN_DEFAULTS
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.games.heart_of_crown.studies.card_value import check_kind, mean_interval

    args = arguments(argv)
    weight = MAIN_DEFAULTS["settle"] if args.settle is None else args.settle
    if weight <= 0:
        raise HocError(f"--settle must be above 0 (0 is the planner without it), got {weight}")
    # every name and file read before any game is played: bad input is refused in one line
    lists = {name: from_spec(planned_spec(name + "+plan")) for name in args.lists.split(",") if name}
    folder = Path(args.plans)
    kinds = {}
    for kind in [k for k in args.kinds.split(",") if k]:
        check_kind(Ruleset(players=2), kind)
        files = [folder / f"{kind}-{w}.toml" for w in ("forced", "banned")]
        for f in files:
            if not f.exists():
                raise HocError(f"--plans {folder}: no {f.name} (the balance study writes it: python -m "
                               f"experiments.balance --out FOLDER, then --plans FOLDER/plans/rules)")
        kinds[kind] = [load(f) for f in files]
    study = Study(NAME, "What the turn planner's Main phase weighs beyond its coins", args, argv)
    steps = {"before": {"samples": 1, "settle": 0, "next": 0}, "the set": {"samples": 1, "settle": weight, "next": 0},
             "and the next turn": {"samples": 1, "settle": weight, "next": 1},
             "and 4 determinizations (now)": {"samples": 4, "settle": weight, "next": 1}}
    before, now = steps["before"], steps["and 4 determinizations (now)"]

    def weighing(plan, settings):
        return dataclasses.replace(plan, plan=tuple({**dict(plan.plan), **settings}.items()))

    rows = []
    rs = Ruleset(players=2, market="random")
    for name, base in lists.items():
        share, _ = shares(rs, [weighing(base, now)], weighing(base, before), args.games, args.seed, study.backend)
        rows.append({"list": f"{name}+plan", "now against before": pct(*mean_interval(share[0]))})
    if rows:
        study.text("## Planning lists: as `NAME+plan` plays now, against itself as it played before",
                   f"Now: `samples = 4`, `settle = {weight}`, `next = 1`; before: `samples = 1`, `settle = 0`, "
                   f"`next = 0`. Each list played as `NAME+plan` (its whole turn planner), random markets, "
                   f"{args.games:,} seeds each played in both seats; the share of games won as it plays now.")
        study.table(pd.DataFrame(rows))

    rows = []
    for kind, (forced, banned) in kinds.items():
        rk = dataclasses.replace(Ruleset(players=2), market="random", market_with=(kind,))
        values = {}
        for step, settings in steps.items():
            share, own = shares(rk, [weighing(forced, settings)], weighing(banned, settings), args.games,
                                args.seed + 1, study.backend)
            values[step] = share[0] - 0.5
        rows.append({"kind": kind, **{step: points(*mean_interval(v)) for step, v in values.items()},
                     "change, now against before (paired)": points(*mean_interval(values[list(steps)[-1]]
                                                                                  - values["before"])),
                     "seats ending with it": f"{100 * own[0]:.0f}%"})
    if rows:
        study.text("## The balance study's buying plans",
                   f"Each kind's plan that buys it (`{folder}/KIND-forced.toml`) against its banned plan, on random "
                   f"markets that always offer the kind, {args.games:,} seeds each played in both seats, both players "
                   "planning the same way: before, then with each change added in turn; the same seeds for all. "
                   "The value is the buying plan's win rate minus 50%.")
        study.table(pd.DataFrame(rows))
    return study.finish()


if __name__ == "__main__":
    cli(main)
