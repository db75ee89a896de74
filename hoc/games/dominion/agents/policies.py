"""Dominion's jitted deciders: `decide` dispatches on the id of the agent in the decider's seat
(`hoc.agents.ids`: RANDOM, PRIORITY = a bot's buy menu). The loops ask for the variants with the
search agent or a turn planner (`decide_search`, ...); Dominion has neither yet, so they are the
plain decider, and the registry offers no such agent for Dominion."""
from hoc.agents.ids import PRIORITY, RANDOM, needs  # noqa: F401 (the ids, needs: re-exported)
from hoc.engine.jit import entry
from hoc.games.dominion.agents.kernel import bot_policy, random_policy
from hoc.games.dominion.kernel.constants import H_DECIDER
from hoc.games.dominion.kernel.state import agent_of


@entry
def decide(s):
    """The action of the jitted agent in the decider's seat."""
    if agent_of(s, s[H_DECIDER]) == PRIORITY:
        return bot_policy(s)
    return random_policy(s)


decide_search = decide_plan = decide_search_plan = decide
DECIDERS = {(False, False): decide, (True, False): decide, (False, True): decide, (True, True): decide}


def decider(ids):
    """The `decide` a lineup of agent ids needs."""
    return decide
