"""Jitted policies. `decide` dispatches on the id of the agent seated at the decider's seat; each
policy reads the state, may test actions with `is_legal`, and returns one legal action. An agent's
parameters (card ids and thresholds prepared in Python by the registry) sit in the state's
lineup block (`param`)."""
from hoc.kernel.jit import entry, kernel
from hoc.kernel.constants import CTX_EFFECT, H_CTX, H_DECIDER, LEGAL, N_ACTIONS, P_ARNG
from hoc.kernel.state import agent_of, below, pb
from hoc.kernel.turn import legal_actions
from hoc.agents.priority_kernel import (  # noqa: F401 (better_choice, default_choice: re-exported)
    banned_choice, better_choice, default_choice, priority_policy, priority_question,
)
from hoc.agents.search.kernel import ISMCTS, ismcts_policy

RANDOM = 0
PRIORITY = 2          # priority lists (the archetypes and basic_rush); id 1 was basic_rush's own policy
# ISMCTS = 3: the search agent (hoc.agents.search)


@kernel
def random_policy(s):
    n = legal_actions(s, s[LEGAL:LEGAL + N_ACTIONS])
    return s[LEGAL + below(s, pb(s, s[H_DECIDER]) + P_ARNG, n)]


def _decider(search):
    """`decide` without the search agent or with it. `search` is a constant of the closure, so the
    plain one never compiles the search (about 12 s of the cold start): loops and `Game` take
    `decide_search` only for lineups with a search agent."""

    @entry
    def decide(s):
        """The action of the jitted agent in the decider's seat."""
        agent = agent_of(s, s[H_DECIDER])
        if agent == ISMCTS:
            if search:
                return ismcts_policy(s)
            agent = PRIORITY            # not reached by the loops (they pick decide_search)
        if agent == PRIORITY:
            if s[H_CTX] == CTX_EFFECT:
                a = priority_question(s)
                return a if a >= 0 else banned_choice(s)
            return priority_policy(s)
        return random_policy(s)

    return decide


decide = _decider(False)
decide_search = _decider(True)


def decider(ids):
    """The `decide` a lineup of agent ids needs."""
    return decide_search if ISMCTS in [int(i) for i in ids] else decide
