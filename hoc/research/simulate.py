"""Running many games: lineups, a run's games as one DataFrame (`simulate`), the streaming summary
the command line prints (`Summary`) and its readable report."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from hoc.agents.registry import LOCAL, Agent, Reach, get, split_names
from hoc.errors import HocError
from hoc.research.engine import Timing, Warmup
from hoc.research.harness import Backend, Plan, chunk_size, play, ready
from hoc.engine import layout as K
from hoc.engine.spec import Ruleset
from hoc.research.stats import wilson  # noqa: F401  (part of this module's API)


def resolve(names: str | list[str | Agent], reach: Reach = LOCAL) -> list[Agent]:
    """The agents named, comma-separated or in a list, within `reach` (`hoc.agents.registry.Reach`: the
    command line's by default); an `Agent` in the list stands for itself. Different agents never share
    a name: an agent file whose name (its file name) another agent of the list already has is named by
    its path, so `copy/senator_duke.toml,senator_duke` compares the copy with the original."""
    import dataclasses

    if isinstance(names, str):
        names = split_names(names)
    agents = [n if isinstance(n, Agent) else get(n, reach) for n in names]
    specs = {}                          # agent name -> the names given for it
    for n, a in zip(names, agents):
        specs.setdefault(a.name, set()).add(n if isinstance(n, str) else a.name)
    return [dataclasses.replace(a, name=n) if isinstance(n, str) and len(specs[a.name]) > 1 and n.endswith(".toml")
            else a for n, a in zip(names, agents)]


def lineup(names: str | list[str | Agent], players: int, reach: Reach = LOCAL) -> list[Agent]:
    """Agents by seat: one name fills every seat, otherwise one name per seat (within `reach`)."""
    agents = resolve(names, reach)
    if not agents:
        raise HocError("no agents given")
    if len(agents) == 1:
        return agents * players
    if len(agents) != players:
        raise HocError(f"{len(agents)} agents for {players} players: give one agent, or one per seat")
    return agents


@dataclass
class Run:
    """The games of one simulation: one row per game, plus what produced them."""

    ruleset: Ruleset
    agents: list[Agent]
    seed: int
    rotate: bool
    games: pd.DataFrame
    play_seconds: float                      # wall time playing the games
    coverage: pd.DataFrame | None = None     # per card: times played, bought, gained, kept, exiled, attacks
    warmup: Warmup = Warmup()                # before the games: compiling the engine or loading it

    @property
    def wall_seconds(self) -> float:
        return self.play_seconds + self.warmup.seconds

    def summary(self) -> dict:
        s = Summary(self.ruleset, self.agents, self.seed, self.rotate)
        s.add(self.games)
        return s.result(Timing(self.play_seconds, self.warmup))


def concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Chunks' game frames as one, categorical columns merged (chunks differ in their markets)."""
    if len(frames) == 1:
        return frames[0]
    from pandas.api.types import union_categoricals

    cats = [c for c in frames[0].columns if isinstance(frames[0][c].dtype, pd.CategoricalDtype)]
    out = pd.concat([f.drop(columns=cats) for f in frames], ignore_index=True)
    for c in cats:
        out[c] = union_categoricals([f[c] for f in frames])
    return out[frames[0].columns]


def simulate(ruleset: Ruleset, agents: list[Agent], games: int, seed: int = 0, jobs: int = 1,
             rotate: bool = False, validate: bool = False, first: int = 0, mirror: bool = False,
             backend: Backend | None = None, announce: bool = True) -> Run:
    """Play games first .. first+games-1 of the run with this seed, in memory. Each game's seed comes
    from (seed, game index), so any split into chunks or workers gives the same games. The engine is
    made ready first (with `announce`, a compile says so on stderr), timed apart from the games."""
    plan = Plan(ruleset, agents, games, seed, rotate, mirror, validate, first, chunk_size(games))
    backend = backend or Backend(jobs)
    warmup = ready(plan, backend, announce)
    t0 = time.perf_counter()
    chunks = list(play(plan, backend))
    workers = max((c.warmup for c in chunks), key=lambda w: w.seconds)   # the slowest worker's
    play_seconds = time.perf_counter() - t0 - workers.seconds
    coverage = pd.DataFrame(sum(c.coverage for c in chunks), index=ruleset.cards.ids, columns=K.STATS)
    return Run(ruleset, agents, plan.seed, plan.rotate, concat([c.games for c in chunks]), play_seconds, coverage,
               warmup + workers)


@dataclass
class Summarised:
    """A run's summary as plain data (the figures `hoc simulate --json` prints) and, when they were
    kept, its games (one row per game: the columns `hoc simulate --out` writes)."""

    summary: dict
    games: pd.DataFrame | None = None


def summarise(plan: Plan, backend: Backend, out: str | None = None, consumers=(), keep: bool = False,
              progress: bool = True) -> Summarised:
    """Play the plan and add up its summary chunk by chunk: the one run behind `hoc simulate` and
    `hoc.simulate`. `out` writes the games to a Parquet folder (and resumes an interrupted run there);
    each of `consumers` also gets every chunk's games in game order; `keep` keeps them all in memory
    (a few hundred bytes a game at 2 players), else memory stays flat however many games are played. With
    `progress`, a compile is announced on stderr and a terminal gets a progress bar."""
    from hoc.research.runs import execute

    summary = Summary(plan.ruleset, plan.agents, plan.seed, plan.rotate, shuffle=plan.shuffle)
    frames: list[pd.DataFrame] = []
    resumed = resumed_games(plan, out)
    timing = execute(plan, backend, out, [summary.add, *consumers, *([frames.append] if keep else [])], progress)
    return Summarised(summary.result(timing, played=plan.games - resumed), concat(frames) if keep else None)


class Summary:
    """Win rates, end reasons and game length, added up chunk by chunk (memory does not grow with
    the number of games)."""

    def __init__(self, ruleset: Ruleset, agents: list[Agent], seed: int, rotate: bool, shuffle: bool = False):
        self.ruleset, self.agents, self.seed, self.rotate, self.shuffle = ruleset, agents, seed, rotate, shuffle
        p = ruleset.players
        self.names = list(dict.fromkeys(a.name for a in agents))
        self.n = 0
        self.wins_by_seat = np.zeros(p, np.int64)
        self.draws = 0
        self.seats = np.zeros(len(self.names), np.int64)
        self.wins = np.zeros(len(self.names), np.int64)
        self.reasons = dict.fromkeys(ruleset.game.end_reasons.values(), 0)
        self.turns = np.zeros(2)                 # sum, sum of squares
        self.princesses = [ruleset.cards.name(k) for k in ruleset.pool]
        self.backed = np.zeros(len(self.princesses), np.int64)
        self.princess_wins = np.zeros(len(self.princesses), np.int64)
        self.sp = np.zeros((2, p))               # per seat: sum, sum of squares
        self.ties = 0                            # games won by two or more seats together
        self.decisive = 0                        # games with one winner
        self.rounds = np.zeros(2)                # rounds (the first seat's turns): sum, sum of squares
        self.score = np.zeros((2, len(self.names)))     # per agent: sum, sum of squares of its share of a win
        self.reseats = bool(getattr(ruleset, "reseats", False))    # seats chosen in the game (position_j)
        self.wins_by_position = np.zeros(p, np.int64)   # the winner's place in turn order (0 played first)
        # solo (1 player): the turns of the games that ended before the turn cap (Heart of Crown's
        # coronation, Dominion's solo Provinces), by number of turns
        self.solo_turns: dict[int, int] = {}

    def add(self, df: pd.DataFrame) -> None:
        p = self.ruleset.players
        w = df.winner.to_numpy()
        self.n += len(df)
        mask = df.win_mask.to_numpy().astype(np.int64)
        winners = np.zeros(len(df), np.int64)
        for j in range(p):
            winners += (mask >> j) & 1
        self.ties += int((winners > 1).sum())
        self.decisive += int((winners == 1).sum())
        r = df.turns_0.to_numpy(dtype=float)
        if self.reseats:                # the first player's turns, and where each winner sat
            pos = np.stack([df[f"position_{j}"].to_numpy() for j in range(p)], axis=1)
            first = np.argmin(pos, axis=1)
            r = np.stack([df[f"turns_{j}"].to_numpy(dtype=float) for j in range(p)], axis=1)[np.arange(len(df)), first]
            won = w >= 0
            self.wins_by_position += np.bincount(pos[np.flatnonzero(won), w[won]], minlength=p)[:p]
        else:
            self.wins_by_position += np.bincount(w[w >= 0], minlength=p)[:p]
        self.rounds += (r.sum(), (r * r).sum())
        self.wins_by_seat += np.bincount(w[w >= 0], minlength=p)[:p]
        self.draws += int((w < 0).sum())
        for j in range(p):
            code = np.array([self.names.index(a) for a in df[f"agent_{j}"].cat.categories])[df[f"agent_{j}"].cat.codes]
            self.seats += np.bincount(code, minlength=len(self.names))
            self.wins += np.bincount(code[w == j], minlength=len(self.names))
            share = np.where((mask >> j) & 1 == 1, 1.0 / np.maximum(winners, 1), 0.0)
            self.score[0] += np.bincount(code, weights=share, minlength=len(self.names))
            self.score[1] += np.bincount(code, weights=share * share, minlength=len(self.names))
            sp = df[f"{self.ruleset.game.score}_{j}"].to_numpy(dtype=float)
            self.sp[:, j] += (sp.sum(), (sp * sp).sum())
            col = df[f"princess_{j}"].astype(str).to_numpy() if self.princesses else None
            for k, name in enumerate(self.princesses):
                mine = col == name
                self.backed[k] += int(mine.sum())
                self.princess_wins[k] += int((mine & (w == j)).sum())
        for reason, k in df.end_reason.value_counts().items():
            self.reasons[reason] += int(k)
        t = df.turns.to_numpy(dtype=float)
        self.turns += (t.sum(), (t * t).sum())
        if p == 1:
            ended = df.end_reason.astype(str).to_numpy() != CAPPED
            for value, k in zip(*np.unique(t[ended].astype(int), return_counts=True)):
                self.solo_turns[int(value)] = self.solo_turns.get(int(value), 0) + int(k)

    def _solo(self) -> dict:
        end = "/".join(r for r, k in self.reasons.items() if k and r != CAPPED) or "the game's end"
        return _solo_summary(end, self.solo_turns, self.n)

    def result(self, timing: Timing, played: int | None = None) -> dict:
        """The summary as plain data (what `--json` prints). Every rate comes with its 95% interval
        (`lo`, `hi`: Wilson for proportions, Student's t for means). `played` is the number of games
        played in `timing` when some were read back from an interrupted run (default: all). Games per
        second count play time only; compiling or loading the engine is given apart."""
        n, rs = self.n, self.ruleset
        played = n if played is None else played
        play = timing.play_seconds
        d = rs.describe()
        mean, sd, mean_lo, mean_hi = _mean(self.turns, n)
        sp = [_mean(self.sp[:, j], n) for j in range(rs.players)]
        reasons = {r: v for r, v in self.reasons.items() if r != "instant_30" or getattr(rs, "instant_win_at_30", False)}
        rounds = _mean(self.rounds, n)
        score = rs.game.score
        import hoc

        return {
            "version": hoc.__version__,
            "game": rs.game.name,
            "rules": d,
            "games": n,
            "players": rs.players,
            "edition": rs.edition,
            "market": d["market"],
            "princesses": d.get("princesses", []),
            "agents": [a.name for a in self.agents],
            "rotate_seats": self.rotate,
            "seed": self.seed,
            "wins_by_seat": [int(x) for x in self.wins_by_seat],
            "wins_by_agent": {a: int(w) for a, w in zip(self.names, self.wins)},
            "seats_by_agent": {a: int(m) for a, m in zip(self.names, self.seats)},
            "backed_by_princess": {p: int(b) for p, b in zip(self.princesses, self.backed)},
            "wins_by_princess": {p: int(b) for p, b in zip(self.princesses, self.princess_wins)},
            "shuffle_seats": self.shuffle,
            "win_rate_by_seat": [_rate(int(w), n, seat=j, agent="shuffled" if self.shuffle else "rotating" if self.rotate
                                       else self.agents[j].name)
                                 for j, w in enumerate(self.wins_by_seat)],
            "win_rate_by_agent": [_rate(int(w), int(m), agent=a) for a, w, m in zip(self.names, self.wins, self.seats)],
            "win_rate_by_princess": [_rate(int(w), int(m), princess=p) for p, w, m in
                                     sorted(zip(self.princesses, self.princess_wins, self.backed),
                                            key=lambda t: -t[2]) if m],
            "score_by_agent": [_score(self.score[:, i], int(m), agent=a) for i, (a, m) in enumerate(zip(self.names, self.seats))],
            **({"wins_by_position": [int(x) for x in self.wins_by_position],
                "win_rate_by_position": [_rate(int(x), n, position=i) for i, x in enumerate(self.wins_by_position)]}
               if self.reseats else {}),
            "draws": self.draws,
            "draw_rate": _rate(self.draws, n),
            "ties": self.ties,
            "tie_rate": _rate(self.ties, n),
            "decisive": self.decisive,
            "first_seat_share_of_decisive": _rate(int(self.wins_by_position[0]), self.decisive),
            "end_reasons": reasons,
            "end_reason_rates": [_rate(v, n, end_reason=r) for r, v in reasons.items()],
            "mean_turns": mean,
            "sd_turns": sd,
            "mean_turns_interval": [mean_lo, mean_hi],
            "mean_rounds": rounds[0],
            "sd_rounds": rounds[1],
            "mean_rounds_interval": [rounds[2], rounds[3]],
            "score": score,
            f"mean_final_{score}_by_seat": [m[0] for m in sp],
            f"mean_final_{score}_by_seat_interval": [[m[2], m[3]] for m in sp],
            **({"solo": self._solo()} if rs.players == 1 else {}),
            "overrides": list(rs.overrides),
            "games_played": played,
            "games_resumed": n - played,
            "wall_seconds": timing.wall_seconds,
            "play_seconds": play,
            "games_per_second": played / play if play > 0 else math.inf,
            "compile_seconds": timing.warmup.compile_seconds,
            "load_seconds": timing.warmup.load_seconds,
        }


def resumed_games(plan: Plan, out: str | None) -> int:
    """How many of the plan's games an earlier, interrupted run already wrote to `out` (they are read
    back, not played again)."""
    from pathlib import Path

    from hoc.research.store import ParquetStore

    if not out or not Path(out).is_dir():
        return 0
    return sum(plan.chunk_games(first) for first in ParquetStore(out, plan).done())


def _rate(wins: int, n: int, **key) -> dict:
    """A proportion with its 95% Wilson interval, as JSON: {**key, wins, games, rate, lo, hi}."""
    lo, hi = wilson(wins, n)
    return {**key, "wins": wins, "games": n, "rate": wins / n if n else math.nan, "lo": lo, "hi": hi}


def _score(sums: np.ndarray, n: int, **key) -> dict:
    """An agent's score (a win 1, a win shared by k seats 1/k) per seat played, with its 95% interval
    (`stats.share_interval`: inside [0, 1] at any number of games)."""
    if n == 0:
        return {**key, "score": math.nan, "games": 0, "lo": math.nan, "hi": math.nan}
    from hoc.research.stats import share_interval

    total = min(max(float(sums[0]), 0.0), float(n))      # float sums of 1/k shares: within 0..n
    lo, hi = share_interval(total, n)
    return {**key, "score": total / n, "games": n, "lo": lo, "hi": hi}


def _mean(sums: np.ndarray, n: int) -> tuple[float, float, float, float]:
    """mean, sd and the 95% Student's t interval of the mean, from (sum, sum of squares) of n values."""
    from scipy.stats import t

    mean = float(sums[0] / n)
    var = (sums[1] - n * mean * mean) / (n - 1) if n > 1 else 0.0
    sd = math.sqrt(max(var, 0.0))
    if n < 2:
        return mean, sd, math.nan, math.nan
    half = float(t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    return mean, sd, mean - half, mean + half


SOLO_PERCENTILES = (10, 25, 50, 75, 90)
CAPPED = "turn_cap"         # the end reason of a game stopped at the turn cap (every game names it so)


def _solo_summary(end: str | None, counts: dict[int, int], n: int) -> dict:
    """Solo mode's figures: how many games ended by `end` (with its Wilson interval) and their turns to
    it: mean (Student's t), sd, and percentiles each with its 95% distribution-free interval."""
    from hoc.research.stats import quantile_interval

    k = sum(counts.values())
    values = np.repeat(np.array(list(counts), float), list(counts.values())) if k else np.zeros(0)
    mean, sd, lo, hi = _mean(np.array([values.sum(), (values * values).sum()]), k) if k else (math.nan,) * 4
    return {"end": end, "ended": _rate(k, n), "mean_turns": mean, "sd_turns": sd, "mean_turns_interval": [lo, hi],
            "percentiles": [dict(zip(("percentile", "turns", "lo", "hi"), (q, *quantile_interval(counts, q / 100))))
                            for q in SOLO_PERCENTILES]}


def _solo_lines(s: dict) -> list[str]:
    """The solo report: turns to the end (coronation) rather than a win rate of 100%."""
    solo, score = s["solo"], s.get("score", "sp")
    end, ended = solo["end"], solo["ended"]
    lines = [f"solo (1 player, {s['agents'][0]}): {ended['wins']:,} of {s['games']:,} games ended by {end} "
             f"before the turn cap ({_pct(ended).strip()})"]
    if ended["wins"]:
        lo, hi = solo["mean_turns_interval"]
        lines.append(f"turns to {end}: mean {solo['mean_turns']:.1f} [{lo:.1f}, {hi:.1f}], sd {solo['sd_turns']:.1f}")
        lines.append(f"turns to {end} by percentile (95% interval): " + ", ".join(
            f"{q['percentile']}% {q['turns']:.0f} [{q['lo']:.0f}, {q['hi']:.0f}]" for q in solo["percentiles"]))
    m, (lo, hi) = s[f"mean_final_{score}_by_seat"][0], s[f"mean_final_{score}_by_seat_interval"][0]
    lines.append(f"mean final {score.upper()} {m:.1f} [{lo:.1f}, {hi:.1f}]")
    if s["win_rate_by_princess"]:
        lines.append("princess backed: " + ", ".join(f"{r['princess']} {r['games']:,} time{'s' if r['games'] != 1 else ''}"
                                                     for r in s["win_rate_by_princess"]))
    return lines


def _pct(r: dict) -> str:
    return f"{100 * r['rate']:5.1f}%  [{100 * r['lo']:5.1f}, {100 * r['hi']:5.1f}]"


def report(s: dict) -> str:
    """The readable summary: every rate with its 95% interval (the same figures as `--json`)."""
    n = s["games"]
    from hoc import games

    spec = games.get(s.get("game", games.DEFAULT))
    of_game = f" of {spec.title}" if spec.name != games.DEFAULT else ""
    lines = [f"{n:,} games{of_game}, {s['players']} player{'s' if s['players'] != 1 else ''}, edition {s['edition']}, "
             f"{spec.market_word} {s['market']}, seed {s['seed']}"
             + (", seats rotated" if s["rotate_seats"] else "") + (", seats shuffled" if s.get("shuffle_seats") else "")]
    if s["princesses"]:
        lines.append(f"princesses: {', '.join(s['princesses'])}")
    shown = {"game", "edition", "players", "market", "market_kinds", "princesses", "overrides", "turn_cap",
             "instant_win_at_30"}
    own = {k: v for k, v in s.get("rules", {}).items() if k not in shown}
    if own:                              # the game's own rule options, as its ruleset describes them
        lines.append("rules: " + ", ".join(f"{k} {'on' if v is True else 'off' if v is False else v}"
                                           for k, v in own.items()))
    if s["overrides"]:
        lines.append(f"overrides: {', '.join(s['overrides'])}")
    lines.append("")
    if "solo" in s:
        lines += _solo_lines(s)
        lines.append("end reasons: " + ", ".join(f"{r['end_reason']} {r['wins']:,} ({_pct(r).strip()})"
                                                 for r in s["end_reason_rates"]))
        lines.append(speed(s))
        return "\n".join(lines)
    reseats = "win_rate_by_position" in s
    lines.append("win rate by seat (95% interval; " + ("the rules chose who plays first" if reseats
                                                       else "seat 0 plays first") + "):")
    score = s.get("score", "sp")
    for r, (m, (lo, hi)) in zip(s["win_rate_by_seat"], zip(s[f"mean_final_{score}_by_seat"],
                                                           s[f"mean_final_{score}_by_seat_interval"])):
        lines.append(f"  seat {r['seat']} ({r['agent']}): {_pct(r)}  mean final {score.upper()} {m:.1f} [{lo:.1f}, {hi:.1f}]")
    if reseats:
        lines.append("win rate by place in turn order (0 played first):")
        for r in s["win_rate_by_position"]:
            lines.append(f"  place {r['position']}: {_pct(r)}")
    if len(set(s["agents"])) > 1:
        lines.append("win rate by agent (per seat played; score: a shared win counts 1/k):")
        for r, sc in zip(s["win_rate_by_agent"], s["score_by_agent"]):
            lines.append(f"  {r['agent']}: {_pct(r)}  score {100 * sc['score']:5.1f}% "
                         f"[{100 * sc['lo']:5.1f}, {100 * sc['hi']:5.1f}]")
    if s["win_rate_by_princess"]:
        lines.append("win rate by princess backed:")
        for r in s["win_rate_by_princess"]:
            lines.append(f"  {r['princess']}: {_pct(r)}  backed {r['games']:,} time{'s' if r['games'] != 1 else ''}")
    lines.append(f"draws: {s['draws']:,} ({_pct(s['draw_rate']).strip()}); shared wins {s['ties']:,} "
                 f"({_pct(s['tie_rate']).strip()})")
    if s["players"] > 1 and s["decisive"]:
        lines.append(f"first {'player' if reseats else 'seat'}'s share of decisive games: "
                     f"{_pct(s['first_seat_share_of_decisive']).strip()}")
    lines.append("end reasons: " + ", ".join(f"{r['end_reason']} {r['wins']:,} ({_pct(r).strip()})"
                                             for r in s["end_reason_rates"]))
    lo, hi = s["mean_turns_interval"]
    lines.append(f"turns per game (all players): mean {s['mean_turns']:.1f} [{lo:.1f}, {hi:.1f}], "
                 f"sd {s['sd_turns']:.1f}")
    lo, hi = s["mean_rounds_interval"]
    lines.append(f"rounds per game (the first seat's turns): mean {s['mean_rounds']:.2f} [{lo:.2f}, {hi:.2f}], "
                 f"sd {s['sd_rounds']:.2f}")
    lines.append(speed(s))
    return "\n".join(lines)


def speed(s: dict) -> str:
    """'10,000 games in 0.41 s (24,400 games/s), plus 31.2 s compiling the engine (first run only)':
    games per second count the games alone."""
    line = f"{s['games_played']:,} games in {s['play_seconds']:.2f} s ({s['games_per_second']:,.0f} games/s)"
    if s["games_resumed"]:
        line += f" ({s['games_resumed']:,} more read back from the run's earlier parts)"
    if s["compile_seconds"]:
        return line + f", plus {s['compile_seconds']:.1f} s compiling the engine (first run only)"
    if s["load_seconds"]:
        return line + f", plus {s['load_seconds']:.1f} s loading the compiled engine"
    return line
