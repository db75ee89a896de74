"""Dominion's card database: the base set's cards as data (hoc/games/dominion/data/cards.csv),
compiled to the integer table the kernels read, with user overrides of any numeric value."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources

import numpy as np
import pandas as pd

from hoc.errors import HocError
from hoc.games.dominion.kernel import constants as K
from hoc.names import did_you_mean

NUMERIC = ("cost", "coins", "vp", "vp_per_10", "cards", "actions", "buys", "copies", "start", "kingdom")
OVERRIDE_RANGE = {"cost": (0, 99), "coins": (-9, 99), "vp": (-99, 99), "cards": (0, 20), "actions": (0, 20),
                  "buys": (0, 20), "copies": (0, 99), "start": (0, 20)}


@lru_cache(maxsize=None)
def _csv() -> pd.DataFrame:
    with resources.files("hoc.games.dominion").joinpath("data/cards.csv").open(encoding="utf-8") as f:
        df = pd.read_csv(f, dtype=str, keep_default_na=False)
    for col in NUMERIC:
        df[col] = df[col].astype(int)
    return df


@dataclass(frozen=True)
class Card:
    """One card's facts as this run plays them (overrides applied)."""

    id: int
    name: str
    cost: int
    coins: int
    vp: int
    types: frozenset[str]
    kingdom: bool


@dataclass(frozen=True)
class CardDB:
    """The base set's cards, ids in CSV order, with overrides (card, field, value) applied."""

    overrides: tuple[tuple[str, str, int], ...] = ()
    edition: str = "base2"
    frame: pd.DataFrame = field(init=False, repr=False, compare=False)
    table: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        df = _csv().copy()
        for card, fld, value in self.overrides:
            if card not in set(df.id):
                raise HocError(f"override {card}.{fld}={value}: no Dominion card {card!r}"
                               f"{did_you_mean(card, df.id, dict(zip(df.name, df.id)))}")
            if fld not in K.OVERRIDABLE:
                raise HocError(f"override {card}.{fld}={value}: {fld!r} is not a numeric card field"
                               f"{did_you_mean(fld, K.OVERRIDABLE)}; fields: {', '.join(K.OVERRIDABLE)}")
            low, high = OVERRIDE_RANGE[fld]
            if not low <= value <= high:
                raise HocError(f"override {card}.{fld}={value}: {fld} must be {low} to {high}")
            df.loc[df.id == card, fld] = value
        object.__setattr__(self, "frame", df)
        object.__setattr__(self, "table", self._compile(df))

    @staticmethod
    def _compile(df: pd.DataFrame) -> np.ndarray:
        T = np.zeros((len(df), K.N_FIELDS), K.DTYPE)
        for i, row in df.iterrows():
            T[i, K.F_COST] = row.cost
            T[i, K.F_TYPES] = sum(K.TYPE_BITS[t] for t in row["types"].split("|") if t)
            T[i, K.F_COINS] = row.coins
            T[i, K.F_VP] = row.vp
            T[i, K.F_VP_PER_10] = row.vp_per_10
            T[i, K.F_CARDS] = row.cards
            T[i, K.F_ACTIONS] = row.actions
            T[i, K.F_BUYS] = row.buys
            T[i, K.F_EFFECT] = K.EFFECT_IDS[row.effect] if row.effect else 0
            T[i, K.F_PILE] = K.PILES[row.pile]
            T[i, K.F_COPIES] = row.copies
            T[i, K.F_START] = row.start
            T[i, K.F_KINGDOM] = row.kingdom
            T[i, K.F_REACTION] = K.REACTIONS[row.reaction]
        return T

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        return tuple(Card(i, r.id, int(r.cost), int(r.coins), int(r.vp), frozenset(t for t in r.types.split("|") if t),
                          bool(r.kingdom)) for i, r in enumerate(self.frame.itertuples()))

    @property
    def ids(self) -> list[str]:
        return list(self.frame.id)

    def __len__(self) -> int:
        return len(self.frame)

    def __getitem__(self, card: str | int) -> Card:
        return self.cards[card if isinstance(card, int) else self.index(card)]

    def index(self, card: str) -> int:
        ids = self.ids
        if card not in ids:
            raise HocError(f"unknown Dominion card {card!r}{self.did_you_mean(card)}")
        return ids.index(card)

    def did_you_mean(self, card: str) -> str:
        return did_you_mean(card, self.ids, dict(zip(self.frame.name, self.frame.id)))

    def lookup(self, card: str) -> int:
        """A card id from its id or printed name (any case, spaces or underscores)."""
        key = card.strip().lower().replace(" ", "_").replace("-", "_")
        return self.index(key)

    def name(self, i: int) -> str:
        return self.frame.id.iat[i]

    def english(self, i: int) -> str:
        return self.frame.name.iat[i]

    def text(self, card: str | int) -> str:
        return self.frame.text.iat[card if isinstance(card, int) else self.index(card)]

    @property
    def kinds(self) -> list[str]:
        """Each card's supply kind (its own pile), by card id."""
        return self.ids

    @property
    def kingdom(self) -> list[str]:
        """The kingdom cards, in id order."""
        return list(self.frame.id[self.frame.kingdom == 1])

    def values(self, i: int) -> list[dict]:
        """The printed values a card shows besides its cost, each with its words ('+2 Cards', '2 coins',
        '3 VP'), those it has."""
        r = self.frame.iloc[i]
        out = [{"what": what, "n": int(r[what]), "text": text.format(n=int(r[what]), s="s" if int(r[what]) != 1 else "")}
               for what, text in (("cards", "+{n} Card{s}"), ("actions", "+{n} Action{s}"), ("buys", "+{n} Buy{s}"),
                                  ("coins", "{n} coin{s}"), ("vp", "{n} VP")) if int(r[what])]
        if r.vp_per_10:
            out.append({"what": "vp", "n": int(r.vp_per_10), "text": f"{r.vp_per_10} VP per 10 cards"})
        return out

    def face(self, i: int) -> dict:
        """What a card drawn as a card shows: its types in the data's order (the first is its colour),
        its cost, its printed values (`values`) and its text."""
        r = self.frame.iloc[i]
        types = [t for t in r["types"].split("|") if t]
        return {"types": types, "cost": int(r.cost), "values": self.values(i), "rules": r.text,
                "summary": ", ".join(["/".join(t.capitalize() for t in types), f"cost {r.cost}",
                                      *(v["text"] for v in self.values(i))]), "supply": ""}

    def plain(self, i: int) -> bool:
        """Whether playing the card only adds its printed coins: a Treasure (no Action) with no text
        routine. Playing several such cards in any order ends in the same state."""
        c = self.cards[i]
        return "treasure" in c.types and "action" not in c.types and not self.frame.effect.iat[i]

    def sheet(self, card: str | int) -> str:
        i = card if isinstance(card, int) else self.index(card)
        r = self.frame.iloc[i]
        return f"{r['name']} ({r.types.replace('|', ', ')}; cost {r.cost}): {r.text}"
