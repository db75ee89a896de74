"""The games played at the web table: a `Teller` whose human seats wait for their answer over HTTP
while the agent seats play on a worker (`hoc.web.workers`), told in the replay's words from each human
seat's point of view (as `hoc play` tells it), and saved in the format `hoc replay` reads.

Every game holds a lock: requests on one game are taken one at a time, requests on different games
run side by side, and an agent thinks without it (on a copy of the game), so a game can be read while
its agent thinks. A refused action (illegal, not this seat's turn, a stale view) leaves the game as
it was: it is checked before the game is touched."""
from __future__ import annotations

import threading
from dataclasses import dataclass

from hoc.agents.agent import Agent, no_params
from hoc.errors import HocError, IllegalActionError
from hoc.games.heart_of_crown.replay import Teller, result_of, saved_data
from hoc.games.heart_of_crown.view import TABLE_VIEW, seat_view
from hoc.web.errors import Conflict, Refused

HUMAN = "human"
MAX_SEATS = 4


def _person(game):
    raise HocError("a human seat at the web table answers over HTTP")


def human_agent() -> Agent:
    return Agent(HUMAN, -1, "a person at the web table", no_params, _person)


def is_human(agent) -> bool:
    return agent.play is _person


@dataclass
class Setup:
    """What a new game is: its seats by name (`human` for a person), rules and seed."""

    agents: list[str]
    edition: str = "2e"
    market: str = "random"
    princesses: str | None = None
    seed: int = 0
    game: int = 0                   # the game's index in the run of `seed` (as `hoc simulate` numbers them)
    turn_cap: int = 100
    instant_win_at_30: bool = False

    def plan(self, resolve_agent):
        """The plan of game `game` of this setup; `resolve_agent(names)` turns agent names into agents
        (the server checks file paths before the registry reads them)."""
        from hoc.games.heart_of_crown.rules import from_options
        from hoc.research.harness import Plan

        names = [n.strip() for n in self.agents if n.strip()]
        if not 1 <= len(names) <= MAX_SEATS:
            raise Refused(f"name 1 to {MAX_SEATS} seats (agents or `{HUMAN}`), got {len(names)}")
        if not 0 <= self.game < 2 ** 63 or not 0 <= self.seed < 2 ** 63:
            raise Refused("seed and game must be 0 to 2**63 - 1")
        ruleset = from_options({"edition": self.edition, "players": len(names), "market": self.market,
                                "princesses": self.princesses, "turn_cap": self.turn_cap,
                                "instant_win_at_30": self.instant_win_at_30}, {})
        bots = iter(resolve_agent([n for n in names if n != HUMAN]))
        agents = [human_agent() if n == HUMAN else next(bots) for n in names]
        return Plan(ruleset, agents, self.game + 1, self.seed), self.game


class WebTable(Teller):
    """One game at the web table. The agents' decisions are taken on a worker (`think`, submitted by the
    server), each outside the game's lock on a copy of the game, so the game's state can be read while
    an agent thinks; the lock is held only to take a decision and tell it."""

    def __init__(self, plan, index: int = 0):
        humans = [q for q, k in enumerate(plan.seat_lineup(index)) if is_human(plan.agents[k])]
        super().__init__(plan, index, tuple(humans) + (TABLE_VIEW,))
        self.humans = humans
        self.lock = threading.Lock()
        self.settled = threading.Event()    # set while no agent is to think (cleared when a think is due)
        self.settled.set()
        self.stopped: str | None = None     # why the agents stopped before the game's end (a budget)
        self.queued = False                 # a worker has the agents' next decisions to take (`think`)
        self._answer: int | None = None
        self._closed = False
        self.begin()
        self._settle()

    def agents_to_play(self) -> bool:
        """An agent is to decide (call with the lock held)."""
        return self.stopped is None and self.ready() and self.game.decider not in self.humans

    def decide(self) -> int:
        if self._answer is not None:            # a human's answer, or an agent's taken on a copy (`think`)
            a, self._answer = self._answer, None
            return a
        return super().decide()

    def think(self, budget) -> None:
        """The agents play until a human seat is to decide or the game ends (on a worker). Each decision
        is taken on a copy of the game without the lock, then taken in the game with it: the copy's
        state (the agent's random draws and arena included) becomes the game's, exactly as if the agent
        had decided in the game itself. `budget` (`hoc.web.workers.Budget`): the CPU the agents may
        spend before they stop."""
        budget.begin()
        try:
            while True:
                with self.lock:
                    if not self.agents_to_play():
                        break
                    copy = self.game.clone()
                    p = copy.decider
                    agent, params = self.agents[p], self.plan.params[self.order[p]]
                a = agent.play(copy) if agent.play is not None else copy.decide(agent, params)
                with self.lock:
                    self.game.state = copy.state
                    self._answer = copy.parse(a) if isinstance(a, str) else int(a)
                    self.step()
                if budget.spent():
                    with self.lock:
                        if self.agents_to_play():
                            self.stopped = (f"the agents stopped: they thought for more than {budget.seconds:g} s of "
                                            f"CPU since the last human decision (the web table's bound), or the server "
                                            f"is stopping; `hoc play` has no such bound")
                    break
        except Exception as e:          # an agent that cannot play here: the game says so and waits no more
            with self.lock:
                self.stopped = f"the agents stopped: {e if isinstance(e, HocError) else type(e).__name__}"
        finally:
            with self.lock:
                self.queued = False
                self._settle()

    def _settle(self) -> None:
        """Close the telling once the game is over, and say whether an agent is still to think."""
        if self.game.over and not self._closed:
            self._closed = True
            self.close()
        if self.agents_to_play():
            self.settled.clear()
        else:
            self.settled.set()

    def act(self, action: int | str, seat: int | None = None, decisions: int | None = None) -> None:
        """Take a human seat's decision: `action` by id or label; `seat`, if given, must be the seat to
        decide; `decisions`, if given, the number of decisions the caller has seen (a stale page's
        click is refused, not taken at a later decision). The agents then think (`think`)."""
        self._may_act(seat, decisions)
        g = self.game
        if isinstance(action, str):
            try:
                action = g.parse(action.strip().lower())
            except IllegalActionError as e:
                raise Conflict(f"{e}; the legal actions are {', '.join(g.label(a) for a in g.legal_actions())}") \
                    from None
        if not g.is_legal(action):
            raise Conflict(f"action {action} is not legal now; the legal actions are "
                           + ", ".join(f"{int(a)} ({g.label(a)})" for a in g.legal_actions()))
        self._answer = int(action)
        self.step()
        self._settle()

    # ---- "play all": the plain cards of the hand played one by one, in one request
    def plain_plays(self) -> list:
        """The legal plays now if every one of them plays a plain card (`CardDB.plain`: it only adds its
        printed values and leaves a play open, so the order of such plays cannot matter), else []."""
        g, db = self.game, self.db
        if g.over or g.decider not in self.humans:
            return []
        plays = [a for a in g.legal_actions() if a.verb == "play"]
        if plays and all(db.plain(db.index(a.card)) for a in plays):
            return plays
        return []

    def play_all_offer(self) -> dict | None:
        """What "play all" would play now (at least two cards), or None: the cards and their words."""
        from hoc.games.heart_of_crown.view import entries

        plays = self.plain_plays()
        hand = self.game.hand(self.game.decider)
        zone = {a.card: hand[a.card] for a in plays}
        n = sum(zone.values())
        if n < 2:
            return None
        cards = entries(self.db, zone)
        return {"plays": int(n), "cards": cards, "text": "play all: " + ", ".join(c["label"] for c in cards)}

    def play_all(self, seat: int | None = None, decisions: int | None = None) -> int:
        """Play every plain card of the deciding seat's hand (`play_all_offer`), one decision at a time
        through the legal actions and `step`, exactly as that many clicks would; returns how many were
        played. Refused (409) when it is not offered."""
        self._may_act(seat, decisions)
        if self.play_all_offer() is None:
            raise Conflict("there is nothing to play all now: it is offered when every card the seat may play "
                           "is a plain one (only its printed values, a play left open), two or more of them")
        p, done = self.game.decider, 0
        while not self.game.over and self.game.decider == p and (plays := self.plain_plays()):
            self._answer = int(plays[0])
            self.step()
            self._settle()
            done += 1
        return done

    def _may_act(self, seat: int | None, decisions: int | None) -> None:
        """Whether a person may decide now (a Conflict saying why not)."""
        g = self.game
        if g.over:
            raise Conflict("the game is over")
        if self.stopped:
            raise Conflict(self.stopped)
        if decisions is not None and decisions != len(self.actions):
            raise Conflict(f"the game moved on: {len(self.actions)} decisions taken, the request saw {decisions}")
        if g.decider not in self.humans:
            raise Conflict(f"seat {g.decider} ({self.agents[g.decider].name}) is to decide, not a person: it is "
                           f"thinking")
        if seat is not None and seat != g.decider:
            raise Conflict(f"seat {seat} is not to decide now: seat {g.decider} is")

    def nbytes(self) -> int:
        """About what the game holds: its state and its logs (for the store's bound on all games)."""
        return int(self.game.state.nbytes) + 100 * sum(len(feed) for feed in self.feeds.values()) \
            + 8 * len(self.actions)

    def viewer(self, seat: int | None) -> int:
        """Whose view a request gets: a human seat (default: the one deciding, else the first), or the
        table as everyone sees it (-1). An agent's seat is never shown: its hand is hidden."""
        if seat is None:
            if self.game.over or not self.humans:
                return self.humans[0] if self.humans else TABLE_VIEW
            return self.game.decider if self.game.decider in self.humans else self.humans[0]
        if seat == TABLE_VIEW or seat in self.humans:
            return seat
        if 0 <= seat < self.game.players:
            raise Refused(f"seat {seat} is an agent's ({self.agents[seat].name}): its hand is not shown; "
                          f"the human seats are {self.humans or 'none'} (-1: the table)")
        raise Refused(f"no seat {seat}: the game has seats 0 to {self.game.players - 1}")

    def state(self, seat: int | None = None, since: int = 0) -> dict:
        """What a page shows: the view of `seat` (see `viewer`), its feed from line `since` on, and the
        result once the game is over."""
        v = self.viewer(seat)
        feed = self.feeds[v]
        if not 0 <= since <= len(feed):
            raise Refused(f"since must be 0 to {len(feed)} (the feed's lines), got {since}")
        thinking = None if self.settled.is_set() else self.game.decider
        offer = self.play_all_offer() if thinking is None and v == self.game.decider else None
        return {"seats": [{"seat": q, "agent": a.name, "human": q in self.humans} for q, a in enumerate(self.agents)],
                "humans": self.humans, "viewer": v, "view": seat_view(self, v), "feed": feed[since:],
                "feed_length": len(feed), "decisions": len(self.actions), "over": bool(self.game.over),
                "thinking": thinking, "stopped": self.stopped, "play_all": offer,
                "result": result_of(self.game) if self.game.over else None,
                "seed": self.plan.seed, "game": self.index, "rules": self.ruleset.describe()}

    def saved(self) -> dict:
        """The game so far as `hoc play --save` writes it (for `hoc replay FILE`)."""
        return saved_data(self)
