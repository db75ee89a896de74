"""`hoc tune` for Heart of Crown: strong priority-list plans found by search.

- `search`: generations, CMA-ES over a plan's thresholds, hall of fame, checkpoints, the `tune` entry point;
- `output`: best.toml, history, learning curve, summary and the final validation.

The plan as a genome and its moves are `hoc.games.heart_of_crown.agents.genome` and `.operators`; the
races that play the candidates (`hoc.agents.tune.evaluate`) and the compiled schedule
(`hoc.agents.tune.kernel`) are every game's.
"""
from hoc.games.heart_of_crown.agents.tuning.search import Budget, Settings, tune

__all__ = ["Budget", "Settings", "tune"]
