"""Each game's jitted deciders and the state its lineups play in, by game name: the research batch
and the environments seat jitted agents through these, whatever the game.

- `policies(game)`: the module of the game's `decide`, `decide_search`, `decide_plan`,
  `decide_search_plan` (the variants `hoc.engine.loops` compiles), `DECIDERS` and `decider(ids)`;
- `state_for(ruleset, ids, rows)`: a state for the ruleset with room for what the lineup's agents
  need beyond the game (a search agent's or a turn planner's arena).
"""
from __future__ import annotations

import importlib

_POLICIES = {"heart_of_crown": "hoc.agents.policies", "dominion": "hoc.games.dominion.agents.policies"}


def policies(game: str):
    return importlib.import_module(_POLICIES[game])


def with_room(ruleset, state, ids, rows):
    """`state`, or a longer copy with the room the lineup's search seats and planners need."""
    if ruleset.game.name == "heart_of_crown":
        from hoc.agents.search import reserve

        return reserve(state, ids, rows)
    from hoc.games.dominion.agents.search import with_arena

    return with_arena(state, ids)


def state_for(ruleset, ids, rows):
    T, R = ruleset.cards.table, ruleset.vector
    if ruleset.game.name == "heart_of_crown":
        from hoc.agents.search import new_search_state

        return new_search_state(T, R, ids, rows)
    from hoc.games.dominion.agents.search import with_arena

    return with_arena(ruleset.game.kernel.new_state(T, R), ids)


def seating(ruleset, agents):
    """(decide, room) for stepping a game of `ruleset` from Python with these agents: the jitted
    decider their kinds need and the state's room for them (`hoc.games.dominion.replay.Teller`)."""
    import numpy as np

    from hoc.engine.layout import N_PARAMS

    jitted = [a for a in agents if a.play is None]
    ids = np.array([a.id for a in jitted] or [0], np.int32)
    rows = np.stack([a.params(ruleset) for a in jitted]) if jitted else np.zeros((1, N_PARAMS), np.int32)
    return policies(ruleset.game.name).decider(ids), lambda state: with_room(ruleset, state, ids, rows)
