"""A Toy game told move by move (`hoc replay --game toy`, `hoc play --game toy`): each turn's hand,
every decision, and the end with every player's VP. A jitted seat decides through the lineup's
decider in a state with the room its agents need, so a told game equals the harness's game."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hoc.engine.state import seat_agent
from toy_game.game import Game
from toy_game.kernel import constants as K


def cards(zone: dict[str, int]) -> str:
    return ", ".join(f"{c} x{n}" if n > 1 else c for c, n in sorted(zone.items())) or "nothing"


@dataclass
class Teller:
    ruleset: object
    agents: list
    seed: int
    decide: object = None
    room: object = None
    lines: list = field(default_factory=list)
    actions: list = field(default_factory=list)

    def __post_init__(self):
        self.game = Game(self.ruleset, self.seed)
        if self.room is not None:
            self.game.state = self.room(self.game.state)
        for j, a in enumerate(self.agents):
            if a.play is None:
                seat_agent(self.game.state, j, a.id, a.params(self.ruleset))
        self._turn = 0
        self.lines.append(f"Toy, {self.ruleset.players} players, market {', '.join(self.game.market)}; "
                          f"seed {self.seed}")

    def note_turn(self) -> None:
        g = self.game
        if g[K.H_TURNS] != self._turn:
            self._turn = g[K.H_TURNS]
            p = g[K.H_CUR]
            self.lines.append(f"turn {self._turn}, seat {p} ({self.agents[p].name}): hand {cards(g.hand(p))}")

    def step(self, play=None) -> None:
        g = self.game
        self.note_turn()
        agent = self.agents[g.decider]
        coins = g[K.H_COINS]
        if play is None and agent.play is None:
            a = int(self.decide(g.state))
        else:
            a = g.action((play or agent.play)(g))
        label = g.label(a)
        g.apply(a)
        self.actions.append(a)
        if label.startswith("buy:"):
            self.lines.append(f"  buys {label[4:]} ({coins} coins)")
        elif label.startswith("play:"):
            self.lines.append(f"  plays {label[5:]}")

    def tell(self, limit: int = 100_000) -> list[str]:
        while not self.game.over and len(self.actions) < limit:
            self.step()
        if self.game.over:
            self.lines.append(self.ending())
        return self.lines

    def ending(self) -> str:
        g = self.game
        scores = ", ".join(f"seat {j} ({self.agents[j].name}) {g.score(j)} VP" for j in range(g.players))
        w = g.winners
        who = "no winner" if not w else f"seat {w[0]} wins" if len(w) == 1 else "shared by seats " + \
            ", ".join(map(str, w))
        return f"game over ({g.end_reason}) after {g[K.H_TURNS]} turns: {scores}; {who}"


def teller(plan, index: int, decide=None, room=None) -> Teller:
    """A Teller at the start of game `index` of a run's plan (its seed and seats)."""
    from hoc.engine.seeds import game_seeds

    seed = int(np.int64(game_seeds(np.int64(plan.seed), plan.seed_index(index), 1)[0]).view(np.uint64))
    return Teller(plan.ruleset, [plan.agents[k] for k in plan.seats(index, 1)[0]], seed, decide, room)


def tell(plan, index: int, decide=None, room=None):
    """Game `index` of a run's plan told (`GameSpec.replay`): (the telling, the winner or -1, each
    seat's VP)."""
    t = teller(plan, index, decide, room)
    t.tell()
    return t, t.game[K.H_WINNER], [t.game.score(j) for j in range(plan.ruleset.players)]


# ---- a game saved by `hoc play --save` (the file's format is `hoc.games.saved`) -------------------

SAVED_RULES = {"edition": "name", "players": "count", "market": "name", "overrides": "names",
               "turn_cap": "count", "hand_size": "count"}
OPTIONAL_RULES: dict = {}
RESULT_KEYS = ("over", "end_reason", "winners", "turns", "vp")


def result_of(game: Game) -> dict:
    """What a saved game's replay must end with."""
    return {"over": game.over, "end_reason": game.end_reason, "winners": game.winners, "turns": game[K.H_TURNS],
            "vp": [game.score(j) for j in range(game.players)]}


def retell(plan, index: int, actions: list[int]) -> Teller:
    """A saved game told again by taking its recorded decisions."""
    from hoc.games.saved import take_again

    return take_again(teller(plan, index), actions)


def ruleset_of(p: dict):
    """The ruleset a run's manifest recorded (as `Ruleset.describe` wrote it)."""
    from toy_game.rules import Ruleset

    return Ruleset(players=p["players"], market=p["market"], turn_cap=p["turn_cap"], hand_size=p["hand_size"],
                   overrides=tuple(p["overrides"]), edition=p["edition"])
