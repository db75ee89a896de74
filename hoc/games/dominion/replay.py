"""A Dominion game told move by move (`hoc replay --game dominion`, `hoc play --game dominion`): each
turn's hand, every decision taken (a card played, Treasures, a buy, a card question and its
answer), and the end with every player's VP.

`Teller(ruleset, agents, seed, decide, room)` steps a game from Python; a seat's jitted agent decides
through `decide` (the game's jitted decider for the lineup, `hoc.agents.deciders`: so a told game
equals the harness's game of the same seed and lineup) in a state given the room its agents need
(`room(state)`), a Python callable `play(game) -> label or id` for a person or a Python agent."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hoc.engine.state import seat_agent
from hoc.games.dominion.game import Game
from hoc.games.dominion.kernel import constants as K

FATES = {K.FATE_DISCARD: "discard", K.FATE_TRASH: "trash", K.FATE_PLAY: "play", K.FATE_UPGRADE: "trash to upgrade",
         K.FATE_TOPDECK: "put onto the deck", K.FATE_GAIN: "gain", K.FATE_REVEAL: "reveal",
         K.FATE_SKIP: "set aside", K.FATE_SIFT: "trash, discard or keep"}


def cards(zone: dict[str, int]) -> str:
    return ", ".join(f"{c} x{n}" if n > 1 else c for c, n in sorted(zone.items())) or "nothing"


@dataclass
class Teller:
    ruleset: object
    agents: list                        # per seat: an Agent (jitted or Python)
    seed: int
    decide: object = None               # the jitted decider of the lineup (state -> action)
    room: object = None                 # state -> the state with the room the lineup's agents need
    lines: list[str] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)

    def __post_init__(self):
        self.game = Game(self.ruleset, self.seed)
        if self.room is not None:
            self.game.state = self.room(self.game.state)    # e.g. a search seat's arena
        for j, a in enumerate(self.agents):
            if a.play is None:
                seat_agent(self.game.state, j, a.id, a.params(self.ruleset))
        self._turn = 0
        self.lines.append(f"Dominion, {self.ruleset.players} players, kingdom {', '.join(self.game.kingdom)}; "
                          f"seed {self.seed}")

    def ask(self) -> str:
        """What the pending decision is, in words."""
        g = self.game
        q = g.question()
        if q is None:
            s = g.state
            phase = "Action phase" if s[K.H_CTX] == K.CTX_ACTION else "Buy phase"
            return (f"{phase}: {s[K.H_ACTIONS]} action(s), {s[K.H_BUYS]} buy(s), {s[K.H_COINS]} coins; "
                    f"hand {cards(g.hand(g.decider))}")
        what = FATES.get(int(g.state[K.H_Q_FATE]), q["kind"])
        about = f" {q['about']}" if q["about"] else ""
        return f"{q['card']} asks seat {q['seat']}: {what}{about}?"

    def note_turn(self) -> None:
        """Open a new turn's lines (its number, seat and hand) when a turn has begun."""
        g = self.game
        s = g.state
        if s[K.H_TURNS] != self._turn:
            self._turn = int(s[K.H_TURNS])
            p = int(s[K.H_CUR])
            self.lines.append(f"turn {self._turn} (round {g[g._block(p) + K.P_TURNS]}), seat {p} "
                              f"({self.agents[p].name}): hand {cards(g.hand(p))}")

    def step(self, play=None) -> None:
        g = self.game
        s = g.state
        self.note_turn()
        seat = g.decider
        question = g.question()
        agent = self.agents[seat]
        if play is None and agent.play is None:
            a = int(self.decide(s))
        else:
            a = g.action((play or agent.play)(g))
        label = g.label(a)
        before = int(s[K.H_COINS])
        g.apply(a)
        self.actions.append(a)
        if question is not None:
            self.lines.append(f"  {question['card']}: seat {seat} answers {label}")
        elif label == "treasures":
            self.lines.append(f"  plays Treasures ({int(s[K.H_COINS]) if not g.over else before} coins)")
        elif label != "pass":
            self.lines.append(f"  {label.replace(':', 's ', 1) if ':' in label else label}")

    def tell(self, limit: int = 100_000) -> list[str]:
        while not self.game.over and len(self.actions) < limit:
            self.step()
        if self.game.over:
            self.lines.append(self.ending())
        return self.lines

    def ending(self) -> str:
        g = self.game
        reason = K.END_REASONS.get(int(g.state[K.H_END]), "?")
        scores = ", ".join(f"seat {j} ({self.agents[j].name}) {g.vp(j)} VP" for j in range(self.ruleset.players))
        mask = int(g.state[K.H_WIN_MASK])
        winners = [j for j in range(self.ruleset.players) if mask >> j & 1]
        who = ("no winner" if not winners else f"seat {winners[0]} wins" if len(winners) == 1
               else "shared by seats " + ", ".join(map(str, winners)))
        return f"game over ({reason}) after {int(g.state[K.H_TURNS])} turns: {scores}; {who}"


def teller(plan, index: int, decide, room=None) -> Teller:
    """A Teller of game `index` of a run's plan (`hoc.research.harness.Plan`): same seed, seats, rules."""
    from hoc.engine.seeds import game_seeds

    seed = int(game_seeds(np.int64(plan.seed), plan.seed_index(index), 1)[0])
    return Teller(plan.ruleset, [plan.agents[k] for k in plan.seats(index, 1)[0]], seed, decide, room)


def tell(plan, index: int, decide=None, room=None) -> tuple[Teller, int, list[int]]:
    """Game `index` of a run's plan told (`GameSpec.replay`): the telling, the winner (-1: none or a
    shared win) and each seat's VP; `decide`, `room`: the lineup's jitted decider and the room its
    agents need (`hoc.agents.deciders.seating`)."""
    r = teller(plan, index, decide, room)
    r.tell()
    return r, int(r.game[r.game.WINNER]), [r.game.vp(j) for j in range(plan.ruleset.players)]


def ruleset_of(p: dict):
    """The ruleset a run's manifest recorded (its `plan`), as `Plan.describe` wrote it."""
    from hoc.games.dominion.rules import Ruleset

    return Ruleset(players=p["players"], market=p["market"], overrides=tuple(p["overrides"]),
                   turn_cap=p["turn_cap"], last_province_guard=p["last_province_guard"],
                   solo_provinces=p.get("solo_provinces", 4), market_with=tuple(p.get("market_with", ())))


# ---- a game saved by `hoc play --save` (the file's format is `hoc.games.saved`) -------------------

SAVED_RULES = {"players": "count", "market": "name", "overrides": "names", "turn_cap": "count",
               "last_province_guard": "flag"}
OPTIONAL_RULES = {"solo_provinces": "count"}
RESULT_KEYS = ("over", "end_reason", "winners", "turns", "vp")


def result_of(game) -> dict:
    """What a saved game's replay must end with."""
    return {"over": game.over, "end_reason": game.end_reason, "winners": game.winners,
            "turns": int(game.state[K.H_TURNS]), "vp": [game.vp(j) for j in range(game.players)]}


def retell(plan, index: int, actions: list[int]) -> Teller:
    """A saved game told again by taking its recorded decisions."""
    from hoc.games.saved import take_again

    return take_again(teller(plan, index, None), actions)

