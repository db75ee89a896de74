"""The games the engine plays, one package each: its cards, rules, jitted kernels and wording, and
its `GameSpec` (`hoc.engine.spec`) in `<game>/spec.py`.

Another game joins by `register("its.spec.module")` (a module whose `GAME` is its spec): the command
line, the research harness, the registry of agents and the environments then play it by its name,
as they play these."""
from __future__ import annotations

import importlib
import sys
import types

from hoc.errors import HocError
from hoc.engine.spec import GameSpec

# name -> the module holding its spec as GAME; the first is the default of every command
_SPECS = {"heart_of_crown": "hoc.games.heart_of_crown.spec", "dominion": "hoc.games.dominion.spec"}
DEFAULT = "heart_of_crown"
GAMES: tuple[str, ...] = tuple(_SPECS)
_BUILT_IN = dict(_SPECS)


def get(name: str) -> GameSpec:
    """The spec of the game `name`."""
    if name not in _SPECS:
        raise HocError(f"unknown game {name!r}: the games are {', '.join(_SPECS)}")
    return importlib.import_module(_SPECS[name]).GAME


def register(module: str) -> GameSpec:
    """Add the game whose spec is `module`.GAME (registered again: the same module, nothing changes).
    Its package's sources key the compiled-code cache from now on (`hoc._cache.include`): an edit of
    its rules never runs old compiled code."""
    global GAMES
    from pathlib import Path

    import hoc
    from hoc import _cache

    top = importlib.import_module(module.partition(".")[0])
    hoc.CACHE_DIR = _cache.include(Path(top.__file__).parent)     # before its jitted modules are defined
    spec = importlib.import_module(module).GAME
    if _SPECS.get(spec.name, module) != module:
        raise HocError(f"game {spec.name!r} is already registered from {_SPECS[spec.name]}")
    _SPECS[spec.name] = module
    GAMES = tuple(_SPECS)
    return spec


def registered() -> tuple[str, ...]:
    """The spec modules of the games registered beyond hoc's own, in their order (a worker process
    registers them again before it reads a task that names one: `hoc.research.harness.run_tasks`)."""
    return tuple(m for name, m in _SPECS.items() if name not in _BUILT_IN)


def names() -> tuple[str, ...]:
    """The registered games' names, the default first."""
    return tuple(_SPECS)


def specs() -> list[GameSpec]:
    """Every registered game's spec, the default first."""
    return [get(name) for name in _SPECS]


class _Games(types.ModuleType):
    """This package, callable: `hoc.games()` is the registered games' names (`names()`), the names
    `hoc.simulate(game=...)` and `--game` take, while `hoc.games.get(...)` and the rest stay as they are."""

    def __call__(self) -> tuple[str, ...]:
        return names()


sys.modules[__name__].__class__ = _Games
