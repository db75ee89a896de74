"""Heart of Crown's agent library: the priority-list format and its jitted player, the turn planner,
the arena where agents that think ahead copy and determinize a game, the plan as the tuner's genome
and its moves, the built-in plan and where the library's plan files are (`library`: the hand-written
archetypes and the plans found by `hoc tune`, in the top-level `agents/heart_of_crown/`) and a Python
agent to copy (`examples`, read from there). The shared `hoc.agents` seats them
(registry, jitted dispatch, the search agent, the tuner's search)."""
