"""The jitted ISMCTS policy (information-set Monte Carlo tree search, after Cowling, Powley &
Whitehouse 2012).

At each decision that matters (Second phase: buy, back, set, pass; keep; card questions) the
searcher runs `iterations` iterations, each on its own determinization of what it cannot see,
and takes the most visited action. Main-phase play order and declarations follow the rollout
policy (a priority list), as do the other players everywhere.

Memory and determinization: the search works in the arena at the tail of the state
(`hoc.games.heart_of_crown.agents.arena`, which also draws the determinizations): each iteration copies only the header
and the game regions (the rules, card table and lineup of the copy are written once per search).

Tree. The nodes are the searcher's own decisions (the sequences of its actions, keyed by decision
context and action), as in single-observer ISMCTS; the other players' moves are not tree nodes but
come from the rollout policy, which is the searcher's model of them. With a few hundred iterations a
tree over every player's moves spreads them over branches chosen by opponents who see the
determinization's cards (strategy fusion), where the policy model is both cheaper and closer to how
the opponents play.

Selection. Plain UCB1 with a few hundred iterations per decision measured far weaker than its own
rollout list (3% against tuned_laolily_2p at 100 iterations, 33% at 400): every node tries every
action once, so the searcher's later decisions in the tree are mostly random, and the most visited
root action follows the noise of ~10 rollouts per action. Three changes, each measured, made the
search stronger than the list at every budget from 100 iterations on:
- PUCT (Rosin 2011; Silver et al. 2017) with the rollout list as the prior: its own action gets
  prior `prior` (0.5), the others share the rest; the score is Q + c P sqrt(A) / (1 + N), with A the
  child's availability (the iterations in which it was legal: ISMCTS's subset-armed bandit), so the
  search leaves the list's choice only on evidence;
- progressive widening: a node visited v times offers 1 + isqrt(v) actions, the list's first;
- common random numbers at the root: the root's actions are legal in every determinization (they
  depend only on what the searcher sees), so the root action is chosen first and the k-th visit of
  every root action plays in the k-th determinization, future shuffles included.

Guided by a network (`net`, IS_NET: a `hoc learn` policy whose weights are in the real state's tail),
the search is AlphaZero's (Silver et al. 2017) on ISMCTS's determinizations: the prior P of an action
is the network's softmax over the candidates (at IS_NET_TEMPERATURE), expansions take the untried
action of the highest logit, the network plays every other player and the searcher's unsearched
decisions, and a leaf is not rolled out: the models play on to the searcher's next decision, where
the network's value head scores it. The network reads the searcher's observation of the copy, which
holds only what the searcher may see plus its sampled determinization.
"""
import math

import numpy as np

from hoc.games.heart_of_crown.kernel.constants import (
    CTX_MAIN,
    A_BACK, AGENTS, AGENT_SZ, CTX_EFFECT, CTX_KEEP, CTX_SECOND, DYNAMIC, HEADER, H_CH_KIND, H_CTX, H_DCAP, H_DECIDER, H_END, H_LEN, H_NP, H_SCAP, H_STEPS,
    H_TURNS, H_WINNER, H_WIN_MASK, LEGAL, NCMAX, N_ACTIONS, P_ARNG, P_OUT, P_SP,
)
from hoc.games.heart_of_crown.agents.arena import (  # noqa: F401 (the arena layout and the determinization: re-exported)
    AR_BUF, AR_CNT, AR_COMMIT, AR_INNER, AR_MARK, AR_PATH, AR_RNG, AR_SEED, AR_TREE, MAX_PATH, copy_offset,
    deal_counted, deal_hidden, determinize, shuffle_supply,
)
from hoc.agents.ids import ISMCTS, PLANNED, PRIORITY
from hoc.games.heart_of_crown.agents.evaluation import weighed
from hoc.games.heart_of_crown.agents.planner import PL_WEIGHTS, WEIGHT_SCALE, candidates, main_needs_plan, unbanned
from hoc.engine.jit import entry, kernel
from hoc.games.heart_of_crown.kernel.state import (
    GOLDEN, below, mix64, next_u64, param, pb, store_u64, tail_start,
)
from hoc.games.heart_of_crown.kernel.turn import apply, is_legal
from hoc.games.heart_of_crown.agents.priority_kernel import banned_choice, priority_policy, priority_question
from hoc.games.heart_of_crown.agents.row import ROW
from hoc.games.heart_of_crown.agents.learned.kernel import logit, model_choice, network_block, seat_hidden, seat_value

ROLLOUT_AGENT = PRIORITY   # every seat of a determinization plays the rollout list

# The search's own block, after its rollout list's row: the row's table (`hoc.games.heart_of_crown.agents.row`)
IS_ITERATIONS = ROW.at("search.iterations")
IS_EXPLORE = ROW.at("search.exploration")      # x 1000
IS_CUTOFF = ROW.at("search.cutoff")            # rollouts stop after this many turns (all players'), 0: at the end
IS_PRINCESS = ROW.at("search.princess")        # backs this princess whenever she is offered (-1: any)
IS_SCALE = ROW.at("search.scale")              # SP difference worth e (about 73%) at a cut-off, x 1000
IS_PRIOR = ROW.at("search.prior")              # prior probability of the rollout list's action, x 1000
IS_MAIN = ROW.at("search.main")                # 1: Main-phase decisions with a text, ability or kept card are searched
IS_EVAL = ROW.at("search.eval")                # a cut-off rollout's score: 0 the SP lead, 1 the learned evaluation
IS_NET = ROW.at("search.net")                  # the key of the network that guides the search (0: none)
IS_NET_TEMPERATURE = ROW.at("search.net_temperature")   # its prior's softmax temperature, x 1000
IS_END = max(f.end for f in ROW.carried("search") if f.block == "search")     # the block's end

# tree nodes
ND_KEY = 0             # decision context (and card-question kind) the action answers
ND_ACTION = 1
ND_CHILD = 2           # first child, -1: none
ND_NEXT = 3            # next sibling, -1: none
ND_VISITS = 4
ND_AVAIL = 5           # iterations in which the node's action was legal at its parent
ND_REWARD = 6          # sum of the searcher's rewards x REWARD_ONE
ND_POLICY = 7          # 1: the rollout list's own choice at its parent (the prior's favourite);
                       # with a network, its probability x PRIOR_ONE
NODE_SZ = 8
REWARD_ONE = 1000
PRIOR_ONE = 1_000_000
TREE_SALT = np.uint64(0x5EA7C4A11)
ROLLOUT_STEPS = 100_000   # a rollout that does not end by then is scored as it stands


@entry
def search_tail(s, nodes, plans):
    """Ints the arena needs after the game part of s for a search of up to `nodes` iterations and,
    with `plans`, for a turn planner (`hoc.games.heart_of_crown.agents.planner`): the buffers, three game copies (the
    search uses the first, the planner all: one per look-ahead level and its saved determinization),
    then the tree."""
    if nodes <= 0 and not plans:
        return 0
    return AR_BUF + max(s[H_DCAP], s[H_SCAP]) + 3 * s[H_LEN] + (nodes + 1) * NODE_SZ


@entry
def search_nodes(ids, rows):
    """The most iterations any search agent of a lineup (agent ids, parameter rows) runs."""
    n = 0
    for k in range(ids.shape[0]):
        if ids[k] == ISMCTS:
            n = max(n, rows[k, IS_ITERATIONS])
    return n


@entry
def any_planner(ids):
    """Whether a seat of the lineup (agent ids) plans its turns."""
    for k in range(ids.shape[0]):
        if ids[k] == PLANNED:
            return True
    return False


# ---- the rollout policy ---------------------------------------------------------------------------
@kernel
def rollout_choice(s):
    """The priority list of the decider's seat (in a determinization every seat has the rollout list)."""
    if s[H_CTX] == CTX_EFFECT:
        a = priority_question(s)
        return a if a >= 0 else banned_choice(s)
    return priority_policy(s)


@kernel
def model(s, b, w):
    """The searcher's model of every player in its copies: the rollout list, or with a network
    (block b of s's tail, b >= 0) the network's choice."""
    if b < 0:
        return rollout_choice(w)
    return model_choice(s, b, w)


@kernel
def searched(s):
    """Decisions the search takes: Second phase, keeping, card questions, and with `main` the
    Main-phase decisions the turn planner would weigh (a card with a text, an ability or a kept card
    at hand). Other Main-phase plays and the declaration follow the rollout list."""
    ctx = s[H_CTX]
    if ctx == CTX_MAIN:
        p = s[H_DECIDER]
        return param(s, p, IS_MAIN) != 0 and main_needs_plan(s, p)
    return ctx == CTX_SECOND or ctx == CTX_KEEP or ctx == CTX_EFFECT


@kernel
def decision_key(s):
    return s[H_CTX] * 16 + (s[H_CH_KIND] if s[H_CTX] == CTX_EFFECT else 0)


@kernel
def search_actions(w, p, out):
    """The legal actions the searcher considers (into out; returns how many): those the turn
    planner weighs (`candidates`: in the Main phase one plain card for all), but no buy nor chosen
    gain of a card its `never` list bans (a study's ban) while anything else is left, and while the
    princess it is restricted to is offered, backing her is its only way to back."""
    n = unbanned(w, p, out, candidates(w, p, out))
    k = param(w, p, IS_PRINCESS)
    if k < 0 or w[H_CTX] != CTX_SECOND or not is_legal(w, A_BACK + k):
        return n
    m = 0
    for i in range(n):
        a = out[i]
        if a == A_BACK + k or not A_BACK <= a < A_BACK + NCMAX:
            out[m] = a
            m += 1
    return m


# ---- the tree ------------------------------------------------------------------------------------
@kernel
def new_node(s, tree, i, key, action):
    o = tree + i * NODE_SZ
    s[o + ND_KEY] = key
    s[o + ND_ACTION] = action
    s[o + ND_CHILD] = -1
    s[o + ND_NEXT] = -1
    s[o + ND_VISITS] = 0
    s[o + ND_AVAIL] = 1
    s[o + ND_REWARD] = 0
    s[o + ND_POLICY] = 0


@kernel
def evaluate(s, w, p, scale):
    """The searcher's reward in [0, 1]: its share of the win at the end of the game; at a cut-off,
    a logistic of its SP lead over the best opponent, or with `eval = learned` the turn planner's
    evaluation of the position (its log-odds of winning, weights in the searcher's row of s)."""
    if w[H_END] != 0:
        mask = w[H_WIN_MASK]
        if mask != 0:
            if (mask >> p) & 1 == 0:
                return 0.0
            n = 0
            for q in range(w[H_NP]):
                n += (mask >> q) & 1
            return 1.0 / n
        if w[H_WINNER] >= 0:
            return 1.0 if w[H_WINNER] == p else 0.0
    if param(s, p, IS_EVAL) == 1:
        z = weighed(w, p, s, AGENTS + p * AGENT_SZ + 1 + PL_WEIGHTS, WEIGHT_SCALE)
        return 1.0 / (1.0 + math.exp(-z))
    best = -(1 << 30)
    for q in range(w[H_NP]):
        if q != p and w[pb(w, q) + P_OUT] == 0:
            best = max(best, w[pb(w, q) + P_SP])
    lead = w[pb(w, p) + P_SP] - best
    return 1.0 / (1.0 + math.exp(-lead * 1000.0 / scale))


@kernel
def select(s, w, tree, node, n, explore, prior, b):
    """At a node with expanded actions legal in w: the one with the highest PUCT score
    Q + c P sqrt(A) / (1 + N), where A counts the iterations in which it was legal (ISMCTS's
    availability, in place of the parent's visits) and the prior P gives the rollout list's own
    action `prior` and shares the rest among the other legal actions; with a network (b >= 0) P is
    the network's probability of the action where it was expanded. Each legal expanded action's
    availability counts this iteration."""
    mark = s[H_LEN] + AR_MARK
    best = -1
    best_score = -1.0
    other = (1.0 - prior) / max(1, n - 1)
    for i in range(n):
        child = s[mark + w[LEGAL + i]] - 1
        if child < 0:                          # not expanded yet (progressive widening)
            continue
        o = tree + child * NODE_SZ
        s[o + ND_AVAIL] += 1
        visits = s[o + ND_VISITS]
        if b >= 0:
            p_a = s[o + ND_POLICY] / PRIOR_ONE
        else:
            p_a = prior if s[o + ND_POLICY] != 0 else other
        score = (s[o + ND_REWARD] / (REWARD_ONE * max(visits, 1))
                 + explore * p_a * math.sqrt(s[o + ND_AVAIL]) / (1 + visits))
        if score > best_score:
            best_score = score
            best = child
    return best


@kernel
def choose(s, w, p, tree, node, used, cap, explore, prior, b):
    """The searcher's action at tree node `node` for the decision w waits for (its legal actions
    listed in w's LEGAL block, n of them): expand an untried action while the node may widen (the
    rollout list's action first, then one at random; with a network, the untried action of the
    highest logit), else the PUCT choice among the expanded ones.
    Returns (child node, nodes used, whether it is new); child -1 when nothing is expanded here and
    the tree is full."""
    a = s[H_LEN]
    mark = a + AR_MARK
    n = search_actions(w, p, w[LEGAL:LEGAL + N_ACTIONS])
    key = decision_key(w)
    child = s[tree + node * NODE_SZ + ND_CHILD]
    while child >= 0:                     # mark the children that answer this decision
        o = tree + child * NODE_SZ
        if s[o + ND_KEY] == key:
            s[mark + s[o + ND_ACTION]] = child + 1
        child = s[o + ND_NEXT]
    untried = 0
    for i in range(n):
        if s[mark + w[LEGAL + i]] == 0:
            untried += 1
    # progressive widening: a node visited v times offers at most 1 + isqrt(v) actions, so that
    # thinly visited nodes follow the rollout list instead of trying every action once
    visits = s[tree + node * NODE_SZ + ND_VISITS]
    expand = untried > 0 and n - untried < 1 + np.int64(math.sqrt(visits)) and used < cap
    if expand:
        chance = 0.0
        favourite = True
        if b >= 0:
            act, chance = likeliest_untried(s, w, p, n, b)
        else:
            act = rollout_choice(w)
            if act < 0 or act >= N_ACTIONS or s[mark + act] != 0 or not listed(w, n, act):
                favourite = False
                pick = below(s, a + AR_TREE, untried)
                act = -1
                for i in range(n):
                    if s[mark + w[LEGAL + i]] == 0:
                        if pick == 0:
                            act = w[LEGAL + i]
                            break
                        pick -= 1
        for i in range(n):                # the expanded actions legal here were available too
            c = s[mark + w[LEGAL + i]] - 1
            if c >= 0:
                s[tree + c * NODE_SZ + ND_AVAIL] += 1
        new_node(s, tree, used, key, act)
        if b >= 0:
            s[tree + used * NODE_SZ + ND_POLICY] = np.int32(chance * PRIOR_ONE + 0.5)
        else:
            s[tree + used * NODE_SZ + ND_POLICY] = 1 if favourite else 0
        o = tree + node * NODE_SZ
        s[tree + used * NODE_SZ + ND_NEXT] = s[o + ND_CHILD]
        s[o + ND_CHILD] = used
        nxt = used
        used += 1
    elif n - untried == 0:
        nxt = -1
    else:
        nxt = select(s, w, tree, node, n, explore, prior, b)
    clear_marks(s, w, n)
    return nxt, used, expand


@kernel
def likeliest_untried(s, w, p, n, b):
    """The untried action (not marked) of the highest logit among the n listed in w's LEGAL block,
    and its probability: the softmax of the logits over the n, at the row's temperature."""
    mark = s[H_LEN] + AR_MARK
    t = max(1, param(s, p, IS_NET_TEMPERATURE)) / 1000.0
    o_wp = seat_hidden(s, b, w, p)
    top = -1e30
    for i in range(n):
        top = max(top, logit(s, b, o_wp, w[LEGAL + i]))
    total = 0.0
    act = -1
    best = -1e30
    for i in range(n):
        z = logit(s, b, o_wp, w[LEGAL + i])
        total += math.exp((z - top) / t)
        if s[mark + w[LEGAL + i]] == 0 and z > best:
            best, act = z, w[LEGAL + i]
    return act, math.exp((best - top) / t) / total


@kernel
def descend(s, w, p, tree, node, depth, used, cap, stop, explore, prior, b):
    """Play w on from tree node `node` to a new leaf: the searcher's decisions by the tree,
    everything else by the rollout policy. Returns the nodes used; the path is in AR_PATH, its
    length in AR_PATH + MAX_PATH - 1."""
    path = s[H_LEN] + AR_PATH
    while w[H_END] == 0 and (stop <= 0 or w[H_TURNS] < stop) and depth < MAX_PATH - 1:
        if w[H_DECIDER] != p or not searched(w):
            apply(w, model(s, b, w))
            continue
        if search_actions(w, p, w[LEGAL:LEGAL + N_ACTIONS]) == 1:
            apply(w, w[LEGAL])
            continue
        nxt, used, new = choose(s, w, p, tree, node, used, cap, explore, prior, b)
        if nxt < 0:
            break
        apply(w, s[tree + nxt * NODE_SZ + ND_ACTION])
        s[path + depth] = nxt
        depth += 1
        node = nxt
        if new:
            break
    s[path + MAX_PATH - 1] = depth
    return used


@kernel
def listed(w, n, act):
    for i in range(n):
        if w[LEGAL + i] == act:
            return True
    return False


@kernel
def clear_marks(s, w, n):
    mark = s[H_LEN] + AR_MARK
    for i in range(n):
        s[mark + w[LEGAL + i]] = 0


@kernel
def rollout(w, stop, steps):
    """The rollout policy plays w on, to the end or to the cut-off turn."""
    while w[H_END] == 0 and (stop <= 0 or w[H_TURNS] < stop) and w[H_STEPS] < steps:
        apply(w, rollout_choice(w))


@kernel
def leaf_value(s, b, w, p, scale, steps):
    """With a network: the models play w on to the searcher's next decision, where the network's
    value head scores it (the result, if the game ends first)."""
    while w[H_END] == 0 and w[H_DECIDER] != p and w[H_STEPS] < steps:
        apply(w, model_choice(s, b, w))
    if w[H_END] != 0 or w[H_DECIDER] != p:
        return evaluate(s, w, p, scale)
    return seat_value(s, b, w, p)


@kernel
def backpropagate(s, tree, reward):
    path = s[H_LEN] + AR_PATH
    r = np.int32(reward * REWARD_ONE + 0.5)
    for i in range(s[path + MAX_PATH - 1]):
        o = tree + s[path + i] * NODE_SZ
        s[o + ND_VISITS] += 1
        s[o + ND_REWARD] += r


@kernel
def best_child(s, tree):
    """The root's most visited action (ties: the higher mean reward, then the lower action id)."""
    best = -1
    child = s[tree + ND_CHILD]
    while child >= 0:
        o = tree + child * NODE_SZ
        if best < 0:
            best = child
        else:
            b = tree + best * NODE_SZ
            v, bv = s[o + ND_VISITS], s[b + ND_VISITS]
            # r/v > br/bv without division: r * bv > br * v (int64: sums reach 2**31)
            r, br = np.int64(s[o + ND_REWARD]), np.int64(s[b + ND_REWARD])
            if v > bv or (v == bv and (r > br or (r == br and s[o + ND_ACTION] < s[b + ND_ACTION]))):
                best = child
        child = s[o + ND_NEXT]
    return s[tree + best * NODE_SZ + ND_ACTION]


@kernel
def prepare_copy(s, w, p):
    """The copy's fixed blocks, once per search: the rules and card table, and the rollout list
    (the searcher's own row) in every seat."""
    for i in range(s[H_LEN]):
        w[i] = s[i]
    row = AGENTS + p * AGENT_SZ
    for q in range(w[H_NP]):
        o = AGENTS + q * AGENT_SZ
        w[o] = ROLLOUT_AGENT
        for i in range(1, AGENT_SZ):
            w[o + i] = s[row + i]


@kernel
def ismcts_policy(s):
    """The search agent's action. The real state comes out as it went in but for the searcher's
    own random stream (one draw seeds the search) and the arena."""
    p = s[H_DECIDER]
    start = copy_offset(s)
    length = s[H_LEN]
    tree = start + 3 * length          # after the game copies (the second and third are the planner's)
    cap = (tail_start(s) - tree) // NODE_SZ     # the tree ends where learned networks start
    key = param(s, p, IS_NET)
    b = network_block(s, key) if key != 0 else -1
    if key != 0 and b < 0:
        return -1                       # a state made without the network's tail: the loops report it
    if not searched(s) or cap < 3:
        return model(s, b, s)           # play order, declarations (and a state without an arena)
    w = s[start:start + length]
    prepare_copy(s, w, p)
    n = search_actions(w, p, w[LEGAL:LEGAL + N_ACTIONS])
    if n == 1:
        return w[LEGAL]
    # one draw of the searcher's own stream seeds the search: the tree's stream, and the seed of
    # the k-th determinization (see below)
    seed = next_u64(s, pb(s, p) + P_ARNG)
    store_u64(s, s[H_LEN] + AR_SEED, seed)
    store_u64(s, s[H_LEN] + AR_TREE, mix64(seed ^ TREE_SALT))
    mark = s[H_LEN] + AR_MARK
    for i in range(N_ACTIONS):
        s[mark + i] = 0
    iterations = min(param(s, p, IS_ITERATIONS), cap - 1)
    explore = param(s, p, IS_EXPLORE) / 1000.0
    prior = param(s, p, IS_PRIOR) / 1000.0
    scale = max(1, param(s, p, IS_SCALE))
    cutoff = param(s, p, IS_CUTOFF)
    stop = s[H_TURNS] + cutoff if cutoff > 0 else 0
    steps = s[H_STEPS] + ROLLOUT_STEPS
    new_node(s, tree, 0, -1, -1)
    used = 1
    path = s[H_LEN] + AR_PATH
    s[path] = 0
    for _ in range(iterations):
        for i in range(HEADER):          # loops, not slice copies: those may allocate a temporary
            w[i] = s[i]
        for i in range(DYNAMIC, length):
            w[i] = s[i]
        # The root's actions are the same in every determinization (the searcher sees all they
        # depend on), so the root action is chosen first, and the k-th visit of every root action
        # plays in the same k-th determinization, future shuffles included: common random numbers,
        # so that root actions are compared on the same deals, not on their luck.
        child, used, new = choose(s, w, p, tree, 0, used, cap, explore, prior, b)
        if child < 0:
            break
        store_u64(s, s[H_LEN] + AR_RNG,
                  mix64(seed + np.uint64(s[tree + child * NODE_SZ + ND_VISITS] + 1) * GOLDEN))
        determinize(s, w, p)
        apply(w, s[tree + child * NODE_SZ + ND_ACTION])
        s[path + 1] = child
        if new:
            s[path + MAX_PATH - 1] = 2
        else:
            used = descend(s, w, p, tree, child, 2, used, cap, stop, explore, prior, b)
        if b >= 0:
            backpropagate(s, tree, leaf_value(s, b, w, p, scale, steps))
        else:
            rollout(w, stop, steps)
            backpropagate(s, tree, evaluate(s, w, p, scale))
    return best_child(s, tree)
