"""A screen's outputs: `pairs.parquet` (every pair, `analysis.pairs_frame`), the combos and
counters tables (`summary.md`), a kinds x kinds heat map (`combos.png`), the decks of the confirmed
pairs (`plans/`), and the JSON object `hoc combos --json` prints."""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from hoc.research.combos import analysis
from hoc.research.combos.design import CONFIRM, SCREEN, Settings


WALL = re.compile(r"([0-9.]+) min of wall time in the session that finished it")


def write(settings: Settings, rows: list[dict], folder: Path, command: str) -> pd.DataFrame:
    folder = Path(folder)
    frame = analysis.pairs_frame(settings, rows)
    frame.to_parquet(folder / "pairs.parquet", index=False)
    heat_map(settings, frame, folder / "combos.png")
    plans(settings, frame, rows, folder / "plans")
    from hoc.research.combos.screen import DECKS, load

    decks = load(folder, DECKS)
    (folder / "summary.md").write_text(summary(settings, frame, rows, command, _wall(folder), decks), encoding="utf-8")
    return frame


def _wall(folder: Path) -> str:
    """The wall time the folder's sessions took, from `sessions.jsonl`; in a folder made before it, the
    session that finished it as its summary says (where no session since played a run)."""
    from hoc.research.combos.screen import counted, sessions

    seconds, count, unrecorded = sessions(folder)
    if count:
        return (f"{seconds / 60:.1f} min of wall time over {counted(count, 'session')}"
                f"{f', the sessions of its other {unrecorded} runs not recorded' if unrecorded else ''}")
    kept = WALL.search((folder / "summary.md").read_text(encoding="utf-8")) if (folder / "summary.md").exists() else None
    return f"{kept.group(1)} min of wall time in the session that finished it" if kept else "wall time not recorded"


def as_json(settings: Settings, frame: pd.DataFrame, command: str) -> dict:
    """`pairs`: the same-seat interaction of every pair (positive: a combo; negative: the kinds blunt
    each other); `across`: every pair both ways, A's deck against responses that may use B (negative:
    B counters A; `across_decks`: the decks A's is, built on A or the strongest that may use it). Estimates
    are shares of the wins (0.05 = 5 points)."""
    def listed(family):
        e = analysis.estimate(frame, family)
        return [{"a": r.a, "b": r.b, "estimate": _num(r.estimate), "lo": _num(r.lo), "hi": _num(r.hi),
                 "confirmed": bool(r.confirmed), "stage": r.stage, "q": _num(r.q)} for r in e.itertuples()]
    return {"game": settings.game, "kinds": list(settings.kinds), "pairs_screened": len(frame),
            "replicates": settings.replicates, "waves": settings.waves, "fdr": settings.fdr, "command": command,
            "measure": settings.measure, "across_decks": _across_decks(settings), "background": {f: _num(float(_background(frame, f)[0])) for f in _families(settings)},
            "pairs": listed("same"),
            "across": listed("across") if "across" in _families(settings) else []}


def _across_decks(settings: Settings) -> str | None:
    """The decks the across-seat figure answers: built on each kind, or the strongest that may use it."""
    return None if settings.measure == "built" else settings.across if settings.measure == "combined" else "offered"


def _families(settings: Settings) -> tuple[str, ...]:
    return ("same",) if settings.measure == "built" else tuple(analysis.FAMILIES)    # built: no across seats


def _background(frame: pd.DataFrame, family: str) -> tuple[float, float, int]:
    """A family's background as the analysis estimated it: centre, standard error, figures."""
    m = analysis.FAMILIES[family][0]
    return tuple(frame[f"{m}_background{c}"].iloc[0] for c in ("", "_se", "_n"))


def _num(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


def tables(frame: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The three tables of followed-up pairs, strongest first: combos, kinds that blunt each other in
    one deck, and across seats (each row read 'B counters A' when negative)."""
    same, cross = analysis.estimate(frame, "same"), analysis.estimate(frame, "across")
    followed = same["stage"] == CONFIRM
    combos = same[followed & (same["estimate"] > 0)].sort_values("estimate", ascending=False)
    blunt = same[followed & (same["estimate"] < 0)].sort_values("estimate")
    across = cross[cross["stage"] == CONFIRM].sort_values("estimate")
    return {"combos": combos, "blunt": blunt, "across": across}


def summary(settings: Settings, frame: pd.DataFrame, rows: list[dict], command: str, wall: str,
            decks=()) -> str:
    """The tables and how they were made; `wall`, what the sessions took (`_wall`); `decks`, the runs
    of kinds' decks (`--across built`)."""
    t = tables(frame)
    runs = len(rows)
    followed = int((frame[[f"{m}_replicates" for m in analysis.MEASURES]] >= 2).any(axis=1).sum())   # either family
    lines = [f"# Combo screen: {len(settings.kinds)} kinds of {settings.game}, {len(frame)} pairs", "",
             f"Command: `hoc combos {command}`", "",
             f"{runs} runs of a pair ({sum(r['stage'] == 'screen' for r in rows)} in the screen, "
             f"{sum(r['stage'] != SCREEN for r in rows)} confirming)"
             f"{f' and {len(decks)} of one kind' if decks else ''}, "
             f"{wall}"
             f"{_cost([*rows, *decks])}. "
             f"{_how(settings, rows)} "
             f"Figures are points of the share of the wins; intervals are 95%, over the {settings.replicates} "
             f"confirmation replicates (fresh markets, searches and seeds). Confirmed: Benjamini-Hochberg over the "
             f"{followed} pairs followed up (of {len(frame)} screened), each family apart, at a false-discovery rate "
             f"of {settings.fdr:g}. {_waves(settings, rows)}", ""]
    lines += [_reading(settings, frame), ""]
    if settings.shuffle:
        lines += ["**Null check: labels shuffled** (each run played a random pair, not the one it is labelled).", ""]
    for key, title, reading in (
            ("combos", "Combos: stronger together", "same-seat interaction"),
            ("blunt", "Blunting: weaker together in one deck", "same-seat interaction"),
            ("across", "Across seats: A's deck against responses that may use B",
             "negative: B counters A, it helps more against A's deck than against the "
             + ("baseline, on the log-odds scale" if settings.across == "built" else "yardstick"))):
        if key == "across" and "across" not in _families(settings):
            lines += [f"## {title}", "", "(not measured under `--measure built`; see `--measure offered`)", ""]
            continue
        lines += [f"## {title}", "", f"({reading})", "", "| A | B | points | 95% interval | q | confirmed |",
                  "|---|---|---:|---|---:|:---:|"]
        for r in t[key].itertuples():
            lines.append(f"| {r.a} | {r.b} | {100 * r.estimate:+.1f} | [{100 * r.lo:+.1f}, {100 * r.hi:+.1f}] | "
                         f"{r.q:.3f} | {'yes' if r.confirmed else 'no'} |")
        if t[key].empty:
            lines.append("| (none followed up) | | | | | |")
        lines.append("")
    lines += ["The heat map (`combos.png`) shows every pair's estimate: the confirmation's where the pair was "
              "followed up, else the screen's (its interval over seeds only: the screen ranks, it does not decide). "
              "`pairs.parquet` holds every figure; `runs.jsonl` every run with its four decks' plans.", ""]
    return "\n".join(lines)


def _waves(settings: Settings, rows: list[dict]) -> str:
    """How deep each table's follow-ups went, in waves of `confirm` pairs."""
    from hoc.research.combos.screen import counted

    if not settings.confirm:
        return "No pair followed up (`--confirm 0`)."
    depth = analysis.depths(settings, rows)
    shown = ", ".join(f"{name} {counted(depth[t] // settings.confirm, 'wave')}" for t, name in analysis.TABLES.items()
                      if t != "counters" or "across" in _families(settings))
    return (f"Followed up in waves of {settings.confirm} pairs a table, at most {settings.waves}, a table's next "
            f"wave unless its last showed the ranking ran dry (under half of it confirmed, the whole 95% "
            f"interval): {shown}.")


def _cost(rows: list[dict]) -> str:
    """The runs' core time in all sessions, from the runs that record it (older folders' do not)."""
    timed = [r["seconds"] for r in rows if "seconds" in r]
    if not timed:
        return ""
    share = "" if len(timed) == len(rows) else f" of the {len(timed)} runs that record it"
    return f" ({sum(timed) / 60:.1f} min of one core's time{share})"


def _reading(settings: Settings, frame: pd.DataFrame) -> str:
    """What 'no interaction' is in this screen's figures: each family's background, or 0 where the
    screen has too few of its figures to estimate it."""
    parts = []
    for f in _families(settings):
        name = "same seat" if f == "same" else "across seats"
        centre, se, count = _background(frame, f)
        if count < analysis.BACKGROUND_LEAST:
            parts.append(f"{name} 0 ({int(count)} figures are too few to estimate it: at least "
                         f"{analysis.BACKGROUND_LEAST})")
        else:
            parts.append(f"{name} {100 * centre:+.1f} points (standard error {100 * se:.1f})")
    return ("Every figure is beyond the screen's typical pair, the median of its screen figures: "
            f"{'; '.join(parts)}. A pair is confirmed when it differs from that, so a lean of the measure as a "
            "whole (under `built` a deck made to own two kinds gives up buys and plays to them) is not read as "
            "every pair blunting the other; `pairs.parquet` keeps the raw means (`same_confirm_raw`).")


def _how(settings: Settings, rows: list[dict]) -> str:
    """What the screen's measure searches and plays, and against which yardstick."""
    def yardstick(field):
        return next((f"`{r[field]}`" for r in rows if r.get(field)), f"`{settings.yardstick}`")
    if settings.measure == "offered":
        return _OFFERED + yardstick("yardstick") + "."
    built = _BUILT.format(copies=_copies(settings), knockouts=_KNOCKOUTS[settings.knockouts]) + yardstick("yardstick") + "."
    if settings.measure == "built":
        return built + " Across seats is not measured under it (see `--measure offered`)."
    if settings.across == "built":
        return (f"The `combined` measure with `--across built`: the same seat as `built`. {built} Across seats, the "
                f"decks built on each kind (owning at least {_copies(settings)} of it) and "
                f"the baseline against {yardstick('across_yardstick')}, with the responses to them that use no "
                "kind of the pair and the responses to the baseline that may use the kind, are searched once per "
                "kind (`decks.jsonl`); each run of a pair searches the responses to A's deck that may use B and to "
                "B's that may use A, and measures every matchup on its own seeds; B's counter to A is how much more "
                "B helps the responses against A's deck than "
                "against the baseline, on the log-odds scale (negative: B counters A; the shares are "
                "`across_r_RESPONSE_TARGET` in `runs.jsonl`); a pair followed up runs again for the table that "
                "chose it.")
    return (f"The `combined` measure: the same seat as `built`, across seats as `offered`. {built} Across seats, each "
            "run also searches the decks that may use A only, B only and neither (the strongest found) against "
            f"{yardstick('across_yardstick')}, and the responses to each kind's deck; a pair followed up runs again "
            "for the table that chose it.")


_OFFERED = ("Each run searches four decks (may use both kinds, A only, B only, neither) in a market of the pair and "
            "eight random kinds, against the yardstick ")
_BUILT = ("The `built` measure: each run searches, in a market of the pair and eight random kinds, the strongest deck "
          "owning at least {copies} of each kind of the pair at the end (on average), and plays it as it is, "
          "without B, without A and without either ({knockouts}), against the baseline (the strongest deck found that uses neither "
          "kind): what the kinds add to each other in a deck built on them, not what offering them adds to the best "
          "deck (`--measure offered`). The figure is the share of the deck with both beyond what its knock-outs predict "
          "when the kinds' effects add on the log-odds scale (`same_additive` in `runs.jsonl`: the share-scale "
          "v(both) - v(A) - v(B) + v(neither)). Searches against the yardstick ")


_KNOCKOUTS = {"idle": "the barred kinds' rules idle, `--knockouts idle`",
              "repaired": "the hole each barred kind leaves filled by a card sweep against the yardstick, "
                          "`--knockouts repaired`"}


def _copies(settings: Settings) -> str:
    return f"{settings.copies:g} cop{'y' if settings.copies == 1 else 'ies'}"


def heat_map(settings: Settings, frame: pd.DataFrame, path: Path) -> None:
    """Two kinds x kinds maps: the same-seat interaction (left, symmetric) and across seats (right:
    the row's deck against responses that may use the column's kind; not under `built`); confirmed
    pairs boxed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = list(settings.kinds)
    n = len(kinds)
    size = max(5.0, 0.3 * n + 2.5)
    maps = [("same", "same seat (blue: combo)"), ("across", "across seats: row's deck against the column's kind")]
    maps = [m for m in maps if m[0] in _families(settings)]        # built measures no across-seat figure
    fig, axes = plt.subplots(1, len(maps), figsize=(len(maps) * size + 2, size + 0.6), squeeze=False)
    for ax, (family, title) in zip(axes[0], maps):
        grid = np.full((n, n), np.nan)
        boxed = []
        for r in analysis.estimate(frame, family).itertuples():
            i, j = kinds.index(r.a), kinds.index(r.b)
            cells = [(i, j), (j, i)] if family == "same" else [(i, j)]
            for cell in cells:
                grid[cell] = 100 * r.estimate
                if r.confirmed:
                    boxed.append(cell)
        top = float(np.nanmax(np.abs(grid))) if np.isfinite(grid).any() else 1.0
        im = ax.imshow(grid, cmap="RdBu", vmin=-max(top, 1e-9), vmax=max(top, 1e-9))
        for i, j in boxed:
            ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, lw=1.8, ec="black"))
        ax.set_xticks(range(n), kinds, rotation=90, fontsize=7)
        ax.set_yticks(range(n), kinds, fontsize=7)
        ax.set_title(title, fontsize=9)
        fig.colorbar(im, ax=ax, shrink=0.7, label="points (boxed: confirmed)")
    fig.suptitle(f"{settings.game}: pair interactions, {settings.context} context, {settings.measure} measure", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plans(settings: Settings, frame: pd.DataFrame, rows: list[dict], folder: Path) -> None:
    """The decks of every confirmed pair's first confirmation run of each kind (the four conditions'
    decks; under `built` the baseline they played; under `combined` the across-seat run's decks,
    `across_*`), as agent files."""
    confirmed = frame[frame["same_confirmed"] | frame["cross_a_confirmed"] | frame["cross_b_confirmed"]]
    for stale in folder.glob("*+*_*.toml"):     # a pair confirmed in an earlier rendering, no longer
        stale.unlink()
    if confirmed.empty:
        return
    folder.mkdir(exist_ok=True)
    for a, b in zip(confirmed["a"], confirmed["b"]):
        firsts = {}
        for r in rows:
            if r["stage"] != SCREEN and r["a"] == a and r["b"] == b:
                firsts.setdefault(r["stage"], r)
        for run in firsts.values():
            for field, text in run.items():
                if field.startswith(("plan_", "across_plan_")) and text:
                    name = field.replace("plan_", "").replace("reference", "baseline")   # `built`: the deck the four played
                    (folder / f"{a}+{b}_{name}.toml").write_text(text, encoding="utf-8")
