"""The learned agents: a network trained by `hoc learn` playing every decision inside the jitted loops.

An agent spec is a weight file, by library name or path, optionally followed by `:key=value,...`:

    learned_2p                               the shipped network (agents/heart_of_crown/learned/);
                                             `learned` names it too
    results/learn/policy.npz                 any weight file `hoc learn` wrote
    learned_2p:temperature=0.5               sample the softmax over the legal actions (0: the best logit)

Its parameter row is the row of the priority list the file names as its `model` (how other agents'
look-aheads and rollouts play this seat, and where a study's ban goes: its `never` list), then the
network's key and the temperature (`kernel.LN_*`). The weights travel in the state's tail
(`tail`, laid out as `kernel` says): `hoc.games.heart_of_crown.agents.search.reserve` adds it for every lineup with a
learned seat. The rows name networks by key; this process's keys are in `NETWORKS`, which an agent's
row function fills when it is made and again when it is unpickled in a worker process (a run's plan
carries its agents), so workers and Dask find the weights of every agent in their plan.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from hoc.agent_folders import game_folder
from hoc.agents.ids import LEARNED
from hoc.engine import weights as nw
from hoc.games.heart_of_crown.agents.learned.kernel import LN_KEY, LN_TEMPERATURE, LOG_TABLE
from hoc.engine.layout import DTYPE, LEARNED_TAIL
from hoc.engine.networks import NETWORKS, SHIPPED  # noqa: F401 (this process's networks by key; shipped loaders)
from hoc.errors import HocError

LIBRARY = game_folder("heart_of_crown") / "learned"     # the shipped weight files (agents/heart_of_crown/learned)
KEYS = ("temperature",)


def library() -> dict[str, Path]:
    """The shipped weight files by name, and `learned` for the 2-player one (`hoc balance --strong learned`)."""
    files = {p.stem: p for p in sorted(LIBRARY.glob("*.npz"))}
    if "learned_2p" in files:
        files["learned"] = files["learned_2p"]
    return files


def is_spec(name: str) -> bool:
    base = name.partition(":")[0]
    return base in library() or base.endswith(".npz")


def parse(spec: str, file=Path) -> tuple[Path, float]:
    """(weight file, temperature) of a spec; a one-line HocError for anything wrong. `file(name)`: the
    file a name outside the library gives (the registry's reach: a served one keeps it in its folder)."""
    base, colon, rest = spec.partition(":")
    path = library().get(base) or file(base)
    temperature = 0.0
    if colon and not rest.strip():
        raise HocError(f"agent {spec!r}: no option after ':' (e.g. {base}:temperature=0.5)")
    for token in (t.strip() for t in rest.split(",") if rest):
        key, eq, value = (x.strip() for x in token.partition("="))
        if key not in KEYS or not eq:
            raise HocError(f"agent {spec!r}: {token!r} is not an option (options: {', '.join(KEYS)}=VALUE)")
        try:
            temperature = float(value)
        except ValueError:
            raise HocError(f"agent {spec!r}: temperature must be a number, not {value!r}") from None
        if not 0 <= temperature <= 100:
            raise HocError(f"agent {spec!r}: temperature must be between 0 and 100, not {value}")
    return path, temperature


class Row:
    """The agent's row for a ruleset (see the module); registers its network in `NETWORKS` when made
    and when unpickled."""

    def __init__(self, spec: str, net: nw.Network, temperature: float, model):
        self.spec, self.net, self.temperature, self.model = spec, net, temperature, model
        self._register()

    def _register(self):
        self.block = self.net.block()
        self.key = self.net.key()
        NETWORKS[self.key] = self.block

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k not in ("block", "key")}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._register()

    def __call__(self, ruleset) -> np.ndarray:
        meta = self.net.meta
        game = ruleset.game.name
        if game != meta.get("game", "heart_of_crown"):
            raise HocError(f"agent {self.spec!r} plays {meta.get('game')}, not {game}")
        if ruleset.players != meta.get("players"):
            raise HocError(f"agent {self.spec!r} was trained for {meta.get('players')} players, "
                           f"this game has {ruleset.players}")
        n_obs, _, _, n_act = self.net.sizes
        if n_obs != ruleset.game.observation.size(ruleset.players) or n_act != ruleset.game.n_actions:
            raise HocError(f"agent {self.spec!r}: its network reads {n_obs} observation slots and {n_act} actions, "
                           f"this game has {ruleset.game.observation.size(ruleset.players)} and {ruleset.game.n_actions}")
        P = self.model.params(ruleset).copy()
        P[LN_KEY] = self.key
        P[LN_TEMPERATURE] = round(self.temperature * 1000)
        return P


def describe(spec: str, net: nw.Network, temperature: float) -> str:
    what = net.meta.get("description") or f"policy network {spec}"
    return what + (f"; samples at temperature {temperature:g}" if temperature else "")


def tail(ids, rows, also=()) -> np.ndarray | None:
    """The tail of a state for a lineup (agent ids, rows) with learned seats, and the networks keyed
    in `also` (those that guide a search): each network once, the scratch, the directory
    (`hoc.games.heart_of_crown.agents.learned.kernel`); None without a network."""
    keys = []
    for i, r in zip(np.asarray(ids).ravel(), np.asarray(rows).reshape(len(np.asarray(ids).ravel()), -1)):
        if int(i) == LEARNED and int(r[LN_KEY]) not in keys:
            keys.append(int(r[LN_KEY]))
    keys += [int(k) for k in also if int(k) not in keys]
    if not keys:
        return None
    blocks = []
    if any(k not in NETWORKS for k in keys):
        for load in SHIPPED:         # a row made in another process names a shipped network: load them here
            load()
    for k in keys:
        if k not in NETWORKS:
            raise HocError(f"a learned seat names network {k}, which this process has not loaded "
                           "(make the agent with hoc.agents.registry.get)")
        blocks.append(NETWORKS[k])
    scratch = LOG_TABLE + max(int(b[0]) + int(b[1]) + int(b[2]) for b in blocks)
    table = np.zeros(scratch, np.float32)
    table[:LOG_TABLE] = nw.features(np.arange(LOG_TABLE))
    parts = [table.view(np.int32)]
    starts = []
    at = scratch
    for b in blocks:
        starts.append(at)
        parts.append(b)
        at += len(b)
    directory = []
    for k, start in zip(reversed(keys), reversed(starts)):     # network k at s[L-4-2(k+1)], its start after it
        directory += [k, start]
    n_tail = at + len(directory) + 4        # offsets in the tail are made absolute by `attach`
    return np.concatenate(parts + [np.array(directory + [len(keys), 0, n_tail, LEARNED_TAIL], DTYPE)])


def attach(state: np.ndarray, base: int, t: np.ndarray) -> np.ndarray:
    """A state of length base + len(t): state[:base] (a game and its arena), then the tail t with its
    offsets made absolute."""
    big = np.zeros(base + len(t), state.dtype)
    n = min(base, len(strip(state)))
    big[:n] = state[:n]
    big[base:] = t
    L = len(big)
    big[L - 3] = base                          # the scratch starts the tail
    for k in range(int(big[L - 4])):
        big[L - 3 - 2 * (k + 1)] += base
    return big


def strip(state: np.ndarray) -> np.ndarray:
    """The state without a tail of networks (a view)."""
    if len(state) >= 2 and state[-1] == LEARNED_TAIL:
        return state[:len(state) - int(state[-2])]
    return state


def same_tail(state: np.ndarray, base: int, t: np.ndarray) -> bool:
    """`state` is already state[:base] with the tail t."""
    return len(state) == base + len(t) and len(strip(state)) == base and \
        np.array_equal(state[base:base + len(t) - 4 - 2 * int(t[-4])], t[:len(t) - 4 - 2 * int(t[-4])])
