"""Every common kind's archetype value: can a deck be built around it, and how good is it?

For each kind of the 2nd edition (2 players), the strategy atlas of random markets that always offer
it, mapped over the copies of the kind a deck owns at the end and the share of Actions in it
(`hoc atlas --with KIND --descriptors owns:KIND,action_share`); then the best deck that owns the kind
(half a copy or more at the end, on average) plays the best deck of the rest head to head on fresh
seeds, each seed in both seats (`hoc.research.atlas.value`). The value is the
owner's win rate minus 50%, with a 95% interval over seeds: the same as `hoc balance --card KIND
--strong atlas`.

Writes `archetypes.csv` (one row per kind: the value, its interval, the copies the owner keeps, the two
plans), the two plans of each kind in `archetypes/`, and adds the columns `archetype_value`,
`archetype_lo`, `archetype_hi` to the balance study's `values.csv` beside the tuned plan's value.
Resumable per kind: each kind's atlas and result stay in `--work`; a rerun skips what is done."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd

from experiments.common import cli, parser

NAME = "archetypes"


def arguments(argv):
    p = parser(NAME, __doc__, 2000, "game seeds of each head to head, each played in both seats")
    p.add_argument("--iterations", type=int, default=60, help="iterations of each kind's atlas (default 60)")
    p.add_argument("--cards", default="all", help="kinds to price, comma-separated (default all)")
    p.add_argument("--work", default=".hoc_work/archetypes", help="the atlases, one folder per kind (kept for reruns)")
    p.set_defaults(out="results/balance")
    return p.parse_args(argv)


def main(argv=None) -> None:
    import dataclasses

    from hoc.agents.registry import get
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.games.heart_of_crown.studies import card_value as cv
    from hoc.research.atlas.search import Settings
    from hoc.agents.plan_space import space_of
    from hoc.research.atlas.value import archetype_value
    from hoc.research.harness import Backend

    args = arguments(argv)
    out, work = Path(args.out), Path(args.work)
    out.mkdir(parents=True, exist_ok=True)
    ruleset = Ruleset(players=2, market="random")
    kinds = cv.kinds_to_price(ruleset, args.cards)
    backend = Backend(args.jobs)
    rows = []
    for kind in kinds:
        done = work / kind / "value.json"
        settings_key = {"iterations": args.iterations, "seeds": args.games, "seed": args.seed}
        if done.exists() and json.loads(done.read_text()).get("settings") == settings_key:
            rows.append(json.loads(done.read_text())["value"])
            continue
        offered = dataclasses.replace(ruleset, market_with=(kind,))
        space = space_of(offered)
        settings = Settings(space, tuple(get(n) for n in space.panel()), (f"owns:{kind}", "action_share"),
                            seed=args.seed, iterations=args.iterations)
        command = (f"--players 2 --market random --with {kind} --descriptors owns:{kind},action_share "
                   f"--iterations {args.iterations} --seed {args.seed} --out {work / kind}")
        value = archetype_value(settings, kind, work / kind, backend, command, seeds=args.games,
                                progress=lambda line: None)
        done.write_text(json.dumps({"settings": settings_key, "value": value}))
        rows.append(value)
        print(f"{kind}: {value['archetype_value']:+.3f} [{value['archetype_lo']:+.3f}, {value['archetype_hi']:+.3f}]"
              f" {value['note']}", flush=True)
    backend.close()
    table = pd.DataFrame(rows).sort_values("archetype_value", ascending=False, na_position="last")
    plans = out / "archetypes"
    plans.mkdir(exist_ok=True)
    for r in table.itertuples():
        for role, plan in (("owner", r.owner), ("without", r.without)):
            if plan:
                shutil.copy(work / r.kind / plan, plans / f"{r.kind}_{role}.toml")
    table["owner"] = [f"archetypes/{k}_owner.toml" if p else "" for k, p in zip(table["kind"], table["owner"])]
    table["without"] = [f"archetypes/{k}_without.toml" if p else "" for k, p in zip(table["kind"], table["without"])]
    table.to_csv(out / "archetypes.csv", index=False)
    values = out / "values.csv"
    if values.exists():
        v = pd.read_csv(values).drop(columns=["archetype_value", "archetype_lo", "archetype_hi"], errors="ignore")
        v = v.merge(table[["kind", "archetype_value", "archetype_lo", "archetype_hi"]], on="kind", how="left")
        v.to_csv(values, index=False)
    print(f"{out / 'archetypes.csv'}: {len(table)} kinds")


if __name__ == "__main__":
    cli(main)
