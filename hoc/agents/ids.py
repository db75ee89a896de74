"""The kinds of jitted agent: an agent's id is its case in `hoc.agents.policies.decide`, and each kind
says which compiled decider its seats need (the search, the turn planner, the network, or none), so the loops
of a lineup compile just those (`needs`). A new kind adds its row here, its case in `decide` and its
parser in `hoc.agents.registry` (`register_kind`)."""
from __future__ import annotations

from dataclasses import dataclass

RANDOM = 0
PRIORITY = 2          # priority lists (the archetypes and basic_rush); id 1 was basic_rush's own policy
ISMCTS = 3            # the search agent (hoc.agents.search)
PLANNED = 4           # a priority list with its turn planner on (hoc.games.heart_of_crown.agents.planner)
LEARNED = 5           # a neural policy trained by `hoc learn` (hoc.agents.learned)


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


def needs(ids) -> tuple[bool, bool, bool]:
    """(a seat needs the search, a seat needs the turn planner, a seat needs the network) for a
    lineup of agent ids (a Python agent's id, -1, needs none)."""
    kinds = [KINDS[int(i)] for i in ids if int(i) in KINDS]
    return any(k.search for k in kinds), any(k.plan for k in kinds), any(k.learned for k in kinds)
