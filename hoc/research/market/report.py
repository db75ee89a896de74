"""A supply's report (`hoc.research.market.market`) in words (Markdown) and as one figure (PNG)."""
from __future__ import annotations

import math
from pathlib import Path

from hoc.research.market.percentiles import FIGURES


def _pct(r: float, lo: float, hi: float) -> str:
    return f"{100 * r:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _place(p: dict) -> str:
    if p is None or p["percentile"] is None:
        return "no baseline"
    return f"{p['percentile']:.0f} [{p['lo']:.0f}, {p['hi']:.0f}]"


def markdown(r: dict) -> str:
    word = r["market_word"]
    v, d, pl = r["viable"], r["dominant"], r["percentiles"]
    n = r["baseline"]["supplies"]
    lines = [f"# {r['title']}, {r['players']} players: the {word} {r['label']}", "",
             f"Kinds: {', '.join(r['supply'])}.", "",
             f"Reproduce: `hoc market {r['command']}` ({r['seconds'] / 60:.1f} min).", "",
             "Every figure has its 95% interval; its percentile places it among "
             + (f"{n} random {word}s measured with the same budget (`hoc market --baseline`; the percentile moves "
                f"in steps of {100 / n:.1f} points, its interval is Wilson's over those {word}s)."
                if n else f"random {word}s, but no baseline of this budget was found (`hoc market --baseline N`)."),
             "", "## Decks", "",
             f"The strategy atlas found {v['elites']} elites; {v['viable']} are viable and they make "
             f"{v['distinct']} distinct deck{'s' if v['distinct'] != 1 else ''} ({v['rule']}). The best: "
             f"{_pct(v['best']['fitness'], v['best']['lo'], v['best']['hi'])} of the wins against the panel "
             f"({', '.join(r['panel'])}) on fresh seeds.", "",
             "| deck | plan | against the panel | owns (copies at the end) |", "|---|---|---|---|"]
    for k, deck in enumerate(r["decks"]):
        owns = ", ".join(f"{kind} {c:.1f}" for kind, c in deck["owns"].items()) or f"nothing of the {word}"
        lines.append(f"| {k + 1} | {deck['plan']} | {_pct(deck['fitness'], deck['lo'], deck['hi'])} | {owns} |")
    m = r["round_robin"]
    games = next(c["games"] for row in m for c in row if c)
    lines += ["", f"Round robin ({games} games per ordered pair on common seeds, each seed with the row's deck in "
                  f"every seat): the row deck's share of the wins against the column deck.", "",
              "| | " + " | ".join(f"deck {j + 1}" for j in range(len(m))) + " |", "|---|" + "---|" * len(m)]
    for i, row in enumerate(m):
        lines.append(f"| deck {i + 1} | " + " | ".join("" if c is None else _pct(c["rate"], c["lo"], c["hi"])
                                                       for c in row) + " |")
    lines += ["", (f"**Deck {d['index'] + 1} dominates**: it {d['rule']}." if d["deck"] is not None else
                   f"No deck dominates (none {d['rule']})."), ""]
    fs, ln = r["first_seat"], r["length"]
    lines += ["## The game", "",
              f"- First seat's edge: {100 * fs['edge']:+.1f} points [{100 * fs['lo']:+.1f}, {100 * fs['hi']:+.1f}] "
              f"({fs['how']}).",
              f"- Length: {ln['turns']:.1f} turns each [{ln['lo']:.1f}, {ln['hi']:.1f}] ({ln['how']}).", ""]
    if r.get("princesses"):
        lines += ["## Princesses", "",
                  "Each princess played by her best plan on this supply (the best of the top decks and the "
                  "library's start plans, each backing her; chosen on seeds of their own, then measured again on "
                  "fresh seeds): her share of the wins against the panel.", "",
                  "| princess | win rate | best plan |", "|---|---|---|"]
        for p in r["princesses"]:
            lines.append(f"| {p['princess']} | {_pct(p['rate'], p['lo'], p['hi'])} | {p['plan']} |")
        lines.append("")
    k = r["kinds"]
    lines += ["## Kinds", "",
              "Owned by the viable decks (share of the viable elites owning it, mean copies at the end): "
              + (", ".join(f"{kind} {100 * x['share']:.0f}% ({x['copies']:.1f})"
                           for kind, x in k["owned_by_viable"].items()) or "none") + ".", "",
              f"Bought by no viable deck: {', '.join(k['unbought']) or 'none'}"
              + (f" (by no elite at all: {', '.join(k['owned_by_no_elite'])})" if k["owned_by_no_elite"] else "")
              + ".", "",
              "## Against random " + word + "s", "",
              "| figure | value | percentile [95%] | what |", "|---|---|---|---|"]
    for name, value in r["figures"].items():
        shown = f"{value:.3g}" if isinstance(value, float) else str(value)
        lines.append(f"| {name} | {shown} | {_place(pl.get(name))} | {FIGURES[name]} |")
    return "\n".join(lines) + "\n"


def plot(r: dict, path: str | Path) -> None:
    """The round robin as a heat map, the princesses (or the kinds owned) as bars, and the figures'
    percentiles."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8))
    m = r["round_robin"]
    n = len(m)
    grid = np.array([[np.nan if c is None else 100 * c["rate"] for c in row] for row in m])
    ax = axes[0]
    im = ax.imshow(grid, cmap="RdBu_r", vmin=0, vmax=100)
    for i in range(n):
        for j in range(n):
            if m[i][j]:
                ax.text(j, i, f"{grid[i, j]:.0f}", ha="center", va="center", fontsize=9)
    ax.set_xticks(range(n), [f"deck {j + 1}" for j in range(n)])
    ax.set_yticks(range(n), [f"deck {i + 1}" for i in range(n)])
    ax.set_title("row deck's share of the wins (%)", fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.046)
    ax = axes[1]
    if r.get("princesses"):
        rows = r["princesses"]
        labels = [p["princess"] for p in rows]
        rate = np.array([100 * p["rate"] for p in rows])
        err = np.array([[100 * (p["rate"] - p["lo"]) for p in rows], [100 * (p["hi"] - p["rate"]) for p in rows]])
        ax.barh(labels, rate, xerr=err, color="tab:purple")
        ax.axvline(100 / r["players"], color="grey", lw=0.8)
        ax.invert_yaxis()
        ax.set_xlabel("share of the wins against the panel (%)")
        ax.set_title("each princess by her best plan", fontsize=10)
    else:
        owned = r["kinds"]["owned_by_viable"]
        labels = list(owned) + r["kinds"]["unbought"]
        ax.barh(labels, [100 * owned[k]["share"] if k in owned else 0 for k in labels], color="tab:green")
        ax.invert_yaxis()
        ax.set_xlabel("viable elites owning the kind (%)")
        ax.set_title("kinds the viable decks own", fontsize=10)
    ax = axes[2]
    placed = [(k, p) for k, p in r["percentiles"].items() if p["percentile"] is not None]
    if placed:
        ax.barh([k for k, _ in placed], [p["percentile"] for _, p in placed],
                xerr=np.array([[max(p["percentile"] - p["lo"], 0) for _, p in placed],
                               [max(p["hi"] - p["percentile"], 0) for _, p in placed]]), color="tab:orange")
        ax.set_xlim(0, 100)
        ax.axvline(50, color="grey", lw=0.8)
        ax.invert_yaxis()
        ax.set_xlabel(f"percentile among {r['baseline']['supplies']} random {r['market_word']}s")
    else:
        ax.text(0.5, 0.5, "no baseline of this budget", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
    ax.set_title("against random supplies", fontsize=10)
    fig.suptitle(f"{r['title']}, {r['players']} players: {r['label']}", fontsize=11)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def finite(x):
    """A report made JSON-safe: NaN (an interval of too few seeds) as null."""
    if isinstance(x, float):
        return None if math.isnan(x) or math.isinf(x) else x
    if isinstance(x, dict):
        return {k: finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite(v) for v in x]
    return x
