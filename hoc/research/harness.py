"""Many games in chunks, on one process, on joblib worker processes or on a Dask cluster.

A run is a `Plan`: the ruleset, the lineup, how many games and the master seed. Game *i* of a plan
is fully determined by (seed, i), so the chunks can be played anywhere in any order; `play` hands
the finished chunks back in game order, so whatever consumes them (a Parquet sink, statistics)
sees the same stream whatever the backend, and only a few chunks are held at a time.
"""
from __future__ import annotations

import itertools
import math
import os
import pickle
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Container, Iterable, Iterator

import cloudpickle
import numpy as np
import pandas as pd

from hoc.agents.registry import Agent
from hoc.errors import HocError, InvariantError
from hoc.engine import layout as K
from hoc.engine.seeds import check_seed, game_seed, game_seeds
from hoc.research.engine import Warmup, engine_name, is_compiled, prepare
from hoc.research.rows import _play_python, play_rows  # noqa: F401 (re-exported: the harness plays chunks here)
from hoc.engine.spec import Ruleset

CHUNK = 10_000          # games per task: large enough that a task's overhead is noise
LAST_INDEX = 2 ** 63 - 1    # game indices are 64-bit in the kernels
BACKENDS = ("loky", "dask")


@dataclass(frozen=True)
class Plan:
    """Games first .. first+games-1 of the run with this seed, the lineup rotating by one seat per game
    if `rotate`. With `mirror`, each group of `players` consecutive games shares one game seed (the same
    shuffles and market) and rotates the lineup through every seat. With `draw`, `agents` is a pool
    rather than a lineup: each seat of each game gets an entry of the pool drawn independently and
    uniformly by the game's seed (so equal seeds draw equal lineups, whatever else differs), and the
    games frame says which entry played each seat (`entry_j`)."""

    ruleset: Ruleset
    agents: list[Agent]
    games: int
    seed: int = 0
    rotate: bool = False
    mirror: bool = False
    validate: bool = False
    first: int = 0
    chunk: int = CHUNK
    draw: bool = False
    shuffle: bool = False               # each game's lineup in an order drawn from its seed (a random first seat)

    def __post_init__(self):
        object.__setattr__(self, "seed", check_seed(self.seed))
        if self.games < 1:
            raise HocError(f"games must be at least 1, got {self.games}")
        if self.first < 0:
            raise HocError(f"the first game index must be 0 or more, got {self.first}")
        if self.first + self.games - 1 > LAST_INDEX:
            raise HocError(f"games must end by game index 2**63 - 1, got {self.games:,} games from index {self.first}")
        if self.chunk < 1:
            raise HocError(f"chunk must be at least 1 game, got {self.chunk}")
        if self.draw and not self.agents:
            raise HocError("a drawn lineup needs at least one agent to draw from")
        if not self.draw and len(self.agents) != self.ruleset.players:
            raise HocError(f"{len(self.agents)} agents for {self.ruleset.players} players")
        game = self.ruleset.game
        for a in self.agents:
            if a.game is not None and a.game != game.name and a.play is None:
                raise HocError(f"agent {a.name} plays {a.game}, not {game.name}; see `hoc agents --game {game.name}`")
        if self.shuffle and (self.rotate or self.mirror or self.draw):
            raise HocError("shuffled seats draw each game's seat order: they do not combine with rotated, "
                           "mirrored or drawn seats")
        if self.mirror:
            object.__setattr__(self, "rotate", True)
        # each seat's parameter row, built once here rather than per chunk (a TOML agent takes ms)
        object.__setattr__(self, "params", np.stack([a.params(self.ruleset) for a in self.agents]).astype(K.DTYPE))
        self._check_names()

    def _check_names(self) -> None:
        """Results are kept by agent name: two different agents under one name would be counted as one."""
        seen = {}
        for a, row in zip(self.agents, self.params):
            if a.name in seen:
                b, other = seen[a.name]
                if a.play is not b.play or not np.array_equal(row, other):
                    raise HocError(f"two different agents are both named {a.name!r}; give them different names "
                                   f"(an agent file is named after its file)")
            else:
                seen[a.name] = (a, row)

    @property
    def python(self) -> bool:
        """True if some seat is a Python agent: the games are stepped from Python."""
        return any(a.play is not None for a in self.agents)

    def chunks(self, skip: Container[int] = frozenset()) -> Iterator[tuple[int, int]]:
        """(first game index, number of games) of each task in game order, except those whose first
        index is in `skip`. Made one at a time: a run of 10**13 games has 10**9 chunks."""
        end = self.first + self.games
        for s in range(self.first, end, self.chunk):
            if s not in skip:
                yield s, min(self.chunk, end - s)

    @property
    def n_chunks(self) -> int:
        return -(-self.games // self.chunk)

    def chunk_games(self, first: int) -> int | None:
        """The number of games of the chunk starting at game `first`, or None if no chunk starts there."""
        offset = first - self.first
        if offset < 0 or offset >= self.games or offset % self.chunk:
            return None
        return min(self.chunk, self.games - offset)

    def seat_lineup(self, index: int) -> list[int]:
        """Which lineup entry plays each seat in game `index`."""
        return [int(k) for k in self.seats(index, 1)[0]]

    def seats(self, first: int, n: int) -> np.ndarray:
        """Which entry of `agents` plays each seat (columns) of games first .. first+n-1 (rows)."""
        p = self.ruleset.players
        index = np.arange(first, first + n, dtype=np.int64)[:, None]
        seat = np.arange(p, dtype=np.int64)[None, :]
        if self.draw:
            group = p if self.mirror else 1          # mirrored games share their seed, hence their draw
            lo = first // group
            count = (first + n - 1) // group - lo + 1 if n else 0
            seeds = game_seeds(np.int64(self.seed), lo, count).view(np.uint64)
            drawn = np.array([draw_lineup(int(s), p, len(self.agents)) for s in seeds], np.int64).reshape(-1, p)
            drawn = drawn[index[:, 0] // group - lo]
            return np.take_along_axis(drawn, (seat + index) % p, axis=1) if self.rotate else drawn
        if self.shuffle:
            orders = np.array(list(itertools.permutations(range(p))), np.int64)
            seeds = game_seeds(np.int64(self.seed), first, n).view(np.uint64)
            return orders[((seeds >> np.uint64(17)) % np.uint64(len(orders))).astype(np.int64)]
        return (seat + index) % p if self.rotate else np.broadcast_to(seat, (n, p)).copy()

    def seed_index(self, index: int) -> int:
        """The index whose game seed game `index` uses (mirrored games share one)."""
        return index // self.ruleset.players if self.mirror else index

    def describe(self) -> dict:
        """What determines the games: equal descriptions give equal games."""
        d = self.ruleset.describe()
        d.update(agents=[a.name for a in self.agents], seed=self.seed, rotate=self.rotate, mirror=self.mirror,
                 first=self.first, games=self.games, chunk=self.chunk,
                 params=[_digest(row.tobytes()) if a.play is None else a.name
                         for a, row in zip(self.agents, self.params)])
        if self.draw:                   # only when set: the descriptions of earlier runs stay equal
            d["draw"] = True
        if self.shuffle:
            d["shuffle"] = True
        return d


DRAW_STREAM = 0x5EA7        # the draws' own stream of the game seed, apart from the game's shuffles


def draw_lineup(game_seed: int, players: int, entries: int) -> list[int]:
    """The pool entries drawn for the seats of the game with this (unsigned) seed: independent and
    uniform, from a stream of the seed that the game itself never reads."""
    return np.random.default_rng([game_seed, DRAW_STREAM]).integers(entries, size=players).tolist()


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()[:16]


@dataclass
class Chunk:
    first: int
    games: pd.DataFrame
    coverage: np.ndarray        # per card: N_STATS counters summed over the chunk's games
    warmup: Warmup = Warmup()   # getting the engine ready in the worker before this chunk's games


@lru_cache(maxsize=4)
def _unpickled(payload: bytes) -> "Plan":
    return cloudpickle.loads(payload)


def _task(plan: Plan | bytes, first: int, n: int) -> tuple[np.ndarray, np.ndarray, Warmup]:
    """One chunk as a worker plays it: the engine made ready first (timed apart), then the games.
    `plan` may come pickled (bytes, unpickled once per worker)."""
    if isinstance(plan, bytes):
        plan = _unpickled(plan)
    warmup = prepare(plan, announce=False)
    return (*play_rows(plan, first, n), warmup)


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:          # macOS, Windows
        return os.cpu_count() or 1


@dataclass
class Backend:
    """Where chunks are played: `jobs` local processes (joblib's loky), or the workers of a Dask
    cluster at `scheduler` (through joblib's Dask backend)."""

    jobs: int = 1
    name: str = "loky"
    scheduler: str | None = None
    _client: object = field(default=None, repr=False)

    def __post_init__(self):
        if self.name not in BACKENDS:
            raise HocError(f"unknown backend {self.name!r}; backends: {', '.join(BACKENDS)}")
        if self.jobs < 1:
            raise HocError(f"jobs must be at least 1, got {self.jobs}")
        if self.name == "loky" and self.jobs > cores():
            # each worker holds its own compiled engine; more workers than cores only add memory
            raise HocError(f"jobs must be at most {cores()}, the cores this process may use; got {self.jobs}")
        if self.name == "dask" and not self.scheduler:
            raise HocError("--backend dask needs --scheduler ADDRESS (e.g. tcp://10.0.0.5:8786)")
        if self.name == "loky" and self.scheduler:
            raise HocError("--scheduler is for --backend dask")

    def connect(self):
        if self.name == "dask" and self._client is None:
            try:
                from dask.distributed import Client
            except ImportError:
                raise HocError("the dask backend needs dask.distributed: pip install 'dask[distributed]'") from None
            _check_address(self.scheduler)
            try:
                self._client = Client(self.scheduler, timeout="5s", set_as_default=False)
            except (OSError, TimeoutError, ValueError) as e:
                raise HocError(f"cannot reach the Dask scheduler at {self.scheduler}: {e}") from None
        return self._client

    @property
    def in_process(self) -> bool:
        """One local job: the games are played in this process, nothing is sent to a worker."""
        return self.name == "loky" and self.jobs == 1

    def close(self):
        if self._client is not None:
            self._client.close()
            self._client = None


def _check_address(address: str) -> None:
    """A malformed TCP address, refused before a Dask client is made: a client that fails to parse it
    hangs for seconds at exit and prints a traceback."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except ValueError as e:
        raise HocError(f"--scheduler {address!r} is not an address such as tcp://10.0.0.5:8786: {e}") from None


def ready(plan: Plan, backend: Backend, announce: bool = True) -> Warmup:
    """Before a run's clock starts: the engine compiled or loaded here when the games are played in
    this process. When local workers play them, a missing engine is compiled here, once, into the
    shared cache folder (rather than by every worker at the same time), and each worker loads it,
    timed in its chunks; Dask workers, maybe on other machines, get ready by themselves."""
    if backend.in_process or (backend.name == "loky" and not is_compiled(engine_name(plan))):
        return prepare(plan, announce)
    return Warmup()


def play(plan: Plan, backend: Backend | None = None, skip: set[int] = frozenset()) -> Iterator[Chunk]:
    """Play the plan's chunks (except those whose first index is in `skip`) and yield them in
    game order. Raises InvariantError on the first game that broke an invariant."""
    backend = backend or Backend()
    tasks = plan.n_chunks - sum(1 for s in skip if plan.chunk_games(s) is not None)
    if tasks < 1:
        return
    # the tasks are generated as they are dispatched (twice: one stream to play, one to label the results).
    # Workers get the plan pickled once, here: pickled per task by joblib's feeder thread, it could
    # meet a cache the main thread is filling while it labels results ("dictionary changed size").
    payload = plan if backend.in_process else cloudpickle.dumps(plan)
    results = run_tasks(backend, _task, ((payload, s, n) for s, n in plan.chunks(skip)), tasks)
    yield from _chunks(plan, plan.chunks(skip), results)


def run_tasks(backend: Backend, fn, tasks: Iterable[tuple], count: int | None = None) -> Iterator:
    """fn(*task) for each task, the results in task order: in this process for one local job,
    otherwise on the backend's worker processes or Dask workers, a few tasks ahead. `tasks` is
    consumed as they are dispatched; `count` (how many there are, if known) caps the local workers."""
    from joblib import Parallel, delayed, parallel_config

    if backend.in_process:
        yield from (fn(*t) for t in tasks)
        return
    from hoc import games

    outside = games.registered()
    if outside:     # a worker registers them first, then reads the task (its rules' modules key the cache)
        work = (delayed(_registered_then)(outside, fn, pickle.dumps(t)) for t in tasks)
    else:
        work = (delayed(fn)(*t) for t in tasks)
    if backend.name == "dask":
        client = backend.connect()
        config = parallel_config(backend="dask", wait_for_workers_timeout=30, client=client)
        jobs = -1
    else:
        # the compiled kernels run single-threaded; keep numerical libraries in each worker to one thread too
        os.environ.setdefault("NUMBA_NUM_THREADS", "1")
        config = parallel_config(backend="loky", inner_max_num_threads=1)
        jobs = min(backend.jobs, count) if count else backend.jobs
    with config:
        yield from Parallel(n_jobs=jobs, return_as="generator", pre_dispatch="2*n_jobs")(work)


def _registered_then(modules: tuple[str, ...], fn, task: bytes):
    """fn(*task) in a worker, after registering the games `modules` (`hoc.games.registered`)."""
    from hoc import games

    for module in modules:
        games.register(module)
    return fn(*pickle.loads(task))


def _chunks(plan, tasks, results) -> Iterator[Chunk]:
    for (s, n), (rows, coverage, warmup) in zip(tasks, results):
        bad = np.flatnonzero(rows[:, K.RES_ERROR] != 0)
        if len(bad):
            raise invariant_error(plan, s + int(bad[0]), int(rows[bad[0], K.RES_ERROR]))
        yield Chunk(s, frame(rows, plan, s), coverage, warmup)


def invariant_error(plan: Plan, index: int, code: int) -> InvariantError:
    seed = int(np.int64(game_seed(np.int64(plan.seed), plan.seed_index(index))).view(np.uint64))
    return InvariantError(
        f"game {index} of run seed {plan.seed} (game seed {seed}) broke an invariant: "
        f"{plan.ruleset.game.errors.get(code, 'unknown error')}; reproduce with `hoc replay --seed {plan.seed} --game {index}` "
        f"and the same options")


def frame(rows: np.ndarray, plan: Plan, first: int) -> pd.DataFrame:
    """One row per game (games first, first + 1, ...): what the issue of a study needs to slice
    results by market and seat, with the game's own extras per seat (its `GameSpec`: for Heart of
    Crown the princess backed and when)."""
    rs = plan.ruleset
    game = rs.game
    db = rs.cards
    n = len(rows)
    index = np.arange(first, first + n, dtype=np.int64)     # not the rows' 32-bit game column
    if plan.mirror:
        p = rs.players
        base = game_seeds(np.int64(plan.seed), first // p, (first + n - 1) // p - first // p + 1)
        seeds = base[index // p - first // p]
    else:
        seeds = game_seeds(np.int64(plan.seed), first, n)
    dtypes = _dtypes(plan)
    cols = {
        "game": index,
        "seed": seeds.view(np.uint64),
        "winner": rows[:, K.RES_WINNER].astype(np.int8),
        "end_reason": pd.Categorical.from_codes(_end_positions(rows[:, K.RES_END], dtypes["end_codes"]),
                                                dtype=dtypes["end_reason"]),
        "turns": rows[:, K.RES_TURNS].astype(np.int16),
        "steps": rows[:, K.RES_STEPS],
        "win_mask": rows[:, K.RES_WIN_MASK].astype(np.int8),
        "market": market_column(rows[:, K.RES_MARKET:K.RES_MARKET + K.MAX_KINDS], db),
    }
    seat_code = np.array([dtypes["agent_names"].index(a.name) for a in plan.agents])
    seats = plan.seats(first, n)
    for j in range(rs.players):
        o = K.RES_SEAT + j * K.RES_SEAT_SZ
        k = seats[:, j]
        cols[f"agent_{j}"] = pd.Categorical.from_codes(seat_code[k], dtype=dtypes["agent"])
        if plan.draw:
            cols[f"entry_{j}"] = k.astype(np.int8)
        cols[f"{game.score}_{j}"] = rows[:, o + K.RES_SCORE].astype(np.int16)
        extras = game.extra_columns(rows[:, o + K.RES_EXTRA:o + K.RES_EXTRA + K.N_EXTRAS].astype(np.int64), rs)
        for stem in game.extras:
            cols[f"{stem}_{j}"] = extras[stem]
        cols[f"turns_{j}"] = rows[:, o + K.RES_OWN_TURNS].astype(np.int16)
        cols[f"owned_{j}"] = ((rows[:, o + K.RES_OWNED].astype(np.int64) & 0xFFFFFFFF)
                              | (rows[:, o + K.RES_OWNED + 1].astype(np.int64) << 32))
    if getattr(rs, "reseats", False):
        # where each seat's player sat (its place in turn order: 0 played first), set by the game's rules
        packed = rows[:, K.RES_SEATING].astype(np.int64)
        for j in range(rs.players):
            cols[f"position_{j}"] = (((packed >> (4 * j)) & 15) - 1).astype(np.int8)
    cols["edition"] = pd.Categorical.from_codes(np.zeros(n, np.int8), dtype=dtypes["edition"])
    cols["overrides"] = pd.Categorical.from_codes(np.zeros(n, np.int8), dtype=dtypes["overrides"])
    return pd.DataFrame(cols)


_DTYPES: dict = {}


def _dtypes(plan: Plan) -> dict:
    """The categorical types of a plan's frame, made once per plan (they are costly to validate)."""
    rs = plan.ruleset
    key = (rs.game.name, rs.edition, tuple(rs.overrides), tuple(a.name for a in plan.agents))
    if key not in _DTYPES:
        names = list(dict.fromkeys(a.name for a in plan.agents))
        _DTYPES.clear()                                   # one plan at a time in practice: keep it small
        _DTYPES[key] = {
            "end_reason": pd.CategoricalDtype(list(rs.game.end_reasons.values())),
            "end_codes": np.array(list(rs.game.end_reasons), np.int64),
            "agent_names": names, "agent": pd.CategoricalDtype(names),
            "edition": pd.CategoricalDtype([rs.edition]),
            "overrides": pd.CategoricalDtype([" ".join(rs.overrides)]),
        }
    return _DTYPES[key]


def _end_positions(ends: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Each END code's position among the game's end reasons (`GameSpec.end_reasons`, code -> name),
    -1 (no category) for a game that has not ended or a code the game does not name."""
    ends = ends.astype(np.int64)
    order = np.argsort(codes, kind="stable")
    at = np.clip(np.searchsorted(codes[order], ends), 0, max(len(codes) - 1, 0))
    found = (codes[order][at] == ends) if len(codes) else np.zeros(len(ends), bool)
    return np.where(found, order[at], -1)


def market_column(kinds: np.ndarray, db) -> pd.Categorical:
    """Each game's supply kinds as one sorted, comma-joined string ('' for the basic market): card
    ids of the supply's kinds, named by the card database's `kinds` (a card's kind: its pile)."""
    bits = np.where(kinds >= 0, np.left_shift(np.int64(1), np.maximum(kinds, 0).astype(np.int64)), 0).sum(axis=1)
    masks, codes = np.unique(bits, return_inverse=True)
    pile = db.kinds
    labels = []
    for m in masks.view(np.uint64).tolist():      # unsigned: a card id of 63 sets the sign bit
        names = []
        while m:
            low = m & -m
            names.append(pile[low.bit_length() - 1])
            m ^= low
        labels.append(",".join(sorted(names)))
    return pd.Categorical.from_codes(codes.ravel(), categories=labels)


def offers(df: pd.DataFrame, kind: str) -> np.ndarray:
    """Which games' supply held the common kind `kind` (a boolean per row of a games frame)."""
    cats = df.market.cat.categories
    has = np.array([kind in c.split(",") for c in cats], dtype=bool)
    return has[df.market.cat.codes.values]


def chunk_size(games: int) -> int:
    """Up to CHUNK games per task, and at least 8 tasks so that workers finish together. It depends
    on the number of games only, so a run resumed with other --jobs finds its chunks."""
    return max(1, min(CHUNK, math.ceil(games / 8)))
