"""The agents a user can name. Each jitted agent has an id (its case in its game's `decide`), the
game it plays, and a function that prepares its parameter row for a ruleset. Priority-list agents
are TOML files: the Heart of Crown archetypes in `hoc/games/heart_of_crown/agents/archetypes/` and
the Dominion bots in `hoc/games/dominion/agents/library/` by name, any other file by its path."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from hoc.agents import in_game
from hoc.games.heart_of_crown.agents import learned, policies, search
from hoc.games.dominion.agents import bots
from hoc.games.heart_of_crown.agents import priority
from hoc.games.heart_of_crown.agents.planner import MAIN_DEFAULTS, SECOND_DEFAULTS
from hoc.games.heart_of_crown.agents.library import ARCHETYPES, BASIC_RUSH, BASIC_RUSH_DESCRIPTION, TUNED
from hoc.errors import HocError
from hoc.names import did_you_mean
from hoc.games.heart_of_crown.kernel.constants import DTYPE, N_PARAMS


@dataclass(frozen=True)
class Agent:
    """A jitted agent (id >= 0: its case in `policies.decide`, with a parameter row per ruleset)
    or a Python agent (`play`: any callable game -> action, at Python speed)."""

    name: str
    id: int
    description: str
    params: Callable[[object], np.ndarray]
    play: Callable | None = None
    key: tuple[str, ...] = ()     # common kinds the plan is built on: its record is read on markets offering them
    game: str | None = "heart_of_crown"     # the game it plays (None: any game, e.g. random)
    # (edition, key kinds that edition has) where they differ from `key`: an edition's markets never offer
    # a kind only the other edition has, so a study choosing markets by key reads `key_for(edition)`
    edition_keys: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def key_for(self, edition: str) -> tuple[str, ...]:
        """The plan's key kinds that `edition` has (`PriorityList.key_for`, as `for_edition` reads it)."""
        return dict(self.edition_keys).get(edition, self.key)

    def decide(self, game, params=None) -> int:
        """The action this jitted agent takes now in the decider's seat of a `Game` (`Game.decide`)."""
        return in_game.decide(game, self, params)


@dataclass(frozen=True)
class Reach:
    """What an agent name may reach beyond the library's names.

    The command line's reach (`folder` None, `LOCAL`): agent files by any path from the working folder,
    and Python agents (`module:function`) imported. A served reach (`Reach(folder)`: the web table's
    requests): agent files named relative to `folder` and inside it only, and the names inside a name
    (a search agent's rollout and network, a learned policy's model list) read the same way, all the
    way down; nothing imported, nothing looked up in the working folder, and no answer that tells
    anything of a file outside `folder` (`hoc.folders`). `max_iterations`: the most search iterations
    per decision a name may ask for (None: the search's own bound)."""

    folder: Path | None = None
    max_iterations: int | None = None

    @property
    def served(self) -> bool:
        return self.folder is not None

    def file(self, name: str, suffix: str, what: str) -> Path:
        """The file a name gives (`what`: "agent file", "learned policy", for the messages)."""
        if self.folder is None:
            return Path(name)
        from hoc.folders import readable_file

        return readable_file(self.folder, name, {suffix}, what)

    def lookup(self) -> Callable[[str], "Agent"]:
        """`get` within this reach, for the names inside a name."""
        return functools.partial(get, reach=self)


LOCAL = Reach()


def _no_params(ruleset) -> np.ndarray:
    return np.zeros(N_PARAMS, DTYPE)


_BASIC_RUSH = priority.parse("basic_rush.toml", BASIC_RUSH)     # built in: one policy routine serves all lists


AGENTS = {a.name: a for a in (
    Agent("random", policies.RANDOM, "uniform over the legal actions", _no_params, game=None),
    Agent("basic_rush", policies.PRIORITY, BASIC_RUSH_DESCRIPTION, _BASIC_RUSH.params),
)}




def from_file(path: str | Path) -> Agent:
    """A priority-list agent from a TOML file (with a [plan] section: the list with its turn planner),
    or a Dominion bot (a file saying `game = "dominion"`)."""
    if _is_dominion_bot(Path(path)):
        return dominion_bot(bots.parse(path))
    return from_list(priority.parse(path))


def _is_dominion_bot(path: Path) -> bool:
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8")).get("game") == "dominion"
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False                    # the priority-list parser names what is wrong


def dominion_bot(bot) -> Agent:
    return Agent(bot.name, policies.PRIORITY, bot.description or f"Dominion bot {bot.path}", bot.params,
                 game="dominion")


def edition_keys(spec: priority.PriorityList) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A list's key as each edition reads it, where that drops a kind (`Agent.edition_keys`)."""
    out = []
    for edition in ("2e", "1e"):
        key = spec.key_for(edition)
        if key != spec.key:
            out.append((edition, key))
    return tuple(out)


def from_list(spec: priority.PriorityList, name: str | None = None) -> Agent:
    kind = policies.PLANNED if spec.planned else policies.PRIORITY
    return Agent(name or spec.name, kind, spec.description or f"priority list {spec.path}", spec.params,
                 key=spec.key, edition_keys=edition_keys(spec))


PLAN_SUFFIX = "+plan"      # `NAME+plan`: the priority list NAME with every part of its turn planner on


def planned_spec(name: str, reach: Reach = LOCAL) -> priority.PriorityList:
    """The list of `NAME+plan` (NAME a library plan or a .toml file) with its turn planner on, every
    part of it: the Main phase and card questions (`samples`, `settle`, `next`) and the Second
    phase (`second`), each at the planner's `MAIN_DEFAULTS` / `SECOND_DEFAULTS` where the file has it
    at 0 or not at all. A file's own settings are kept."""
    base = name[:-len(PLAN_SUFFIX)]
    path = list_file(base, reach)
    if path is None:
        raise HocError(f"unknown agent {name!r}: {base!r} is not a priority list "
                       f"(a library plan or a .toml file){did_you_mean(base, AGENTS)}")
    spec = priority.parse(path)
    own = dict(spec.plan or ())
    on = {k: own.get(k, 0) or v for k, v in MAIN_DEFAULTS.items()}
    if own.get("second", 0) <= 0:
        on.update(SECOND_DEFAULTS)
    return spec.with_plan(**on)


def planned(name: str, reach: Reach = LOCAL) -> Agent:
    """`NAME+plan`: the agent of `planned_spec(NAME+plan)`."""
    spec = planned_spec(name, reach)
    what = (f"{spec.description or spec.name}; its Main phase, card questions and its Second phase's back, set "
            "or buy by the turn planner")
    return Agent(name, policies.PLANNED, what, spec.params, key=spec.key, edition_keys=edition_keys(spec))


def list_file(name: str, reach: Reach = LOCAL) -> Path | None:
    """The TOML file of a priority list named by a library name or a path (within `reach`), or None."""
    if _library_name(name):
        for folder in (ARCHETYPES, TUNED):
            if (folder / f"{name}.toml").is_file():
                return folder / f"{name}.toml"
    return reach.file(name, ".toml", "agent file") if name.endswith(".toml") else None


def _library_name(name: str) -> bool:
    """`name` could name a file of the library (a plain name: no folder, nothing a file system refuses)."""
    return 0 < len(name) <= 200 and not any(c in name for c in "/\\\x00") and name not in (".", "..")


for _path in sorted(ARCHETYPES.glob("*.toml")):
    AGENTS[_path.stem] = from_file(_path)
HAND_WRITTEN = tuple(AGENTS)        # random, basic_rush and the archetypes: what studies of "our plans" play
for _path in sorted(TUNED.glob("*.toml")):
    AGENTS[_path.stem] = from_file(_path)
for _name, _bot in bots.library().items():
    AGENTS[_name] = dominion_bot(_bot)


def of_game(game: str) -> dict[str, Agent]:
    """The named agents that play `game` (those of any game, such as random, included)."""
    return {n: a for n, a in AGENTS.items() if a.game in (None, game)}


def split_names(text: str) -> list[str]:
    """Agent names from a comma-separated list. A search agent's options are comma-separated too:
    `key=value` tokens after an `ismcts:` spec belong to it, so `ismcts:iterations=1000,rollout=x,y`
    names two agents."""
    names: list[str] = []
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        if names and "=" in token and ":" not in token and ":" in names[-1] \
                and (search.is_spec(names[-1]) or _dominion_search_spec(names[-1])):
            names[-1] += "," + token
        else:
            names.append(token)
    return names


def archetypes() -> list[Agent]:
    """basic_rush and the hand-written archetypes (jitted priority lists, `random` left out)."""
    return [AGENTS[n] for n in HAND_WRITTEN if n != "random"]


def register(name: str, play: Callable, description: str = "") -> Agent:
    """Make a Python agent selectable by name: play(game) returns a legal action (an id or a
    label) for `game.decider`. It runs at Python speed through the step API."""
    agent = Agent(name, -1, description or (play.__doc__ or "Python agent").strip().splitlines()[0],
                  _no_params, play, game=None)
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
    return Agent(spec, -1, (play.__doc__ or "Python agent").strip().splitlines()[0], _no_params, play, game=None)


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
    if (here / f"{top}.py").is_file() or (here / top / "__init__.py").is_file():
        sys.path.append(str(here))      # kept: worker processes inherit the path and import it too
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


@dataclass(frozen=True)
class Parser:
    """How names of one kind of agent read: `claims(name)` says a name is of the kind, `make(name,
    reach)` makes its Agent within a `Reach` (or raises a HocError naming what is wrong with it).
    `served`: the kind may be read for a served reach (its names are data, read within the reach)."""

    kind: str
    claims: Callable[[str], bool]
    make: Callable[[str, Reach], Agent]
    served: bool = False


PARSERS: list[Parser] = []


def register_kind(kind: str, claims: Callable[[str], bool], make: Callable[[str], Agent]) -> None:
    """Let `get` read names of a kind of agent (tried in the order registered, after the named agents).
    The command line reads them; a served reach (the web table) does not: `make` is the user's code."""
    PARSERS.append(Parser(kind, claims, lambda name, reach: make(name)))


def _kind(kind: str, claims: Callable[[str], bool], make: Callable[[str, Reach], Agent], served: bool = True) -> None:
    PARSERS.append(Parser(kind, claims, make, served))


def get(name: str, reach: Reach = LOCAL) -> Agent:
    """The agent a name names, within `reach` (the command line's by default)."""
    if name in AGENTS:
        return AGENTS[name]
    for parser in PARSERS:
        if (parser.served or not reach.served) and parser.claims(name):
            return parser.make(name, reach)
    if reach.served:
        python = "; Python agents (module:function) play through `hoc play` and `hoc simulate`" if ":" in name else ""
        raise HocError(f"unknown agent {name[:80]!r}{did_you_mean(name[:80], AGENTS)}: here the agents are the "
                       f"library's (`hoc agents` lists them), NAME+plan, the search agent (ismcts:...) and agent files "
                       f"(.toml) inside {reach.folder}{python}")
    here = f"; {name}.py is in this folder: name its function, e.g. {name}:play" \
        if _library_name(name) and (Path.cwd() / f"{name}.py").is_file() else ""
    raise HocError(f"unknown agent {name!r}{did_you_mean(name, AGENTS)}; available: {', '.join(AGENTS)} "
                   f"(or a path to a .toml file, or module:function for a Python agent){here}")


def search_agent(spec: str, reach: Reach = LOCAL) -> Agent:
    """The agent of a search spec; its rollout list is looked up here, within the reach (`get` passed
    in), so the search package needs nothing of the registry."""
    agents = reach.lookup()
    opts = search.parse(spec, agents)
    _budget(spec, opts.iterations, reach)
    # the guiding network's row function: it registers the weights in every process it is unpickled in
    net = learned_agent(opts.net, reach).params if opts.net else None
    return Agent(spec, search.ISMCTS, search.describe(opts),
                 lambda ruleset: search.row(spec, opts, ruleset, agents, net))


def _budget(spec: str, iterations: int, reach: Reach) -> None:
    if reach.max_iterations is not None and iterations > reach.max_iterations:
        raise HocError(f"agent {spec!r}: {iterations:,} iterations per decision; the web table allows at most "
                       f"{reach.max_iterations:,} (`hoc play` and `hoc simulate` allow more)")


def dominion_search(spec: str, reach: Reach = LOCAL) -> Agent:
    """The Dominion search agent of a spec (`dom_search[:iterations=...,rollout=BOT,c=...,questions=1]`)."""
    from hoc.games.dominion.agents import search as dsearch

    agents = reach.lookup()
    opts = dsearch.parse(spec, agents)
    _budget(spec, opts.iterations, reach)
    return Agent(spec, policies.ISMCTS, dsearch.describe(opts), lambda ruleset: dsearch.row(opts, ruleset, agents),
                 game="dominion")


def learned_agent(spec: str, reach: Reach = LOCAL) -> Agent:
    """The agent of a learned spec (`hoc.games.heart_of_crown.agents.learned`): its weight file loaded and checked, its
    model list looked up here, within the reach (the file names it)."""
    path, temperature = learned.parse(spec, lambda name: reach.file(name, ".npz", "learned policy"))
    net = learned.nw.load(path)
    model = get(net.meta.get("model", "basic_rush"), reach)
    return Agent(spec, policies.LEARNED, learned.describe(spec, net, temperature),
                 learned.Row(spec, net, temperature, model))


def _dominion_search_spec(name: str) -> bool:
    from hoc.games.dominion.agents import search as dsearch

    return dsearch.is_spec(name)


for _name in search.PRESETS:       # the search agent and its presets (after the plans: its rollouts name one)
    AGENTS[_name] = search_agent(_name)
for _name in ("dom_search", "dom_search_fast", "dom_search_strong"):
    AGENTS[_name] = dominion_search(_name)


_kind("search agent", search.is_spec, search_agent)                                    # ismcts:iterations=...
_kind("Dominion search agent", _dominion_search_spec, dominion_search)                # dom_search:iterations=...
_kind("priority list with its turn planner", lambda n: n.endswith(PLAN_SUFFIX), planned)         # NAME+plan
_kind("priority list file", lambda n: n.endswith(".toml"),                                # path/to/plan.toml
      lambda n, reach: from_file(reach.file(n, ".toml", "agent file")))
_kind("learned policy", learned.is_spec, learned_agent)                                 # learned_2p, path/to/policy.npz
_kind("Python agent", lambda n: ":" in n, lambda n, reach: from_import(n), served=False)   # module:function
for _name in learned.library():    # the shipped learned policies (after the plans: each names its model list)
    AGENTS[_name] = learned_agent(_name)
