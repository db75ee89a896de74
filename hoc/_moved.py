"""One clear error for code written against the old top-level `agents` package.

Until version 0.2 the agent code was the top-level package `agents`, a name that other published
packages use too (the OpenAI Agents SDK among them). It now lives in `hoc.agents`. A finder placed
last on `sys.meta_path` answers only when no installed package provides `agents`, so it never
shadows another project's `agents`; it then turns the bare ModuleNotFoundError into one line saying
the new path.
"""
from __future__ import annotations

import importlib.abc
import sys

OLD, NEW = "agents", "hoc.agents"


def new_name(name: str) -> str:
    return NEW + name[len(OLD):]


class _MovedAgents(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == OLD or name.startswith(OLD + "."):
            raise ModuleNotFoundError(f"no module named {name!r}: hoc's agents moved to {new_name(name)} "
                                      f"(heart-of-crown 0.2): write hoc.agents where the code says agents",
                                      name=name)
        return None


def install() -> None:
    if not any(isinstance(f, _MovedAgents) for f in sys.meta_path):
        sys.meta_path.append(_MovedAgents())
