"""Dominiate's strategies (rspeer/dominiate, `strategies/*.coffee`): a CoffeeScript object whose
`gainPriority: (state, my) -> [...]` lists cards best first, each `"Card"` alone or with
`if CONDITION` / `unless CONDITION`, possibly in `if ... else` branches. Dominiate gains the first
card on the list it can afford; its defaults (`basicAI.coffee`) trash Curses, Estates while more
than 2 gains end the game and Coppers while the deck's money is above 4.

Only the subset of CoffeeScript these lists use is read (no code is run): strings, numbers, calls of
`my.` and `state.` functions with the quantities `hoc.games.dominion.agents.when` has, comparisons
(chained ones too), + - * /, and/or/not. A condition on anything else is dropped and named.
Colony and Platinum (Prosperity's Colony game) are not in hoc's card set: read as absent from the
supply, so `state.supply.Colony?` is false and counts of them are 0."""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from hoc.errors import HocError
from hoc.games.dominion.agents.imports.core import Atom, Dropped, Lin, Rule, Source
from hoc.games.dominion.agents.when import tokens

REPOSITORY = "github.com/rspeer/dominiate"
LICENCE = "MIT, Copyright (c) 2021 Elia Robyn Speer"
ABSENT = {"colony", "platinum"}     # named by most strategies for Colony games; never in hoc's supply
# Dominiate's ai_playValue (cards.coffee; higher is played first; with one Action left) of hoc's cards
PLAY_VALUE = {"festival": 845, "village": 820, "laboratory": 782, "market": 775, "cellar": 450,
              "throne_room": 380, "witch": 288, "library": 260, "militia": 254, "moneylender": 230,
              "remodel": 223, "mine": 217, "smithy": 200, "council_room": 194, "chapel": 146,
              "bureaucrat": 128, "moat": 120, "workshop": 112}
CALLS = {"countInDeck": "owned", "countInSupply": "supply", "countInHand": "in_hand", "countInPlay": "in_play"}
PLAIN = {"gainsToEndGame": "gains_to_end", "getTotalMoney": "money(treasure|nonterminal)",
         "totalMoney": "money(treasure|nonterminal)", "numCardsInDeck": "owned(all)",
         "countCardsInDeck": "owned(all)", "cardsInDeck": "owned(all)", "getVP": "vp", "countVP": "vp",
         "coins": "coins", "buys": "buys", "turnsTaken": "turns"}
TYPES = {"Action": "action", "Treasure": "treasure", "Victory": "victory", "Attack": "attack",
         "Reaction": "reaction", "Curse": "curse"}
CMP = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "is": "==", "!=": "!=", "isnt": "!="}
_TOKEN = re.compile(r"""\s*(?:(\d+(?:\.\d+)?)|('[^']*'|"[^"]*")|([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)|"""
                    r"""(<=|>=|==|!=|&&|\|\||[<>()+\-*/,?!\[\]]))""")


class Unknown:
    """A value the format has no quantity for (its source text)."""

    def __init__(self, text: str):
        self.text = text


def card_id(name: str) -> str:
    return name.strip().lower().replace(" ", "_").replace("-", "_").replace("'", "_")


def _tokens(text: str) -> list[str]:
    return tokens(text, _TOKEN, HocError, shown=40)


class _Expr:
    """A recursive-descent reader of one condition's tokens into a condition tree or a Lin."""

    def __init__(self, tokens: list[str], db, named: set[str]):
        self.t, self.i, self.db, self.named = tokens, 0, db, named

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, want=None):
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise HocError(f"expected {want or 'more'} in {' '.join(self.t)!r}")
        self.i += 1
        return tok

    def condition(self):
        tree = self.boolean(self.or_())
        if self.peek() is not None:
            raise HocError(f"cannot read {' '.join(self.t[self.i:])!r} in {' '.join(self.t)!r}")
        return tree

    def boolean(self, v):
        if isinstance(v, Unknown):
            return Dropped(v.text)
        if isinstance(v, Lin):            # a number used as a truth value: it is not 0
            return Atom(v, "!=", Lin.n(0))
        return v

    def or_(self):
        v = self.and_()
        while self.peek() in ("or", "||"):
            self.take()
            v = ("or", [self.boolean(v), self.boolean(self.and_())])
        return v

    def and_(self):
        v = self.not_()
        while self.peek() in ("and", "&&"):
            self.take()
            v = ("and", [self.boolean(v), self.boolean(self.not_())])
        return v

    def not_(self):
        if self.peek() in ("not", "!"):
            self.take()
            return ("not", self.boolean(self.not_()))
        return self.compare()

    def compare(self):
        start = self.i
        v = self.sum()
        parts = []
        while self.peek() in CMP:
            op = CMP[self.take()]
            w = self.sum()
            text = " ".join(self.t[start:self.i])
            if isinstance(v, Unknown) or isinstance(w, Unknown):
                parts.append(Dropped(text))
            elif not isinstance(v, Lin) or not isinstance(w, Lin):
                parts.append(Dropped(text))
            else:
                parts.append(Atom(v, op, w))
            v, start = w, self.i
        if not parts:
            return v
        return parts[0] if len(parts) == 1 else ("and", parts)

    def sum(self):
        v = self.product()
        while self.peek() in ("+", "-"):
            op = self.take()
            w = self.product()
            v = _arith(v, w, op)
        return v

    def product(self):
        v = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()
            w = self.unary()
            v = _arith(v, w, op)
        return v

    def unary(self):
        if self.peek() == "-":
            self.take()
            v = self.unary()
            return v.scale(-1) if isinstance(v, Lin) else v
        return self.primary()

    def primary(self):
        tok = self.take()
        if tok == "(":
            v = self.or_()
            self.take(")")
            return v
        if re.fullmatch(r"\d+(\.\d+)?", tok):
            return Lin.n(Fraction(tok))
        if tok[0] in "'\"":
            return Unknown(tok)
        if tok in ("true", "yes", "on"):
            return True
        if tok in ("false", "no", "off"):
            return False
        if self.peek() == "[" and self.i + 2 < len(self.t) and self.t[self.i + 1][0] in "'\"" \
                and self.t[self.i + 2] == "]":          # state.supply["Card"]
            tok += "." + self.t[self.i + 1][1:-1].replace(" ", "_")
            self.i += 3
        args = []
        if self.peek() == "(":
            self.take()
            while self.peek() != ")":
                args.append(self.take())
                if self.peek() == ",":
                    self.take()
            self.take(")")
        exists = self.peek() == "?"
        if exists:
            self.take()
        return self.quantity(tok, args, exists)

    def quantity(self, name: str, args: list[str], exists: bool):
        text = name + (f"({', '.join(args)})" if args else "") + ("?" if exists else "")
        who, _, fn = name.rpartition(".")
        if exists and who == "state.supply":
            card = card_id(fn)
            self.named.add(card)
            return False if card in ABSENT or card not in self.db.ids else Unknown(text)
        if who not in ("my", "state") or exists:
            return Unknown(text)
        arg = args[0][1:-1] if args and args[0][0] in "'\"" else None
        if fn in CALLS and arg is not None:
            card = card_id(arg)
            self.named.add(card)
            if card in ABSENT or card not in self.db.ids:
                return Lin.n(0)
            return Lin.q(f"{CALLS[fn]}({card})")
        if fn == "countCardTypeInDeck" and arg in TYPES:
            return Lin.q(f"owned({TYPES[arg]})")
        if fn in PLAIN:
            return Lin.q(PLAIN[fn])
        return Unknown(text)


def _arith(v, w, op):
    if isinstance(v, Unknown) or isinstance(w, Unknown) or not isinstance(v, Lin) or not isinstance(w, Lin):
        return Unknown(f"{getattr(v, 'text', '?')} {op} {getattr(w, 'text', '?')}")
    if op == "+":
        return v + w
    if op == "-":
        return v - w
    if op == "*":
        if not v.terms:
            return w.scale(v.const)
        if not w.terms:
            return v.scale(w.const)
        return Unknown("a product of two quantities")
    if not w.terms and w.const != 0:
        return v.scale(1 / w.const)
    return Unknown("a division by a quantity")


# ---- the object's keys and the priority lists ----
def _strip_comments(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        quote, cut = None, len(line)
        for i, ch in enumerate(line):
            if quote:
                quote = None if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch == "#":
                cut = i
                break
        out.append(line[:cut].rstrip())
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _keys(lines: list[str], path) -> dict[str, list[str]]:
    """The top-level keys of the strategy object: key -> the lines of its value (first line's rest first)."""
    body = [ln for ln in lines if ln.strip()]
    if not body or body[0].strip() != "{" and not body[0].strip().startswith("{"):
        raise HocError(f"{path}: not a Dominiate strategy (it should be a CoffeeScript object starting with {{)")
    keyed = [(i, ln) for i, ln in enumerate(body) if re.match(r"^\s*[A-Za-z_]\w*\s*:", ln)]
    if not keyed:
        raise HocError(f"{path}: a Dominiate strategy names its keys (name, gainPriority, ...); found none")
    level = min(_indent(ln) for _, ln in keyed)
    keys: dict[str, list[str]] = {}
    current = None
    for ln in body[1:]:
        m = re.match(r"^(\s*)([A-Za-z_]\w*)\s*:\s*(.*)$", ln)
        if m and len(m.group(1)) == level:
            current = m.group(2)
            keys[current] = [m.group(3)]
        elif current is not None and _indent(ln) > level:
            keys[current].append(ln)
    return keys


def _string(value: list[str]) -> str:
    m = re.match(r"""^\s*(['"])(.*)\1\s*$""", value[0])
    return m.group(2) if m else ""


def _items(lines: list[str], path, key) -> list[tuple[int, str]]:
    """The items of a priority list (continued lines joined), with their indentation."""
    items: list[tuple[int, str]] = []
    cont = False
    for ln in lines:
        s = ln.strip()
        if not s or s in ("[", "]"):
            cont = False
            continue
        if items and (cont or _indent(ln) > items[-1][0] and not s.startswith(("'", '"', "null", "if ", "else"))):
            items[-1] = (items[-1][0], items[-1][1] + " " + s.rstrip("\\").strip())
        else:
            items.append((_indent(ln), s.rstrip("\\").strip()))
        cont = s.endswith("\\")
    return items


def _condition(text: str, db, named):
    """A condition's tree; one this reader cannot follow is dropped (and named)."""
    try:
        return _Expr(_tokens(text), db, named).condition()
    except HocError:
        return Dropped(text)


def _priority(lines: list[str], path, key, db, named) -> list[tuple[str, object]]:
    """(card, condition tree) of a priority list, its `if`/`else` branches read as conditions."""
    first = re.sub(r"^\(\s*state\s*,\s*my\s*\)\s*->\s*", "", lines[0]).strip()
    lines = ([first] if first else []) + lines[1:]
    if first.startswith("[") and first.endswith("]") and len(first) > 2:
        lines = [first[1:-1]]
    items = _items(lines, path, key)
    out: list[tuple[str, object]] = []
    guards: list[tuple[int, object]] = []       # (indent, condition) of the enclosing if/else branches
    for indent, text in items:
        while guards and indent <= guards[-1][0] and not text.startswith("else"):
            guards.pop()
        if text.startswith("if "):
            cond = _condition(text[3:], db, named)
            guards.append((indent, cond))
            continue
        if text == "else":
            if not guards:
                raise HocError(f"{path}: {key}: `else` without `if`")
            i, cond = guards.pop()
            guards.append((i, ("not", cond)))
            continue
        text = text.strip("[] ,")
        if not text or text == "null":
            continue
        m = re.match(r"""^(['"])(.+?)\1\s*(?:(if|unless)\s+(.*))?$""", text)
        if not m:
            raise HocError(f"{path}: {key}: cannot read the item {text[:60]!r}")
        cond = True
        if m.group(3):
            cond = _condition(m.group(4), db, named)
            if m.group(3) == "unless":
                cond = ("not", cond)
        parts = [g for _, g in guards] + ([cond] if cond is not True else [])
        out.append((card_id(m.group(2)), ("and", parts) if parts else True))
    return out


def read(path: Path, db) -> list[Source]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise HocError(f"cannot read {path}: {e}") from None
    keys = _keys(_strip_comments(text), path)
    if "gainPriority" not in keys:
        raise HocError(f"{path}: no gainPriority in this Dominiate strategy")
    named: set[str] = set()
    name = _string(keys.get("name", [""])) or path.stem
    gains = _priority(keys["gainPriority"], path, "gainPriority", db, named)
    for card, _ in gains:
        named.add(card)
    rules = [Rule(card, cond, card in db.ids) for card, cond in gains]
    # trashing: the strategy's trashPriority, else basicAI's (Curse; Estate while gainsToEndGame > 2;
    # Copper while getTotalMoney() > 4)
    trash_copper, trash_estates = 4, 2
    notes = []
    if "trashPriority" in keys:
        trash_copper, trash_estates = 0, 99
        for card, cond in _priority(keys["trashPriority"], path, "trashPriority", db, set()):
            bound = _bound(cond)
            if card == "copper":
                trash_copper = bound if bound is not None else 1
            elif card == "estate":
                trash_estates = min(trash_estates, bound if bound is not None else 0)
        notes.append("trashPriority read as thresholds: Coppers while money above trash_copper, Estates while "
                     "more Provinces are left than trash_estates_above (Dominiate: gains to end the game)")
    for key in keys:
        if key not in ("name", "author", "requires", "gainPriority", "trashPriority"):
            notes.append(f"{key} is not translated (hoc's bot decides)")
    actions = sorted({r.card for r in rules if r.known and "action" in db[r.card].types},
                     key=lambda c: (-PLAY_VALUE.get(c, 0), c))
    unknown = {c for c in named if c not in db.ids and c not in ABSENT}
    return [Source(name, _string(keys.get("author", [""])) or "rspeer (Dominiate)", _description(text.splitlines()), rules, actions, trash_copper,
                   trash_estates, notes, cards=named, unknown=unknown)]


def _bound(cond) -> int | None:
    """N of a trash condition's first `QUANTITY > N` (its other parts are left out), else None."""
    if isinstance(cond, Atom):
        return int(cond.right.const) if cond.op == ">" and not cond.right.terms and cond.left.terms else None
    if isinstance(cond, tuple) and cond[0] == "and":
        for part in cond[1]:
            b = _bound(part)
            if b is not None:
                return b
    return None


def _description(lines: list[str]) -> str:
    """The comment lines before the object: the author's description."""
    out = []
    for ln in lines:
        s = ln.strip()
        if not s.startswith("#"):
            break
        out.append(s.lstrip("# "))
    return " ".join(x for x in out if x)


def files(path: Path) -> list[Path]:
    return [path] if path.is_file() else sorted(path.glob("*.coffee"))


def source_path(file: Path) -> str:
    return f"strategies/{file.name}"
