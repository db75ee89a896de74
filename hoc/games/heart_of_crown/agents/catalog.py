"""Heart of Crown's agents as the registry reads them (`GameSpec.agents`): its named library and the
kinds of name it reads.

- the library (`library`): basic_rush, the hand-written archetypes, the tuned plans, the search
  presets (after the plans: their rollouts name one) and the shipped learned policies (each names its
  model list);
- the kinds of name (`PARSERS`): the search agent with options (`ismcts:iterations=1000`), a plan with
  its turn planner on (`NAME+plan`), a priority-list file (`plan.toml`), a learned policy
  (`learned_2p`, `policy.npz`);
- an agent file of this game (`from_file`): a priority list, with its turn planner when it has a
  [plan] section.
"""
from __future__ import annotations

import functools
from pathlib import Path

from hoc.agent_folders import user_file
from hoc.agents.agent import LOCAL, Agent, Lookup, Parser, Reach, library_name
from hoc.agents.ids import LEARNED, PLANNED, PRIORITY
from hoc.errors import HocError
from hoc.games.heart_of_crown.agents import learned, priority, search
from hoc.games.heart_of_crown.agents.library import ARCHETYPES, BASIC_RUSH, BASIC_RUSH_DESCRIPTION, TUNED
from hoc.games.heart_of_crown.agents.planner import MAIN_DEFAULTS, SECOND_DEFAULTS
from hoc.names import did_you_mean

GAME = "heart_of_crown"
LEARNED_LIBRARY = learned.LIBRARY     # where `hoc learn --ship` puts a policy
PLAN_SUFFIX = "+plan"      # `NAME+plan`: the priority list NAME with every part of its turn planner on
EDITIONS = ("2e", "1e")

_BASIC_RUSH = priority.parse("basic_rush.toml", BASIC_RUSH)     # built in: one policy routine serves all lists

# random, basic_rush and the hand-written archetypes: what studies of "our plans" play
HAND_WRITTEN = ("random", "basic_rush", *(p.stem for p in sorted(ARCHETYPES.glob("*.toml"))))
__all__ = ["ARCHETYPES", "TUNED", "HAND_WRITTEN", "PLAN_SUFFIX", "archetypes", "from_file", "from_list", "list_file",
           "planned", "planned_spec", "library", "PARSERS", "annotate",
           "population", "opponents", "edition_plan", "row_kind"]


def edition_keys(spec: priority.PriorityList) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A list's key as each edition reads it, where that drops a kind (`Agent.edition_keys`)."""
    out = []
    for edition in EDITIONS:
        key = spec.key_for(edition)
        if key != spec.key:
            out.append((edition, key))
    return tuple(out)


def from_list(spec: priority.PriorityList, name: str | None = None) -> Agent:
    """The agent of a parsed priority list (a planning list when it has a [plan] section)."""
    kind = PLANNED if spec.planned else PRIORITY
    return Agent(name or spec.name, kind, spec.description or f"priority list {spec.path}", spec.params,
                 key=spec.key, game=GAME, edition_keys=edition_keys(spec))


def from_file(path: str | Path, data: dict | None = None) -> Agent:
    """A priority-list agent from a TOML file (with a [plan] section: the list with its turn planner).
    `data`: the file already read as TOML by the registry (the priority-list parser reads it again,
    naming any fault by its line)."""
    return from_list(priority.parse(path))


def list_file(name: str, reach: Reach = LOCAL) -> Path | None:
    """The TOML file of a priority list named by a library name or a path (within `reach`), or None."""
    if library_name(name):
        for folder in (ARCHETYPES, TUNED):
            if (folder / f"{name}.toml").is_file():
                return folder / f"{name}.toml"
        if not reach.served and (yours := user_file(name, (".toml",))) is not None:   # a user's agents folder
            return yours
    return reach.file(name, ".toml", "agent file") if name.endswith(".toml") else None


def planned_spec(name: str, reach: Reach = LOCAL) -> priority.PriorityList:
    """The list of `NAME+plan` (NAME a library plan or a .toml file) with its turn planner on, every
    part of it: the Main phase and card questions (`samples`, `settle`, `next`) and the Second
    phase (`second`), each at the planner's `MAIN_DEFAULTS` / `SECOND_DEFAULTS` where the file has it
    at 0 or not at all. A file's own settings are kept."""
    base = name[:-len(PLAN_SUFFIX)]
    path = list_file(base, reach)
    if path is None:
        plans = [p.stem for folder in (ARCHETYPES, TUNED) for p in folder.glob("*.toml")]
        raise HocError(f"unknown agent {name!r}: {base!r} is not a priority list "
                       f"(a library plan or a .toml file){did_you_mean(base, plans)}")
    spec = priority.parse(path)
    own = dict(spec.plan or ())
    on = {k: own.get(k, 0) or v for k, v in MAIN_DEFAULTS.items()}
    if own.get("second", 0) <= 0:
        on.update(SECOND_DEFAULTS)
    return spec.with_plan(**on)


def planned(name: str, reach: Reach = LOCAL, get: Lookup | None = None) -> Agent:
    """`NAME+plan`: the agent of `planned_spec(NAME+plan)`."""
    spec = planned_spec(name, reach)
    what = (f"{spec.description or spec.name}; its Main phase, card questions and its Second phase's back, set "
            "or buy by the turn planner")
    return Agent(name, PLANNED, what, spec.params, key=spec.key, game=GAME, edition_keys=edition_keys(spec))


def search_agent(spec: str, reach: Reach, get: Lookup) -> Agent:
    """The agent of a search spec; its rollout list and guiding network are looked up through `get`,
    within the reach."""
    opts = search.parse(spec, get)
    reach.budget(spec, opts.iterations)
    # the guiding network's row function: it registers the weights in every process it is unpickled in
    net = learned_agent(opts.net, reach, get).params if opts.net else None
    return Agent(spec, search.ISMCTS, search.describe(opts), lambda ruleset: search.row(spec, opts, ruleset, get, net),
                 game=GAME)


def learned_agent(spec: str, reach: Reach, get: Lookup) -> Agent:
    """The agent of a learned spec: its weight file loaded and checked, its model list looked up
    through `get`, within the reach (the file names it)."""
    path, temperature = learned.parse(spec, lambda name: reach.file(name, ".npz", "learned policy"))
    net = learned.nw.load(path)
    model = get(net.meta.get("model", "basic_rush"))
    return Agent(spec, LEARNED, learned.describe(spec, net, temperature),
                 learned.Row(spec, net, temperature, model), game=GAME)


@functools.cache
def _plan(name: str) -> Agent:
    """A library plan's agent, made once (the registry's and `archetypes()`'s are the same)."""
    if name == "basic_rush":
        return Agent("basic_rush", PRIORITY, BASIC_RUSH_DESCRIPTION, _BASIC_RUSH.params, game=GAME)
    return from_list(priority.parse(list_file(name)), name)


def archetypes() -> list[Agent]:
    """basic_rush and the hand-written archetypes (jitted priority lists, `random` left out)."""
    return [_plan(n) for n in HAND_WRITTEN if n != "random"]


def library(get: Lookup):
    """The named agents, in the order `hoc agents` lists them; each may look up those before it."""
    yield from archetypes()
    for path in sorted(TUNED.glob("*.toml")):
        yield _plan(path.stem)
    for name in search.PRESETS:
        yield search_agent(name, LOCAL, get)
    for name in learned.library():
        yield learned_agent(name, LOCAL, get)


def _plays(agent: Agent, ruleset) -> bool:
    """The agent can play under `ruleset` (a 1st-edition game lacks some cards a plan names)."""
    try:
        agent.params(ruleset)
        return True
    except HocError:
        return False


def edition_plan(name: str, edition: str) -> bool:
    """A plan of the library (an archetype or a tuned plan) belongs to the defaults of this edition's
    studies: the 1E library's (`*_1e` archetypes, `tuned_*_1e_*` plans) to 1E only; the 2E plans to
    both (under 1E they are read without the 2E-only cards, as before the 1E library existed)."""
    return not ("_1e_" in name or name.endswith("_1e")) or edition == "1e"


def population(ruleset, get: Lookup) -> list[Agent]:
    """The meta-game's default population: every hand-written plan (basic_rush and the archetypes) and
    every tuned plan of the ruleset's edition's library (`edition_plan`) that the edition can play."""
    names = [n for n in HAND_WRITTEN if n != "random"] + sorted(p.stem for p in TUNED.glob("*.toml"))
    return [a for a in map(get, names) if edition_plan(a.name, ruleset.edition) and _plays(a, ruleset)]


def opponents(ruleset) -> list[str]:
    """Whom `hoc tune` tunes a plan against unless told: basic_rush and every archetype of the
    ruleset's edition's library (`edition_plan`) that the edition can play."""
    return [a.name for a in archetypes() if edition_plan(a.name, ruleset.edition) and _plays(a, ruleset)]


def row_kind(row) -> int:
    """The kind of agent a tuned candidate's parameter row plays as: a plain or a planning list."""
    return priority.list_id(row)


PARSERS = (
    Parser("search agent", search.is_spec, search_agent, options=True),                  # ismcts:iterations=...
    Parser("priority list with its turn planner", lambda n: n.endswith(PLAN_SUFFIX), planned),     # NAME+plan
    Parser("learned policy", learned.is_spec, learned_agent),                             # learned_2p, policy.npz
)


def annotate(name: str, edition: str) -> str:
    """What `hoc agents --edition` adds to a library plan's line: the cards that edition's reading leaves out."""
    path = list_file(name) if library_name(name) else None
    left = priority.parse(path).dropped(edition) if path is not None else ()
    return f" (under {edition}, without: {', '.join(left)})" if left else ""

