"""The card database: both editions' cards as data (hoc/data/cards.csv), compiled to the integer
table the kernels read, with user overrides of any numeric value."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources

import numpy as np
import pandas as pd

from hoc.errors import HocError
from hoc.kernel import constants as K

EDITIONS = ("2e", "1e")
NUMERIC = ("cost", "links", "coins", "sp", "copies", "per_player", "start1", "start2", "start3", "start4")


@lru_cache(maxsize=None)
def _csv() -> pd.DataFrame:
    with resources.files("hoc").joinpath("data/cards.csv").open(encoding="utf-8") as f:
        df = pd.read_csv(f, dtype=str, keep_default_na=False)
    for col in NUMERIC:
        df[col] = df[col].astype(int)
    return df


def parse_override(text: str) -> tuple[str, str, int]:
    """'card.field=value' -> (card, field, value), with a clear error for anything else."""
    try:
        target, value = text.split("=", 1)
        card, fld = target.strip().split(".", 1)
    except ValueError:
        raise HocError(f"bad override {text!r}: expected CARD.FIELD=VALUE, e.g. duke.cost=7") from None
    try:
        number = int(value.strip())
    except ValueError:
        raise HocError(f"bad override {text!r}: value {value.strip()!r} is not an integer") from None
    return card.strip(), fld.strip(), number


@dataclass(frozen=True)
class Card:
    """One card's facts as this run plays them (overrides applied): what an agent reads to choose."""

    id: int
    name: str
    cost: int
    links: int
    coins: int
    sp: int
    types: frozenset[str]       # "territory", "action", "succession", ...
    subtypes: frozenset[str]    # "maid", "military", ...
    category: str               # "princess", "basic", "common" or "rare"
    pile: str                   # its market kind (the five Attendant Maids share one)


@dataclass(frozen=True)
class CardDB:
    """One edition's cards, ids in CSV order, with overrides applied."""

    edition: str = "2e"
    overrides: tuple[tuple[str, str, int], ...] = ()
    frame: pd.DataFrame = field(init=False, repr=False, compare=False)
    table: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if self.edition not in EDITIONS:
            raise HocError(f"unknown edition {self.edition!r}; choose one of {', '.join(EDITIONS)}")
        df = _csv()
        df = df[df.edition == self.edition].reset_index(drop=True).copy()
        if len(df) > K.NCMAX:
            raise HocError(f"edition {self.edition} has {len(df)} cards; the action space holds {K.NCMAX}")
        for card, fld, value in self.overrides:
            if card not in set(df.id):
                raise HocError(f"override {card}.{fld}={value}: no card {card!r} in edition {self.edition}")
            if fld not in K.OVERRIDABLE and fld != "per_player":
                raise HocError(f"override {card}.{fld}={value}: {fld!r} is not a numeric card field; "
                               f"fields: {', '.join(sorted(K.OVERRIDABLE))}")
            if value < 0 and fld not in ("sp", "coins"):
                raise HocError(f"override {card}.{fld}={value}: {fld} cannot be negative")
            df.loc[df.id == card, fld] = value
        df["implemented"] = [e == "" or e in K.EFFECT_IDS for e in df.effect]
        object.__setattr__(self, "frame", df)
        object.__setattr__(self, "table", self._compile(df))

    @staticmethod
    def _compile(df: pd.DataFrame) -> np.ndarray:
        piles = {p: i for i, p in enumerate(dict.fromkeys(df.pile))}
        T = np.zeros((len(df), K.N_FIELDS), K.DTYPE)
        for i, row in df.iterrows():
            T[i, K.F_COST] = row.cost
            T[i, K.F_LINKS] = row.links
            T[i, K.F_COINS] = row.coins
            T[i, K.F_SP] = row.sp
            T[i, K.F_TYPES] = sum(K.TYPE_BITS[t] for t in row["types"].split("|") if t)
            T[i, K.F_SUB] = sum(K.SUBTYPE_BITS[t] for t in row.subtypes.split("|") if t)
            T[i, K.F_PILE] = piles[row.pile]
            T[i, K.F_CAT] = K.CATEGORIES[row.category]
            T[i, K.F_EFFECT] = K.EFFECT_IDS.get(row.effect, 0)
            if T[i, K.F_EFFECT]:
                T[i, K.F_TRIGGERS] = K.EFFECT_TRIGGERS.get(T[i, K.F_EFFECT], 1 << K.TRIG_PLAY)
            T[i, K.F_FLAGS] = sum(K.FLAG_BITS[f] for f in row["flags"].split("|") if f)
            T[i, K.F_COPIES] = row.copies
            T[i, K.F_PER_PLAYER] = row.per_player
            for seat in range(4):
                T[i, K.F_START + seat] = row[f"start{seat + 1}"]
        return T

    # ---- look-ups (plain Python containers built once: agents call them at every decision) -----
    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """Every card's facts, by id."""
        return tuple(Card(i, row.id, int(row.cost), int(row.links), int(row.coins), int(row.sp),
                          frozenset(t for t in row.types.split("|") if t),
                          frozenset(t for t in row.subtypes.split("|") if t), row.category, row.pile)
                     for i, row in enumerate(self.frame.itertuples(index=False)))

    @cached_property
    def _by_key(self) -> dict[str | int, Card]:
        """Every card by name and by id (names are strings, ids ints: the keys never collide)."""
        return {**{c.name: c for c in self.cards}, **{c.id: c for c in self.cards}}

    @property
    def ids(self) -> list[str]:
        return [c.name for c in self.cards]

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, card: str | int) -> Card:
        """A card's facts by name or id: `cards["duke"].sp`, `"territory" in cards[c].types`."""
        found = self._by_key.get(card)
        return found if found is not None else self.cards[self.index(card)]

    def index(self, card: str) -> int:
        found = self._by_key.get(card) if isinstance(card, str) else None
        if found is None:
            raise HocError(f"unknown card {card!r} in edition {self.edition}; "
                           f"see `hoc cards --edition {self.edition}`")
        return found.id

    def name(self, i: int) -> str:
        return self.cards[i].name

    def pile_ids(self, category: str) -> list[str]:
        return list(dict.fromkeys(self.frame.pile[self.frame.category == category]))

    def cards_of_pile(self, pile: str) -> list[int]:
        return list(np.flatnonzero(self.frame.pile.values == pile))

    def unimplemented(self, cards) -> list[str]:
        return [self.name(i) for i in cards if not self.frame.implemented.iat[i]]
