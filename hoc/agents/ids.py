"""The kinds of jitted agent: an agent's id is its case in its game's `decide` (`GameSpec.deciders`),
and each kind says which compiled decider its seats need (the search, the turn planner, the network, or
none), so the loops of a lineup compile just those (`needs`: the lineup's `Variant`; `loops_for`: its
loops; `built`: a loop built around them, once per process). A new kind adds its row here, its case in
its game's `decide` and its parser in `hoc.agents.registry` (`register_kind`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

RANDOM = 0
PRIORITY = 2          # priority lists (the archetypes and basic_rush); id 1 was basic_rush's own policy
ISMCTS = 3            # the search agent (hoc.games.heart_of_crown.agents.search)
PLANNED = 4           # a priority list with its turn planner on (hoc.games.heart_of_crown.agents.planner)
LEARNED = 5           # a neural policy trained by `hoc learn` (hoc.games.heart_of_crown.agents.learned)


@dataclass(frozen=True)
class Kind:
    id: int
    name: str
    search: bool = False        # its seats need the decider with the search compiled in
    plan: bool = False          # its seats need the decider with the turn planner compiled in
    learned: bool = False       # its seats need the decider with the network's forward pass compiled in


KINDS = {k.id: k for k in (Kind(RANDOM, "random"), Kind(PRIORITY, "priority list"),
                           Kind(ISMCTS, "search agent", search=True), Kind(PLANNED, "planning list", plan=True),
                           Kind(LEARNED, "learned policy", learned=True))}


class Variant(NamedTuple):
    """Which compiled parts a lineup's decider needs: a seat that searches, one that plans with the
    turn planner, one whose network decides. Each variant is its own compiled decider
    (`GameSpec.deciders`: `DECIDERS[variant]`), so a plain lineup compiles none of the three."""

    search: bool = False
    plan: bool = False
    learned: bool = False

    @property
    def looks_ahead(self) -> bool:
        """Its agents play the game's kernel themselves (a search, a look-ahead): the loops had better
        share that kernel (`GameSpec.kernel_for`)."""
        return self.search or self.plan


def needs(ids) -> Variant:
    """The variant a lineup of agent ids needs (a Python agent's id, -1, needs none)."""
    kinds = [KINDS[int(i)] for i in ids if int(i) in KINDS]
    return Variant(any(k.search for k in kinds), any(k.plan for k in kinds), any(k.learned for k in kinds))


def loops_for(spec, vector, ids, shared: bool = False):
    """The game loops (`hoc.engine.loops.game_loops`) a lineup of agent ids needs on a ruleset (its
    vector) of the game `spec`: the game's deciders of the lineup's variant, with the kernel the ruleset
    needs (`GameSpec.kernel_for`; `shared`: the caller also steps the game through the game's own
    interface, so the loops had better use it too)."""
    from hoc.engine.loops import game_loops

    variant = needs(ids)
    return game_loops(spec.kernel_for(vector, shared or variant.looks_ahead), spec.deciders_module(), variant)


_BUILT: dict = {}


def built(make, loops, *extra):
    """`make(loops, *extra)`, made once per process: the jitted loop a caller builds around a lineup's
    game loops (the research batch, the environments' stepper, the tuner's schedule, the recorder)."""
    key = (make.__module__, make.__qualname__, loops.__name__, extra)
    if key not in _BUILT:
        _BUILT[key] = make(loops, *extra)
    return _BUILT[key]
