"""What weighing the Second phase's set in the turn planner's Main phase (`settle`) changes: the
planning lists with it against themselves without it, and the balance study's plans that buy a kind
with it and without it, each against its banned plan.

    python -m experiments.settle --games 4000 [--lists A,B] [--kinds a,b] [--plans results/balance/plans/rules]

A Main-phase look-ahead scores the end of the Main phase by what the Second phase can spend; with
`settle` it scores the set the list would make from hand instead when that is worth more. A list
whose Main phase never trades a hand card for a draw or a gain plays alike either way; a card that
does (Wishing Well's discards, Adventurer's exile) plays differently. Every head to head plays each
seed once with each plan in every seat (random markets; for a kind, markets that always offer it),
and a kind's two head to heads share their seeds, so the change is paired over seeds.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd

from experiments.common import Study, cli, parser, pct, points

NAME = "settle"
LISTS = "tuned_plan_c_2p,tuned_general_2p,tuned_laolily_2p,curse_witch,draw_engine,attack_deck"
KINDS = ("adventurer,wishing_well,scout,stargazing_witch,handyman,trading_ship,curse_witch,alchemist,donation,"
         "magic_talisman,hideout,charm_witch")


def arguments(argv):
    p = parser(NAME, __doc__, 4000, "game seeds per head to head, each played in both seats")
    p.add_argument("--lists", default=LISTS, help=f"planning lists NAME (played as NAME+plan; default {LISTS})")
    p.add_argument("--kinds", default=KINDS, help=f"kinds whose buying plans are measured (default {KINDS})")
    p.add_argument("--plans", default="results/balance/plans/rules",
                   help="the balance study's plans: KIND-forced.toml and KIND-banned.toml (default %(default)s)")
    p.add_argument("--settle", type=int, default=None, help="the weight measured (default: what NAME+plan sets)")
    return p.parse_args(argv)


def shares(ruleset, plans, opponent, seeds: int, seed: int, backend):
    """Each plan's share of every seed's games against `opponent` (seats mirrored, common seeds)."""
    import numpy as np

    from hoc.agents.tune import evaluate
    from hoc.games.heart_of_crown.agents.priority import list_id

    row = opponent.params(ruleset)
    g = evaluate.seed_games(ruleset, np.stack([p.params(ruleset) for p in plans]), row, list_id(row), seed, seeds,
                            backend)
    return g.share(), g.owning(ruleset.cards.cards_of_pile(ruleset.market_with[0])) if ruleset.market_with else None


def main(argv: list[str] | None = None) -> Path:
    from hoc.agents.registry import planned_spec
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
    study = Study(NAME, "Sets weighed in the turn planner's Main phase (`settle`)", args, argv)

    def with_settle(plan, value):
        return dataclasses.replace(plan, plan=tuple({**dict(plan.plan), "settle": value}.items()))

    rows = []
    rs = Ruleset(players=2, market="random")
    for name, base in lists.items():
        share, _ = shares(rs, [with_settle(base, weight)], with_settle(base, 0), args.games, args.seed, study.backend)
        m, lo, hi = mean_interval(share[0])
        rows.append({"list": f"{name}+plan", f"settle {weight} against settle 0": pct(m, lo, hi)})
    if rows:
        study.text(f"## Planning lists: `settle = {weight}` against `settle = 0`",
                   f"Each list played as `NAME+plan` (its whole turn planner), random markets, {args.games:,} seeds "
                   "each played in both seats; the share of games won by the list with sets weighed.")
        study.table(pd.DataFrame(rows))

    rows = []
    for kind, (forced, banned) in kinds.items():
        rk = dataclasses.replace(Ruleset(players=2), market="random", market_with=(kind,))
        values = []
        for value in (0, weight):
            share, own = shares(rk, [with_settle(forced, value)], with_settle(banned, value), args.games,
                                args.seed + 1, study.backend)
            values.append((share[0] - 0.5, own[0]))
        (off, own0), (on, own1) = values
        rows.append({"kind": kind, "without sets weighed": points(*mean_interval(off)),
                     f"settle {weight}": points(*mean_interval(on)), "change (paired)": points(*mean_interval(on - off)),
                     "seats ending with it": f"{100 * own1:.0f}%"})
    if rows:
        study.text("## The balance study's buying plans, with and without sets weighed",
                   f"Each kind's plan that buys it (`{folder}/KIND-forced.toml`) against its banned plan, on random "
                   f"markets that always offer the kind, {args.games:,} seeds each played in both seats; both "
                   f"players with `settle = 0`, then both with `settle = {weight}`, on the same seeds. The value is "
                   "the buying plan's win rate minus 50%.")
        study.table(pd.DataFrame(rows))
    return study.finish()


if __name__ == "__main__":
    cli(main)
