"""Heart of Crown's agent library: the priority-list format and its jitted player, the turn planner,
the arena where agents that think ahead copy and determinize a game, the plan as the tuner's genome
and its moves, the built-in and hand-written plans (`library`, `archetypes/`), the plans found by
`hoc tune` (`tuned/`) and a Python agent to copy (`examples`). The shared `hoc.agents` seats them
(registry, jitted dispatch, the search agent, the tuner's search)."""
