"""Each princess's strength on one supply, by her best plan there.

Her candidate plans: the supply's top decks (from its atlas) and the game's starting plans (the
library's tuned lists the atlas starts from, her own among them), each re-pointed to back her first
(`space.backing`: the same buys, another princess). Every candidate plays the reference panel on
`select_seeds` common seeds (each seed in every seat); the best is her plan on this supply, and is
measured again on `princess_seeds` seeds the choice never saw, so her figure does not inherit the
choice's lucky maximum. The figure is her plan's share of the wins against the panel, with a 95%
interval over seeds, the panel's own princesses as the rules draw them.
"""
from __future__ import annotations

import numpy as np

SELECT, FINAL = 8, 9                    # seed streams: the choice and the fresh measurement
SELECT_FIRST, FINAL_FIRST = 4 << 40, 5 << 40


def strengths(space, panel, decks: list[np.ndarray], budget, backend) -> list[dict]:
    from hoc.research.atlas.measure import measure
    from hoc.research.atlas.search import derive

    base = list(decks) + list(space.starts())
    names = [f"deck {k + 1}" for k in range(len(decks))] + [f"start {k + 1}" for k in range(len(base) - len(decks))]
    princesses = list(space.princesses)
    xs = np.stack([space.backing(x, p) for p in princesses for x in base])
    descriptors = tuple(space.default_descriptors)
    chosen = measure(space, xs, panel, derive(budget.seed, SELECT), budget.select_seeds, SELECT_FIRST, backend,
                     descriptors)
    per = chosen.fitness.reshape(len(princesses), len(base))
    best = per.argmax(1)
    final = measure(space, xs[np.arange(len(princesses)) * len(base) + best], panel, derive(budget.seed, FINAL),
                    budget.princess_seeds, FINAL_FIRST, backend, descriptors)
    out = []
    for k, p in enumerate(princesses):
        lo, hi = final.interval(k)
        out.append({"princess": p, "rate": float(final.fitness[k]), "lo": lo, "hi": hi,
                    "plan": names[best[k]], "candidates": len(base)})
    return sorted(out, key=lambda r: -r["rate"])
