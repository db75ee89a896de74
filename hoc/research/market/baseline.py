"""The random baseline: the figures of random supplies (`random --seed 0, 1, ...`), computed once and
kept, one JSON line per supply in `<folder>/<game>/<players>p.jsonl` (the committed one is
`results/market_baseline/`). A line records the budget it was measured with; a report is placed only
against lines of its own budget. `extend` adds the supplies not there yet, a line as each finishes,
so an interrupted run goes on where it stopped.
"""
from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

from hoc.agents.plan_space import revision
from hoc.errors import HocError
from hoc.games import get

FOLDER = Path("results/market_baseline")


def path_of(folder: str | Path, game: str, players: int) -> Path:
    return Path(folder) / game / f"{players}p.jsonl"


def load(folder: str | Path, game: str, players: int, budget) -> list[dict]:
    """The baseline's supplies measured with `budget` and plans that play as today's (others are kept
    but not used)."""
    path = path_of(folder, game, players)
    if not path.exists():
        return []
    plans = revision(get(game)).get("plans")        # how the game's plans play today (None: the first revision)
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            raise HocError(f"{path}, line {n}: not a line of a market baseline; remove it to go on") from None
        if row.get("budget") == budget.identity() and row.get("plans") == plans:
            out.append(row)
    return out


def extend(folder: str | Path, game: str, players: int, supplies: int, budget, backend, edition: str = "2e",
           progress=print) -> list[dict]:
    """Measure random supplies seed 0 to supplies - 1 that the baseline lacks; the whole baseline."""
    import dataclasses

    from hoc.research.market import market, random_supply, ruleset_of

    path = path_of(folder, game, players)
    path.parent.mkdir(parents=True, exist_ok=True)
    have = {row["seed"] for row in load(folder, game, players, budget)}
    todo = [s for s in range(supplies) if s not in have]
    progress(f"{len(have)} random supplies in {path} with this budget; {len(todo)} to measure")
    began = time.perf_counter()
    for k, s in enumerate(todo):
        supply = random_supply(game, s, players, edition)
        ruleset = ruleset_of(game, supply, players, edition)
        with tempfile.TemporaryDirectory(prefix="hoc_market_") as work:
            report = market(ruleset, dataclasses.replace(budget, seed=s), work, backend,
                            f"--game {game} random --seed {s}", progress=lambda line: None)
        row = {"seed": s, "supply": list(supply), "budget": budget.identity(), **revision(get(game)),
               "figures": report["figures"], "seconds": report["seconds"]}
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
            f.flush()
            os.fsync(f.fileno())
        per = (time.perf_counter() - began) / (k + 1)
        progress(f"supply {s} ({', '.join(supply)}): {report['seconds']:.0f} s; {k + 1}/{len(todo)} done, "
                 f"about {per * (len(todo) - k - 1) / 60:.0f} min left")
    return load(folder, game, players, budget)

