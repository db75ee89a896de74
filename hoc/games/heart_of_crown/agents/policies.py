"""Jitted policies. `decide` dispatches on the id of the agent seated at the decider's seat; each
policy reads the state, may test actions with `is_legal`, and returns one legal action. An agent's
parameters (card ids and thresholds prepared in Python by the registry) sit in the state's
lineup block (`param`)."""
from hoc.engine.jit import entry, kernel
from hoc.games.heart_of_crown.kernel.constants import CTX_EFFECT, H_CTX, H_DECIDER, LEGAL, N_ACTIONS, P_ARNG
from hoc.games.heart_of_crown.kernel.state import agent_of, below, pb
from hoc.games.heart_of_crown.kernel.turn import legal_actions
from hoc.games.heart_of_crown.agents.priority_kernel import (  # noqa: F401 (better_choice, default_choice: re-exported)
    banned_choice, better_choice, default_choice, priority_policy, priority_question,
)
from hoc.agents.ids import ISMCTS, LEARNED, PLANNED, PRIORITY, RANDOM, needs  # noqa: F401 (the ids, needs: re-exported)
from hoc.games.heart_of_crown.agents.planner import plan_choice, planned
from hoc.games.heart_of_crown.agents.search.kernel import ismcts_policy
from hoc.games.heart_of_crown.agents.learned.kernel import learned_policy


@kernel
def random_policy(s):
    n = legal_actions(s, s[LEGAL:LEGAL + N_ACTIONS])
    return s[LEGAL + below(s, pb(s, s[H_DECIDER]) + P_ARNG, n)]


def _decider(search, plan=False, learned=False):
    """`decide` with or without the search agent, the turn planner, the learned network. They are
    constants of the closure, so the plain one compiles none of them (the search is about 12 s of
    the cold start): loops and `Game` take the variant a lineup needs (`decider`). A seat whose
    part is not compiled in plays its list (its row's priority-list part)."""

    @entry
    def decide(s):
        """The action of the jitted agent in the decider's seat."""
        agent = agent_of(s, s[H_DECIDER])
        if agent == LEARNED:
            if learned:
                return learned_policy(s)
            agent = PRIORITY            # not reached by the loops (they pick a learned variant)
        if agent == ISMCTS:
            if search:
                return ismcts_policy(s)
            agent = PRIORITY            # not reached by the loops (they pick decide_search)
        if agent == PLANNED:
            if plan and planned(s, s[H_DECIDER]):
                return plan_choice(s, s[H_DECIDER])
            agent = PRIORITY            # the list's own decisions (and a loop without the planner)
        if agent == PRIORITY:
            if s[H_CTX] == CTX_EFFECT:
                a = priority_question(s)
                return a if a >= 0 else banned_choice(s)
            return priority_policy(s)
        return random_policy(s)

    return decide


decide = _decider(False)
decide_search = _decider(True)
decide_plan = _decider(False, True)
decide_search_plan = _decider(True, True)
DECIDERS = {(False, False, False): decide, (True, False, False): decide_search, (False, True, False): decide_plan,
            (True, True, False): decide_search_plan}
DECIDERS.update({(search, plan, True): _decider(search, plan, True) for search in (False, True) for plan in (False, True)})


def decider(ids):
    """The `decide` a lineup of agent ids needs."""
    return DECIDERS[needs(ids)]


def default_answer(game) -> int:
    """The default answer to the pending card question of a `Game` (the priority lists' own, see
    `default_choice`), for Python agents that do not answer it themselves."""
    return int(default_choice(game.state))
