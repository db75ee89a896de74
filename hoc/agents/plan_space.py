"""What the atlas needs of a game: its plan space (`GameSpec.atlas` names it) and the descriptors a
plan's games are measured by.

A game's space (`Space`) decodes a vector of numbers within its bounds into a plan of the game's
agent format: a parameter row the jitted loops play and an agent file every command plays by path.
Its descriptors (`Descriptor`) each reduce one game of a plan (`Profile`: the plan's seat at the end
of the game) to a number; a plan's descriptor is the mean over its games.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

import numpy as np


@dataclass(frozen=True)
class Profile:
    """A plan's games as its seat ended them: per game, the copies of each card id owned (`copies`,
    games x cards), the seat's own turns, its score and the game's two extras of the seat
    (`extras`, games x 2; e.g. Heart of Crown's princess and backing turn)."""

    copies: np.ndarray
    own_turns: np.ndarray
    score: np.ndarray
    extras: np.ndarray


@dataclass(frozen=True)
class Descriptor:
    """A measure of a plan's games: `measure(profile)` is one value per game, kept within
    [low, high] (the archive's range on this axis); `title` labels the heat map's axis, `why` says
    what the measure separates (the docs and `hoc atlas --help` show it)."""

    name: str
    title: str
    low: float
    high: float
    measure: Callable[[Profile], np.ndarray]
    why: str = ""

    def of(self, profile: Profile) -> float:
        return float(np.clip(np.mean(self.measure(profile)), self.low, self.high))


def share_of(cards) -> Callable[[Profile], np.ndarray]:
    """Per game, the share of the deck made of the card ids `cards`."""
    ids = np.asarray(list(cards), np.int64)

    def measure(p: Profile) -> np.ndarray:
        total = p.copies.sum(1)
        return p.copies[:, ids].sum(1) / np.maximum(total, 1)
    return measure


def deck_size(p: Profile) -> np.ndarray:
    """Per game, the cards the seat owned at the end."""
    return p.copies.sum(1).astype(float)


def own_turns(p: Profile) -> np.ndarray:
    """Per game, the seat's own turns (how long the game lasted for it)."""
    return p.own_turns.astype(float)


class Space(Protocol):
    """A game's plan space for one ruleset (`GameSpec.atlas` names its class: `Space(ruleset)`)."""

    ruleset: object
    lower: np.ndarray                   # the bounds of every coordinate (a point outside reads as clipped)
    upper: np.ndarray
    descriptors: dict                   # name -> Descriptor, the measures a user may pick
    default_descriptors: tuple          # the two the atlas maps unless told
    kinds: dict                         # market kind -> its card ids (the `owns_<kind>` columns)

    def panel(self) -> list[str]: ...           # the reference panel's agent names unless told
    def starts(self) -> list[np.ndarray]: ...   # points the emitters start from, the best guess first
    def row(self, x: np.ndarray) -> tuple[int, np.ndarray]: ...   # (agent id, parameter row) of plan x
    def text(self, x: np.ndarray, header: str) -> str: ...        # plan x as an agent file


def ranked(x, cards: int, per_card: int, priority: int = 0, gate: int = 1, barred=frozenset()):
    """The cards a point buys, best first: (card index, its genes) for each card whose gate gene is at
    least 1/2 and that is not `barred`, ordered by its priority gene (the common layout of the games'
    spaces: `per_card` genes a card, clipped to [0, 1], from the start of the point)."""
    genes = np.clip(np.asarray(x, float)[:per_card * cards], 0.0, 1.0).reshape(cards, per_card)
    return [(int(c), genes[c]) for c in np.argsort(-genes[:, priority], kind="stable")
            if genes[c, gate] >= 0.5 and int(c) not in barred]


class Layout:
    """What the games' spaces share (`ranked`'s layout): `cards` (the names a point may buy, in gene
    order), `per_card` genes a card with its `priority` and `gate` genes, and the cards never bought
    (`barred`, card indices: a space without some kinds, `without`)."""

    cards: tuple
    per_card: int
    priority: int = 0
    gate: int = 1
    cap: tuple[int, float] | None = None     # (gene, value) of a cap of two copies, for `favouring`
    first: int | None = None                 # the gene that plays a card before the others, if the space has one
    barred: frozenset = frozenset()
    # how the space's points play: raised when the same point comes to play otherwise, so the searches
    # saved before (an atlas's checkpoint, a combo screen, a market baseline) are not mixed with new ones
    revision: int = 1
    # copies of a kind that a deck built on it owns by default (`hoc combos --copies`): the least at
    # which the game's combos show in a deck committed to them (the game's space says why)
    committed: float = 1.0

    def slots(self, kinds) -> list[int]:
        """The indices in `cards` of the kinds' cards."""
        names = {self.ruleset.cards.name(c) for k in kinds for c in self.kinds[k]}
        return [i for i, n in enumerate(self.cards) if n in names]

    def free(self) -> np.ndarray:
        """The coordinates that decide a plan here: every gene but those of the barred cards (which no
        plan of this space buys), so a search spends nothing on them."""
        mask = np.ones(len(self.lower), bool)
        for c in self.barred:
            mask[c * self.per_card:(c + 1) * self.per_card] = False
        return np.flatnonzero(mask)

    def thinking(self):
        """This space with its plans played by the game's turn planner, where it has one."""
        from hoc.errors import HocError

        raise HocError(f"{self.ruleset.game.title}'s plans have no turn planner to play them with")

    def without(self, kinds):
        """This space with the kinds' cards never bought (a deck that may not use them)."""
        import copy

        other = copy.copy(self)
        other.barred = frozenset(self.barred) | frozenset(self.slots(kinds))
        return other

    def moved(self, x: np.ndarray, source) -> np.ndarray:
        """Point x of `source`, a space of the same game and rules over another market, as a point of
        this space: each card's genes by the card's name, the genes after the cards' as they are, and a
        card `source` lacks never bought (its gate off). A plan of cards both markets offer reads the
        same in both, so a deck searched once plays in every market that offers its cards."""
        x = np.asarray(x, float)
        mine, theirs = self.per_card * len(self.cards), self.per_card * len(source.cards)
        if len(x) - theirs != len(self.lower) - mine:
            raise ValueError("the two spaces differ beyond their cards")
        y = np.empty(len(self.lower))
        y[mine:] = x[theirs:]
        per = y[:mine].reshape(len(self.cards), self.per_card)
        per[:] = 0.0                    # the gate below 1/2: not bought
        at = {name: i for i, name in enumerate(source.cards)}
        for i, name in enumerate(self.cards):
            if name in at:
                per[i] = x[at[name] * self.per_card:(at[name] + 1) * self.per_card]
        return y

    def favouring(self, x: np.ndarray, kinds) -> np.ndarray:
        """Point x changed to buy two copies of each of the kinds' cards whenever they are the dearest it
        would take (gate on, the space's cap of two, played first where the space says so, and priority
        just above the highest-ranked card it buys that costs no more, or no more than its cheapest):
        a start for a search of decks built around them, which then finds how many, how early and
        before what. Ranked just above the lowest card bought instead, a card was never reached
        wherever a cheaper card ranked above the lowest (a list that buys a card costing 3 before its
        last resort at 2 never bought a favoured card costing 4, and the start was the guess again)."""
        x = np.array(x, float)
        per = x[:self.per_card * len(self.cards)].reshape(len(self.cards), self.per_card)
        slots = self.slots(kinds)
        cost = self._costs()
        bought = [(float(np.clip(per[c, self.priority], 0, 1)), cost[c]) for c in range(len(self.cards))
                  if per[c, self.gate] >= 0.5 and c not in self.barred and c not in slots]
        cheapest = min((c for _, c in bought), default=0)
        for k, i in enumerate(slots):
            # a card cheaper than all the plan buys takes the place of the cheapest (never bought else)
            lo = max((p for p, c in bought if c <= max(cost[i], cheapest)), default=0.0)
            hi = min((p for p, _ in bought if p > lo), default=1.0)
            per[i, self.gate] = 0.75
            per[i, self.priority] = lo + (hi - lo) * (k + 1) / (len(slots) + 1)
            if self.cap is not None:
                per[i, self.cap[0]] = self.cap[1]
            if self.first is not None:
                per[i, self.first] = 0.75
        return x

    def _costs(self) -> list[int]:
        """The cost of each card of `cards`."""
        db = self.ruleset.cards
        return [db.cards[db.index(name)].cost for name in self.cards]

    def rushing(self, x: np.ndarray, kinds) -> np.ndarray:
        """Point x changed to buy the kinds' cards before anything else and without a cap (gate on,
        priority at the top, the cap gene at 1, none in every space, played first where the space
        says so): a start for a deck that is mostly the kinds (a rush of a gainer and the card it
        gains, or a chain of Actions), which the search then trims."""
        x = np.array(x, float)
        per = x[:self.per_card * len(self.cards)].reshape(len(self.cards), self.per_card)
        per[:, self.priority] = 0.9 * np.clip(per[:, self.priority], 0, 1)     # the others below, in order
        for k, i in enumerate(self.slots(kinds)):
            per[i, self.gate] = 0.75
            per[i, self.priority] = 1.0 - 0.01 * k
            if self.cap is not None:
                per[i, self.cap[0]] = 1.0
            if self.first is not None:
                per[i, self.first] = 0.75
        return x


OWNS = "owns:"        # the measure `owns:KIND`: copies of a market kind's cards at the end, 0 to MAX_OWNED
MAX_OWNED = 5.0
OWNER = 0.5           # mean copies at the end from which a deck owns the kind: the two sides of an `owns:` map
                      # (a kind's archetype value, `hoc.research.atlas.value`; the atlas's polish)


def descriptor(space, name: str) -> Descriptor:
    """A measure by name: one of the space's own, or `owns:KIND` for any kind of its markets (the
    atlas of decks by how much of one kind they own: the deck built around it and the best without)."""
    from hoc.errors import HocError

    if name.startswith(OWNS):
        kind = name[len(OWNS):]
        if kind not in space.kinds:
            from hoc.names import did_you_mean

            raise HocError(f"--descriptors {name}: {kind!r} is not a kind of these markets"
                           f"{did_you_mean(kind, list(space.kinds))}")
        cards = np.asarray(space.kinds[kind], np.int64)
        return Descriptor(name, f"copies of {kind} at the end", 0.0, MAX_OWNED,
                          lambda p: p.copies[:, cards].sum(1).astype(float),
                          f"decks built around {kind} against decks without it")
    if name not in space.descriptors:
        raise HocError(f"--descriptors: {name!r} is not a measure of {space.ruleset.game.title} "
                       f"({', '.join(space.descriptors)}, or owns:KIND)")
    return space.descriptors[name]


def revision(game) -> dict:
    """What a saved search records of how the game's (its `GameSpec`'s) plans play: {"plans": N} from
    the space's second revision on; nothing before, so what was saved before revisions existed
    still resumes."""
    from hoc.engine.spec import _named

    n = _named(game.atlas).revision if game.atlas else 1
    return {"plans": n} if n != 1 else {}


def committed(game) -> float:
    """The copies of a kind a deck built on it owns by default in the game (its `GameSpec`'s space's
    `committed`), read from the class: a space of a random market is not built."""
    from hoc.engine.spec import _named

    return float(_named(game.atlas).committed)


def space_of(ruleset):
    """The plan space of the ruleset's game, or one line saying the game has no atlas."""
    from hoc.errors import HocError
    from hoc.engine.spec import _named

    game = ruleset.game
    if not game.atlas:
        raise HocError(f"{game.title} has no strategy atlas (its GameSpec names no plan space)")
    return _named(game.atlas)(ruleset)
