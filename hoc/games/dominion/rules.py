"""A Dominion ruleset: player count, kingdom, options and card overrides, compiled to the integer
vector R the kernels read."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from hoc.engine.overrides import parse_override
from hoc.errors import HocError
from hoc.games.dominion.cards import CardDB
from hoc.games.dominion.kernel import constants as K
from hoc.games.dominion.kingdoms import RECOMMENDED
from hoc.names import did_you_mean

MAX_PLAYERS = 4
MAX_TURN_CAP = 1000


@dataclass(frozen=True)
class Ruleset:
    """Everything that fixes a Dominion game but its seed and its players' choices.

    market: the kingdom: "random" (10 kingdom cards drawn per game), a recommended kingdom's name
    (`hoc.games.dominion.kingdoms.RECOMMENDED`, e.g. "first_game"), or 10 card ids (a sequence or
    comma-separated). players 1 is solo mode: the game ends when the player has bought
    `solo_provinces` Provinces (or by the usual end). last_province_guard: the bots never buy a
    last Province that would leave them losing (as the established simulators' bots do); it is
    recorded with the results. turn_cap: turns per player before a game stops without a winner.
    """

    players: int = 2
    market: str | tuple[str, ...] = "random"
    turn_cap: int = 250
    solo_provinces: int = 4
    last_province_guard: bool = True
    overrides: tuple[str, ...] = ()
    market_with: tuple[str, ...] = ()     # random kingdom: cards in every game, the rest drawn
    edition: str = "base2"

    @property
    def game(self):
        from hoc.games.dominion.spec import GAME

        return GAME

    def __post_init__(self):
        if not isinstance(self.players, int) or isinstance(self.players, bool) or not 1 <= self.players <= MAX_PLAYERS:
            raise HocError(f"players must be 1 to {MAX_PLAYERS}, got {self.players!r}")
        for name in ("overrides", "market_with"):
            value = getattr(self, name)
            if isinstance(value, (list, str)):
                object.__setattr__(self, name, (value,) if isinstance(value, str) else tuple(value))
        if isinstance(self.market, list):
            object.__setattr__(self, "market", tuple(self.market))
        if self.edition != "base2":
            raise HocError(f"Dominion has one edition here, base2 (the base set, 2nd edition), got {self.edition!r}")
        if not isinstance(self.turn_cap, int) or isinstance(self.turn_cap, bool) or not 1 <= self.turn_cap <= MAX_TURN_CAP:
            raise HocError(f"turn_cap must be a whole number from 1 to {MAX_TURN_CAP}, got {self.turn_cap!r}")
        if not isinstance(self.solo_provinces, int) or not 1 <= self.solo_provinces <= 8:
            raise HocError(f"solo_provinces must be 1 to 8, got {self.solo_provinces!r}")
        self.vector  # validate names now, not deep inside a run

    @cached_property
    def cards(self) -> CardDB:
        return CardDB(tuple(parse_override(o) for o in self.overrides))

    @property
    def pool(self) -> list[int]:
        return []                       # no princesses

    @cached_property
    def kingdom(self) -> tuple[int, list[str]]:
        """(mode, kingdom cards: the fixed ten or a random draw's candidates)."""
        db = self.cards
        every = db.kingdom
        m = self.market
        if m == "random":
            for k in self.market_with:
                if k not in every:
                    raise HocError(f"--with {k!r} is not a Dominion kingdom card{did_you_mean(k, every)}")
            if len(set(self.market_with)) != len(self.market_with) or len(self.market_with) > 10:
                raise HocError(f"--with must name up to 10 different kingdom cards, got {', '.join(self.market_with)}")
            return K.KINGDOM_RANDOM, list(self.market_with) + [k for k in every if k not in self.market_with]
        if self.market_with:
            raise HocError(f"--with {','.join(self.market_with)} asks a random kingdom to offer a card; "
                           f"the kingdom {m if isinstance(m, str) else ','.join(m)} is not random")
        if isinstance(m, str):
            if m in RECOMMENDED:
                kinds = list(RECOMMENDED[m])
            elif "," in m:
                kinds = [k.strip() for k in m.split(",") if k.strip()]
            else:
                raise HocError(f"unknown Dominion kingdom {m!r}{did_you_mean(m, ['random', *RECOMMENDED, *every])}: "
                               f"use random, a recommended kingdom ({', '.join(RECOMMENDED)}) or 10 "
                               f"comma-separated kingdom cards")
        else:
            kinds = list(m)
        for k in kinds:
            if k not in every:
                raise HocError(f"unknown Dominion kingdom card {k!r}{did_you_mean(k, every)}; see "
                               f"`hoc cards --game dominion`")
        if len(set(kinds)) != len(kinds):
            raise HocError(f"the kingdom names a card twice: {', '.join(kinds)}")
        if len(kinds) != 10:
            raise HocError(f"a kingdom needs exactly 10 kingdom cards, got {len(kinds)}")
        return K.KINGDOM_FIXED, kinds

    @cached_property
    def vector(self) -> np.ndarray:
        db = self.cards
        R = np.zeros(K.R_LEN, K.DTYPE)
        R[K.R_PLAYERS] = self.players
        R[K.R_NC] = len(db)
        mode, kinds = self.kingdom
        R[K.R_KINGDOM_MODE] = mode
        R[K.R_N_PILES] = len(kinds)
        R[K.R_PILES:K.R_PILES + len(kinds)] = [db.index(k) for k in kinds]
        R[K.R_N_ALWAYS] = len(self.market_with)
        R[K.R_TURN_CAP] = self.turn_cap
        R[K.R_SOLO_PROVINCES] = self.solo_provinces if self.players == 1 else 0
        R[K.R_HAND_SIZE] = 5
        R[K.R_LAST_PROVINCE_GUARD] = int(bool(self.last_province_guard))
        for slot, name in ((K.R_COPPER, "copper"), (K.R_SILVER, "silver"), (K.R_GOLD, "gold"),
                           (K.R_ESTATE, "estate"), (K.R_PROVINCE, "province"), (K.R_CURSE, "curse")):
            R[slot] = db.index(name)
        return R

    @property
    def market_piles(self) -> tuple[int, list[str]]:
        return self.kingdom

    def describe(self) -> dict:
        mode, kinds = self.kingdom
        return ({"market_with": list(self.market_with)} if self.market_with else {}) | {
            "game": "dominion", "edition": self.edition, "players": self.players,
            "market": self.market if isinstance(self.market, str) else ",".join(self.market),
            "market_kinds": kinds if mode == K.KINGDOM_FIXED else None,
            "overrides": list(self.overrides), "turn_cap": self.turn_cap,
            "last_province_guard": self.last_province_guard,
            **({"solo_provinces": self.solo_provinces} if self.players == 1 else {})}


def add_options(parser) -> None:
    """Dominion's own command-line options."""
    parser.add_argument("--no-last-province-guard", action="store_true",
                        help="Dominion: let the bots buy a last Province that loses them the game (by default they "
                             "never do, as in the established simulators)")


def from_options(options: dict, defaults: dict) -> Ruleset:
    """The ruleset of the command line's game options; Heart of Crown's own options are refused."""
    for flag, key in (("--edition", "edition"), ("--princesses", "princesses"),
                      ("--instant-win-at-30", "instant_win_at_30"), ("--seating", "seating")):
        if options.get(key) not in (None, defaults.get(key)):
            raise HocError(f"{flag} is a Heart of Crown option; Dominion has no such rule")
    cap = options.get("turn_cap")
    return Ruleset(players=options["players"], market=options["market"],
                   turn_cap=cap if cap not in (None, defaults.get("turn_cap")) else Ruleset.turn_cap,
                   overrides=tuple(options.get("override") or ()),
                   last_province_guard=not options.get("no_last_province_guard", False))
