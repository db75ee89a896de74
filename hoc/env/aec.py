"""The PettingZoo AEC environment: every seat is an agent ("player_0" plays first
unless a seating rule, the 1E hand elimination, seats the players otherwise); the agent
selected is the seat that must decide, which may decide several times in a row.

Observation of an agent: {"observation": float32 vector of `hoc.games.heart_of_crown.observation.size(players)`
slots (what that seat may see: `hoc.games.heart_of_crown.observation.FIELDS`, docs/env.md), "action_mask": int8
vector of N_ACTIONS slots, 1 for each legal action (all 0 unless the agent must decide)}. Action:
an id of the fixed action space (`hoc.games.heart_of_crown.game.actions` names them). Rewards come at the end only: 1
for a sole win, 1/k for each of k seats sharing a win, -1 for a loss, 0 for all when nobody wins (the
turn cap). An illegal action raises `hoc.errors.IllegalActionError`.

`reset(seed=s)` plays the game `Game(ruleset, seed=s)`: the same seed and the same actions give the
same game as `hoc.games.heart_of_crown.game.Game` and `hoc replay` (a run's game i has the seed `Game.of_run(ruleset,
run_seed, i).seed`). `reset()` without a seed plays the next seed of a stream started by the last
seed given (or by the `seed` the environment was made with).

Any game's ruleset works (`ruleset=hoc.games.dominion.rules.Ruleset(market="first_game")`): the
environment steps that game's Python `Game`, observes through its observation module and sizes its
spaces by its spec.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from hoc.env.vector import reward
from hoc.games.heart_of_crown.rules import MAX_PLAYERS, MAX_TURN_CAP, Ruleset

# no field exceeds the turns of the longest game in size (counts, prices, ids and bitmasks are far
# smaller; SP is the one field that can be negative: Curses)
HIGH = float(MAX_PLAYERS * MAX_TURN_CAP)


def observation_space(players: int, spec=None) -> spaces.Dict:
    """The observation space of a game (its `GameSpec`; default Heart of Crown) at this many players."""
    if spec is None:
        from hoc.games.heart_of_crown.spec import GAME as spec
    return spaces.Dict({
        "observation": spaces.Box(-HIGH, HIGH, (spec.observation.size(players),), np.float32),
        "action_mask": spaces.Box(0, 1, (spec.n_actions,), np.int8),
    })


class SeedStream:
    """Game seeds: the seed given, else the next of a stream started by the last seed given."""

    def __init__(self, seed: int | None):
        self.rng = np.random.default_rng(seed)

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            return int(seed)
        return int(self.rng.integers(0, 2 ** 63))


class HeartOfCrownAEC(AECEnv):
    metadata = {"name": "heart_of_crown_v0", "render_modes": ["ansi"], "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, players: int = 2, market="random", edition: str = "2e", seed: int | None = None,
                 render_mode: str | None = None, ruleset: Ruleset | None = None, **rules):
        super().__init__()
        self.ruleset = ruleset if ruleset is not None else Ruleset(players=players, market=market,
                                                                   edition=edition, **rules)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.ruleset.players)]
        spec = self.ruleset.game
        self._view, self._game_class, self._n_actions = spec.observation, spec.game_class(), spec.n_actions
        self._obs_space = observation_space(self.ruleset.players, spec)
        self._act_space = spaces.Discrete(spec.n_actions)
        self._seeds = SeedStream(seed)
        self.game = None

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.game = self._game_class(self.ruleset, seed=self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settle()

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        obs = np.zeros(self._view.size(self.ruleset.players), np.float32)
        mask = np.zeros(self._n_actions, np.int8)
        self._view.observe(self.game.state, seat, obs)
        self._view.legal_mask(self.game.state, seat, mask)
        return {"observation": obs, "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(int(action))
        self._settle()

    def _settle(self) -> None:
        """After a decision: select the seat to decide, or hand out the rewards of a finished game."""
        g = self.game
        if g.over:
            for p, a in enumerate(self.possible_agents):
                self.rewards[a] = float(reward(g.state, p))
                self.terminations[a] = True
                self.infos[a] = {"winners": g.winners, "end_reason": g.end_reason, self.ruleset.game.score: g.score(p)}
            self.agent_selection = self.agents[0]
            self._accumulate_rewards()
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[g.decider]

    def render(self):
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        lines = [repr(g)]
        for p in range(g.players):
            lines.append(f"seat {p}: {g.describe_seat(p)}")
        if not g.over:
            lines.append("legal: " + ", ".join(g.label(a) for a in g.legal_actions()))
        return "\n".join(lines)

    def close(self) -> None:
        pass


def env(players: int = 2, market="random", edition: str = "2e", seed: int | None = None, **kwargs) -> HeartOfCrownAEC:
    """The PettingZoo AEC environment of a game of Heart of Crown (see the module docstring)."""
    return HeartOfCrownAEC(players=players, market=market, edition=edition, seed=seed, **kwargs)


raw_env = env
