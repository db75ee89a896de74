"""Succession points turn by turn, for SP-per-turn curves: a sample of a plan's games replayed
step by step from Python (the jitted agents decide, so these are the very games of the run),
reading each seat's SP at the end of each of its turns."""
from __future__ import annotations

import numpy as np
import pandas as pd

from hoc.research.harness import Plan


def sp_by_turn(plan: Plan, sample: int = 200) -> pd.DataFrame:
    """Mean SP at the end of each own turn per agent over the first `sample` games of the plan,
    with a 95% normal interval of the mean. A seat whose game has ended keeps its final SP, so
    every turn averages over all sampled seats of the agent."""
    from hoc.games.heart_of_crown.game import Game

    rs = plan.ruleset
    params = [a.params(rs) if a.play is None else None for a in plan.agents]
    traces: list[tuple[str, list[int]]] = []
    for index in range(plan.first, plan.first + min(sample, plan.games)):
        game = Game.of_run(rs, plan.seed, plan.seed_index(index))
        seats = plan.seat_lineup(index)
        sp = [[] for _ in range(rs.players)]
        turn, player = game.turns, game.turn_player
        while not game.over:
            k = seats[game.decider]
            agent = plan.agents[k]
            game.apply(agent.play(game) if agent.play is not None else game.decide(agent, params[k]))
            if game.turns != turn:
                sp[player].append(game.sp(player))
                turn, player = game.turns, game.turn_player
        sp[player].append(game.sp(player))
        traces += [(plan.agents[seats[j]].name, sp[j]) for j in range(rs.players)]
    longest = max(len(t) for _, t in traces)
    rows = []
    for agent in dict.fromkeys(a for a, _ in traces):
        m = np.array([t + [t[-1] if t else 0] * (longest - len(t)) for a, t in traces if a == agent], float)
        mean = m.mean(axis=0)
        half = 1.96 * m.std(axis=0, ddof=1) / np.sqrt(len(m)) if len(m) > 1 else np.zeros(longest)
        rows += [{"agent": agent, "turn": t + 1, "sp": mean[t], "lo": mean[t] - half[t], "hi": mean[t] + half[t],
                  "seats": len(m)} for t in range(longest)]
    return pd.DataFrame(rows)
