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

"No interaction" is read against the screen's typical pair, its *background*: the median of a
family's screen figures (`background`), where the screen has at least `BACKGROUND_LEAST` of them,
else 0. A measure can lean as a whole: under `built` every deck made to own copies of two kinds
gives up buys and plays to them, and the 465 pairs of Heart of Crown's kinds read -1.4 points in
the median. Tested against 0, a screen on shuffled labels (each replicate a random pair, so every
label's mean is the background) then confirms labels as "weaker together" (one of 28 did, in eight
kinds whose median is -2.6). Each figure a user reads is therefore beyond the background, and its
interval and test carry the median's own standard error (bootstrap over the pairs; Welch's test of
the replicates against it, `_test`): the empirical null of large-scale testing (Efron 2004), centred where
the bulk of the pairs is.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from hoc.research.combos.design import CONFIRM, SCREEN, Settings

MEASURES = ("same", "cross_a", "cross_b")
FAMILIES = {"same": ("same",), "across": ("cross_a", "cross_b")}
# the screen's rankings, each with its name in a report (combos and weaker are the same-seat family's)
TABLES = {"combos": "combos", "weaker": "weaker together", "counters": "across seats"}
PER_FIGURE = ("se", "z", "background", "background_se", "background_n")    # a screen frame's columns per figure
BACKGROUND_LEAST = 10       # a family's screen figures needed to estimate its background (5 kinds' pairs)


def background(frame: pd.DataFrame, family: str) -> tuple[float, float, int]:
    """A family's typical pair in a screen (`frame` one row per pair, its raw figures): the median of
    its figures, the median's standard error (2,000 bootstrap resamples of the pairs, a fixed
    stream: a report renders the same each time) and the number of figures; (0, 0, n) with fewer
    than `BACKGROUND_LEAST` figures."""
    vals = np.concatenate([frame[m].to_numpy(float) for m in FAMILIES[family]]) if len(frame) else np.zeros(0)
    vals = vals[~np.isnan(vals)]
    if len(vals) < BACKGROUND_LEAST:
        return 0.0, 0.0, len(vals)
    boot = np.median(np.random.default_rng(0).choice(vals, (2000, len(vals))), axis=1)
    return float(np.median(vals)), float(np.std(boot, ddof=1)), len(vals)


def screen_frame(rows: list[dict]) -> pd.DataFrame:
    """One row per pair screened: its figures, their family's background (`{m}_background`, `_se`)
    and their z (the figure beyond the background over its seeds' standard error)."""
    frame = pd.DataFrame([r for r in rows if r["stage"] == SCREEN])
    if frame.empty:
        return pd.DataFrame(columns=["a", "b", *MEASURES, *(f"{m}_{c}" for c in PER_FIGURE for m in MEASURES)])
    for m in MEASURES:                  # a figure not measured (None: across seats under `built`) is NaN
        frame[m], frame[f"{m}_se"] = frame[m].astype(float), frame[f"{m}_se"].astype(float)
    for family, ms in FAMILIES.items():
        centre, centre_se, count = background(frame, family)
        for m in ms:
            frame[f"{m}_background"], frame[f"{m}_background_se"], frame[f"{m}_background_n"] = centre, centre_se, count
            frame[f"{m}_z"] = (frame[m] - centre) / frame[f"{m}_se"].where(frame[f"{m}_se"] > 0)
    return frame.reset_index(drop=True)


def rankings(screen: pd.DataFrame) -> dict[str, list[tuple[str, str]]]:
    """Each table's pairs in the order the screen ranks them, z beyond the background: `combos` the
    highest same-seat z first, `weaker` the lowest, `counters` the lowest across-seat z either way. A
    pair whose screen figure is 0 is in none (0 is what a run gives when its decks do without the
    kinds: its seeds' standard error is 0 and z undefined)."""
    if screen.empty:
        return {t: [] for t in TABLES}
    z = screen.fillna({f"{m}_z": 0.0 for m in MEASURES})
    z = z.assign(cross_z=np.minimum(z["cross_a_z"], z["cross_b_z"]))
    ordered = {"combos": z[z["same_z"] > 0].sort_values("same_z", ascending=False, kind="stable"),
               "weaker": z[z["same_z"] < 0].sort_values("same_z", ascending=True, kind="stable"),
               "counters": z[z["cross_z"] < 0].sort_values("cross_z", ascending=True, kind="stable")}
    return {t: list(zip(f["a"], f["b"])) for t, f in ordered.items()}


def followed_up_by_family(settings: Settings, screen: pd.DataFrame,
                          depth: dict[str, int] | None = None) -> dict[str, list[tuple[str, str]]]:
    """Per family, the pairs to confirm: the first `depth` of each table's ranking (`rankings`; by
    default `confirm` each, the first wave), `same` from the combos and the weaker, `across` from the
    counters."""
    depth = depth or first_wave(settings)
    ranked = rankings(screen)
    chosen = {}
    for family, names in (("same", ("combos", "weaker")), ("across", ("counters",))):
        chosen[family] = list(dict.fromkeys(p for t in names for p in ranked[t][:depth[t]]))
    return chosen


def first_wave(settings: Settings) -> dict[str, int]:
    """The pairs each table follows up before any is confirmed: `confirm`."""
    return {t: settings.confirm for t in TABLES}


def deeper(settings: Settings, rows: list[dict], depth: dict[str, int]) -> dict[str, int]:
    """The depth of each table's follow-ups once the pairs `depth` chooses are confirmed (`rows` holds
    their runs): `confirm` more in each table unless its last wave showed the ranking ran dry at its
    cut (`ran_dry`: under half of it confirmed, in its own direction, beyond doubt), up to `waves`
    waves and the pairs it ranks. A wave that confirms half or more says the ranking had not run dry;
    one that confirms clearly less says it had (the pairs further down ranked lower still), and so
    does a table of pure noise, which stops at once.
    Read from the runs of those pairs alone (a folder may hold runs of a later wave, from a session
    cut short), so a resumed screen decides as the first session did. The waves' pairs are tested
    together (`pairs_frame`: Benjamini-Hochberg over every pair followed up); each wave's
    confirmation runs are fresh and independent of those that decided to play it."""
    screen = screen_frame(rows)
    chosen = followed_up_by_family(settings, screen, depth)
    runs = {(stage, a, b) for stage, a, b, _ in settings.follow_ups(chosen)}
    frame = pairs_frame(settings, [r for r in rows if r["stage"] == SCREEN or (r["stage"], r["a"], r["b"]) in runs])
    frame = frame.set_index(["a", "b"])
    out = dict(depth)
    for table, ranked in rankings(screen).items():
        if depth[table] >= settings.confirm * settings.waves or depth[table] >= len(ranked) or not settings.confirm:
            continue
        last = ranked[depth[table] - settings.confirm:depth[table]]
        if not ran_dry(sum(_confirmed_in(frame.loc[p], table) for p in last), len(last)):
            out[table] = depth[table] + settings.confirm
    return out


def ran_dry(confirmed: int, followed: int) -> bool:
    """Whether a wave that confirmed `confirmed` of its `followed` pairs shows its table's ranking ran
    dry at its cut: its share confirmed below half, the whole 95% (Wilson) interval of it. A small
    wave cannot show that (7 of 15 may be a ranking still half full), and stopping on it can miss a
    real effect just past the cut; a wave that goes on where the ranking had run dry costs one wave,
    and the false-discovery control holds over every pair followed up. Large waves decide near half
    (46 pairs: 16 confirmed stop, 17 go on); a wave of pure noise (none of 6) stops."""
    from statsmodels.stats.proportion import proportion_confint

    return bool(proportion_confint(confirmed, followed, alpha=0.05, method="wilson")[1] < 0.5)


def depths(settings: Settings, rows: list[dict]) -> dict[str, int]:
    """How deep each table's follow-ups went in a folder's runs: the waves `deeper` chose whose runs the
    folder holds, every one of them."""
    depth, screen = first_wave(settings), screen_frame(rows)
    held = {(r["stage"], r["a"], r["b"], r["replicate"]) for r in rows}
    while True:
        more = deeper(settings, rows, depth)
        chosen = followed_up_by_family(settings, screen, more)
        if more == depth or not set(settings.follow_ups(chosen)) <= held:
            return depth
        depth = more


def _confirmed_in(row: pd.Series, table: str) -> bool:
    """Whether a pair is confirmed in the direction its table ranks."""
    if table == "counters":
        return bool(any(row[f"{m}_confirmed"] and row[f"{m}_confirm"] < 0 for m in FAMILIES["across"]))
    sign = 1 if table == "combos" else -1
    return bool(row["same_confirmed"] and sign * row["same_confirm"] > 0)


def pairs_frame(settings: Settings, rows: list[dict]) -> pd.DataFrame:
    """Every pair screened with its screen figures and, for the pairs followed up, the confirmation's
    mean beyond the background (`{m}_confirm`; the mean itself `{m}_confirm_raw`), 95% interval,
    p-value, BH q-value and whether it is confirmed, for each figure."""
    from statsmodels.stats.multitest import multipletests

    screen = screen_frame(rows)
    if screen.empty:
        return screen
    confirm = pd.DataFrame([r for r in rows if r["stage"] != SCREEN])     # CONFIRM, and ACROSS under `combined`
    out = screen[["a", "b", "market", *MEASURES, *(f"{m}_{c}" for c in PER_FIGURE for m in MEASURES)]].copy()
    out = out.rename(columns={m: f"{m}_screen" for m in MEASURES} | {f"{m}_se": f"{m}_screen_se" for m in MEASURES})
    runs = {key: part for key, part in confirm.groupby(["a", "b"])} if len(confirm) else {}
    for m in MEASURES:
        background_of = tuple(float(out[f"{m}_background{c}"].iloc[0]) for c in ("", "_se", "_n"))
        tested = [_replicates(runs, a, b, m) for a, b in zip(out["a"], out["b"])]
        # the family's typical replicate variance, for the degrees of freedom (see `_test`)
        spread = [np.var(v, ddof=1) for v in tested if len(v) >= 2]
        typical = float(np.median(spread)) if spread else 0.0
        raw, est, lo, hi, p, n = [], [], [], [], [], []
        for vals in tested:
            n.append(len(vals))
            figures = _test(vals, *background_of, typical)
            for column, value in zip((raw, est, lo, hi, p), figures):
                column.append(value)
        out[f"{m}_replicates"] = n
        out[f"{m}_confirm_raw"] = raw
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


def _replicates(runs: dict, a: str, b: str, m: str) -> np.ndarray:
    vals = runs[a, b][m].to_numpy(float) if (a, b) in runs else np.zeros(0)
    return vals[~np.isnan(vals)]                # not measured (across seats under `built`): not tested


def _test(vals: np.ndarray, centre: float, centre_se: float, count: float, typical: float) -> tuple:
    """A pair's confirmation against the background: its raw mean, the mean beyond the background,
    the 95% interval and the two-sided p-value (NaN when not followed up). The standard error holds
    the replicates' and the background's; the degrees of freedom are Welch-Satterthwaite's with the
    pair's replicate variance taken as at least the family's typical one (`typical`, the median over
    the pairs followed up): with the pair's own alone, a pair whose few replicates happen to agree
    closely would gain degrees of freedom as well as a small error (measured on pure noise: twice the
    false discoveries at p < 0.005, a third of screens with a false confirmation where a tenth or
    two may have one)."""
    from scipy import stats

    k = len(vals)
    if k < 2:
        return (math.nan,) * 5
    mean, sd = float(np.mean(vals)), float(np.std(vals, ddof=1))
    se = math.sqrt(sd ** 2 / k + centre_se ** 2)
    beyond = mean - centre
    v = max(sd ** 2, typical) / k
    df = ((v + centre_se ** 2) ** 2 / (v ** 2 / (k - 1) + centre_se ** 4 / (count - 1))
          if v > 0 and centre_se > 0 else k - 1)      # no background (0, too few pairs): the replicates' own
    half = float(stats.t.ppf(0.975, df)) * se
    if not vals.any():                          # every replicate exactly 0: the decks did without the kinds
        p = 1.0
    elif se == 0:
        p = 1.0 if beyond == 0 else 0.0
    else:
        p = float(2 * stats.t.sf(abs(beyond) / se, df))
    return mean, beyond, beyond - half, beyond + half, p


def estimate(frame: pd.DataFrame, family: str) -> pd.DataFrame:
    """Per pair (across seats: per pair both ways, `a` the deck's kind and `b` the responses'), the
    figure a user reads, beyond the background: the confirmation's (with its interval over
    replicates) where the pair was followed up, else the screen's (with its interval over seeds),
    and which it is."""
    return pd.concat([_estimate(frame, m) for m in FAMILIES[family]], ignore_index=True)


def _estimate(frame: pd.DataFrame, m: str) -> pd.DataFrame:
    followed = frame[f"{m}_replicates"] >= 2
    se = np.sqrt(frame[f"{m}_screen_se"].fillna(0.0) ** 2 + frame[f"{m}_background_se"] ** 2)
    beyond = frame[f"{m}_screen"] - frame[f"{m}_background"]
    a, b = (frame["b"], frame["a"]) if m == "cross_b" else (frame["a"], frame["b"])
    return pd.DataFrame({
        "a": a.to_numpy(), "b": b.to_numpy(),
        "estimate": np.where(followed, frame[f"{m}_confirm"], beyond),
        "lo": np.where(followed, frame[f"{m}_lo"], beyond - 1.96 * se),
        "hi": np.where(followed, frame[f"{m}_hi"], beyond + 1.96 * se),
        "stage": np.where(followed, CONFIRM, SCREEN),
        "q": frame[f"{m}_q"].to_numpy(), "confirmed": frame[f"{m}_confirmed"].to_numpy(bool)})
