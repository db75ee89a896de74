"""Dominion's jitted deciders: `decide` dispatches on the id of the agent in the decider's seat
(`hoc.agents.ids`: RANDOM, PRIORITY = a bot's buy menu, ISMCTS = the search agent of
`hoc.games.dominion.agents.search`). `search` is a constant of the closure, so a lineup without a
search seat never compiles the search (`decide` against `decide_search`). Dominion has no turn
planner: the planner variants are these two."""
from hoc.agents.ids import ISMCTS, PRIORITY, RANDOM, needs  # noqa: F401 (the ids, needs: re-exported)
from hoc.engine.jit import entry
from hoc.games.dominion.agents.kernel import bot_policy, random_policy
from hoc.games.dominion.agents.search import search_policy
from hoc.games.dominion.kernel.constants import H_DECIDER
from hoc.games.dominion.kernel.state import agent_of


def _decider(search: bool):
    @entry
    def decide(s):
        """The action of the jitted agent in the decider's seat."""
        agent = agent_of(s, s[H_DECIDER])
        if search and agent == ISMCTS:
            return search_policy(s)
        if agent == PRIORITY or agent == ISMCTS:
            return bot_policy(s)
        return random_policy(s)

    return decide


decide = decide_plan = _decider(False)
decide_search = decide_search_plan = _decider(True)
# (search, plan, learned): Dominion has neither a planner nor a learned policy yet
DECIDERS = {(search, plan, learned): decide_search if search else decide
            for search in (False, True) for plan in (False, True) for learned in (False, True)}


def decider(ids):
    """The `decide` a lineup of agent ids needs."""
    return DECIDERS[needs(ids)]
