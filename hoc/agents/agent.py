"""The contract every agent keeps, whatever its game: the `Agent` record, the `Reach` a name is read
within, and the `Parser` of a kind of name. A game's agent catalog (`GameSpec.agents`) makes its
agents with these; the registry (`hoc.agents.registry`) gathers them and reads names through them."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from hoc.agents import in_game
from hoc.engine.layout import DTYPE, N_PARAMS
from hoc.errors import HocError


@dataclass(frozen=True)
class Agent:
    """A jitted agent (id >= 0: its kind's case in its game's `decide`, with a parameter row per
    ruleset) or a Python agent (`play`: any callable game -> action, at Python speed)."""

    name: str
    id: int
    description: str
    params: Callable[[object], np.ndarray]
    play: Callable | None = None
    key: tuple[str, ...] = ()     # common kinds the plan is built on: its record is read on markets offering them
    game: str | None = None       # the game it plays (None: any game, e.g. random or a Python agent)
    # (edition, key kinds that edition has) where they differ from `key`: an edition's markets never offer
    # a kind only the other edition has, so a study choosing markets by key reads `key_for(edition)`
    edition_keys: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def key_for(self, edition: str) -> tuple[str, ...]:
        """The plan's key kinds that `edition` has (`PriorityList.key_for`, as `for_edition` reads it)."""
        return dict(self.edition_keys).get(edition, self.key)

    def decide(self, game, params=None) -> int:
        """The action this jitted agent takes now in the decider's seat of a `Game` (`Game.decide`)."""
        return in_game.decide(game, self, params)


def no_params(ruleset) -> np.ndarray:
    """The parameter row of an agent that reads none (random, a Python agent)."""
    return np.zeros(N_PARAMS, DTYPE)


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

    def budget(self, spec: str, iterations: int) -> None:
        """Refuse a search asking for more iterations per decision than this reach allows."""
        if self.max_iterations is not None and iterations > self.max_iterations:
            raise HocError(f"agent {spec!r}: {iterations:,} iterations per decision; the web table allows at "
                           f"most {self.max_iterations:,} (`hoc play` and `hoc simulate` allow more)")


LOCAL = Reach()

# get(name) -> Agent: the registry's lookup within one reach, handed to what reads the names inside a name
Lookup = Callable[[str], Agent]


@dataclass(frozen=True)
class Parser:
    """How names of one kind of agent read: `claims(name)` says a name is of the kind, `make(name,
    reach, get)` makes its Agent within a `Reach` (`get` looks up the names inside the name, within the
    same reach), or raises a HocError naming what is wrong with it. `served`: the kind may be read for a
    served reach (its names are data, read within the reach). `options`: its names carry comma-separated
    `key=value` options (`ismcts:iterations=1000,c=0.7`), which a list of names keeps with it."""

    kind: str
    claims: Callable[[str], bool]
    make: Callable[[str, Reach, Lookup], Agent]
    served: bool = True
    options: bool = False


def library_name(name: str) -> bool:
    """`name` could name a file of a library (a plain name: no folder, nothing a file system refuses)."""
    return 0 < len(name) <= 200 and not any(c in name for c in "/\\\x00") and name not in (".", "..")
