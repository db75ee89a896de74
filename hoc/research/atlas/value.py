"""A kind's value through the atlas: can a deck be built around it, and how good is it?

The atlas of a ruleset whose markets always offer the kind, over the copies of the kind a deck
owns at the end (`owns:KIND`) and a second measure, finds the best deck at every level of
ownership. The archive is split in two at half a copy at the end of a deck's games, on average
(about: it ends half its games or more owning the kind): the best deck of the owners' side then
plays the best deck of the other side head to head on fresh seeds, each seed in every seat. The
kind's archetype value is the owner's share of the wins minus an even share, with a 95% interval
over seeds. A split rather than two bands (say a copy or more against none) leaves no elite out: a
strong deck that buys one copy in most games belongs to one side, not to neither.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from hoc.agents.plan_space import OWNER
from hoc.research.atlas.search import REMEASURE_FIRST, derive

WITHOUT = OWNER      # a deck owning less does without the kind (`OWNER`: a deck owning this or more owns it)
HEAD_TO_HEAD = 5     # the seed stream of the head to head


def archetype_value(settings, kind: str, folder: str | Path, backend, command: str, seeds: int = 500,
                    progress=print) -> dict:
    """Search the atlas of `settings` (its first descriptor `owns:KIND`) in `folder`, then play the best
    owner of the kind against the best deck without it on `seeds` fresh seeds."""
    from hoc.agents.registry import get
    from hoc.research.atlas import atlas
    from hoc.research.atlas.measure import measure

    folder = Path(folder)
    frame = atlas(settings, folder, backend, command, progress)
    column = f"owns_{kind}"
    owners, others = frame.index[frame[column] >= OWNER], frame.index[frame[column] < WITHOUT]
    row = {"kind": kind, "elites": len(frame), "owners": len(owners)}
    if not len(owners) or not len(others):
        missing = "no elite owns it" if not len(owners) else "every elite owns it"
        return {**row, "archetype_value": math.nan, "archetype_lo": math.nan, "archetype_hi": math.nan,
                "owner": "", "without": "", "owner_copies": math.nan, "note": missing}
    best, rival = int(owners[0]), int(others[0])        # the frame is ordered by re-measured fitness
    points = np.load(folder / "points.npy")
    opponent = get(str(folder / frame.at[rival, "plan"]))
    m = measure(settings.space, points[[best]], (opponent,), derive(settings.seed, HEAD_TO_HEAD), seeds,
                2 * REMEASURE_FIRST, backend, settings.descriptors)
    lo, hi = m.interval(0)
    fair = 1.0 / settings.space.ruleset.players
    return {**row, "archetype_value": float(m.fitness[0]) - fair, "archetype_lo": lo - fair, "archetype_hi": hi - fair,
            "owner": frame.at[best, "plan"], "without": frame.at[rival, "plan"],
            "owner_copies": float(frame.at[best, column]), "note": ""}
