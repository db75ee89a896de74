"""pyminion's bots (evanofslack/pyminion, `pyminion/bots/examples/*.py`): a decider class whose
`buy_priority(self, player, game)` yields cards best first, each under `if CONDITION:`, and whose
`action_priority` yields the Actions to play in order. The module is read with Python's `ast`, never
run. Conditions may use the names its body assigns from `player.state.money` (coins),
`player.get_deck_money()` (money), `game.supply.pile_length(pile_name="Card")`,
`player.get_card_count(card=card)` and the count of Treasures among `player.get_all_cards()`;
anything else is dropped and named."""
from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

from hoc.errors import HocError
from hoc.games.dominion.agents.imports.core import Atom, Dropped, Lin, Rule, Source

REPOSITORY = "github.com/evanofslack/pyminion"
LICENCE = "MIT, Copyright (c) 2021 Evan Slack"
CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


def card_id(name: str) -> str:
    return name.strip().lower().replace(" ", "_").replace("-", "_")


class _Reader:
    def __init__(self, db, named: set[str]):
        self.db, self.named, self.names = db, named, {}

    def card(self, node) -> str | None:
        if isinstance(node, ast.Name):
            return card_id(node.id)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return card_id(node.value)
        return None

    def of_card(self, kind: str, node) -> Lin:
        card = self.card(node)
        if card is None:
            raise ValueError("a card")
        self.named.add(card)
        return Lin.q(f"{kind}({card})") if card in self.db.ids else Lin.n(0)

    def value(self, node):
        """A Lin, or a string naming what could not be read."""
        src = ast.unparse(node)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return Lin.n(Fraction(node.value).limit_denominator(1000))
        if isinstance(node, ast.Name):
            return self.names.get(node.id, src)
        if src == "player.state.money":
            return Lin.q("coins")
        if src == "player.get_deck_money()":
            return Lin.q("money")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            args = list(node.args) + [k.value for k in node.keywords]
            attr = node.func.attr
            try:
                if attr == "pile_length" and args:
                    return self.of_card("supply", args[0])
                if attr == "get_card_count" and args:
                    return self.of_card("owned", args[0])
            except ValueError:
                return src
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
                and "get_all_cards()" in src:
            for t in ("Treasure", "Action", "Victory", "Curse"):
                if f"CardType.{t} in" in src:
                    return Lin.q(f"owned({t.lower()})")
            if src.replace(" ", "") == "len(player.get_all_cards())":
                return Lin.q("owned(all)")
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            a, b = self.value(node.left), self.value(node.right)
            if isinstance(a, Lin) and isinstance(b, Lin):
                if isinstance(node.op, ast.Add):
                    return a + b
                if isinstance(node.op, ast.Sub):
                    return a - b
                if isinstance(node.op, ast.Mult) and (not a.terms or not b.terms):
                    return b.scale(a.const) if not a.terms else a.scale(b.const)
                if isinstance(node.op, ast.Div) and not b.terms and b.const != 0:
                    return a.scale(1 / b.const)
        return src

    def condition(self, node):
        if isinstance(node, ast.BoolOp):
            return ("and" if isinstance(node.op, ast.And) else "or", [self.condition(v) for v in node.values])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return ("not", self.condition(node.operand))
        if isinstance(node, ast.Compare):
            parts, left = [], node.left
            for op, right in zip(node.ops, node.comparators):
                a, b = self.value(left), self.value(right)
                if type(op) in CMP and isinstance(a, Lin) and isinstance(b, Lin):
                    parts.append(Atom(a, CMP[type(op)], b))
                else:
                    parts.append(Dropped(ast.unparse(ast.Compare(left, [op], [right]))))
                left = right
            return parts[0] if len(parts) == 1 else ("and", parts)
        return Dropped(ast.unparse(node))

    def yields(self, body, guard, out: list):
        """(card, condition) of every `yield card` in the statements, under their `if`s."""
        for st in body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                self.names[st.targets[0].id] = self.value(st.value)
            elif isinstance(st, ast.If):
                cond = self.condition(st.test)
                self.yields(st.body, guard + [cond], out)
                if st.orelse:
                    self.yields(st.orelse, guard + [("not", cond)], out)
            elif isinstance(st, ast.Expr) and isinstance(st.value, (ast.Yield, ast.YieldFrom)):
                card = self.card(st.value.value) if st.value.value is not None else None
                if card is not None:
                    out.append((card, ("and", list(guard)) if guard else True))
            elif isinstance(st, ast.Return) and isinstance(st.value, ast.Call) and st.value.args \
                    and isinstance(st.value.args[0], (ast.List, ast.Tuple)):
                for el in st.value.args[0].elts:                 # return iter([a, b])
                    card = self.card(el)
                    if card is not None:
                        out.append((card, ("and", list(guard)) if guard else True))


def read(path: Path, db) -> list[Source]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError as e:
        raise HocError(f"{path} is not valid Python: {e.msg} (line {e.lineno})") from None
    except (OSError, UnicodeDecodeError) as e:
        raise HocError(f"cannot read {path}: {e}") from None
    out = []
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        methods = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
        if "buy_priority" not in methods:
            continue
        named: set[str] = set()
        reader = _Reader(db, named)
        buys: list = []
        reader.yields(methods["buy_priority"].body, [], buys)
        plays: list = []
        if "action_priority" in methods:
            _Reader(db, named).yields(methods["action_priority"].body, [], plays)
        named |= {c for c, _ in buys} | {c for c, _ in plays}
        rules = [Rule(card, cond, card in db.ids) for card, cond in buys]
        play = [c for c, _ in plays if c in db.ids and "action" in db[c].types]
        name = cls.name.removesuffix("Decider")
        doc = " ".join((ast.get_docstring(cls) or "").split())
        notes = [] if cls.bases and ast.unparse(cls.bases[0]) == "BotDecider" else \
            [f"{ast.unparse(cls.bases[0]) if cls.bases else 'its base class'}'s card decisions are not translated "
             f"(hoc's bot decides)"]
        out.append(Source(name, "Evan Slack (pyminion)", doc, rules, play, notes=notes, cards=named,
                          unknown={c for c in named if c not in db.ids}))
    if not out:
        raise HocError(f"{path}: no pyminion bot in it (a class with buy_priority)")
    return out


def files(path: Path) -> list[Path]:
    return [path] if path.is_file() else sorted(p for p in path.glob("*.py") if p.name != "__init__.py")


def source_path(file: Path) -> str:
    return f"pyminion/bots/examples/{file.name}"
