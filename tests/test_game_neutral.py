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
