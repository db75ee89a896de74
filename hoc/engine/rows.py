"""An agent's parameter row, laid out in one table per game: every field's name, offset, length and
scale, and which kinds of agent carry it.

A jitted agent reads its settings from an int32 row in the state's lineup block (`hoc.engine.layout`,
N_PARAMS slots). Several kinds share one row: a search agent's row is its rollout list's row with the
search's own settings after it, a planning list's is a list's row with the planner's settings in its
tail. Declaring every field in one table (`Row`) makes the sharing explicit and checked: at import, no
two fields a kind carries may overlap and every field must fit in the row; a kind's modules read their
offsets from the table, never by counting from another module's constants (an overlap of that kind
once made a real bug).

A field's `scale` says how its value is stored: 1 for whole numbers, 1000 for a number kept to three
decimals (`store` and `read` convert)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    name: str                   # "search.iterations": its block, then its own name
    offset: int
    length: int = 1
    scale: int = 1              # the stored value is the real one times this
    kinds: tuple[str, ...] = ()     # the kinds of agent whose rows carry it ("list", "plan", "search", ...)
    doc: str = ""

    @property
    def end(self) -> int:
        return self.offset + self.length

    @property
    def block(self) -> str:
        return self.name.split(".", 1)[0]


class Row:
    """A game's row layout: its fields, checked when made (`check`)."""

    def __init__(self, size: int, fields: list[Field]):
        self.size = size
        self.fields = {f.name: f for f in fields}
        if len(self.fields) != len(fields):
            raise ValueError("a field is declared twice")
        self.check()

    def __getitem__(self, name: str) -> Field:
        return self.fields[name]

    def at(self, name: str) -> int:
        """The offset of a field."""
        return self.fields[name].offset

    def kinds(self) -> set[str]:
        return {k for f in self.fields.values() for k in f.kinds}

    def carried(self, kind: str) -> list[Field]:
        """The fields a kind's rows carry, by offset."""
        return sorted((f for f in self.fields.values() if kind in f.kinds), key=lambda f: f.offset)

    def check(self) -> None:
        """Every field fits in the row, and no two fields one kind carries overlap."""
        for f in self.fields.values():
            if f.offset < 0 or f.length < 1 or f.end > self.size:
                raise ValueError(f"field {f.name} ({f.offset}..{f.end - 1}) is not inside the row of {self.size}")
            if not f.kinds:
                raise ValueError(f"field {f.name}: no kind carries it")
        for kind in self.kinds():
            fields = self.carried(kind)
            for a, b in zip(fields, fields[1:]):
                if b.offset < a.end:
                    raise ValueError(f"the rows of {kind} agents: {a.name} ({a.offset}..{a.end - 1}) and "
                                     f"{b.name} ({b.offset}..{b.end - 1}) overlap")

    def store(self, row, name: str, value: float) -> None:
        """Write a field's value into a row, scaled."""
        f = self.fields[name]
        row[f.offset] = round(value * f.scale)

    def read(self, row, name: str) -> float:
        f = self.fields[name]
        return row[f.offset] / f.scale if f.scale != 1 else int(row[f.offset])

    def table(self) -> str:
        """The layout as a Markdown table (offset, length, scale, field, kinds, what it holds)."""
        lines = ["| offset | length | scale | field | carried by | what |", "| --- | --- | --- | --- | --- | --- |"]
        for f in sorted(self.fields.values(), key=lambda f: (f.offset, f.name)):
            lines.append(f"| {f.offset} | {f.length} | {f.scale} | `{f.name}` | {', '.join(f.kinds)} | {f.doc} |")
        return "\n".join(lines)
