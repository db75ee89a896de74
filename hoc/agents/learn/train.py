"""`hoc learn`'s run: imitation of a teacher, then PPO self-play against a league, in generations,
each ending with a snapshot, an evaluation against fixed benchmark agents and a checkpoint.

    run = Run(options, out)
    run.go(progress)

Generations. Each generation plays `updates` PPO updates against the league of that generation: the
fixed opponents (the tuned library by default), the learner's own latest snapshot and one earlier
snapshot drawn by the run's seed. Its games have seeds of their own (the run's seed and the
generation), so a generation is the same whether the run went through in one go or was killed and
resumed: a resumed run starts again at its last finished generation, from the checkpoint that
generation left (weights, optimiser, random streams, the curve), and ends with the same weights.
(`--minutes` ends a run at a generation's end once the time is up: its weights depend on the
machine's speed; `--steps` does not.)

Determinism: torch runs with deterministic algorithms and `--jobs` threads, and every random draw
comes from a stream seeded by `--seed`: the same seed, budget and jobs on the same machine give the
same weights (a BLAS built for another CPU may round differently).
"""
from __future__ import annotations

import json
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from hoc.errors import HocError

# the defaults by (edition, players): the teacher imitated, the league's fixed members, the benchmarks
TEACHERS = {("2e", 2): "tuned_plan_d_2p", ("1e", 2): "tuned_general_1e_2p"}
BENCHMARKS = {("2e", 2): ("tuned_laolily_2p", "tuned_general_2p"), ("1e", 2): ("tuned_laolily_1e_2p", "tuned_general_1e_2p")}
LEAGUE = {("2e", 2): ("tuned_laolily_2p", "tuned_general_2p", "tuned_plan_c_2p", "tuned_lulunasaika_2p"),
          ("1e", 2): ("tuned_laolily_1e_2p", "tuned_general_1e_2p", "tuned_lulunasaika_1e_2p")}
for _e in ("2e", "1e"):            # 3 and 4 players: the tuned general plans (read for 1E under 1E)
    for _p in (3, 4):
        TEACHERS[_e, _p] = f"tuned_general_{_p}p"
        BENCHMARKS[_e, _p] = LEAGUE[_e, _p] = (f"tuned_general_{_p}p",)


@dataclass(frozen=True)
class Options:
    players: int = 2
    market: str = "random"
    edition: str = "2e"
    opponents: tuple[str, ...] = ()            # the league's fixed members (default LEAGUE)
    teacher: str | None = None                  # default TEACHERS; "none": no imitation
    imitation_games: int = 36000
    imitation_rate: float = 0.5
    imitation_epochs: int = 4
    hidden: tuple[int, int] = (64, 64)
    envs: int = 128
    rollout_steps: int = 64
    updates: int = 50                           # PPO updates per generation
    lr: float = 1e-4
    ent_coef: float = 0.003
    selves: bool = True                         # the learner's own snapshots join the league
    eval_games: int = 2000
    benchmarks: tuple[str, ...] = ()           # default BENCHMARKS
    seed: int = 0

    def resolved(self) -> "Options":
        from dataclasses import replace

        key = (self.edition, self.players)
        return replace(self, opponents=tuple(self.opponents or LEAGUE.get(key, ())),
                       teacher=self.teacher or TEACHERS.get(key), benchmarks=tuple(self.benchmarks or BENCHMARKS[key]))

    def check(self) -> None:
        if not 2 <= self.players <= 4:
            raise HocError(f"learn plays 2 to 4 players, got {self.players}")
        for name, v, lo in (("--imitation-games", self.imitation_games, 0), ("--envs", self.envs, 1),
                            ("--rollout-steps", self.rollout_steps, 1), ("--updates", self.updates, 1),
                            ("--eval-games", self.eval_games, 0), ("--imitation-epochs", self.imitation_epochs, 1)):
            if v < lo:
                raise HocError(f"{name} must be at least {lo}, got {v}")
        if not 0 < self.imitation_rate <= 1:
            raise HocError(f"--imitation-rate must be in (0, 1], got {self.imitation_rate}")
        if any(not 1 <= h <= 1024 for h in self.hidden):
            raise HocError(f"--hidden sizes must be 1 to 1024, got {self.hidden}")
        if self.edition not in ("2e", "1e"):
            raise HocError(f"--edition must be 2e or 1e, got {self.edition!r}")
        if not (self.opponents or LEAGUE.get((self.edition, self.players))) and not self.selves:
            raise HocError("the league is empty: name --opponents or let the learner play itself")


@dataclass
class Budget:
    steps: int | None = None        # PPO decisions (rounded up to whole generations)
    minutes: float | None = None    # wall-clock minutes of this invocation

    def __post_init__(self):
        if (self.steps is None) == (self.minutes is None):
            raise HocError("give a budget: --steps N (PPO decisions) or --minutes M")
        if self.steps is not None and self.steps < 0:
            raise HocError(f"--steps must be 0 or more, got {self.steps}")
        if self.minutes is not None and not self.minutes > 0:
            raise HocError(f"--minutes must be above 0, got {self.minutes}")


@dataclass
class Progress:
    generation: int = 0
    steps: int = 0                  # PPO decisions so far
    games: int = 0                  # PPO training games finished
    seconds: float = 0.0            # training time so far (imitation, rollouts, updates), over every invocation
    wall: float = 0.0               # wall-clock time of the run so far, evaluations and checkpoints included
    imitation: dict = field(default_factory=dict)
    curve: list = field(default_factory=list)


class Run:
    def __init__(self, options: Options, out: str | Path, jobs: int = 1, command: str = ""):
        options.check()
        self.options = options.resolved()
        self.out = Path(out)
        self.jobs = max(1, int(jobs))
        self.command = command
        from hoc import games

        self.spec = games.get(games.DEFAULT)      # the game whose agents have a learned kind
        self.ruleset = self.spec.ruleset(players=options.players, market=options.market, edition=options.edition)
        from hoc.agents.registry import get

        self.get = get
        for name in (*self.options.opponents, *self.options.benchmarks,
                     *([self.options.teacher] if self.options.teacher != "none" else [])):
            a = get(name)
            if a.play is not None:
                raise HocError(f"{name!r} is a Python agent; learn plays jitted agents only")
            a.params(self.ruleset)          # its row for this ruleset, or a one-line error now

    # ---- files -------------------------------------------------------------------------------------
    @property
    def checkpoint(self) -> Path:
        return self.out / "checkpoint.pt"

    def snapshot(self, generation: int) -> Path:
        return self.out / "league" / f"self_{generation:04d}.npz"

    def meta(self, progress: Progress) -> dict:
        o = self.options
        return {"game": self.spec.name, "edition": o.edition, "players": o.players, "market": o.market,
                "model": o.teacher if o.teacher != "none" else "basic_rush",
                "description": f"policy network trained by hoc learn ({o.players} players, {o.market} markets)",
                "command": self.command, "seed": o.seed, "generation": progress.generation, "steps": progress.steps,
                "imitation": progress.imitation, "training_minutes": round(progress.seconds / 60, 1),
                **({"wall_minutes": round(progress.wall / 60, 1)} if progress.wall else {}),
                "figures": progress.curve[-1] if progress.curve else {}}

    # ---- the run ----------------------------------------------------------------------------------
    def go(self, budget: Budget, progress_bar: bool = True, log=print) -> Progress:
        import torch

        from hoc.agents.learn import ppo
        from hoc.agents.learn.model import PolicyValue

        began = time.perf_counter()
        torch.set_num_threads(self.jobs)
        torch.use_deterministic_algorithms(True)
        o = self.options
        self.out.mkdir(parents=True, exist_ok=True)
        saved = self.out / "options.json"
        mine = json.loads(json.dumps(asdict(o)))
        if saved.exists() and json.loads(saved.read_text()) != mine:
            raise HocError(f"{self.out} holds a run with other options ({saved}); use another --out, or the "
                           f"same options to resume it")
        saved.write_text(json.dumps(mine, indent=1))
        view = self.ruleset.game.observation
        torch.manual_seed(o.seed)               # the initial weights
        model = PolicyValue(view.size(o.players), self.ruleset.game.n_actions, o.hidden)
        settings = ppo.Settings(envs=o.envs, steps=o.rollout_steps, lr=o.lr, ent_coef=o.ent_coef)
        optimizer = torch.optim.Adam(model.parameters(), lr=o.lr, eps=1e-5)
        generator = torch.Generator().manual_seed(o.seed)
        progress = Progress()
        if self.checkpoint.exists():
            progress = self._resume(model, optimizer, generator)
            log(f"resuming {self.out} at generation {progress.generation} ({progress.steps:,} PPO decisions)")
        else:
            t0 = time.perf_counter()
            if o.teacher != "none" and o.imitation_games > 0:
                progress.imitation = self._imitate(model, generator, progress_bar, log)
            progress.seconds += time.perf_counter() - t0
            progress.wall += time.perf_counter() - began
            began = time.perf_counter()
            self._close_generation(model, optimizer, generator, progress, {}, log)
        start = time.perf_counter()
        target = None if budget.steps is None else budget.steps
        bar = self._bar(progress, target, progress_bar)
        try:
            while True:
                if target is not None and progress.steps >= target:
                    break
                if budget.minutes is not None and time.perf_counter() - start >= budget.minutes * 60:
                    break
                t0 = time.perf_counter()
                league = ppo.League(self.ruleset, self._league(progress.generation), o.envs,
                                    seed=o.seed * 100_003 + progress.generation + 1)
                results: dict[str, list[float]] = {}
                for _ in range(o.updates):
                    batch, ended = ppo.rollout(model, league, settings, generator)
                    stats = ppo.update(model, optimizer, batch, settings, generator)
                    for k, r in ended:
                        results.setdefault(league.slots[k][0], []).append(r)
                    progress.steps += settings.batch
                    progress.games += len(ended)
                    if bar is not None:
                        bar.update(settings.batch)
                        bar.set_postfix(gen=progress.generation, kl=f"{stats['kl']:.3f}",
                                        ent=f"{stats['entropy']:.2f}", refresh=False)
                progress.seconds += time.perf_counter() - t0
                progress.wall += time.perf_counter() - began
                began = time.perf_counter()
                progress.generation += 1
                train = {name: float(np.mean([r > 0 for r in rs])) for name, rs in results.items()}
                self._close_generation(model, optimizer, generator, progress, train, log)
        finally:
            if bar is not None:
                bar.close()
        self._restamp(progress)
        return progress

    def _restamp(self, progress: Progress) -> None:
        """The policy and summary name this invocation's command: its budget may differ from the
        one that trained the last generation (a run stopped early, or resumed with more), and any
        budget that reaches the same generation gives the same weights."""
        from hoc.engine import weights as nw
        from hoc.research import learning

        net = nw.load(self.out / "policy.npz")
        net.meta = self.meta(progress)
        net.save(self.out / "policy.npz")
        learning.write_outputs(self.out, self.options, progress, self.command)

    def _bar(self, progress, target, on):
        """The PPO decisions' progress line (`hoc.research.progress.bar`: redrawn on a terminal, a line
        every 15 s elsewhere), with the time left when the budget is in decisions."""
        if not on:
            return None
        from hoc.research.progress import bar

        return bar(target, "PPO", "dec", initial=progress.steps, unit_scale=True)

    def _league(self, generation: int) -> list[str]:
        names = list(self.options.opponents)
        if self.options.selves and generation > 0:
            names.append(str(self.snapshot(generation)))
            if generation > 1:
                rng = np.random.default_rng([self.options.seed, generation])
                names.append(str(self.snapshot(int(rng.integers(0, generation)))))
        elif self.options.selves:
            names.append(str(self.snapshot(0)))
        return names

    def _imitate(self, model, generator, progress_bar, log) -> dict:
        from hoc.agents.learn import imitation
        from hoc.research.progress import bar as progress_line

        o = self.options
        t0 = time.perf_counter()
        teacher = self.get(o.teacher)
        opponents = [self.get(n) for n in o.opponents if n != o.teacher]
        recording = progress_line(o.imitation_games, f"recording {o.teacher}", "games", progress_bar, unit_scale=True)
        try:
            samples = imitation.collect(self.ruleset, teacher, opponents, o.imitation_games, o.seed,
                                        o.imitation_rate, progress=recording.update)
        finally:
            recording.close()
        recorded = time.perf_counter() - t0
        bar = None
        if progress_bar:
            bar = progress_line(o.imitation_epochs * int((samples.games % imitation.HELD_OUT != 0).sum()),
                                "imitation", "dec", unit_scale=True)
        fit = imitation.fit(model, samples, o.imitation_epochs, generator,
                            progress=bar.update if bar is not None else None)
        if bar is not None:
            bar.close()
        info = {"teacher": o.teacher, "games": o.imitation_games, "samples": fit.samples, "held_out": fit.held_out,
                "agreement": round(fit.agreement, 4), "value_error": round(fit.value_error, 4),
                "record_seconds": round(recorded, 1), "seconds": round(time.perf_counter() - t0, 1)}
        log(f"imitation of {o.teacher}: {fit.samples:,} decisions from {o.imitation_games:,} games; on held-out "
            f"games the network picks the teacher's action {100 * fit.agreement:.1f}% of the time")
        return info

    def _close_generation(self, model, optimizer, generator, progress: Progress, train: dict, log) -> None:
        """Snapshot, evaluate, write the curve and the checkpoint (in that order: a checkpoint
        exists only for a generation whose files are all written)."""
        import torch

        from hoc.research import learning

        net = model.network(self.meta(progress))
        snap = self.snapshot(progress.generation)
        net.save(snap)
        row = {"generation": progress.generation, "steps": progress.steps, "games": progress.games,
               "minutes": round(progress.seconds / 60, 2)}
        for name, rate in train.items():
            row[f"train {Path(name).stem}"] = round(rate, 4)
        row.update(learning.evaluate(self.ruleset, str(snap), self.options.benchmarks, self.options.eval_games,
                                     self.options.seed, self.jobs))
        progress.curve.append(row)
        net.meta = self.meta(progress)
        net.save(self.out / "policy.npz")
        state = {"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                 "generator": generator.get_state(), "progress": asdict(progress)}
        tmp = self.checkpoint.with_suffix(".tmp")
        torch.save(state, tmp)
        tmp.replace(self.checkpoint)
        learning.write_outputs(self.out, self.options, progress, self.command)
        log(learning.curve_line(row, self.options.benchmarks))

    def _resume(self, model, optimizer, generator) -> Progress:
        import torch

        try:
            state = torch.load(self.checkpoint, weights_only=False)
            model.load_state_dict(state["model"])
            optimizer.load_state_dict(state["optimizer"])
            generator.set_state(state["generator"])
            return Progress(**state["progress"])
        except Exception as e:
            raise HocError(f"{self.checkpoint}: cannot resume from it ({type(e).__name__}: {e}); "
                           f"remove it to start the run again") from None


def ship(out: str | Path, name: str) -> Path:
    """Copy a run's policy into the library of the game's learned policies (its catalog's
    `LEARNED_LIBRARY`: for Heart of Crown agents/heart_of_crown/learned/NAME.npz)."""
    from hoc import games

    LIBRARY = games.get(games.DEFAULT).catalog().LEARNED_LIBRARY

    LIBRARY.mkdir(parents=True, exist_ok=True)
    dest = LIBRARY / f"{name}.npz"
    shutil.copyfile(Path(out) / "policy.npz", dest)
    return dest
