"""Jitted agents deciding in a game's Python `Game`: the agent is seated in the decider's seat and its
game's compiled decider asked for an action (the game's spec: `GameSpec.room` for the arena its
agents need, `GameSpec.deciders` for the decider). `Game.decide(agent)` comes here through the agent
(`Agent.decide`), so the Game, a layer below the agents, names none of them."""
from __future__ import annotations

import numpy as np

from hoc.engine.layout import DTYPE
from hoc.engine.state import seat_agent


def decide(game, agent, params=None) -> int:
    """The action the jitted `agent` (a registry `Agent`) would take now in the decider's seat of
    `game`, with its parameter row for the game's ruleset unless `params` is given."""
    spec = game.ruleset.game
    P = np.ascontiguousarray(agent.params(game.ruleset) if params is None else params, DTYPE)
    game.state = spec.with_room(game.state, [agent.id], P[None, :])     # the arena of a search or a planner
    seat_agent(game.state, game.decider, agent.id, P)
    return int(spec.deciders_module().decider([agent.id])(game.state))
