"""The agents a user can name, in every game. Each game's agent catalog (`GameSpec.agents`) gives its
named library and the kinds of name it reads; the registry gathers them, reads agent files by the
game their `game` key names (none: the default game), and adds what is every game's: `random`, Python
agents (`module:function`), the files of the user's agent folders by their names (`hoc.agent_folders`:
`--agents-dir`, `HOC_AGENTS_PATH`) and agents registered from Python (`register`, `register_kind`)."""
from __future__ import annotations

import dataclasses
import functools
import tomllib
from pathlib import Path
from typing import Callable

from hoc import games
from hoc import agent_folders as files
from hoc.agents.agent import LOCAL, Agent, Parser, Reach, library_name, no_params  # noqa: F401 (re-exported)
from hoc.agents.ids import RANDOM
from hoc.errors import HocError
from hoc.names import did_you_mean


AGENTS: dict[str, Agent] = {"random": Agent("random", RANDOM, "uniform over the legal actions", no_params)}
_GAME_PARSERS: list[Parser] = []    # the kinds of name of every game's catalog
_GATHERED: list[str] = []           # the games whose catalogs are in AGENTS and _GAME_PARSERS
_GATHERING: list[bool] = []         # non-empty while a catalog's library is being read


def _gather() -> None:
    """Add the library and the kinds of name of every registered game not gathered yet (one game's
    library at a time: its agents look up those before them, within their game)."""
    if _GATHERING or len(_GATHERED) == len(games.names()):
        return
    _GATHERING.append(True)
    try:
        _gather_games()
    finally:
        _GATHERING.clear()


def _gather_games() -> None:
    for spec in games.specs():
        if spec.name in _GATHERED:
            continue
        _GATHERED.append(spec.name)
        if not spec.agents:
            continue
        catalog = spec.catalog()
        _GAME_PARSERS.extend(catalog.PARSERS)
        for agent in catalog.library(functools.partial(get, reach=LOCAL)):
            AGENTS[agent.name] = agent


def of_game(game: str) -> dict[str, Agent]:
    """The named agents that play `game` (those of any game, such as random, included)."""
    _gather()
    return {n: a for n, a in AGENTS.items() if a.game in (None, game)}


def from_file(path: str | Path) -> Agent:
    """The agent of an agent file (TOML), read by the catalog of the game its `game` key names (a file
    without one is the default game's)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        data = {}                       # the default game's reader names what is wrong, with its line
    name = data.get("game", games.DEFAULT)
    if not isinstance(name, str) or name not in games.names():
        raise HocError(f"agent file {path}: game = {name!r} is not a game here (the games: {', '.join(games.names())})")
    return games.get(name).catalog().from_file(path, data)


def split_names(text: str, archives: bool = True) -> list[str]:
    """Agent names from a comma-separated list. A search agent's options are comma-separated too:
    `key=value` tokens after a name of a kind with options (`Parser.options`) belong to it, so
    `ismcts:iterations=1000,rollout=x,y` names two agents. With `archives`, a strategy atlas's folder
    stands for its viable elites' plan files (`hoc.agents.archive`); a web request's list is read
    without (it names no folder of the server)."""
    from hoc.agents import archive

    _gather()
    names: list[str] = []
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        if names and "=" in token and ":" not in token and ":" in names[-1] \
                and any(p.options and p.claims(names[-1]) for p in _parsers()):
            names[-1] += "," + token
        elif archives and archive.is_archive(token):
            names.extend(archive.members(token))
        else:
            names.append(token)
    return names


def register(name: str, play: Callable, description: str = "") -> Agent:
    """Make a Python agent selectable by name: play(game) returns a legal action (an id or a
    label) for `game.decider`. It runs at Python speed through the step API."""
    agent = Agent(name, -1, description or (play.__doc__ or "Python agent").strip().splitlines()[0],
                  no_params, play, game=None)
    AGENTS[name] = agent
    return agent


def from_import(spec: str) -> Agent:
    """A Python agent named 'module:function'. The module is imported from the Python path, else
    from the current folder: `python -m hoc` has that folder on the path, the `hoc` console script
    does not, and both should find the `mybot.py` beside the user."""
    module, _, attr = spec.partition(":")
    if not module or not attr:
        raise HocError(f"Python agent {spec!r}: expected module:function, e.g. mybot:play for the function "
                       f"play in mybot.py")
    play = getattr(_agent_module(spec, module), attr, None)
    if play is None:
        raise HocError(f"cannot load Python agent {spec!r}: module {module!r} has no {attr!r}")
    if not callable(play):
        raise HocError(f"Python agent {spec!r} is not callable")
    return Agent(spec, -1, (play.__doc__ or "Python agent").strip().splitlines()[0], no_params, play, game=None)


def _agent_module(spec: str, module: str):
    import importlib
    import sys

    try:
        return _import(spec, module)
    except ModuleNotFoundError as e:
        if not _names_the_module(e, module):        # the module exists but imports something missing
            raise HocError(f"cannot load Python agent {spec!r}: importing {module} failed: {e}") from None
    here = Path.cwd()
    top = module.split(".")[0]
    found = here if (here / f"{top}.py").is_file() or (here / top / "__init__.py").is_file() else \
        files.python_folder(module)     # else a user's agent folder holding it
    if found is not None:
        sys.path.append(str(found))     # kept: worker processes inherit the path and import it too
        importlib.invalidate_caches()
        try:
            return _import(spec, module)
        except ModuleNotFoundError as e:
            raise HocError(f"cannot load Python agent {spec!r}: importing {module} failed: {e}") from None
    from hoc._moved import new_name

    if new_name(module) != module:
        raise HocError(f"cannot load Python agent {spec!r}: its module moved; "
                       f"use {new_name(module)}:{spec.partition(':')[2]}")
    raise HocError(f"cannot load Python agent {spec!r}: no module {module!r} on the Python path, and no "
                   f"{here / (top + '.py')}; run hoc in the folder that holds {top}.py, or add that folder "
                   f"to PYTHONPATH")


def _names_the_module(e: ModuleNotFoundError, module: str) -> bool:
    """The missing module is `module` itself or a package it sits in."""
    return e.name is not None and (module == e.name or module.startswith(e.name + "."))


def _import(spec: str, module: str):
    """Import the agent's module; any error its own code raises becomes one line naming where."""
    import importlib
    import traceback

    try:
        return importlib.import_module(module)
    except ModuleNotFoundError:
        raise
    except SyntaxError as e:
        raise HocError(f"cannot load Python agent {spec!r}: {e.msg} ({e.filename} line {e.lineno})") from None
    except Exception as e:
        where = traceback.extract_tb(e.__traceback__)[-1]
        raise HocError(f"cannot load Python agent {spec!r}: importing {module} failed: {type(e).__name__}: {e} "
                       f"({where.filename} line {where.lineno})") from None


def _file_agent(name: str, reach: Reach, get) -> Agent:
    return from_file(reach.file(name, ".toml", "agent file"))


PARSERS: list[Parser] = [        # every game's own kinds: an agent file, a Python agent; then the user's
    Parser("agent file", lambda n: n.endswith(".toml"), _file_agent),                             # plan.toml
    Parser("Python agent", lambda n: ":" in n, lambda n, reach, get: from_import(n), served=False),  # mybot:play
]


def _parsers() -> list[Parser]:
    return [*_GAME_PARSERS, *PARSERS]


def register_kind(kind: str, claims: Callable[[str], bool], make: Callable[[str], Agent]) -> None:
    """Let `get` read names of a kind of agent (tried in the order registered, after the named agents
    and the games' kinds). The command line reads them; a served reach (the web table) does not: `make`
    is the user's code."""
    PARSERS.append(Parser(kind, claims, lambda name, reach, get: make(name), served=False))


def get(name: str, reach: Reach = LOCAL) -> Agent:
    """The agent a name names, within `reach` (the command line's by default)."""
    _gather()
    if name in AGENTS:
        return AGENTS[name]
    if not reach.served and library_name(name):
        path = files.user_file(name)
        if path is not None:
            return _user_agent(name, path, reach)
    for parser in _parsers():
        if (parser.served or not reach.served) and parser.claims(name):
            return parser.make(name, reach, functools.partial(get, reach=reach))
    if reach.served:
        python = "; Python agents (module:function) play through `hoc play` and `hoc simulate`" if ":" in name else ""
        raise HocError(f"unknown agent {name[:80]!r}{did_you_mean(name[:80], AGENTS)}: here the agents are the "
                       f"library's (`hoc agents` lists them), NAME+plan, the search agent (ismcts:...) and agent files "
                       f"(.toml) inside {reach.folder}{python}")
    here = f"; {name}.py is in this folder: name its function, e.g. {name}:play" \
        if library_name(name) and (Path.cwd() / f"{name}.py").is_file() else ""
    yours = files.user_files()
    raise HocError(f"unknown agent {name!r}{did_you_mean(name, [*AGENTS, *yours])}; available: "
                   f"{', '.join([*AGENTS, *(n for n in yours if n not in AGENTS)])} (or a path to a .toml file, a NAME.toml "
                   f"in a folder of --agents-dir or {files.ENV}, or module:function for a Python agent){here}")


_USER: dict[tuple[str, int], Agent] = {}     # the user's file agents by (path, modification time)


def _user_agent(name: str, path: Path, reach: Reach) -> Agent:
    """The agent of a file in the user's folders, named by its stem: a plan or bot (.toml, read by its
    game's catalog) or a learned policy (.npz)."""
    key = (str(path), path.stat().st_mtime_ns)
    if key not in _USER:
        agent = from_file(path) if path.suffix == ".toml" else get(str(path), reach)
        _USER[key] = dataclasses.replace(agent, name=name)
    return _USER[key]


_gather()
