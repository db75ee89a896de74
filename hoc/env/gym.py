"""The Gymnasium single-agent environment: the learner plays one seat, jitted built-in agents the
others (`gymnasium.make("hoc/HeartOfCrown-v0", opponents="senator_duke")` after `import hoc.env`,
or `gymnasium.make("hoc.env:hoc/HeartOfCrown-v0", ...)` without it).

Observation: {"observation": float32 vector (`hoc.games.heart_of_crown.observation.FIELDS`, docs/env.md), the
learner seat's view; "action_mask": int8, 1 for each legal action}; `action_masks()` returns the
mask too. Action: an id of the fixed action space. The opponents decide inside `step`, in jitted
code, until the learner must decide again. Reward at the end only: 1 for a sole win, 1/k for a win
shared by k seats, -1 for a loss, 0 when nobody wins (the turn cap). An illegal action forfeits: the
episode ends with reward -1 and info["illegal_action"] = True (random actions are mostly illegal;
sample legal ones with `action_space.sample(mask=obs["action_mask"])`).

`seat`: the learner's seat, or None for a seat drawn at each reset. `reset(seed=s)` plays the game
`Game(ruleset, seed=s)` (so it can be replayed); without a seed, the next of a stream started by the
last seed given.

Any game's ruleset works (`ruleset=hoc.games.dominion.rules.Ruleset(market="first_game")`): the
environment steps that game's Python `Game`, observes through its observation module and sizes its
spaces by its spec.
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from hoc.agents.deciders import with_room
from hoc.env.aec import observation_space
from hoc.env.vector import MAX_STEPS, opponent_lineup, reward, seat_opponents, stepper
from hoc.errors import HocError
from hoc.games.heart_of_crown.rules import Ruleset


class HeartOfCrownEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, opponents="random", players: int = 2, market="random", edition: str = "2e",
                 seat: int | None = None, render_mode: str | None = None, ruleset: Ruleset | None = None, **rules):
        self.ruleset = ruleset if ruleset is not None else Ruleset(players=players, market=market,
                                                                   edition=edition, **rules)
        n = self.ruleset.players
        if n < 2:
            raise HocError("the single-agent environment needs 2 players or more (the learner and its opponents)")
        if seat is not None and not 0 <= seat < n:
            raise HocError(f"seat {seat!r} does not exist: seats are 0 to {n - 1}")
        self.fixed_seat = seat
        self.opponents, self._ids, self._params = opponent_lineup(opponents, n, self.ruleset)
        # the search one when an opponent searches; on the rules `Game` steps with (shared)
        self._loops = stepper(self._ids, self.ruleset, shared=True)
        spec = self.ruleset.game
        self._view, self._game_class = spec.observation, spec.game_class()
        self.observation_space = observation_space(n, spec)
        self.action_space = spaces.Discrete(spec.n_actions)
        self.render_mode = render_mode
        self.game = None
        self.seat = 0
        self._obs = np.zeros(self._view.size(n), np.float32)
        self._mask = np.zeros(spec.n_actions, np.int8)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        n = self.ruleset.players
        while True:
            game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2 ** 63))
            self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(n))
            self.game = self._game_class(self.ruleset, seed=game_seed)
            if self._loops.arena:
                self.game.state = with_room(self.ruleset, self.game.state, self._ids, self._params)   # the search's arena
            seat_opponents(self.game.state, self.seat, self._ids, self._params)   # (setup reads no agent)
            self._play_others()
            if not self.game.over:
                return self._observation(), self._info()
            seed = None         # the opponents finished it before the learner's first decision: next seed

    def step(self, action):
        g = self.game
        a = int(action)
        if not g.is_legal(a):
            return self._observation(), -1.0, True, False, {**self._info(), "illegal_action": True}
        g.apply(a)
        self._play_others()
        done = g.over
        r = float(reward(g.state, self.seat)) if done else 0.0
        return self._observation(), r, done, False, self._info()

    def _play_others(self) -> None:
        if not self._loops.play_others(self.game.state, self.seat):
            raise HocError(f"game seed {self.game.seed} ran past {MAX_STEPS} decisions (a broken game)")

    def _observation(self) -> dict:
        self._view.observe(self.game.state, self.seat, self._obs)
        self._view.legal_mask(self.game.state, self.seat, self._mask)
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def _info(self) -> dict:
        g = self.game
        info = {"seat": self.seat, "game_seed": g.seed}
        if g.over:
            info.update({"winners": g.winners, "end_reason": g.end_reason,
                         self.ruleset.game.score: [g.score(p) for p in range(g.players)]})
        return info

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (the method maskable learners call)."""
        self._view.legal_mask(self.game.state, self.seat, self._mask)
        return self._mask.astype(bool)

    def render(self):
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        return "\n".join([repr(g), *(f"seat {p}{' (learner)' if p == self.seat else ''}: {g.describe_seat(p)}"
                                      for p in range(g.players))])
