"""What `hoc learn` reports: the learner's evaluation against fixed benchmark agents after each
generation, the learning curve (CSV and PNG) and the run's summary (`summary.md`, with the command
that reproduces it). The training itself is `hoc.agents.learn.train`."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from hoc.research.stats import wilson

EVAL_SEED = 9_001        # the evaluation's games: the same seeds after every generation (common random numbers)


def evaluate(ruleset, policy: str, benchmarks, games: int, seed: int, jobs: int) -> dict:
    """The policy's win rate against each benchmark (as `hoc simulate` counts an agent's wins), seats
    rotated, with 95% Wilson intervals: {name: rate, 'name lo': lo, 'name hi': hi}."""
    from hoc.agents.registry import get
    from hoc.research.simulate import simulate

    out: dict = {}
    if games <= 0:
        return out
    learner = get(policy)
    for name in benchmarks:
        agents = [learner] + [get(name)] * (ruleset.players - 1)
        run = simulate(ruleset, agents, games, seed=EVAL_SEED + seed, jobs=jobs, rotate=True, announce=False)
        df = run.games
        wins = _wins(df, learner.name, ruleset.players)
        lo, hi = wilson(wins, len(df))
        out[name], out[f"{name} lo"], out[f"{name} hi"] = round(wins / len(df), 4), round(lo, 4), round(hi, 4)
    return out


def _wins(df: pd.DataFrame, name: str, players: int) -> int:
    """Games whose winner is the seat the agent `name` played."""
    w = df["winner"].to_numpy()
    return sum(int(((df[f"agent_{j}"].astype(str).to_numpy() == name) & (w == j)).sum()) for j in range(players))


def curve_line(row: dict, benchmarks) -> str:
    parts = [f"generation {row['generation']}: {row['steps']:,} PPO decisions, {row['minutes']:.1f} min"]
    for name in benchmarks:
        if name in row:
            parts.append(f"{name} {100 * row[name]:.1f}% [{100 * row[name + ' lo']:.1f}, {100 * row[name + ' hi']:.1f}]")
    return "; ".join(parts)


def write_outputs(out: Path, options, progress, command: str) -> None:
    from hoc.research.plots import learning_curve

    curve = pd.DataFrame(progress.curve)
    curve.to_csv(out / "curve.csv", index=False)
    if len(curve) and any(b in curve for b in options.benchmarks):
        learning_curve(curve, options.benchmarks, out / "curve.png",
                       title=f"hoc learn: {options.players} players, {options.market} markets")
    last = progress.curve[-1] if progress.curve else {}
    lines = [f"# hoc learn: {options.players} players, {options.market} markets", "",
             f"Reproduce: `hoc learn {command}`" if command else "", "",
             f"- generations: {progress.generation}; PPO decisions: {progress.steps:,}; training games: "
             f"{progress.games:,}; training time: {progress.seconds / 60:.1f} min"
             + (f" ({progress.wall / 60:.1f} min of wall clock with the evaluations)" if progress.wall else ""),
             f"- teacher: {options.teacher}" + (
                 f"; imitation: {progress.imitation.get('samples', 0):,} decisions of "
                 f"{progress.imitation.get('games', 0):,} games, held-out agreement "
                 f"{100 * progress.imitation.get('agreement', 0):.1f}%" if progress.imitation else " (no imitation)"),
             f"- league: {', '.join(options.opponents)}" + ("; and the learner's own snapshots" if options.selves else ""),
             "", f"Win rate of the latest policy ({options.eval_games:,} games per benchmark, seats rotated, "
             "95% Wilson intervals; the same seeds every generation):", ""]
    for name in options.benchmarks:
        if name in last:
            lines.append(f"- {name}: {100 * last[name]:.1f}% [{100 * last[name + ' lo']:.1f}, "
                         f"{100 * last[name + ' hi']:.1f}]")
    lines += ["", "Files: `policy.npz` (the weights: `hoc simulate --agents policy.npz,...`), `curve.csv`, "
              "`curve.png`, `checkpoint.pt` (resume: the same command), `league/` (the snapshots)."]
    (out / "summary.md").write_text("\n".join(lines) + "\n")
