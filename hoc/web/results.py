"""A run's or a study's results for the web table: a Parquet run's summary (the figures `hoc
simulate` prints, each rate with its 95% interval) and its charts drawn by `hoc.research.plots`;
a study folder's reports, tables and charts as it wrote them."""
from __future__ import annotations

import io
import math
import threading
from pathlib import Path

from hoc.web.errors import Refused

TIMING = ("games_played", "games_resumed", "wall_seconds", "play_seconds", "games_per_second", "compile_seconds",
          "load_seconds")          # how long the run took: not in a saved run
CHARTS = {"length": "Game length", "winrates": "Win rate by agent", "princesses": "Win rate by princess backed",
          "matrix": "Head-to-head win rate", "sp": "Succession points by own turn"}
SP_SAMPLE = 20                     # games replayed for the SP curves (each is played again in Python)
MAX_TABLE_ROWS = 500
MAX_FILE_BYTES = 20_000_000        # the largest report, chart or data file shown (a table shows its first rows)


def finite(x):
    """JSON-safe: NaN and infinities become None, numpy numbers plain ones, all the way down."""
    if isinstance(x, dict):
        return {str(k): finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite(v) for v in x]
    if hasattr(x, "item") and not isinstance(x, (str, bytes)):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


class Run:
    """A Parquet run folder: its plan (rebuilt from the manifest) and its games."""

    def __init__(self, path: Path, reach):
        import pandas as pd

        from hoc.research.replays import run_plan

        self.path = path
        self.plan, self.manifest = run_plan(path, reach=reach)
        parts = sorted(path.glob("part-*.parquet"))
        if not parts:
            raise Refused(f"{path.name} holds no games yet", 422)
        self.games = pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)
        for col in self.games.columns:          # parts may differ in their categories
            if col.startswith(("agent_", "princess_")) or col in ("end_reason", "market"):
                self.games[col] = self.games[col].astype(str).astype("category")
        self._charts: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def summary(self) -> dict:
        from hoc.research.engine import Timing
        from hoc.research.simulate import Summary

        p = self.plan
        s = Summary(p.ruleset, p.agents, p.seed, p.rotate, shuffle=p.shuffle)
        s.add(self.games)
        result = s.result(Timing(0.0))
        for k in TIMING:
            result.pop(k, None)
        result["charts"] = [k for k in CHARTS if self._offers(k)]
        result["chart_titles"] = CHARTS
        result["engine_version"] = self.manifest.get("engine_version")
        return finite(result)

    def _offers(self, kind: str) -> bool:
        from hoc.games.heart_of_crown.spec import GAME

        hoc = self.plan.ruleset.game is GAME
        if kind == "matrix" or kind == "winrates":
            return len({a.name for a in self.plan.agents}) > 1
        if kind == "princesses":
            return hoc and bool(self.plan.ruleset.describe().get("princesses"))
        if kind == "sp":
            return hoc
        return kind in CHARTS

    def chart(self, kind: str) -> bytes:
        """The chart as PNG bytes (drawn once, then kept)."""
        if kind not in CHARTS:
            raise Refused(f"no chart {kind!r}: the charts are {', '.join(CHARTS)}", 404)
        if not self._offers(kind):
            raise Refused(f"the run in {self.path.name} has no {CHARTS[kind].lower()} chart", 404)
        with self._lock:
            if kind not in self._charts:
                self._charts[kind] = self._draw(kind)
            return self._charts[kind]

    def _draw(self, kind: str) -> bytes:
        from hoc.research import plots, stats

        out, df, n = io.BytesIO(), self.games, len(self.games)
        if kind == "length":
            plots.length_histogram(df, out, title=f"Game length ({n:,} games)")
        elif kind == "matrix":
            plots.winrate_heatmap(stats.pairwise(df), out)
        elif kind == "winrates":
            t = stats.win_rates(df)
            plots.effect_bars(t, "agent", out, f"Win rate by agent ({n:,} games)", "win rate (%)",
                              value="rate")
        elif kind == "princesses":
            plots.princess_bars(stats.princess_table(df), out, even=1 / self.plan.ruleset.players)
        else:
            from hoc.games.heart_of_crown.studies.curves import sp_by_turn

            plots.sp_curves(sp_by_turn(self.plan, SP_SAMPLE), out,
                            title=f"Succession points by own turn (first {min(SP_SAMPLE, n)} games)")
        return out.getvalue()


def study(root, folder: Path) -> dict:
    """A study folder's reports (Markdown), tables (CSV), charts (PNG) and data (JSON), by name
    relative to the server's root; `meta`: the tables that are a meta-game's results (`hoc meta
    --save-matrix`), whose matrix `meta_chart` draws."""
    files = sorted(p for p in folder.iterdir() if p.is_file())
    pick = lambda *suffixes: [root.name(p) for p in files if p.suffix in suffixes]     # noqa: E731
    return {"folder": root.name(folder), "reports": pick(".md"), "tables": pick(".csv"), "charts": pick(".png"),
            "data": pick(".json"), "meta": [root.name(p) for p in files if p.suffix == ".csv" and is_meta(p)],
            "folders": [root.name(p) for p in sorted(folder.iterdir()) if p.is_dir() and not p.name.startswith(".")]}


def table(path: Path) -> dict:
    """A CSV file's columns and its first rows."""
    import pandas as pd

    try:
        df = pd.read_csv(path, nrows=MAX_TABLE_ROWS + 1)
    except (ValueError, OSError) as e:
        raise Refused(f"{path.name} is not a readable table: {e}", 422) from None
    return finite({"columns": [str(c) for c in df.columns], "rows": df.head(MAX_TABLE_ROWS).astype(object).where(
        df.head(MAX_TABLE_ROWS).notna(), None).values.tolist(), "truncated": len(df) > MAX_TABLE_ROWS})


META_COLUMNS = {"players", "lineup", "agent", "count", "seats", "wins", "games"}


def is_meta(path: Path) -> bool:
    """Whether a CSV table has the columns of a meta-game's results (its header alone is read)."""
    import pandas as pd

    try:
        return META_COLUMNS <= set(pd.read_csv(path, nrows=0).columns)
    except (ValueError, OSError):
        return False


def meta_chart(path: Path) -> bytes:
    """The meta-game of a saved results table as `hoc meta --matrix FILE --plot` draws it (at 2
    players the head-to-head matrix beside the Nash and α-Rank bars), without the bootstrap."""
    from hoc.research import meta, plots

    if not is_meta(path):
        raise Refused(f"{path.name} is not a meta-game's results table (`hoc meta --save-matrix`)", 422)
    results = meta.load(path)
    out = io.BytesIO()
    plots.meta_game(meta.analyse(results, reps=0), out, title=f"Meta-game of {path.name} ({results.players} players)")
    return out.getvalue()
