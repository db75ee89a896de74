"""`docs/rules.md` must not drift away from the engine: every test it names exists, every numbered
reading names at least one test, its cross-references point at readings that exist, it covers every
ruleset option and every card whose text the engine plays, and its table of 1st-edition data
differences equals the card data."""
from __future__ import annotations

import ast
import dataclasses
import re
from functools import cache
from pathlib import Path

import pytest

from hoc.games.heart_of_crown.cards import CardDB
from hoc.games.heart_of_crown.rules import Ruleset

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
TEST_REF = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
READING = re.compile(r"^### R(\d+)\. \S", re.M)
CROSS_REF = re.compile(r"\bR(\d+)\b")
DATA_FIELDS = ("cost", "links", "coins", "sp", "types", "subtypes")
DATA_TABLE = "### 1st-edition card data that differs"


@cache
def text() -> str:
    return DOC.read_text(encoding="utf-8")


@cache
def defined_tests(path: str) -> frozenset[str]:
    """Names of the test functions a test file defines (module level or in a class)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return frozenset(n for n in names if n.startswith("test_"))


def readings() -> dict[int, str]:
    """Numbered readings: number -> text up to the next heading."""
    out = {}
    marks = list(READING.finditer(text()))
    for m in marks:
        end = text().find("\n#", m.end())
        out[int(m[1])] = text()[m.start():end if end >= 0 else len(text())]
    return out


def test_every_test_the_document_names_exists():
    refs = TEST_REF.findall(text())
    assert refs, "docs/rules.md names no test"
    missing = [f"{path}::{name}" for path, name in refs
               if not (ROOT / path).is_file() or name not in defined_tests(path)]
    assert not missing, "docs/rules.md names tests that do not exist:\n" + "\n".join(missing)


def test_readings_are_numbered_once_each_from_one():
    numbers = [int(m[1]) for m in READING.finditer(text())]
    assert numbers == list(range(1, len(numbers) + 1)), numbers


def test_every_reading_names_at_least_one_test():
    bare = [f"R{n}" for n, body in readings().items()
            if not any(line.startswith("Tests:") and TEST_REF.search(body[body.index(line):])
                       for line in body.splitlines())]
    assert not bare, f"readings without a 'Tests:' line naming a test: {', '.join(bare)}"


def test_cross_references_point_at_existing_readings():
    known = set(readings())
    body = READING.sub("", text())
    dangling = sorted({int(n) for n in CROSS_REF.findall(body)} - known)
    assert not dangling, f"docs/rules.md refers to readings that do not exist: {dangling}"


@pytest.mark.parametrize("option", [f.name for f in dataclasses.fields(Ruleset)])
def test_every_ruleset_option_is_documented(option):
    documented = f"`{option}`" in text()
    assert documented, f"docs/rules.md does not document the ruleset option {option!r}"


@pytest.mark.parametrize("edition", ["2e", "1e"])
def test_every_card_whose_text_the_engine_plays_is_named(edition):
    """A card routine added to the engine needs its reading here (by the card's id in backticks)."""
    f = CardDB(edition).frame
    played = f[(f.effect != "") & f.implemented]
    unnamed = [c for c in played.id if f"`{c}`" not in text()]
    assert not unnamed, f"cards of {edition} with an effect routine that docs/rules.md does not name: {unnamed}"


def _cell(value) -> str:
    return "-" if value in (0, "") else str(value)


def _documented_data_rows() -> set[tuple[str, str, str, str]]:
    start = text().index(DATA_TABLE)
    rows = set()
    for line in text()[start:].splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("| `"):
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            rows.add((cells[0].strip("`"), cells[1], cells[2], cells[3]))
    return rows


def test_first_edition_data_table_equals_the_card_data():
    two, one = CardDB("2e").frame.set_index("id"), CardDB("1e").frame.set_index("id")
    expected = {(c, fld, _cell(two.at[c, fld]), _cell(one.at[c, fld]))
                for c in two.index.intersection(one.index) for fld in DATA_FIELDS
                if two.at[c, fld] != one.at[c, fld]}
    documented = _documented_data_rows()
    assert documented == expected, (f"in the table, not in the data: {sorted(documented - expected)}; "
                                    f"in the data, not in the table: {sorted(expected - documented)}")


@pytest.mark.parametrize("only,edition,other", [("2nd", "2e", "1e"), ("1st", "1e", "2e")])
def test_cards_of_one_edition_only_are_listed(only, edition, other):
    line = next(l for l in text().splitlines() if l.startswith(f"- Cards of the {only} edition only:"))
    start = text().index(line)
    item = text()[start:text().index("\n- ", start + 1)]
    listed = set(re.findall(r"`(\w+)`", item))
    actual = set(CardDB(edition).ids) - set(CardDB(other).ids)
    assert listed == actual, f"listed, not in the data: {sorted(listed - actual)}; missing: {sorted(actual - listed)}"
