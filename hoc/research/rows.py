"""The result rows of a chunk of a run's games, played in this process: by the jitted batch loop,
or stepped from Python when a seat is a Python agent. `plan` is a `hoc.research.harness.Plan`; this
module sits below the harness and the engine warm-up, which both play chunks through it (the
warm-up plays zero games to compile or load what the games will call)."""
from __future__ import annotations

import numpy as np

from hoc.engine import layout as K


def play_rows(plan, first: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Play one chunk here; returns its result rows and coverage counts."""
    if plan.python:
        return _play_python(plan, first, n)
    from hoc.research import batch  # imported in the worker: loads the compiled kernels there

    rs = plan.ruleset
    ids = np.array([a.id for a in plan.agents], K.DTYPE)
    out = np.zeros((n, K.RES_LEN), K.DTYPE)
    coverage = np.zeros((len(rs.cards), K.N_STATS), np.int64)
    batch.play(rs, plan.validate, ids, plan.params, np.int64(plan.seed), first, plan.seats(first, n).astype(K.DTYPE),
               rs.players if plan.mirror else 1, out, coverage)
    return out, coverage


def _play_python(plan, first: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The same games stepped from Python, for lineups with Python agents; jitted seats still
    decide through the jitted policies, so their moves equal those of `run_batch`. One `Game` and
    its buffers serve the whole chunk."""
    from hoc.agents.deciders import with_room
    from hoc.engine.state import seat_agent

    rs = plan.ruleset
    api = rs.game.kernel
    check, game_seed, card_totals, record = api.check, api.game_seed, api.card_totals, api.record
    nc = len(rs.cards)
    out = np.zeros((n, K.RES_LEN), K.DTYPE)
    coverage = np.zeros((nc, K.N_STATS), np.int64)
    totals = np.zeros(nc, K.DTYPE)
    work = np.zeros(nc, K.DTYPE)
    game = rs.game.game_class()(rs)
    ids = np.array([a.id for a in plan.agents], K.DTYPE)
    game.state = with_room(rs, game.state, ids, plan.params)
    decide = rs.game.deciders_module().decider(ids)
    s = game.state
    stats = slice(s[K.H_OFF_STATS], s[K.H_OFF_STATS] + nc * K.N_STATS)
    master = np.int64(plan.seed)
    seats = plan.seats(first, n)
    for g in range(n):
        index = first + g
        game.reset(int(np.int64(game_seed(master, plan.seed_index(index))).view(np.uint64)))
        plays = []                      # per seat: the Python agent's callable, or None for a jitted agent
        for j, k in enumerate(seats[g]):
            agent = plan.agents[k]
            plays.append(agent.play)
            if agent.play is None:
                seat_agent(s, j, agent.id, plan.params[k])
        if plan.validate:
            card_totals(s, totals, work)
        err = 0
        while not game.over:
            play = plays[game.decider]
            game.apply(decide(s) if play is None else play(game))
            if plan.validate:
                err = check(s, totals, work)
                if err:
                    break
        record(s, out[g])
        out[g, K.RES_GAME] = np.int64(index).astype(K.DTYPE)    # wraps past 2**31 as in run_batch: unread
        out[g, K.RES_ERROR] = err
        coverage += s[stats].reshape(nc, K.N_STATS)
    return out, coverage
