"""Princess strength under strong play: each seat of each game draws its princess independently and
uniformly from the pool (by the game's seed, so every condition run with one seed sees the same draws
and markets) and is played by that princess's best plan, a plan that backs her first. The games
record, for every seat, the princess it drew (its first choice) and the princess it backed, so a
princess's win rate counts exactly the seats that drew her and backed her.

Draws may coincide: the seat that backs second then takes its plan's next princess. Such seats (and
those that never back) are not counted in the win rates "when backed by her best plan"; how often
this happens, and how those seats fare, is reported beside them.

At 2 players the princess-against-princess matrix is played apart: for each pair of princesses, the
two best plans in mirrored games (each game seed played with both seatings). At 3 and 4 players it
is read from the drawn games: X's win rate given that princess Y sits at the table (some other seat
backed her), and given the whole set of princesses the other seats backed."""
from __future__ import annotations

import dataclasses
import difflib
import math
from itertools import combinations

import numpy as np
import pandas as pd

from hoc.agents.registry import AGENTS, Agent, get
from hoc.errors import HocError
from hoc.research import stats
from hoc.research.harness import Backend, Plan, chunk_size
from hoc.research.runs import check_memory, execute
from hoc.research.simulate import concat
from hoc.games.heart_of_crown.rules import Ruleset

DEFAULT_PLAN = "tuned_{}_{}p"      # a princess's tuned plan for a table size: the strongest plan that backs her first
EDITION_PLAN = "tuned_{}_{}_{}p"   # one tuned under a given edition (tuned_twins_1e_3p), preferred there
CORRECTION = "fdr_bh"             # statsmodels multipletests method for the market comparisons
CORRECTION_NAME = "Benjamini-Hochberg"
TOP_KINDS = 3                     # market kinds shown per princess besides the corrected-significant ones
MIN_SEATS = 30                    # seats needed on each side of a market comparison
SHOWN_MIN = 0.02                  # significant market differences listed from this size (2 points) up


# ---- the plans --------------------------------------------------------------------------------------

def parse_plans(values: list[str] | None, ruleset: Ruleset) -> dict[str, str]:
    """`--plans` values, each 'PRINCESS=AGENT,PRINCESS=AGENT...': the agent spec replacing each named
    princess's default plan. An agent spec may itself hold commas (`ismcts:princess=twins,n=200`):
    a comma starts a new entry only before the name of a princess and '='."""
    db = ruleset.cards
    everyone = db.pile_ids("princess")
    pool = [db.name(k) for k in ruleset.pool]
    plans: dict[str, str] = {}
    for value in values or ():
        current = None
        for token in value.split(","):
            key, eq, spec = token.partition("=")
            key = key.strip()
            if eq and key in everyone:
                current = key
                if key not in pool:
                    raise HocError(f"--plans {key}: {key} is not in the princess pool ({', '.join(pool)})")
                if key in plans:
                    raise HocError(f"--plans names {key} twice")
                plans[key] = spec.strip()
            elif current is None or (eq and _misspelt(key, everyone)):
                hint = difflib.get_close_matches(key, everyone, n=1)
                hint = f" (did you mean {hint[0]!r}?)" if hint else ""
                raise HocError(f"--plans {token!r}: unknown princess {key!r}{hint}; expected PRINCESS=AGENT with a "
                               f"princess of {ruleset.edition}: {', '.join(everyone)}")
            else:                                   # a comma inside the previous entry's agent spec
                plans[current] += "," + token
    for princess, spec in plans.items():
        if not spec:
            raise HocError(f"--plans {princess}= names no agent")
    return plans


def _misspelt(key: str, princesses: list[str]) -> bool:
    """A 'key=' inside an agent spec that is surely a misspelt princess ('twinz=...'), not an option."""
    return bool(difflib.get_close_matches(key, princesses, n=1, cutoff=0.75))


def plan_names(ruleset: Ruleset, princess: str) -> list[str]:
    """The library names that may play `princess` by default, the preferred first: for the table size,
    then for 2 players; under an edition other than 2E, her plans tuned under that edition
    (`tuned_PRINCESS_1e_3p`, `tuned_PRINCESS_1e_2p`) before her 2E tuned plan `tuned_PRINCESS_2p`."""
    sizes = list(dict.fromkeys((ruleset.players, 2)))
    if ruleset.second_edition:
        return [DEFAULT_PLAN.format(princess, n) for n in sizes]
    return [EDITION_PLAN.format(princess, ruleset.edition, n) for n in sizes] + [DEFAULT_PLAN.format(princess, 2)]


def default_plan(ruleset: Ruleset, princess: str) -> str:
    """The library plan that plays `princess` by default: the first of `plan_names` the library has
    (a 2E plan is read for the edition by the agent format's edition rule), else her 2-player name."""
    names = plan_names(ruleset, princess)
    return next((n for n in names if n in AGENTS), names[-1])


def best_plans(ruleset: Ruleset, specs: dict[str, str] | None = None) -> dict[str, Agent]:
    """Each princess of the pool (in pool order) and the agent that plays her: `specs[princess]` if
    given, else her tuned plan (`default_plan`: the edition's own for the table size when there is
    one). A priority-list plan must back her first."""
    from hoc.games.heart_of_crown.agents import policies
    from hoc.games.heart_of_crown.agents.priority_kernel import PR_PRINCESS

    db = ruleset.cards
    specs = specs or {}
    plans = {}
    for k in ruleset.pool:
        princess = db.name(k)
        name = specs[princess] if princess in specs else default_plan(ruleset, princess)
        try:
            agent = get(name)
        except HocError as e:
            if princess in specs:
                raise HocError(f"--plans {princess}={name}: {e}") from None
            raise HocError(f"no plan for {princess}: {name} is not an agent; name one with --plans "
                           f"{princess}=AGENT") from None
        if agent.id == policies.PRIORITY:
            first = int(agent.params(ruleset)[PR_PRINCESS])
            if first != k:
                raise HocError(f"{princess}'s plan {agent.name} backs {db.name(first)} first, not {princess}: a "
                               f"princess's plan must back her first (its [princess] prefer list)")
        plans[princess] = agent
    return plans


# ---- the study ------------------------------------------------------------------------------------

@dataclasses.dataclass
class PrincessStrength:
    ruleset: Ruleset
    plans: dict[str, Agent]          # princess -> the agent playing her, in pool order
    games: pd.DataFrame              # the drawn games (entry_j: the pool index each seat drew)
    seats: pd.DataFrame              # one row per seat of the drawn games
    draws: pd.DataFrame              # per princess: how often drawn, and what the seats that drew her backed
    strength: pd.DataFrame           # per princess: win rate when backed by her best plan
    matrix: pd.DataFrame             # long: princess, opponent, wins, games, rate, lo, hi
    matrix_design: str               # how the matrix was measured, in words
    tables: pd.DataFrame             # 3/4 players: per princess and set of other princesses backed
    markets: pd.DataFrame            # per princess and common kind: with minus without, corrected p
    pair_games: pd.DataFrame | None = None     # 2 players: the mirrored games of the matrix

    @property
    def pool(self) -> list[str]:
        return list(self.plans)


def princess_strength(ruleset: Ruleset, plans: dict[str, Agent], games: int, seed: int = 0,
                      backend: Backend | None = None, out: str | None = None, progress: bool = False,
                      games_per_pair: int = 0, min_seats: int = MIN_SEATS, mirror: bool = False) -> PrincessStrength:
    """Play `games` games with each seat's princess drawn and played by her plan in `plans` (from
    `best_plans`), and at 2 players `games_per_pair` mirrored games for each pair of princesses
    (0: no matrix games). With `mirror`, each draw is also played with its lineup rotated through
    every seat (same seed). With `out` (a .parquet folder), the games are written there too."""
    from hoc.research.studies import _out

    pool = [ruleset.cards.name(k) for k in ruleset.pool]
    if list(plans) != pool:
        raise HocError(f"plans must be given for the pool in its order: {', '.join(pool)}")
    pairs = list(combinations(pool, 2)) if ruleset.players == 2 and games_per_pair > 0 else []
    check_memory(games + games_per_pair * len(pairs))
    backend = backend or Backend()
    agents = list(plans.values())
    drawn = Plan(ruleset, agents, games, seed, draw=True, mirror=mirror, chunk=chunk_size(games))
    df = _run(drawn, backend, _out(out, "drawn"), progress)
    seats = seat_table(df, pool)
    result = PrincessStrength(ruleset, plans, df, seats, draw_table(seats, pool), strength_table(seats, plans),
                              pd.DataFrame(), "", pd.DataFrame(), market_spread(df, seats, pool, min_seats))
    if pairs:
        frames = []
        for x, y in pairs:
            plan = Plan(ruleset, [plans[x], plans[y]], games_per_pair, seed, mirror=True,
                        chunk=chunk_size(games_per_pair))
            g = _run(plan, backend, _out(out, f"{x}-vs-{y}"), progress)
            entries = plan.seats(0, plan.games)[g["game"].to_numpy()]
            g.insert(0, "pairing", f"{x}-vs-{y}")
            for j in range(2):
                g[f"entry_{j}"] = np.array([pool.index(x), pool.index(y)])[entries[:, j]]
            frames.append(g)
        result.pair_games = concat(frames)
        result.matrix = head_to_head(result.pair_games, pool)
        result.matrix_design = (f"best plan against best plan, {games_per_pair:,} mirrored games per pair (each game "
                                f"seed played with both seatings), same seeds for every pair")
    elif ruleset.players > 2:
        result.matrix = at_the_table(seats, pool)
        result.tables = by_table(seats, pool)
        result.matrix_design = ("read from the drawn games: X's win rate (seats that drew and backed X) in the games "
                                "where another seat backed Y")
    return result


COLUMNS = ["game", "seed", "winner", "win_mask", "turns", "market", "agent", "princess", "backed_turn", "entry"]


def _run(plan: Plan, backend: Backend, out: str | None, progress: bool) -> pd.DataFrame:
    frames: list[pd.DataFrame] = []

    def keep(df: pd.DataFrame) -> None:
        frames.append(df[[c for c in df.columns if c in COLUMNS or c.rsplit("_", 1)[0] in COLUMNS]])

    execute(plan, backend, out, [keep], progress)
    return concat(frames)


# ---- tables -----------------------------------------------------------------------------------------

def seat_table(df: pd.DataFrame, pool: list[str]) -> pd.DataFrame:
    """One row per seat of drawn games: game, seat, agent, first_choice (the princess drawn), backed
    (the princess backed, 'none' if never), got_first, won, backed_turn, and others (the princesses
    the other seats backed, sorted and joined by '+'; '' if none)."""
    p = stats.players(df)
    s = stats.seat_rows(df)
    s["first_choice"] = np.asarray(pool, dtype=object)[
        np.concatenate([df[f"entry_{j}"].to_numpy(np.int64) for j in range(p)])]
    s = s.rename(columns={"princess": "backed"})
    s["got_first"] = (s["backed"] == s["first_choice"]).to_numpy()
    backed = np.stack([s["backed"].to_numpy(dtype=object)[j * len(df):(j + 1) * len(df)] for j in range(p)], axis=1)
    others = []
    for j in range(p):
        rest = np.delete(backed, j, axis=1)
        others.append(["+".join(sorted(b for b in row if b != stats.NONE)) for row in rest])
    s["others"] = np.concatenate(others) if p > 1 else ""
    s["row"] = np.tile(np.arange(len(df)), p)         # the game's row in the games frame
    return s


def _rates(wins, n) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return stats._wilson_columns(np.asarray(wins), np.asarray(n))


def draw_table(seats: pd.DataFrame, pool: list[str]) -> pd.DataFrame:
    """Per princess of the pool: the seats that drew her (count, share of all seats with its Wilson
    interval, the even share 1/pool), and what they backed: her, another princess (she was taken
    first), or none."""
    n = len(seats)
    rows = []
    for princess in pool:
        s = seats[seats["first_choice"] == princess]
        rows.append({"princess": princess, "drawn": len(s), "got_first": int(s["got_first"].sum()),
                     "backed_other": int(((s["backed"] != princess) & (s["backed"] != stats.NONE)).sum()),
                     "backed_none": int((s["backed"] == stats.NONE).sum())})
    t = pd.DataFrame(rows)
    t["share"], t["share_lo"], t["share_hi"] = _rates(t["drawn"], np.full(len(t), n))
    t["even_share"] = 1 / len(pool)
    t["got_first_share"] = t["got_first"] / t["drawn"].where(t["drawn"] > 0)
    return t


def strength_table(seats: pd.DataFrame, plans: dict[str, Agent]) -> pd.DataFrame:
    """Per princess: her plan; the win rate of the seats that drew her and backed her (`rate`, `lo`,
    `hi`, over `seats` seats) against the even share 1/players (`vs_even` with its interval); the
    win rate of every seat that drew her whatever it backed (`drawn_rate`...); the median own turn
    she was backed on. Sorted by rate, best first."""
    players = int(seats["seat"].max()) + 1
    rows = []
    for princess, agent in plans.items():
        drew = seats[seats["first_choice"] == princess]
        clean = drew[drew["got_first"]]
        rows.append({"princess": princess, "plan": agent.name, "seats": len(clean), "wins": int(clean["won"].sum()),
                     "drawn": len(drew), "drawn_wins": int(drew["won"].sum()),
                     "median_turn": float(clean["backed_turn"].median()) if len(clean) else math.nan})
    t = pd.DataFrame(rows)
    t["rate"], t["lo"], t["hi"] = _rates(t["wins"], t["seats"])
    t["even"] = 1 / players
    t["vs_even"], t["vs_even_lo"], t["vs_even_hi"] = t["rate"] - t["even"], t["lo"] - t["even"], t["hi"] - t["even"]
    t["drawn_rate"], t["drawn_lo"], t["drawn_hi"] = _rates(t["drawn_wins"], t["drawn"])
    return t.sort_values(["rate", "princess"], ascending=[False, True], kind="stable").reset_index(drop=True)


def not_first(seats: pd.DataFrame) -> dict:
    """The seats left out of the win rates: how many did not back the princess they drew (another
    princess, or none), their share of all seats with its interval, and their win rate."""
    left = seats[~seats["got_first"]]
    other = left[left["backed"] != stats.NONE]
    out = {"seats": len(seats), "left_out": len(left)}
    out["share"] = len(left) / max(1, len(seats))
    out["share_lo"], out["share_hi"] = stats.wilson(len(left), len(seats))
    out["backed_other"], out["backed_none"] = len(other), len(left) - len(other)
    w = int(left["won"].sum())
    out["rate"], (out["lo"], out["hi"]) = (w / len(left) if len(left) else math.nan), stats.wilson(w, len(left))
    return out


def head_to_head(pair_games: pd.DataFrame, pool: list[str]) -> pd.DataFrame:
    """From mirrored 2-player games of pairs of plans (columns entry_j: the pool index of each seat's
    princess): per ordered pair (princess, opponent) the princess's wins (shared wins count for
    both), games, rate with its Wilson interval, and the share of those games where both seats
    backed their own princess."""
    rows = []
    for pairing, g in pair_games.groupby("pairing", sort=False, observed=True):
        entries = np.stack([g[f"entry_{j}"].to_numpy() for j in range(2)], axis=1)
        won = np.stack([stats.won(g, j) for j in range(2)], axis=1)
        backed = np.stack([g[f"princess_{j}"].astype(str).to_numpy() for j in range(2)], axis=1)
        both = (backed == np.asarray(pool, dtype=object)[entries]).all(axis=1)
        for me in np.unique(entries):
            mine = entries == me
            rows.append({"princess": pool[me], "opponent": pool[int(entries[~mine][0])],
                         "wins": int(won[mine].sum()), "games": len(g), "both_backed_own": float(both.mean())})
    t = pd.DataFrame(rows, columns=["princess", "opponent", "wins", "games", "both_backed_own"])
    t["rate"], t["lo"], t["hi"] = _rates(t["wins"], t["games"])
    return t


def at_the_table(seats: pd.DataFrame, pool: list[str]) -> pd.DataFrame:
    """Per ordered pair (princess X, opponent Y): the win rate of the seats that drew and backed X in
    the games where another seat backed Y, with its Wilson interval."""
    clean = seats[seats["got_first"]]
    rows = []
    for x in pool:
        mine = clean[clean["first_choice"] == x]
        present = mine["others"].str.split("+")
        for y in pool:
            if y == x:
                continue
            h = present.map(lambda o, y=y: y in o).to_numpy(bool)
            rows.append({"princess": x, "opponent": y, "wins": int(mine["won"].to_numpy()[h].sum()),
                         "games": int(h.sum())})
    t = pd.DataFrame(rows, columns=["princess", "opponent", "wins", "games"])
    t["rate"], t["lo"], t["hi"] = _rates(t["wins"], t["games"])
    return t


def by_table(seats: pd.DataFrame, pool: list[str]) -> pd.DataFrame:
    """Per princess X and set of princesses backed by the other seats: seats that drew and backed X,
    their wins and win rate with its Wilson interval."""
    clean = seats[seats["got_first"]]
    t = clean.groupby(["first_choice", "others"]).agg(seats=("won", "size"), wins=("won", "sum")).reset_index()
    t = t.rename(columns={"first_choice": "princess"})
    t["wins"] = t["wins"].astype(np.int64)
    t["rate"], t["lo"], t["hi"] = _rates(t["wins"], t["seats"])
    t["_order"] = t["princess"].map(pool.index)
    return t.sort_values(["_order", "rate"], ascending=[True, False]).drop(columns="_order").reset_index(drop=True)


def market_spread(df: pd.DataFrame, seats: pd.DataFrame, pool: list[str], min_seats: int = MIN_SEATS) -> pd.DataFrame:
    """Per princess and common kind: the win rate of the seats that drew and backed her in games whose
    market offered the kind minus in games whose market did not (Newcombe interval), the two-sided
    p-value of a score test of equal rates, and the p-value corrected for every comparison of the
    table (Benjamini-Hochberg, statsmodels `multipletests`); `significant` where the corrected
    p-value is below 5%. Comparisons with fewer than `min_seats` seats on a side are left out."""
    from statsmodels.stats.multitest import multipletests
    from statsmodels.stats.proportion import test_proportions_2indep

    cols = ["princess", "kind", "with", "without", "rate_with", "rate_without", "diff", "lo", "hi", "p", "p_corrected",
            "significant"]
    kinds = stats.market_kinds(df)
    if not kinds:
        return pd.DataFrame(columns=cols)
    clean = seats[seats["got_first"]]
    rows_of = clean["row"].to_numpy()
    won = clean["won"].to_numpy()
    rows = []
    for kind in kinds:
        has = stats.offers(df, kind)[rows_of]
        for princess in pool:
            mine = (clean["first_choice"] == princess).to_numpy()
            h, w = has[mine], won[mine]
            n1, n0 = int(h.sum()), int((~h).sum())
            if n1 < min_seats or n0 < min_seats:
                continue
            w1, w0 = int(w[h].sum()), int(w[~h].sum())
            d, lo, hi = stats.rate_difference(w1, n1, w0, n0)
            p = float(test_proportions_2indep(w1, n1, w0, n0, method="score", compare="diff").pvalue)
            rows.append({"princess": princess, "kind": kind, "with": n1, "without": n0, "rate_with": w1 / n1,
                         "rate_without": w0 / n0, "diff": d, "lo": lo, "hi": hi, "p": p})
    if not rows:
        return pd.DataFrame(columns=cols)
    t = pd.DataFrame(rows)
    t["significant"], t["p_corrected"] = multipletests(t["p"].to_numpy(), alpha=stats.ALPHA, method=CORRECTION)[:2]
    t["_order"], t["_size"] = t["princess"].map(pool.index), -t["diff"].abs()
    return t.sort_values(["_order", "_size"])[cols].reset_index(drop=True)


def market_highlights(markets: pd.DataFrame, top: int = TOP_KINDS, least: float = SHOWN_MIN) -> pd.DataFrame:
    """What a report shows of the market table: the corrected-significant comparisons of at least
    `least` (a rate difference; with 100,000s of seats, differences far below a point are significant
    and fill the page), and for each princess her `top` largest differences by size."""
    if markets.empty:
        return markets
    largest = markets.assign(size=markets["diff"].abs()).sort_values("size", ascending=False).groupby(
        "princess", sort=False).head(top).index
    keep = markets.index.isin(largest) | (markets["significant"].to_numpy(bool) & (markets["diff"].abs() >= least))
    return markets[keep]


def market_words(markets: pd.DataFrame, top: int = TOP_KINDS, least: float = SHOWN_MIN) -> str:
    """What the market lines show, in words: how many comparisons, how many significant, which listed."""
    sig = markets["significant"].to_numpy(bool)
    small = int((sig & (markets["diff"].abs() < least)).sum())
    return (f"{len(markets)} comparisons, {int(sig.sum())} significant after the {CORRECTION_NAME} correction "
            f"(marked *): listed are those of at least {100 * least:g} points ({small} smaller ones are not), and "
            f"the {top} largest of each princess, significant or not")


def market_lines(markets: pd.DataFrame, top: int = TOP_KINDS) -> list[tuple[str, str]]:
    """Per princess, her highlighted market kinds in one line, largest difference first:
    'kind +4.9 [+3.3, +6.4]*, ...' (* corrected-significant)."""
    shown = market_highlights(markets, top)
    return [(princess, ", ".join(f"{m.kind} {100 * m.diff:+.1f} [{100 * m.lo:+.1f}, {100 * m.hi:+.1f}]"
                                 f"{'*' if m.significant else ''}" for m in g.itertuples()))
            for princess, g in shown.groupby("princess", sort=False)]


# ---- reports --------------------------------------------------------------------------------------

def _pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]"


def _points(d: float, lo: float, hi: float) -> str:
    return f"{100 * d:+5.1f} [{100 * lo:+5.1f}, {100 * hi:+5.1f}]"


def report(r: PrincessStrength, market: str = "random", seed: int = 0) -> list[str]:
    """The study as console lines: every figure with its 95% interval and the agents behind it."""
    rs, pool = r.ruleset, r.pool
    lines = [f"princesses: {len(r.games):,} games, {rs.players} players, market {market}, seed {seed}; each seat's "
             f"princess drawn independently and uniformly from the pool of {len(pool)} in every game, and played "
             f"by her plan:",
             "  " + ", ".join(f"{p} {a.name}" for p, a in r.plans.items()), "",
             f"first choices (seats that drew each princess; an even share is {100 / len(pool):.1f}%):"]
    for d in r.draws.itertuples():
        lines.append(f"  {d.princess:<12} {_pct(d.share, d.share_lo, d.share_hi)} of seats ({d.drawn:,}); "
                     f"backed her {d.got_first:,}, another princess {d.backed_other:,}, none {d.backed_none:,}")
    left = not_first(r.seats)
    lines += [f"left out of the win rates: {left['left_out']:,} seats of {left['seats']:,} "
              f"({_pct(left['share'], left['share_lo'], left['share_hi']).strip()}) did not back the princess they "
              f"drew ({left['backed_other']:,} backed another, her first taken by an earlier backer; "
              f"{left['backed_none']:,} none); they won {_pct(left['rate'], left['lo'], left['hi']).strip()}", "",
              f"win rate when backed by her best plan (seats that drew her and backed her; an even share is "
              f"{100 / rs.players:.1f}%):",
              f"  {'princess':<12} {'plan':<22} {'win rate (95%)':>22} {'vs even share':>22} {'seats':>8} "
              f"{'every seat that drew her':>26} {'turn':>5}"]
    for t in r.strength.itertuples():
        lines.append(f"  {t.princess:<12} {t.plan:<22} {_pct(t.rate, t.lo, t.hi):>22} "
                     f"{_points(t.vs_even, t.vs_even_lo, t.vs_even_hi):>22} {t.seats:>8,} "
                     f"{_pct(t.drawn_rate, t.drawn_lo, t.drawn_hi):>26} {t.median_turn:>5.0f}")
    if len(r.matrix):
        per_set = "; per set of princesses at the table: --json, 'tables'" if len(r.tables) else ""
        lines += ["", f"princess against princess ({r.matrix_design}); row princess's win rate, 95% interval{per_set}:"]
        width = max(len(p) for p in pool) + 2
        lines.append(" " * width + "".join(f"{p:>22}" for p in pool))
        cell = r.matrix.set_index(["princess", "opponent"])
        for x in pool:
            row = [f"{_pct(*cell.loc[(x, y), ['rate', 'lo', 'hi']]):>22}" if (x, y) in cell.index
                   and cell.loc[(x, y), "games"] > 0 else f"{'':>22}" for y in pool]
            lines.append(f"{x:<{width}}" + "".join(row))
    if len(r.markets):
        lines += ["", f"market kinds that move each princess's win rate most: offered minus not offered, points; "
                      f"{market_words(r.markets)}:"]
        lines += [f"  {princess:<12} {text}" for princess, text in market_lines(r.markets)]
    return lines


def as_json(r: PrincessStrength, seed: int = 0) -> dict:
    import json

    def records(df: pd.DataFrame) -> list[dict]:
        return json.loads(df.to_json(orient="records")) if len(df) else []

    return {"games": len(r.games), "seed": seed, "players": r.ruleset.players,
            "plans": {p: a.name for p, a in r.plans.items()}, "draws": records(r.draws),
            "left_out": {k: None if isinstance(v, float) and math.isnan(v) else v
                         for k, v in not_first(r.seats).items()},
            "princesses": records(r.strength),
            "matrix_design": r.matrix_design, "matrix": records(r.matrix),
            "matrix_games": 0 if r.pair_games is None else len(r.pair_games),
            "tables": records(r.tables), "markets": records(r.markets),
            "market_correction": CORRECTION_NAME}
