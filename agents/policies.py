"""Jitted policies. `decide` dispatches on the id of the agent seated at the decider's seat; each
policy reads the state, may test actions with `is_legal`, and returns one legal action. An agent's
parameters (card ids and thresholds prepared in Python by the registry) sit in the state's
lineup block (`param`)."""
from hoc.kernel.jit import kernel
from hoc.kernel.constants import (
    A_BACK, A_BUY, A_CHOOSE, A_DECLARE, A_NUMBER, A_PASS, A_PLAY, A_SET, CH_MODE, CH_NUMBER,
    CTX_DECLARE, CTX_EFFECT, CTX_MAIN, CTX_SECOND, F_COST, F_TYPES, H_CH_GOOD, H_CH_KIND,
    H_CH_MAX, H_CH_OPT, H_COINS, H_CTX, H_DECIDER, H_MODE, H_NACTIVE, LEGAL, MODE_BUYING, MODE_SETTING,
    N_ACTIONS, P_ARNG, P_PRINCESS, R_N_POOL, R_POOL, TY_TERRITORY,
)
from hoc.kernel.state import active, agent_of, below, card, hand, owned, param, pb, rule
from hoc.kernel.turn import is_legal, legal_actions
from agents.priority_kernel import positive_succession, priority_policy

RANDOM = 0
BASIC_RUSH = 1
PRIORITY = 2

# basic_rush parameter slots
BR_DUKE = 0
BR_LARGE_CITY = 1
BR_SENATOR = 2
BR_CITY = 3
BR_COURT_MAID = 4
BR_LARGE_CITY_MAX = 5


@kernel
def random_policy(s):
    n = legal_actions(s, s[LEGAL:LEGAL + N_ACTIONS])
    return s[LEGAL + below(s, pb(s, s[H_DECIDER]) + P_ARNG, n)]


@kernel
def default_choice(s):
    """For card questions a policy does not care about: the most of a number, the first mode
    offered; for a card the chooser gains, the most expensive (accepting when optional); for a
    card the chooser loses (discard, exile), the cheapest, and declining when optional."""
    kind = s[H_CH_KIND]
    if kind == CH_NUMBER:
        return A_NUMBER + s[H_CH_MAX]
    good = s[H_CH_GOOD] != 0
    if s[H_CH_OPT] != 0 and not good:
        return A_PASS
    n = legal_actions(s, s[LEGAL:LEGAL + N_ACTIONS])
    best = -1
    for i in range(n):
        a = s[LEGAL + i]
        if a == A_PASS:
            continue
        if kind == CH_MODE:
            return a
        if best < 0:
            best = a
            continue
        cost = card(s, a - A_CHOOSE, F_COST)
        best_cost = card(s, best - A_CHOOSE, F_COST)
        if (good and cost > best_cost) or (not good and cost < best_cost):
            best = a
    return best if best >= 0 else A_PASS


@kernel
def basic_rush_buy(s, p):
    has_princess = s[pb(s, p) + P_PRINCESS] >= 0
    order = (BR_DUKE, BR_LARGE_CITY, BR_SENATOR, BR_CITY, BR_COURT_MAID)
    for slot in order:
        c = param(s, p, slot)
        if slot != BR_CITY and slot != BR_LARGE_CITY and not has_princess:
            continue
        if slot == BR_LARGE_CITY and s[owned(s, p) + c] >= param(s, p, BR_LARGE_CITY_MAX):
            continue
        if is_legal(s, A_BUY + c):
            return A_BUY + c
    return A_PASS


@kernel
def basic_rush_policy(s):
    """Play every Territory; back the first available princess at 6 coins; set positive
    Succession cards worth 2 SP or more; else buy Duke > Large City (< 3 owned) > Senator > City >
    Court Maid; take every Court Maid Laolily allows; always declare."""
    ctx = s[H_CTX]
    p = s[H_DECIDER]
    if ctx == CTX_MAIN:
        h = hand(s, p)
        for i in range(s[H_NACTIVE]):
            c = active(s, i)
            if s[h + c] > 0 and card(s, c, F_TYPES) & TY_TERRITORY and is_legal(s, A_PLAY + c):
                return A_PLAY + c
        return A_PASS
    if ctx == CTX_SECOND:
        mode = s[H_MODE]
        total, first = positive_succession(s, p)
        if mode == MODE_SETTING:
            return A_SET + first if first >= 0 else A_PASS
        if mode == MODE_BUYING:
            return basic_rush_buy(s, p)
        if s[pb(s, p) + P_PRINCESS] < 0 and s[H_COINS] >= 6:
            for i in range(rule(s, R_N_POOL)):
                if is_legal(s, A_BACK + rule(s, R_POOL + i)):
                    return A_BACK + rule(s, R_POOL + i)
        if s[pb(s, p) + P_PRINCESS] >= 0 and total >= 2:
            return A_SET + first
        return basic_rush_buy(s, p)
    if ctx == CTX_DECLARE:
        return A_DECLARE
    if ctx == CTX_EFFECT:
        return default_choice(s)
    return A_PASS


@kernel
def decide(s):
    """The action of the jitted agent in the decider's seat."""
    agent = agent_of(s, s[H_DECIDER])
    if agent == BASIC_RUSH:
        return basic_rush_policy(s)
    if agent == PRIORITY:
        if s[H_CTX] == CTX_EFFECT:
            return default_choice(s)
        return priority_policy(s)
    return random_policy(s)
