"""Toy's priority lists as data: a TOML file saying `game = "toy"`, its buy rules best first and the
order its Actions are played in, compiled to the parameter row the jitted list reads. Example:

    game = "toy"
    description = "Duchy with 5, Lab with 4 (two of them), Silver with 3"
    play = ["lab"]
    buy = [
      { card = "duchy", coins = 5 },
      { card = "lab", coins = 4, owned_below = 2 },
      { card = "silver", coins = 3 },
    ]
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hoc.errors import HocError
from toy_game.agents import kernel as BK
from toy_game.agents.row import MAX_BUY
from toy_game.kernel import constants as K

LIBRARY = Path(__file__).parent / "library"
TOP_KEYS = {"game", "description", "buy", "play"}
BUY_KEYS = {"card", "coins", "owned_below"}


@dataclass(frozen=True)
class Bot:
    name: str
    description: str
    buy: tuple
    play: tuple
    path: str

    def params(self, ruleset) -> np.ndarray:
        return self.row(ruleset.cards)

    def row(self, db) -> np.ndarray:
        where = f"Toy list {self.name} ({self.path})"
        row = np.zeros(K.N_PARAMS, K.DTYPE)

        def card(name, what):
            if not isinstance(name, str):
                raise HocError(f"{where}: {what} must be a card name, got {name!r}")
            try:
                return db.lookup(name)
            except HocError as e:
                raise HocError(f"{where}: {what}: {e}") from None

        if not self.buy or len(self.buy) > MAX_BUY:
            raise HocError(f"{where}: 1 to {MAX_BUY} buy rules, got {len(self.buy)}")
        row[BK.L_N_BUY] = len(self.buy)
        for i, rule in enumerate(self.buy):
            if not isinstance(rule, dict) or "card" not in rule or set(rule) - BUY_KEYS:
                raise HocError(f"{where}: buy rule {i + 1} must be a table of {', '.join(sorted(BUY_KEYS))} "
                               f"naming a card")
            c = card(rule["card"], f"buy rule {i + 1}")
            coins = rule.get("coins", db[c].cost)
            below = rule.get("owned_below", 1000)
            for key, v in (("coins", coins), ("owned_below", below)):
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    raise HocError(f"{where}: buy rule {i + 1} {key} must be a whole number, got {v!r}")
            r = BK.L_BUY + i * BK.BR_SZ
            row[r + BK.BR_CARD], row[r + BK.BR_COINS], row[r + BK.BR_BELOW] = c, coins, below
        order = [card(n, "play") for n in self.play]
        for c in order:
            if "action" not in db[c].types:
                raise HocError(f"{where}: play lists {db.name(c)}, which is not an Action card")
        row[BK.L_N_PLAY] = len(order)
        row[BK.L_PLAY:BK.L_PLAY + len(order)] = order
        return row


def read(path: str | Path, data: dict | None = None) -> Bot:
    path = Path(path)
    if data is None or not data:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise HocError(f"no Toy list file {path}") from None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise HocError(f"cannot read Toy list file {path}: {e}") from None
    if data.get("game") != "toy":
        raise HocError(f"{path}: a Toy list file says game = \"toy\"")
    bad = set(data) - TOP_KEYS
    if bad:
        raise HocError(f"{path}: unknown keys {', '.join(sorted(bad))}; keys: {', '.join(sorted(TOP_KEYS))}")
    buy, play = data.get("buy", []), data.get("play", [])
    if not isinstance(buy, list) or not isinstance(play, list):
        raise HocError(f"{path}: `buy` and `play` must be lists")
    bot = Bot(path.stem, str(data.get("description", "")), tuple(buy), tuple(play), str(path))
    from toy_game.cards import CardDB

    bot.row(CardDB())                   # checked now, not inside a run
    return bot


def library() -> dict[str, Bot]:
    return {p.stem: read(p) for p in sorted(LIBRARY.glob("*.toml"))}
