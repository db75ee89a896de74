"""A supply's decks, read from its atlas and played against each other.

- `viable`: an elite is viable when its interval (re-measured against the panel on fresh seeds)
  overlaps the best elite's: its upper bound reaches the best's lower bound. Two viable elites are
  the same deck when they own the same kinds (`OWNS` copies or more at the end, on average); the
  distinct viable decks are the distinct sets of kinds owned.
- `round_robin`: the best elite of each of the `top` best distinct decks plays every other, each
  ordered pair on the same game seeds (common random numbers), each seed once with the first deck in
  every seat and the second in the others; a shared win counts 1/k. A deck dominates when it beats
  every other with its interval above an even share. The same games give the first seat's edge
  (its share of the wins minus an even share: every pairing is played in every seating, so no deck
  sits first more often) and the game's length (each player's own turns).
Intervals are 95% over seeds (a seed's games share a deal: the seed is the unit), Student's t.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from hoc.engine import layout as L
from hoc.engine.layout import DTYPE

OWNS = 0.5                  # mean copies at the end from which a deck owns a kind
ROUND_ROBIN = 7             # the seed stream of the round robin's games
FIRST = 3 << 40             # its game indices, far from the atlas's search and re-measurement


def t_interval(units: np.ndarray) -> tuple[float, float, float]:
    """(mean, lo, hi): a 95% Student's t interval of the mean of `units`."""
    units = np.asarray(units, float)
    m = float(units.mean())
    if len(units) < 2:
        return m, math.nan, math.nan
    from scipy.stats import t

    half = float(t.ppf(0.975, len(units) - 1)) * float(units.std(ddof=1)) / math.sqrt(len(units))
    return m, m - half, m + half


def owned(row, kinds: list[str]) -> tuple[str, ...]:
    """The kinds an elite owns (OWNS copies or more at the end, on average), most copies first."""
    have = [(row[f"owns_{k}"], k) for k in kinds if row[f"owns_{k}"] >= OWNS]
    return tuple(k for _, k in sorted(have, reverse=True))


def market_kinds(frame: pd.DataFrame) -> list[str]:
    return [c[len("owns_"):] for c in frame.columns if c.startswith("owns_")]


def viable(frame: pd.DataFrame, space) -> dict:
    """The viable elites, the distinct decks among them, and the kinds they own and leave alone."""
    kinds = market_kinds(frame)
    best_lo = float(frame["lo"].iloc[0])
    ok = frame[frame["hi"] >= best_lo]
    sets = [owned(r, kinds) for _, r in ok.iterrows()]
    distinct = sorted(set(sets), key=sets.index)
    share = {k: float(np.mean([k in s for s in sets])) for k in kinds}
    copies = {k: float(ok[f"owns_{k}"].mean()) for k in kinds}
    anyone = {k for _, r in frame.iterrows() for k in owned(r, kinds)}
    summary = {"elites": len(frame), "viable": len(ok), "distinct": len(distinct),
               "rule": "an elite's 95% interval against the panel (fresh seeds) overlaps the best elite's; "
                       f"elites owning the same kinds ({OWNS} copies or more at the end) are one deck",
               "best": {"plan": frame["plan"].iloc[0], "fitness": float(frame["fitness"].iloc[0]),
                        "lo": best_lo, "hi": float(frame["hi"].iloc[0])},
               "decks": [list(s) for s in distinct]}
    table = {"owned_by_viable": {k: {"share": share[k], "copies": copies[k]}
                                 for k in sorted(kinds, key=lambda k: -share[k]) if share[k] > 0},
             "unbought": [k for k in kinds if share[k] == 0],
             "owned_by_no_elite": [k for k in kinds if k not in anyone]}
    return {"summary": summary, "kinds": table}


def distinct(frame: pd.DataFrame, top: int) -> list[int]:
    """Frame rows of the best elite of each of the `top` best distinct decks (by kinds owned)."""
    kinds = market_kinds(frame)
    seen, rows = set(), []
    for i, r in frame.iterrows():
        s = owned(r, kinds)
        if s not in seen:
            seen.add(s)
            rows.append(int(i))
        if len(rows) == top:
            break
    if len(rows) < 2:           # one deck only: its runner-up elite is the nearest rival
        rows = list(range(min(2, len(frame))))
    return rows


def deck_rows(frame: pd.DataFrame, chosen: list[int], kinds_table: dict) -> list[dict]:
    kinds = market_kinds(frame)
    out = []
    for i in chosen:
        r = frame.loc[i]
        out.append({"plan": r["plan"], "fitness": float(r["fitness"]), "lo": float(r["lo"]), "hi": float(r["hi"]),
                    "owns": {k: round(float(r[f"owns_{k}"]), 2) for k in owned(r, kinds)}})
    return out


def round_robin(space, points: np.ndarray, seeds: int, seed: int, backend) -> dict:
    """Every ordered pair of the decks `points` on the same `seeds` seeds, the first in every seat."""
    from hoc.research.atlas.measure import play
    from hoc.research.atlas.search import derive

    ruleset = space.ruleset
    p = ruleset.players
    plans = [space.row(x) for x in points]
    ids = np.array([k for k, _ in plans], DTYPE)
    rows = np.stack([r for _, r in plans]).astype(DTYPE)
    n = len(plans)
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    a, s, t = (x.ravel() for x in np.meshgrid(np.arange(len(pairs)), np.arange(seeds), np.arange(p), indexing="ij"))
    first = np.array([pairs[k][0] for k in a])
    second = np.array([pairs[k][1] for k in a])
    seats = np.repeat(second[:, None], p, axis=1)
    seats[np.arange(len(a)), t] = first
    won, results, _ = play(ruleset, ids, rows, derive(seed, ROUND_ROBIN), FIRST + s, seats, backend)
    mask = won.astype(np.int64)
    winners = sum((mask >> j) & 1 for j in range(p))
    share = np.where((mask >> t) & 1 == 1, 1.0 / np.maximum(winners, 1), 0.0).reshape(len(pairs), seeds, p)
    seat0 = np.where(mask & 1 == 1, 1.0 / np.maximum(winners, 1), 0.0).reshape(len(pairs), seeds, p)
    turns = np.mean([results[:, L.RES_SEAT + q * L.RES_SEAT_SZ + L.RES_OWN_TURNS] for q in range(p)], 0)
    turns = turns.reshape(len(pairs), seeds, p)
    matrix = [[None] * n for _ in range(n)]
    for k, (i, j) in enumerate(pairs):
        m, lo, hi = t_interval(share[k].mean(1))
        lo, hi = max(lo, 0.0), min(hi, 1.0)
        matrix[i][j] = {"rate": m, "lo": lo, "hi": hi, "games": seeds * p}
    fair = 1.0 / p
    e, elo, ehi = t_interval(seat0.mean(2).ravel() - fair)
    length, llo, lhi = t_interval(turns.mean(2).ravel())
    return {"matrix": matrix,
            "first_seat": {"edge": e, "lo": elo, "hi": ehi, "games": len(a),
                           "how": "the first seat's share of the wins minus an even share, over the round robin's "
                                  "games (every pairing in every seating)"},
            "length": {"turns": length, "lo": llo, "hi": lhi, "games": len(a),
                       "how": "each player's own turns, over the round robin's games"}}


def dominant(table: dict, plans: list[str], fair: float) -> dict:
    """The deck that beats every other with its interval above an even share, if one does, and each
    deck's mean share against the others (the top deck's margin)."""
    matrix = table["matrix"]
    n = len(matrix)
    means = [float(np.mean([matrix[i][j]["rate"] for j in range(n) if j != i])) for i in range(n)]
    beats = [all(matrix[i][j]["lo"] > fair for j in range(n) if j != i) for i in range(n)]
    who = next((i for i in range(n) if beats[i]), None)
    return {"deck": None if who is None else plans[who], "index": who, "mean_share": means,
            "rule": f"beats every other deck of the round robin with its 95% interval above {100 * fair:.0f}%"}
