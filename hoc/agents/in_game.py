"""Jitted agents deciding in a Python `hoc.games.heart_of_crown.game.Game`: the agent is seated in the decider's seat
and its compiled policy asked for an action. `Game.decide(agent)` comes here through the agent
(`Agent.decide`), so the Game, a layer below the agents, names none of them."""
from __future__ import annotations

import numpy as np

from hoc.agents.policies import decider, default_choice
from hoc.agents.search import reserve
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.kernel.state import seat_agent


def decide(game, agent, params=None) -> int:
    """The action the jitted `agent` (a registry `Agent`) would take now in the decider's seat of
    `game`, with its parameter row for the game's ruleset unless `params` is given."""
    P = np.ascontiguousarray(agent.params(game.ruleset) if params is None else params, K.DTYPE)
    game.state = reserve(game.state, [agent.id], P[None, :])     # the arena of a search or a planner
    seat_agent(game.state, game.decider, agent.id, P)
    return int(decider([agent.id])(game.state))


def default_answer(game) -> int:
    """The default answer to the pending card question of `game` (the priority lists' own, see
    `hoc.agents.policies.default_choice`), for Python agents that do not answer it themselves."""
    return int(default_choice(game.state))
