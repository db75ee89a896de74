"""One named test (or a few) per 1st-edition common card whose text differs from the 2nd edition's,
built from the seed texts (seeds 002/003, as `reference/hoc-cards.md` §2.5-2.6 translates them), the
readings of §4 and RULINGS. Test names say the rule checked: `test_1e_<card>_<what>`.

Positions are built with `Game.arrange` on 1st-edition games whose market is a list of 10 common
kinds; the market counts a test relies on are set explicitly. Seats are 0-based.
"""
from __future__ import annotations

import pytest

from hoc.game import Game
from hoc.rules import Ruleset

from conftest import labels, play_all

CITIES = ["city"] * 12          # a harmless deck: no reshuffle during the turn under test

MARKET_1E_A = ["donation", "adventurer", "city_development", "supply_unit", "bank", "wishing_well",
               "post_horse", "trading_ship", "hunted_beast", "alchemist"]


def rules(players=2, market=MARKET_1E_A, **kw) -> Ruleset:
    return Ruleset(edition="1e", players=players, market=market, **kw)


@pytest.fixture(scope="module")
def r2() -> Ruleset:
    return rules(2)


def new(ruleset, seed=7) -> Game:
    g = Game(ruleset, seed=seed)
    assert g.turn_player == 0 and g.context == "main phase"
    return g


@pytest.fixture
def g2(r2) -> Game:
    return new(r2)


def me(g, hand, deck=None, discard=None, **kw):
    """Arrange seat 0 (the turn player): hand, a City deck and an empty discard pile by default."""
    g.arrange(0, hand=hand, deck=CITIES if deck is None else deck, discard={} if discard is None else discard,
              **kw)


def abroad(g, card) -> int:
    return g.exiled().get(card, 0)


def top_face_up(g, p) -> bool:
    return g.deck_face_up(p)[:1] not in ([], [None])


def to_cleanup(g):
    """Pass the Main and Second phases of the current turn."""
    turn = g.turns
    while g.turns == turn and g.context in ("main phase", "second phase"):
        g.apply("pass")


# ---- Donation: "Pay 1 coin: exile any 1 card from your hand." ---------------------------------

def test_1e_donation_pays_one_coin_to_exile_any_card_from_hand(g2):
    g = g2
    me(g, {"city": 1, "donation": 1, "apprentice_maid": 1, "curse": 1})
    play_all(g, "city", "donation")
    assert g.context == "card choice"
    # any card, Curses too; paying is the player's choice
    assert set(labels(g)) == {"choose apprentice_maid", "choose curse", "pass"}
    g.apply("choose curse")
    assert g.coins == 1 and abroad(g, "curse") == 1
    assert g.hand(0) == {"apprentice_maid": 1}


def test_1e_donation_without_a_coin_does_nothing_and_may_be_declined(g2):
    g = g2
    me(g, {"donation": 1, "apprentice_maid": 1})
    g.apply("play donation")            # nothing to pay with: nothing asked, and the turn is over
    assert g.turn_player == 1 and abroad(g, "apprentice_maid") == 0
    assert g.discard_pile(0) == {"donation": 1, "apprentice_maid": 1}
    h = new(g.ruleset)
    me(h, {"city": 1, "donation": 1, "apprentice_maid": 1})
    play_all(h, "city", "donation")
    h.apply("pass")
    assert h.coins == 2 and h.hand(0) == {"apprentice_maid": 1} and abroad(h, "apprentice_maid") == 0


# ---- Adventurer: "Pay 1 coin: exile 1 non-Curse card from your hand; gain a card from the market
# costing up to the exiled card's cost + 2." --------------------------------------------------

def test_1e_adventurer_pays_one_coin_to_exile_a_non_curse_card_and_gain_up_to_its_cost_plus_two(g2):
    g = g2
    me(g, {"farming_village": 1, "adventurer": 1, "city": 1, "curse": 1}, market={"city": 10, "senator": 5})
    play_all(g, "farming_village", "adventurer")
    assert set(labels(g)) == {"choose city", "pass"}            # never the Curse
    g.apply("choose city")
    assert g.coins == 0 and abroad(g, "city") == 1
    choices = set(labels(g))
    assert "choose senator" in choices and "choose large_city" not in choices     # up to 3 + 2
    g.apply("choose senator")
    assert g.discard_pile(0)["senator"] == 1 and g.owned(0, "senator") == 1


def test_1e_adventurer_without_a_coin_does_nothing(g2):
    g = g2
    me(g, {"post_horse": 1, "adventurer": 1, "city": 1})
    play_all(g, "post_horse", "adventurer")
    assert g.context == "main phase" and g.coins == 0
    assert g.hand(0) == {"city": 2} and abroad(g, "city") == 0      # a City drawn by the Post Horse


# ---- City Development: as in 2E, but City -> Large City costs 2 coins ------------------------

def test_1e_city_development_city_to_large_city_costs_two_coins(g2):
    g = g2
    me(g, {"farming_village": 1, "city_development": 1, "city": 1}, market={"large_city": 5, "city": 5})
    play_all(g, "farming_village", "city_development")
    # one coin pays only the Farming Village -> City mode: this hand has no Farming Village left
    assert g.context == "main phase" and g.hand(0) == {"city": 1}
    h = new(g.ruleset)
    me(h, {"city": 2, "city_development": 1, "farming_village": 1}, market={"large_city": 5, "city": 5})
    play_all(h, "city", "city_development")
    assert set(labels(h)) == {"number 0", "number 1", "pass"}
    h.apply("number 1")
    h.apply("choose city")
    assert h.coins == 0 and h.hand(0) == {"large_city": 1, "farming_village": 1}
    assert abroad(h, "city") == 1


def test_1e_city_development_farming_village_to_city_costs_one_coin(g2):
    g = g2
    me(g, {"farming_village": 2, "city_development": 1}, market={"city": 5})
    play_all(g, "farming_village", "city_development")
    assert set(labels(g)) == {"number 0", "pass"}
    g.apply("number 0")
    g.apply("choose farming_village")
    assert g.coins == 0 and g.hand(0) == {"city": 1} and abroad(g, "farming_village") == 1


# ---- Supply Unit: "Draw 1. At the start of Cleanup you may put a non-Supply-Unit card you played
# this turn face-up on top of your deck." -------------------------------------------------------

def test_1e_supply_unit_returns_any_card_played_even_a_territory(g2):
    g = g2
    me(g, {"supply_unit": 1, "city": 1, "large_city": 1}, deck=["farming_village"] + CITIES)
    play_all(g, "supply_unit", "city", "large_city")
    to_cleanup(g)
    assert g.context == "card choice" and g.decider == 0
    assert set(labels(g)) == {"choose city", "choose large_city", "pass"}   # Territories too, not itself
    g.apply("choose large_city")
    assert g.turn_player == 1
    assert g.hand(0)["large_city"] == 1                       # on top, drawn in the new hand
    assert "large_city" not in g.discard_pile(0)


# ---- Bank: "+X coins, X = (Banks, Cities and Large Cities played this turn) + 1" -------------

def test_1e_bank_counts_banks_cities_and_large_cities_played_plus_one(g2):
    g = g2
    # seed 002's example: City, Large City, Large City, Large City, Bank
    me(g, {"city": 1, "large_city": 3, "bank": 1})
    play_all(g, "city", "large_city", "large_city", "large_city", "bank")
    assert g.coins == 2 + 3 * 3 + (1 + 1 + 3 + 1)               # X counts this Bank


def test_1e_bank_alone_gives_one_coin_and_a_second_bank_counts_the_first(g2):
    g = g2
    me(g, {"post_horse": 1, "bank": 2}, deck=["bank"] + CITIES)
    play_all(g, "post_horse", "bank")
    assert g.coins == 2                                        # itself + 1
    g.apply("play bank")
    assert g.coins == 2 + 3


# ---- the random 1E market ----------------------------------------------------------------------

def test_1e_random_market_draws_only_implemented_kinds():
    r = Ruleset(edition="1e", players=2)
    db = r.cards
    _, kinds = r.market_piles
    assert len(kinds) >= 10
    assert all(not db.unimplemented(db.cards_of_pile(k)) for k in kinds)
    for seed in range(20):
        g = Game(r, seed=seed)
        drawn = {db.frame.pile.iat[c] for c in range(len(db)) if db.frame.category.iat[c] == "common"
                 and (g.market().get(db.name(c), 0) or db.name(c) in g.supply())}
        assert drawn and drawn <= set(kinds)
