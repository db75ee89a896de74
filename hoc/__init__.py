"""hoc: a rules-exact Heart of Crown engine on flat integer arrays, jitted with numba.

The front door (`hoc.api`), by the names one would guess: `hoc.simulate(agents, games=...)`,
`hoc.Game`, `hoc.agent(name)`, `hoc.games()`. They are loaded when first read, so `import hoc`
stays light: no game, agent or compiled kernel is imported until one is asked for."""
from hoc._cache import configure as _configure_cache
from hoc._version import __version__
from hoc._moved import install as _install_moved

CACHE_DIR = _configure_cache()
_install_moved()

_FRONT_DOOR = ("Game", "Results", "Summary", "agent", "simulate")

__all__ = ["CACHE_DIR", "__version__", "games", *_FRONT_DOOR]


def __getattr__(name: str):
    # Python asks only for names the package does not have yet: the front door's, and `games` before
    # anything imported the subpackage (a callable module: `hoc.games()` lists the games)
    if name in _FRONT_DOOR:
        from hoc import api

        value = getattr(api, name)
    elif name == "games":
        import hoc.games as value
    else:
        raise AttributeError(f"module 'hoc' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted({*globals(), *__all__})
