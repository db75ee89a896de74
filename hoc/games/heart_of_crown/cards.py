"""The card database: both editions' cards as data (hoc/games/heart_of_crown/data/cards.csv), compiled to the integer
table the kernels read, with user overrides of any numeric value."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources

import numpy as np
import pandas as pd

from hoc.engine import overrides
from hoc.errors import HocError
from hoc.names import did_you_mean, normal
from hoc.games.heart_of_crown.kernel import constants as K

EDITIONS = ("2e", "1e")
# other names players use for a card: the English edition prints Court Maid as "Royal Maid"
ALIASES = {"Royal Maid": "court_maid"}
NUMERIC = ("cost", "links", "coins", "sp", "copies", "per_player", "start1", "start2", "start3", "start4")
# the values an override may set, per field: far beyond any printed card, yet small enough that no
# count a game adds up (coins, SP, cards in a deck) outgrows the engine's integers
OVERRIDE_RANGE = {"cost": (0, 99), "links": (0, 99), "coins": (-99, 99), "sp": (-99, 99), "copies": (0, 99),
                  "per_player": (0, 1), "start1": (0, 99), "start2": (0, 99), "start3": (0, 99), "start4": (0, 99)}


@lru_cache(maxsize=None)
def _csv() -> pd.DataFrame:
    with resources.files("hoc.games.heart_of_crown").joinpath("data/cards.csv").open(encoding="utf-8") as f:
        df = pd.read_csv(f, dtype=str, keep_default_na=False)
    for col in NUMERIC:
        df[col] = df[col].astype(int)
    return df


def parse_override(text: str) -> tuple[str, str, int | str]:
    """'card.field=value' -> (card, field, value) (`hoc.engine.overrides`): an integer, or for `types`
    Heart of Crown's type names joined by '/' (`purveyor.types=territory`); no card is made a princess."""
    return overrides.parse_override(text, K.TYPE_BITS, not_given=("princess",))


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
        fields = sorted([*K.OVERRIDABLE, "per_player", "types"])
        for card, fld, value in self.overrides:
            shown = value.replace("|", "/") if isinstance(value, str) else value
            if card not in set(df.id):
                hint = did_you_mean(card, df.id, dict(zip(df.name_en, df.id)) | ALIASES)
                raise HocError(f"override {card}.{fld}={shown}: no card {card!r} in edition {self.edition}{hint}")
            if fld not in fields:
                raise HocError(f"override {card}.{fld}={shown}: {fld!r} is not a card field an override may set"
                               f"{did_you_mean(fld, fields)}; fields: {', '.join(fields)}")
            if fld == "types":
                # the types are data the kernels read (what can be played, moved to the domain, kept,
                # set, counted for SP); a princess's own type stays hers
                if "princess" in str(df.loc[df.id == card, "types"].iat[0]).split("|"):
                    raise HocError(f"override {card}.{fld}={shown}: a princess keeps her type")
            else:
                low, high = OVERRIDE_RANGE[fld]
                if not low <= value <= high:
                    raise HocError(f"override {card}.{fld}={value}: {fld} must be {low} to {high}")
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
            T[i, K.F_ON_BUY] = K.EFFECT_IDS[row.on_buy] if row.on_buy else 0
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
            raise HocError(f"unknown card {card!r} in edition {self.edition}{self.did_you_mean(card)}; "
                           f"see `hoc cards --edition {self.edition}`")
        return found.id

    def name(self, i: int) -> str:
        """The card's id ('court_maid'), as the kernels, agents and result columns name it."""
        return self.cards[i].name

    def did_you_mean(self, card: str) -> str:
        """A hint for a mistyped card id or English name, e.g. " (did you mean 'court_maid'?)"."""
        return did_you_mean(card, self.frame.id, self._names())

    def _names(self) -> dict[str, str]:
        """English names and aliases -> ids."""
        return dict(zip(self.frame.name_en, self.frame.id)) | ALIASES

    def lookup(self, card: str) -> int:
        """A card by its id or its English name, in any case ('Farming Village', 'farming_village')."""
        names = {normal(n): c for n, c in self._names().items()} | {normal(c): c for c in self.frame.id}
        hit = names.get(normal(card))
        return self.index(hit if hit is not None else card)

    # ---- how a player reads a card ------------------------------------------------------------
    def english(self, i: int) -> str:
        """The card's English name as printed: 'Farming Village'."""
        return self._english[i]

    @cached_property
    def _english(self) -> tuple[str, ...]:
        """The English names by id (a replay names cards thousands of times: a pandas look-up each
        time was most of its cost)."""
        return tuple(self.frame.name_en)

    def text(self, card: str | int) -> str:
        """The card's English text ('' for a card without text), by id, English name or index."""
        i = card if isinstance(card, (int, np.integer)) else self.lookup(card)
        return self.frame.text_en.iat[int(i)]

    def plural(self, i: int) -> str:
        """The English name of several copies: 'Farming Villages', 'Court Maids', 'Lain & Shion'."""
        name = self.english(i)
        if self.cards[i].category == "princess":
            return name
        if name.endswith("y") and not name.endswith(("ey", "ay", "oy")):
            return name[:-1] + "ies"
        if name.endswith("yman"):                # Handyman; not Talisman
            return name[:-3] + "men"
        if name.endswith(("s", "sh", "ch", "x")):
            return name + "es"
        return name + "s"

    def count(self, i: int, n: int) -> str:
        """'a City', '3 Court Maids', 'an Alchemist'."""
        if n == 1:
            name = self.english(i)
            return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"
        return f"{n} {self.plural(i)}"

    def summary(self, i: int) -> str:
        """The printed values in one phrase: 'Action/Attack (Military), cost 4, 0 links, 2 coins'."""
        row = self.frame.iloc[i]
        types = "/".join(t.capitalize() for t in row["types"].split("|") if t)
        if row.subtypes:
            types += " (" + ", ".join(t.capitalize() for t in row.subtypes.split("|")) + ")"
        return ", ".join([types, f"cost {row.cost}", *(v["text"] for v in self.values(i))])

    def values(self, i: int) -> list[dict]:
        """The printed values a card shows besides its cost, each with its words: links (Territories and
        Actions), coins (when it has some), SP (when it has some, or is a Succession card)."""
        row = self.frame.iloc[i]
        out = []
        if "territory" in row["types"] or "action" in row["types"]:
            out.append({"what": "links", "n": int(row.links), "text": f"{row.links} link{'s' if row.links != 1 else ''}"})
        if row.coins:
            out.append({"what": "coins", "n": int(row.coins), "text": f"{row.coins} coin{'s' if row.coins != 1 else ''}"})
        if row.sp or "succession" in row["types"]:
            out.append({"what": "sp", "n": int(row.sp), "text": f"{row.sp} SP"})
        return out

    def face(self, i: int) -> dict:
        """What a card drawn as a card shows: its types in the data's order (the first is its colour),
        its cost, its printed values (`values`), its text, the values in one phrase and where it comes
        from."""
        c = self.cards[i]
        return {"types": [t for t in self.frame["types"].iat[i].split("|") if t], "cost": c.cost,
                "values": self.values(i), "rules": self.text(i), "summary": self.summary(i), "supply": self.supply(i)}

    def plain(self, i: int) -> bool:
        """Whether playing the card only adds its printed values and leaves a play open: a Territory (no
        Action) with no text routine and at least one link. Playing several such cards in any order
        ends in the same state (the web table's "play all Territories")."""
        c = self.cards[i]
        return ("territory" in c.types and "action" not in c.types and "attack" not in c.types
                and not self.frame.effect.iat[i] and c.links >= 1)

    def supply(self, i: int) -> str:
        """Where the card comes from: 'basic market 16; starting decks 7/6/5/4 (seats 0-3)'."""
        row = self.frame.iloc[i]
        where = []
        if row.category == "rare":
            where.append("rare: 1 copy in the supply")
        elif row.category == "common":
            where.append(f"supply: 1 copy in the {row.pile} pile of 5" if row.pile != row.id
                         else f"supply: {row.copies} copies")
        elif row.category == "basic":
            pile = f"{row.copies} per player" if row.per_player else str(row.copies)
            where.append("not sold" if not row.copies else
                         f"a pile of {pile}, gained but never bought" if "not_in_market" in row["flags"] else
                         f"basic market {pile}")
        starts = [int(row[f"start{seat + 1}"]) for seat in range(4)]
        if len(set(starts)) > 1:
            where.append(f"starting decks {'/'.join(map(str, starts))} (seats 0-3)")
        elif starts[0]:
            where.append(f"{starts[0]} in every starting deck")
        if not self.frame.implemented.iat[i]:
            where.append("not implemented yet")
        return "; ".join(where)

    def sheet(self, card: str | int, width: int = 100) -> str:
        """A card as a player reads it, wrapped to `width` columns: its name and id, its printed
        values, where it comes from, and its text."""
        import textwrap

        i = card if isinstance(card, (int, np.integer)) else self.lookup(card)
        head = f"{self.english(i)} [{self.name(i)}]: {self.summary(i)}"
        wrap = textwrap.TextWrapper(width, initial_indent="    ", subsequent_indent="    ", break_on_hyphens=False)
        lines = textwrap.wrap(head, width, subsequent_indent="    ", break_on_hyphens=False)
        lines += wrap.wrap(self.text(i) or "No text.")
        if self.supply(i):
            lines += wrap.wrap(f"({self.supply(i)})")
        return "\n".join(lines)

    @cached_property
    def kinds(self) -> list[str]:
        """Each card's market kind (its pile's name), by card id."""
        return [str(p) for p in self.frame.pile]

    def pile_ids(self, category: str) -> list[str]:
        return list(dict.fromkeys(self.frame.pile[self.frame.category == category]))

    def cards_of_pile(self, pile: str) -> list[int]:
        return list(np.flatnonzero(self.frame.pile.values == pile))

    def unimplemented(self, cards) -> list[str]:
        return [self.name(i) for i in cards if not self.frame.implemented.iat[i]]
