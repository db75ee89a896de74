"""The atlas's search: CMA-ME (Fontaine et al., 2020) with `ribs`: a grid archive over two
descriptors, evolution-strategy emitters ranked by improvement of the archive, and a scheduler
asking each iteration for a batch of plans that are measured (`measure`) and told back.

Everything an iteration does is drawn from (seed, iteration) or from the pickled search (archive,
emitters and their random states), and the games do not depend on how they are split over workers,
so the same command gives the same atlas serially, with --jobs, and after an interruption: the
checkpoint is written after every iteration and the same command goes on from it.
"""
from __future__ import annotations

import os
import pickle
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hoc.errors import HocError
from hoc.research.atlas.measure import measure
from hoc.agents.plan_space import OWNS, descriptor, revision
from hoc.research.harness import Backend

CHECKPOINT = "checkpoint.pkl"
FORMAT = 4                   # of the checkpoint (2: the archive seeded with the kinds' rushes; 3: Heart of Crown's
                             # play-first gene; 4: the polish)
MAPPED_FORMAT = 5            # of an atlas mapping a kind by its copies (`owns:KIND`), whose polish starts from both
                             # sides of the kind, each held on its side; the others polish as before and resume
SEARCH, REMEASURE, RUSH = 1, 2, 5   # streams of game seeds: the search's, the re-measurement's, the rushes'
SWEEPS = 2                   # rounds of the card sweep of each kind's rush
REMEASURE_FIRST = 1 << 40    # the re-measurement's game indices start far from any the search used


def derive(seed: int, stream: int, step: int = 0) -> int:
    """A 63-bit seed for one stream and step."""
    a, b = np.random.SeedSequence([seed, stream, step]).generate_state(2, np.uint32)
    return int((int(a) << 31) ^ int(b)) & (2 ** 63 - 1)


@dataclass(frozen=True)
class Settings:
    """What determines an atlas (a run resumes only with equal settings, its budget apart)."""

    space: object                       # the game's plan space for the ruleset
    panel: tuple                        # the reference agents
    descriptors: tuple[str, str]
    seed: int = 0
    iterations: int = 150
    emitters: int = 3
    optimizers: int = 1                 # of them ranked by fitness alone (the others by what they add to the archive)
    batch: int = 12                     # plans each emitter asks for per iteration
    seeds: int = 16                     # seeds per panel member per plan (each in every seat)
    resolution: int = 10                # cells per descriptor
    sigma: float = 0.15                 # the emitters' first step, in the space's [0, 1] units
    remeasure_seeds: int = 100          # per panel member for every elite at the end
    polish: int = 11                    # starts of the polish at most (0: none; `polish`)
    polish_iterations: int = 40         # of each start's CMA-ES in the polish

    def __post_init__(self):
        if not 0 <= self.optimizers <= self.emitters:
            raise HocError(f"--optimizers must be 0 to --emitters ({self.emitters}), got {self.optimizers}")
        for name, value, least in (("iterations", self.iterations, 1), ("emitters", self.emitters, 1),
                                   ("batch", self.batch, 2), ("seeds", self.seeds, 1),
                                   ("resolution", self.resolution, 2), ("remeasure_seeds", self.remeasure_seeds, 2),
                                   ("polish", self.polish, 0), ("polish_iterations", self.polish_iterations, 1)):
            if value < least:
                raise HocError(f"--{name.replace('_', '-')} must be at least {least}, got {value}")
        if not 0 < self.sigma <= 1:
            raise HocError(f"--sigma must be above 0 and at most 1, got {self.sigma}")
        if len(self.descriptors) != 2 or len(set(self.descriptors)) != 2:
            raise HocError(f"--descriptors names two different measures ({', '.join(self.space.descriptors)}, "
                           f"or owns:KIND)")
        for d in self.descriptors:
            descriptor(self.space, d)       # a measure of the space, or one line naming what it is not
        for a in self.panel:
            if a.play is not None:
                raise HocError(f"--panel {a.name!r} is a Python agent; the atlas plays jitted agents only")

    def identity(self) -> dict:
        r = self.space.ruleset
        mapped = any(d.startswith(OWNS) for d in self.descriptors)
        return {"format": MAPPED_FORMAT if mapped else FORMAT, **revision(r.game), "rules": r.describe(), "game": r.game.name,
                "panel": [(a.name, a.params(r).tobytes().hex()) for a in self.panel],
                "descriptors": list(self.descriptors), "seed": self.seed, "emitters": self.emitters,
                "optimizers": self.optimizers,
                "batch": self.batch, "seeds": self.seeds, "resolution": self.resolution, "sigma": self.sigma,
                "polish": self.polish}


@dataclass
class Search:
    """A search under way: the ribs scheduler (archive and emitters), the iterations done, the
    plans measured and games played, and the seconds spent (over every session); then its polish
    (`hoc.research.atlas.polish`)."""

    scheduler: object
    iteration: int = 0
    evaluations: int = 0
    games: int = 0
    seconds: float = 0.0
    history: list = field(default_factory=list)
    polish: object = None

    @property
    def archive(self):
        return self.scheduler.archive


def start(settings: Settings, backend: Backend) -> Search:
    from ribs.archives import GridArchive
    from ribs.emitters import EvolutionStrategyEmitter
    from ribs.schedulers import Scheduler

    space = settings.space
    chosen = [descriptor(space, d) for d in settings.descriptors]
    archive = GridArchive(solution_dim=len(space.lower), dims=(settings.resolution,) * 2,
                          ranges=[(d.low, d.high) for d in chosen], seed=derive(settings.seed, 0))
    rng = np.random.default_rng(derive(settings.seed, 3))
    given = space.starts()          # the space's best guess first: the climbing emitters start there
    starts = given[:settings.optimizers] + [given[settings.optimizers:][k]
                                            for k in rng.permutation(max(len(given) - settings.optimizers, 0))]
    found = Search(None)
    t0 = time.perf_counter()
    rushed = rushes(settings, archive, backend, found)
    found.seconds += time.perf_counter() - t0
    starts += rushed[:max(settings.emitters - len(starts), 0)]
    starts += [rng.uniform(space.lower, space.upper) for _ in range(settings.emitters - len(starts))]
    # no bounds for the emitters: ribs resamples a point until every coordinate is inside, which in a
    # space of a hundred coordinates, with a start on its faces, never ends; the space clips instead
    # the first `optimizers` emitters climb the fitness (CMA-ES within the archive), the others rank
    # their plans by the improvement they bring to the archive (CMA-ME's two-stage improvement)
    emitters = [EvolutionStrategyEmitter(archive, x0=starts[k], sigma0=settings.sigma,
                                         ranker="obj" if k < settings.optimizers else "2imp",
                                         batch_size=settings.batch,
                                         seed=derive(settings.seed, 4, k))
                for k in range(settings.emitters)]
    found.scheduler = Scheduler(archive, emitters)
    return found


def rushes(settings: Settings, archive, backend: Backend, found: Search) -> list[np.ndarray]:
    """The archive's first plans, one family per kind of a fixed market: the space's best guess
    changed to buy the kind first and uncapped (`Layout.rushing`), swept (`SWEEPS` rounds of
    `hoc.research.atlas.sweep`: each card bought or not in turn, the best kept), every plan measured
    added to the archive. So a deck built around any kind, with the cheap cards it needs (a rush's
    cheapest Victory cards and Treasures), is in the archive before the emitters start; nothing
    says which.
    Returns the swept rushes, best first (the emitters that explore start there). A random market
    (no fixed kinds) has none."""
    from hoc.research.atlas.sweep import sweep

    space = settings.space
    _, kinds = space.ruleset.market_piles
    if not kinds:
        return []
    guess = space.starts()[0]
    points = [space.rushing(guess, [k]) for k in kinds]
    for r in range(SWEEPS):
        points, xs, m = sweep(space, points, settings.panel, derive(settings.seed, RUSH, r), settings.seeds, backend,
                              settings.descriptors, [space.slots([k]) for k in kinds])
        archive.add(xs, m.fitness, m.descriptors)
        found.evaluations += len(xs)
        found.games += len(xs) * len(settings.panel) * settings.seeds * space.ruleset.players
    fitness = {x.tobytes(): f for x, f in zip(xs, m.fitness)}      # the last round measured every swept rush
    return sorted(points, key=lambda x: -fitness[x.tobytes()])


def load(folder: Path, settings: Settings) -> Search | None:
    """The search saved in `folder`, if its settings are these; None if there is none."""
    path = folder / CHECKPOINT
    if not path.exists():
        return None
    try:
        saved = pickle.loads(path.read_bytes())
    except Exception as e:      # a damaged checkpoint is named, not loaded
        raise HocError(f"{path} is not a checkpoint of hoc atlas ({type(e).__name__}); remove it to start over") from None
    if not isinstance(saved, dict) or saved.get("identity") != settings.identity():
        raise HocError(f"{folder} holds an atlas with other settings; give another --out, or the same options "
                       f"as that run (see its summary.md)")
    return saved["search"]


def save(folder: Path, settings: Settings, search: Search) -> None:
    """Write the checkpoint atomically: an interruption leaves the last one whole."""
    path = folder / CHECKPOINT
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps({"identity": settings.identity(), "search": search}))
    os.replace(tmp, path)


def run(settings: Settings, folder: Path, backend: Backend, progress=print) -> Search:
    """Iterate until `settings.iterations` (resuming from the checkpoint in `folder`), checkpointing
    after every iteration."""
    from hoc.research import progress as meter

    per_plan = len(settings.panel) * settings.seeds * settings.space.ruleset.players       # games of a plan
    search = load(folder, settings)
    if search is None:
        kinds = settings.space.ruleset.market_piles[1]
        if kinds:
            progress(f"seeding the archive: a rush of each of the market's {len(kinds)} kinds, swept card by card "
                     f"({len(kinds) * SWEEPS * len(settings.space.cards):,} plans at most)")
        meter.expect(search=settings.iterations * settings.emitters * settings.batch * per_plan)
        meter.stage("seeding", len(kinds) * SWEEPS * (1 + len(settings.space.cards)) * per_plan)
        search = start(settings, backend)
    meter.stage("search", (settings.iterations - search.iteration) * settings.emitters * settings.batch * per_plan)
    meter.expect(remeasure=remeasured(settings, search))
    if search.iteration:
        progress(f"resuming at iteration {search.iteration} of {settings.iterations} "
                 f"({search.evaluations:,} plans measured so far)")
    began, done_before = time.perf_counter(), search.iteration
    while search.iteration < settings.iterations:
        search.polish = None                # polished from another archive: polished again after
        t0 = time.perf_counter()
        xs = search.scheduler.ask()
        m = measure(settings.space, xs, settings.panel, derive(settings.seed, SEARCH, search.iteration),
                    settings.seeds, 0, backend, settings.descriptors)
        search.scheduler.tell(m.fitness, m.descriptors)
        search.iteration += 1
        search.evaluations += len(xs)
        search.games += len(xs) * len(settings.panel) * settings.seeds * settings.space.ruleset.players
        search.seconds += time.perf_counter() - t0
        stats = search.archive.stats
        search.history.append({"iteration": search.iteration, "cells": int(stats.num_elites),
                               "best": float(stats.obj_max) if stats.obj_max is not None else None,
                               "qd_score": float(stats.qd_score), "games": search.games})
        save(folder, settings, search)
        meter.expect(remeasure=remeasured(settings, search))       # the elites found so far
        per = (time.perf_counter() - began) / (search.iteration - done_before)
        left = per * (settings.iterations - search.iteration)
        progress(f"iteration {search.iteration}/{settings.iterations}: {int(stats.num_elites)} cells filled, "
                 f"best {100 * float(stats.obj_max or 0):.1f}% against the panel (the search's own games), "
                 f"{search.games:,} games, about {_clock(left)} left")
    return search


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"


def remeasured(settings: Settings, search: Search) -> int:
    """The games of `remeasure` with the elites the archive holds now."""
    return len(elites(search)[0]["index"]) * len(settings.panel) * settings.remeasure_seeds * settings.space.ruleset.players


def elites(search: Search):
    """The archive's elites with the polish's chosen plans in their cells (`hoc.research.atlas.polish`):
    (data as `archive.data()` gives it, `objective` the polish's choice figure for a polished plan;
    whether each was polished)."""
    data = {k: np.asarray(search.archive.data()[k]) for k in ("index", "solution", "objective", "measures")}
    chosen = search.polish.chosen if search.polish is not None and search.polish.chosen else {}
    polished = np.zeros(len(data["index"]), bool)
    at = {int(c): i for i, c in enumerate(data["index"])}
    new = []
    for c, (x, f, d) in sorted(chosen.items()):
        if c in at:
            i = at[c]
            data["solution"][i], data["objective"][i], data["measures"][i] = x, f, d
            polished[i] = True
        else:
            new.append((c, x, f, d))
    if new:
        for k, col in zip(("index", "solution", "objective", "measures"), zip(*new)):
            data[k] = np.concatenate([data[k], np.asarray(col, data[k].dtype)])
        polished = np.concatenate([polished, np.ones(len(new), bool)])
    return data, polished


def remeasure(settings: Settings, search: Search, backend: Backend):
    """Every elite (the polished in their cells) measured again on `remeasure_seeds` seeds per panel
    member that neither the search nor the polish used: (the elites' data as `archive.data()` gives
    it with `polished`, whether each came from the polish; their `Measured`)."""
    data, polished = elites(search)
    xs = np.asarray(data["solution"])
    if not len(xs):
        raise HocError("the atlas's archive is empty: no plan was measured")
    m = measure(settings.space, xs, settings.panel, derive(settings.seed, REMEASURE), settings.remeasure_seeds,
                REMEASURE_FIRST, backend, settings.descriptors)
    return {**data, "polished": polished}, m
