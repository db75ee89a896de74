"""What a tuning run leaves in its folder: `best.toml` (an agent file every command accepts),
`history.jsonl` (one record per generation: the champion, its win rate against each opponent and
its plan), `learning_curve.png`, and `summary.md` with the final validation and the command that
reproduces the run; and that validation: the plan against each opponent on fresh seeds."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from hoc.agents.registry import Agent, from_file
from hoc.games.heart_of_crown.presets import RECOMMENDED
from hoc.research.harness import Backend
from hoc.games.heart_of_crown.rules import Ruleset


def validate(ruleset: Ruleset, plan_file: Path, opponents: list[Agent], games: int, seed: int,
             backend: Backend) -> pd.DataFrame:
    """The plan (read back from its file, as every command reads it) against each opponent: `games`
    games (rounded up to a multiple of the players), each seed played once with the plan in every
    seat and the opponent in the others. Columns opponent, games, wins (a win shared by k seats counts
    1/k, as `hoc simulate`'s score), rate, lo, hi (95%, `stats.share_interval`),
    fair (1 / players) and beats (lo above fair)."""
    from hoc.research.harness import Plan as Games, chunk_size, play
    from hoc.agents.tune.evaluate import share
    from hoc.research.stats import share_interval

    best = from_file(plan_file)
    p = ruleset.players
    n = math.ceil(games / p) * p
    rows = []
    for opponent in opponents:
        plan = Games(ruleset, [best] + [opponent] * (p - 1), n, seed, mirror=True, chunk=chunk_size(n))
        wins = 0
        for chunk in play(plan, backend):
            df = chunk.games
            seat = (-df["game"].to_numpy()) % p          # seat j is played by lineup[(j + game) % p]
            wins += float(share(df["win_mask"].to_numpy(), seat).sum())
        lo, hi = share_interval(wins, n)
        rows.append({"opponent": opponent.name, "games": n, "wins": wins, "rate": wins / n, "lo": lo, "hi": hi,
                     "fair": 1 / p, "beats": lo > 1 / p})
    return pd.DataFrame(rows)


def write_history(history: list[dict], out: Path) -> Path:
    path = out / "history.jsonl"
    tmp = out / "history.jsonl.tmp"
    tmp.write_text("".join(json.dumps(h) + "\n" for h in history), encoding="utf-8")
    tmp.replace(path)
    return path


def read_history(out: Path) -> pd.DataFrame:
    return pd.read_json(out / "history.jsonl", lines=True)


def learning_curve(history: list[dict], path: Path, title: str) -> Path:
    """The champion's win rate per generation against the command's opponents (pooled, with its 95%
    interval) and against its hardest one, over the games played."""
    from matplotlib.figure import Figure

    from hoc.research.plots import _save

    h = pd.DataFrame(history)
    x = h["games"] / 1e6
    fig = Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.add_subplot()
    ax.fill_between(x, h["lo"], h["hi"], alpha=0.25, color="C0", linewidth=0)
    ax.plot(x, h["win_rate"], color="C0", marker="." if len(h) < 60 else None,
            label="champion against the opponents (pooled, 95% interval)")
    ax.fill_between(x, h["worst_lo"], h["worst_hi"], alpha=0.15, color="C3", linewidth=0)
    ax.plot(x, h["worst_rate"], color="C3", linestyle="--", label="against its hardest opponent (95% interval)")
    ax.axhline(h["fair"].iat[0], color="grey", linewidth=0.8, label="even")
    ax.set_ylim(0, 1)
    ax.set_xlabel("games played (millions)")
    ax.set_ylabel("win rate in its generation")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    return _save(fig, path)


def _pct(rate, lo, hi) -> str:
    return f"{100 * rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def summary(out: Path, settings, state, best, validation: pd.DataFrame, playoff: dict, command: str,
            exact: str | None, validation_seed: int) -> Path:
    """summary.md: the settings, the search, the final validation and the command that reproduces it
    (`exact`: the same with a budget in games, for a run whose budget was in minutes)."""
    rs = settings.ruleset
    d = rs.describe()
    market = d["market"] + (f" ({', '.join(d['market_kinds'])})" if d["market"] in RECOMMENDED else "")
    fair = 1 / rs.players
    beaten = int(validation["beats"].sum())
    lines = [
        "# hoc tune", "",
        f"Plan: `best.toml` ({len(best.buy)} buy rules; backs {', '.join(best.prefer) or 'in pool order'} first).", "",
        "## Settings", "",
        f"- edition {rs.edition}, {rs.players} players, market {market}"
        + (f", always offering {', '.join(rs.market_with)}" if rs.market_with else "")
        + (f"; card changes {', '.join(rs.overrides)}" if rs.overrides else "")
        + (f"; banned for the plan: {', '.join(settings.ban)}" if settings.ban else ""),
        f"- princess to back first: {settings.princess or 'any'}; started from "
        f"{'a given plan' if settings.start else 'nothing (random plans)'}",
        f"- opponents: {', '.join(a.name for a in settings.opponents)}, and the hall of fame "
        f"(up to {settings.hall_size} earlier champions)",
        f"- seed {settings.seed}; population {settings.population}, elites {settings.elites}, "
        f"CMA-ES proposals {settings.proposals}, first race round {settings.first_seeds} seeds per opponent", "",
        "## Search", "",
        f"- {state.generation} generations, {state.games:,} games in {state.seconds:.0f} s "
        f"({state.games / max(state.seconds, 1e-9):,.0f} games/s), {len(state.hall)} champions in the hall of fame",
        f"- playoff of the last champions: {playoff.get('finalists', 1)} plans, {playoff.get('games', 0):,} games",
        "- the learning curve: `learning_curve.png`; every generation: `history.jsonl`", "",
        "## Final validation", "",
        f"{int(validation['games'].iat[0]):,} games per opponent on fresh seeds (run seed {validation_seed}), "
        f"each seed played with the plan in every seat; a win shared by k seats counts 1/k; 95% Wilson intervals "
        f"of that score. The plan beats "
        f"{beaten} of {len(validation)} opponents (interval above {100 * fair:.0f}%).", "",
        "| opponent | games | win rate [95% interval] | beats it |",
        "| --- | ---: | ---: | :---: |",
    ]
    for r in validation.itertuples():
        lines.append(f"| {r.opponent} | {r.games:,} | {_pct(r.rate, r.lo, r.hi)} | {'yes' if r.beats else 'no'} |")
    lines += ["", "## Reproduce", "", "```bash", command, "```", ""]
    if exact:
        lines += ["A budget in minutes depends on the machine; this budget in games replays exactly the same "
                  "generations:", "", "```bash", exact, "```", ""]
    path = out / "summary.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
