"""The meta-game of a population of plans: who beats whom, and which plans a player should mix.

Every lineup of the population is played on the same game seeds (common random numbers: game i of
every lineup deals the same market and the same shuffles), each seed once with every rotation of
the seats (mirrored games), so a lineup's figures carry neither a seat nor a deal advantage. The
results are one table, a row per (lineup, plan in it): the plan's seats and wins. From it:

- 2 players: the win-rate matrix is a symmetric constant-sum game (my payoff + yours = 1). Its Nash
  equilibrium (nashpy's linear program for zero-sum games, on the payoff minus 1/2) is the mixture
  of plans no single plan beats on average; its value is 1/2 by symmetry, and the question is which
  plans carry weight in it. A plan that beats every other with its interval above 50% is dominant:
  the equilibrium is that plan alone. A parametric bootstrap of the matrix says how stable the
  support is to the sampling noise of the games.
- Any number of players: α-Rank (Omidshafiei et al., 2019), the stationary distribution of a
  population of m players that mostly play one plan and now and then try another, a newcomer taking
  over with the Fermi fixation probability of its payoff advantage at selection intensity α. At 2
  players OpenSpiel's `alpharank` computes it from the matrix. OpenSpiel's single-population α-Rank
  takes two-player tables only, and its multi-population form needs plans^players states, so for 3
  and 4 players the same single-population model is computed here from the heuristic payoff table
  (the win rate of each plan in every multiset of players plans): a player's fitness is its
  expected win rate against players-1 co-players drawn from the rest of the population. At 2
  players it is exactly OpenSpiel's (the tests check it against OpenSpiel).
- For 3 and 4 players the game is no longer two-person zero-sum: a symmetric Nash equilibrium is a
  mixture from which no plan gains by deviating, there may be several, none has to be reached by
  play, and nashpy (two players) does not compute it. The study reports α-Rank there.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd

from hoc.errors import HocError
from hoc.research import stats

POPULATION = 50           # α-Rank's population size m (OpenSpiel's default)
SUPPORT = 1e-4            # an equilibrium probability below this is a solver's zero
MAX_ALPHA = 2.0 ** 14     # the α sweep stops here if the masses have not settled
COLUMNS = ["lineup", "agent", "count", "seats", "wins", "games"]


# ---- the results table --------------------------------------------------------------------------

@dataclasses.dataclass
class Results:
    """The head-to-head results of a population: `table` has one row per (lineup, agent in it):
    lineup (the agents of the lineup in the population's order, joined by '+'), agent, count (its
    seats in the lineup), seats (seats it played: count x games), wins (of those seats; a shared win
    counts for each sharing seat), games (games of the lineup); `market` the games' market."""

    players: int
    agents: list[str]
    table: pd.DataFrame
    market: str = "random"

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        t = self.table.assign(players=self.players, market=self.market)
        t[["players", "market", *COLUMNS]].to_csv(path, index=False)
        return path


def population(ruleset) -> list:
    """The default population of the ruleset's game (its catalog's `population`: for Heart of Crown,
    every hand-written and tuned plan its edition can play; for Dominion, its library of bots)."""
    from hoc.agents.registry import get

    return ruleset.game.catalog().population(ruleset, get)


def lineups(agents: list[str], players: int) -> list[tuple[str, ...]]:
    """Every multiset of `players` agents with at least two different ones (a lineup of one plan
    has win rate 1/players per seat by symmetry and is not played)."""
    return [c for c in itertools.combinations_with_replacement(agents, players) if len(set(c)) > 1]


def play(ruleset, agents, games: int, seed: int = 0, backend=None, progress: bool = False) -> Results:
    """Play every lineup of `agents` (`games` games each, rounded up to a multiple of the players so
    that every seed is played once from every seat) on the same seeds, and count the wins."""
    from hoc.research.progress import bar as progress_bar

    from hoc.research.harness import Backend, Plan, chunk_size
    from hoc.research.runs import execute

    names = [a.name for a in agents]
    if len(set(names)) != len(names):
        raise HocError(f"an agent is named twice in {', '.join(names)}")
    if len(agents) < 2:
        raise HocError(f"a meta-game needs at least 2 agents, got {len(agents)}")
    if games < 1:
        raise HocError(f"--games-per-pairing must be at least 1, got {games}")
    n = ruleset.players
    if not 2 <= n <= 4:
        raise HocError(f"a meta-game is played by 2 to 4 players, got {n}")
    games = math.ceil(games / n) * n
    by_name = dict(zip(names, agents))
    backend = backend or Backend()
    rows = []
    todo = lineups(names, n)
    bar = progress_bar(len(todo), "lineups", "lineup", progress)
    for lineup in todo:
        wins = dict.fromkeys(lineup, 0)

        def count(df: pd.DataFrame) -> None:
            for j in range(n):
                w = stats.won(df, j)
                seat = df[f"agent_{j}"].astype(str).to_numpy()
                for a in wins:
                    wins[a] += int((w & (seat == a)).sum())

        plan = Plan(ruleset, [by_name[a] for a in lineup], games, seed, mirror=True, chunk=chunk_size(games))
        execute(plan, backend, None, [count], progress=False, announce=progress)
        key = "+".join(lineup)
        for a in wins:
            c = lineup.count(a)
            rows.append({"lineup": key, "agent": a, "count": c, "seats": c * games, "wins": wins[a], "games": games})
        bar.update(1)
    bar.close()
    market = ruleset.market if isinstance(ruleset.market, str) else ",".join(ruleset.market)
    return Results(n, names, pd.DataFrame(rows, columns=COLUMNS), market)


def load(path: str | Path) -> Results:
    """A results table saved by `Results.save` (`hoc meta --save-matrix`)."""
    path = Path(path)
    try:
        t = pd.read_csv(path)
    except FileNotFoundError:
        raise HocError(f"--matrix {path}: no such file") from None
    except (OSError, ValueError, pd.errors.ParserError) as e:
        raise HocError(f"--matrix {path}: cannot read it as a CSV table: {e}") from None
    missing = [c for c in ["players", *COLUMNS] if c not in t.columns]
    if missing or t.empty:
        raise HocError(f"--matrix {path}: not a matrix saved by `hoc meta --save-matrix` "
                       f"({'no rows' if t.empty else 'missing columns ' + ', '.join(missing)})")
    players = t["players"].unique()
    if len(players) != 1 or not 2 <= int(players[0]) <= 4:
        raise HocError(f"--matrix {path}: the players column must hold one count from 2 to 4")
    n = int(players[0])
    market = str(t["market"].iat[0]) if "market" in t.columns else "not recorded"
    t = t[COLUMNS].astype({"lineup": str, "agent": str})
    agents = sorted(set(t["agent"]), key=list(t["agent"]).index)
    have = set(t["lineup"])
    absent = [ln for ln in lineups(agents, n) if "+".join(ln) not in have]
    if absent:
        raise HocError(f"--matrix {path}: {len(absent)} lineup(s) of its agents missing, e.g. {'+'.join(absent[0])}")
    return Results(n, agents, t.reset_index(drop=True), market)


def subset(results: Results, agents: list[str]) -> Results:
    """The sub-game of some of the agents: the lineups made of them only (the same games)."""
    unknown = [a for a in agents if a not in results.agents]
    if unknown:
        raise HocError(f"{', '.join(unknown)} not in the saved matrix, whose agents are {', '.join(results.agents)}")
    if len(set(agents)) != len(agents):
        raise HocError(f"an agent is named twice in {', '.join(agents)}")
    if len(agents) < 2:
        raise HocError(f"a meta-game needs at least 2 agents, got {len(agents)}")
    keep = {"+".join(ln) for ln in lineups([a for a in results.agents if a in agents], results.players)}
    t = results.table[results.table["lineup"].isin(keep)].reset_index(drop=True)
    return Results(results.players, [a for a in results.agents if a in agents], t, results.market)


# ---- two players: the matrix --------------------------------------------------------------------

@dataclasses.dataclass
class Matrix:
    """The 2-player payoff matrix: payoff[i, j] is agent i's score against j (a win 1, a draw 1/2)
    and payoff + payoff.T = 1; rate, lo, hi its win rate with the 95% Wilson interval; games."""

    agents: list[str]
    payoff: np.ndarray
    rate: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    wins: np.ndarray
    games: np.ndarray

    def long(self) -> pd.DataFrame:
        """One row per ordered pair, in the columns of `stats.pairwise(...).long`."""
        rows = [{"agent": a, "opponent": b, "wins": int(self.wins[i, j]), "games": int(self.games[i, j]),
                 "rate": self.rate[i, j], "lo": self.lo[i, j], "hi": self.hi[i, j], "payoff": self.payoff[i, j]}
                for i, a in enumerate(self.agents) for j, b in enumerate(self.agents) if i != j]
        return pd.DataFrame(rows)


def matrix(results: Results) -> Matrix:
    if results.players != 2:
        raise HocError(f"a payoff matrix is for 2 players; these results are of {results.players}")
    k = len(results.agents)
    index = {a: i for i, a in enumerate(results.agents)}
    payoff = np.full((k, k), 0.5)
    wins = np.zeros((k, k), np.int64)
    games = np.zeros((k, k), np.int64)
    for _, g in results.table.groupby("lineup", sort=False):
        (i, wi, n), (j, wj, _) = ((index[r.agent], int(r.wins), int(r.games)) for r in g.itertuples())
        wins[i, j], wins[j, i], games[i, j], games[j, i] = wi, wj, n, n
        payoff[i, j] = 0.5 + (wi - wj) / (2 * n)     # draws half a win each; a shared win cancels
        payoff[j, i] = 1 - payoff[i, j]
    rate = np.where(games > 0, wins / np.maximum(games, 1), np.nan)
    lo, hi = np.full((k, k), np.nan), np.full((k, k), np.nan)
    for i, j in zip(*np.nonzero(games)):
        lo[i, j], hi[i, j] = stats.wilson(int(wins[i, j]), int(games[i, j]))
    return Matrix(list(results.agents), payoff, rate, lo, hi, wins, games)


@dataclasses.dataclass
class Nash:
    """An equilibrium of the symmetric constant-sum game: the mixture, its value (the mixture's
    score against itself: 1/2), its worst score against any single plan (at least 1/2 at an
    equilibrium), the support (plans with weight) and the dominant plan if one beats every other
    with its interval above 50%."""

    agents: list[str]
    mixture: np.ndarray
    value: float
    worst: float
    dominant: str | None
    strength: dict[str, float] | None = None    # each plan's win rate per seat: the order among equal weights

    @property
    def support(self) -> list[str]:
        """The plans with weight, by weight, then strength, then name."""
        order = by_mass_then_strength(self.agents, self.mixture, self.strength)
        return [self.agents[i] for i in order if self.mixture[i] >= SUPPORT]

    @property
    def pure(self) -> bool:
        return len(self.support) == 1


def equilibrium(payoff: np.ndarray) -> np.ndarray:
    """A maximin mixture of the zero-sum game payoff - 1/2 (nashpy's linear program)."""
    import nashpy

    a = payoff - 0.5
    row, _ = nashpy.Game(a, -a).linear_program()
    row = np.clip(np.asarray(row, float), 0, None)
    row[row < SUPPORT / 10] = 0.0       # the solver's rounding, not weight
    return row / row.sum()


def dominant(m: Matrix) -> str | None:
    """The plan whose interval against every other plan lies above 50%, if any."""
    k = len(m.agents)
    for i in range(k):
        if all(m.lo[i, j] > 0.5 for j in range(k) if j != i):
            return m.agents[i]
    return None


def cycles(m: Matrix) -> tuple[int, list[tuple[str, str, str]]]:
    """Rock-paper-scissors among the plans: the number of triples A beats B beats C beats A (each
    rate above 50%), and those whose three intervals all lie above 50%."""
    found, sure = 0, []
    for i, j, k in itertools.permutations(range(len(m.agents)), 3):
        if i < j and i < k and m.rate[i, j] > 0.5 and m.rate[j, k] > 0.5 and m.rate[k, i] > 0.5:
            found += 1
            if m.lo[i, j] > 0.5 and m.lo[j, k] > 0.5 and m.lo[k, i] > 0.5:
                sure.append((m.agents[i], m.agents[j], m.agents[k]))
    return found, sure


def nash(m: Matrix) -> Nash:
    x = equilibrium(m.payoff)
    return Nash(m.agents, x, float(x @ m.payoff @ x), float((x @ m.payoff).min()), dominant(m))


def bootstrap(results: Results, alpha: float, reps: int = 200, seed: int = 0) -> pd.DataFrame:
    """How stable the answers are to the games' sampling noise: `reps` tables drawn from the
    measured one, each analysed again (α-Rank at the same α). At 2 players each pairing's score is
    redrawn binomially from its games (mirrored games are if anything less noisy than that, so the
    spread is conservative) and the equilibrium solved; at more, each plan's wins in each lineup.
    Per agent: the 2.5-97.5% range of its α-Rank mass and the share of draws it ranks first; at 2
    players also the share of draws in which it is in the equilibrium's support and the range of its
    probability."""
    rng = np.random.default_rng(seed)
    k = len(results.agents)
    masses = np.empty((reps, k))
    if results.players == 2:
        m = matrix(results)
        iu = np.triu_indices(k, 1)
        n, p = m.games[iu], m.payoff[iu]
        mixtures = np.empty((reps, k))
        for r in range(reps):
            b = np.full((k, k), 0.5)
            b[iu] = rng.binomial(n, p) / n
            b.T[iu] = 1 - b[iu]
            mixtures[r] = equilibrium(b)
            masses[r] = alpharank_matrix(b, m.agents, alpha).mass
    else:
        t = results.table
        hpt0 = payoff_table(results)
        agents, players = results.agents, results.players
        for r in range(reps):
            wins = rng.binomial(t["seats"].to_numpy(), t["wins"].to_numpy() / t["seats"].to_numpy())
            hpt = dict(hpt0) | payoff_table(Results(players, agents, t.assign(wins=wins), results.market))
            masses[r] = alpharank_table(hpt, agents, players, alpha).mass
    out = pd.DataFrame({"agent": results.agents,
                        "mass_lo": np.quantile(masses, 0.025, axis=0), "mass_hi": np.quantile(masses, 0.975, axis=0),
                        "ranked_first": np.bincount(masses.argmax(axis=1), minlength=k) / reps})
    if results.players == 2:
        out["in_support"] = (mixtures >= SUPPORT).mean(axis=0)
        out["p_lo"] = np.quantile(mixtures, 0.025, axis=0)
        out["p_hi"] = np.quantile(mixtures, 0.975, axis=0)
    return out


# ---- α-Rank -------------------------------------------------------------------------------------

@dataclasses.dataclass
class AlphaRank:
    agents: list[str]
    mass: np.ndarray          # the stationary distribution over the monomorphic populations
    alpha: float              # the selection intensity used
    population: int           # m
    method: str               # which computation produced it
    swept: bool = True        # α chosen by the sweep (not given)
    strength: dict[str, float] | None = None    # each plan's win rate per seat: the order among equal masses

    def table(self) -> pd.DataFrame:
        """The plans by mass, then (equal masses: the many plans with none) by strength, then name."""
        order = by_mass_then_strength(self.agents, self.mass, self.strength)
        t = pd.DataFrame({"agent": [self.agents[i] for i in order], "mass": np.asarray(self.mass)[order]})
        t.insert(0, "rank", np.arange(1, len(t) + 1))
        return t


MASS_DIGITS = 6     # masses (and Nash weights) equal to this many digits are equal: the solvers' rounding


def by_mass_then_strength(agents: list[str], mass, strength: dict[str, float] | None) -> list[int]:
    """Indices of the plans by mass (to MASS_DIGITS), then by strength (win rate per seat over the whole
    population: the stronger first), then by name."""
    strength = strength or {}
    return sorted(range(len(agents)), key=lambda i: (-round(float(mass[i]), MASS_DIGITS),
                                                      -strength.get(agents[i], 0.0), agents[i]))


def _sweep(masses, alpha: float | None) -> tuple[np.ndarray, float]:
    """The masses at `alpha`, or, with none given, at the smallest α of 0.5, 1, 2, 4, ... at which
    they settle (no mass moves by 1e-4 when α doubles), as α-Rank's authors advise: the ranking is
    read in the large-α limit, and past that point a larger α changes nothing."""
    if alpha is not None:
        if not alpha > 0:
            raise HocError(f"--alpha must be positive, got {alpha}")
        return masses(alpha), alpha
    a = 0.5
    pi = masses(a)
    while a < MAX_ALPHA:
        nxt = masses(2 * a)
        a *= 2
        if np.abs(nxt - pi).max() < 1e-4:
            return nxt, a
        pi = nxt
    return pi, a


def alpharank_matrix(payoff: np.ndarray, agents: list[str], alpha: float | None = None,
                     m: int = POPULATION) -> AlphaRank:
    """α-Rank of a 2-player symmetric game by OpenSpiel (single population). At a large α,
    OpenSpiel's fixation probability (1 - e^-u) / (1 - e^-mu) overflows to inf / inf; those α are
    computed by `alpharank_table`, the same model in logs (the tests check the two agree)."""
    from open_spiel.python.egt import alpharank

    agents = list(agents)
    fell_back = []

    def masses(a: float) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            try:
                pi = np.real(np.asarray(alpharank.compute([payoff], m=m, alpha=a,
                                                          use_local_selection_model=False)[2], float))
            except ValueError:              # scipy's eigensolver refuses the NaN of inf / inf
                pi = np.full(len(agents), np.nan)
        if np.isfinite(pi).all():
            return _normal(pi)
        fell_back.append(a)
        return alpharank_table(_matrix_table(payoff, agents), agents, 2, a, m).mass

    pi, a = _sweep(masses, alpha)
    method = "OpenSpiel alpharank, single population"
    if fell_back:
        method += f" (from α = {min(fell_back):g}, where OpenSpiel overflows, the same model computed in logs)"
    return AlphaRank(agents, pi, a, m, method, alpha is None)


def _matrix_table(payoff: np.ndarray, agents: list[str]) -> dict:
    """A 2-player payoff matrix as a heuristic payoff table."""
    k = len(agents)
    return {tuple(sorted((agents[i], agents[j]))): {agents[i]: payoff[i, j], agents[j]: payoff[j, i]}
            for i, j in itertools.combinations_with_replacement(range(k), 2)}


def _normal(pi) -> np.ndarray:
    pi = np.clip(np.real(np.asarray(pi, float)), 0, None)
    return pi / pi.sum()


def payoff_table(results: Results) -> dict[tuple[str, ...], dict[str, float]]:
    """The heuristic payoff table: per lineup (sorted agents), each agent's win rate per seat; a
    lineup of one agent gets 1/players."""
    n = results.players
    hpt = {(a,) * n: {a: 1 / n} for a in results.agents}
    t = results.table
    keys = {key: tuple(sorted(key.split("+"))) for key in t["lineup"].unique()}
    # plain columns: a pandas groupby with itertuples took 8 s for the 1,311 lineups of 19 plans
    for key, agent, wins, seats in zip(t["lineup"].tolist(), t["agent"].tolist(), t["wins"].tolist(),
                                       t["seats"].tolist()):
        hpt.setdefault(keys[key], {})[agent] = wins / seats
    return hpt


def selection(hpt: dict, players: int, mutant: str, resident: str, m: int = POPULATION) -> np.ndarray:
    """f_r(p) - f_s(p) for p = 1 .. m-1 mutants among the m players: the expected win rate of a mutant
    minus that of a resident, each game's players-1 co-players drawn without replacement from the m-1
    others (a hypergeometric count of mutants among them)."""
    def pay(agent: str, mutants: int) -> float:
        return hpt[tuple(sorted((mutant,) * mutants + (resident,) * (players - mutants)))][agent]

    seen = range(players)                                     # mutants among a player's co-players
    as_mutant, as_resident = _co_players(players, m)
    return (as_mutant @ np.array([pay(mutant, j + 1) for j in seen])
            - as_resident @ np.array([pay(resident, j) for j in seen]))


@functools.lru_cache(maxsize=8)
def _co_players(players: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Row p-1 (p = 1 .. m-1 mutants in the population): the probability that a mutant's, and a
    resident's, players-1 co-players include j = 0 .. players-1 mutants."""
    from scipy.stats import hypergeom

    seen, p = np.arange(players), np.arange(1, m)[:, None]
    return hypergeom.pmf(seen, m - 1, p - 1, players - 1), hypergeom.pmf(seen, m - 1, p, players - 1)


def fixation(diff: np.ndarray, alpha: float) -> float:
    """The probability that one mutant takes over the population (Moran process, Fermi selection):
    1 / (1 + sum_l prod_{p<=l} exp(-α diff_p)), computed in logs so a large α cannot overflow."""
    x = np.concatenate([[0.0], -alpha * np.cumsum(diff)])
    top = x.max()                                   # log-sum-exp by hand: scipy's costs 1 ms a call here
    return float(np.exp(-top - np.log(np.exp(x - top).sum())))


def alpharank_table(hpt: dict, agents: list[str], players: int, alpha: float | None = None,
                    m: int = POPULATION) -> AlphaRank:
    """Single-population α-Rank of a symmetric game of any number of players from its heuristic
    payoff table: the Markov chain over the monomorphic populations, moving from resident s to
    mutant r with probability fixation(r, s) / (K - 1), and its stationary distribution."""
    import scipy.linalg

    k = len(agents)
    pairs = list(itertools.permutations(range(k), 2))
    diffs = {(s, r): selection(hpt, players, agents[r], agents[s], m) for s, r in pairs}

    def masses(a: float) -> np.ndarray:
        c = np.zeros((k, k))
        for s, r in pairs:
            c[s, r] = fixation(diffs[s, r], a) / (k - 1)
        c[np.diag_indices(k)] = 1 - c.sum(axis=1)
        # pi (C - I) = 0 with sum(pi) = 1: the null space of the transposed generator
        null = scipy.linalg.null_space((c - np.eye(k)).T, rcond=1e-13)
        return _normal(np.abs(null[:, 0]) if null.shape[1] else np.full(k, 1 / k))

    pi, a = _sweep(masses, alpha)
    return AlphaRank(list(agents), pi, a, m, "single-population α-Rank over the heuristic payoff table",
                     alpha is None)


# ---- the study ----------------------------------------------------------------------------------

@dataclasses.dataclass
class Meta:
    results: Results
    alpharank: AlphaRank
    matrix: Matrix | None = None           # 2 players
    nash: Nash | None = None               # 2 players
    stability: pd.DataFrame | None = None  # the bootstrap: α-Rank mass ranges (and the support, 2 players)
    seats: pd.DataFrame | None = None      # per agent over all its lineups: win rate per seat played
    reps: int = 0                          # bootstrap replicates behind `stability`

    @property
    def players(self) -> int:
        return self.results.players


def overall(results: Results) -> pd.DataFrame:
    """Per agent over every lineup it played: wins per seat with the Wilson interval."""
    t = results.table.groupby("agent", sort=False)[["wins", "seats"]].sum().reset_index()
    t = stats._with_rates(t.rename(columns={"seats": "games"}))
    return t.sort_values(["rate", "agent"], ascending=[False, True]).reset_index(drop=True)


def analyse(results: Results, alpha: float | None = None, reps: int = 200, seed: int = 0) -> Meta:
    seats = overall(results)
    if results.players == 2:
        m = matrix(results)
        ar = alpharank_matrix(m.payoff, m.agents, alpha)
        eq = nash(m)
    else:
        ar = alpharank_table(payoff_table(results), results.agents, results.players, alpha)
        m = eq = None
    stability = bootstrap(results, ar.alpha, reps, seed) if reps else None
    strength = dict(zip(seats["agent"], seats["rate"].astype(float)))
    ar = dataclasses.replace(ar, strength=strength)
    eq = dataclasses.replace(eq, strength=strength) if eq is not None else None
    return Meta(results, ar, m, eq, stability, seats, reps)


# ---- what the user reads ------------------------------------------------------------------------

def _pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]"


def verdict(meta: Meta) -> str:
    """The answer in one sentence: is there a dominant plan, and which plans carry the weight."""
    stab = meta.stability.set_index("agent") if meta.stability is not None else None
    if meta.nash is None:
        top = meta.alpharank.table().iloc[0]
        said = f"at {meta.players} players α-Rank puts {100 * top.mass:.1f}% of the mass on {top.agent}"
        if stab is None:
            return said
        firsts = stab["ranked_first"].sort_values(ascending=False)
        if firsts.iat[0] >= 0.95 and firsts.index[0] == top.agent:
            return said + f", first in {100 * firsts.iat[0]:.0f}% of the bootstrap tables"
        return (said + "; the top is not settled by these games: first in the bootstrap tables " +
                ", ".join(f"{a} {100 * f:.0f}%" for a, f in firsts.items() if f >= 0.05))
    n = meta.nash
    support = ""
    if stab is not None:
        often = stab.sort_values("in_support", ascending=False)
        support = "; in the bootstrap, " + ", ".join(f"{a} is in the support {100 * s.in_support:.0f}% of the time"
                                                    for a, s in often.iterrows() if s.in_support >= 0.05)
    if n.dominant:
        return f"{n.dominant} is dominant: it beats every other plan with its interval above 50%{support}"
    if n.pure:
        return (f"no dominant plan, but the equilibrium is pure: {n.support[0]} alone (no plan beats it, and some "
                f"pairing's interval reaches 50%){support}")
    mix = dict(zip(n.agents, n.mixture))
    mixed = ", ".join(f"{a} {100 * mix[a]:.1f}%" for a in n.support)
    return f"no dominant plan: the equilibrium mixes {mixed}{support}"


def report(meta: Meta, command: str, market: str) -> str:
    r = meta.results
    games = int(r.table.drop_duplicates("lineup")["games"].sum())
    per = int(r.table["games"].max())
    lines = [f"meta-game: {len(r.agents)} plans, {r.players} players, market {market}: {games:,} games, "
             f"{per:,} per lineup (mirrored: each seed from every seat, the same seeds for every lineup)",
             f"reproduce: {command}", ""]
    if meta.matrix is not None:
        m, order = meta.matrix, list(meta.seats["agent"])
        lines.append("head to head: the row plan's win rate against the column plan (95% Wilson interval)")
        width = max(len(a) for a in order)
        for a in order:
            i = m.agents.index(a)
            cells = [f"{b}: {100 * m.rate[i, m.agents.index(b)]:.1f}% [{100 * m.lo[i, m.agents.index(b)]:.1f}, "
                     f"{100 * m.hi[i, m.agents.index(b)]:.1f}]" for b in order if b != a]
            lines.append(f"  {a:<{width}}  " + "; ".join(cells))
        lines.append("")
    lines.append("win rate per seat over all lineups (95% Wilson interval):")
    for s in meta.seats.itertuples():
        lines.append(f"  {s.agent:<28} {_pct(s.rate, s.lo, s.hi)}  of {int(s.games):,} seats")
    lines.append("")
    if meta.nash is not None:
        n = meta.nash
        lines.append(f"Nash equilibrium of the symmetric constant-sum game (nashpy linear program): value "
                     f"{100 * n.value:.1f}% (the mixture against itself), at least {100 * n.worst:.1f}% against "
                     f"every single plan")
        stab = meta.stability.set_index("agent") if meta.stability is not None else None
        mix = dict(zip(n.agents, n.mixture))
        for a in n.support:
            extra = ""
            if stab is not None:
                extra = (f"   in the support of {100 * stab.at[a, 'in_support']:.0f}% of {meta.reps} "
                         f"bootstrap matrices, probability range [{100 * stab.at[a, 'p_lo']:.1f}, "
                         f"{100 * stab.at[a, 'p_hi']:.1f}]")
            lines.append(f"  {a:<28} {100 * mix[a]:5.1f}%{extra}")
        if stab is not None:
            out = stab[(stab["in_support"] >= 0.05) & ~stab.index.isin(n.support)]
            for a, s in out.iterrows():
                lines.append(f"  {a:<28}   0.0%   outside the support here, inside it in "
                             f"{100 * s.in_support:.0f}% of the bootstrap matrices")
        lines.append(f"dominant strategy: {n.dominant or 'none'}")
        lines.append(cycle_words(meta.matrix))
        lines.append("")
    ar = meta.alpharank
    stab = meta.stability.set_index("agent") if meta.stability is not None else None
    lines.append(f"α-Rank ({ar.method}; population {ar.population}, α = {ar.alpha:g}"
                 f"{', the smallest α at which the masses settle' if ar.swept else ''}): mass"
                 + (f" [2.5-97.5% range over {meta.reps} bootstrap tables at this α], share of those tables in "
                    f"which the plan ranks first:" if stab is not None else ":"))
    for t in ar.table().itertuples():
        if t.mass >= 0.0005 or t.rank <= 5:
            extra = "" if stab is None else (f" [{100 * stab.at[t.agent, 'mass_lo']:5.1f}, "
                                             f"{100 * stab.at[t.agent, 'mass_hi']:5.1f}]   first in "
                                             f"{100 * stab.at[t.agent, 'ranked_first']:3.0f}%")
            lines.append(f"  {t.rank:>2}. {t.agent:<28} {100 * t.mass:5.1f}%{extra}")
    rest = int((ar.mass < 0.0005).sum()) - max(0, 5 - int((ar.mass >= 0.0005).sum()))
    if rest > 0:
        lines.append(f"  ({rest} more plans under 0.05%)")
    if meta.nash is None:
        lines += ["", f"at {meta.players} players the game is not two-person zero-sum: a symmetric Nash equilibrium "
                      "(a mixture no plan gains by leaving) may not be unique and is not computed; "
                      "α-Rank is the answer"]
    lines += ["", f"answer: {verdict(meta)}"]
    return "\n".join(lines)


def cycle_words(m: Matrix) -> str:
    found, sure = cycles(m)
    if not found:
        return "cycles (A beats B beats C beats A): none"
    return (f"cycles (A beats B beats C beats A): {found}, {len(sure)} with all three intervals above 50%"
            + (": " + "; ".join(" > ".join(c) + f" > {c[0]}" for c in sure[:5]) if sure else ""))


def as_dict(meta: Meta, command: str, market: str) -> dict:
    r = meta.results
    out = {"command": command, "players": r.players, "market": market, "agents": r.agents,
           "games": int(r.table.drop_duplicates("lineup")["games"].sum()),
           "games_per_lineup": int(r.table["games"].max()),
           "seats": json_records(meta.seats[["agent", "wins", "games", "rate", "lo", "hi"]]
                                 .rename(columns={"games": "seats"})),
           "alpharank": {"method": meta.alpharank.method, "alpha": meta.alpharank.alpha,
                         "population": meta.alpharank.population,
                         "ranking": json_records(meta.alpharank.table())},
           "verdict": verdict(meta)}
    if meta.matrix is not None:
        n = meta.nash
        out["matrix"] = json_records(meta.matrix.long())
        found, sure = cycles(meta.matrix)
        out["cycles"] = {"count": found, "sure": [list(c) for c in sure]}
        out["nash"] = {"support": n.support, "probabilities": {a: float(p) for a, p in zip(n.agents, n.mixture)},
                       "value": n.value, "worst": n.worst, "dominant": n.dominant, "pure": n.pure,
                       "solver": "nashpy linear_program"}
        if meta.stability is not None:
            out["nash"]["bootstrap"] = {"replicates": meta.reps, "agents": json_records(meta.stability)}
    else:
        out["payoff_table"] = json_records(r.table)
    return out


def json_records(df: pd.DataFrame) -> list[dict]:
    import json

    return json.loads(df.to_json(orient="records"))
