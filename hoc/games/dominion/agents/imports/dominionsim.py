"""DominionSim's bots (Geronimoo's simulator, `DomBots.xml` or a bot the simulator saved): a player is
a list of `<buy name="Card">` rules, best first, each with `<condition>`s that must all hold:
`<left type=FUNCTION attribute=CARD|TYPE|NUMBER/> <operator type=COMPARATOR/> <right .../>` and an
optional `<extra_operation type="plus|minus|multiplyWith|divideBy" attribute=NUMBER/>` applied to the
right side (as DominionSim's DomBuyCondition evaluates it). A rule buys its card with as many coins
as the card costs.

Play order: DominionSim's play priority of each card (DomCardName's fifth number, lower first)."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

from hoc.errors import HocError
from hoc.games.dominion.agents.imports.core import Atom, Dropped, Lin, Rule, Source, Untranslatable

REPOSITORY = "github.com/Geronimoo/DominionSim"
PATH = "src/main/java/be/aga/dominionSimulator/DomBots.xml"
LICENCE = "MIT, Copyright (c) 2018 Jeroen Aga"
# DominionSim's play priority (DomCardName, fifth number: lower is played first) of hoc's Action cards
PLAY_PRIORITY = {"sentry": 2, "festival": 3, "village": 5, "harbinger": 5, "throne_room": 7, "merchant": 7,
                 "laboratory": 8, "poacher": 10, "market": 13, "cellar": 16, "witch": 18, "library": 20,
                 "moneylender": 23, "bandit": 23, "mine": 24, "remodel": 24, "smithy": 25, "vassal": 25,
                 "council_room": 25, "bureaucrat": 29, "militia": 30, "artisan": 30, "moat": 33, "chapel": 37,
                 "workshop": 38}
COMPARATORS = {"smallerThan": "<", "smallerOrEqualThan": "<=", "equalTo": "==", "greaterOrEqualThan": ">=",
               "greaterThan": ">"}
PLAIN = {"countAvailableMoney": "coins", "countTurns": "turns", "gainsNeededToEndGame": "gains_to_end",
         "isActionPhase": "action_phase", "countBuysLeft": "buys", "getTotalMoney": "money",
         "getTotalMoneyExcludingMats": "money", "countVP": "vp", "countMAXOpponentVP": "max_opponent_vp",
         "countEmptyPiles": "empty_piles", "countAllCardsInDeck": "owned(all)"}
OF_CARD = {"countCardsInDeck": "owned", "countCardsInDeckNoMats": "owned", "countCardsInSupply": "supply",
           "countCardsInHand": "in_hand", "countCardsInPlay": "in_play"}
# DominionSim's card types as hoc's classes of cards (Cycler, its +Action cards, read as every Action
# giving +Actions: DominionSim lists Festival among its Villages only)
TYPES = {"Treasure": "treasure", "Action": "action", "Victory": "victory", "Curse": "curse", "Attack": "attack",
         "Reaction": "reaction", "Terminal": "terminal", "Village": "village", "Cycler": "nonterminal"}


def card_id(name: str) -> str:
    return name.strip().lower().replace(" ", "_").replace("-", "_").replace("'", "_").replace("$", "_")


class _Reader:
    def __init__(self, db):
        self.db = db
        self.named: set[str] = set()

    def known(self, card: str) -> bool:
        self.named.add(card)
        return card in self.db.ids

    def side(self, el) -> Lin:
        kind, attr = el.get("type", ""), el.get("attribute")
        if kind == "constant":
            try:
                return Lin.n(Fraction(attr or "0"))
            except ValueError:
                raise HocError(f"constant {attr!r} is not a number") from None
        if kind in PLAIN:
            return Lin.q(PLAIN[kind])
        if kind in OF_CARD:
            card = card_id(attr or "")
            # a card not in hoc's card set is never in a deck, the supply, a hand or play here
            return Lin.q(f"{OF_CARD[kind]}({card})") if self.known(card) else Lin.n(0)
        if kind == "countCardTypeInDeck":
            if attr in TYPES:
                return Lin.q(f"owned({TYPES[attr]})")
            raise Untranslatable(f"countCardTypeInDeck {attr}")
        raise Untranslatable(f"{kind}" + (f" {attr}" if attr else ""))

    def condition(self, el):
        try:
            left, op, right = el.find("left"), el.find("operator"), el.find("right")
            if left is None or op is None or right is None:
                raise HocError("a <condition> needs <left>, <operator> and <right>")
            if op.get("type") not in COMPARATORS:
                raise Untranslatable(f"operator {op.get('type')}")
            a, b = self.side(left), self.side(right)
            extra = el.find("extra_operation")
            if extra is not None:
                kind = extra.get("type")
                try:
                    n = Fraction(extra.get("attribute") or "0")
                except ValueError:
                    raise HocError(f"extra_operation attribute {extra.get('attribute')!r} is not a number") from None
                if kind == "plus":
                    b = b + Lin.n(n)
                elif kind == "minus":
                    b = b - Lin.n(n)
                elif kind == "multiplyWith":
                    b = b.scale(n)
                elif kind == "divideBy" and n != 0:
                    b = b.scale(1 / n)
                else:
                    raise Untranslatable(f"extra_operation {kind} {n}")
            return Atom(a, COMPARATORS[op.get("type")], b)
        except Untranslatable as e:
            return Dropped(f"{_describe(el)} ({e} has no hoc quantity)")

    def player(self, el) -> Source:
        name = el.get("name") or "unnamed"
        rules, notes = [], []
        self.named = set()
        for child in el:
            if child.tag == "buy":
                card = card_id(child.get("name") or "")
                parts = [self.condition(c) for c in child.findall("condition")]
                rules.append(Rule(card, ("and", parts) if parts else True, self.known(card)))
            elif child.tag not in ("type", "board"):
                notes.append(f"<{child.tag}> is not translated")
        board = el.find("board")
        kingdom = [card_id(c) for c in (board.get("contents", "") if board is not None else "").split(",") if c.strip()]
        kingdom = kingdom if kingdom and all(c in self.db.ids for c in kingdom) else []
        actions = sorted({r.card for r in rules if r.known and "action" in self.db[r.card].types},
                         key=lambda c: (PLAY_PRIORITY.get(c, 50), c))
        unknown = {c for c in self.named if c not in self.db.ids}
        return Source(name, el.get("author", ""), el.get("description", "").replace("XXXX", " ").strip(), rules, actions, notes=notes,
                      kingdom=kingdom, cards=set(self.named), unknown=unknown)


def _describe(el) -> str:
    parts = []
    for tag in ("left", "operator", "right", "extra_operation"):
        x = el.find(tag)
        if x is not None:
            parts.append(x.get("type", "") + (f"({x.get('attribute')})" if x.get("attribute") else ""))
    return " ".join(parts)


def read(path: Path, db) -> list[Source]:
    """The bots of a DominionSim XML file (a <playerCollection> of <player>s, or one <player>)."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise HocError(f"{path} is not valid XML: {e}") from None
    except OSError as e:
        raise HocError(f"cannot read {path}: {e.strerror or e}") from None
    players = [root] if root.tag == "player" else root.findall("player")
    if not players:
        raise HocError(f"{path}: no DominionSim <player> in it (expected <playerCollection><player ...>)")
    reader = _Reader(db)
    out = []
    for el in players:
        if not el.findall("buy"):
            raise HocError(f"{path}: player {el.get('name')!r} has no <buy> rule")
        out.append(reader.player(el))
    return out


def files(path: Path) -> list[Path]:
    return [path] if path.is_file() else sorted(path.glob("*.xml"))


def source_path(file: Path) -> str:
    return PATH if file.name == "DomBots.xml" else file.name
