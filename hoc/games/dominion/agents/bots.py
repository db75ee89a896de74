"""Dominion bots as data: a TOML file with a buy menu (best first, each entry a card and when to buy
it), the order to play Action cards, and trashing thresholds, compiled to the parameter row the
jitted bot reads (`hoc.games.dominion.agents.kernel`). Example (dom_smithy_bm):

    game = "dominion"
    description = "Big Money with one Smithy"
    play = ["smithy"]
    buy = [
      { card = "province", coins = 8 },
      { card = "gold", coins = 6 },
      { card = "smithy", coins = 4, max_coins = 5, owned_below = 1 },
      { card = "silver", coins = 3 },
    ]

A buy entry's keys: `card`; `coins` (fewest coins to buy it with; default its cost) and `max_coins`;
`owned_below` (buy while owning fewer copies); `provinces_at_most` / `provinces_at_least` (Province
pile size); `fewer_than` + `plus` (buy while owning fewer copies than of that card, plus `plus`); `when`, a list of conditions that
must all hold, e.g. `when = ["money > 18", "gains_to_end <= 4"]` (`hoc.games.dominion.agents.when`
lists the quantities; at most MAX_WHEN in a file).
Action cards not in `play` are played after those listed: cards giving +Actions first, then those
playing another Action from the hand (Throne Room), then by cost.
`trash_copper` (trash Coppers while the rest of the deck's money is at least this; 0 never) and
`trash_estates_above` (trash 1-VP Victory cards while more Provinces than this are left).
`source` (a table of text: where an imported bot came from, its author and licence) is not read.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from hoc.agent_folders import game_folder
from hoc.errors import HocError
from hoc.games.dominion.agents import kernel as BK
from hoc.games.dominion.agents.when import compile_when
from hoc.games.dominion.kernel import constants as K

LIBRARY = game_folder("dominion") / "bots"           # the library's bots (agents/dominion/bots)
# where the bots lived before the top-level agents/ folder: a file still there is in the library too
# (the new place's file wins a name both hold)
OLD_LIBRARY = Path(__file__).parent / "library"
BUY_KEYS = {"card", "coins", "max_coins", "owned_below", "provinces_at_most", "provinces_at_least", "fewer_than",
            "plus", "when"}
TOP_KEYS = {"game", "description", "buy", "play", "trash_copper", "trash_estates_above", "source"}
NEVER = 99


@dataclass(frozen=True)
class Bot:
    """A parsed bot file (card names checked against a ruleset's cards when its row is made)."""

    name: str
    description: str
    buy: tuple[dict, ...]
    play: tuple[str, ...]
    trash_copper: int
    trash_estates_above: int
    path: str

    def params(self, ruleset) -> np.ndarray:
        return self._rows(ruleset.cards)

    def _rows(self, db) -> np.ndarray:
        row = np.zeros(K.N_PARAMS, K.DTYPE)
        where = f"bot {self.name} ({self.path})"

        def card(name, what):
            if not isinstance(name, str):
                raise HocError(f"{where}: {what} must be a card name, got {name!r}")
            try:
                return db.lookup(name)
            except HocError as e:
                raise HocError(f"{where}: {what}: {e}") from None

        if len(self.buy) > BK.MAX_BUY:
            raise HocError(f"{where}: {len(self.buy)} buy entries; at most {BK.MAX_BUY}")
        row[BK.B_N_BUY] = len(self.buy)
        n_when = 0
        for i, entry in enumerate(self.buy):
            if not isinstance(entry, dict):
                raise HocError(f"{where}: buy entry {i + 1} must be a table like {{ card = \"silver\", coins = 3 }}")
            bad = set(entry) - BUY_KEYS
            if bad:
                raise HocError(f"{where}: buy entry {i + 1} has unknown keys {', '.join(sorted(bad))}; "
                               f"keys: {', '.join(sorted(BUY_KEYS))}")
            if "card" not in entry:
                raise HocError(f"{where}: buy entry {i + 1} names no card")
            c = card(entry["card"], f"buy entry {i + 1}")
            values = {}
            for key in BUY_KEYS - {"card", "fewer_than", "when"}:
                v = entry.get(key)
                if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= NEVER):
                    raise HocError(f"{where}: buy entry {i + 1} {key} must be a whole number 0 to {NEVER}, got {v!r}")
                values[key] = v
            r = BK.B_BUY + i * BK.BR_SZ
            row[r + BK.BR_CARD] = c
            row[r + BK.BR_MIN_COINS] = values["coins"] if values["coins"] is not None else db[c].cost
            row[r + BK.BR_MAX_COINS] = values["max_coins"] if values["max_coins"] is not None else NEVER
            row[r + BK.BR_OWNED_BELOW] = values["owned_below"] if values["owned_below"] is not None else 10_000
            row[r + BK.BR_PROVINCES_MIN] = values["provinces_at_least"] or 0
            row[r + BK.BR_PROVINCES_MAX] = values["provinces_at_most"] if values["provinces_at_most"] is not None else NEVER
            row[r + BK.BR_VS] = card(entry["fewer_than"], f"buy entry {i + 1} fewer_than") if "fewer_than" in entry else -1
            row[r + BK.BR_VS_ADD] = values["plus"] or 0
            conditions = entry.get("when", [])
            if not isinstance(conditions, list):
                raise HocError(f"{where}: buy entry {i + 1} when must be a list of conditions like [\"money > 18\"]")
            for text in conditions:
                if n_when == BK.MAX_WHEN:
                    raise HocError(f"{where}: more than {BK.MAX_WHEN} `when` conditions in all")
                try:
                    op, left, right, k = compile_when(text, db)
                except (ValueError, HocError) as e:
                    raise HocError(f"{where}: buy entry {i + 1} when: {e}") from None
                w = BK.B_WHEN + n_when * BK.WR_SZ
                row[w + BK.WR_RULE] = i + BK.OPS * op
                row[w + BK.WR_LEFT] = left
                row[w + BK.WR_RIGHT] = right
                row[w + BK.WR_K] = k
                n_when += 1
        row[BK.B_N_WHEN] = n_when
        order = [card(n, "play") for n in self.play]
        for c in order:
            if "action" not in db[c].types:
                raise HocError(f"{where}: play lists {db.name(c)}, which is not an Action card")
        rest = sorted((c for c in range(len(db)) if "action" in db[c].types and c not in order),
                      key=lambda c: (-int(db.table[c, K.F_ACTIONS] > 0),
                                     -int(db.table[c, K.F_EFFECT] in K.PLAYS_AN_ACTION), -db[c].cost, c))
        order += rest
        row[BK.B_N_PLAY] = len(order)
        row[BK.B_PLAY:BK.B_PLAY + len(order)] = order
        row[BK.B_TRASH_COPPER] = self.trash_copper
        row[BK.B_TRASH_VICTORY_MIN_PROVINCES] = self.trash_estates_above
        return row

    @cached_property
    def cards(self) -> set[str]:
        return {e.get("card") for e in self.buy if isinstance(e, dict)} | set(self.play)


def parse(path: str | Path, name: str | None = None) -> Bot:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HocError(f"no bot file {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise HocError(f"cannot read bot file {path}: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise HocError(f"bot file {path} is not valid TOML: {e}") from None
    if data.get("game") != "dominion":
        raise HocError(f"bot file {path}: a Dominion bot file starts with game = \"dominion\"")
    if not isinstance(data.get("source", {}), dict):
        raise HocError(f"bot file {path}: `source` must be a table (repository, path, author, licence)")
    bad = set(data) - TOP_KEYS
    if bad:
        raise HocError(f"bot file {path}: unknown keys {', '.join(sorted(bad))}; keys: {', '.join(sorted(TOP_KEYS))}")
    buy = data.get("buy", [])
    play = data.get("play", [])
    if not isinstance(buy, list) or not buy:
        raise HocError(f"bot file {path}: `buy` must be a non-empty list of entries")
    if not isinstance(play, list):
        raise HocError(f"bot file {path}: `play` must be a list of card names")
    for key in ("trash_copper", "trash_estates_above"):
        v = data.get(key, 0 if key == "trash_copper" else NEVER)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= NEVER:
            raise HocError(f"bot file {path}: {key} must be a whole number 0 to {NEVER}, got {v!r}")
    bot = Bot(name or path.stem, str(data.get("description", "")), tuple(buy), tuple(play),
              int(data.get("trash_copper", 0)), int(data.get("trash_estates_above", NEVER)), str(path))
    bot._rows(_cards())             # names and values checked now, not deep inside a run
    return bot


@cache
def _cards():
    """The card set bot files are checked against (read once)."""
    from hoc.games.dominion.cards import CardDB

    return CardDB()


def library() -> dict[str, Bot]:
    """The library's bots by name (file stem), in name order: agents/dominion/bots/ and the old
    folder hoc/games/dominion/agents/library/ (a name in both: the new folder's file)."""
    files = {p.stem: p for folder in (OLD_LIBRARY, LIBRARY) for p in sorted(folder.glob("*.toml"))}
    return {name: parse(files[name]) for name in sorted(files)}


def imported() -> dict[str, Bot]:
    """The bots imported from other people's simulators (`hoc import-bots`; agents/dominion/bots/imported,
    named domsim_*, dominiate_*, pyminion_*): named everywhere, but not among the default opponents."""
    return {p.stem: parse(p) for p in sorted((LIBRARY / "imported").glob("*.toml"))}
