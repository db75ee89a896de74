"""Networks carried in a state's tail, and the jitted two-layer forward pass that reads them: what a
learned policy (`hoc.games.heart_of_crown.agents.learned`) and a game agent's network (the Second phase's preference,
`hoc.games.heart_of_crown.agents.preference`) share. It names no game.

A kernel sees only the state, so weights travel in it: the tail of a state (`hoc.games.heart_of_crown.agents.learned.tail`)
holds each distinct network once, as float32 bits in the int32 array, and a directory at the very end:

    s[L-1] = MAGIC, s[L-2] = the tail's length, s[L-3] = the scratch's start, s[L-4] = networks n,
    s[L-4-2(k+1)] = network k's key, s[L-3-2(k+1)] = where its block starts

A parameter row names its network by key (a hash of its block), so rows stay plain data. A block is
[obs size, hidden 1, hidden 2, actions, then float32: W1 (obs x h1), b1, W2 (h1 x h2), b2,
Wp (actions x h2), bp, wv (h2), bv], and whatever its owner appends. The scratch holds the squashing
table, the input and the hidden layers. `NETWORKS` holds this process's blocks by key; `SHIPPED`
the loaders of networks shipped with the package (a worker process that meets a key it did not make
calls them).
"""
import math

import numpy as np

from hoc.engine.jit import kernel
from hoc.engine.layout import LEARNED_TAIL as MAGIC

NETWORKS: dict = {}       # key -> the network's int32 block, for this process
SHIPPED: list = []        # loaders of networks shipped with the package (each registers its own, returns its key)
BLOCK_HEAD = 4             # obs size, hidden 1, hidden 2, actions
LOG_TABLE = 1024           # squashed values of the integers 0 .. LOG_TABLE - 1, precomputed


@kernel
def network_block(s, key):
    """Where the block of the network with this key starts in s's tail (-1: none)."""
    L = s.shape[0]
    if L < 4 or s[L - 1] != MAGIC:
        return -1
    for k in range(s[L - 4]):
        if s[L - 4 - 2 * (k + 1)] == key:
            return s[L - 3 - 2 * (k + 1)]
    return -1


@kernel
def squash(table, x):
    """sign(x) log(1 + |x|) in float32, from the table for small integers (observations are integers)."""
    ax = abs(x)
    if ax < LOG_TABLE and ax == math.floor(ax):
        v = table[np.int64(ax)]
    else:
        v = np.float32(math.log1p(ax))
    return v if x >= 0 else -v


@kernel
def obs_at(s):
    """Where the scratch's observation slots start (float32 bits; a kernel without reference counting
    cannot return a view, so callers view s themselves)."""
    return s[s.shape[0] - 3] + LOG_TABLE


@kernel
def layers(s, b):
    """`hidden` on the observation already in the scratch."""
    L = s.shape[0]
    sc = s[L - 3]
    n_obs = s[b]
    h1 = s[b + 1]
    h2 = s[b + 2]
    w = s[b + BLOCK_HEAD:L].view(np.float32)
    x = s[sc:L].view(np.float32)
    table = x[0:LOG_TABLE]
    obs = x[LOG_TABLE:LOG_TABLE + n_obs]
    a1 = x[LOG_TABLE + n_obs:LOG_TABLE + n_obs + h1]
    a2 = x[LOG_TABLE + n_obs + h1:LOG_TABLE + n_obs + h1 + h2]
    o_b1 = n_obs * h1
    for j in range(h1):
        a1[j] = w[o_b1 + j]
    for i in range(n_obs):
        if obs[i] != 0:
            f = squash(table, obs[i])
            r = i * h1
            for j in range(h1):
                a1[j] += f * w[r + j]
    for j in range(h1):
        a1[j] = max(a1[j], np.float32(0))
    o_w2 = o_b1 + h1
    o_b2 = o_w2 + h1 * h2
    for j in range(h2):
        a2[j] = w[o_b2 + j]
    for i in range(h1):
        f = a1[i]
        if f != 0:
            r = o_w2 + i * h2
            for j in range(h2):
                a2[j] += f * w[r + j]
    for j in range(h2):
        a2[j] = max(a2[j], np.float32(0))
    return o_b2 + h2


@kernel
def head(s, b, r, bias):
    """An output unit after `hidden`: the second hidden layer (in the scratch) times the block's
    float weights r .. r + h2, plus the bias at `bias` (offsets in floats of the block's view)."""
    L = s.shape[0]
    n_obs = s[b]
    h1 = s[b + 1]
    h2 = s[b + 2]
    w = s[b + BLOCK_HEAD:L].view(np.float32)
    x = s[s[L - 3]:L].view(np.float32)
    a2 = x[LOG_TABLE + n_obs + h1:LOG_TABLE + n_obs + h1 + h2]
    z = w[bias]
    for j in range(h2):
        z += a2[j] * w[r + j]
    return z
