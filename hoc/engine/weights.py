"""A network's weight file: what `hoc learn` writes and the `learned` agents read (and the Second phase's
preference, `hoc.games.heart_of_crown.agents.preference`), checked on load.

A weight file is a NumPy `.npz` archive (no pickles) with float32 arrays

    w1 (obs, h1), b1 (h1)            first hidden layer, ReLU
    w2 (h1, h2), b2 (h2)             second hidden layer, ReLU
    wp (actions, h2), bp (actions)   one logit per action of the game's fixed action space
    wv (h2,), bv (1,)                the value head: the seat's expected reward, 1 a win, -1 a loss (the agent
                                     never reads it; a search guided by the network scores its leaves by it)

and `meta`, a JSON text: `format` (FORMAT), `game`, `edition`, `players`, `obs` and `actions` (the sizes
the network was trained on), `model` (the priority list that models this player in other agents'
look-aheads and rollouts), and what the trainer records (`command`, `figures`, `steps`, ...).

The input is the observation of `hoc.games.heart_of_crown.observation` for that many players, every
slot squashed to sign(x) log(1 + |x|) (`features`): the same numbers in NumPy, in torch and in the
jitted forward pass (`hoc.games.heart_of_crown.agents.learned.kernel`).
"""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hoc.errors import HocError

FORMAT = "hoc-learned-1"
ARRAYS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")
MAX_HIDDEN = 1024


def features(obs: np.ndarray) -> np.ndarray:
    """The network's input: each observation slot squashed, sign(x) log(1 + |x|), in float32."""
    o = np.asarray(obs, np.float64)
    return (np.sign(o) * np.log1p(np.abs(o))).astype(np.float32)


@dataclass
class Network:
    """A policy and value network's weights (float32 arrays, see the module) and its metadata."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    wp: np.ndarray
    bp: np.ndarray
    wv: np.ndarray
    bv: np.ndarray
    meta: dict = field(default_factory=dict)

    @property
    def sizes(self) -> tuple[int, int, int, int]:
        """(observation slots, hidden 1, hidden 2, actions)."""
        return self.w1.shape[0], self.w1.shape[1], self.w2.shape[1], self.wp.shape[0]

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Logits for a batch of raw observations (rows), in NumPy: the reference the kernel is tested against."""
        h = np.maximum(features(obs) @ self.w1 + self.b1, 0)
        h = np.maximum(h @ self.w2 + self.b2, 0)
        return h @ self.wp.T + self.bp

    def block(self) -> np.ndarray:
        """The int32 block the jitted forward pass reads (`hoc.games.heart_of_crown.agents.learned.kernel`): the sizes, then
        the weights' float32 bits, the value head last."""
        parts = [self.w1, self.b1, self.w2, self.b2, self.wp, self.bp, self.wv, self.bv]
        floats = np.concatenate([np.ascontiguousarray(a, np.float32).ravel() for a in parts])
        return np.concatenate([np.array(self.sizes, np.int32), floats.view(np.int32)])

    def key(self) -> int:
        """A 31-bit key of the block: how a parameter row names its network."""
        return zlib.crc32(self.block().tobytes()) & 0x7FFFFFFF or 1

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {name: np.ascontiguousarray(getattr(self, name), np.float32) for name in ARRAYS}
        meta = dict(self.meta, format=FORMAT)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(tmp, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
        tmp.replace(path)


def load(path: str | Path, game: str | None = None, obs: int | None = None, actions: int | None = None) -> Network:
    """The network in a weight file, its format checked: a HocError of one line names what is wrong.
    `game`, `obs` and `actions`, when given, must match what it was trained on."""
    path = Path(path)
    where = f"learned policy {path}"
    if not path.is_file():
        raise HocError(f"{where}: no such file")
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except Exception as e:      # a zip that is not one, a pickle inside, a truncated file
        raise HocError(f"{where}: not a weight file of hoc learn ({type(e).__name__}: {e})") from None
    missing = [k for k in ("meta",) + ARRAYS if k not in data]
    if missing:
        raise HocError(f"{where}: not a weight file of hoc learn (no {', '.join(missing)})")
    try:
        meta = json.loads(str(data["meta"]))
    except ValueError as e:
        raise HocError(f"{where}: its meta is not JSON ({e})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        got = meta.get("format") if isinstance(meta, dict) else None
        raise HocError(f"{where}: format {got!r}, expected {FORMAT!r}")
    for k in ARRAYS:
        if data[k].dtype != np.float32:
            raise HocError(f"{where}: {k} is {data[k].dtype}, expected float32")
        if not np.all(np.isfinite(data[k])):
            raise HocError(f"{where}: {k} holds a value that is not finite")
    net = Network(**{k: data[k] for k in ARRAYS}, meta=meta)
    _check_shapes(where, net)
    n_obs, _, _, n_act = net.sizes
    for name, want, got in (("game", game, meta.get("game")), ("observation size", obs, n_obs),
                            ("action count", actions, n_act)):
        if want is not None and got != want:
            raise HocError(f"{where}: trained for {name} {got!r}, this game has {want!r}")
    return net


def _check_shapes(where: str, net: Network) -> None:
    shapes = {k: getattr(net, k).shape for k in ARRAYS}
    if len(shapes["w1"]) != 2 or len(shapes["w2"]) != 2 or len(shapes["wp"]) != 2:
        raise HocError(f"{where}: w1, w2 and wp must be matrices, got {shapes['w1']}, {shapes['w2']}, {shapes['wp']}")
    n_obs, h1 = shapes["w1"]
    h2 = shapes["w2"][1]
    n_act = shapes["wp"][0]
    want = {"b1": (h1,), "w2": (h1, h2), "b2": (h2,), "wp": (n_act, h2), "bp": (n_act,), "wv": (h2,), "bv": (1,)}
    for k, shape in want.items():
        if shapes[k] != shape:
            raise HocError(f"{where}: {k} has shape {shapes[k]}, expected {shape} (w1 {shapes['w1']}, w2 {shapes['w2']})")
    if not (0 < h1 <= MAX_HIDDEN and 0 < h2 <= MAX_HIDDEN and n_obs > 0 and n_act >= 0):   # 0 actions: a value network
        raise HocError(f"{where}: layer sizes {n_obs}, {h1}, {h2}, {n_act} out of range (hidden at most {MAX_HIDDEN})")


def initial(n_obs: int, n_actions: int, hidden: tuple[int, int], seed: int, meta: dict | None = None) -> Network:
    """A network with small random weights (for tests and a training run's start)."""
    rng = np.random.default_rng(seed)
    h1, h2 = hidden

    def m(a, b):
        return (rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32)

    return Network(m(n_obs, h1), np.zeros(h1, np.float32), m(h1, h2), np.zeros(h2, np.float32),
                   (0.01 * m(n_actions, h2)), np.zeros(n_actions, np.float32), np.zeros(h2, np.float32),
                   np.zeros(1, np.float32), meta or {})
