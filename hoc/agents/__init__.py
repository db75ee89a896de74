"""Agents. Jitted agents run inside the game loop, chosen by an integer id; Python agents are any
callable `(game) -> action` stepping a `hoc.Game`. `registry` maps names to agents.

`AGENTS`, `Agent` and `get` are the registry's, loaded when first asked for: importing a module of
this package (its kind ids, say) does not load every game's agent library."""

__all__ = ["AGENTS", "Agent", "get"]


def __getattr__(name):
    if name in __all__:
        from hoc.agents import registry

        return getattr(registry, name)
    raise AttributeError(f"module 'hoc.agents' has no attribute {name!r}")
