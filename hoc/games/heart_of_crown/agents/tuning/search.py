"""The search: generations of plans raced against the opponents and the hall of fame.

Each generation's candidates are the elites of the last one (re-evaluated on fresh seeds, so an
early lucky score does not stick), the threshold proposals of a CMA-ES over the champion's
thresholds (pycma; its structure fixed), and children of the elites made by structural moves and
crossover. `evaluate.race` plays them with common random numbers and successive halving. The
champion of a generation may join the hall of fame, whose members then play as opponents.

Everything a generation does is drawn from (seed, generation) or from the pickled search state,
and no result depends on how games are split over workers, so a budget in games gives the same
plan serially, with --jobs, and after a restart from the last finished generation.
"""
from __future__ import annotations

import os
import pickle
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hoc.games.heart_of_crown.agents.priority import list_id
from hoc.agents.registry import Agent
from hoc.agents.tune import evaluate
from hoc.games.heart_of_crown.agents import operators
from hoc.games.heart_of_crown.agents.genome import Plan, Universe, from_text
from hoc.errors import HocError
from hoc.research.harness import Backend
from hoc.games.heart_of_crown.rules import Ruleset

# streams of random numbers, each drawn from (seed, stream, generation)
PLANS, GAMES, THRESHOLDS, PLAYOFF, VALIDATION = range(5)
PARSIMONY = 1e-4     # score taken off per rule, condition and listed card: far below the noise, it only
                     # decides between plans that play exactly the same games (dead rules go)
CHECKPOINT = "checkpoint.pkl"
FORMAT = 1      # of the checkpoint


def derive(seed: int, stream: int, generation: int = 0) -> int:
    """A 63-bit seed for one stream of one generation."""
    a, b = np.random.SeedSequence([seed, stream, generation]).generate_state(2, np.uint32)
    return int((int(a) << 31) ^ int(b)) & (2 ** 63 - 1)


@dataclass(frozen=True)
class Settings:
    """What determines a search (with its budget): a run resumes only with equal settings."""

    ruleset: Ruleset
    opponents: tuple[Agent, ...]
    seed: int = 0
    princess: str | None = None
    start: Plan | None = None          # --from: the plan the search starts from
    population: int = 24
    elites: int = 4
    proposals: int = 6                 # CMA-ES points per generation
    first_seeds: int = 8               # seeds per opponent in the first round of a race
    keep: int = 2                      # candidates left in the last round
    hall_size: int = 4                 # hall-of-fame members playing as opponents
    hall_every: int = 5                # generations at least between two admissions
    playoff_seeds: int = 200           # per opponent, for the last champions' final comparison
    playoff_champions: int = 4
    ban: tuple[str, ...] = ()          # kinds or cards the plan may not buy nor pick to gain (--ban)
    plan: bool = False                 # every candidate plays with the turn planner, its weights searched (--plan)
    second: bool = False               # every candidate weighs its Second phase by the planner (--second)

    def __post_init__(self):
        from hoc.games.heart_of_crown.game import check_seed

        object.__setattr__(self, "seed", check_seed(self.seed))
        if not 2 <= self.ruleset.players <= 4:
            raise HocError(f"tune plays 2 to 4 players, got {self.ruleset.players}")
        if self.population < self.elites + 2:
            raise HocError(f"population must be at least {self.elites + 2}, got {self.population}")
        if not self.opponents:
            raise HocError("tune needs at least one opponent")
        for a in self.opponents:
            if a.play is not None:
                raise HocError(f"opponent {a.name!r} is a Python agent; tune plays jitted agents only "
                               "(priority lists, archetypes, random)")
        object.__setattr__(self, "ban", tuple(self.ban))
        db = self.ruleset.cards
        for n in self.ban:
            if n not in db.ids and n not in db.pile_ids("common"):
                from hoc.names import did_you_mean

                raise HocError(f"--ban {n!r} is not a card or common kind of {self.ruleset.edition}"
                               f"{did_you_mean(n, db.pile_ids('common'))}")
        if len(set(self.ban)) != len(self.ban):
            raise HocError(f"--ban names a card twice: {', '.join(self.ban)}")
        if self.princess is not None and self.princess not in Universe(self.ruleset).princesses:
            raise HocError(f"--princess {self.princess!r} is not in the princess pool "
                           f"({', '.join(Universe(self.ruleset).princesses)})")

    @property
    def universe(self) -> Universe:
        return Universe(self.ruleset, self.princess, self.ban, self.plan, self.second)

    def identity(self) -> dict:
        d = self.ruleset.describe()
        d.update(opponents=[(a.name, a.params(self.ruleset).tobytes().hex()) for a in self.opponents],
                 seed=self.seed, princess=self.princess, start=self.start.toml() if self.start else None,
                 population=self.population, elites=self.elites, proposals=self.proposals,
                 first_seeds=self.first_seeds, keep=self.keep, hall_size=self.hall_size, hall_every=self.hall_every,
                 playoff_seeds=self.playoff_seeds, playoff_champions=self.playoff_champions)
        if self.ban:                    # only when given: checkpoints written before --ban still resume
            d["ban"] = list(self.ban)
        if self.plan:
            d["plan"] = True
        if self.second:
            d["second"] = True
        return d


def _randn(*shape):
    """numpy's global normals, named at module level: pycma's default (the bound method of numpy's
    global generator) pickles as a copy of that generator, which a resumed run would then use."""
    return np.random.randn(*shape)


class Thresholds:
    """CMA-ES over the thresholds of one plan structure: each generation asks for `popsize` plans
    and is told how they ranked. Coordinates are the thresholds themselves (whole numbers, within
    their bounds, with pycma's integer handling), each with a step of 12% of its range to start.

    pycma draws from numpy's global random state (its samples and its integer handling), so every
    call runs with a global state of its own, seeded here and pickled with the optimiser: a resumed
    or repeated search asks for the same plans, and nobody else's random numbers are disturbed."""

    def __init__(self, plan: Plan, seed: int, popsize: int):
        import cma

        self.plan = plan
        self.structure = plan.structure()
        self.random_state = np.random.RandomState(seed % 2 ** 32).get_state()
        lo, hi = plan.threshold_bounds()
        n = len(lo)
        with self._own_random():
            self.es = cma.CMAEvolutionStrategy(
                plan.thresholds().astype(float), 1.0,
                {"bounds": [list(lo - 0.49), list(hi + 0.49)], "CMA_stds": list(np.maximum(hi - lo, 1) * 0.12),
                 "popsize": popsize, "seed": np.nan, "randn": _randn, "integer_variables": list(range(n)),
                 "verbose": -9, "verb_log": 0, "verb_disp": 0})
        self.pending: list = []

    @contextmanager
    def _own_random(self):
        outside = np.random.get_state()
        np.random.set_state(self.random_state)
        try:
            yield
        finally:
            self.random_state = np.random.get_state()
            np.random.set_state(outside)

    def ask(self) -> list[Plan]:
        with self._own_random():
            self.pending = self.es.ask()
        return [self.plan.with_thresholds(x) for x in self.pending]

    def tell(self, fitness: np.ndarray) -> None:
        with self._own_random():
            self.es.tell(self.pending, list(-np.asarray(fitness, float)))     # CMA-ES minimises
        self.pending = []


@dataclass
class State:
    """The search after its last finished generation (what the checkpoint holds)."""

    identity: dict
    generation: int = 0
    games: int = 0
    seconds: float = 0.0
    elites: list[Plan] = field(default_factory=list)
    hall: list[Plan] = field(default_factory=list)
    hall_generations: list[int] = field(default_factory=list)
    optimiser: Thresholds | None = None
    history: list[dict] = field(default_factory=list)

    def active_hall(self, size: int) -> list[int]:
        """Indices of the hall members that play: up to `size`, spread from the first to the latest."""
        if not self.hall:
            return []
        return sorted({int(round(x)) for x in np.linspace(0, len(self.hall) - 1, min(size, len(self.hall)))})


def save(state: State, out: Path) -> None:
    tmp = out / (CHECKPOINT + ".tmp")
    with open(tmp, "wb") as f:
        pickle.dump({"format": FORMAT, "state": state}, f)
    os.replace(tmp, out / CHECKPOINT)     # a kill mid-write leaves the previous checkpoint whole


def load(out: Path, settings: Settings) -> State | None:
    path = out / CHECKPOINT
    if not path.exists():
        return None
    try:
        with open(path, "rb") as f:
            data = pickle.load(f)
    except Exception as e:      # any unreadable file: name it, never a traceback
        raise HocError(f"cannot read the checkpoint {path}: {e}; remove it to start afresh") from None
    state = data.get("state") if isinstance(data, dict) and data.get("format") == FORMAT else None
    if state is None:
        raise HocError(f"{path} is not a checkpoint of this version of hoc tune; remove it to start afresh")
    if state.identity != settings.identity():
        mine, theirs = settings.identity(), state.identity
        differ = [k for k in mine if mine.get(k) != theirs.get(k)]
        raise HocError(f"{out} holds a tuning run with other settings ({', '.join(differ)}); "
                       "use another --out or the same options")
    return state


def first_generation(settings: Settings, rng) -> list[Plan]:
    """From nothing: twice the population of random plans (the first round of the race culls them
    cheaply). From a plan: the plan and its mutants. With kinds every market offers (--with) that
    the plan may buy, half the first generation adds a rule for one of their cards, so that a
    short search tries them (a random move names one card of dozens)."""
    u = settings.universe
    focus = [n for k in settings.ruleset.market_with for n in map(settings.ruleset.cards.name,
                                                                 settings.ruleset.cards.cards_of_pile(k))
             if n in u.buyable]
    if settings.start is None:
        plans = [operators.random_plan(u, rng) for _ in range(2 * settings.population)]
        return [operators.add_rule_for(p, _pick(focus, rng), u, rng) if focus and i % 2 else p
                for i, p in enumerate(plans)]
    start = operators.valid(settings.start, u)
    tries = (settings.population - 1) // 2 if focus else 0
    return ([start] + [operators.add_rule_for(start, _pick(focus, rng), u, rng) for _ in range(tries)]
            + [operators.mutate(start, u, rng, 1 + int(rng.integers(3)))
               for _ in range(settings.population - 1 - tries)])


def _pick(items: list, rng):
    return items[int(rng.integers(len(items)))]


def child(elites: list[Plan], universe: Universe, rng) -> Plan:
    """A child of the elites, chosen by linear rank: a crossover (then a move) one time in four,
    else one to four structural moves."""
    weights = np.arange(len(elites), 0, -1, dtype=float)
    weights /= weights.sum()
    a = elites[int(rng.choice(len(elites), p=weights))]
    if len(elites) > 1 and rng.random() < 0.25:
        b = elites[int(rng.choice(len(elites), p=weights))]
        return operators.mutate(operators.crossover(a, b, rng), universe, rng)
    return operators.mutate(a, universe, rng, 1 + min(int(rng.geometric(0.5)) - 1, 3))


class Candidates:
    """A generation's plans without duplicates (equal parameter rows play equal games)."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.plans: list[Plan] = []
        self.rows: list[np.ndarray] = []
        self._index: dict[bytes, int] = {}

    def add(self, plan: Plan) -> tuple[int, bool]:
        row = plan.params(self.ruleset)
        key = row.tobytes()
        if key in self._index:
            return self._index[key], False
        self._index[key] = len(self.plans)
        self.plans.append(plan)
        self.rows.append(row)
        return len(self.plans) - 1, True

    def penalty(self) -> np.ndarray:
        return PARSIMONY * np.array([p.size() for p in self.plans], float)


def step(state: State, settings: Settings, opponent_rows: np.ndarray, opponent_ids: np.ndarray,
         backend: Backend) -> dict:
    """Play one generation and move the state past it; returns its history record."""
    g = state.generation
    rs = settings.ruleset
    u = settings.universe
    rng = np.random.default_rng(derive(settings.seed, PLANS, g))
    pool = Candidates(rs)
    asked: list[int] = []
    if g == 0:
        for p in first_generation(settings, rng):
            pool.add(p)
    else:
        for p in state.elites:
            pool.add(p)
        if state.optimiser is not None:
            asked = [pool.add(p)[0] for p in state.optimiser.ask()]
        for _ in range(50 * settings.population):
            if len(pool.plans) >= settings.population:
                break
            pool.add(child(state.elites, u, rng))
    hall = state.active_hall(settings.hall_size)
    rows = [opponent_rows] + [state.hall[i].params(rs)[None, :] for i in hall]
    ids = np.concatenate([opponent_ids, np.array([list_id(r[0]) for r in rows[1:]], opponent_ids.dtype)])
    r = evaluate.race(rs, np.stack(pool.rows), np.concatenate(rows), ids, derive(settings.seed, GAMES, g), backend,
                      settings.first_seeds, settings.keep, pool.penalty())
    champion = pool.plans[r.order[0]]
    if asked:
        state.optimiser.tell(r.fitness()[asked])
    if state.optimiser is None or champion.structure() != state.optimiser.structure:
        state.optimiser = Thresholds(champion, derive(settings.seed, THRESHOLDS, g), settings.proposals)
    admitted = (not state.hall_generations or g - state.hall_generations[-1] >= settings.hall_every) and \
        all(champion != h for h in state.hall)
    if admitted:
        state.hall.append(champion)
        state.hall_generations.append(g)
    previous = state.elites[0] if state.elites else None
    state.elites = [pool.plans[k] for k in r.order[:settings.elites]]
    state.generation = g + 1
    state.games += r.games_played
    names = [a.name for a in settings.opponents] + [f"hall_{state.hall_generations[i]}" for i in hall]
    record = _record(r, int(r.order[0]), names, len(settings.opponents), rs.players)
    record.update(generation=g, candidates=len(pool.plans), games=state.games, new_champion=champion != previous,
                  hall=len(state.hall), admitted=admitted, champion=champion.toml())
    return record


def _record(r: evaluate.Race, k: int, names: list[str], fixed: int, players: int) -> dict:
    """The champion's figures: its win rate against each opponent, and pooled over the fixed ones
    (the opponents of the command line, not the hall) with a 95% Wilson interval (a win shared by k
    seats counts 1/k)."""
    from hoc.research.stats import share_interval

    wins, games = r.wins[k], r.games[k]
    w, n = float(wins[:fixed].sum()), int(games[:fixed].sum())
    lo, hi = share_interval(w, n)
    rates = {name: float(x / m) for name, x, m in zip(names, wins, games)}
    j = min(range(fixed), key=lambda i: rates[names[i]])
    worst_lo, worst_hi = share_interval(float(wins[j]), int(games[j]))
    return {"score": float(r.score[k]), "win_rate": w / n, "lo": lo, "hi": hi, "worst_opponent": names[j],
            "worst_rate": rates[names[j]], "worst_lo": worst_lo, "worst_hi": worst_hi, "rates": rates,
            "champion_games": n, "fair": 1 / players}


def playoff(state: State, settings: Settings, opponent_rows, opponent_ids, backend: Backend) -> tuple[Plan, dict]:
    """The champions of the last generations and the elites, compared on `playoff_seeds` fresh seeds
    per opponent (the fixed ones and the hall); the best is the plan the search returns."""
    champions = [from_text(h["champion"]) for h in state.history[-settings.playoff_champions:]] + state.elites[:2]
    pool = Candidates(settings.ruleset)
    for p in champions:
        pool.add(p)
    if len(pool.plans) == 1:
        return pool.plans[0], {"finalists": 1, "games": 0}
    hall = state.active_hall(settings.hall_size)
    rows = np.concatenate([opponent_rows] + [state.hall[i].params(settings.ruleset)[None, :] for i in hall])
    ids = np.concatenate([opponent_ids, np.array([list_id(r) for r in rows[len(opponent_ids):]], opponent_ids.dtype)])
    r = evaluate.race(settings.ruleset, np.stack(pool.rows), rows, ids, derive(settings.seed, PLAYOFF), backend,
                      settings.playoff_seeds, len(pool.plans), pool.penalty())
    return pool.plans[r.order[0]], {"finalists": len(pool.plans), "games": r.games_played,
                                    "scores": [float(x) for x in r.score[r.order]]}


@dataclass
class Budget:
    games: int | None = None
    minutes: float | None = None

    def __post_init__(self):
        if (self.games is None) == (self.minutes is None):
            raise HocError("give one budget: --games N or --minutes M")
        if self.games is not None and self.games < 1:
            raise HocError(f"--games must be at least 1, got {self.games}")
        if self.minutes is not None and not self.minutes > 0:
            raise HocError(f"--minutes must be more than 0, got {self.minutes}")

    def spent(self, state: State, reserve_games: int) -> bool:
        """Whether to stop before another generation: the games budget is reached, or the next
        generation and the final steps (`reserve_games`, at the rate so far) would overrun the time."""
        if self.games is not None:
            return state.games >= self.games
        if state.generation == 0:
            return False
        rate = state.games / max(state.seconds, 1e-9)
        last = state.seconds / state.generation
        return state.seconds + last + reserve_games / rate > 60 * self.minutes


def run(settings: Settings, budget: Budget, out: Path, backend: Backend, progress=None) -> State:
    """Generations until the budget is spent, resuming from `out`'s checkpoint; `progress(state,
    record)` is called after each generation."""
    out.mkdir(parents=True, exist_ok=True)
    state = load(out, settings) or State(settings.identity())
    rows = np.stack([a.params(settings.ruleset) for a in settings.opponents])
    ids = np.array([a.id for a in settings.opponents], np.int32)
    reserve = reserve_games(settings)
    while not budget.spent(state, reserve):
        t = time.perf_counter()
        record = step(state, settings, rows, ids, backend)
        state.seconds += time.perf_counter() - t
        record["seconds"] = state.seconds
        state.history.append(record)
        save(state, out)
        if progress:
            progress(state, record)
    return state


def reserve_games(settings: Settings, validate_games: int = 2000) -> int:
    """Games the final steps play: the playoff (at most) and the validation."""
    opponents = len(settings.opponents)
    finalists = settings.playoff_champions + 2
    return (finalists * (opponents + settings.hall_size) * settings.playoff_seeds * settings.ruleset.players
            + opponents * validate_games)



@dataclass
class Result:
    plan: Plan
    state: State
    validation: object            # pandas DataFrame, see output.validate
    playoff: dict
    out: Path


def _commands(argv: list[str], games: int) -> tuple[str, str]:
    """The command as given, and the same with its budget in games: the games the search played
    (a budget in games stops after the generation that reaches it, so this one replays the same run)."""
    import shlex

    exact, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a in ("--games", "--minutes"):
            skip = True
        elif not a.startswith(("--games=", "--minutes=")):
            exact.append(a)
    return shlex.join(["hoc", "tune"] + argv), shlex.join(["hoc", "tune"] + exact + ["--games", str(games)])


def tune(settings: Settings, budget: Budget, out: str | Path, backend: Backend | None = None,
         validate_games: int = 2000, argv: list[str] | None = None, progress: bool = True) -> Result:
    """Search, pick the plan (playoff of the last champions), write best.toml, validate it against
    each opponent on fresh seeds and write the history, the learning curve and summary.md."""
    from hoc.research.progress import bar as progress_bar

    from hoc.games.heart_of_crown.agents.tuning import output

    if validate_games < 1:
        raise HocError(f"--validate-games must be at least 1, got {validate_games}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise HocError(f"--out must name a folder, got the file {out}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise HocError(f"cannot write to {out}: {e.strerror or e}") from None
    backend = backend or Backend()
    total = budget.games if budget.games is not None else 60 * budget.minutes
    bar = progress_bar(total, "tuning", "games" if budget.games is not None else "s", progress,
                       unit_scale=budget.games is not None)
    best_rate = [0.0]

    def after(state: State, record: dict) -> None:
        output.write_history(state.history, out)
        best_rate[0] = max(best_rate[0], record["win_rate"])
        bar.n = min(total, state.games if budget.games is not None else state.seconds)
        bar.set_postfix_str(f"generation {state.generation}, champion {100 * record['win_rate']:.1f}% "
                            f"(best so far {100 * best_rate[0]:.1f}%)", refresh=True)

    try:
        state = run(settings, budget, out, backend, after)
    finally:
        bar.close()
    if progress:
        print(f"hoc tune: {state.generation} generations, {state.games:,} games; playoff of the last champions "
              f"and validation ({validate_games:,} games per opponent)", file=sys.stderr)
    rows = np.stack([a.params(settings.ruleset) for a in settings.opponents])
    ids = np.array([a.id for a in settings.opponents], np.int32)
    best, final = playoff(state, settings, rows, ids, backend)
    command, exact = _commands(argv or [], state.games)
    plan_file = out / "best.toml"
    d = settings.ruleset.describe()
    plan_file.write_text(best.toml(
        description=f"tuned by hoc tune: {settings.ruleset.players} players, market {d['market']}, seed {settings.seed}, "
                    f"{state.generation} generations, {state.games:,} games",
        comment=f"Written by `{command}`." + (f"\nThe same plan again: `{exact}`" if budget.minutes else "")),
        encoding="utf-8")
    seed = derive(settings.seed, VALIDATION)
    validation = output.validate(settings.ruleset, plan_file, list(settings.opponents), validate_games, seed, backend)
    output.write_history(state.history, out)
    output.learning_curve(state.history, out / "learning_curve.png",
                          f"hoc tune: {settings.ruleset.players} players, market {d['market']}, seed {settings.seed}")
    output.summary(out, settings, state, best, validation, final, command, exact if budget.minutes else None, seed)
    return Result(best, state, validation, final, out)
