"""Environments for learning agents over the engine's decision interface (fixed action space,
legal-action masks):

- `hoc.env.env(players=2, market="random", edition="2e", seed=...)`: the PettingZoo AEC environment,
  every seat an agent (`hoc.env.aec`);
- `gymnasium.make("hoc/HeartOfCrown-v0", opponents="senator_duke", ...)`: the Gymnasium single-agent
  environment, built-in jitted agents in the other seats (`hoc.env.gym`; registered on import);
- `hoc.env.VecHoc(n, opponents=...)`: the vectorized stepper, n games per jitted call (`hoc.env.vector`).

The observation vector is described field by field in `hoc.games.heart_of_crown.observation.FIELDS` (docs/env.md is
written from it)."""
import gymnasium

from hoc.env.aec import HeartOfCrownAEC, env, raw_env
from hoc.env.gym import HeartOfCrownEnv
from hoc.games.heart_of_crown.observation import FIELDS, layout, reference, size
from hoc.env.vector import VecHoc

GYM_ID = "hoc/HeartOfCrown-v0"
if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="hoc.env.gym:HeartOfCrownEnv")

__all__ = ["FIELDS", "GYM_ID", "HeartOfCrownAEC", "HeartOfCrownEnv", "VecHoc", "env", "layout", "raw_env",
           "reference", "size"]
