"""The games the engine plays, one package each: its cards, rules, jitted kernels and wording, and
its `GameSpec` (`hoc.engine.spec`) in `<game>/spec.py`."""
from __future__ import annotations

import importlib

from hoc.errors import HocError
from hoc.engine.spec import GameSpec

GAMES = ("heart_of_crown", "dominion")


def get(name: str) -> GameSpec:
    """The spec of the game `name` (its package under hoc.games)."""
    if name not in GAMES:
        raise HocError(f"unknown game {name!r}: the games are {', '.join(GAMES)}")
    return importlib.import_module(f"hoc.games.{name}.spec").GAME
