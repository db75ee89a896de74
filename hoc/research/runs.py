"""Carrying out a plan for the command line: chunks from the backend, written to Parquet as they
finish, handed in game order to the statistics that are being added up, with a progress bar (on a terminal). A
run started again with the same plan and output skips the chunks already written (reading them
back for the statistics), so it ends with exactly the games of an uninterrupted run."""
from __future__ import annotations

import time
from typing import Callable, Iterable

import pandas as pd

from hoc.errors import HocError
from hoc.research.engine import Timing, Warmup
from hoc.research.harness import Backend, Chunk, Plan, play, ready
from hoc.research.store import ParquetStore


def execute(plan: Plan, backend: Backend, out: str | None = None,
            consumers: Iterable[Callable[[pd.DataFrame], None]] = (), progress: bool = True,
            stop: Callable[[], bool] | None = None, announce: bool | None = None) -> Timing:
    """Play the plan; returns its wall time, playing apart from getting the engine ready (with
    `progress`, a progress line and a compile announced on stderr; `announce` apart from it). Each consumer gets every chunk's games in game
    order; after each chunk, `stop()` may end the run early (a sequential test that has decided)."""
    from hoc.research.progress import bar as progress_bar

    store = ParquetStore(out, plan) if out is not None else None
    done = store.done() if store else set()
    consumers = list(consumers)
    resumed = sum(plan.chunk_games(s) for s in done)
    warmup = ready(plan, backend, announce=progress if announce is None else announce) if resumed < plan.games else Warmup()
    workers = Warmup()          # the slowest worker's warm-up: the part of the wall time it took
    t0 = time.perf_counter()
    bar = progress_bar(plan.games, "resumed" if resumed else "playing", "games", progress, initial=resumed,
                       unit_scale=True)
    new = play(plan, backend, skip=done)
    try:
        for first, n in plan.chunks():
            if first in done:
                games = store.read(first)
            else:
                chunk: Chunk = next(new)
                assert chunk.first == first
                if chunk.warmup.seconds > workers.seconds:
                    workers = chunk.warmup
                if store:
                    store.write(chunk)
                games = chunk.games
                bar.update(n)
            for consume in consumers:
                consume(games)
            if stop is not None and stop():
                break
    finally:
        bar.close()
        new.close()
    return Timing(time.perf_counter() - t0 - workers.seconds, warmup + workers)


# a study keeps the columns it needs of every game: about 30 to 100 bytes a game, and copies of them
# while the plans' frames are joined
STUDY_BYTES_PER_GAME = 300


def check_memory(games: int) -> None:
    """Refuse, before playing, a study whose games could not all be kept in this machine's memory."""
    import psutil

    total = psutil.virtual_memory().total
    if games * STUDY_BYTES_PER_GAME > total:
        raise HocError(f"this study keeps its {games:,} games in memory (about {STUDY_BYTES_PER_GAME} bytes each, "
                       f"{games * STUDY_BYTES_PER_GAME / 2 ** 30:,.0f} GB), more than the {total / 2 ** 30:.0f} GB "
                       f"of this machine: play fewer games (`hoc simulate --out` streams any number to disk)")


class LengthTally:
    """Games per (end reason, turns), added up chunk by chunk: what a game-length histogram needs,
    in memory that does not grow with the number of games."""

    def __init__(self):
        self.counts: pd.Series | None = None

    def add(self, df: pd.DataFrame) -> None:
        counts = df.groupby(["end_reason", "turns"], observed=True).size()
        self.counts = counts if self.counts is None else self.counts.add(counts, fill_value=0)

    def frame(self) -> pd.DataFrame:
        """Columns end_reason, turns, games (the number of games of that length and end)."""
        df = self.counts.astype("int64").rename("games").reset_index()
        return df[df.games > 0].reset_index(drop=True)
