"""The Second phase's preference network (`horizon = -1` in a list's [plan]): the look-ahead planner
distilled into the position its options lead to.

The look-ahead planner (`second = N`, `horizon = H`) weighs each option of an open Second phase by
playing N determinized copies 1 + H of its own turns on: strong, but 2-3 turns per option. The
preference plays each option on only to the end of this Second phase (the list spends what is left;
nothing hidden is read, nothing determinized) and scores it by a small network: its input is the
evaluation's features (`hoc.games.heart_of_crown.agents.evaluation`) where the list's own option's
Second phase ends and how the other option's differ from them, each squashed to sign(x) log(1 + |x|);
two ReLU layers; its one output the look-ahead's log-odds difference between the two. A linear gate
of the position before the choice (its weights stored after the network's) says where the network
may prefer another option at all; elsewhere the list's own action is not weighed. It is fitted
to the look-ahead planner's option scores on its own games (`python -m experiments.second_preference`)
and ships as a weight file of the learned agents' format with no policy head and a `gate` array
(`data/second_phase.npz`),
so it travels in the state's tail like their networks (`hoc.games.heart_of_crown.agents.learned`). No card is named.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from hoc.engine import weights as nw
from hoc.engine.networks import NETWORKS, SHIPPED
from hoc.errors import HocError
from hoc.games.heart_of_crown.agents.evaluation import N_FEATURES

NETWORK = Path(__file__).parent / "data" / "second_phase.npz"


def check(net: nw.Network, where: str) -> nw.Network:
    n_obs, _, _, n_act = net.sizes
    if n_obs != 2 * N_FEATURES or n_act != 0:
        raise HocError(f"{where}: a Second-phase preference reads {2 * N_FEATURES} features and has no policy "
                       f"head; this network reads {n_obs} and has {n_act} actions")
    return net


def squash(x):
    """The network's input transform, sign(x) log(1 + |x|) (the jitted forward pass's)."""
    return np.sign(x) * np.log1p(np.abs(x))


def value(net: nw.Network, inputs: np.ndarray) -> np.ndarray:
    """The network's output for rows of inputs, in NumPy: the reference the kernel is tested against."""
    h = np.maximum(squash(inputs) @ net.w1 + net.b1, 0)
    h = np.maximum(h @ net.w2 + net.b2, 0)
    return h @ net.wv + net.bv[0]


def gate(path: Path) -> np.ndarray:
    """The file's gate: a constant and a weight per feature (FEATURE_NAMES) of the position now, whose
    sum above 0 says the network may prefer another option (float32)."""
    with np.load(path, allow_pickle=False) as z:
        g = z["gate"] if "gate" in z.files else None
    if g is None or g.shape != (1 + N_FEATURES,) or g.dtype != np.float32 or not np.all(np.isfinite(g)):
        raise HocError(f"Second-phase preference {path}: no gate of {1 + N_FEATURES} finite float32 weights")
    return g


def save(net: nw.Network, gate_weights: np.ndarray, path: Path) -> None:
    net.save(path)
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, gate=np.asarray(gate_weights, np.float32), **arrays)
    tmp.replace(path)


def block(path: Path) -> np.ndarray:
    """The int32 block a state's tail carries: the network's (`hoc.engine.weights`), then the
    gate's float32 bits."""
    net = check(nw.load(path), f"Second-phase preference {path}")
    return np.concatenate([net.block(), gate(path).view(np.int32)])


@lru_cache(maxsize=None)
def key(path: Path = NETWORK) -> int:
    """The shipped preference's key (a 31-bit hash of its block), its block registered for the
    states' tails."""
    import zlib

    b = block(Path(path))
    k = zlib.crc32(b.tobytes()) & 0x7FFFFFFF or 1
    NETWORKS[k] = b
    return k


SHIPPED.append(key)     # a process that meets the key in a row it did not make (a worker) registers it
