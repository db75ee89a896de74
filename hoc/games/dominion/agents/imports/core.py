"""What every importer shares: a source's buy conditions as linear comparisons of the quantities of
`hoc.games.dominion.agents.when`, combined with and/or/not, turned into buy entries of a Dominion bot
file (the plain keys where they say the same, `when` otherwise), and the bot file written with its
source, author, licence and what could not be translated.

A front end (`dominionsim`, `dominiate`, `pyminion`) reads its source into `Source` bots: each a list
of `Rule`s (a card and a condition tree), a play order, trashing settings and notes; `translate`
makes the bot file's text and its coverage row."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm

from hoc.errors import HocError
from hoc.games.dominion.agents import kernel as BK

OPS = ("<", "<=", "==", ">=", ">", "!=")
NEGATE = {"<": ">=", "<=": ">", "==": "!=", ">=": "<", ">": "<=", "!=": "=="}
FLIP = {"<": ">", "<=": ">=", "==": "==", ">=": "<=", ">": "<", "!=": "!="}
MAX_CONJUNCTIONS = 8            # an or of ands beyond this is not split into rules


class Untranslatable(Exception):
    """A part of a condition our format has no quantity for (the message says which)."""


@dataclass(frozen=True)
class Lin:
    """A linear sum: constant + sum of multiplier * quantity (quantities named as `when` reads them)."""

    terms: tuple[tuple[str, Fraction], ...] = ()
    const: Fraction = Fraction(0)

    @staticmethod
    def q(name: str) -> "Lin":
        return Lin(((name, Fraction(1)),))

    @staticmethod
    def n(value) -> "Lin":
        return Lin((), Fraction(value))

    def _d(self) -> dict:
        return dict(self.terms)

    def __add__(self, o: "Lin") -> "Lin":
        d = self._d()
        for k, v in o.terms:
            d[k] = d.get(k, 0) + v
        return Lin(tuple(sorted((k, v) for k, v in d.items() if v != 0)), self.const + o.const)

    def scale(self, f) -> "Lin":
        f = Fraction(f)
        return Lin(tuple((k, v * f) for k, v in self.terms if v * f != 0), self.const * f)

    def __sub__(self, o: "Lin") -> "Lin":
        return self + o.scale(-1)


@dataclass(frozen=True)
class Atom:
    left: Lin
    op: str
    right: Lin


# a condition tree: True, False, Atom, ("and", [...]), ("or", [...]), ("not", x), Dropped
@dataclass(frozen=True)
class Dropped:
    """A condition that could not be translated: read as true (the rule buys more often than its
    source's), and named in the file."""

    text: str


def negate(t):
    if t is True or t is False:
        return not t
    if isinstance(t, Atom):
        return Atom(t.left, NEGATE[t.op], t.right)
    if isinstance(t, Dropped):
        return t
    kind, parts = t
    if kind == "not":
        return parts
    return ("or" if kind == "and" else "and", [negate(p) for p in parts])


def dnf(t) -> list[list]:
    """The tree as an or of ands (lists of Atoms and Dropped); [] is never, [[]] always."""
    if t is True:
        return [[]]
    if t is False:
        return []
    if isinstance(t, (Atom, Dropped)):
        value = static(t) if isinstance(t, Atom) else None
        if value is not None:
            return [[]] if value else []
        return [[t]]
    kind, parts = t
    if kind == "not":
        return dnf(negate(parts))
    if kind == "or":
        return [c for p in parts for c in dnf(p)]
    out = [[]]
    for p in parts:
        out = [a + b for a in out for b in dnf(p)]
        if len(out) > 64:
            raise Untranslatable("a condition with too many alternatives")
    return out


def static(a: Atom):
    """True or False if the atom holds no quantity, else None."""
    d = a.left - a.right
    if d.terms:
        return None
    return {"<": d.const < 0, "<=": d.const <= 0, "==": d.const == 0, ">=": d.const >= 0, ">": d.const > 0,
            "!=": d.const != 0}[a.op]


@dataclass
class Rule:
    card: str                   # our card id, or the source's name if not in our card set
    when: object = True         # condition tree
    known: bool = True          # the card is in our card set


@dataclass
class Source:
    """One bot as a front end read it."""

    name: str                   # the bot's name in its source
    author: str
    description: str
    rules: list[Rule]
    play: list[str] = field(default_factory=list)
    trash_copper: int | None = None
    trash_estates_above: int | None = None
    notes: list[str] = field(default_factory=list)      # what was not translated, besides dropped conditions
    kingdom: list[str] = field(default_factory=list)    # the kingdom its author named, if any
    cards: set[str] = field(default_factory=set)        # every card it names (ours or not)
    unknown: set[str] = field(default_factory=set)      # the cards it names that our card set lacks


@dataclass(frozen=True)
class Origin:
    """Where a file of bots came from."""

    importer: str
    repository: str
    path: str
    commit: str
    licence: str                # e.g. "MIT, Copyright (c) 2018 Jeroen Aga"


@dataclass
class Coverage:
    bot: str
    file: str
    rules: int                  # buy rules in the source
    translated: int             # buy entries written
    conditions: int             # conditions in the source's rules
    dropped: list[str]          # conditions and rules not translated


def slug(text: str) -> str:
    """A file name's stem from a bot's name: BigSmithy, "Big Smithy" -> big_smithy."""
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text)
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "bot"


# ---- one conjunction of atoms as a buy entry ----
def _side(lin: Lin) -> str:
    (name, mult), = lin.terms
    return name if mult == 1 else f"{int(mult)} * {name}"


def when_text(a: Atom) -> str:
    """The atom as a `when` condition: at most one quantity on each side, whole numbers."""
    d = a.left - a.right
    den = lcm(*(v.denominator for _, v in d.terms), d.const.denominator)
    d = d.scale(den)
    pos = Lin(tuple((k, v) for k, v in d.terms if v > 0))
    neg = Lin(tuple((k, -v) for k, v in d.terms if v < 0))
    if len(pos.terms) > 1 or len(neg.terms) > 1:
        raise Untranslatable("a comparison of more than two quantities")
    op, k = a.op, -d.const          # pos - neg + c OP 0  <=>  pos OP neg - c
    if not pos.terms:
        pos, neg, op, k = neg, pos, FLIP[op], -k     # a number on the left: swap
    right = _side(neg) if neg.terms else ""
    if right:
        right += f" + {int(k)}" if k > 0 else f" - {int(-k)}" if k < 0 else ""
    else:
        right = str(int(k))
    return f"{_side(pos)} {op} {right}"


def entry(card: str, atoms: list[Atom], db) -> dict:
    """A buy entry for the card under the conjunction: conditions the plain keys say exactly go to
    them (coins, owned_below, provinces_at_most/least, fewer_than + plus), the rest to `when`."""
    e: dict = {"card": card}
    cost = db[card].cost
    when: list[str] = []
    for a in atoms:
        text = when_text(a)
        if text in ("gains_to_end > 0", "gains_to_end >= 1", "gains_to_end != 0"):
            continue                # always so while the game runs
        m = re.fullmatch(r"([a-z_]+(?:\([a-z_|]+\))?) (<|<=|==|>=|>|!=) (\d+)", text)
        if m:
            name, op, n = m.group(1), m.group(2), int(m.group(3))
            lo, hi = {"<": (None, n - 1), "<=": (None, n), "==": (n, n), ">=": (n, None), ">": (n + 1, None),
                      "!=": (None, None)}[op]
            if name == "coins" and op != "!=":
                if lo is not None and "coins" not in e:
                    e["coins"] = max(lo, cost)
                    lo = None
                if hi is not None and "max_coins" not in e:
                    e["max_coins"] = hi
                    hi = None
                if lo is None and hi is None:
                    continue
            if name == f"owned({card})" and op in ("<", "<=", "==") and "owned_below" not in e and (op != "==" or n == 0):
                e["owned_below"] = hi + 1
                continue
            if name == "supply(province)" and op != "!=" and "provinces_at_most" not in e \
                    and "provinces_at_least" not in e:
                if hi is not None:
                    e["provinces_at_most"] = max(hi, 0)
                if lo is not None:
                    e["provinces_at_least"] = lo
                continue
        m = re.fullmatch(rf"owned\({card}\) < owned\(([a-z_]+)\)(?: \+ (\d+))?", text)
        if m and "fewer_than" not in e and m.group(1) in db.ids:
            e["fewer_than"] = m.group(1)
            e["plus"] = int(m.group(2) or 0)
            continue
        when.append(text)
    if when:
        e["when"] = when
    if e.get("coins") == cost:
        del e["coins"]
    return e


# ---- a whole bot ----
def translate(src: Source, origin: Origin, prefix: str, db, partial: bool = False) -> tuple[str, str, Coverage]:
    """(file name, file text, coverage) of a bot read by a front end. A bot whose rules overflow the
    buy entries or `when` conditions a bot holds is refused unless `partial` (then its last rules
    are left out)."""
    name = f"{prefix}_{slug(src.name)}"
    dropped: list[str] = []
    entries: list[dict] = []
    n_when = 0
    conditions = 0
    for i, rule in enumerate(src.rules, 1):
        try:
            conj = dnf(rule.when)
        except Untranslatable as e:
            dropped.append(f"rule {i} ({rule.card}): {e}; the rule is left out")
            continue
        conditions += _count(rule.when)
        if not rule.known:
            dropped.append(f"rule {i} ({rule.card}): the card is not in hoc's Dominion card set")
            continue
        if not conj:
            dropped.append(f"rule {i} ({rule.card}): its condition never holds on hoc's card set")
            continue
        if any(not c for c in conj):
            conj = [[]]             # one alternative always holds
        if len(conj) > MAX_CONJUNCTIONS:
            dropped.append(f"rule {i} ({rule.card}): a condition of {len(conj)} alternatives; the rule is left out")
            continue
        for atoms in conj:
            kept = []
            for a in atoms:
                if isinstance(a, Dropped):
                    dropped.append(f"rule {i} ({rule.card}): condition `{a.text}` (read as true)")
                    continue
                try:
                    when_text(a)
                except Untranslatable as e:
                    dropped.append(f"rule {i} ({rule.card}): {e} (read as true)")
                    continue
                kept.append(a)
            e = entry(rule.card, kept, db)
            if len(entries) == BK.MAX_BUY:
                dropped.append(f"rule {i} ({rule.card}): beyond the {BK.MAX_BUY} buy entries a bot holds; left out")
                continue
            if n_when + len(e.get("when", ())) > BK.MAX_WHEN:
                dropped.append(f"rule {i} ({rule.card}): beyond the {BK.MAX_WHEN} `when` conditions a bot holds; "
                               f"left out")
                continue
            n_when += len(e.get("when", ()))
            entries.append(e)
    if not entries:
        raise HocError(f"bot {src.name!r}: no buy rule could be translated")
    full = [d for d in dropped if "a bot holds; left out" in d]
    if full and not partial:
        raise HocError(f"{len(full)} of its rules do not fit the {BK.MAX_BUY} buy entries and {BK.MAX_WHEN} `when` "
                       f"conditions a bot holds (--partial writes the rest)")
    cov = Coverage(src.name, f"{name}.toml", len(src.rules), len(entries), conditions, dropped + src.notes)
    return f"{name}.toml", _text(src, origin, entries, cov), cov


def _count(t) -> int:
    if t is True or t is False:
        return 0
    if isinstance(t, (Atom, Dropped)):
        return 1
    kind, parts = t
    return _count(parts) if kind == "not" else sum(_count(p) for p in parts)


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _value(v) -> str:
    if isinstance(v, str):
        return _q(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)


def _text(src: Source, origin: Origin, entries: list[dict], cov: Coverage) -> str:
    lines = [f"# {src.name} by {src.author or 'unknown'}, imported by `hoc import-bots {origin.importer}`",
             f"# from {origin.repository} {origin.path}" + (f" (commit {origin.commit})" if origin.commit else ""),
             f"# licence: {origin.licence}",
             "# Card play and card questions follow hoc's bot (play order below); buy rules are the source's."]
    if cov.dropped:
        lines.append("# Not translated:")
        lines += [f"#   - {d}" for d in cov.dropped]
    desc = " ".join(src.description.split()) or f"{src.name} ({origin.importer})"
    lines += ['game = "dominion"', f"description = {_q(desc[:300])}"]
    if src.play:
        lines.append(f"play = {_value(src.play)}")
    if src.trash_copper is not None:
        lines.append(f"trash_copper = {src.trash_copper}")
    if src.trash_estates_above is not None:
        lines.append(f"trash_estates_above = {src.trash_estates_above}")
    lines.append("buy = [")
    for e in entries:
        lines.append("  { " + ", ".join(f"{k} = {_value(v)}" for k, v in e.items()) + " },")
    lines.append("]")
    lines.append("")
    lines.append("[source]")
    meta = {"importer": origin.importer, "repository": origin.repository, "path": origin.path,
            "commit": origin.commit, "bot": src.name, "author": src.author, "licence": origin.licence}
    if src.kingdom:
        meta["kingdom"] = ",".join(src.kingdom)
    lines += [f"{k} = {_q(v)}" for k, v in meta.items() if v]
    return "\n".join(lines) + "\n"
