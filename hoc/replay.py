"""A readable turn-by-turn log of one game of a run, played by the same jitted agents."""
from __future__ import annotations

import numpy as np

from hoc.game import Game
from hoc.kernel import constants as K
from hoc.rules import Ruleset


def _cards(zone: dict[str, int]) -> str:
    return ", ".join(f"{name} x{n}" if n > 1 else name for name, n in zone.items()) or "-"


def replay(ruleset: Ruleset, agents, seed: int, index: int, rotate: bool = False) -> list[str]:
    """Play game `index` of the run with seed `seed` and describe every decision."""
    game = Game.of_run(ruleset, seed, index)
    players = ruleset.players
    seat_agents = [agents[(j + index) % players] if rotate else agents[j] for j in range(players)]
    params = np.stack([a.params(ruleset) for a in seat_agents]).astype(K.DTYPE)
    d = ruleset.describe()
    lines = [f"game {index} of run seed {seed} (game seed {game.seed}); edition {d['edition']}, "
             f"{players} players, market {d['market']}",
             "seats: " + ", ".join(f"{j + 1} {a.name}" for j, a in enumerate(seat_agents))]
    if ruleset.market != "basic":
        lines.append("random market: " + _cards({k: v for k, v in game.market().items()
                                                  if ruleset.cards.frame.category[ruleset.cards.index(k)] in ("common", "rare")}))
    turn = 0
    while not game.over:
        if game.turns != turn:
            if game.turns > turn + 1:
                lines.append(f"  (turns {turn + 1}-{game.turns - 1} passed without a decision)")
            turn = game.turns
            p = game.turn_player
            extra = " (extra turn)" if game.state[K.H_IN_EXTRA] else ""
            lines.append(f"turn {turn}: seat {p + 1}{extra}, SP {game.sp(p)}, hand: {_cards(game.hand(p))}")
        p = game.decider
        agent = seat_agents[p]
        a = agent.play(game) if agent.play is not None else game.decide(agent, params[p])
        a = game.parse(a) if isinstance(a, str) else int(a)
        label = game.label(a)
        who = "" if p == game.turn_player else f"seat {p + 1}: "
        face_up = game.face_up()
        game.apply(a)
        note = ""
        if a >= K.A_PLAY and a < K.A_RECALL:
            revealed = game.face_up()[0] if game.face_up() and game.face_up() != face_up else None
            note = f" (coins {game.coins}{f'; reveals {revealed}' if revealed else ''})"
        elif K.A_BUY <= a < K.A_BACK:
            note = f" (coins left {game.coins})"
        elif K.A_BACK <= a < K.A_SET or K.A_SET <= a < K.A_KEEP:
            note = f" (domain: {_cards(game.domain(p))}; SP {game.sp(p)})"
        elif a == K.A_DECLARE:
            note = f" (SP {game.sp(p)})"
        lines.append(f"  {who}{label}{note}")
    w = game.winner
    lines.append(f"end: {game.end_reason} after {game.turns} turns; "
                 + (f"seat {w + 1} wins" if w is not None else "no winner"))
    lines.append("final SP: " + ", ".join(f"seat {j + 1} {game.sp(j)} ({game.princess(j) or 'no princess'})"
                                          for j in range(players)))
    return lines
