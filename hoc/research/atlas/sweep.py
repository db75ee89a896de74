"""A greedy sweep over which cards a plan buys: the plan and every change of it that opens or shuts
one card's gate, measured on common seeds; the plan moves to the best of them.

A menu often differs from a much stronger one by whole cards (a rush of a gainer and the card it
gains may lack only its cheapest Victory card and Treasure to beat the money decks nearly always);
evolution strategies take such steps rarely, since each is a jump of a gate gene across its
threshold, so the searches sweep their starts first: the combo screen's searches
(`hoc.research.combos.search`) and the atlas's archive, seeded with a swept rush of each kind of the
market (`hoc.research.atlas.search.rushes`).
"""
from __future__ import annotations

import numpy as np

from hoc.research.atlas.measure import Measured, measure

OFF, ON = 0.25, 0.75         # a gate gene shut and opened by a sweep


def flips(space, x: np.ndarray, fixed=()) -> list[np.ndarray]:
    """Point x with each card's gate flipped in turn (the cards the space may buy but those `fixed`,
    card indices)."""
    per, gate = space.per_card, space.gate
    out = []
    for c in range(len(space.cards)):
        if c in space.barred or c in fixed:
            continue
        y = np.array(x, float)
        y[c * per + gate] = OFF if y[c * per + gate] >= 0.5 else ON
        out.append(y)
    return out


def sweep(space, starts, panel, master: int, seeds: int, backend, descriptors=None, fixed=None
          ) -> tuple[list[np.ndarray], np.ndarray, Measured]:
    """One round from every start: each start and its `flips` against `panel` on common seeds; each
    start moves to its best. A start's `fixed` cards (one collection per start: the kinds it is built
    around) keep their gates: the sweep finds what a deck of them needs, not whether to drop them.
    Returns the moved starts, every point measured and its measurement."""
    fixed = fixed or [()] * len(starts)
    blocks = [[np.asarray(x, float), *flips(space, x, f)] for x, f in zip(starts, fixed)]
    xs = np.array([y for block in blocks for y in block])
    m = measure(space, xs, tuple(panel), master, seeds, 0, backend,
                tuple(space.default_descriptors if descriptors is None else descriptors))
    moved, at = [], 0
    for block in blocks:
        moved.append(xs[at + int(np.argmax(m.fitness[at:at + len(block)]))])
        at += len(block)
    return moved, xs, m
