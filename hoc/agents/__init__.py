"""Agents. Jitted agents run inside the game loop, chosen by an integer id; Python agents are any
callable `(game) -> action` stepping a `hoc.Game`. `registry` maps names to agents."""
from hoc.agents.registry import AGENTS, Agent, get

__all__ = ["AGENTS", "Agent", "get"]
