"""Toy's jitted deciders: `decide` dispatches on the id of the agent in the decider's seat
(`hoc.agents.ids`: RANDOM, PRIORITY = a priority list, ISMCTS = the search agent). The search is a
constant of the closure: a lineup without a search seat never compiles it. Toy has neither a turn
planner nor a learned policy: those variants are the same two deciders."""
from hoc.agents.ids import ISMCTS, PRIORITY, needs
from hoc.engine.jit import entry
from hoc.engine.state import agent_of
from toy_game.agents.kernel import list_policy, random_policy
from toy_game.agents.search import search_policy
from toy_game.kernel.constants import H_DECIDER


def _decider(search: bool):
    @entry
    def decide(s):
        """The action of the jitted agent in the decider's seat."""
        agent = agent_of(s, s[H_DECIDER])
        if search and agent == ISMCTS:
            return search_policy(s)
        if agent == PRIORITY or agent == ISMCTS:
            return list_policy(s)
        return random_policy(s)

    return decide


decide = _decider(False)
decide_search = _decider(True)
DECIDERS = {(search, plan, learned): decide_search if search else decide
            for search in (False, True) for plan in (False, True) for learned in (False, True)}


def decider(ids):
    """The `decide` a lineup of agent ids needs."""
    return DECIDERS[needs(ids)]
