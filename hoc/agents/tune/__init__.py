"""hoc tune: strong priority-list plans found by search (issue 12).

- `genome`: a plan as a value at the level of its TOML file, its thresholds as a bounded vector;
- `operators`: structural moves, crossover and random plans, each giving a valid agent file;
- `kernel`: the one compiled routine, playing a schedule of (seed, parameter row per seat) games;
- `evaluate`: races by successive halving with common random numbers, seats mirrored;
- `search`: generations, CMA-ES over thresholds, hall of fame, checkpoints, the `tune` entry point;
- `output`: best.toml, history, learning curve, summary and the final validation.

Only `kernel` may import the JIT compiler: the compiled-code cache is keyed by a hash of every module
that does (`hoc._cache`), so the other modules stay out of it and editing them never recompiles.
"""
from hoc.agents.tune.search import Budget, Settings, tune

__all__ = ["Budget", "Settings", "tune"]
