"""A game's jitted deciders and the state its lineups play in, through its spec (`GameSpec.deciders`,
`GameSpec.room`): the research batch, the environments and Python stepping seat jitted agents
through these, whatever the game.

- `state_for(ruleset, ids, rows)`: a state for the ruleset with room for what the lineup's agents
  need beyond the game (a search agent's or a turn planner's arena, networks' weights);
- `with_room(ruleset, state, ids, rows)`: an existing state with that room;
- `seating(ruleset, agents)`: the decider and the room for stepping a game from Python.
"""
from __future__ import annotations


def with_room(ruleset, state, ids, rows):
    """`state`, or a longer copy with the room the lineup's search seats and planners need."""
    return ruleset.game.with_room(state, ids, rows)


def state_for(ruleset, ids, rows):
    return with_room(ruleset, ruleset.game.kernel.new_state(ruleset.cards.table, ruleset.vector), ids, rows)


def seating(ruleset, agents):
    """(decide, room) for stepping a game of `ruleset` from Python with these agents: the jitted
    decider their kinds need and the state's room for them (`hoc.games.dominion.replay.Teller`)."""
    import numpy as np

    from hoc.engine.layout import N_PARAMS

    jitted = [a for a in agents if a.play is None]
    ids = np.array([a.id for a in jitted] or [0], np.int32)
    rows = np.stack([a.params(ruleset) for a in jitted]) if jitted else np.zeros((1, N_PARAMS), np.int32)
    return ruleset.game.deciders_module().decider(ids), lambda state: with_room(ruleset, state, ids, rows)
