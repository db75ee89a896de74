"""CMA-ES (`cma`) over a plan space's free coordinates, within its bounds, from several starts at once:
the local climb after a card sweep that the combo screen's searches (`hoc.research.combos.search`)
and the atlas's polish (`hoc.research.atlas.polish`) share. Every start's batch is asked together,
so one measurement plays them all on the same seeds.
"""
from __future__ import annotations

import numpy as np


def strategies(space, starts, sigma: float, popsize: int, seeds) -> list:
    """A CMA-ES from each start (its free coordinates), each with its seed."""
    import cma

    free = space.free()
    bounds = [space.lower[free].tolist(), space.upper[free].tolist()]
    return [cma.CMAEvolutionStrategy(np.asarray(x0, float)[free], sigma, {"bounds": bounds, "popsize": popsize,
                                                                           "seed": int(seed), "verbose": -9})
            for x0, seed in zip(starts, seeds)]


def ask(space, strategies, bases) -> tuple[list, np.ndarray]:
    """Every strategy's batch: (the batches as asked, the points to measure: each strategy's base
    point with its batch's free coordinates, in strategy order)."""
    free = space.free()
    asked = [es.ask() for es in strategies]
    xs = np.array([bases[k] for k, batch in enumerate(asked) for _ in batch], float)
    xs[:, free] = [x for batch in asked for x in batch]
    return asked, xs


def tell(strategies, asked, values) -> None:
    """Each strategy its batch's values, higher better (cma minimises)."""
    at = 0
    for es, batch in zip(strategies, asked):
        es.tell(batch, (-np.asarray(values[at:at + len(batch)], float)).tolist())
        at += len(batch)
