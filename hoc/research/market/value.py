"""A kind's archetype value (`hoc.research.atlas.value`) for a game whose plans are made for one fixed
supply (Dominion's bots buy from the ten cards of their kingdom): the value on each of a few random
supplies that offer the kind, and their mean.

Supply m of kind X is X and nine kinds drawn from the game's others by numpy's default generator
seeded (seed, m, X's place among the candidates), so every kind's supplies differ and a rerun draws
the same. The mean's 95% interval combines the supplies' own intervals (their half-widths in
quadrature, over the count): it says how well these supplies' values are measured, not how the
value varies over every supply (the per-supply values show that).
"""
from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np


def supply_with(candidates: list[str], kind: str, seed: int, m: int) -> tuple[str, ...]:
    others = [k for k in candidates if k != kind]
    rng = np.random.default_rng([seed, m, candidates.index(kind)])
    picked = {others[i] for i in rng.choice(len(others), 9, replace=False)} | {kind}
    return tuple(k for k in candidates if k in picked)


def over_supplies(ruleset, kind: str, supplies: int, settings_of, folder: str | Path, backend, command_of,
                  seeds: int, seed: int = 0) -> dict:
    """`archetype_value` of `kind` on `supplies` fixed random supplies that offer it; settings_of(ruleset)
    gives the atlas settings of a supply, command_of(supply, folder) its command."""
    from hoc.research.atlas.value import archetype_value

    _, candidates = ruleset.market_piles
    rows = []
    for m in range(supplies):
        supply = supply_with(list(candidates), kind, seed, m)
        fixed = dataclasses.replace(ruleset, market=supply, market_with=())
        where = Path(folder) / f"supply_{m}"
        r = archetype_value(settings_of(fixed), kind, where, backend, command_of(supply, where), seeds=seeds,
                            progress=lambda line: None)
        rows.append({**r, "supply": list(supply)})
    valued = [r for r in rows if r["owner"]]
    out = {"kind": kind, "supplies": rows, "elites": sum(r["elites"] for r in rows),
           "owners": sum(r["owners"] for r in rows)}
    if not valued:
        return {**out, "archetype_value": math.nan, "archetype_lo": math.nan, "archetype_hi": math.nan, "owner": "",
                "without": "", "owner_copies": math.nan, "note": "on no supply could the atlas split its decks"}
    v = float(np.mean([r["archetype_value"] for r in valued]))
    half = math.sqrt(sum(((r["archetype_hi"] - r["archetype_lo"]) / 2) ** 2 for r in valued)) / len(valued)
    return {**out, "archetype_value": v, "archetype_lo": v - half, "archetype_hi": v + half,
            "owner": f"{len(valued)} of {supplies} supplies", "without": "",
            "owner_copies": float(np.mean([r["owner_copies"] for r in valued])),
            "note": "" if len(valued) == supplies else f"{supplies - len(valued)} supplies without a split"}
