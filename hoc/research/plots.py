"""Plots of game results, one PNG per function.

Each function takes its data and an output path, writes a PNG there (creating missing parent
directories) and returns the path as a `Path` (or, given a binary file object, writes into it and
returns it). Figures are built on `matplotlib.figure.Figure`
without pyplot, so nothing depends on or changes the interactive backend: the functions work
headless, in worker processes and alongside a notebook's own figures.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

DPI = 120


def _save(fig: Figure, path) -> Path:
    if hasattr(path, "write"):          # a binary file object (the web table draws into memory)
        fig.savefig(path, dpi=DPI, format="png")
        return path
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, format="png")
    return path


def _fit(text: str, fig: Figure, share: float = 1.0, fontsize: float = 12.0) -> str:
    """A title wrapped at spaces to fit `share` of the figure's width (about 0.6 em a character), so
    no line is cut at the figure's edge."""
    import textwrap

    width = max(20, int(fig.get_figwidth() * share * 72 / (0.6 * fontsize)))
    return "\n".join(textwrap.fill(line, width, break_on_hyphens=False) for line in text.split("\n"))


def _pct(x: float) -> str:
    return "–" if pd.isna(x) else f"{100 * x:.0f}"


def winrate_heatmap(pairwise_long, path, title: str = "Head-to-head win rate") -> Path:
    """The agent x opponent matrix of `hoc.research.stats.pairwise(...).long` (or the `Pairwise` itself):
    each cell the row agent's win rate against the column agent, annotated with the rate, its 95%
    interval and the games played. Agents are ordered by overall win rate, best at the top."""
    long = getattr(pairwise_long, "long", pairwise_long)
    if long is None or len(long) == 0:
        raise ValueError("no head-to-head results to plot")
    overall = long.groupby("agent")[["wins", "games"]].sum()
    overall["rate"] = overall["wins"] / overall["games"]
    order = overall.reset_index().sort_values(["rate", "agent"], ascending=[False, True])["agent"].tolist()
    order += sorted(set(long["opponent"]) - set(order))

    def grid(col):
        return long.pivot(index="agent", columns="opponent", values=col).reindex(index=order, columns=order)

    rate, lo, hi, games = grid("rate"), grid("lo"), grid("hi"), grid("games")
    n = len(order)
    size = max(4.5, 1.25 * n + 2.5)
    fig = Figure(figsize=(size + 1.2, size), layout="constrained")
    ax = fig.add_subplot()
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#dddddd")
    im = ax.imshow(np.ma.masked_invalid(rate.to_numpy(float)), cmap=cmap, vmin=0, vmax=1)
    fontsize = max(6.0, 11.0 - 0.6 * n)
    for i in range(n):
        for j in range(n):
            r = rate.iat[i, j]
            if pd.isna(r):
                ax.text(j, i, "–", ha="center", va="center", fontsize=fontsize, color="#555555")
                continue
            label = f"{_pct(r)}%\n[{_pct(lo.iat[i, j])}–{_pct(hi.iat[i, j])}]\nn={int(games.iat[i, j])}"
            ax.text(j, i, label, ha="center", va="center", fontsize=fontsize,
                    color="white" if abs(r - 0.5) > 0.3 else "black")
    ax.set_xticks(range(n), order, rotation=35, ha="right")
    ax.set_yticks(range(n), order)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ax.set_title(f"{title}\n(row agent vs column agent, 95% Wilson interval)")
    fig.colorbar(im, ax=ax, shrink=0.8, label="row agent's win rate")
    return _save(fig, path)


def princess_bars(princess_table: pd.DataFrame, path, title: str = "Win rate by princess backed",
                  even: float | None = None) -> Path:
    """Bars of `hoc.research.stats.princess_table` (or any table with princess, backed, wins, rate, lo,
    hi): the win rate of the seats backing each princess with its 95% interval as error bars, the
    number of backing seats above each bar, and a dashed line at the win rate of all seats pooled,
    or at `even` (an even share, 1/players) when given."""
    t = princess_table
    if t is None or len(t) == 0:
        raise ValueError("no princesses to plot")
    x = np.arange(len(t))
    rate = t["rate"].to_numpy(float)
    err = np.vstack([rate - t["lo"].to_numpy(float), t["hi"].to_numpy(float) - rate])
    fig = Figure(figsize=(max(5.0, 0.9 * len(t) + 2.5), 4.5), layout="constrained")
    ax = fig.add_subplot()
    colors = ["#bbbbbb" if p == "none" else "#4c72b0" for p in t["princess"]]
    ax.bar(x, rate, yerr=err, color=colors, capsize=4, ecolor="#333333")
    for xi, r, hi_, n in zip(x, rate, t["hi"].to_numpy(float), t["backed"]):
        ax.text(xi, (hi_ if not np.isnan(hi_) else r) + 0.01, f"n={int(n)}", ha="center", va="bottom", fontsize=8)
    pooled = t["wins"].sum() / t["backed"].sum() if even is None else even
    label = f"all seats ({100 * pooled:.0f}%)" if even is None else f"even share ({100 * even:.1f}%)"
    ax.axhline(pooled, color="#c44e52", linestyle="--", linewidth=1, label=label)
    ax.set_xticks(x, t["princess"], rotation=30, ha="right")
    ax.set_ylabel("win rate of the backing seat")
    ax.set_ylim(0, min(1.0, np.nanmax(t["hi"].to_numpy(float)) + 0.1))
    ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_title(_fit(f"{title} (95% Wilson interval)", fig, 0.8))
    ax.legend(loc="upper right", fontsize=8)
    return _save(fig, path)


def length_histogram(df: pd.DataFrame, path, by_end_reason: bool = True, title: str = "Game length",
                     count: str | None = None) -> Path:
    """Histogram of turns per game (all players' turns) of a games frame, one bar per turn count,
    stacked by end reason when `by_end_reason` (only the reasons that occur). With `count`, each row
    stands for that column's number of games (a tally such as `hoc.research.runs.LengthTally`)."""
    if df is None or len(df) == 0:
        raise ValueError("no games to plot")
    turns = df["turns"].to_numpy(int)
    weights = df[count].to_numpy(float) if count else np.ones(len(turns))
    games = weights.sum()
    mean = (turns * weights).sum() / games
    sd = np.sqrt((weights * (turns - mean) ** 2).sum() / games)
    bins = np.arange(turns.min(), turns.max() + 2) - 0.5
    fig = Figure(figsize=(7.5, 4.5), layout="constrained")
    ax = fig.add_subplot()
    if by_end_reason and "end_reason" in df.columns:
        reasons = df["end_reason"].astype(str).to_numpy()
        names = [r for r in pd.unique(reasons) if (reasons == r).any()]
        if isinstance(df["end_reason"].dtype, pd.CategoricalDtype):
            names = [r for r in df["end_reason"].cat.categories if (reasons == r).any()]
        rows = [reasons == r for r in names]
        labels = [f"{r} ({weights[m].sum():.0f})" for r, m in zip(names, rows)]
        ax.hist([turns[m] for m in rows], bins=bins, weights=[weights[m] for m in rows], stacked=True, label=labels)
        ax.legend(title="end reason", fontsize=8)
    else:
        ax.hist(turns, bins=bins, weights=weights, color="#4c72b0")
    ax.axvline(mean, color="#333333", linestyle="--", linewidth=1)
    ax.set_xlabel("turns per game (all players)")
    ax.set_ylabel("games")
    ax.set_title(_fit(f"{title}: {games:.0f} games, mean {mean:.1f} turns (dashed), sd {sd:.1f}", fig, 0.8))
    return _save(fig, path)


def sp_curves(curves: pd.DataFrame, path, title: str = "Succession points by own turn") -> Path:
    """Lines of mean SP at the end of each own turn, one per agent, from a frame with columns
    agent, turn, sp and optionally lo, hi (drawn as a shaded band)."""
    if curves is None or len(curves) == 0:
        raise ValueError("no SP curves to plot")
    fig = Figure(figsize=(7.5, 4.5), layout="constrained")
    ax = fig.add_subplot()
    band = {"lo", "hi"} <= set(curves.columns)
    for agent, c in curves.groupby("agent", sort=True):
        c = c.sort_values("turn")
        (line,) = ax.plot(c["turn"], c["sp"], marker="o", markersize=3, label=str(agent))
        if band and c[["lo", "hi"]].notna().any().all():
            ax.fill_between(c["turn"], c["lo"], c["hi"], color=line.get_color(), alpha=0.2, linewidth=0)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("own turn")
    ax.set_ylabel("mean succession points at end of turn")
    ax.set_title(_fit(title + (" (band: interval)" if band else ""), fig, 0.8))
    ax.grid(alpha=0.3)
    ax.legend(title="agent", fontsize=8)
    return _save(fig, path)


def effect_bars(table: pd.DataFrame, label: str, path, title: str, xlabel: str, value: str = "diff",
                lo: str = "lo", hi: str = "hi", percent: bool = True, sort: bool = True) -> Path:
    """Horizontal bars of an effect per item (e.g. per market card: win rate of its users minus the
    others) with 95% interval whiskers and a line at zero; largest at the top if `sort`, else the
    table's last row at the top."""
    t = table.dropna(subset=[value])
    t = t.sort_values(value) if sort else t
    if len(t) == 0:
        raise ValueError("no effects to plot")
    scale = 100.0 if percent else 1.0
    v = t[value].to_numpy(float) * scale
    err = np.vstack([v - t[lo].to_numpy(float) * scale, t[hi].to_numpy(float) * scale - v])
    y = np.arange(len(t))
    fig = Figure(figsize=(7.5, max(3.0, 0.28 * len(t) + 1.5)), layout="constrained")
    ax = fig.add_subplot()
    ax.barh(y, v, xerr=err, color=np.where(v >= 0, "#4c72b0", "#c44e52"), capsize=2, ecolor="#333333")
    ax.axvline(0, color="#333333", linewidth=0.8)
    ax.set_yticks(y, t[label].astype(str))
    ax.set_xlabel(xlabel)
    fig.suptitle(_fit(f"{title} (95% interval)", fig))     # over the figure: long bar labels push the axes right
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def _mass_range(meta, order, mass):
    """Whiskers from each α-Rank mass to its bootstrap range, or none without a bootstrap."""
    if meta.stability is None:
        return None
    s = meta.stability.set_index("agent").loc[order]
    return np.vstack([np.clip(mass - s["mass_lo"].to_numpy(), 0, None),
                      np.clip(s["mass_hi"].to_numpy() - mass, 0, None)])


def meta_game(meta, path, title: str = "Meta-game") -> Path:
    """The meta-game of `hoc.research.meta.analyse`: at 2 players the head-to-head matrix (row plan's
    win rate against the column plan, with its 95% Wilson interval) beside bars of each plan's Nash
    equilibrium probability and α-Rank mass (whiskers: the bootstrap's 95% ranges); at 3 and 4
    players the α-Rank masses beside each plan's win rate per seat over all its lineups."""
    ar = meta.alpharank.table().set_index("agent")
    if meta.matrix is not None:
        m = meta.matrix
        order = list(meta.seats["agent"])
        idx = [m.agents.index(a) for a in order]
        n = len(order)
        size = max(4.5, min(11.0, 0.45 * n + 2.5))
        fig = Figure(figsize=(size * 1.6 + 1.0, size), layout="constrained")
        left, right = fig.subplots(1, 2, width_ratios=[1.7, 1])
        rate = m.rate[np.ix_(idx, idx)]
        np.fill_diagonal(rate, np.nan)
        cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#dddddd")
        im = left.imshow(np.ma.masked_invalid(rate), cmap=cmap, vmin=0, vmax=1)
        fontsize = max(4.0, 10.0 - 0.32 * n)
        for i, a in enumerate(idx):
            for j, b in enumerate(idx):
                if i != j:
                    label = f"{_pct(m.rate[a, b])}\n{_pct(m.lo[a, b])}–{_pct(m.hi[a, b])}"
                    left.text(j, i, label, ha="center", va="center", fontsize=fontsize,
                              color="white" if abs(m.rate[a, b] - 0.5) > 0.3 else "black")
        left.set_xticks(range(n), order, rotation=45, ha="right", fontsize=fontsize + 2)
        left.set_yticks(range(n), order, fontsize=fontsize + 2)
        left.set_title(f"row plan's win rate against the column plan, %\n(95% Wilson interval; "
                       f"{int(m.games.max()):,} games per pairing)", fontsize=10)
        fig.colorbar(im, ax=left, shrink=0.7, label="win rate")
        y = np.arange(n)
        nash = dict(zip(meta.nash.agents, meta.nash.mixture))
        p = np.array([nash[a] for a in order])
        if meta.stability is not None:
            s = meta.stability.set_index("agent").loc[order]
            err = np.vstack([np.clip(p - s["p_lo"].to_numpy(), 0, None), np.clip(s["p_hi"].to_numpy() - p, 0, None)])
        else:
            err = None
        right.barh(y - 0.2, p, height=0.4, xerr=err, color="#4c72b0", capsize=2, ecolor="#333333",
                   label="Nash equilibrium probability")
        mass = ar.loc[order, "mass"].to_numpy()
        right.barh(y + 0.2, mass, height=0.4, xerr=_mass_range(meta, order, mass), color="#dd8452", capsize=2,
                   ecolor="#333333", label=f"α-Rank mass (α = {meta.alpharank.alpha:g})")
        right.set_yticks(y, order, fontsize=fontsize + 2)
        right.invert_yaxis()
        right.set_xlim(0, 1)
        # below the bars, never over a plan's bar or name
        right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.06), fontsize=8, frameon=False)
        right.set_title("weight of each plan")
        right.grid(axis="x", alpha=0.3)
    else:
        order = list(ar.index)
        n = len(order)
        fig = Figure(figsize=(11, max(3.5, 0.35 * n + 1.5)), layout="constrained")
        left, right = fig.subplots(1, 2)
        y = np.arange(n)
        mass = ar["mass"].to_numpy()
        left.barh(y, mass, xerr=_mass_range(meta, order, mass), color="#dd8452", capsize=2, ecolor="#333333")
        left.set_yticks(y, order)
        left.invert_yaxis()
        left.set_xlim(0, 1)
        left.set_xlabel(f"α-Rank mass (α = {meta.alpharank.alpha:g}, population {meta.alpharank.population}; "
                        f"whiskers: bootstrap 95% range)")
        left.grid(axis="x", alpha=0.3)
        s = meta.seats.set_index("agent").loc[order]
        r = s["rate"].to_numpy(float)
        right.barh(y, r, xerr=np.vstack([r - s["lo"].to_numpy(float), s["hi"].to_numpy(float) - r]),
                   color="#4c72b0", capsize=2, ecolor="#333333")
        right.axvline(1 / meta.players, color="#c44e52", linestyle="--", linewidth=1,
                      label=f"even share ({100 / meta.players:.0f}%)")
        right.set_yticks(y, [])
        right.invert_yaxis()
        right.set_xlabel("win rate per seat over all its lineups (95% Wilson interval)")
        right.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
        right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize=8, frameon=False)
        right.grid(axis="x", alpha=0.3)
    fig.suptitle(_fit(title, fig))
    return _save(fig, path)


def learning_curve(curve: pd.DataFrame, benchmarks, path, title: str = "Learning curve") -> Path:
    """Win rate of the learner against each benchmark agent after every generation of `hoc learn`,
    with 95% intervals; generation 0 is the network after imitation (`curve`: `curve.csv`)."""
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    x = curve["steps"] / 1e6
    for name in benchmarks:
        if name not in curve:
            continue
        y = curve[name]
        ax.plot(x, 100 * y, marker="o", ms=3, label=name)
        ax.fill_between(x, 100 * curve[f"{name} lo"], 100 * curve[f"{name} hi"], alpha=0.2)
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("PPO decisions (millions; 0: after imitation)")
    ax.set_ylabel("win rate, % (95% interval)")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return _save(fig, path)
