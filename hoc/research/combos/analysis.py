"""A screen's statistics: the screen's ranking, the pairs followed up, and the confirmed pairs with
their intervals and false-discovery control.

Three figures per pair (see `hoc.research.combos.pair`): `same` (the four decks against the
yardstick), `cross_a` (A's deck against responses that may use B; negative: B counters A) and
`cross_b` (the other way round). Benjamini-Hochberg runs over the same-seat family (every pair) and
over the across-seat family (every pair both ways) apart. The screen's interval of a run is over its seeds (the
games' noise only) and serves to rank. A pair followed up is judged on its confirmation runs alone
(fresh markets, searches and seeds, independent of the screen that chose it): their mean, a t
interval over replicates and a two-sided one-sample t test of no interaction. Benjamini-Hochberg
then runs over the pairs followed up (a two-stage design: the screen chooses among every pair, the
independent confirmation tests what it chose), so among the pairs reported as confirmed the expected
share of false discoveries is at most `fdr`, whichever pairs the screen picked. (Counting every
pair screened as a test, the unchosen at p = 1, would ask a p-value below fdr/465 of four
replicates: no confirmation budget a user would run could meet it.)
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from hoc.research.combos.design import CONFIRM, SCREEN, Settings

MEASURES = ("same", "cross_a", "cross_b")
FAMILIES = {"same": ("same",), "across": ("cross_a", "cross_b")}


def screen_frame(rows: list[dict]) -> pd.DataFrame:
    """One row per pair screened: its figures and their z (estimate over its seeds' standard error)."""
    frame = pd.DataFrame([r for r in rows if r["stage"] == SCREEN])
    if frame.empty:
        return pd.DataFrame(columns=["a", "b", *MEASURES, *(f"{m}_se" for m in MEASURES), *(f"{m}_z" for m in MEASURES)])
    for m in MEASURES:                  # a figure not measured (None: across seats under `built`) is NaN
        frame[m], frame[f"{m}_se"] = frame[m].astype(float), frame[f"{m}_se"].astype(float)
        frame[f"{m}_z"] = frame[m] / frame[f"{m}_se"].where(frame[f"{m}_se"] > 0)
    return frame.reset_index(drop=True)


def followed_up(settings: Settings, screen: pd.DataFrame) -> list[tuple[str, str]]:
    """The pairs to confirm: the `confirm` highest same-seat z, the `confirm` lowest, and the `confirm`
    lowest across-seat z (either way: the strongest counters), each pair once, in that order. Only
    a pair whose screen figure is not 0 is followed up (0 is what a run gives when its decks do
    without the kinds)."""
    if screen.empty or settings.confirm == 0:
        return []
    z = screen.fillna({f"{m}_z": 0.0 for m in MEASURES})
    z = z.assign(cross_z=np.minimum(z["cross_a_z"], z["cross_b_z"]))
    picks = [z[z["same_z"] > 0].sort_values("same_z", ascending=False, kind="stable"),
             z[z["same_z"] < 0].sort_values("same_z", ascending=True, kind="stable"),
             z[z["cross_z"] < 0].sort_values("cross_z", ascending=True, kind="stable")]
    chosen = []
    for frame in picks:
        for a, b in zip(frame["a"][:settings.confirm], frame["b"][:settings.confirm]):
            if (a, b) not in chosen:
                chosen.append((a, b))
    return chosen


def pairs_frame(settings: Settings, rows: list[dict]) -> pd.DataFrame:
    """Every pair screened with its screen figures and, for the pairs followed up, the confirmation's
    mean, 95% interval, p-value, BH q-value and whether it is confirmed, for each figure."""
    from scipy import stats
    from statsmodels.stats.multitest import multipletests

    screen = screen_frame(rows)
    if screen.empty:
        return screen
    confirm = pd.DataFrame([r for r in rows if r["stage"] == CONFIRM])
    out = screen[["a", "b", "market", *MEASURES, *(f"{m}_se" for m in MEASURES), *(f"{m}_z" for m in MEASURES)]].copy()
    out = out.rename(columns={m: f"{m}_screen" for m in MEASURES} | {f"{m}_se": f"{m}_screen_se" for m in MEASURES})
    runs = {key: part for key, part in confirm.groupby(["a", "b"])} if len(confirm) else {}
    for m in MEASURES:
        est, lo, hi, p, n = [], [], [], [], []
        for a, b in zip(out["a"], out["b"]):
            vals = runs[a, b][m].to_numpy(float) if (a, b) in runs else np.zeros(0)
            vals = vals[~np.isnan(vals)]        # not measured (across seats under `built`): not tested
            k = len(vals)
            n.append(k)
            if k < 2:
                est.append(math.nan)
                lo.append(math.nan)
                hi.append(math.nan)
                p.append(math.nan)              # not followed up: not tested
                continue
            mean, sd = float(np.mean(vals)), float(np.std(vals, ddof=1))
            half = float(stats.t.ppf(0.975, k - 1)) * sd / math.sqrt(k)
            est.append(mean)
            lo.append(mean - half)
            hi.append(mean + half)
            # every replicate exactly 0: the decks did without the kinds each time, nothing to find
            p.append(float(stats.ttest_1samp(vals, 0.0).pvalue) if sd > 0 else (1.0 if mean == 0 else 0.0))
        out[f"{m}_replicates"] = n
        out[f"{m}_confirm"], out[f"{m}_lo"], out[f"{m}_hi"], out[f"{m}_p"] = est, lo, hi, p
    for family in FAMILIES.values():
        p = np.concatenate([out[f"{m}_p"].to_numpy(float) for m in family])
        tested = ~np.isnan(p)
        reject, q = np.zeros(len(p), bool), np.full(len(p), math.nan)
        if tested.any():
            reject[tested], q[tested], _, _ = multipletests(p[tested], alpha=settings.fdr, method="fdr_bh")
        for k, m in enumerate(family):
            part = slice(k * len(out), (k + 1) * len(out))
            out[f"{m}_q"] = q[part]
            # confirmed: BH rejects no interaction, on every replicate asked for
            out[f"{m}_confirmed"] = reject[part] & (out[f"{m}_replicates"].to_numpy() >= settings.replicates)
    return out


def estimate(frame: pd.DataFrame, family: str) -> pd.DataFrame:
    """Per pair (across seats: per pair both ways, `a` the deck's kind and `b` the responses'), the
    figure a user reads: the confirmation's (with its interval over replicates) where the pair was
    followed up, else the screen's (with its interval over seeds), and which it is."""
    return pd.concat([_estimate(frame, m) for m in FAMILIES[family]], ignore_index=True)


def _estimate(frame: pd.DataFrame, m: str) -> pd.DataFrame:
    followed = frame[f"{m}_replicates"] >= 2
    se = frame[f"{m}_screen_se"].fillna(0.0)
    a, b = (frame["b"], frame["a"]) if m == "cross_b" else (frame["a"], frame["b"])
    return pd.DataFrame({
        "a": a.to_numpy(), "b": b.to_numpy(),
        "estimate": np.where(followed, frame[f"{m}_confirm"], frame[f"{m}_screen"]),
        "lo": np.where(followed, frame[f"{m}_lo"], frame[f"{m}_screen"] - 1.96 * se),
        "hi": np.where(followed, frame[f"{m}_hi"], frame[f"{m}_screen"] + 1.96 * se),
        "stage": np.where(followed, CONFIRM, SCREEN),
        "q": frame[f"{m}_q"].to_numpy(), "confirmed": frame[f"{m}_confirmed"].to_numpy(bool)})
