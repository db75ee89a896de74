"""Where the agent files are: the library, the one top-level `agents/` folder of a checkout (a wheel
installs it as the package data `hoc/library`), with a folder per game:

    agents/heart_of_crown/archetypes/   the hand-written plans (priority lists, TOML)
    agents/heart_of_crown/tuned/        the plans `hoc tune` found, each naming its command
    agents/heart_of_crown/learned/      the shipped learned policies (weight files, .npz)
    agents/heart_of_crown/examples.py   a Python agent to copy
    agents/dominion/bots/               Dominion's bots (buy menus, TOML)
"""
from __future__ import annotations

from pathlib import Path

_HOC = Path(__file__).resolve().parent             # the hoc package


def library() -> Path:
    """The library folder: `hoc/library` where a wheel installed it, else the checkout's `agents/`
    beside the package (a source tree, or an editable install of one)."""
    installed = _HOC / "library"
    return installed if installed.is_dir() else _HOC.parent / "agents"


def game_folder(game: str) -> Path:
    """A game's folder in the library (`agents/GAME`)."""
    return library() / game

