"""The web table's "play all" (`WebTable.play_all`): the plain cards of a hand (`CardDB.plain`, from the
card data: a Territory with no text routine and a play left open; Dominion's Treasures likewise) played
one legal action at a time, ending in exactly the state of playing them one by one, in any order, and
offered only when every card the seat may play is such a card."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("fastapi")

from hoc.games.dominion.cards import CardDB as DominionCards  # noqa: E402
from hoc.games.heart_of_crown.cards import CardDB  # noqa: E402
from hoc.web.errors import Conflict  # noqa: E402
from hoc.web.tables import Setup, WebTable  # noqa: E402

HAND = {"farming_village": 2, "city": 2, "large_city": 1, "apprentice_maid": 1}


def table(seed: int = 3, hand: dict | None = HAND) -> WebTable:
    """A game of a person (seat 0) against basic_rush at its first decision, seat 0's hand set to `hand`."""
    from hoc.research.simulate import resolve

    t = WebTable(*Setup(["human", "basic_rush"], market="basic", seed=seed, turn_cap=30).plan(resolve))
    assert t.game.decider == 0 and t.game.context == "main phase"
    if hand is not None:
        t.game.arrange(0, hand=hand)
    return t


def first_or_last(t: WebTable, last: bool) -> None:
    """One click on a plain card's play, the first or the last the list offers."""
    plays = t.plain_plays()
    t.act(int(plays[-1] if last else plays[0]), seat=0, decisions=len(t.actions))


def test_the_plain_cards_are_read_from_the_card_data_not_named():
    db = CardDB()
    plain = {db.name(i) for i in range(len(db)) if db.plain(i)}
    assert {"farming_village", "city", "large_city", "orchard"} <= plain
    assert all("territory" in db[c].types and db[c].links >= 1 for c in plain)
    assert "karikuma" not in plain                  # a Territory with a text routine (set at Cleanup)
    assert not {"city_development", "duke", "apprentice_maid"} & plain
    closed = CardDB(overrides=(("city", "links", 0),))
    assert not closed.plain(closed.index("city"))   # playing it would close the plays: its order matters
    dom = DominionCards()
    assert {dom.name(i) for i in range(len(dom)) if dom.plain(i)} == {"copper", "silver", "gold"}


def test_play_all_ends_in_the_state_of_playing_them_one_by_one_in_the_same_order():
    a, b = table(), table()
    offer = a.play_all_offer()
    assert offer["plays"] == 5 and {c["card"] for c in offer["cards"]} == {"farming_village", "city", "large_city"}
    played = a.play_all(seat=0, decisions=0)
    assert played == 5
    for _ in range(5):
        first_or_last(b, last=False)
    assert np.array_equal(a.game.state, b.game.state)
    assert a.actions == b.actions and a.feeds == b.feeds
    assert a.game.hand(0) == {"apprentice_maid": 1} and a.game.coins == 1 * 2 + 2 * 2 + 3
    assert a.play_all_offer() is None and a.plain_plays() == []


def test_play_all_ends_in_the_state_of_playing_them_one_by_one_in_any_order():
    a, b = table(seed=9), table(seed=9)
    a.play_all()
    for _ in range(5):
        first_or_last(b, last=True)
    assert b.actions != a.actions                   # another order of the same plays
    assert np.array_equal(a.game.state, b.game.state)


def test_play_all_is_offered_only_when_every_playable_card_is_plain():
    assert table(hand={"farming_village": 1, "city": 1, "city_development": 1}).play_all_offer() is None
    assert table(hand={"farming_village": 1, "duke": 2}).play_all_offer() is None      # one card: a click
    t = table(hand={"farming_village": 3, "duke": 2})                               # Succession cards are not played
    assert t.play_all_offer()["text"] == "play all: 3 Farming Villages"


def test_play_all_is_refused_when_not_offered_and_leaves_the_game_as_it_was():
    t = table(hand={"farming_village": 1, "city": 1, "city_development": 1})
    before = t.game.state.copy()
    with pytest.raises(Conflict, match="nothing to play all"):
        t.play_all()
    with pytest.raises(Conflict, match="the game moved on"):
        table().play_all(decisions=3)
    with pytest.raises(Conflict, match="seat 1 is not to decide"):
        table().play_all(seat=1)
    assert np.array_equal(before, t.game.state) and t.actions == []


def test_a_plain_card_played_through_the_one_decision_interface_stays_legal_throughout():
    t = table()
    seen = []
    original = t.step

    def step():
        g = t.game
        assert g.is_legal(t._answer) and g.decider == 0     # each play is a legal action when it is taken
        seen.append(g.label(t._answer))
        original()
    t.step = step
    t.play_all()
    assert sorted(seen) == sorted(["play farming_village"] * 2 + ["play city"] * 2 + ["play large_city"])


