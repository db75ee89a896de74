"""What the tool says to a person: card texts, did-you-mean hints, the version, seat numbers, the
simulate summary's intervals, the SPRT's wording, and replay logs in a player's words."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from hoc import __version__
from hoc.cards import CardDB
from hoc.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- card texts -----------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", ["2e", "1e"])
def test_every_card_with_an_effect_routine_has_an_english_text(edition):
    db = CardDB(edition)
    for i, card in enumerate(db.ids):
        if db.frame.effect.iat[i]:
            assert db.text(card), f"{edition} {card} has an effect routine but no text"
        assert "…" not in db.text(card), f"{edition} {card}: the text is a fragment"


def test_card_text_is_found_by_id_english_name_or_the_english_editions_name():
    db = CardDB("2e")
    assert db.text("laolily") == db.text("Second Princess Laolily") == db.text(db.index("laolily"))
    assert "Court Maid" in db.text("laolily")
    assert db.lookup("Royal Maid") == db.lookup("court maid") == db.index("court_maid")
    assert db.text("duke") == ""          # no text: the card is its values


@pytest.mark.parametrize("edition", ["2e", "1e"])
def test_hoc_cards_prints_every_text_within_100_columns(capsys, edition):
    code, out, err = run(capsys, "cards", "--edition", edition)
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 100
    flat = " ".join(out.split())
    db = CardDB(edition)
    for i in range(len(db)):
        assert f"{db.english(i)} [{db.name(i)}]" in flat
        assert " ".join(db.text(i).split()) in flat


def test_hoc_cards_name_shows_one_card_with_its_values_and_text(capsys):
    code, out, err = run(capsys, "cards", "Curse Witch")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Curse Witch [curse_witch]: Action/Attack (Magic), cost 5, 0 links"
    assert "each gain a 'Curse'" in out and "Duke" not in out


def test_hoc_cards_json_carries_the_text(capsys):
    code, out, err = run(capsys, "cards", "hunted_beast", "--json")
    (card,) = json.loads(out)
    assert card["text_en"].startswith("Draw 1 card.")


# ---- did you mean, version --------------------------------------------------------------------------

@pytest.mark.parametrize("argv,hint", [
    (["simulate", "--agents", "basic_rsh", "--market", "basic"], "basic_rush"),
    (["simulate", "--market", "seige"], "siege"),
    (["simulate", "--market", "scout,wishing_wel,post_horse,trading_ship,purveyor,supply_unit,library,"
      "city_development,adventurer,alchemist"], "wishing_well"),
    (["simulate", "--princesses", "laolilly", "--market", "basic"], "laolily"),
    (["simulate", "--override", "dukr.cost=7", "--market", "basic"], "duke"),
    (["simulate", "--override", "duke.cots=7", "--market", "basic"], "cost"),
    (["simulate", "--override", "royal_maid.cost=2", "--market", "basic"], "court_maid"),
    (["cards", "alchemyst"], "alchemist"),
])
def test_a_mistyped_name_gets_one_line_with_a_guess_and_exit_code_2(capsys, argv, hint):
    code, out, err = run(capsys, *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hoc: error: ")
    assert f"(did you mean {hint!r}?)" in lines[0]


def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"hoc {__version__}"
