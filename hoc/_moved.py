"""One clear error for code written against a module path that has moved.

- Until version 0.2 the agent code was the top-level package `agents`, a name that other published
  packages use too (the OpenAI Agents SDK among them). It now lives in `hoc.agents`.
- Until version 0.3 Heart of Crown's rules, cards and `Game` sat at the top of `hoc` (`hoc.kernel`,
  `hoc.game`, ...). Each game now has its own package under `hoc.games`, and the jit helpers every
  game uses are in `hoc.engine`; Heart of Crown's agent library (priority lists, the turn planner,
  the plan files, the example Python agent) is `hoc.games.heart_of_crown.agents`.
- Until version 0.4 Heart of Crown's jitted agents (its deciders, the search agent, the learned policy)
  and both games' tuners sat in the shared `hoc.agents`; they are in each game's `agents` package
  now, and a learned policy's weight file is read by `hoc.engine.weights`.

A finder placed last on `sys.meta_path` answers only when nothing else provides the name, so it never
shadows another project's `agents`; it then turns the bare ModuleNotFoundError into one line saying
the new path.
"""
from __future__ import annotations

import importlib.abc
import sys

_GAME = "hoc.games.heart_of_crown"
# old name -> (new name, the release that moved it); the longest old name that holds a module wins
# (Python looks a package up before its modules, so a package's entry answers for all of them)
MOVED = {
    "agents": ("hoc.agents", "0.2"),
    "hoc.kernel": (_GAME + ".kernel", "0.3"),         # but its jit decorators: hoc.engine.jit (NOTES)
    "hoc.game": (_GAME + ".game", "0.3"),
    "hoc.cards": (_GAME + ".cards", "0.3"),
    "hoc.rules": (_GAME + ".rules", "0.3"),
    "hoc.presets": (_GAME + ".presets", "0.3"),
    "hoc.replay": (_GAME + ".replay", "0.3"),
    # Heart of Crown's agent library (the shared hoc.agents seats it)
    **{f"hoc.agents.{m}": (f"{_GAME}.agents.{m}", "0.3") for m in ("priority", "priority_kernel", "planner", "arena",
                                                                    "examples")},
    "hoc.agents.tune.genome": (_GAME + ".agents.genome", "0.3"),
    # Heart of Crown's jitted agents (the shared hoc.agents keeps the kinds, the record and the registry)
    **{f"hoc.agents.{m}": (f"{_GAME}.agents.{m}", "0.4") for m in ("policies", "search", "learned")},
    "hoc.agents.learned.network": ("hoc.engine.weights", "0.4"),
    # the tuners' own searches (the shared hoc.agents.tune keeps the races and the compiled schedule)
    "hoc.agents.tune.search": (_GAME + ".agents.tuning.search", "0.4"),
    "hoc.agents.tune.output": (_GAME + ".agents.tuning.output", "0.4"),
    "hoc.agents.tune.dominion": ("hoc.games.dominion.agents.tuning", "0.4"),
    "hoc.cli.dominion_play": ("hoc.games.dominion.commands", "0.4"),
    "hoc.agents.tune.operators": (_GAME + ".agents.operators", "0.3"),
    # Heart of Crown's own studies (the shared hoc.research runs them)
    **{f"hoc.research.{m}": (f"{_GAME}.studies.{m}", "0.3") for m in ("princess_study", "card_value",
                                                                      "balance_report", "curves")},
}


NOTES = {"hoc.kernel": " (and hoc.engine.jit for hoc.kernel.jit)"}


def _old(name: str) -> str | None:
    """The longest old name that is `name` or a package holding it."""
    found = [old for old in MOVED if name == old or name.startswith(old + ".")]
    return max(found, key=len) if found else None


def new_name(name: str) -> str:
    """Where `name` is now, through every move since (agents.examples -> hoc.agents.examples -> ...)."""
    old = _old(name)
    return name if old is None else new_name(MOVED[old][0] + name[len(old):])


class _MovedAgents(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        old = _old(name)
        if old is not None:
            where = "hoc's agents" if old == "agents" else "it"
            raise ModuleNotFoundError(f"no module named {name!r}: {where} moved to {new_name(name)} "
                                      f"(heart-of-crown {MOVED[old][1]}): write {MOVED[old][0]} where the "
                                      f"code says {old}{NOTES.get(old, '')}", name=name)
        return None


def install() -> None:
    if not any(isinstance(f, _MovedAgents) for f in sys.meta_path):
        sys.meta_path.append(_MovedAgents())
