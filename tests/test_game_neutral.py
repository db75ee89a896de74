"""Shared code is game-neutral: no module outside a game's own package names that game's cards or
princesses, and the loops, the harness and the environments reach a game only through its spec.

A card is named by its English name as printed (`Court Maid`, `First Princess Lulunasaika`, and the
princess's own name, `Lulunasaika`), or by its id as a string (`"court_maid"`): what rules written
into shared code would have to say. Comments and docstrings count too: a shared module that explains
itself by one game's cards is not shared.

`STILL_NAMING` lists shared modules allowed to name a game's cards while they are being made neutral
(none now): the test fails when a module not listed names one, and when a listed one stops.
"""
from __future__ import annotations

import csv
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hoc"
GAMES = PACKAGE / "games"


# card names that are also the toolkit's own words or a cited author ("market": a game's supply of kinds;
# Silver et al. 2017, the PUCT paper)
VOCABULARY = {'"market"', "'market'", "Silver"}


def _names(game: str) -> set[str]:
    names = set()
    with (GAMES / game / "data" / "cards.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            name = row.get("name_en") or row["name"]
            names.add(name)
            if row.get("category") == "princess":
                names.add(name.split()[-1])                 # "Second Princess Laolily" -> "Laolily"
            names.add(f'"{row["id"]}"')
            names.add(f"'{row['id']}'")
    return names - VOCABULARY


def _pattern(names: set[str]) -> re.Pattern:
    words = sorted(names, key=len, reverse=True)
    return re.compile("|".join(rf"(?<![\w'\"]){re.escape(w)}(?![\w'\"])" if w[0] not in "'\"" else re.escape(w)
                               for w in words))


def naming(game: str) -> dict[str, list[str]]:
    """Shared modules (outside every game's own package hoc/games/<game>/) that name its cards, with
    the names found. (Games share card names, Curse or Library: another game's package naming its own
    card is not shared code naming this one's.)"""
    pattern = _pattern(_names(game))
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if any(GAMES / g in path.parents for g in GAME_NAMES):
            continue
        hits = sorted(set(pattern.findall(path.read_text(encoding="utf-8"))))
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    return found


GAME_NAMES = sorted(p.name for p in GAMES.iterdir() if (p / "data" / "cards.csv").is_file())
STILL_NAMING: dict[str, set[str]] = {
    "heart_of_crown": set(),
    "dominion": set(),
}


def test_every_game_is_checked():
    assert sorted(STILL_NAMING) == GAME_NAMES


def test_no_shared_module_names_a_games_cards_except_those_still_listed():
    for game, listed in STILL_NAMING.items():
        found = naming(game)
        new = {m: names for m, names in found.items() if m not in listed}
        assert not new, f"shared modules naming {game}'s cards: {new}"
        clean = sorted(set(listed) - set(found))
        assert not clean, f"no longer naming {game}'s cards (take them off STILL_NAMING): {clean}"


def test_the_check_finds_a_card_named_in_shared_code(tmp_path):
    pattern = _pattern(_names("heart_of_crown"))
    assert pattern.findall('x = "court_maid"  # a Court Maid') == ['"court_maid"', "Court Maid"]
    assert pattern.findall("Laolily backs") == ["Laolily"]
    assert pattern.findall("market, marketplace, courtyard") == []


# ---- no game named in shared code, no game's package imported by the shared agents --------------------

import ast  # noqa: E402

# shared modules allowed to name a game, each with its reason
NAMING_A_GAME = {
    "hoc/_moved.py": "it names the modules that moved out of the shared packages into Heart of Crown's",
}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body \
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            found.add(id(node.body[0].value))
    return found


def _game_words() -> re.Pattern:
    """A game's package name or its title, as a word (`heart_of_crown`, `Heart of Crown`, `dominion`)."""
    words = set()
    for game in GAME_NAMES:
        words.add(game)
        words.add(game.replace("_", " "))
    return re.compile(r"(?<!\w)(%s)(?!\w)" % "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)),
                      re.IGNORECASE)


def _shared_modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        if GAMES in path.parents:
            continue
        yield str(path.relative_to(ROOT)), path


def _a_games_name_against_a_string(node: ast.Compare) -> bool:
    """`ruleset.game.name == "..."` (or !=, in): a branch on which game it is, not a check that two
    things play the same game."""
    sides = [node.left, *node.comparators]
    named = any(isinstance(e, ast.Attribute) and e.attr == "name" and isinstance(e.value, ast.Attribute)
                and e.value.attr == "game" for e in sides)
    return named and any(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in sides)


def game_naming() -> dict[str, list[str]]:
    """Shared modules whose code (not their docstrings or comments) names a game: a string naming it,
    or a comparison of a game's name (`ruleset.game.name == ...`)."""
    pattern = _game_words()
    found: dict[str, list[str]] = {}
    for name, path in _shared_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            hit = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs \
                    and pattern.search(node.value):
                hit = f"line {node.lineno}: {node.value[:60]!r}"
            elif isinstance(node, ast.Compare) and _a_games_name_against_a_string(node):
                hit = f"line {node.lineno}: compares a game's name"
            if hit:
                found.setdefault(name, []).append(hit)
    return found


def test_no_shared_code_names_a_game_or_compares_a_games_name():
    found = {m: hits for m, hits in game_naming().items() if m not in NAMING_A_GAME}
    assert not found, f"shared code naming a game (ask the game's spec instead): {found}"
    clean = sorted(m for m in NAMING_A_GAME if m not in game_naming())
    assert not clean, f"no longer naming a game (take them off NAMING_A_GAME): {clean}"


def test_the_check_sees_a_games_name_in_code_but_not_in_a_docstring(tmp_path, monkeypatch):
    """The check itself: a module comparing a game's name is caught, one explaining itself by it is not."""
    shared = tmp_path / "hoc"
    (shared / "games").mkdir(parents=True)
    (shared / "told.py").write_text('"""Plays Heart of Crown and Dominion alike."""\nX = 1\n')
    (shared / "branch.py").write_text('def f(ruleset):\n    return ruleset.game.name == "dominion"\n')
    (shared / "title.py").write_text('WHAT = "the Heart of Crown rules"\n')
    monkeypatch.setattr(__import__(__name__), "PACKAGE", shared, raising=False)
    globals_ = globals()
    monkeypatch.setitem(globals_, "PACKAGE", shared)
    monkeypatch.setitem(globals_, "GAMES", shared / "games")
    monkeypatch.setitem(globals_, "ROOT", tmp_path)
    found = game_naming()
    assert set(found) == {"hoc/branch.py", "hoc/title.py"}


def test_no_shared_agent_module_imports_a_games_package():
    """`hoc/agents/` keeps what every game shares: it reaches a game through its spec, never by import."""
    games = "|".join(GAME_NAMES)
    found = []
    for path in sorted((PACKAGE / "agents").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.relative_to(ROOT)}:{node.lineno} imports {n}" for n in names
                      if re.match(rf"hoc\.games\.({games})\b", n)]
    assert not found, found
