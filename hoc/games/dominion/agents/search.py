"""The Dominion search agent: determinized Monte Carlo search with UCB1 at the decision itself.

At a decision of its seat with more than one sensible action, it tries the legal actions many times
(`iterations` in all, shared out by PUCT with constant `c`, the rollout bot's own action holding
`prior` of the prior and the others sharing the rest): every iteration copies the game into
the arena behind the state, re-deals what the searcher cannot see (the order of its own deck; for
every other player, which of its cards lie in hand, deck and discard pile, each zone keeping its
size) and re-seeds every shuffle to come, takes the action, and plays the game out with the rollout
bot in the searcher's seat and every other seat's own bot (a search agent there plays its rollout
bot too). The value of a playout is the searcher's share of the win (1 alone, 1/k shared, 0 lost);
the action tried most often is taken (ties: the better mean). Playing Treasures is not searched (the bot plays all of
them), nor, unless `questions=1`, the answers to card questions (the rollout bot answers them).

Its parameter row is the rollout bot's row (`hoc.games.dominion.agents.kernel`, B_*), with the
search options after it (S_*), so its own unsearched decisions are the rollout bot's. The search
itself is every game's (`hoc.agents.playouts`); this module holds Dominion's hooks for it.
"""
from __future__ import annotations

import dataclasses
import sys

import numpy as np

from hoc.agents import playouts
from hoc.agents.ids import PRIORITY
from hoc.engine.jit import kernel
from hoc.errors import HocError
from hoc.games.dominion.agents.kernel import bot_policy, random_policy
from hoc.games.dominion.agents.row import ROW
from hoc.games.dominion.kernel.constants import (
    A_ALL_TREASURES, CTX_EFFECT, H_CTX, H_DECIDER, H_NC, H_NP, P_ARNG, P_DECK_N, P_DISCARD_N, P_HAND_N, P_RNG,
)
from hoc.games.dominion.kernel.state import agent_of, below, deck, discard, hand, load_u64, param, pb, seed_stream
from hoc.games.dominion.kernel.turn import apply, legal_actions  # noqa: F401 (the search's hooks)

S_ITERATIONS = ROW.at("search.iterations")
S_EXPLORE = ROW.at("search.exploration")    # UCB1 constant x 1000
S_QUESTIONS = ROW.at("search.questions")    # 1: search the answers to card questions too
S_PRIOR = ROW.at("search.prior")            # the prior probability of the rollout bot's own action x 1000


@kernel
def rollout_policy(w):
    if agent_of(w, w[H_DECIDER]) == PRIORITY:
        return bot_policy(w)
    return random_policy(w)


@kernel
def shuffle_from(w, lo, n, s, off_rng):
    """Fisher-Yates shuffle of w[lo:lo+n] with the random stream at s[off_rng] (of another array)."""
    for i in range(n - 1, 0, -1):
        j = below(s, off_rng, i + 1)
        t = w[lo + i]
        w[lo + i] = w[lo + j]
        w[lo + j] = t


@kernel
def redeal(w, s, me):
    """Re-deal in the copy w of s what `me` cannot see, drawing from me's agent stream in s (so
    every iteration deals anew), and re-seed every seat's shuffles and agent stream in w."""
    nc = w[H_NC]
    off_rng = pb(s, me) + P_ARNG
    for q in range(w[H_NP]):
        b = pb(w, q)
        k = deck(w, q)
        if q == me:
            shuffle_from(w, k, w[b + P_DECK_N], s, off_rng)
        else:
            # the pool of hand, deck and discard pile, dealt again into zones of the same sizes: the
            # hand from the top of the shuffled pool, then the discard pile; the deck is what is left
            h = hand(w, q)
            d = discard(w, q)
            n = w[b + P_DECK_N]
            for c in range(nc):
                for _ in range(w[h + c] + w[d + c]):
                    w[k + n] = c
                    n += 1
                w[h + c] = 0
                w[d + c] = 0
            shuffle_from(w, k, n, s, off_rng)
            hn = w[b + P_HAND_N]
            dn = w[b + P_DISCARD_N]
            for i in range(hn):
                w[h + w[k + n - 1 - i]] += 1
            for i in range(dn):
                w[d + w[k + n - 1 - hn - i]] += 1
        seed_stream(w, b + P_RNG, load_u64(s, off_rng), 7 + q)
        seed_stream(w, b + P_ARNG, load_u64(s, off_rng), 17 + q)
        below(s, off_rng, 2)                        # move the stream on between seats


@kernel
def base(s):
    """The rollout bot's action in the searcher's seat (its row is the bot's)."""
    return bot_policy(s)


@kernel
def searched(s, a):
    """Playing Treasures is not searched (the bot plays them all), nor, unless `questions=1`, the
    answers to card questions."""
    return not (a == A_ALL_TREASURES or (s[H_CTX] == CTX_EFFECT and param(s, s[H_DECIDER], S_QUESTIONS) == 0))


rollout = rollout_policy
determinize = redeal
ROLLOUT = PRIORITY
search_policy = playouts.searcher(sys.modules[__name__])


# ---- Python side: the agent's spec and its parameter row --------------------------------------

@dataclasses.dataclass(frozen=True)
class Options:
    iterations: int = 400
    c: float = 1.0
    prior: float = 0.5
    rollout: str = "dom_smithy_bm"
    questions: int = 0


PRESETS = {"dom_search": Options(), "dom_search_fast": Options(iterations=100),
           "dom_search_strong": Options(iterations=1600)}
KEYS = ("iterations", "c", "prior", "rollout", "questions")


def is_spec(name: str) -> bool:
    return name.partition(":")[0] in PRESETS


def parse(spec: str, agents) -> Options:
    """The options of `preset[:key=value,...]` (the rollout bot looked up by `agents`, the registry's get)."""
    base, _, rest = spec.partition(":")
    if base not in PRESETS:
        raise HocError(f"unknown Dominion search agent {base!r}: expected one of {', '.join(PRESETS)}")
    opts = PRESETS[base]
    for token in (t.strip() for t in rest.split(",") if t.strip()):
        key, eq, value = (x.strip() for x in token.partition("="))
        if not eq or key not in KEYS or not value:
            raise HocError(f"agent {spec!r}: {token!r} is not an option (options: {', '.join(KEYS)}, as key=value)")
        try:
            v = int(value) if key in ("iterations", "questions") else float(value) if key in ("c", "prior") else value
        except ValueError:
            raise HocError(f"agent {spec!r}: {key} must be a number, not {value!r}") from None
        if key == "iterations" and not 1 <= v <= 100_000 or key == "questions" and v not in (0, 1) \
                or key == "c" and not 0 <= v <= 100 or key == "prior" and not 0 < v < 1:
            raise HocError(f"agent {spec!r}: {key}={value} is out of range (iterations 1-100000, c 0-100, "
                           f"prior between 0 and 1, questions 0 or 1)")
        opts = dataclasses.replace(opts, **{key: v})
    bot = agents(opts.rollout)
    if bot.game != "dominion" or bot.id != PRIORITY:
        raise HocError(f"agent {spec!r}: the rollout must be a Dominion bot (a buy menu), not {opts.rollout!r}")
    return opts


def row(opts: Options, ruleset, agents) -> np.ndarray:
    P = agents(opts.rollout).params(ruleset).copy()
    P[S_ITERATIONS] = opts.iterations
    P[S_EXPLORE] = round(opts.c * 1000)
    P[S_QUESTIONS] = opts.questions
    P[S_PRIOR] = round(opts.prior * 1000)
    return P


def describe(opts: Options) -> str:
    return (f"Dominion search: {opts.iterations} determinized playouts per decision shared by PUCT (c={opts.c:g}, "
            f"prior {opts.prior:g} on the rollout bot's action), "
            f"played out by {opts.rollout}" + ("; searches card questions too" if opts.questions else ""))


def room(state: np.ndarray, ids, rows) -> np.ndarray:
    """The room a lineup needs (`GameSpec.room`): the search's arena; Dominion's other agents need none."""
    return playouts.room(state, ids)
