"""The atlas written out (`hoc atlas --out DIR`): every elite as a plan file (`DIR/plans/`) that every
command plays by path, `DIR/elites.parquet` (one row per elite: its plan file, descriptors, the
search's fitness, the fitness measured again on fresh seeds with its interval, its mean copies of
each market kind at the end, and whether the polish found it), a heat map of the re-measured
fitness over the two descriptors (`DIR/atlas.png`), `DIR/summary.md` with the command that
reproduces it, and the elites' points of the game's plan space (`DIR/points.npy`, in the frame's
order).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from hoc.agents.plan_space import descriptor

MARGIN = 0.05       # an elite is viable when its re-measured interval reaches within 5 points of the best's


def elites_frame(settings, data: dict, measured, folder: Path, command: str) -> pd.DataFrame:
    """One row per elite, best re-measured fitness first; writes each elite's plan file."""
    space = settings.space
    plans = folder / "plans"
    plans.mkdir(parents=True, exist_ok=True)
    for old in plans.glob("elite_*.toml"):      # a rerun's elites replace the last ones
        old.unlink()
    order = np.argsort(-measured.fitness, kind="stable")
    rows = []
    for rank, i in enumerate(order):
        lo, hi = measured.interval(i)
        d = {name: float(measured.descriptors[i, k]) for k, name in enumerate(settings.descriptors)}
        path = plans / f"elite_{rank:03d}.toml"
        header = (f"An elite of the strategy atlas: `hoc atlas {command}` (rank {rank} of {len(order)}).\n"
                  f"Against the panel ({', '.join(a.name for a in settings.panel)}), measured again on "
                  f"{settings.remeasure_seeds} fresh seeds per member, every seat: {100 * measured.fitness[i]:.1f}% "
                  f"[{100 * lo:.1f}, {100 * hi:.1f}] of the wins.\n"
                  + "; ".join(f"{k} {v:.3g}" for k, v in d.items()))
        path.write_text(space.text(data["solution"][i], header), encoding="utf-8")
        row = {"plan": str(path.relative_to(folder)), **d,
               "search_fitness": float(data["objective"][i]), "fitness": float(measured.fitness[i]), "lo": lo, "hi": hi,
               "cell": int(data["index"][i]), "polished": bool(data["polished"][i])}
        for kind, cards in space.kinds.items():
            row[f"owns_{kind}"] = float(measured.copies[i, cards].sum())
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame["viable"] = frame["hi"] >= frame["lo"].iloc[0] - MARGIN
    frame.to_parquet(folder / "elites.parquet", index=False)
    np.save(folder / "points.npy", np.asarray(data["solution"])[order])     # the elites' points, the frame's order
    return frame


def heat_map(settings, frame: pd.DataFrame, path: Path) -> None:
    """The re-measured fitness of each cell's elite over the two descriptors (each elite drawn in the
    cell where the search placed it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    space = settings.space
    a, b = (descriptor(space, d) for d in settings.descriptors)
    res = settings.resolution
    grid = np.full((res, res), np.nan)
    for _, r in frame.iterrows():           # each elite in its cell of the search's archive
        i, j = np.unravel_index(int(r["cell"]), (res, res))
        grid[j, i] = r["fitness"]
    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    im = ax.imshow(100 * grid, origin="lower", extent=(a.low, a.high, b.low, b.high), aspect="auto", cmap="viridis")
    fig.colorbar(im, ax=ax, label="share of the wins against the panel (%), fresh seeds")
    ax.set_xlabel(a.title)
    ax.set_ylabel(b.title)
    rules = space.ruleset.describe()
    ax.set_title(f"{space.ruleset.game.title}, {space.ruleset.game.market_word} {rules.get('market')}: "
                 f"the best deck of each cell", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def summary(settings, search, frame: pd.DataFrame, command: str, seconds: float) -> str:
    """summary.md: what was searched, how, the command, and the best elites with their intervals."""
    space = settings.space
    r = space.ruleset
    rules = r.describe()
    viable = int(frame["viable"].sum())
    kinds = [c for c in frame.columns if c.startswith("owns_")]
    lines = [f"# Strategy atlas: {r.game.title}, {rules.get('players')} players, {r.game.market_word} "
             f"{rules.get('market')}", "",
             f"Reproduce: `hoc atlas {command}`", "",
             f"{search.iteration} iterations, {search.evaluations:,} plans measured in {search.games:,} games "
             f"({search.seconds / 60:.1f} min of search and polish over every session; {seconds / 60:.1f} min "
             f"this session, the re-measurement included); "
             f"{len(frame)} cells of {settings.resolution ** 2} filled.", "", *_polish_line(settings, search, frame),
             f"Fitness: the share of the wins against the panel ({', '.join(a.name for a in settings.panel)}), "
             f"each seed played with the plan in every seat, a shared win counting 1/k. The search measured each plan "
             f"on {settings.seeds} seeds per member; every figure below is measured again on "
             f"{settings.remeasure_seeds} seeds per member that the search never used (95% interval over seeds), "
             f"so a plan that was only lucky in the search does not stand out here.", "",
             "Descriptors, measured from the plan's own games:", ""]
    for d in settings.descriptors:
        desc = descriptor(space, d)
        lines.append(f"- `{d}`: {desc.title} ({desc.low:g} to {desc.high:g}): {desc.why}")
    lines += ["", f"{viable} elite{'s' if viable != 1 else ''} viable (interval reaching within "
              f"{100 * MARGIN:.0f} points of the best's lower bound).", "", "![atlas](atlas.png)", "",
              "| plan | " + " | ".join(settings.descriptors) + " | fitness | search | most owned |",
              "|---|" + "---|" * (len(settings.descriptors) + 3)]
    for _, row in frame.head(15).iterrows():
        owned = sorted(((row[k], k[len("owns_"):]) for k in kinds if row[k] >= 0.5), reverse=True)[:4]
        plan = f"{row['plan']}{' (polished)' if row['polished'] else ''}"
        lines.append(f"| {plan} | " + " | ".join(f"{row[d]:.3g}" for d in settings.descriptors)
                     + f" | {100 * row['fitness']:.1f}% [{100 * row['lo']:.1f}, {100 * row['hi']:.1f}] "
                     f"| {100 * row['search_fitness']:.1f}% | "
                     + (", ".join(f"{k} {n:.1f}" for n, k in owned) or "nothing of the market") + " |")
    return "\n".join(lines) + "\n"


def _polish_line(settings, search, frame: pd.DataFrame) -> list[str]:
    """What the polish did, for the summary (nothing without one)."""
    p = search.polish
    if p is None:
        return []
    from hoc.research.atlas.polish import CHOICE_GAMES, seeds_for

    n = int(frame["polished"].sum())
    return [f"Then the polish (`--polish {settings.polish}`): {len(p.starts)} starts (the best elite, then the "
            f"best owning each kind), each swept card by card and tuned by CMA-ES for {p.iteration} iterations "
            f"against the panel; {n} of the elites came from it, each better than its cell's elite on "
            f"{seeds_for(settings, CHOICE_GAMES)} seeds per member that neither saw (its \"search\" figure is "
            f"from those seeds).", ""]
