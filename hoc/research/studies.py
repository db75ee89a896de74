"""The research commands: a round robin of agents and its report (princess strength is `hoc.games.heart_of_crown.studies.princess_study`,
the value of market cards under strong play `hoc.games.heart_of_crown.studies.card_value`). Each study is a list of
plans played with the same master seed (common random numbers: the same game index deals the same
market and shuffles in every plan), whose games are kept as a compact frame of the columns the
study needs; the full rows go to Parquet when asked."""
from __future__ import annotations

import dataclasses
import json
import math
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from hoc.agents.registry import Agent
from hoc.research import stats
from hoc.errors import HocError
from hoc.research.harness import Backend, Plan, chunk_size
from hoc.engine.spec import Ruleset
from hoc.research.runs import check_memory, execute
from hoc.research.simulate import concat


def _keep(columns: list[str], into: list[pd.DataFrame]):
    def consume(df: pd.DataFrame) -> None:
        into.append(df[[c for c in df.columns if c in columns or c.rsplit("_", 1)[0] in columns]])
    return consume


def _out(out: str | None, name: str) -> str | None:
    """A study's plans write side by side in one folder: OUT.parquet/NAME.parquet/part-*.parquet."""
    if out is None:
        return None
    top = Path(out)
    if top.suffix != ".parquet":
        raise HocError(f"--out must name a .parquet folder, got {out!r}")
    try:
        top.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise HocError(f"cannot write to {top}: {e.strerror or e}") from None
    return str(top / f"{name}.parquet")


def _play(plans: list[tuple[str, Plan]], columns: list[str], backend: Backend, out: str | None,
          progress: bool, stop=None) -> pd.DataFrame:
    """Play the plans one after the other; `stop(name, plan, games so far)` may end a plan early."""
    if stop is None:                    # a sequential test usually stops far short of its plans' size
        check_memory(sum(plan.games for _, plan in plans))
    from hoc.research.progress import bar as progress_bar, played

    frames = []
    # one progress line for all the plans: its ETA is the whole study's (a plan a sequential test stops
    # early leaves it at less than 100%)
    bar = progress_bar(sum(plan.games for _, plan in plans), "playing", "games", progress, unit_scale=True)
    try:
        for name, plan in plans:
            games: list[pd.DataFrame] = []
            execute(plan, backend, _out(out, name), [_keep(columns, games), lambda df: (bar.update(len(df)), played(len(df)))],
                    progress=False, stop=(lambda: stop(name, plan, games)) if stop else None, announce=progress)
            df = concat(games)
            df.insert(0, "plan", name)
            frames.append(df)
    finally:
        bar.close()
    return _interleave(frames)


def _interleave(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The plans' games as one frame, interleaved (game i of every plan, then game i+1, ...) and
    renumbered: order-dependent statistics such as online ratings then see a mixed stream rather
    than one pairing after another. The seed column still says which game of its plan each is."""
    order = np.concatenate([np.arange(len(f)) * len(frames) + k for k, f in enumerate(frames)])
    df = concat(frames)
    df["plan"] = df["plan"].astype("category")
    df = df.iloc[np.argsort(order, kind="stable")].reset_index(drop=True)
    df["game"] = np.arange(len(df))
    return df


# ---- round robin ----------------------------------------------------------------------------------

@dataclasses.dataclass
class SprtOutcome:
    """Where Wald's test left one pairing: decided (and when) or not. The test is applied after
    every game (after every group of mirrored games with --mirror), so `games` is the exact game
    at which it decided; the tournament's tables count the pairing's games up to there."""

    pairing: str
    agent: str          # the agent whose win probability is tested (the pairing's first)
    opponent: str
    games: int          # games of the pairing counted, draws included
    every: int          # the test was applied after every `every` games
    test: stats.SPRT    # wins and losses are decided games only

    @property
    def decided(self) -> bool:
        return self.test.decision != "continue"

    @property
    def rate(self) -> tuple[float, float, float]:
        """The agent's share of the decided games with its 95% Wilson interval."""
        n = self.test.wins + self.test.losses
        lo, hi = stats.wilson(self.test.wins, n)
        return (self.test.wins / n if n else math.nan, lo, hi)

    def words(self) -> str:
        """The outcome in plain words, with the measured rate."""
        t = self.test
        rate, lo, hi = self.rate
        p0, p1 = f"{100 * t.p0:g}%", f"{100 * t.p1:g}%"
        measured = f"win rate {100 * rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
        if t.decision == "accept_h1":
            verdict = (f"{self.agent} beats {self.opponent}" if t.p0 >= 0.5
                       else f"{self.agent} wins about {p1} against {self.opponent}")
            return f"stopped after {self.games:,} games: {verdict} ({measured}; the test chose {p1} over {p0})"
        if t.decision == "accept_h0":
            return (f"stopped after {self.games:,} games: {self.agent} does not reach {p1} against "
                    f"{self.opponent} ({measured}; the test chose {p0} over {p1})")
        return (f"undecided after all {self.games:,} games: {self.agent} against {self.opponent}, {measured}, "
                f"between {p0} and {p1} for the test")

    def as_dict(self) -> dict:
        rate, lo, hi = self.rate
        return {"pairing": self.pairing, "agent": self.agent, "opponent": self.opponent, "games": self.games,
                "tested_every": self.every, "decided": self.decided, "rate": rate, "lo": lo, "hi": hi,
                "words": self.words(), **dataclasses.asdict(self.test)}


@dataclasses.dataclass
class Tournament:
    games: pd.DataFrame
    rates: pd.DataFrame              # per agent, per seat played
    ratings: pd.DataFrame            # OpenSkill
    pairwise: stats.Pairwise | None  # 2 players
    seats: pd.DataFrame              # per seat
    stopped: dict                    # pairing -> SPRT result when --sprt stopped it early
    sprt: dict = dataclasses.field(default_factory=dict)   # pairing -> SprtOutcome, every pairing (--sprt)


def sprt_scan(df: pd.DataFrame, agent: str, p0: float, p1: float, every: int = 1) -> tuple[int, stats.SPRT]:
    """Apply Wald's test after every `every` games of a pairing's games (in game order): the number
    of games at the first decision, or at the end when undecided, and the test there. A game won by
    `agent` counts as a win, one won by its opponent as a loss (a shared win as both), a draw as
    neither."""
    mine = [(df[f"agent_{j}"] == agent).to_numpy() for j in range(2)]
    wins = np.cumsum(sum((stats.won(df, j) & mine[j]).astype(np.int64) for j in range(2)))
    losses = np.cumsum(sum((stats.won(df, j) & ~mine[j]).astype(np.int64) for j in range(2)))
    bounds = stats.sprt(0, 0, p0, p1)
    # the same log-likelihood ratio as stats.sprt, for every prefix of the games at once
    llr = wins * math.log(p1 / p0) + losses * math.log((1 - p1) / (1 - p0))
    at = np.arange(1, len(df) + 1)
    crossed = np.flatnonzero(((llr >= bounds.upper) | (llr <= bounds.lower)) & (at % every == 0))
    n = int(at[crossed[0]]) if len(crossed) else len(df)
    return n, stats.sprt(int(wins[n - 1]), int(losses[n - 1]), p0, p1)


def tournament(ruleset: Ruleset, agents: list[Agent], games_per_pairing: int, seed: int = 0,
               backend: Backend | None = None, out: str | None = None, mirror: bool = False,
               sprt: tuple[float, float] | None = None, progress: bool = False) -> Tournament:
    """Every set of `players` different agents plays `games_per_pairing` games, seats rotated. With
    `sprt=(p0, p1)` (2 players), Wald's test of the first agent's win probability (p0 against p1) is
    applied after every game, and a pairing stops at the first game where it decides; its games
    after that one (the rest of the chunk being played, which --out still saves) are not counted."""
    names = [a.name for a in agents]
    if len(set(names)) != len(names):
        raise HocError(f"an agent is named twice in {', '.join(names)}")
    if len(agents) < ruleset.players:
        raise HocError(f"{len(agents)} agents cannot fill {ruleset.players} seats of a round robin")
    if sprt and ruleset.players != 2:
        raise HocError("--sprt compares two agents: use it with --players 2")
    backend = backend or Backend()
    plans = [("-vs-".join(a.name for a in combo),
              Plan(ruleset, list(combo), games_per_pairing, seed, rotate=True, mirror=mirror,
                   chunk=chunk_size(games_per_pairing)))
             for combo in combinations(agents, ruleset.players)]
    stopped, outcomes = {}, {}
    every = ruleset.players if mirror else 1      # a mirrored group is one observation

    def decided(name, plan, games):
        if not games:
            return False
        df = concat(games)
        n, test = sprt_scan(df, plan.agents[0].name, *sprt, every=every)
        outcomes[name] = SprtOutcome(name, plan.agents[0].name, plan.agents[1].name, n, every, test)
        if test.decision == "continue":
            return False
        games[:] = [df.iloc[:n]]
        stopped[name] = test
        return True

    df = _play(plans, ["game", "seed", "winner", "win_mask", "turns", "agent", ruleset.game.score], backend, out, progress,
               decided if sprt else None)
    return Tournament(df, stats.win_rates(df, "agent"), stats.ratings(df),
                      stats.pairwise(df) if ruleset.players == 2 else None, stats.win_rates(df, "seat"), stopped,
                      outcomes)


# ---- the round robin's report --------------------------------------------------------------------

def _pct(rate, lo, hi) -> str:
    return f"{100 * rate:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]"


def _records(df: pd.DataFrame) -> list[dict]:
    return json.loads(df.to_json(orient="records"))


def tournament_json(t: Tournament, seed: int, players: int) -> dict:
    """The round robin as one JSON object (`hoc tournament --json`)."""
    return {"games": len(t.games), "seed": seed, "players": players,
            "agents": _records(t.rates), "ratings": _records(t.ratings), "seats": _records(t.seats),
            "pairwise": _records(t.pairwise.long) if t.pairwise is not None else None,
            "sprt": {k: v.as_dict() for k, v in t.sprt.items()}}


def tournament_report(t: Tournament, players: int, market: str, seed: int, mirror: bool) -> list[str]:
    """The round robin in words: the head-to-head table (2 players), win rates by agent, ratings,
    win rates by seat and the sequential tests."""
    lines = [f"round robin: {len(t.games):,} games, {players} players, market {market}, seed {seed}, "
             f"seats rotated{', mirrored' if mirror else ''}"]
    if t.pairwise is not None:
        lines.append("\nwin rate of the row agent against the column agent (95% interval):")
        names = list(t.pairwise.wide.index)
        width = max(len(n) for n in names)
        long = t.pairwise.long.set_index(["agent", "opponent"])
        lines.append(" " * width + "".join(f"  {n[:20]:>20}" for n in names))
        for a in names:
            cells = [f"{'':>20}" if a == b or (a, b) not in long.index else
                     f"{_pct(*long.loc[(a, b), ['rate', 'lo', 'hi']]):>20}" for b in names]
            lines.append(f"{a:<{width}}" + "".join(f"  {c}" for c in cells))
    lines.append("\nwin rate by agent (per seat played):")
    for r in t.rates.itertuples():
        lines.append(f"  {r.agent:<22} {_pct(r.rate, r.lo, r.hi)}  of {r.games:,}")
    lines.append("\nratings (OpenSkill Plackett-Luce; ordinal = mu - 3 sigma):")
    for r in t.ratings.itertuples():
        lines.append(f"  {r.agent:<22} mu {r.mu:6.2f}  sigma {r.sigma:5.2f}  ordinal {r.ordinal:6.2f}")
    lines.append("\nwin rate by seat (seat 0 plays first): " + ", ".join(
        f"seat {int(r.seat)} {_pct(r.rate, r.lo, r.hi)}" for r in t.seats.itertuples()))
    if t.sprt:
        every = next(iter(t.sprt.values())).every
        lines.append(f"\nsequential test (Wald's SPRT, 5% error rates, applied after every "
                     f"{'game' if every == 1 else f'{every} mirrored games'}):")
    for k, v in t.sprt.items():
        lines.append(f"  {k}: {v.words()}")
    return lines


def tournament_plot(path: str, players: int, t: Tournament) -> None:
    """The head-to-head table with 2 players; with more, each agent's win rate against an even share."""
    from hoc.research import plots

    if t.pairwise is not None:
        plots.winrate_heatmap(t.pairwise.long, path, title=f"Head-to-head win rate ({len(t.games):,} games)")
        return
    even = 1 / players
    shifted = t.rates.assign(diff=t.rates.rate - even, lo=t.rates.lo - even, hi=t.rates.hi - even)
    plots.effect_bars(shifted, "agent", path, f"Win rate by agent, {players} players "
                      f"({len(t.games):,} games)", f"win rate per seat played minus an even share "
                      f"({100 * even:.0f}%), percentage points")


# ---- cards owned at the end ----------------------------------------------------------------------

def owns(df: pd.DataFrame, seat: int, kind: str, db) -> np.ndarray:
    """Did `seat` own a card of common kind `kind` at the end of each game."""
    mask = 0
    for c in db.cards_of_pile(kind):
        mask |= 1 << c
    return (df[f"owned_{seat}"].to_numpy() & mask) != 0
