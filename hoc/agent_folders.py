"""Where the agent files are: the library, the one top-level `agents/` folder of a checkout (a wheel
installs it as the package data `hoc/agent_files`), with a folder per game:

    agents/heart_of_crown/archetypes/   the hand-written plans (priority lists, TOML)
    agents/heart_of_crown/tuned/        the plans `hoc tune` found, each naming its command
    agents/heart_of_crown/learned/      the shipped learned policies (weight files, .npz)
    agents/heart_of_crown/examples.py   a Python agent to copy
    agents/dominion/bots/               Dominion's bots (buy menus, TOML)

and the user's own folders (`--agents-dir DIR`, the environment variable `HOC_AGENTS_PATH`, several
folders allowed), where a file dropped is a new agent by its name: `NAME.toml` (a plan, or a bot of the
game its `game` key names), `NAME.npz` (a learned policy), `NAME.py` (Python agents, `NAME:function`).
A library name is the library's: a user's file of the same name is shown by `hoc agents` as hidden.
"""
from __future__ import annotations

import os
from pathlib import Path

from hoc.errors import HocError

_HOC = Path(__file__).resolve().parent             # the hoc package


def library() -> Path:
    """The library folder: `hoc/agent_files` where a wheel installed it, else the checkout's `agents/`
    beside the package (a source tree, or an editable install of one)."""
    installed = _HOC / "agent_files"
    return installed if installed.is_dir() else _HOC.parent / "agents"


def game_folder(game: str) -> Path:
    """A game's folder in the library (`agents/GAME`)."""
    return library() / game


# ---- the user's folders: a file dropped in one is an agent by its stem ----------------------------------

ENV = "HOC_AGENTS_PATH"          # the user's agent folders, os.pathsep-separated (first wins a name)
SUFFIXES = (".toml", ".npz")     # an agent file (a plan or a bot) and a learned policy's weights


def user_folders() -> list[Path]:
    """The user's agent folders: `--agents-dir` (first) and `HOC_AGENTS_PATH`, in order."""
    return [Path(p) for p in os.environ.get(ENV, "").split(os.pathsep) if p.strip()]


def use(folders: list[str]) -> None:
    """Add folders (`--agents-dir`, each may hold several os.pathsep-separated) before those of
    `HOC_AGENTS_PATH`, in the environment so worker processes read the same; a one-line error for a
    folder that is not there."""
    given = [p for entry in folders for p in entry.split(os.pathsep) if p.strip()]
    for p in given:
        if not Path(p).is_dir():
            raise HocError(f"--agents-dir {p}: no such folder")
    os.environ[ENV] = os.pathsep.join([str(Path(p).resolve()) for p in given] + [str(p) for p in user_folders()])


def user_file(name: str, suffixes: tuple[str, ...] = SUFFIXES) -> Path | None:
    """The file of the user's folders a plain name names (`NAME.toml`, `NAME.npz`), the first folder's; or None."""
    for folder in user_folders():
        for suffix in suffixes:
            path = folder / f"{name}{suffix}"
            if path.is_file():
                return path
    return None


def user_files() -> dict[str, Path]:
    """Every agent file of the user's folders by its name (stem), the first folder's where two hold one."""
    found: dict[str, Path] = {}
    for folder in user_folders():
        for path in sorted(folder.glob("*")):
            if path.suffix in SUFFIXES and path.is_file():
                found.setdefault(path.stem, path)
    return found


def python_folder(module: str) -> Path | None:
    """The user's folder holding a Python agent's module (`mybot.py` or a package `mybot/`), or None."""
    top = module.split(".")[0]
    for folder in user_folders():
        if (folder / f"{top}.py").is_file() or (folder / top / "__init__.py").is_file():
            return folder
    return None
