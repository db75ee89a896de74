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


def flips(space, x: np.ndarray, fixed=(), opened=None) -> list[np.ndarray]:
    """Point x with each card's gate flipped in turn (the cards the space may buy but those `fixed`,
    card indices). A card opened keeps x's other genes for it, or takes `opened`'s (a point) where
    given (`adopted`): a plan that never bought a card left those genes wherever its search did (a
    cap of one, a price never met), so opened as they are the card may still be bought as good as
    never."""
    per, gate = space.per_card, space.gate
    out = []
    for c in range(len(space.cards)):
        if c in space.barred or c in fixed:
            continue
        if x[c * per + gate] >= 0.5:
            y = np.array(x, float)
            y[c * per + gate] = OFF
        else:
            y = adopted(space, x, c, opened) if opened is not None else np.array(x, float)
            y[c * per + gate] = ON
        out.append(y)
    return out


def adopted(space, x: np.ndarray, c: int, source: np.ndarray) -> np.ndarray:
    """Point x with card c's genes taken from point `source`, ranked among the cards x buys where
    `source` ranks it: between the lowest of them `source` ranks above c and the highest it ranks
    below (its own priority gene is on another plan's scale: a Treasure ranked as the guess ranks it
    came before the plan's dearest Victory card, which was then never bought)."""
    per, gate, priority = space.per_card, space.gate, space.priority
    y = np.array(x, float)
    y[c * per:(c + 1) * per] = source[c * per:(c + 1) * per]
    mine = np.clip(np.asarray(x, float)[:per * len(space.cards)].reshape(-1, per), 0.0, 1.0)
    theirs = np.clip(np.asarray(source, float)[:per * len(space.cards)].reshape(-1, per), 0.0, 1.0)
    bought = [k for k in range(len(space.cards))
              if k != c and k not in space.barred and mine[k, gate] >= 0.5 and theirs[k, gate] >= 0.5]
    below = max((mine[k, priority] for k in bought if theirs[k, priority] < theirs[c, priority]), default=0.0)
    above = min((mine[k, priority] for k in bought if theirs[k, priority] >= theirs[c, priority]
                 and mine[k, priority] > below), default=1.0)
    y[c * per + priority] = (below + above) / 2
    return y


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
