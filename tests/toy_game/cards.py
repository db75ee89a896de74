"""Toy's cards as a Python table, compiled to the integer card table the kernels read; overrides
(`--override silver.cost=4`) change a number of a card for a run."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from hoc.errors import HocError
from hoc.names import did_you_mean
from toy_game.kernel import constants as K

# id, name, types, cost, coins, vp, draw, actions, copies, per player, start, kingdom, text
CARDS = (
    ("copper", "Copper", "treasure", 0, 1, 0, 0, 0, 30, 0, 7, 0, "+1 coin"),
    ("silver", "Silver", "treasure", 3, 2, 0, 0, 0, 20, 0, 0, 0, "+2 coins"),
    ("estate", "Estate", "victory", 2, 0, 1, 0, 0, 4, 2, 3, 0, "1 VP"),
    ("duchy", "Duchy", "victory", 5, 0, 3, 0, 0, 2, 2, 0, 0, "3 VP; the game ends when the Duchies run out"),
    ("lab", "Lab", "action", 4, 0, 0, 2, 0, 8, 0, 0, 1, "+2 cards"),
    ("bazaar", "Bazaar", "action", 5, 1, 0, 1, 1, 8, 0, 0, 1, "+1 card, +1 action, +1 coin"),
)
FIELDS = ("cost", "coins", "vp", "draw", "actions", "copies", "per_player", "start")
COLUMN = {"cost": K.F_COST, "coins": K.F_COINS, "vp": K.F_VP, "draw": K.F_DRAW, "actions": K.F_ACTIONS,
          "copies": K.F_COPIES, "per_player": K.F_PER_PLAYER, "start": K.F_START}


@dataclass(frozen=True)
class Card:
    id: int
    name: str
    title: str
    types: frozenset
    cost: int
    coins: int
    vp: int
    kingdom: bool
    text: str


@dataclass(frozen=True)
class CardDB:
    """Toy's cards, ids in table order, with overrides (card, field, value) applied."""

    overrides: tuple = ()
    table: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        rows = [list(r) for r in CARDS]
        ids = [r[0] for r in rows]
        for name, fld, value in self.overrides:
            if name not in ids:
                raise HocError(f"override {name}.{fld}={value}: no Toy card {name!r}{did_you_mean(name, ids)}")
            if fld not in FIELDS:
                raise HocError(f"override {name}.{fld}={value}: {fld!r} is not a numeric card field; fields: "
                               f"{', '.join(FIELDS)}")
            if not 0 <= value <= 99:
                raise HocError(f"override {name}.{fld}={value}: the value must be 0 to 99")
            rows[ids.index(name)][3 + FIELDS.index(fld)] = value
        object.__setattr__(self, "_rows", tuple(tuple(r) for r in rows))
        T = np.zeros((len(rows), K.N_FIELDS), K.DTYPE)
        for i, r in enumerate(rows):
            T[i, K.F_TYPES] = sum(K.TYPE_BITS[t] for t in r[2].split("|"))
            for j, f in enumerate(FIELDS):
                T[i, COLUMN[f]] = r[3 + j]
            T[i, K.F_KINGDOM] = r[11]
        object.__setattr__(self, "table", T)

    @cached_property
    def cards(self) -> tuple:
        return tuple(Card(i, r[0], r[1], frozenset(r[2].split("|")), r[3], r[4], r[5], bool(r[11]), r[12])
                     for i, r in enumerate(self._rows))

    @property
    def ids(self) -> list[str]:
        return [r[0] for r in self._rows]

    @property
    def kinds(self) -> list[str]:
        """Each card's supply kind (its own pile), by id: what a result's market column names."""
        return self.ids

    @property
    def kingdom(self) -> list[str]:
        return [c.name for c in self.cards if c.kingdom]

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, card):
        return self.cards[card if isinstance(card, int) else self.index(card)]

    def index(self, card: str) -> int:
        if card not in self.ids:
            raise HocError(f"unknown Toy card {card!r}{did_you_mean(card, self.ids)}")
        return self.ids.index(card)

    def lookup(self, card: str) -> int:
        return self.index(card.strip().lower())

    def name(self, i: int) -> str:
        return self._rows[i][0]

    def sheet(self, card) -> str:
        c = self[card]
        return f"{c.title} ({', '.join(sorted(c.types))}; cost {c.cost}): {c.text}"

    def records(self) -> list[dict]:
        keys = ("id", "name", "types", *FIELDS[:5], "copies", "per_player", "start", "kingdom", "text")
        return [dict(zip(keys, r)) for r in self._rows]
