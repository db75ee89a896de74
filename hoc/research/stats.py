"""Statistics over game results: win rates with intervals, head-to-head matrices, ratings, a
sequential test, first-player advantage, princess and market-card tables.

Every function is pure: it takes the games frame of `hoc.research.simulate.simulate(...).games` (one row per
game: `game`, `winner`, `win_mask`, `turns`, `market`, `end_reason`, and per seat j `agent_j`,
`sp_j`, `princess_j`, `backed_turn_j`, `turns_j`) and returns a DataFrame or a small dataclass. The
number of players is the number of `agent_j` columns. Seats are numbered from 0, as in `winner`
(seat 0 is the first player), here and in every printed report and log.

Conventions shared by all functions:

- **Who won**: a seat won a game when its bit is set in `win_mask` (when the frame has no `win_mask`,
  the seat equal to `winner`). A shared win (several bits set, possible under the shared-tie
  judgement rule) counts as a full win for *each* sharing seat, so win rates of the seats of one
  game can add up to more than 1 under that rule. Games without a winner (`win_mask` 0, e.g. the
  turn cap) count as played and not won. Under the default rules every game has one winner.
- **Per seat played**: a game contributes one observation per seat, so an agent that fills two
  seats of a game is counted twice.
- **Intervals**: 95% Wilson score intervals for proportions (statsmodels), Newcombe's hybrid score
  interval for a difference of two proportions, Welch's t interval for a difference of means.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

CONFIDENCE = 0.95
ALPHA = 1 - CONFIDENCE
NONE = "none"  # the princess label of seats that never backed one

_BY = {"agent": "agent", "seat": "seat", "princess": "princess"}


# ---- the shape of a games frame -----------------------------------------------------------------


def players(df: pd.DataFrame) -> int:
    """The number of seats of the games in `df` (its `agent_j` columns)."""
    n = 0
    while f"agent_{n}" in df.columns:
        n += 1
    if n == 0:
        raise ValueError("not a games frame: no agent_0 column")
    return n


def won(df: pd.DataFrame, seat: int) -> np.ndarray:
    """Whether `seat` won each game (alone or shared), as a bool array."""
    if "win_mask" in df.columns:
        return (df["win_mask"].to_numpy(np.int64) >> seat) & 1 == 1
    return df["winner"].to_numpy(np.int64) == seat


def seat_rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per seat played: game, seat, agent, sp, princess ('none' if never backed),
    backed_turn, turns (own turns), won (bool), shared (won a win shared with another seat)."""
    p = players(df)
    n_winners = sum(won(df, j).astype(np.int64) for j in range(p))
    parts = []
    for j in range(p):
        w = won(df, j)
        part = {
            "game": df["game"].to_numpy() if "game" in df.columns else np.arange(len(df)),
            "seat": np.full(len(df), j),
            "agent": df[f"agent_{j}"].astype(str).to_numpy(),
            "won": w,
            "shared": w & (n_winners > 1),
        }
        for col in ("sp", "backed_turn", "turns"):
            if f"{col}_{j}" in df.columns:
                part[col] = df[f"{col}_{j}"].to_numpy()
        if f"princess_{j}" in df.columns:
            pr = df[f"princess_{j}"].astype(str).to_numpy(dtype=object)
            part["princess"] = np.where(pr == "", NONE, pr)
        parts.append(pd.DataFrame(part))
    return pd.concat(parts, ignore_index=True)


# ---- proportions --------------------------------------------------------------------------------


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval (lo, hi) of a proportion wins/n; (nan, nan) when n is 0."""
    if n == 0:
        return (math.nan, math.nan)
    if not 0 <= wins <= n:
        raise ValueError(f"wins must be within 0..n, got {wins} of {n}")
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(int(wins), int(n), alpha=ALPHA, method="wilson")
    return (float(lo), float(hi))


def share_interval(total: float, n: int) -> tuple[float, float]:
    """The 95% interval of a score: the mean of n per-game shares in [0, 1] (a win 1, a win shared by k
    seats 1/k, a loss 0) summing to `total`. Wilson's interval of total/n: inside [0, 1] at any n (a
    t interval is not: 7 wins of 10 gives [35.4%, 104.6%]), and as wide as a proportion's or wider for
    shares, whose variance is at most p(1 - p). (nan, nan) when n is 0."""
    if n == 0:
        return (math.nan, math.nan)
    if not 0 <= total <= n:
        raise ValueError(f"a score's shares must sum within 0..n, got {total} of {n}")
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(float(total), int(n), alpha=ALPHA, method="wilson")
    # exactly 0 (1) at a score of 0 (1), where rounding leaves the formula a hair inside
    return (0.0 if total <= 0 else max(0.0, float(lo)), 1.0 if total >= n else min(1.0, float(hi)))


def unit_interval(x) -> tuple[float, float, float]:
    """(mean, lo, hi): the 95% Student's t interval of the mean of per-unit values in [0, 1] (a seed's
    mirrored games: the unit of a paired design), clipped to [0, 1]; (mean, nan, nan) below 2 units."""
    from scipy.stats import t

    x = np.asarray(x, float)
    m = float(x.mean())
    if len(x) < 2:
        return m, math.nan, math.nan
    half = float(t.ppf(1 - ALPHA / 2, len(x) - 1)) * float(x.std(ddof=1)) / math.sqrt(len(x))
    return m, max(0.0, m - half), min(1.0, m + half)


def quantile_interval(counts: dict[int, int], q: float) -> tuple[float, float, float]:
    """(quantile, lo, hi) of the q-quantile of integer values given as {value: count}, with its 95%
    distribution-free interval: the order statistics whose ranks bound Binomial(n, q)'s middle 95%
    (nan when there are no values; the interval reaches the extremes at small n)."""
    from scipy.stats import binom

    values = np.array(sorted(counts), dtype=float)
    c = np.cumsum([counts[int(v)] for v in values])
    n = int(c[-1]) if len(c) else 0
    if n == 0:
        return math.nan, math.nan, math.nan

    def order(k: int) -> float:                       # the k-th smallest value, 1-based, clamped to 1..n
        return float(values[np.searchsorted(c, min(max(k, 1), n))])

    lo_rank = int(binom.ppf(ALPHA / 2, n, q))
    hi_rank = int(binom.ppf(1 - ALPHA / 2, n, q)) + 1
    return order(math.ceil(q * n)), order(lo_rank), order(hi_rank)


def _wilson_columns(wins, n) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """rate, lo, hi arrays for arrays of counts (nan where n is 0)."""
    from statsmodels.stats.proportion import proportion_confint

    wins = np.asarray(wins, dtype=float)
    n = np.asarray(n, dtype=float)
    ok = n > 0
    rate = np.full(wins.shape, np.nan)
    lo = np.full(wins.shape, np.nan)
    hi = np.full(wins.shape, np.nan)
    if ok.any():
        rate[ok] = wins[ok] / n[ok]
        lo[ok], hi[ok] = proportion_confint(wins[ok], n[ok], alpha=ALPHA, method="wilson")
    return rate, lo, hi


def _with_rates(t: pd.DataFrame, wins: str = "wins", games: str = "games") -> pd.DataFrame:
    t["rate"], t["lo"], t["hi"] = _wilson_columns(t[wins].to_numpy(), t[games].to_numpy())
    return t


# ---- win rates ----------------------------------------------------------------------------------


def win_rates(df: pd.DataFrame, by: str = "agent") -> pd.DataFrame:
    """Win rate per agent, seat or princess backed, per seat played.

    Returns columns [by, wins, games, rate, lo, hi]: `games` counts seats played (one per game and
    seat), `wins` those seats that won (shared wins count for each sharing seat), `lo`/`hi` the 95%
    Wilson interval. Seats come in seat order (0 = first player); agents and princesses by rate,
    highest first (ties by name). Seats that never backed a princess are the princess 'none'.
    """
    if by not in _BY:
        raise ValueError(f"by must be one of {', '.join(_BY)}, got {by!r}")
    s = seat_rows(df)
    if by not in s.columns:
        raise ValueError(f"the games frame has no {by}_j columns")
    t = s.groupby(by, sort=True).agg(wins=("won", "sum"), games=("won", "size")).reset_index()
    t["wins"] = t["wins"].astype(np.int64)
    t["games"] = t["games"].astype(np.int64)
    t = _with_rates(t)
    if by != "seat":
        t = t.sort_values(["rate", by], ascending=[False, True], kind="stable")
    return t.reset_index(drop=True)


# ---- head to head -------------------------------------------------------------------------------


@dataclass
class Pairwise:
    """Head-to-head results of a 2-player round robin.

    `long`: one row per ordered pair (agent, opponent) that met, with columns agent, opponent,
    wins, losses, draws, games, first (games the agent sat first), rate (agent's win rate against
    the opponent), lo, hi (95% Wilson). Both orders of each pair are present, so a game between A
    and B is counted once in (A, B) and once in (B, A), whichever seat each had.
    `wide`: the rate matrix, rows the agent and columns the opponent, agents ordered by overall
    win rate in these games (best first); cells of pairs that never met, and the diagonal, are NaN.
    """

    long: pd.DataFrame
    wide: pd.DataFrame

    @property
    def agents(self) -> list[str]:
        return list(self.wide.index)

    def matrix(self, column: str = "rate") -> pd.DataFrame:
        """Any column of `long` (rate, lo, hi, wins, games, ...) as an agent x opponent matrix."""
        m = self.long.pivot(index="agent", columns="opponent", values=column)
        return m.reindex(index=self.agents, columns=self.agents)


def pairwise(df: pd.DataFrame) -> Pairwise:
    """Head-to-head win rates of the agents of 2-player games, both seatings pooled.

    A game counts as a win for an agent when its seat won (a shared win is a win for both), a loss
    when only the opponent won, a draw otherwise. Games of an agent against itself carry no
    head-to-head information and are left out (the diagonal is NaN).
    """
    if players(df) != 2:
        raise ValueError(f"pairwise needs 2-player games, got {players(df)} players")
    a0 = df["agent_0"].astype(str).to_numpy(dtype=object)
    a1 = df["agent_1"].astype(str).to_numpy(dtype=object)
    w0, w1 = won(df, 0), won(df, 1)
    keep = a0 != a1
    one = pd.DataFrame({"agent": a0, "opponent": a1, "win": w0, "loss": w1 & ~w0, "first": True})[keep]
    two = pd.DataFrame({"agent": a1, "opponent": a0, "win": w1, "loss": w0 & ~w1, "first": False})[keep]
    both = pd.concat([one, two], ignore_index=True)
    cols = ["agent", "opponent", "wins", "losses", "draws", "games", "first", "rate", "lo", "hi"]
    if both.empty:
        return Pairwise(pd.DataFrame(columns=cols), pd.DataFrame(dtype=float))
    t = both.groupby(["agent", "opponent"], sort=True).agg(
        wins=("win", "sum"), losses=("loss", "sum"), games=("win", "size"), first=("first", "sum")).reset_index()
    for c in ("wins", "losses", "games", "first"):
        t[c] = t[c].astype(np.int64)
    t["draws"] = t["games"] - t["wins"] - t["losses"]
    t = _with_rates(t)[cols]
    overall = t.groupby("agent")[["wins", "games"]].sum()
    overall["rate"] = overall["wins"] / overall["games"]
    order = overall.reset_index().sort_values(["rate", "agent"], ascending=[False, True])["agent"].tolist()
    rank = {a: i for i, a in enumerate(order)}
    t = t.sort_values(["agent", "opponent"], key=lambda c: c.map(rank)).reset_index(drop=True)
    wide = t.pivot(index="agent", columns="opponent", values="rate").reindex(index=order, columns=order)
    wide.index.name, wide.columns.name = "agent", "opponent"
    return Pairwise(t, wide)


# ---- ratings ------------------------------------------------------------------------------------


def game_ranks(mask: int, sp) -> list[int]:
    """The finishing order of one game's seats for a rating update (0 is best): the winning seats
    (bits of `mask`) share rank 0, the others follow by final SP, highest first, equal SP equal
    rank. With no winner (mask 0) every seat is ranked by SP."""
    sp = [int(x) for x in sp]
    winners = [j for j in range(len(sp)) if mask >> j & 1]
    rest = sorted({sp[j] for j in range(len(sp)) if j not in winners}, reverse=True)
    base = 1 if winners else 0
    return [0 if j in winners else base + rest.index(sp[j]) for j in range(len(sp))]


SCORE_STEMS = ("sp", "vp")      # the games' score columns (`GameSpec.score`)


def score_column(df: pd.DataFrame, seat: int) -> str:
    """The column of seat's final score in a games frame, whichever game it holds."""
    for stem in SCORE_STEMS:
        if f"{stem}_{seat}" in df.columns:
            return f"{stem}_{seat}"
    raise KeyError(f"no score column for seat {seat}")


def ratings(df: pd.DataFrame, model=None) -> pd.DataFrame:
    """OpenSkill Plackett-Luce ratings of the agents, for any number of players.

    Games are rated one at a time in `game` order (so the result is deterministic), each seat a
    team of one, ranked by `game_ranks` (winners first, then by final SP, ties equal). An agent in
    several seats of one game takes the mean of its seats' updated mu and sigma; a game with one
    agent in every seat says nothing about agents' relative strength and is skipped. `model` is an
    openskill model (default `PlackettLuce(tau=0)`: mu 25, sigma 25/3, and no added uncertainty per
    game, since agents do not change between games; with openskill's default tau the ratings drift
    with the most recent games of a long run).

    Returns columns agent, mu, sigma, ordinal (mu - 3 sigma, a conservative skill estimate),
    games (games rated), sorted by ordinal, best first. Costs about 0.1 ms per game.
    """
    from openskill.models import PlackettLuce

    model = model if model is not None else PlackettLuce(tau=0.0)
    p = players(df)
    agent_cols = [df[f"agent_{j}"].astype(str).to_numpy(dtype=object) for j in range(p)]
    names = sorted({a for col in agent_cols for a in col})
    current = {a: model.rating(name=a) for a in names}
    games = dict.fromkeys(names, 0)
    order = np.argsort(df["game"].to_numpy(), kind="stable") if "game" in df.columns else np.arange(len(df))
    masks = df["win_mask"].to_numpy(np.int64) if "win_mask" in df.columns else None
    winners = df["winner"].to_numpy(np.int64)
    sps = np.stack([df[score_column(df, j)].to_numpy(np.int64) for j in range(p)], axis=1)
    for i in order:
        seats = [col[i] for col in agent_cols]
        if len(set(seats)) < 2:
            continue
        mask = int(masks[i]) if masks is not None else (1 << int(winners[i]) if winners[i] >= 0 else 0)
        new = model.rate([[current[a]] for a in seats], ranks=game_ranks(mask, sps[i]))
        for a in set(seats):
            mine = [new[j][0] for j in range(p) if seats[j] == a]
            if len(mine) == 1:
                current[a] = mine[0]
            else:
                current[a] = model.rating(mu=float(np.mean([r.mu for r in mine])),
                                          sigma=float(np.mean([r.sigma for r in mine])), name=a)
            games[a] += 1
    t = pd.DataFrame({"agent": names,
                      "mu": [current[a].mu for a in names],
                      "sigma": [current[a].sigma for a in names],
                      "ordinal": [current[a].ordinal() for a in names],
                      "games": [games[a] for a in names]})
    return t.sort_values(["ordinal", "agent"], ascending=[False, True], kind="stable").reset_index(drop=True)


# ---- sequential test ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SPRT:
    """The state of a Wald SPRT: `decision` is 'accept_h1', 'accept_h0' or 'continue'."""

    decision: str
    llr: float      # log-likelihood ratio log L(p1) / L(p0) of the results so far
    lower: float    # accept H0 at or below this: log(beta / (1 - alpha))
    upper: float    # accept H1 at or above this: log((1 - beta) / alpha)
    wins: int
    losses: int
    p0: float
    p1: float


def sprt(wins: int, losses: int, p0: float = 0.5, p1: float = 0.55, alpha: float = 0.05,
         beta: float = 0.05) -> SPRT:
    """Wald's sequential probability ratio test on agent A's win probability p against B.

    H0: p = p0 versus H1: p = p1 (simple hypotheses; draws are left out, so p is A's share of the
    decisive games). alpha is the chance of accepting H1 when H0 holds, beta that of accepting H0
    when H1 holds. Call it after every game or batch with the running totals and stop at the first
    decision other than 'continue'; the error rates hold for that stopping rule (looking only in
    batches makes the test slightly conservative). Neither scipy nor statsmodels provides an SPRT,
    so the Bernoulli log-likelihood ratio is written here:
    llr = wins log(p1/p0) + losses log((1-p1)/(1-p0)).
    """
    if not (0 < p0 < 1 and 0 < p1 < 1) or p0 == p1:
        raise ValueError(f"p0 and p1 must differ and lie strictly between 0 and 1, got {p0}, {p1}")
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError(f"alpha and beta must lie in (0, 1) with alpha + beta < 1, got {alpha}, {beta}")
    if wins < 0 or losses < 0:
        raise ValueError(f"wins and losses must be counts, got {wins}, {losses}")
    llr = wins * math.log(p1 / p0) + losses * math.log((1 - p1) / (1 - p0))
    lower = math.log(beta / (1 - alpha))
    upper = math.log((1 - beta) / alpha)
    decision = "accept_h1" if llr >= upper else "accept_h0" if llr <= lower else "continue"
    return SPRT(decision, llr, lower, upper, int(wins), int(losses), p0, p1)


# ---- first player -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FirstPlayerAdvantage:
    """Seat 0's (the first player's) win rate against the fair share 1/players."""

    players: int
    wins: int
    games: int
    rate: float
    lo: float           # 95% Wilson interval of rate
    hi: float
    expected: float     # 1 / players
    excess: float       # rate - expected
    p_value: float      # exact two-sided binomial test of rate == expected


def first_player_advantage(df: pd.DataFrame) -> FirstPlayerAdvantage:
    """How often the first seat wins, with its interval, against 1/P (shared wins count as wins)."""
    from scipy.stats import binomtest

    p = players(df)
    n = len(df)
    w = int(won(df, 0).sum())
    lo, hi = wilson(w, n)
    rate = w / n if n else math.nan
    pv = float(binomtest(w, n, 1 / p).pvalue) if n else math.nan
    return FirstPlayerAdvantage(p, w, n, rate, lo, hi, 1 / p, rate - 1 / p, pv)


# ---- princesses ---------------------------------------------------------------------------------


def princess_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per princess: how often backed and how backing seats fared.

    Columns: princess, backed (seats that backed her), seat_share (backed / all seats played),
    game_share (share of games in which some seat backed her), wins, rate, lo, hi (win rate of the
    backing seats, 95% Wilson), mean_turn and median_turn (the backing seat's own turn number when
    it backed). Sorted by rate, best first; the last row, 'none', holds the seats that never
    backed (turn columns NaN). How often a princess was *available* is not in the games frame, so
    the shares are of all seats and games, not of the games that offered her.
    """
    s = seat_rows(df)
    if "princess" not in s.columns:
        raise ValueError("the games frame has no princess_j columns")
    n_games = len(df)
    t = s.groupby("princess", sort=True).agg(
        backed=("won", "size"), wins=("won", "sum"), games_backed=("game", "nunique")).reset_index()
    t["wins"] = t["wins"].astype(np.int64)
    t["seat_share"] = t["backed"] / len(s)
    t["game_share"] = t["games_backed"] / n_games
    t = _with_rates(t, games="backed")
    if "backed_turn" in s.columns:
        turns = s[(s["princess"] != NONE) & (s["backed_turn"] > 0)].groupby("princess")["backed_turn"]
        t["mean_turn"] = t["princess"].map(turns.mean()).astype(float)
        t["median_turn"] = t["princess"].map(turns.median()).astype(float)
    else:
        t["mean_turn"] = t["median_turn"] = np.nan
    t["_none"] = t["princess"] == NONE
    t = t.sort_values(["_none", "rate", "princess"], ascending=[True, False, True], kind="stable")
    cols = ["princess", "backed", "seat_share", "game_share", "wins", "rate", "lo", "hi", "mean_turn", "median_turn"]
    return t[cols].reset_index(drop=True)


# ---- market cards -------------------------------------------------------------------------------


def market_kinds(df: pd.DataFrame) -> list[str]:
    """The common kinds offered in any game of `df`, sorted."""
    markets = df["market"].astype(str).unique()
    return sorted({k for m in markets for k in m.split(",") if k})


def offers(df: pd.DataFrame, kind: str) -> np.ndarray:
    """Which games' market offered `kind` (the market column categorical or plain strings)."""
    from hoc.research.harness import offers as offers_in  # the harness reads a categorical market column

    if not isinstance(df["market"].dtype, pd.CategoricalDtype):
        df = pd.DataFrame({"market": df["market"].astype(str).astype("category")})
    return offers_in(df, kind)


def card_effects(df: pd.DataFrame, kinds: list[str] | None = None) -> pd.DataFrame:
    """For balance studies of market cards: per common kind, the first-player advantage and the
    game length in games whose market offers the kind against games whose market does not.

    `kinds` defaults to every kind offered in some game. Columns per kind:
    games_with, games_without; first_with, first_with_lo, first_with_hi (seat 0's win rate in games
    offering the kind, 95% Wilson) and the same for first_without; first_diff = first_with -
    first_without with first_diff_lo/hi (Newcombe's hybrid score interval, statsmodels
    `confint_proportions_2indep(method="newcomb")`); turns_with, turns_without (mean turns per game,
    all players), turns_diff with turns_diff_lo/hi (Welch's t interval). Sides with no games (or
    fewer than two for the turn interval) give NaN. These are associations over random markets:
    a kind's effect is mixed with that of the kinds it tends to appear with.
    """
    from scipy.stats import ttest_ind

    kinds = market_kinds(df) if kinds is None else list(kinds)
    first = won(df, 0)
    turns = df["turns"].to_numpy(float)
    rows = []
    for kind in kinds:
        has = offers(df, kind)
        n1, n0 = int(has.sum()), int((~has).sum())
        w1, w0 = int(first[has].sum()), int(first[~has].sum())
        r1, lo1, hi1 = (c[0] for c in _wilson_columns([w1], [n1]))
        r0, lo0, hi0 = (c[0] for c in _wilson_columns([w0], [n0]))
        _, dlo, dhi = rate_difference(w1, n1, w0, n0)
        t1 = turns[has].mean() if n1 else math.nan
        t0 = turns[~has].mean() if n0 else math.nan
        if n1 >= 2 and n0 >= 2 and (turns[has].var() > 0 or turns[~has].var() > 0):
            ci = ttest_ind(turns[has], turns[~has], equal_var=False).confidence_interval(CONFIDENCE)
            tlo, thi = float(ci.low), float(ci.high)
        else:
            tlo = thi = math.nan
        rows.append({"kind": kind, "games_with": n1, "games_without": n0,
                     "first_with": r1, "first_with_lo": lo1, "first_with_hi": hi1,
                     "first_without": r0, "first_without_lo": lo0, "first_without_hi": hi0,
                     "first_diff": r1 - r0, "first_diff_lo": float(dlo), "first_diff_hi": float(dhi),
                     "turns_with": t1, "turns_without": t0, "turns_diff": t1 - t0,
                     "turns_diff_lo": tlo, "turns_diff_hi": thi})
    return pd.DataFrame(rows, columns=["kind", "games_with", "games_without",
                                       "first_with", "first_with_lo", "first_with_hi",
                                       "first_without", "first_without_lo", "first_without_hi",
                                       "first_diff", "first_diff_lo", "first_diff_hi",
                                       "turns_with", "turns_without", "turns_diff", "turns_diff_lo", "turns_diff_hi"])


def rate_difference(w1: int, n1: int, w0: int, n0: int) -> tuple[float, float, float]:
    """w1/n1 - w0/n0 with Newcombe's 95% interval (NaN when a side is empty)."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    if not n1 or not n0:
        return (math.nan, math.nan, math.nan)
    lo, hi = confint_proportions_2indep(w1, n1, w0, n0, method="newcomb", compare="diff", alpha=ALPHA)
    return (w1 / n1 - w0 / n0, float(lo), float(hi))


def end_reasons_by_kind(df: pd.DataFrame) -> pd.DataFrame:
    """Per common kind: the share of each end reason in games whose market offered it and in games
    whose market did not (columns REASON_with, REASON_without)."""
    reasons = [r for r in df["end_reason"].astype(str).unique()]
    end = df["end_reason"].astype(str).to_numpy()
    rows = []
    for kind in market_kinds(df):
        has = offers(df, kind)
        row = {"kind": kind, "games_with": int(has.sum())}
        for r in sorted(reasons):
            row[f"{r}_with"] = float((end[has] == r).mean()) if has.any() else math.nan
            row[f"{r}_without"] = float((end[~has] == r).mean()) if (~has).any() else math.nan
        rows.append(row)
    return pd.DataFrame(rows)
