"""Toy's search agent: the engine's shared determinized-playout search (`hoc.agents.playouts`) on Toy's
hooks. At a decision of its seat with more than one legal action it tries the actions `iterations`
times in all, shared out by PUCT; each playout copies the game into the arena behind the state,
re-deals what the searcher cannot see (`determinize`: its own deck's order; each other player's hand,
deck and discard pile, every zone keeping its size), re-seeds every stream, takes the action and plays
the game out with the rollout list in the searcher's seat and each other seat's own jitted agent.

Its parameter row is its rollout list's row with the search's fields after it (`toy_game.agents.row`).
This module is the search's `game`: it holds the hooks the shared search calls."""
from __future__ import annotations

import dataclasses
import sys

import numpy as np

from hoc.agents import playouts
from hoc.agents.ids import PRIORITY, RANDOM
from hoc.engine.jit import kernel
from hoc.engine.state import agent_of, below, load_u64, seed_stream
from hoc.errors import HocError
from toy_game.agents.kernel import list_policy, random_policy
from toy_game.agents.row import ROW
from toy_game.kernel.constants import H_DECIDER, H_NC, H_NP, P_ARNG, P_DECK_N, P_DISCARD_N, P_HAND_N, P_RNG
from toy_game.kernel.core import apply, deck, discard, hand, legal_actions, pb  # noqa: F401 (the search's hooks)

S_ITERATIONS = ROW.at("search.iterations")
S_EXPLORE = ROW.at("search.exploration")      # x 1000
S_PRIOR = ROW.at("search.prior")              # x 1000: the prior of the rollout list's own action
ROLLOUT = PRIORITY                            # a search seat plays as its rollout list in the playouts


@kernel
def rollout(w):
    """The action of the agent in the decider's seat of a playout."""
    if agent_of(w, w[H_DECIDER]) == RANDOM:
        return random_policy(w)
    return list_policy(w)


@kernel
def base(s):
    """The rollout list's action in the searcher's seat (its row is the list's)."""
    return list_policy(s)


@kernel
def searched(s, a):
    """Every Toy decision is searched (one with a single legal action the search takes at once)."""
    return True


@kernel
def shuffle_from(w, lo, n, s, off_rng):
    for i in range(n - 1, 0, -1):
        j = below(s, off_rng, i + 1)
        t = w[lo + i]
        w[lo + i] = w[lo + j]
        w[lo + j] = t


@kernel
def determinize(w, s, me):
    """Re-deal in the copy w of s what `me` cannot see, from me's agent stream in s, and re-seed
    every seat's streams in w."""
    off = pb(s, me) + P_ARNG
    for q in range(w[H_NP]):
        b = pb(w, q)
        k = deck(w, q)
        if q == me:
            shuffle_from(w, k, w[b + P_DECK_N], s, off)
        else:
            h = hand(w, q)
            d = discard(w, q)
            n = w[b + P_DECK_N]
            for c in range(w[H_NC]):
                for _ in range(w[h + c] + w[d + c]):
                    w[k + n] = c
                    n += 1
                w[h + c] = 0
                w[d + c] = 0
            shuffle_from(w, k, n, s, off)
            hn = w[b + P_HAND_N]
            dn = w[b + P_DISCARD_N]
            for i in range(hn):
                w[h + w[k + n - 1 - i]] += 1
            for i in range(dn):
                w[d + w[k + n - 1 - hn - i]] += 1
        seed_stream(w, b + P_RNG, load_u64(s, off), 7 + q)
        seed_stream(w, b + P_ARNG, load_u64(s, off), 17 + q)
        below(s, off, 2)


search_policy = playouts.searcher(sys.modules[__name__])


# ---- Python side: presets, options, the row, the arena -------------------------------------------
@dataclasses.dataclass(frozen=True)
class Options:
    iterations: int = 64
    c: float = 1.0
    prior: float = 0.5
    rollout: str = "toy_big_money"


PRESETS = {"toy_search": Options(), "toy_search_fast": Options(iterations=16)}
KEYS = ("iterations", "c", "prior", "rollout")


def is_spec(name: str) -> bool:
    return name.partition(":")[0] in PRESETS


def parse(spec: str, get) -> Options:
    base, _, rest = spec.partition(":")
    if base not in PRESETS:
        raise HocError(f"unknown Toy search agent {base!r}: expected one of {', '.join(PRESETS)}")
    opts = PRESETS[base]
    for token in (t.strip() for t in rest.split(",") if t.strip()):
        key, eq, value = (x.strip() for x in token.partition("="))
        if not eq or key not in KEYS or not value:
            raise HocError(f"agent {spec!r}: {token!r} is not an option ({', '.join(KEYS)}, as key=value)")
        try:
            v = int(value) if key == "iterations" else float(value) if key in ("c", "prior") else value
        except ValueError:
            raise HocError(f"agent {spec!r}: {key} must be a number, not {value!r}") from None
        if key == "iterations" and not 1 <= v <= 100_000 or key == "c" and not 0 <= v <= 100 \
                or key == "prior" and not 0 < v < 1:
            raise HocError(f"agent {spec!r}: {key}={value} is out of range")
        opts = dataclasses.replace(opts, **{key: v})
    bot = get(opts.rollout)
    if bot.game != "toy" or bot.id != PRIORITY:
        raise HocError(f"agent {spec!r}: the rollout must be a Toy priority list, not {opts.rollout!r}")
    return opts


def row(opts: Options, ruleset, get) -> np.ndarray:
    P = get(opts.rollout).params(ruleset).copy()
    ROW.store(P, "search.iterations", opts.iterations)
    ROW.store(P, "search.exploration", opts.c)
    ROW.store(P, "search.prior", opts.prior)
    return P


def describe(opts: Options) -> str:
    return (f"Toy search: {opts.iterations} determinized playouts per decision (PUCT, c={opts.c:g}, prior "
            f"{opts.prior:g} on the rollout list's action), "
            f"played out by {opts.rollout}")


def room(state: np.ndarray, ids, rows) -> np.ndarray:
    """The room a lineup needs (`GameSpec.room`): the shared search's arena for a search seat."""
    return playouts.room(state, ids)
