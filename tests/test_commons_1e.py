"""One named test (or a few) per 1st-edition common card whose text differs from the 2nd edition's,
built from the seed texts (seeds 002/003, as `reference/hoc-cards.md` §2.5-2.6 translates them), the
readings of §4 and RULINGS. Test names say the rule checked: `test_1e_<card>_<what>`.

Positions are built with `Game.arrange` on 1st-edition games whose market is a list of 10 common
kinds; the market counts a test relies on are set explicitly. Seats are 0-based.
"""
from __future__ import annotations

import numpy as np
import pytest

from hoc.games.heart_of_crown.agents.policies import default_answer
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.kernel.zones import FACE_UP
from hoc.games.heart_of_crown.rules import Ruleset

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


# =========================================================================================
# Own routines of 1E texts (market B)
# =========================================================================================

MARKET_1E_B = ["stargazing_witch", "library", "purveyor", "royal_guard", "scout", "conscription_writ",
               "slash_and_burn_farming", "buried_treasure", "post_horse", "trading_ship"]


@pytest.fixture(scope="module")
def rb() -> Ruleset:
    return rules(2, MARKET_1E_B)


@pytest.fixture
def gb(rb) -> Game:
    return new(rb)


def test_1e_seed_chain_example_two_villages_post_horse_two_cities_then_trading_ship_gives_8(gb):
    g = gb
    # seed 002, example 1: FV, FV, Post Horse, City, City, and Trading Ship off the Post Horse's 2nd link
    me(g, {"farming_village": 2, "post_horse": 1, "city": 1, "trading_ship": 1}, deck=CITIES)
    play_all(g, "farming_village", "farming_village", "post_horse")
    assert g.hand(0) == {"city": 2, "trading_ship": 1} and g.open_plays == 2
    play_all(g, "city", "city")
    assert g.open_plays == 2                # 1 + 6 links - 5 cards played
    g.apply("play trading_ship")
    g.apply("number 1")
    assert g.coins == 8 and g.cards_played == 6


def test_1e_stargazing_witch_looks_at_actions_played_plus_one_cards_discards_and_orders(gb):
    g = gb
    me(g, {"post_horse": 2, "stargazing_witch": 1},
       deck=["farming_village", "farming_village", "city", "duke", "curse"] + CITIES)
    play_all(g, "post_horse", "post_horse", "stargazing_witch")
    # two Actions played before it: it looks at the top 3
    assert g.context == "card choice"
    assert set(labels(g)) == {"choose city", "choose duke", "choose curse", "pass"}
    g.apply("choose curse")
    assert g.discard_pile(0) == {"curse": 1}
    assert set(labels(g)) == {"choose city", "choose duke", "pass"}
    g.apply("pass")
    # the rest goes back in any order: the player picks the card that goes under the other
    assert set(labels(g)) == {"choose city", "choose duke"}
    g.apply("choose city")
    assert g.hand(0)["duke"] == 1                 # then draw 1: the Duke left on top
    assert g.deck(0)[:2] == ["city", "city"]


def test_1e_stargazing_witch_first_action_looks_at_one_card(gb):
    g = gb
    me(g, {"stargazing_witch": 1}, deck=["duke"] + CITIES)
    g.apply("play stargazing_witch")
    assert set(labels(g)) == {"choose duke", "pass"}        # the top card only
    g.apply("choose duke")
    assert g.discard_pile(0) == {"duke": 1}
    assert g.hand(0) == {"city": 1}


def test_1e_library_puts_two_non_succession_cards_face_up_on_the_deck_bottom(gb):
    g = gb
    me(g, {"library": 1, "city": 1}, deck=["city", "city"], discard={"post_horse": 1, "large_city": 1, "duke": 1})
    g.apply("play library")
    assert set(labels(g)) == {"number 0", "number 1"}
    g.apply("number 0")
    assert set(labels(g)) == {"choose post_horse", "choose large_city"}      # never a Succession card
    g.apply("choose large_city")
    g.apply("choose post_horse")
    assert g.deck(0) == ["city", "city", "large_city", "post_horse"]
    assert g.deck_face_up(0) == [None, None, "large_city", "post_horse"]
    assert g.discard_pile(0) == {"duke": 1}


def test_1e_library_may_draw_one_instead(gb):
    g = gb
    me(g, {"library": 1, "city": 1}, deck=["duke"] + CITIES, discard={"post_horse": 1})
    g.apply("play library")
    g.apply("number 1")
    assert g.hand(0) == {"duke": 1, "city": 1} and g.discard_pile(0) == {"post_horse": 1}


def test_1e_purveyor_bought_cards_go_face_up_to_the_deck_bottom_in_buying_order(gb):
    g = gb
    me(g, {"purveyor": 1, "large_city": 2}, deck=["city", "city"], market={"city": 10, "court_maid": 10})
    g.apply("play purveyor")               # 1 coin, no link: Large Cities stay in hand
    assert g.coins == 1 and g.context == "second phase"
    g.state[K.H_COINS] = 7                                   # 7 coins to buy with (1 left over)
    g.apply("buy city")
    g.apply("buy court_maid")
    assert g.deck(0) == ["city", "city", "city", "court_maid"]
    assert g.deck_face_up(0) == [None, None, "city", "court_maid"]
    assert "city" not in g.discard_pile(0)


def test_1e_royal_guard_reveals_three_you_put_one_back_face_up_the_others_are_discarded(gb):
    g = gb
    me(g, {"royal_guard": 1})
    g.arrange(1, deck=["duke", "city", "large_city", "senator"])
    g.apply("play royal_guard")
    assert g.coins == 2
    assert g.context == "card choice" and g.decider == 0          # the attacker chooses
    assert set(labels(g)) == {"choose duke", "choose city", "choose large_city"}
    g.apply("choose city")
    assert g.deck(1) == ["city", "senator"] and g.deck_face_up(1)[0] == "city"
    assert g.discard_pile(1) == {"duke": 1, "large_city": 1}


def test_1e_royal_guard_spares_an_opponent_with_a_face_up_card_on_top(gb):
    g = gb
    me(g, {"scout": 1, "royal_guard": 1}, deck=["city"] * 5)
    g.arrange(1, deck=["duke", "city", "large_city", "senator"])
    g.apply("play scout")
    g.apply("pass")                        # my own City stays (face up)
    g.apply("pass")                        # seat 1's Duke stays, face up
    assert g.deck_face_up(1)[0] == "duke"
    g.apply("play royal_guard")
    assert g.context == "second phase"     # nothing asked: seat 1 shows a face-up card on top
    assert g.deck(1) == ["duke", "city", "large_city", "senator"]


def test_1e_scout_every_player_reveals_the_top_card_and_the_player_decides_for_each(gb):
    g = gb
    me(g, {"scout": 1, "large_city": 1}, deck=["curse", "city"])
    g.arrange(1, deck=["duke", "city"])
    g.apply("play scout")
    assert g.context == "card choice" and g.decider == 0
    assert set(labels(g)) == {"choose curse", "pass"}         # my own top card first
    g.apply("choose curse")
    assert g.discard_pile(0) == {"curse": 1}
    assert g.decider == 0 and set(labels(g)) == {"choose duke", "pass"}     # then seat 1's
    g.apply("choose duke")
    assert g.discard_pile(1) == {"duke": 1} and g.deck(1) == ["city"]
    assert g.open_plays == 2 and g.hand(0) == {"large_city": 1}          # no draw in 1E


def test_1e_conscription_writ_pays_one_coin_per_non_territory_card_put_face_up_on_top(gb):
    g = gb
    me(g, {"city": 1, "conscription_writ": 1, "large_city": 1},
       discard={"alchemist": 1, "duke": 1, "large_city": 1})
    play_all(g, "city", "conscription_writ")
    assert set(labels(g)) == {"choose alchemist", "choose duke", "pass"}      # no Territory
    g.apply("choose duke")
    g.apply("choose alchemist")
    assert g.coins == 0 and g.context == "main phase"              # no coin left: it stops
    assert g.deck(0)[:3] == ["alchemist", "duke", "city"]
    assert g.deck_face_up(0)[:2] == ["alchemist", "duke"]
    assert g.discard_pile(0) == {"large_city": 1}


def test_1e_slash_and_burn_gains_a_curse_and_every_farming_village_yields_two_coins(gb):
    g = gb
    me(g, {"farming_village": 3, "slash_and_burn_farming": 1})
    play_all(g, "farming_village", "slash_and_burn_farming")
    assert g.coins == 1
    assert set(labels(g)) == {"number 0", "pass"}
    g.apply("number 0")
    assert g.discard_pile(0) == {"curse": 1} and g.owned(0, "curse") == 1
    assert g.coins == 2                            # the Farming Village played before it counts
    play_all(g, "farming_village", "farming_village")
    assert g.coins == 6


def test_1e_slash_and_burn_does_nothing_without_curses_and_does_not_stack(gb):
    g = gb
    me(g, {"post_horse": 1, "slash_and_burn_farming": 2, "farming_village": 1}, market={"curse": 3})
    play_all(g, "post_horse", "slash_and_burn_farming")
    g.apply("number 0")
    g.apply("play slash_and_burn_farming")         # a second one asks nothing
    assert g.context == "main phase" and g.owned(0, "curse") == 1
    g.apply("play farming_village")
    assert g.coins == 2
    h = new(g.ruleset)
    me(h, {"post_horse": 1, "slash_and_burn_farming": 1, "farming_village": 1}, market={"curse": 0})
    play_all(h, "post_horse", "slash_and_burn_farming", "farming_village")
    assert h.coins == 1 and h.owned(0, "curse") == 0


def test_1e_buried_treasure_gains_the_supply_bottom_card_or_removes_it_from_the_game(gb):
    g = gb
    me(g, {"post_horse": 1, "buried_treasure": 2}, supply=["scout", "library", "imperial_crown"])
    play_all(g, "post_horse", "buried_treasure")
    assert set(labels(g)) == {"number 0", "pass"}
    g.apply("number 0")
    assert g.discard_pile(0) == {"imperial_crown": 1} and g.owned(0, "imperial_crown") == 1
    assert g.supply_deck() == ["scout", "library"]
    g.apply("play buried_treasure")
    g.apply("pass")
    assert abroad(g, "library") == 1 and g.supply_deck() == ["scout"]


# =========================================================================================
# Defense (market D): Rampart, Hideout, Magic Talisman against Attacks
# =========================================================================================

MARKET_1E_D = ["rampart", "hideout", "magic_talisman", "infantry_battalion", "royal_guard", "scout",
               "hunted_beast", "post_horse", "trading_ship", "alchemist"]


@pytest.fixture(scope="module")
def rd() -> Ruleset:
    return rules(2, MARKET_1E_D)


@pytest.fixture
def gd(rd) -> Game:
    return new(rd)


def face_up_top(g, p, n):
    """Turn the top n cards of seat p's deck face up."""
    s = g.state
    off = int(s[K.H_OFF_DECK] + p * s[K.H_DCAP])
    top = int(s[g._pb(p) + K.P_DECK_N])
    for i in range(n):
        s[off + top - 1 - i] |= FACE_UP


def test_1e_rampart_revealed_from_hand_stops_infantry_battalion(gd):
    g = gd
    me(g, {"infantry_battalion": 1})
    g.arrange(1, hand={"rampart": 1, "city": 4})
    g.apply("play infantry_battalion")
    # before the Attack resolves, the defender is asked: reveal the Rampart?
    assert g.context == "card choice" and g.decider == 1
    assert set(labels(g)) == {"choose rampart", "pass"}
    assert default_answer(g) == g.parse("choose rampart")         # the default reveals it
    g.apply("choose rampart")
    # 1 discard - 1 = none: seat 1 keeps every card, and the Rampart stays in hand
    assert g.hand(1) == {"rampart": 1, "city": 4} and g.discard_pile(1) == {}
    assert g.coins == 2


def test_1e_declining_the_defense_lets_the_attack_resolve(gd):
    g = gd
    me(g, {"infantry_battalion": 1})
    g.arrange(1, hand={"rampart": 1, "city": 4})
    g.apply("play infantry_battalion")
    g.apply("pass")
    assert g.decider == 1 and set(labels(g)) == {"choose city"}          # discard a Territory
    g.apply("choose city")
    assert g.discard_pile(1) == {"city": 1}


def test_1e_rampart_kept_in_the_domain_defends_too(gd):
    g = gd
    me(g, {"infantry_battalion": 1})
    g.arrange(1, hand={"city": 5}, princess="lulunasaika", domain={"city": 1}, kept={"rampart": 1})
    g.apply("play infantry_battalion")
    assert g.decider == 1 and set(labels(g)) == {"choose rampart", "pass"}
    g.apply("choose rampart")
    assert g.hand(1) == {"city": 5} and g.kept(1) == {"rampart": 1}


def test_1e_rampart_reduces_royal_guard_reveals_by_one_each(gd):
    g = gd
    me(g, {"royal_guard": 1})
    g.arrange(1, hand={"rampart": 2}, deck=["duke", "city", "large_city", "senator"])
    g.apply("play royal_guard")
    g.apply("choose rampart")
    assert g.decider == 1 and set(labels(g)) == {"choose rampart", "pass"}     # the second copy
    g.apply("pass")
    # one Rampart: 2 cards revealed, one goes back, one is discarded
    assert g.decider == 0 and set(labels(g)) == {"choose duke", "choose city"}
    g.apply("choose duke")
    assert g.deck(1) == ["duke", "large_city", "senator"] and g.discard_pile(1) == {"city": 1}
    h = new(g.ruleset)
    me(h, {"royal_guard": 1})
    h.arrange(1, hand={"rampart": 2}, deck=["duke", "city", "large_city", "senator"])
    h.apply("play royal_guard")
    h.apply("choose rampart")
    h.apply("choose rampart")
    # two Ramparts: 1 card revealed and put back (face up), none discarded
    assert h.context == "second phase" and h.deck(1) == ["duke", "city", "large_city", "senator"]
    assert h.deck_face_up(1)[0] == "duke" and h.discard_pile(1) == {}


def test_1e_rampart_does_not_reduce_a_scheme_attack(gd):
    g = gd
    me(g, {"hunted_beast": 1, "city": 1})
    g.arrange(1, hand={"rampart": 1, "large_city": 1, "city": 3})
    g.apply("play hunted_beast")
    g.apply("choose rampart")
    assert g.decider == 1 and set(labels(g)) == {"choose large_city"}      # still discards
    g.apply("choose large_city")
    assert g.discard_pile(1) == {"large_city": 1}


def test_1e_rampart_stops_scout_revealing_the_defenders_card(gd):
    g = gd
    me(g, {"scout": 1, "city": 1}, deck=["city"] * 3)
    g.arrange(1, hand={"rampart": 1}, deck=["duke", "city"])
    g.apply("play scout")
    g.apply("choose rampart")
    assert g.decider == 0 and set(labels(g)) == {"choose city", "pass"}     # my own card only
    g.apply("pass")
    assert g.context == "main phase" and g.deck_face_up(1)[0] is None


def test_1e_hideout_defense_puts_hand_cards_face_up_on_the_deck_dodging_a_hand_attack(gd):
    g = gd
    me(g, {"infantry_battalion": 1})
    g.arrange(1, hand={"hideout": 1, "duke": 1, "city": 3}, deck=["city"] * 3)
    g.apply("play infantry_battalion")
    assert g.decider == 1 and set(labels(g)) == {"choose hideout", "pass"}
    g.apply("choose hideout")
    # any number of Succession or Action cards, one at a time (Territories not)
    assert g.decider == 1 and set(labels(g)) == {"choose hideout", "choose duke", "pass"}
    assert default_answer(g) == g.parse("choose duke")      # 5 cards in hand: the default moves one
    g.apply("choose duke")
    assert default_answer(g) == g.parse("pass")             # 4 left: no hand Attack reaches them
    g.apply("pass")
    # 4 cards in hand: Infantry Battalion does not reach seat 1
    assert g.context == "second phase"
    assert g.hand(1) == {"hideout": 1, "city": 3} and g.deck_face_up(1)[0] == "duke"


def test_1e_hideout_played_takes_the_face_up_cards_on_top_of_the_deck_into_hand(gd):
    g = gd
    me(g, {"hideout": 1}, deck=["duke", "senator", "city", "city"])
    face_up_top(g, 0, 2)
    g.apply("play hideout")
    assert g.coins == 1 and set(labels(g)) == {"number 0", "pass"}
    g.apply("number 0")
    assert g.hand(0) == {"duke": 1, "senator": 1} and g.deck(0) == ["city", "city"]


def test_1e_magic_talisman_defense_goes_face_up_on_the_deck_and_stops_royal_guard(gd):
    g = gd
    me(g, {"royal_guard": 1})
    g.arrange(1, hand={"magic_talisman": 1, "city": 4}, deck=["duke", "city", "large_city"])
    g.apply("play royal_guard")
    assert g.decider == 1 and set(labels(g)) == {"choose magic_talisman", "pass"}
    g.apply("choose magic_talisman")
    assert g.deck(1) == ["magic_talisman", "duke", "city", "large_city"]
    assert g.deck_face_up(1)[0] == "magic_talisman"
    assert g.context == "second phase" and g.discard_pile(1) == {}     # a face-up card on top: spared


def test_1e_magic_talisman_discards_x_cards_from_hand_for_x_coins(gd):
    g = gd
    me(g, {"magic_talisman": 1, "curse": 1, "apprentice_maid": 1, "city": 1})
    g.apply("play magic_talisman")
    g.apply("choose curse")
    g.apply("choose apprentice_maid")
    g.apply("pass")
    assert g.coins == 2 and g.discard_pile(0) == {"curse": 1, "apprentice_maid": 1}
    assert g.hand(0) == {"city": 1} and g.open_plays == 1


def test_1e_hideout_and_magic_talisman_cannot_be_kept_rampart_can(gd):
    g = gd
    me(g, {"hideout": 1, "magic_talisman": 1, "rampart": 1, "post_horse": 1}, princess="lulunasaika",
       domain={"large_city": 3})
    keeps = {a for a in labels(g) if a.startswith("keep")}
    assert keeps == {"keep rampart", "keep post_horse"}


def test_1e_defense_asks_each_defender_in_turn_order():
    g = new(rules(3, MARKET_1E_D))
    me(g, {"infantry_battalion": 1})
    g.arrange(1, hand={"rampart": 1, "city": 4})
    g.arrange(2, hand={"rampart": 1, "city": 4})
    g.apply("play infantry_battalion")
    assert g.decider == 1
    g.apply("pass")
    assert g.decider == 2                     # asked before the Attack resolves for anyone
    g.apply("choose rampart")
    assert g.decider == 1 and set(labels(g)) == {"choose city"}
    g.apply("choose city")
    assert g.discard_pile(1) == {"city": 1} and g.discard_pile(2) == {}


def test_1e_replay_words_the_defense_question():
    from hoc.research.replays import replay
    from hoc.research.simulate import lineup

    r = Ruleset(edition="1e", players=3, market=tuple(MARKET_1E_D), turn_cap=40)
    found = set()
    for index in range(12):
        for line in replay(r, lineup("random", 3), 1, index):
            if "(Defense against " in line:
                found.add("reveals a" if " reveals a" in line else "declines" if "does not reveal" in line else line)
        if {"reveals a", "declines"} <= found:
            break
    assert {"reveals a", "declines"} <= found, found


# =========================================================================================
# Battering Ram, Gossip-Loving Duchess, Imperial Estate and the witches (market E)
# =========================================================================================

MARKET_1E_E = ["battering_ram", "charm_witch", "curse_witch", "gossip_loving_duchess", "imperial_estate",
               "magic_talisman", "rampart", "post_horse", "trading_ship", "alchemist"]


@pytest.fixture(scope="module")
def re_() -> Ruleset:
    return rules(2, MARKET_1E_E)


@pytest.fixture
def ge(re_) -> Game:
    return new(re_)


def test_1e_battering_ram_draws_and_may_discard_one_kept_card_of_each_opponent(ge):
    g = ge
    me(g, {"battering_ram": 1, "city": 1})
    g.arrange(1, princess="laolily", domain={"large_city": 2}, kept={"rampart": 1, "post_horse": 1})
    g.apply("play battering_ram")
    assert g.hand(0) == {"city": 2}
    # not an Attack in 1E: no Defense window; the player chooses among the opponent's kept cards
    assert g.decider == 0 and set(labels(g)) == {"choose rampart", "choose post_horse", "pass"}
    g.apply("choose post_horse")
    assert g.kept(1) == {"rampart": 1} and g.discard_pile(1) == {"post_horse": 1}
    assert g.context == "main phase"


def test_1e_gossip_duchess_when_set_discards_one_court_title_from_one_opponents_domain():
    g = new(rules(3, MARKET_1E_E))
    me(g, {"gossip_loving_duchess": 1, "city": 1}, princess="lulunasaika", domain={})
    g.arrange(1, princess="laolily", domain={"court_maid": 1, "senator": 1, "imperial_crown": 1})
    g.arrange(2, princess="klam_klam", domain={"duke": 1})
    g.apply("play city")                    # the Main phase ends: nothing else to play
    g.apply("set gossip_loving_duchess")
    assert g.sp(0) == 6 + 3
    # one card of one opponent: Court Maid, Senator or Duke only, opponents offered in turn
    assert g.decider == 0 and set(labels(g)) == {"choose court_maid", "choose senator", "pass"}
    g.apply("pass")
    assert set(labels(g)) == {"choose duke", "pass"}
    g.apply("choose duke")
    assert g.domain(2) == {} and g.discard_pile(2) == {"duke": 1} and g.sp(2) == 0
    assert g.domain(1) == {"court_maid": 1, "senator": 1, "imperial_crown": 1}


def test_1e_charm_witch_reveals_two_discards_non_territories_and_gains_a_same_name_card(ge):
    g = ge
    me(g, {"charm_witch": 1}, market={"duke": 5})
    g.arrange(1, deck=["duke", "post_horse", "city"])
    g.apply("play charm_witch")
    assert g.discard_pile(1) == {"duke": 1, "post_horse": 1} and g.deck(1) == ["city"]
    # one of the discarded names from the market, the most expensive offered first
    assert g.decider == 0 and set(labels(g)) == {"choose duke", "pass"}
    g.apply("pass")
    assert set(labels(g)) == {"choose post_horse", "pass"}
    g.apply("choose post_horse")
    assert g.discard_pile(0) == {"post_horse": 1}


def test_1e_charm_witch_stops_at_a_curse_and_leaves_curses_and_territories_face_up(ge):
    g = ge
    me(g, {"post_horse": 1, "charm_witch": 1}, deck=CITIES)
    g.arrange(1, deck=["city", "senator", "duke"])
    play_all(g, "post_horse", "charm_witch")
    assert g.discard_pile(1) == {"senator": 1} and g.deck(1) == ["city", "duke"]
    assert g.deck_face_up(1)[0] == "city"                   # the revealed Territory stays, face up
    g.apply("pass")                                         # no Senator wanted
    h = new(g.ruleset)
    me(h, {"post_horse": 1, "charm_witch": 1}, deck=CITIES)
    h.arrange(1, deck=["curse", "duke"])
    play_all(h, "post_horse", "charm_witch")
    assert h.discard_pile(1) == {} and h.deck(1) == ["curse", "duke"]      # a Curse ends the reveal
    assert h.context == "main phase"


def test_1e_magic_talisman_revealed_stops_charm_witch_as_a_curse(ge):
    g = ge
    me(g, {"post_horse": 1, "charm_witch": 1}, deck=CITIES)
    g.arrange(1, hand={"magic_talisman": 1, "city": 4}, deck=["duke", "senator"])
    play_all(g, "post_horse", "charm_witch")
    assert g.decider == 1
    g.apply("choose magic_talisman")
    assert g.deck(1) == ["magic_talisman", "duke", "senator"] and g.discard_pile(1) == {}
    assert g.context == "main phase" and g.decider == 0


def test_1e_curse_witch_exiles_a_card_costing_2_and_curses_go_face_up_under_decks_without_one():
    g = new(rules(3, MARKET_1E_E))
    me(g, {"curse_witch": 1, "farming_village": 1, "court_maid": 1, "city": 1})
    g.arrange(1, deck=["city", "city"])
    g.arrange(2, deck=["curse", "city"])
    face_up_top(g, 2, 1)                    # seat 2 shows a face-up Curse in their deck
    g.apply("play curse_witch")
    assert set(labels(g)) == {"choose court_maid", "choose city"}          # cost 2 or more
    g.apply("choose court_maid")
    assert abroad(g, "court_maid") == 1
    assert g.deck(1) == ["city", "city", "curse"] and g.deck_face_up(1)[-1] == "curse"
    assert g.deck(2) == ["curse", "city"] and g.owned(2, "curse") == 1     # spared


def test_1e_curse_witch_from_hand_exiles_itself_and_every_opponent_gains_a_curse():
    g = new(rules(3, MARKET_1E_E))
    me(g, {"trading_ship": 1, "curse_witch": 1, "city": 1})
    g.apply("play trading_ship")            # no link left: the Witch can still be exiled from hand
    g.apply("number 1")
    assert g.open_plays == 0 and "exile curse witch" in labels(g)
    g.apply("exile curse witch")
    assert abroad(g, "curse_witch") == 1 and g.hand(0) == {"city": 1}
    assert g.discard_pile(1) == {"curse": 1} and g.discard_pile(2) == {"curse": 1}


def test_1e_imperial_estate_in_the_domain_pays_3_coins_for_a_succession_counter_once_per_turn(ge):
    g = ge
    me(g, {"large_city": 2}, princess="lulunasaika", domain={"imperial_estate": 1})
    assert "use imperial estate" not in labels(g)          # needs 3 coins
    play_all(g, "large_city", "large_city")
    assert "use imperial estate" in labels(g)
    g.apply("use imperial estate")
    assert g.coins == 3 and g.sp(0) == 6 + 0 + 1 and g.counters(0).succession == 1
    assert "use imperial estate" not in labels(g)


# =========================================================================================
# 1E-only Moneylender and Shinobi (market F)
# =========================================================================================

MARKET_1E_F = ["moneylender", "shinobi", "infantry_battalion", "rampart", "alchemist", "trading_ship",
               "post_horse", "wishing_well", "bank", "library"]


@pytest.fixture(scope="module")
def rf() -> Ruleset:
    return rules(2, MARKET_1E_F)


@pytest.fixture
def gf(rf) -> Game:
    return new(rf)


def debt(g, p=0) -> int:
    return int(g.state[K.H_DEBT + p])


def test_1e_moneylender_gives_3_coins_and_4_debt_counters_at_the_end_of_the_turn(gf):
    g = gf
    me(g, {"moneylender": 1, "city": 1})
    play_all(g, "moneylender", "city")
    assert g.coins == 3 + 2 and debt(g) == 0            # this turn's coins are not touched
    to_cleanup(g)
    assert g.turn_player == 1 and debt(g) == 4


def test_1e_moneylender_debt_counters_are_removed_instead_of_gaining_coins(gf):
    g = gf
    me(g, {"city": 2, "farming_village": 1, "large_city": 1})
    g.state[K.H_DEBT] = 4
    play_all(g, "city", "city")
    assert g.coins == 0 and debt(g) == 0                # 4 coins remove 4 counters
    play_all(g, "farming_village", "large_city")
    assert g.coins == 4                                  # no debt left: coins again


def test_1e_moneylender_debt_counters_show_in_the_counters_and_in_the_observation(gf):
    from hoc.games.heart_of_crown.observation import layout, observe, size

    g = gf
    me(g, {"moneylender": 2, "city": 1})
    play_all(g, "moneylender", "moneylender")
    where = layout(2)
    out = np.zeros(size(2), np.float32)
    assert g.counters(0).debt == 0 and g.counters(0).debt_due == 8       # two Moneylenders played
    assert (8, "debt due at the end of the turn") in g.counters(0).parts()
    observe(g.state, 1, out)
    assert out[where["debt_due"]][0] == 8 and out[where["debt_counters/1"]][0] == 0
    to_cleanup(g)
    assert g.turn_player == 1 and g.counters(0).debt == 8 and g.counters(0).debt_due == 0
    assert g.counters(1) == (0, 0, 0, 0, 0, 0)
    observe(g.state, 1, out)                # seen by seat 1: seat 0 is the next seat after it
    assert out[where["debt_counters/1"]][0] == 8 and out[where["debt_counters/0"]][0] == 0
    observe(g.state, 0, out)
    assert out[where["debt_counters/0"]][0] == 8 and out[where["debt_due"]][0] == 0


def test_1e_shinobi_copies_an_action_from_the_discard_pile_but_not_its_links(gf):
    g = gf
    me(g, {"shinobi": 1, "city": 1}, discard={"alchemist": 1, "shinobi": 1, "city": 1})
    g.apply("play shinobi")
    assert set(labels(g)) == {"choose alchemist"}          # an Action other than Shinobi
    g.apply("choose alchemist")
    assert g.hand(0) == {"city": 3} and g.discard_pile(0) == {"alchemist": 1, "shinobi": 1, "city": 1}
    assert g.open_plays == 2                              # Shinobi's 2 links, not the Alchemist's


def test_1e_shinobi_copying_an_attack_takes_its_types_and_opponents_may_defend(gf):
    g = gf
    me(g, {"shinobi": 1}, discard={"infantry_battalion": 1})
    g.arrange(1, hand={"rampart": 1, "city": 4})
    g.apply("play shinobi")
    g.apply("choose infantry_battalion")
    assert g.coins == 2                                   # the copied card's coins
    assert g.decider == 1 and set(labels(g)) == {"choose rampart", "pass"}
    g.apply("choose rampart")                             # a Military card now: Rampart stops it
    assert g.hand(1) == {"rampart": 1, "city": 4}
    h = new(g.ruleset)
    me(h, {"shinobi": 1}, discard={"infantry_battalion": 1})
    h.arrange(1, hand={"city": 5})
    h.apply("play shinobi")
    h.apply("choose infantry_battalion")
    assert h.decider == 1 and set(labels(h)) == {"choose city"}


# ---- Bribery: "This turn, when you buy cards, you may also buy Action cards in opponents' discard
# piles, face-up on top of their decks, or kept in their domains, paying that card's cost + 1." -----

MARKET_1E_G = ["bribery", "alchemist", "trading_ship", "post_horse", "rampart", "hideout", "wishing_well",
               "library", "bank", "scout"]


@pytest.fixture
def gg() -> Game:
    return new(rules(2, MARKET_1E_G))


def test_1e_bribery_buys_an_opponents_action_from_discard_deck_top_or_kept_for_cost_plus_one(gg):
    g = gg
    me(g, {"bribery": 1, "large_city": 2}, market={"alchemist": 0, "trading_ship": 0, "post_horse": 0})
    g.arrange(1, discard={"alchemist": 1, "city": 1}, deck=["trading_ship", "city"], princess="laolily",
              domain={"large_city": 1}, kept={"post_horse": 1})
    face_up_top(g, 1, 1)
    play_all(g, "bribery", "large_city", "large_city")
    assert g.context == "second phase" and g.coins == 6
    buys = {a for a in labels(g) if a.startswith("buy")}
    assert {"buy alchemist", "buy trading_ship", "buy post_horse"} <= buys
    assert "buy city" in buys                                 # the market as usual
    g.apply("buy alchemist")                                  # only seat 1's discard pile has one
    assert set(labels(g)) == {"number 1"}
    g.apply("number 1")
    assert g.discard_pile(0)["alchemist"] == 1                # (the turn is over: 0 coins left)
    assert g.discard_pile(1) == {"city": 1} and g.owned(1, "alchemist") == 0 and g.owned(0, "alchemist") == 1


def test_1e_bribery_asks_where_a_card_comes_from_when_the_market_has_it_too(gg):
    g = gg
    me(g, {"bribery": 1, "large_city": 2}, market={"post_horse": 3})
    g.arrange(1, princess="laolily", domain={"large_city": 1}, kept={"post_horse": 1})
    play_all(g, "bribery", "large_city", "large_city")
    g.apply("buy post_horse")
    assert set(labels(g)) == {"number 0", "number 3"}        # the market, or kept by the next player
    g.apply("number 3")
    assert g.coins == 6 - 3 and g.kept(1) == {} and g.discard_pile(0) == {"post_horse": 1}
    g.apply("buy post_horse")              # only the market has one now: no question, its cost only
    assert g.coins == 1 and g.market()["post_horse"] == 2


def test_1e_without_bribery_opponents_cards_cannot_be_bought(gg):
    g = gg
    me(g, {"post_horse": 1, "large_city": 2}, market={"alchemist": 0})
    g.arrange(1, discard={"alchemist": 1})
    play_all(g, "post_horse", "large_city", "large_city")
    assert "buy alchemist" not in labels(g)


# ---- the 1E recommended sets and the rule options -------------------------------------------------

FIRST_EDITION_PRESETS = ("first_play", "introductory", "introductory_2", "intermediate", "intermediate_2",
                         "big_business", "great_war", "adventure", "walpurgis_night", "court_politics")


@pytest.mark.parametrize("preset", FIRST_EDITION_PRESETS)
def test_1e_recommended_set_is_a_named_market_that_plays(preset):
    from hoc.games.heart_of_crown.presets import RECOMMENDED
    from hoc.research.simulate import lineup, simulate

    r = Ruleset(edition="1e", players=3, market=preset)
    mode, kinds = r.market_piles
    assert mode == K.MARKET_FIXED and kinds == RECOMMENDED[preset] and len(set(kinds)) == 10
    g = Game(r, seed=3)
    in_game = {r.cards.frame.pile.iat[r.cards.index(c)] for c in list(g.market()) + list(g.supply())}
    assert set(kinds) <= in_game | {"curse", "city", "large_city", "court_maid", "senator", "duke"}
    run = simulate(r, lineup("random", 3), games=30, seed=1, validate=True, announce=False)
    assert len(run.games) == 30                        # an invariant broken would raise


def test_1e_rule_options_set_explicitly_are_recorded_with_the_results():
    assert "judgement" not in Ruleset(edition="1e").describe()
    d = Ruleset(edition="1e", judgement="three_piles", tie="later_seat", keep_timing="cleanup").describe()
    assert (d["judgement"], d["tie"], d["keep_timing"]) == ("three_piles", "later_seat", "cleanup")
    assert Ruleset(edition="1e").describe() != Ruleset(edition="1e", judgement="duke_only").describe()


def test_1e_default_answer_reveals_a_defense_card_only_when_it_helps(gd):
    def asked(attack, hand, seed=7):
        g = new(gd.ruleset, seed)
        me(g, {attack: 1, "city": 1}, deck=["city"] * 6)
        g.arrange(1, hand=hand, deck=["duke", "city", "city"])
        g.apply(f"play {attack}")
        assert g.decider == 1 and g.context == "card choice"
        return g.label(default_answer(g))

    assert asked("infantry_battalion", {"rampart": 1, "city": 4}) == "choose rampart"      # Military
    assert asked("hunted_beast", {"rampart": 1, "large_city": 1, "city": 3}).startswith("pass")   # Scheme
    assert asked("royal_guard", {"magic_talisman": 1}) == "choose magic_talisman"           # deck attack
    assert asked("scout", {"magic_talisman": 1, "city": 4}).startswith("pass")   # Scout would see it on top
    assert asked("hunted_beast", {"hideout": 1, "large_city": 1, "city": 3}) == "choose hideout"   # 5 cards
    assert asked("hunted_beast", {"hideout": 1, "large_city": 1, "city": 2}).startswith("pass")    # 4 cards


def test_1e_observation_shows_the_opponents_cards_a_royal_guard_reveals_not_the_own_deck(gb):
    from hoc.games.heart_of_crown.observation import layout, observe, size

    g = gb
    me(g, {"royal_guard": 1}, deck=["alchemist"] * 3 + CITIES)
    g.arrange(1, deck=["duke", "senator", "large_city", "city"])
    g.apply("play royal_guard")
    assert g.decider == 0 and g.context == "card choice"
    obs = np.zeros(size(2), np.float32)
    observe(g.state, 0, obs)
    vec = obs[layout(2)["deck_window"]]
    db = g.ruleset.cards
    shown = {db.name(c): int(v) for c, v in enumerate(vec[:len(db)]) if v}
    assert shown == {"duke": 1, "senator": 1, "large_city": 1}


def test_1e_cards_json_lists_every_first_edition_card_as_implemented():
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "hoc", "cards", "--edition", "1e", "--json"], capture_output=True,
                         text=True, check=True).stdout
    cards = json.loads(out)
    assert len(cards) == len(Ruleset(edition="1e").cards)
    assert [c["id"] for c in cards if not c["implemented"]] == []
