"""A search agent any game can seat: determinized playouts at the decision itself, shared out by PUCT.

At a decision of its seat that the game says is worth searching, with more than one legal action, it
tries the legal actions `iterations` times in all, shared out by PUCT with constant `c` (the rollout
agent's own action holding `prior` of the prior, the others sharing the rest): every iteration copies
the game into the arena behind the state (`room`), lets the game re-deal what the searcher cannot see
and re-seed every shuffle to come (its `determinize`), takes the action, and plays the game out with
the rollout agent in the searcher's seat and every other seat's own agent (a search seat there plays
its rollout agent too). The value of a playout is the searcher's share of the win (1 alone, 1/k
shared, 0 lost); the action tried most often is taken (ties: the better mean). A decision the game
does not search is the rollout agent's.

`searcher(game)` makes the policy for a game, `game` being a module of the game's (it pickles by its
name, so the compiled policy is cached across processes) with these jitted functions and constants:

- `legal_actions(s, out) -> n`, `apply(s, a)`: the game's decision interface;
- `base(s) -> a`: the rollout agent's action in the searcher's seat (its parameter row is the
  rollout agent's, the search options after it);
- `searched(s, a) -> bool`: whether the decision is searched, given the rollout agent's action `a`;
- `rollout(w) -> a`: the action of the agent in the decider's seat of a playout;
- `determinize(w, s, me)`: in the copy `w` of `s`, re-deal what seat `me` cannot see and re-seed the
  streams of every seat, drawing from `me`'s agent stream in `s` (so every iteration deals anew);
- `ROLLOUT`: the kind id a search seat plays as in the playouts;
- `S_ITERATIONS`, `S_EXPLORE` (x 1000), `S_PRIOR` (x 1000): where its options sit in the row.

Dominion's search agent is this policy (`hoc.games.dominion.agents.search`).
"""
from __future__ import annotations

import math

import numpy as np

from hoc.agents.ids import ISMCTS
from hoc.engine.jit import kernel
from hoc.engine.layout import AGENTS, AGENT_SZ, H_DECIDER, H_END, H_LEN, H_NP, H_STEPS, H_WIN_MASK, LEGAL, \
    MAX_ACTIONS, MAX_STEPS, RULES
from hoc.engine.state import agent_of, param

TALLY = 3 * MAX_ACTIONS     # the arena after the copy: actions, visits, value sums (x 1000)


@kernel
def copy(w, s, lo, hi):
    for i in range(lo, hi):
        w[i] = s[i]


@kernel
def share(w, me):
    """The searcher's share of the win in a finished playout, x 1000."""
    mask = w[H_WIN_MASK]
    if (mask >> me) & 1 == 0:
        return 0
    k = 0
    for p in range(w[H_NP]):
        k += (mask >> p) & 1
    return 1000 // k


def searcher(game):
    """The search policy for the game whose hooks are the module `game` (see the module docstring)."""

    @kernel
    def search_policy(s):
        me = s[H_DECIDER]
        base = game.base(s)
        if not game.searched(s, base):
            return base
        n = game.legal_actions(s, s[LEGAL:LEGAL + MAX_ACTIONS])
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
        iterations = param(s, me, game.S_ITERATIONS)
        c = param(s, me, game.S_EXPLORE) / 1000.0
        prior = param(s, me, game.S_PRIOR) / 1000.0
        mine = 0                                        # the rollout agent's own action: the prior's favourite
        for j in range(n):
            if s[acts + j] == base:
                mine = j
        played = 0
        value = 0
        for it in range(iterations):
            # PUCT: the mean share so far, plus exploration weighted by the prior (the rollout agent's
            # action `prior`, the rest shared out); an untried action is scored at the mean of all playouts
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
            for q in range(w[H_NP]):                    # in the playouts every search seat plays its rollout agent
                if agent_of(w, q) == ISMCTS:
                    w[AGENTS + q * AGENT_SZ] = game.ROLLOUT
            game.determinize(w, s, me)
            game.apply(w, s[acts + i])
            start = w[H_STEPS]
            while w[H_END] == 0 and w[H_STEPS] - start < MAX_STEPS:
                game.apply(w, game.rollout(w))
            v = share(w, me)
            s[visits + i] += 1
            s[total + i] += v
            played += 1
            value += v
        best = 0
        for j in range(1, n):
            if s[visits + j] > s[visits + best] or (s[visits + j] == s[visits + best]
                                                    and s[total + j] > s[total + best]):
                best = j
        return s[acts + best]

    return search_policy


def room(state: np.ndarray, ids) -> np.ndarray:
    """`state`, or a longer copy with the arena a lineup's search seats need (a copy of the game and
    the tallies)."""
    if ISMCTS not in [int(i) for i in ids]:
        return state
    L = int(state[H_LEN])
    need = 2 * L + TALLY
    if state.shape[0] >= need:
        return state
    big = np.zeros(need, state.dtype)
    big[:state.shape[0]] = state
    return big
