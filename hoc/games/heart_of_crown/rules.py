"""A ruleset: edition, player count, market, princess pool and rule options, compiled to the
integer vector R the kernels read."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from hoc.games.heart_of_crown.cards import CardDB, parse_override
from hoc.errors import HocError
from hoc.names import did_you_mean
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.presets import RECOMMENDED

MAX_PLAYERS = 4
# turns per player before a capped draw: the results keep a game's turns (all players') in 16 bits
MAX_TURN_CAP = 1000


@dataclass(frozen=True)
class Ruleset:
    """Everything that fixes the rules of a game except its seed and its players' choices.

    market: "random" (10 kinds drawn per game), "basic" (no supply), a preset name from
    `hoc.games.heart_of_crown.presets.RECOMMENDED`, or a sequence of common kinds. princesses: the pool in order
    (default: all six of the edition). Options marked (option) in RULINGS are fields here.
    """

    edition: str = "2e"
    players: int = 2
    market: str | tuple[str, ...] = "random"
    princesses: tuple[str, ...] | None = None
    judgement: str | None = None          # "three_piles" | "duke_only"; default by edition
    tie: str | None = None                # "later_seat" | "shared"; default by edition
    keep_timing: str | None = None        # "cleanup" | "main"; default by edition
    seating: str | None = None            # "lineup" (default) | "hand_elimination" (a 1E variant)
    instant_win_at_30: bool = False
    turn_cap: int = 100
    overrides: tuple[str, ...] = ()
    market_with: tuple[str, ...] = ()     # random market: common kinds in every game, the rest drawn

    @property
    def game(self):
        """The game these are rules of (its `hoc.engine.spec.GameSpec`)."""
        from hoc.games.heart_of_crown.spec import GAME      # (the spec reads no ruleset: no circle)

        return GAME

    def __post_init__(self):
        if not isinstance(self.players, int) or isinstance(self.players, bool) or not 1 <= self.players <= MAX_PLAYERS:
            raise HocError(f"players must be 1 to {MAX_PLAYERS}, got {self.players!r}")
        if isinstance(self.market, list):
            object.__setattr__(self, "market", tuple(self.market))
        if isinstance(self.overrides, (list, str)):
            object.__setattr__(self, "overrides", (self.overrides,) if isinstance(self.overrides, str)
                               else tuple(self.overrides))
        if self.princesses is not None:
            object.__setattr__(self, "princesses", tuple(self.princesses))
        if isinstance(self.market_with, (list, str)):
            object.__setattr__(self, "market_with", (self.market_with,) if isinstance(self.market_with, str)
                               else tuple(self.market_with))
        if not isinstance(self.turn_cap, int) or isinstance(self.turn_cap, bool) \
                or not 1 <= self.turn_cap <= MAX_TURN_CAP:
            raise HocError(f"turn_cap must be a whole number from 1 to {MAX_TURN_CAP}, got {self.turn_cap!r}")
        if not isinstance(self.edition, str):
            raise HocError(f"edition must be '2e' or '1e', got {self.edition!r}")
        for name, value, allowed in (("judgement", self.judgement, ("three_piles", "duke_only")),
                                     ("tie", self.tie, ("later_seat", "shared")),
                                     ("keep_timing", self.keep_timing, ("cleanup", "main")),
                                     ("seating", self.seating, tuple(K.SEATINGS))):
            if value is not None and value not in allowed:
                raise HocError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
        if self.seating == "hand_elimination":
            self._check_same_decks()
        self.vector  # validate names now, not deep inside a run

    def _check_same_decks(self) -> None:
        """The hand-elimination seating needs every seat to start with the same cards: the players
        pick their opening hands before they have seats."""
        table = self.cards.table
        decks = {tuple(table[:, K.F_START + min(seat, 3)].tolist()) for seat in range(self.players)}
        if len(decks) > 1:
            raise HocError(f"seating hand_elimination needs every seat to start with the same cards (the players "
                           f"pick their opening hands before they have seats); the starting decks of "
                           f"{self.edition} differ by seat" + (" (Orchards)" if self.edition == "2e" else ""))

    @property
    def reseats(self) -> bool:
        """Whether the game's setup may seat the players otherwise than in the lineup's order (its
        result rows then say where each sat: `hoc.engine.layout.RES_SEATING`)."""
        return (self.seating or "lineup") != "lineup"

    @cached_property
    def cards(self) -> CardDB:
        return CardDB(self.edition, tuple(parse_override(o) for o in self.overrides))

    @property
    def second_edition(self) -> bool:
        return self.edition == "2e"

    @cached_property
    def pool(self) -> list[int]:
        db = self.cards
        everyone = db.pile_ids("princess")
        names = list(self.princesses) if self.princesses is not None else everyone
        if not names:
            raise HocError("the princess pool is empty")
        for n in names:
            if n not in everyone:
                hint = did_you_mean(n, everyone, {db.english(db.index(k)): k for k in everyone})
                raise HocError(f"unknown princess {n!r}{hint}; princesses of {self.edition}: {', '.join(everyone)}")
        if len(set(names)) != len(names):
            raise HocError(f"princess pool names a princess twice: {', '.join(names)}")
        if len(names) < self.players:
            # a seat without a princess can never be crowned and counts 0 SP at Judgement
            raise HocError(f"{self.players} players need at least {self.players} princesses in the pool, "
                           f"got {len(names)} ({', '.join(names)}): a seat left without one could never win")
        return [db.index(n) for n in names]

    @cached_property
    def market_piles(self) -> tuple[int, list[str]]:
        """(market mode, common kinds: the candidates of a random draw or the fixed ten)."""
        db = self.cards
        commons = db.pile_ids("common")
        m = self.market
        if m == "basic":
            if self.market_with:
                raise HocError(f"--with {','.join(self.market_with)} asks a random market to offer a kind; "
                               "the basic market offers none")
            return K.MARKET_BASIC, []
        if m == "random":
            ready = [p for p in commons if not db.unimplemented(db.cards_of_pile(p))]
            if len(ready) < 10:
                raise HocError(
                    f"a random market needs 10 implemented common kinds; {self.edition} has {len(ready)} "
                    f"so far ({', '.join(ready) or 'none'}). Use --market basic or a list of kinds.")
            return K.MARKET_RANDOM, self._with_first(ready)
        if isinstance(m, str):
            if m in RECOMMENDED:
                kinds = RECOMMENDED[m]
                absent = [k for k in kinds if k not in commons]
                if absent:
                    usable = [n for n, ks in RECOMMENDED.items() if all(k in commons for k in ks)]
                    raise HocError(f"preset {m!r} uses cards that {self.edition} does not have "
                                   f"({', '.join(absent)}); presets of {self.edition}: {', '.join(usable)}")
            elif "," in m:
                kinds = [k.strip() for k in m.split(",") if k.strip()]
            else:
                hint = did_you_mean(m, ["random", "basic", *RECOMMENDED, *commons])
                raise HocError(f"unknown market {m!r}{hint}: use random, basic, a preset "
                               f"({', '.join(RECOMMENDED)}) or a comma-separated list of 10 kinds")
        else:
            kinds = list(m)
        for k in kinds:
            if k not in commons:
                hint = did_you_mean(k, commons, {db.english(db.cards_of_pile(c)[0]): c for c in commons})
                raise HocError(f"unknown common kind {k!r} in market for {self.edition}{hint}; "
                               f"see `hoc cards --edition {self.edition}`")
        if self.market_with:
            raise HocError(f"--with {','.join(self.market_with)} asks a random market to offer a kind; "
                           f"the market {m if isinstance(m, str) else ','.join(m)} is not random")
        if len(set(kinds)) != len(kinds):
            raise HocError(f"market names a kind twice: {', '.join(kinds)}")
        if len(kinds) != 10:
            raise HocError(f"a market needs exactly 10 common kinds, got {len(kinds)}")
        return K.MARKET_FIXED, kinds

    def _with_first(self, ready: list[str]) -> list[str]:
        """The random market's candidates with the `market_with` kinds first (the kernel always
        draws that many leading candidates), checked."""
        if not self.market_with:
            return ready
        db = self.cards
        commons = db.pile_ids("common")
        for k in self.market_with:
            if k not in commons:
                hint = did_you_mean(k, commons, {db.english(db.cards_of_pile(c)[0]): c for c in commons})
                raise HocError(f"--with {k!r} is not a common kind of {self.edition}{hint}; "
                               f"see `hoc cards --edition {self.edition}`")
            if k not in ready:
                raise HocError(f"--with {k!r}: its cards are not implemented yet, so no random market offers it")
        if len(set(self.market_with)) != len(self.market_with):
            raise HocError(f"--with names a kind twice: {', '.join(self.market_with)}")
        if len(self.market_with) > 10:
            raise HocError(f"--with names {len(self.market_with)} kinds; a market has 10")
        return list(self.market_with) + [k for k in ready if k not in self.market_with]

    @cached_property
    def vector(self) -> np.ndarray:
        db = self.cards
        first = self.second_edition
        R = np.zeros(K.R_LEN, K.DTYPE)
        R[K.R_PLAYERS] = self.players
        R[K.R_NC] = len(db)
        R[K.R_EDITION] = 2 if first else 1
        judgement = self.judgement or ("three_piles" if first else "duke_only")
        R[K.R_JUDGEMENT] = K.JUDGE_THREE_PILES if judgement == "three_piles" else K.JUDGE_DUKE_ONLY
        tie = self.tie or ("later_seat" if first else "shared")
        R[K.R_TIE] = K.TIE_LATER_SEAT if tie == "later_seat" else K.TIE_SHARED
        keep = self.keep_timing or ("cleanup" if first else "main")
        R[K.R_KEEP_TIMING] = K.KEEP_CLEANUP if keep == "cleanup" else K.KEEP_MAIN
        R[K.R_SEATING] = K.SEATINGS[self.seating or "lineup"]
        R[K.R_APPRENTICE_MAID] = db.index("apprentice_maid")
        R[K.R_INSTANT_30] = int(self.instant_win_at_30)
        R[K.R_TURN_CAP] = self.turn_cap
        R[K.R_MARKET_SIZE] = 8
        R[K.R_SUPPLY_KINDS] = 10
        R[K.R_WIN_SP] = 20
        R[K.R_OVERTIME_SP] = 30
        R[K.R_HAND_SIZE] = 5
        for slot, name in ((K.R_DUKE, "duke"), (K.R_SENATOR, "senator"), (K.R_COURT_MAID, "court_maid"),
                           (K.R_CURSE, "curse"), (K.R_FARMING_VILLAGE, "farming_village"),
                           (K.R_CITY, "city"), (K.R_LARGE_CITY, "large_city")):
            R[slot] = db.index(name)
        pool = self.pool
        missing = db.unimplemented(pool)
        if missing:
            raise HocError(f"princess effects not implemented yet: {', '.join(missing)}")
        R[K.R_N_POOL] = len(pool)
        R[K.R_POOL:K.R_POOL + len(pool)] = pool
        mode, kinds = self.market_piles
        R[K.R_MARKET_MODE] = mode
        if mode != K.MARKET_BASIC:
            rares = [i for i in range(len(db)) if db.frame.category.iat[i] == "rare"]
            in_game = rares + [c for k in kinds for c in db.cards_of_pile(k)]
            missing = db.unimplemented(in_game)
            if missing:
                raise HocError(f"market cards not implemented yet: {', '.join(missing)}")
        R[K.R_MARKET_ALWAYS] = len(self.market_with)
        R[K.R_N_PILES] = len(kinds)
        R[K.R_PILES:K.R_PILES + len(kinds)] = [db.cards_of_pile(k)[0] for k in kinds]
        return R

    def describe(self) -> dict:
        mode, kinds = self.market_piles
        # market_with and the edition-defaulted options only when given: runs saved before they were
        # recorded still describe themselves equally, and a run that sets one is told apart
        options = {k: v for k, v in (("judgement", self.judgement), ("tie", self.tie),
                                     ("keep_timing", self.keep_timing), ("seating", self.seating))
                   if v is not None}
        return options | ({"market_with": list(self.market_with)} if self.market_with else {}) | {"edition": self.edition, "players": self.players,
                "market": self.market if isinstance(self.market, str) else ",".join(self.market),
                "market_kinds": kinds if mode == K.MARKET_FIXED else None,
                "princesses": [self.cards.name(i) for i in self.pool],
                "overrides": list(self.overrides), "turn_cap": self.turn_cap,
                "instant_win_at_30": self.instant_win_at_30}


def add_options(parser) -> None:
    """Heart of Crown's own command-line options (beside the shared ones of `hoc.cli.options`)."""
    parser.add_argument("--princesses", default=None, help="princess pool in order, e.g. lulunasaika,laolily")
    parser.add_argument("--instant-win-at-30", action="store_true", help="30 SP wins at once outside overtime too")
    parser.add_argument("--seating", default=None,
                        help="lineup (default: the players sit in the lineup's order) or hand_elimination (1E "
                             "variant: each picks 5 of the 10 starting cards as the opening hand; the most "
                             "Apprentice Maids shown plays first, the others follow in descending order)")


def from_options(options: dict, defaults: dict) -> Ruleset:
    """The ruleset of the command line's game options (`hoc.cli.options.game_options`)."""
    princesses = options.get("princesses")
    pool = tuple(p.strip() for p in princesses.split(",") if p.strip()) if princesses else None
    return Ruleset(edition=options["edition"], players=options["players"], market=options["market"], princesses=pool,
                   instant_win_at_30=options["instant_win_at_30"], turn_cap=options["turn_cap"],
                   seating=options.get("seating"),
                   overrides=tuple(options.get("override") or ()))
