"""Jitted policies. `decide` dispatches on the id of the agent seated at the decider's seat; each
policy reads the state, may test actions with `is_legal`, and returns one legal action. An agent's
parameters (card ids and thresholds prepared in Python by the registry) sit in the state's
lineup block (`param`)."""
import numpy as np

from hoc.kernel.jit import entry, kernel
from hoc.kernel.constants import (
    A_CHOOSE, A_NUMBER, A_PASS, CH_DISCARD, CH_HAND, CH_MODE, CH_NUMBER, CH_PLAY, H_PLAY_MASK, NUMBER_MAX, P_DISCARD_MASK,
    CTX_EFFECT, F_COST, H_CH_GOOD, H_CH_KIND,
    H_CH_MAX, H_CH_OPT, H_CTX, H_DECIDER, H_NACTIVE, LEGAL, N_ACTIONS, P_ARNG,
)
from hoc.kernel.state import active, agent_of, below, card, hand_mask, lowest, mask_load, pb
from hoc.kernel.turn import is_legal, legal_actions
from hoc.agents.priority_kernel import never, priority_policy, priority_question

ONE = np.uint64(1)

RANDOM = 0
PRIORITY = 2          # priority lists (the archetypes and basic_rush); id 1 was basic_rush's own policy


@kernel
def random_policy(s):
    n = legal_actions(s, s[LEGAL:LEGAL + N_ACTIONS])
    return s[LEGAL + below(s, pb(s, s[H_DECIDER]) + P_ARNG, n)]


@kernel
def better_choice(s, best, a, good, banned_by):
    """best, or card action a when it is legal and better: dearer when good, cheaper when not;
    ties keep the earlier (lower id) card. With `banned_by` a seat (not -1), a card on that seat's
    `never` list is not a candidate."""
    if not is_legal(s, a) or (banned_by >= 0 and never(s, banned_by, a - A_CHOOSE)):
        return best
    if best < 0:
        return a
    cost = card(s, a - A_CHOOSE, F_COST)
    best_cost = card(s, best - A_CHOOSE, F_COST)
    if (good and cost > best_cost) or (not good and cost < best_cost):
        return a
    return best


@entry
def default_choice(s):
    """For card questions a policy does not care about: the most of a number, the first mode
    offered; for a card the chooser gains, the most expensive (accepting when optional); for a
    card the chooser loses (discard, exile), the cheapest, and declining when optional."""
    return card_choice(s, -1)


@kernel
def banned_choice(s):
    """`default_choice` for a priority list with a `never` list: a card it gains is never one of
    those while it may decline or take another; only a forced gain with no other card takes one."""
    a = default_choice(s)
    p = s[H_DECIDER]
    if a < A_CHOOSE or s[H_CH_GOOD] == 0 or not never(s, p, a - A_CHOOSE):
        return a
    b = card_choice(s, p)
    if b != A_PASS or s[H_CH_OPT] != 0:
        return b
    return a


@kernel
def card_choice(s, banned_by):
    """`default_choice`, leaving out the cards on seat `banned_by`'s `never` list (-1: none)."""
    kind = s[H_CH_KIND]
    if kind == CH_NUMBER:
        return A_NUMBER + s[H_CH_MAX]
    good = s[H_CH_GOOD] != 0
    if s[H_CH_OPT] != 0 and not good:
        return A_PASS
    if kind == CH_MODE:                   # the first mode offered
        for n in range(NUMBER_MAX + 1):
            if is_legal(s, A_NUMBER + n):
                return A_NUMBER + n
        return A_PASS
    # otherwise only A_CHOOSE + card can be legal: scan them in the order of `legal_actions`
    # (ascending ids), over the zone's mask when it has one (the masks cover their zones; every
    # card in a zone is in the active list)
    best = -1
    p = s[H_DECIDER]
    if kind == CH_HAND or kind == CH_DISCARD or kind == CH_PLAY:
        if kind == CH_HAND:
            m = hand_mask(s, p)
        elif kind == CH_DISCARD:
            m = mask_load(s, pb(s, p) + P_DISCARD_MASK)
        else:
            m = mask_load(s, H_PLAY_MASK)
        while m:
            c = lowest(m)
            m &= m - ONE
            best = better_choice(s, best, A_CHOOSE + c, good, banned_by)
    else:
        for i in range(s[H_NACTIVE]):
            best = better_choice(s, best, A_CHOOSE + active(s, i), good, banned_by)
    return best if best >= 0 else A_PASS


@entry
def decide(s):
    """The action of the jitted agent in the decider's seat."""
    agent = agent_of(s, s[H_DECIDER])
    if agent == PRIORITY:
        if s[H_CTX] == CTX_EFFECT:
            a = priority_question(s)
            return a if a >= 0 else banned_choice(s)
        return priority_policy(s)
    return random_policy(s)
