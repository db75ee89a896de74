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
search options after it (S_*), so its own unsearched decisions are the rollout bot's.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from hoc.agents.ids import ISMCTS, PRIORITY
from hoc.engine.jit import kernel
from hoc.engine.layout import AGENTS, AGENT_SZ, RULES
from hoc.errors import HocError
from hoc.games.dominion.agents.kernel import bot_policy, random_policy
from hoc.games.dominion.agents.row import ROW
from hoc.games.dominion.kernel.constants import (
    A_ALL_TREASURES, CTX_EFFECT, H_CTX, H_DECIDER, H_END, H_LEN, H_NC, H_NP, H_STEPS, H_WIN_MASK,
    LEGAL, MAX_ACTIONS, MAX_STEPS, N_ACTIONS, P_ARNG, P_DECK_N, P_DISCARD_N, P_HAND_N, P_RNG,
)
from hoc.games.dominion.kernel.state import agent_of, below, deck, discard, hand, load_u64, param, pb, seed_stream
from hoc.games.dominion.kernel.turn import apply, legal_actions

S_ITERATIONS = ROW.at("search.iterations")
S_EXPLORE = ROW.at("search.exploration")    # UCB1 constant x 1000
S_QUESTIONS = ROW.at("search.questions")    # 1: search the answers to card questions too
S_PRIOR = ROW.at("search.prior")            # the prior probability of the rollout bot's own action x 1000
ROOM_TALLY = 3 * MAX_ACTIONS    # the arena after the copy: actions, visits, value sums (x 1000)


@kernel
def rollout_policy(w):
    if agent_of(w, w[H_DECIDER]) == PRIORITY:
        return bot_policy(w)
    return random_policy(w)


@kernel
def copy(w, s, lo, hi):
    for i in range(lo, hi):
        w[i] = s[i]


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
def share(w, me):
    mask = w[H_WIN_MASK]
    if (mask >> me) & 1 == 0:
        return 0
    k = 0
    for p in range(w[H_NP]):
        k += (mask >> p) & 1
    return 1000 // k


@kernel
def search_policy(s):
    me = s[H_DECIDER]
    base = bot_policy(s)
    if base == A_ALL_TREASURES or (s[H_CTX] == CTX_EFFECT and param(s, me, S_QUESTIONS) == 0):
        return base
    n = legal_actions(s, s[LEGAL:LEGAL + N_ACTIONS])
    if n == 1:
        return s[LEGAL]
    L = s[H_LEN]
    w = s[L:2 * L]
    acts = 2 * L
    visits = acts + MAX_ACTIONS
    total = visits + MAX_ACTIONS
    for i in range(n):
        s[acts + i] = s[LEGAL + i]
        s[visits + i] = 0
        s[total + i] = 0
    copy(w, s, RULES, AGENTS)                       # the rules and cards, once per decision
    iterations = param(s, me, S_ITERATIONS)
    c = param(s, me, S_EXPLORE) / 1000.0
    prior = param(s, me, S_PRIOR) / 1000.0
    mine = 0                                        # the rollout bot's own action: the prior's favourite
    for j in range(n):
        if s[acts + j] == base:
            mine = j
    played = 0
    value = 0
    for it in range(iterations):
        # PUCT: the mean share so far, plus exploration weighted by the prior (the bot's action
        # `prior`, the rest shared out); an untried action is scored at the mean of all playouts
        best = -1e18
        i = 0
        root = value / (1000.0 * played) if played else 0.5
        for j in range(n):
            pj = prior if j == mine else (1.0 - prior) / (n - 1)
            q = s[total + j] / (1000.0 * s[visits + j]) if s[visits + j] else root
            u = q + c * pj * math.sqrt(it + 1) / (1 + s[visits + j])
            if u > best:
                best = u
                i = j
        copy(w, s, 0, RULES)
        copy(w, s, AGENTS, L)
        for q in range(w[H_NP]):                    # in the playouts every search seat plays its rollout bot
            if agent_of(w, q) == ISMCTS:
                w[AGENTS + q * AGENT_SZ] = PRIORITY
        redeal(w, s, me)
        apply(w, s[acts + i])
        start = w[H_STEPS]
        while w[H_END] == 0 and w[H_STEPS] - start < MAX_STEPS:
            apply(w, rollout_policy(w))
        v = share(w, me)
        s[visits + i] += 1
        s[total + i] += v
        played += 1
        value += v
    best = 0
    for j in range(1, n):
        if s[visits + j] > s[visits + best] or (s[visits + j] == s[visits + best] and s[total + j] > s[total + best]):
            best = j
    return s[acts + best]


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


def with_arena(state: np.ndarray, ids) -> np.ndarray:
    """`state`, or a longer copy with the arena a lineup's search seats need (a copy of the game and
    the tallies)."""
    if ISMCTS not in [int(i) for i in ids]:
        return state
    L = int(state[H_LEN])
    need = 2 * L + ROOM_TALLY
    if state.shape[0] >= need:
        return state
    big = np.zeros(need, state.dtype)
    big[:state.shape[0]] = state
    return big


def room(state: np.ndarray, ids, rows) -> np.ndarray:
    """The room a lineup needs (`GameSpec.room`): the search's arena; Dominion's other agents need none."""
    return with_arena(state, ids)
