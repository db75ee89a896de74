"""A Toy ruleset: players, market, turn cap, hand size and card overrides, compiled to the ruleset
vector the kernels read; its command-line options (`from_options`, `add_options`)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from hoc.engine.overrides import parse_override
from hoc.errors import HocError
from toy_game.cards import CardDB
from toy_game.kernel import constants as K

MAX_PLAYERS = 4
EDITION = "v1"
MARKETS = ("random", "all")     # one kingdom card drawn per game, or all of them; or named cards


@dataclass(frozen=True)
class Ruleset:
    players: int = 2
    market: str | tuple = "random"
    turn_cap: int = 30
    hand_size: int = 5
    overrides: tuple = ()
    edition: str = EDITION

    @property
    def game(self):
        from toy_game.spec import GAME

        return GAME

    def __post_init__(self):
        if not isinstance(self.players, int) or isinstance(self.players, bool) or not 1 <= self.players <= MAX_PLAYERS:
            raise HocError(f"players must be 1 to {MAX_PLAYERS}, got {self.players!r}")
        if isinstance(self.overrides, (list, str)):
            object.__setattr__(self, "overrides", (self.overrides,) if isinstance(self.overrides, str)
                               else tuple(self.overrides))
        if isinstance(self.market, list):
            object.__setattr__(self, "market", tuple(self.market))
        if self.edition != EDITION:
            raise HocError(f"Toy has one edition, {EDITION}, got {self.edition!r}")
        if not isinstance(self.turn_cap, int) or not 1 <= self.turn_cap <= 500:
            raise HocError(f"turn_cap must be 1 to 500, got {self.turn_cap!r}")
        if not isinstance(self.hand_size, int) or not 1 <= self.hand_size <= 10:
            raise HocError(f"hand_size must be 1 to 10, got {self.hand_size!r}")
        self.vector                     # names checked now

    @cached_property
    def cards(self) -> CardDB:
        db = CardDB(tuple(parse_override(o) for o in self.overrides))
        if len(db) > K.MAX_CARDS:
            raise HocError(f"Toy plays at most {K.MAX_CARDS} cards")
        return db

    @property
    def pool(self) -> list[int]:
        return []                       # (what the shared summary reads: no princesses here)

    @cached_property
    def kingdom(self) -> tuple[int, list[str]]:
        """(how many kingdom cards a game draws, 0 for all; the candidates)."""
        every = self.cards.kingdom
        m = self.market
        if m == "random":
            return 1, every
        if m == "all":
            return 0, every
        names = [k.strip() for k in m.split(",")] if isinstance(m, str) else list(m)
        for k in names:
            if k not in every:
                raise HocError(f"unknown Toy market {k!r}: use random, all or kingdom cards ({', '.join(every)})")
        if not names or len(set(names)) != len(names):
            raise HocError(f"a Toy market names each kingdom card once, got {m!r}")
        return 0, names

    @cached_property
    def vector(self) -> np.ndarray:
        db = self.cards
        R = np.zeros(K.R_LEN, K.DTYPE)
        R[K.R_PLAYERS] = self.players
        R[K.R_NC] = len(db)
        R[K.R_TURN_CAP] = self.turn_cap
        R[K.R_HAND_SIZE] = self.hand_size
        R[K.R_DUCHY] = db.index("duchy")
        draw, kinds = self.kingdom
        R[K.R_MARKET_DRAW] = draw
        R[K.R_N_CANDIDATES] = len(kinds)
        R[K.R_CANDIDATES:K.R_CANDIDATES + len(kinds)] = [db.index(k) for k in kinds]
        return R

    def describe(self) -> dict:
        return {"game": "toy", "edition": self.edition, "players": self.players,
                "market": self.market if isinstance(self.market, str) else ",".join(self.market),
                "overrides": list(self.overrides), "turn_cap": self.turn_cap, "hand_size": self.hand_size}


def add_options(parser) -> None:
    """Toy's own command-line option."""
    parser.add_argument("--hand-size", type=int, default=None, help="Toy: cards drawn each turn (default 5)")


def from_options(options: dict, defaults: dict) -> Ruleset:
    """The ruleset of the command line's game options (the other games' own options refused)."""
    for flag, key in (("--princesses", "princesses"), ("--instant-win-at-30", "instant_win_at_30"),
                      ("--seating", "seating")):
        if options.get(key) not in (None, defaults.get(key)):
            raise HocError(f"{flag} is not an option of Toy")
    if options.get("edition") not in (None, defaults.get("edition"), EDITION):
        raise HocError(f"Toy has one edition, {EDITION}")
    cap = options.get("turn_cap")
    hand = options.get("hand_size")
    return Ruleset(players=options["players"], market=options.get("market") or "random",
                   turn_cap=cap if cap not in (None, defaults.get("turn_cap")) else Ruleset.turn_cap,
                   hand_size=hand if hand is not None else Ruleset.hand_size,
                   overrides=tuple(options.get("override") or ()))
