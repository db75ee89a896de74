"""Running many games: lineups, chunks in parallel with joblib, one row per game, and the summary
statistics the command line prints."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from agents.registry import Agent, get
from hoc.errors import HocError, InvariantError
from hoc.kernel import constants as K
from hoc.kernel.invariants import ERRORS
from hoc.rules import Ruleset

CHUNK = 5_000


def lineup(names: str | list[str], players: int) -> list[Agent]:
    """Agents by seat: one name fills every seat, otherwise one name per seat."""
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    if not names:
        raise HocError("no agents given")
    agents = [get(n) for n in names]
    if len(agents) == 1:
        return agents * players
    if len(agents) != players:
        raise HocError(f"{len(agents)} agents for {players} players: give one agent, or one per seat")
    return agents


def _play_chunk(ruleset: Ruleset, ids: np.ndarray, params: np.ndarray, seed: int, first: int, n: int,
                rotate: bool, validate: bool) -> np.ndarray:
    from hoc.play import run_batch  # imported in the worker: loads the compiled kernels there

    out = np.zeros((n, K.RES_LEN), K.DTYPE)
    coverage = np.zeros((len(ruleset.cards), K.N_STATS), np.int64)
    run_batch(np.int64(seed), first, ruleset.cards.table, ruleset.vector, ids, params, rotate, validate, out,
              coverage)
    return out, coverage


def _play_python_chunk(ruleset: Ruleset, agents: list[Agent], seed: int, first: int, n: int, rotate: bool,
                       validate: bool):
    """The same games stepped from Python, for lineups with Python agents; jitted seats still
    decide through the jitted policies, so their moves equal those of `run_batch`."""
    from hoc.game import Game
    from hoc.kernel.invariants import check
    from hoc.play import card_totals, record

    out = np.zeros((n, K.RES_LEN), K.DTYPE)
    coverage = np.zeros((len(ruleset.cards), K.N_STATS), np.int64)
    nc = len(ruleset.cards)
    totals = np.zeros(nc, K.DTYPE)
    work = np.zeros(nc, K.DTYPE)
    players = ruleset.players
    params = [a.params(ruleset) for a in agents]
    for g in range(n):
        index = first + g
        game = Game.of_run(ruleset, seed, index)
        seats = [(j + index) % players if rotate else j for j in range(players)]
        if validate:
            card_totals(game.state, totals, work)
        err = 0
        while not game.over:
            k = seats[game.decider]
            agent = agents[k]
            action = agent.play(game) if agent.play is not None else game.decide(agent, params[k])
            game.apply(action)
            if validate:
                err = check(game.state, totals, work)
                if err:
                    break
        record(game.state, out[g])
        out[g, K.RES_GAME] = index
        out[g, K.RES_ERROR] = err
        s = game.state
        coverage += s[s[K.H_OFF_STATS]:s[K.H_OFF_STATS] + nc * K.N_STATS].reshape(nc, K.N_STATS)
    return out, coverage


@dataclass
class Run:
    """The games of one simulation: one row per game, plus what produced them."""

    ruleset: Ruleset
    agents: list[Agent]
    seed: int
    rotate: bool
    games: pd.DataFrame
    wall_seconds: float
    coverage: pd.DataFrame | None = None     # per card: times played, bought, gained, kept, exiled, attacks

    def summary(self) -> dict:
        return summarize(self)


def seat_agents(agents: list[Agent], seat: int, index: np.ndarray, rotate: bool) -> pd.Categorical:
    """Who played `seat` in each game: the lineup rotates by one seat per game index."""
    names = [a.name for a in agents]
    k = (seat + index) % len(agents) if rotate else np.full(len(index), seat)
    return pd.Categorical.from_codes(k, categories=names) if len(set(names)) == len(names) \
        else pd.Categorical(np.array(names, dtype=object)[k])


def simulate(ruleset: Ruleset, agents: list[Agent], games: int, seed: int = 0, jobs: int = 1,
             rotate: bool = False, validate: bool = False, first: int = 0) -> Run:
    """Play games first .. first+games-1 of the run with this seed. Each game's seed comes from
    (seed, game index), so any split into chunks or workers gives the same games."""
    from hoc.game import check_seed

    seed = check_seed(seed)
    if games < 1:
        raise HocError(f"games must be at least 1, got {games}")
    if jobs < 1:
        raise HocError(f"jobs must be at least 1, got {jobs}")
    if len(agents) != ruleset.players:
        raise HocError(f"{len(agents)} agents for {ruleset.players} players")
    ids = np.array([a.id for a in agents], K.DTYPE)
    params = np.stack([a.params(ruleset) for a in agents]).astype(K.DTYPE)
    size = min(CHUNK, max(1, math.ceil(games / jobs)))
    starts = list(range(first, first + games, size))
    tasks = [(s, min(size, first + games - s)) for s in starts]
    t0 = time.perf_counter()
    if any(a.play is not None for a in agents):
        work = [delayed(_play_python_chunk)(ruleset, agents, seed, s, n, rotate, validate) for s, n in tasks]
    else:
        work = [delayed(_play_chunk)(ruleset, ids, params, seed, s, n, rotate, validate) for s, n in tasks]
    parts = [f(*a, **kw) for f, a, kw in work] if jobs == 1 else Parallel(n_jobs=jobs)(work)
    wall = time.perf_counter() - t0
    rows = np.concatenate([p[0] for p in parts])
    coverage = pd.DataFrame(sum(p[1] for p in parts), index=ruleset.cards.ids, columns=K.STATS)
    bad = rows[rows[:, K.RES_ERROR] != 0]
    if len(bad):
        from hoc.kernel.setup import game_seed

        g = int(bad[0, K.RES_GAME])
        raise InvariantError(
            f"game {g} of run seed {seed} (game seed {int(np.int64(game_seed(np.int64(seed), g)).view(np.uint64))}) broke an "
            f"invariant: {ERRORS.get(int(bad[0, K.RES_ERROR]), 'unknown error')}; "
            f"reproduce with `hoc replay --seed {seed} --game {g}` and the same options")
    return Run(ruleset, agents, seed, rotate, frame(rows, ruleset, agents, seed, rotate), wall, coverage)


def frame(rows: np.ndarray, ruleset: Ruleset, agents: list[Agent], seed: int, rotate: bool) -> pd.DataFrame:
    from hoc.kernel.setup import game_seeds

    db = ruleset.cards
    index = rows[:, K.RES_GAME].astype(np.int64)
    reasons = list(K.END_REASONS.values())
    df = pd.DataFrame({
        "game": index,
        "seed": game_seeds(np.int64(seed), int(index[0]), len(index)).view(np.uint64),
        "winner": rows[:, K.RES_WINNER],
        "end_reason": pd.Categorical.from_codes(rows[:, K.RES_END] - 1, categories=reasons),
        "turns": rows[:, K.RES_TURNS],
        "steps": rows[:, K.RES_STEPS],
        "win_mask": rows[:, K.RES_WIN_MASK],
    })
    df["market"] = market_column(rows[:, K.RES_MARKET:K.RES_MARKET + K.MAX_KINDS], db)
    names = np.array(db.ids + [""], dtype=object)
    for j in range(ruleset.players):
        o = K.RES_SEAT + j * K.RES_SEAT_SZ
        df[f"agent_{j}"] = seat_agents(agents, j, index, rotate)
        df[f"sp_{j}"] = rows[:, o]
        df[f"princess_{j}"] = names[rows[:, o + 1]]
        df[f"backed_turn_{j}"] = rows[:, o + 2]
        df[f"turns_{j}"] = rows[:, o + 3]
    return df


def market_column(kinds: np.ndarray, db) -> pd.Categorical:
    """Each game's common kinds as one sorted, comma-joined string ('' for the basic market)."""
    bits = np.where(kinds >= 0, np.left_shift(np.int64(1), np.maximum(kinds, 0).astype(np.int64)), 0).sum(axis=1)
    masks, codes = np.unique(bits, return_inverse=True)
    pile = db.frame.pile.values
    labels = [",".join(sorted(pile[c] for c in range(len(db)) if m >> c & 1)) for m in masks]
    return pd.Categorical.from_codes(codes.ravel(), categories=labels) if len(set(labels)) == len(labels) \
        else pd.Categorical(np.array(labels, dtype=object)[codes.ravel()])


def offers(df: pd.DataFrame, kind: str) -> np.ndarray:
    """Which games' supply held the common kind `kind` (a boolean per row of a games frame)."""
    cats = df.market.cat.categories
    has = np.array([kind in c.split(",") for c in cats], dtype=bool)
    return has[df.market.cat.codes.values]


def wilson(wins: int, n: int) -> tuple[float, float]:
    from scipy.stats import binomtest

    if n == 0:
        return (math.nan, math.nan)
    ci = binomtest(int(wins), int(n)).proportion_ci(confidence_level=0.95, method="wilson")
    return (float(ci.low), float(ci.high))


def summarize(run: Run) -> dict:
    df = run.games
    players = run.ruleset.players
    n = len(df)
    wins_by_seat = [int((df.winner == j).sum()) for j in range(players)]
    wins_by_agent: dict[str, int] = {a.name: 0 for a in run.agents}
    seats_by_agent: dict[str, int] = {a.name: 0 for a in run.agents}
    for j in range(players):
        col = df[f"agent_{j}"]
        for name in wins_by_agent:
            seats_by_agent[name] += int((col == name).sum())
            wins_by_agent[name] += int(((col == name) & (df.winner == j)).sum())
    turns = df.turns.astype(float)
    return {
        "games": n,
        "players": players,
        "edition": run.ruleset.edition,
        "market": run.ruleset.describe()["market"],
        "princesses": run.ruleset.describe()["princesses"],
        "agents": [a.name for a in run.agents],
        "rotate_seats": run.rotate,
        "seed": run.seed,
        "wins_by_seat": wins_by_seat,
        "wins_by_agent": wins_by_agent,
        "seats_by_agent": seats_by_agent,
        "draws": int((df.winner < 0).sum()),
        "end_reasons": {r: int((df.end_reason == r).sum()) for r in K.END_REASONS.values()
                        if r != "instant_30" or run.ruleset.instant_win_at_30},
        "mean_turns": float(turns.mean()),
        "sd_turns": float(turns.std(ddof=1)) if n > 1 else 0.0,
        "mean_final_sp_by_seat": [float(df[f"sp_{j}"].mean()) for j in range(players)],
        "overrides": list(run.ruleset.overrides),
        "wall_seconds": run.wall_seconds,
        "games_per_second": n / run.wall_seconds if run.wall_seconds > 0 else math.inf,
    }


def report(s: dict) -> str:
    """The readable summary: win rates with 95% Wilson intervals, end reasons, game length."""
    n = s["games"]
    lines = [f"{n} games, {s['players']} players, edition {s['edition']}, market {s['market']}, seed {s['seed']}"
             + (", seats rotated" if s["rotate_seats"] else ""),
             f"princesses: {', '.join(s['princesses'])}"]
    if s["overrides"]:
        lines.append(f"overrides: {', '.join(s['overrides'])}")
    lines.append("")
    lines.append("win rate by seat (95% interval):")
    for j, w in enumerate(s["wins_by_seat"]):
        lo, hi = wilson(w, n)
        agent = s["agents"][j] if not s["rotate_seats"] else "rotating"
        lines.append(f"  seat {j + 1} ({agent}): {100 * w / n:5.1f}%  [{100 * lo:5.1f}, {100 * hi:5.1f}]  "
                     f"mean final SP {s['mean_final_sp_by_seat'][j]:.1f}")
    if len(set(s["agents"])) > 1:
        lines.append("win rate by agent (per seat played):")
        for name, w in s["wins_by_agent"].items():
            m = s["seats_by_agent"][name]
            lo, hi = wilson(w, m)
            lines.append(f"  {name}: {100 * w / m:5.1f}%  [{100 * lo:5.1f}, {100 * hi:5.1f}]")
    lines.append(f"draws: {s['draws']}")
    lines.append("end reasons: " + ", ".join(f"{k} {v} ({100 * v / n:.1f}%)" for k, v in s["end_reasons"].items()))
    lines.append(f"turns per game (all players): mean {s['mean_turns']:.1f}, sd {s['sd_turns']:.1f}")
    lines.append(f"{s['wall_seconds']:.2f} s, {s['games_per_second']:,.0f} games/s")
    return "\n".join(lines)
