"""The learned policy's forward pass, jitted: the network of a `hoc learn` weight file plays inside the
batch loop like any other agent.

The network (`hoc.engine.weights`) reads the deciding seat's observation
(`hoc.games.heart_of_crown.observation`, each slot squashed to sign(x) log(1 + |x|)), has two ReLU
layers and one logit per action of the fixed action space. The agent takes the legal action with
the highest logit (ties: the lowest action id) or, with a temperature, samples the softmax over the
legal actions from the seat's own stream. A banned card (the row's `never` list, a study's ban) is
masked out of buys and gains unless nothing else is legal.

Where the weights are. A kernel sees only the state, so the weights travel in it: the tail of a
state made for a lineup with learned seats (`hoc.games.heart_of_crown.agents.learned.tail`) holds each distinct network
once, as float32 bits in the int32 array, and a directory at the very end:

    s[L-1] = MAGIC, s[L-2] = the tail's length, s[L-3] = the scratch's start, s[L-4] = networks n,
    s[L-4-2(k+1)] = network k's key, s[L-3-2(k+1)] = where its block starts

The seat's row names its network by key (LN_KEY, a hash of the block), so the rows stay plain data.
A block is [obs size, hidden 1, hidden 2, actions, then float32: W1 (obs x h1), b1, W2 (h1 x h2),
b2, Wp (actions x h2), bp, wv (h2), bv]. The scratch holds the squashing table, the observation and the hidden
layers. Only the real game state has a tail: the look-aheads of planners play copies of the game
part, where every seat plays its row's priority list (the learned row starts with one, its `model`).
A search guided by a network (`ismcts:net=...`) runs it on its copies with the weights of the real
state's tail (`seat_hidden`, `model_choice`, `seat_value`).

The first layer walks the observation's non-zero slots only (most of the 1,355 are 0), and only the
legal actions' logits are computed: the cost of a decision is a few thousand multiply-adds.
"""
import math

import numpy as np

from hoc.engine.jit import entry, kernel
from hoc.engine.networks import BLOCK_HEAD, LOG_TABLE, head, layers, network_block, obs_at, squash  # noqa: F401
from hoc.engine.layout import LEGAL
from hoc.games.heart_of_crown.agents.priority_kernel import unbanned
from hoc.games.heart_of_crown.agents.row import ROW
from hoc.games.heart_of_crown.kernel.constants import H_DECIDER, N_ACTIONS, P_ARNG
from hoc.games.heart_of_crown.kernel.state import below, param, pb
from hoc.games.heart_of_crown.kernel.turn import legal_actions
from hoc.games.heart_of_crown.observation import observe

LN_KEY = ROW.at("learned.key")                  # the row's network, by key (after the model list's row)
LN_TEMPERATURE = ROW.at("learned.temperature")  # x 1000; 0: the highest logit


@kernel
def hidden(s, b, p):
    """Run the network of block b on seat p's observation up to its second hidden layer, in the
    scratch; return the offset (in floats of the block's view) of the output layer's weights."""
    return seat_hidden(s, b, s, p)


@kernel
def seat_hidden(s, b, w, p):
    """`hidden` for seat p of the game w (a copy in s's arena, or s itself), with the network and
    scratch of s's tail."""
    o = obs_at(s)
    observe(w, p, s[o:o + s[b]].view(np.float32))
    return layers(s, b)


@kernel
def logit(s, b, o_wp, a):
    """The logit of action a after `hidden` (its weights row and bias in block b)."""
    h2 = s[b + 2]
    return head(s, b, o_wp + a * h2, o_wp + s[b + 3] * h2 + a)


@kernel
def value_after(s, b, o_wp):
    """The value head after `hidden` (o_wp as it returned) as the seat's chance of winning in [0, 1]:
    the head predicts the environments' reward (1 a win, -1 a loss, `hoc.env.vector.reward`)."""
    o_v = o_wp + s[b + 3] * (s[b + 2] + 1)      # after the policy's weights and biases
    z = head(s, b, o_v, o_v + s[b + 2])
    return min(1.0, max(0.0, (z + 1.0) / 2.0))


@kernel
def seat_value(s, b, w, p):
    """The network's value of the game w for seat p (p should be the seat deciding in w: the value
    head learned from the positions where its seat decides)."""
    return value_after(s, b, seat_hidden(s, b, w, p))


@kernel
def model_choice(s, b, w):
    """The network's action (the highest logit among the legal actions, a ban masked as the agent
    does) for the decision the game w waits for, with the network of block b in s's tail."""
    p = w[H_DECIDER]
    out = w[LEGAL:LEGAL + N_ACTIONS]
    n = unbanned(w, p, out, legal_actions(w, out))
    if n == 1:
        return out[0]
    return best_logit(s, b, seat_hidden(s, b, w, p), out, n)[0]


@kernel
def best_logit(s, b, o_wp, out, n):
    """(the action of the highest logit among out[:n], that logit); ties: the first listed."""
    best = out[0]
    top = logit(s, b, o_wp, best)
    for i in range(1, n):
        z = logit(s, b, o_wp, out[i])
        if z > top:
            best, top = out[i], z
    return best, top


@kernel
def raw_layers(s, b, obs):
    """`layers` on a raw observation copied into the scratch."""
    o = obs_at(s)
    x = s[o:o + s[b]].view(np.float32)
    for i in range(s[b]):
        x[i] = obs[i]
    return layers(s, b)


@entry
def network_value(s, key, obs):
    """The value head for the raw observation `obs` by the network `key` of s's tail (for tests;
    -1 without the network)."""
    b = network_block(s, key)
    if b < 0:
        return -1.0
    return value_after(s, b, raw_layers(s, b, obs))


@entry
def network_logits(s, key, obs, out):
    """Every action's logit for the raw observation `obs` by the network `key` of s's tail: the
    forward pass alone, for tests against the training framework's. Returns False without the network."""
    b = network_block(s, key)
    if b < 0:
        return False
    o_wp = raw_layers(s, b, obs)
    for a in range(s[b + 3]):
        out[a] = logit(s, b, o_wp, a)
    return True


@kernel
def learned_policy(s):
    """The learned agent's action for the decision s waits for."""
    p = s[H_DECIDER]
    out = s[LEGAL:LEGAL + N_ACTIONS]
    n = unbanned(s, p, out, legal_actions(s, out))     # a ban masks the buys and gains of banned cards
    if n == 1:
        return out[0]
    b = network_block(s, param(s, p, LN_KEY))
    if b < 0:
        return -1                           # a state made without the tail: the loops report an illegal action
    o_wp = hidden(s, b, p)
    temperature = param(s, p, LN_TEMPERATURE)
    best, top = best_logit(s, b, o_wp, out, n)
    if temperature <= 0:
        return best
    t = temperature / 1000.0               # sample the softmax over the legal actions
    total = 0.0
    for i in range(n):
        total += math.exp((logit(s, b, o_wp, out[i]) - top) / t)
    u = below(s, pb(s, p) + P_ARNG, 1 << 30) / float(1 << 30) * total
    for i in range(n):
        u -= math.exp((logit(s, b, o_wp, out[i]) - top) / t)
        if u < 0:
            return out[i]
    return best
