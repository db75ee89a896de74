"""One test (or a few) per 2nd-edition common card, built from the card texts of
`reference/hoc-cards.md` §2.5, the readings of §4 and RULINGS, plus one named test per FAQ ruling
of seed 000 on these cards (names end in `_faq`).

Positions are built with `Game.arrange` on games whose market is a list of 10 common kinds; the
market counts a test relies on are set explicitly (and, for Buried Treasure, the supply). Seats
are 0-based.
"""
from __future__ import annotations

import pytest

from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.rules import Ruleset

from conftest import finish_turn, labels, play_all

CITIES = ["city"] * 12          # a harmless deck: no reshuffle during the turn under test
MAIDS = ("sharifa", "petit", "honoka", "minnyan", "lily")

# two markets of 10 kinds covering the commons under test (the random reveal does not matter:
# each test sets the market counts it needs)
MARKET_A = ["attendant_maid", "margrave", "charm_witch", "curse_witch", "adventurer", "ball",
            "city_development", "land_reclamation_decree", "imperial_estate", "alchemist"]
MARKET_B = ["hideout", "donation", "rampart", "scout", "wishing_well", "post_horse", "trading_ship",
            "purveyor", "battering_ram", "supply_unit"]


def rules(players=2, market=MARKET_A, **kw) -> Ruleset:
    return Ruleset(players=players, market=market, **kw)


@pytest.fixture(scope="module")
def r2() -> Ruleset:
    return rules(2)


@pytest.fixture(scope="module")
def r3() -> Ruleset:
    return rules(3)


@pytest.fixture(scope="module")
def r4() -> Ruleset:
    return rules(4)


def new(ruleset, seed=7) -> Game:
    g = Game(ruleset, seed=seed)
    assert g.turn_player == 0 and g.context == "main phase"
    return g


@pytest.fixture
def g2(r2) -> Game:
    return new(r2)


@pytest.fixture
def g3(r3) -> Game:
    return new(r3)


@pytest.fixture
def g4(r4) -> Game:
    return new(r4)


# ---- helpers --------------------------------------------------------------------------------

def me(g, hand, deck=None, discard=None, **kw):
    """Arrange seat 0 (the turn player): hand, a City deck and an empty discard pile by default."""
    g.arrange(0, hand=hand, deck=CITIES if deck is None else deck, discard={} if discard is None else discard,
              **kw)


def abroad(g, card) -> int:
    """Copies of card in the exile zone."""
    return g.exiled().get(card, 0)


def top_face_up(g, p) -> bool:
    return g.deck_face_up(p)[:1] not in ([], [None])


def counters(g, p=0) -> tuple[int, int]:
    """(Handyman's coin counters, other coin counters) of seat p."""
    return g.counters(p).handyman_coin, g.counters(p).coin


def end_main(g):
    if g.context == "main phase":
        g.apply("pass")
    assert g.context == "second phase", g.context


def cost(g, card, p=0) -> int:
    """What seat p would pay now to buy `card` (the game must wait in p's Second phase and the card
    must be in the market): the fewest coins with which `buy card` is legal, which `price` must say."""
    assert g.context == "second phase" and g.decider == p
    a = K.A_BUY + g.ruleset.cards.index(card)
    saved = int(g.state[K.H_COINS])
    try:
        for n in range(20):
            g.state[K.H_COINS] = n
            if g.is_legal(a):
                assert g.price(card, p) == n, f"price of {card}: {g.price(card, p)}, legal from {n} coins"
                return n
        raise AssertionError(f"{card} cannot be bought")
    finally:
        g.state[K.H_COINS] = saved


def to_cleanup(g):
    """Pass the Main and Second phases of the current turn."""
    turn = g.turns
    while g.turns == turn and g.context in ("main phase", "second phase"):
        g.apply("pass")


def knock_out(g, q):
    """Seat q is eliminated in overtime (only declarers play on)."""
    g.state[g._pb(q) + K.P_OUT] = 1
    g.state[K.H_OVERTIME] = 1


# =========================================================================================
# Cost 2
# =========================================================================================

def test_hideout_first_puts_action_or_succession_without_attack_face_up_on_deck(g2):
    g = g2
    me(g, {"hideout": 2}, discard={"post_horse": 1, "duke": 1, "infantry_battalion": 1, "city": 1})
    g.apply("play hideout")
    assert g.coins == 1 and g.open_plays == 1
    assert g.context == "card choice" and g.decider == 0
    # Action or Succession, never an Attack (Infantry Battalion) nor a Territory; optional
    assert set(labels(g)) == {"choose post_horse", "choose duke", "pass"}
    g.apply("choose duke")
    assert g.deck(0)[:2] == ["duke", "city"] and top_face_up(g, 0)
    assert g.discard_pile(0) == {"post_horse": 1, "infantry_battalion": 1, "city": 1}
    # the second Hideout of the turn only gives its coin
    g.apply("play hideout")
    assert g.context == "second phase" and g.coins == 2             # nothing asked; hand empty
    assert g.discard_pile(0) == {"post_horse": 1, "infantry_battalion": 1, "city": 1}


def test_hideout_may_decline_and_asks_nothing_without_a_target(g2):
    g = g2
    me(g, {"hideout": 1, "city": 1}, discard={"post_horse": 1})
    g.apply("play hideout")
    g.apply("pass")
    assert g.discard_pile(0) == {"post_horse": 1} and g.deck(0) == CITIES
    h = Game(g.ruleset, seed=8)
    me(h, {"hideout": 1, "city": 1}, discard={"city": 2, "sharifa": 1})     # Sharifa is an Attack
    h.apply("play hideout")
    assert h.context == "main phase" and h.coins == 1


def test_donation_exiles_one_card_from_hand(g2):
    g = g2
    me(g, {"donation": 1, "apprentice_maid": 1, "city": 1})
    g.apply("play donation")
    assert g.coins == 0 and g.open_plays == 1
    assert set(labels(g)) == {"choose apprentice_maid", "choose city"}      # mandatory: no pass
    g.apply("choose apprentice_maid")
    assert g.hand(0) == {"city": 1}
    assert abroad(g, "apprentice_maid") == 1
    assert "apprentice_maid" not in g.discard_pile(0)
    assert g.cards_owned(0) == 1 + 1 + len(CITIES)          # Donation, City, deck


def test_rampart_first_takes_the_lowest_cost_territory_from_discard(g2):
    g = g2
    me(g, {"rampart": 2}, discard={"farming_village": 2, "city": 1, "large_city": 1, "duke": 1})
    g.apply("play rampart")
    assert g.coins == 1 and g.open_plays == 1
    assert set(labels(g)) == {"choose farming_village", "pass"}          # only the lowest cost
    g.apply("choose farming_village")
    assert g.hand(0) == {"rampart": 1, "farming_village": 1}
    assert g.discard_pile(0) == {"farming_village": 1, "city": 1, "large_city": 1, "duke": 1}
    g.apply("play rampart")                                              # not the first: 1 coin only
    assert g.context == "main phase" and g.coins == 2
    assert g.hand(0) == {"farming_village": 1}


def test_rampart_lowest_cost_territory_may_be_a_city(g2):
    g = g2
    me(g, {"rampart": 1}, discard={"city": 1, "large_city": 1, "court_maid": 2})
    g.apply("play rampart")
    assert set(labels(g)) == {"choose city", "pass"}
    g.apply("choose city")
    assert g.hand(0) == {"city": 1}


def test_scout_discards_the_top_card_then_draws(g2):
    g = g2
    me(g, {"scout": 1}, deck=["duke", "large_city"] + CITIES)
    g.apply("play scout")
    assert g.open_plays == 1 and g.coins == 0
    assert set(labels(g)) == {"choose duke", "pass"}
    g.apply("choose duke")
    assert g.discard_pile(0) == {"duke": 1}
    assert g.hand(0) == {"large_city": 1}


def test_scout_may_keep_the_top_card_and_draws_it(g2):
    g = g2
    me(g, {"scout": 1}, deck=["large_city", "duke"] + CITIES)
    g.apply("play scout")
    g.apply("pass")
    assert g.hand(0) == {"large_city": 1} and g.discard_pile(0) == {}
    assert g.deck(0)[0] == "duke"


def test_scout_discards_a_face_up_top_card_faq(g2):
    """FAQ: Scout may discard the top card even when it already lies face up (here put there by
    Hideout)."""
    g = g2
    me(g, {"hideout": 1, "scout": 1}, deck=["large_city"] + CITIES, discard={"post_horse": 1})
    g.apply("play hideout")
    g.apply("choose post_horse")
    assert g.deck(0)[0] == "post_horse" and top_face_up(g, 0)
    g.apply("play scout")
    assert "choose post_horse" in labels(g)
    g.apply("choose post_horse")
    assert g.discard_pile(0) == {"post_horse": 1}
    assert g.hand(0) == {"large_city": 1}


def test_wishing_well_discards_any_number_then_draws_as_many(g2):
    g = g2
    me(g, {"wishing_well": 1, "duke": 1, "senator": 1, "city": 1}, deck=["large_city"] * 3 + CITIES)
    g.apply("play wishing_well")
    assert g.open_plays == 1
    assert "pass" in labels(g)
    g.apply("choose duke")
    g.apply("choose senator")
    g.apply("pass")
    assert g.discard_pile(0) == {"duke": 1, "senator": 1}
    assert g.hand(0) == {"city": 1, "large_city": 2}
    assert g.deck(0)[0] == "large_city"


def test_wishing_well_discarding_zero_draws_zero_faq(g2):
    g = g2
    me(g, {"wishing_well": 1, "duke": 1, "city": 1})
    g.apply("play wishing_well")
    g.apply("pass")
    assert g.context == "main phase"
    assert g.hand(0) == {"duke": 1, "city": 1}
    assert g.deck(0) == CITIES and g.discard_pile(0) == {}


def test_wishing_well_discarding_the_whole_hand_draws_as_many(g2):
    g = g2
    me(g, {"wishing_well": 1, "duke": 2}, deck=["large_city"] * 3 + CITIES)
    g.apply("play wishing_well")
    g.apply("choose duke")
    g.apply("choose duke")                          # the hand is empty: the draw follows at once
    assert g.hand(0) == {"large_city": 2}
    assert g.discard_pile(0) == {"duke": 2}


def test_post_horse_draws_one_and_has_two_links(g2):
    g = g2
    me(g, {"post_horse": 1, "city": 1}, deck=["duke"] + CITIES)
    g.apply("play post_horse")
    assert g.hand(0) == {"city": 1, "duke": 1}
    assert g.open_plays == 1 + 2 - 1 == 2 and g.coins == 0


# =========================================================================================
# Cost 3
# =========================================================================================

def test_trading_ship_draw_two_mode(g2):
    g = g2
    me(g, {"city": 1, "trading_ship": 1, "post_horse": 1}, deck=["duke", "senator"] + CITIES)
    g.apply("play city")
    g.apply("play trading_ship")
    assert g.open_plays == 0                                            # 0 links
    assert [g.label(a) for a in g.legal_actions()] == ["number 0: draw 2 cards", "number 1: gain 2 coins"]
    g.apply("number 0")
    assert g.hand(0) == {"post_horse": 1, "duke": 1, "senator": 1}
    assert g.coins == 2 and g.context == "second phase"


def test_trading_ship_gain_two_coins_mode(g2):
    g = g2
    me(g, {"trading_ship": 1, "city": 1})
    g.apply("play trading_ship")
    g.apply("number 1")
    assert g.coins == 2 and g.hand(0) == {"city": 1}
    assert g.context == "second phase"                                  # no open play left


def test_purveyor_is_two_coins_one_link_no_text(g2):
    g = g2
    me(g, {"purveyor": 2})
    g.apply("play purveyor")
    assert g.context == "main phase" and g.coins == 2 and g.open_plays == 1
    g.apply("play purveyor")
    assert g.coins == 4 and g.hand(0) == {} and g.deck(0) == CITIES


def test_city_development_farming_village_to_city(g2):
    g = g2
    me(g, {"city": 2, "city_development": 1, "farming_village": 1}, market={"city": 10})
    g.apply("play city")
    g.apply("play city_development")
    assert g.coins == 2
    assert [g.label(a) for a in g.legal_actions()] == [
        "pass: decline", "number 0: pay 1: Farming Village -> City", "number 1: pay 1: City -> Large City"]
    g.apply("number 0")
    assert g.coins == 1
    assert labels(g) == ["choose farming_village"]
    g.apply("choose farming_village")
    assert g.hand(0) == {"city": 2}
    assert abroad(g, "farming_village") == 1
    assert g.market()["city"] == 9


def test_city_development_city_to_large_city(g2):
    g = g2
    me(g, {"city": 2, "city_development": 1, "farming_village": 1}, market={"large_city": 5})
    g.apply("play city")
    g.apply("play city_development")
    g.apply("number 1")
    assert labels(g) == ["choose city"]
    g.apply("choose city")
    assert g.coins == 1
    assert g.hand(0) == {"farming_village": 1, "large_city": 1}
    assert abroad(g, "city") == 1 and g.market()["large_city"] == 4


def test_city_development_orchard_counts_as_farming_village(g2):
    g = g2
    me(g, {"purveyor": 1, "city_development": 1, "orchard": 1})
    play_all(g, "purveyor", "city_development")
    g.apply("number 0")
    assert labels(g) == ["choose orchard"]
    g.apply("choose orchard")
    assert g.hand(0) == {"city": 1} and abroad(g, "orchard") == 1


def test_city_development_without_a_coin_does_nothing(g2):
    g = g2
    me(g, {"city_development": 1, "farming_village": 1, "city": 1})
    g.apply("play city_development")
    assert g.context == "main phase"
    assert g.hand(0) == {"farming_village": 1, "city": 1}


def test_city_development_no_city_in_market_still_exiles_the_farming_village_faq(g2):
    g = g2
    me(g, {"city": 1, "city_development": 1, "farming_village": 1}, market={"city": 0})
    g.apply("play city")
    g.apply("play city_development")
    g.apply("number 0")
    g.apply("choose farming_village")
    assert g.coins == 1                                 # the coin is paid
    assert g.hand(0) == {}                              # the FV is gone, no City came
    assert abroad(g, "farming_village") == 1
    assert g.market().get("city", 0) == 0


def test_city_development_no_large_city_in_market_still_exiles_the_city_faq(g2):
    g = g2
    me(g, {"city": 2, "city_development": 1}, market={"large_city": 0})
    g.apply("play city")
    g.apply("play city_development")
    g.apply("number 1")
    g.apply("choose city")
    assert g.hand(0) == {} and abroad(g, "city") == 1 and g.coins == 1


def test_battering_ram_draws_and_opponent_discards_lowest_cost_kept_card(g2):
    g = g2
    g.arrange(1, princess="laolily", domain={"city": 2}, kept={"post_horse": 1, "trading_ship": 1})
    me(g, {"battering_ram": 1, "city": 1}, deck=["duke"] + CITIES)
    g.apply("play battering_ram")
    assert g.hand(0) == {"city": 1, "duke": 1} and g.open_plays == 1
    assert g.context == "card choice" and g.decider == 1
    assert labels(g) == ["choose post_horse"]           # the lowest cost (2) only, no pass
    g.apply("choose post_horse")
    assert g.kept(1) == {"trading_ship": 1}
    assert g.discard_pile(1).get("post_horse") == 1
    assert g.decider == 0 and g.context == "main phase"


def test_battering_ram_victim_chooses_among_equal_lowest_costs(g2):
    g = g2
    g.arrange(1, princess="laolily", domain={"city": 2}, kept={"post_horse": 1, "scout": 1})
    me(g, {"battering_ram": 1})
    g.apply("play battering_ram")
    assert g.decider == 1 and set(labels(g)) == {"choose post_horse", "choose scout"}
    g.apply("choose scout")
    assert g.kept(1) == {"post_horse": 1}


def test_battering_ram_without_kept_cards_only_draws(g2):
    g = g2
    g.arrange(1, kept={})
    me(g, {"battering_ram": 1})
    g.apply("play battering_ram")
    assert g.context == "main phase" and g.decider == 0 and g.hand(0) == {"city": 1}


def test_stargazing_witch_discards_one_of_top_two_then_draws(g2):
    g = g2
    me(g, {"stargazing_witch": 1, "city": 1}, deck=["duke", "senator", "large_city"] + CITIES)
    g.apply("play stargazing_witch")
    assert g.open_plays == 1 + 2 - 1
    assert set(labels(g)) == {"choose duke", "choose senator", "pass"}      # only the top 2
    g.apply("choose duke")
    assert set(labels(g)) == {"choose senator", "pass"}
    g.apply("pass")
    assert g.discard_pile(0) == {"duke": 1}
    assert g.hand(0) == {"city": 1, "senator": 1}
    assert g.deck(0)[0] == "large_city"


def test_stargazing_witch_keeps_both_in_chosen_order(g2):
    g = g2
    me(g, {"stargazing_witch": 1, "city": 1}, deck=["duke", "senator", "large_city"] + CITIES)
    g.apply("play stargazing_witch")
    g.apply("pass")                                     # discard none: choose the new top card
    assert set(labels(g)) == {"choose duke", "choose senator"}
    g.apply("choose senator")
    assert g.hand(0) == {"city": 1, "senator": 1}
    assert g.deck(0)[:2] == ["duke", "large_city"]
    assert g.discard_pile(0) == {}


def test_stargazing_witch_discards_both(g2):
    g = g2
    me(g, {"stargazing_witch": 1, "city": 1}, deck=["duke", "senator", "large_city"] + CITIES)
    g.apply("play stargazing_witch")
    g.apply("choose senator")
    g.apply("choose duke")
    assert g.discard_pile(0) == {"duke": 1, "senator": 1}
    assert g.hand(0) == {"city": 1, "large_city": 1}


def test_magic_talisman_exiles_a_calamity_from_hand(g2):
    g = g2
    me(g, {"magic_talisman": 1, "curse": 1, "city": 1}, discard={"curse": 1, "post_horse": 1})
    g.apply("play magic_talisman")
    assert g.coins == 2 and g.open_plays == 0
    assert set(labels(g)) == {"number 0", "number 1", "number 2"}                  # no pass
    g.apply("number 0")
    assert labels(g) == ["choose curse"]
    g.apply("choose curse")
    assert g.hand(0) == {"city": 1} and abroad(g, "curse") == 1
    assert g.discard_pile(0) == {"curse": 1, "post_horse": 1}


def test_magic_talisman_exiles_a_calamity_from_discard(g2):
    g = g2
    me(g, {"magic_talisman": 1}, discard={"curse": 2, "city": 1})
    g.apply("play magic_talisman")
    assert labels(g) == ["number 1"]                    # only the discard-pile Calamity mode
    g.apply("number 1")
    g.apply("choose curse")
    assert g.discard_pile(0) == {"curse": 1, "city": 1} and abroad(g, "curse") == 1


def test_magic_talisman_action_or_succession_from_discard_to_hand_first_only(g2):
    g = g2
    me(g, {"post_horse": 1, "magic_talisman": 2}, discard={"duke": 1, "trading_ship": 1, "city": 1})
    g.apply("play post_horse")
    g.apply("play magic_talisman")
    assert labels(g) == ["number 2"]
    g.apply("number 2")
    assert set(labels(g)) == {"choose duke", "choose trading_ship"}
    g.apply("choose duke")
    assert g.hand(0) == {"magic_talisman": 1, "city": 1, "duke": 1}
    # the second Talisman of the turn only gives its 2 coins
    g.apply("play magic_talisman")
    assert g.coins == 4
    assert g.discard_pile(0) == {"trading_ship": 1, "city": 1}


def test_handyman_exiles_a_non_calamity_card_from_hand(g2):
    g = g2
    me(g, {"city": 1, "handyman": 1, "curse": 1, "apprentice_maid": 1})
    play_all(g, "city", "handyman")
    assert g.open_plays == 0
    assert labels(g) == ["number 0", "number 1"]
    g.apply("number 0")
    assert labels(g) == ["choose apprentice_maid"]      # never the Curse
    g.apply("choose apprentice_maid")
    assert g.hand(0) == {"curse": 1} and abroad(g, "apprentice_maid") == 1
    assert counters(g) == (0, 0)


def test_handyman_with_only_calamities_in_hand_offers_the_counter_only(g2):
    g = g2
    me(g, {"handyman": 1, "curse": 2})
    g.apply("play handyman")
    assert labels(g) == ["number 1"]
    g.apply("number 1")
    assert counters(g) == (1, 0)


def test_handyman_coin_counter_capped_at_two_and_spent_in_main_phase(g2):
    g = g2
    me(g, {"post_horse": 1, "flea_market": 1, "handyman": 3})
    play_all(g, "post_horse", "flea_market")            # 4 open plays
    for expected in (1, 2, 2):
        g.apply("play handyman")
        g.apply("number 1")
        assert counters(g) == (expected, 0)
    coins = g.coins
    g.apply("spend coin counter")
    assert g.coins == coins + 1 and counters(g) == (1, 0)


def test_handyman_cap_counts_counters_held_at_once_faq(g2):
    """FAQ: 'at most 2' is the Handyman counters a player holds at the same time: spending one
    makes room for another."""
    g = g2
    me(g, {"post_horse": 1, "handyman": 2})
    g.state[g._pb(0) + K.P_HANDY_CTR] = 2
    g.apply("spend coin counter")
    assert counters(g) == (1, 0)
    g.apply("play post_horse")
    g.apply("play handyman")
    g.apply("number 1")
    assert counters(g) == (2, 0)


def test_handyman_cap_with_minnyan_faq(g2):
    """FAQ: Handyman's cap of 2 counts only its own counters. Minnyan's counter does not block
    Handyman, and Minnyan can add a 3rd counter on top of Handyman's 2."""
    g = g2
    # Minnyan first: her counter does not count toward Handyman's cap
    me(g, {"post_horse": 1, "flea_market": 1, "handyman": 2}, princess="lulunasaika", domain={"minnyan": 1})
    g.state[g._pb(0) + K.P_COIN_CTR] = 1
    play_all(g, "post_horse", "flea_market")
    for _ in range(2):
        g.apply("play handyman")
        g.apply("number 1")
    assert counters(g) == (2, 1)
    # Handyman's 2 first, then Minnyan set from hand: a 3rd counter
    h = Game(g.ruleset, seed=7)
    me(h, {"handyman": 2, "post_horse": 1, "minnyan": 1}, princess="lulunasaika", domain={})
    play_all(h, "post_horse")
    for _ in range(2):
        h.apply("play handyman")
        h.apply("number 1")
    assert counters(h) == (2, 0)
    end_main(h)
    h.apply("set minnyan")
    assert counters(h) == (2, 1)
    assert sum(counters(h)) == 3


# ---- Buried Treasure: "Take the bottom card of the supply and put it face-up on top of the supply.
# This turn, that revealed card is treated as being in the market, and its purchase cost is reduced
# by 3 (not below 0)." The supply is arranged top card first.

def buried(g, hand, supply, **kw):
    """Seat 0 holds `hand`; the supply is `supply` (top first, its bottom card is what Buried
    Treasure reveals); the market has none of the supply's kinds, so a card offered is the revealed one."""
    me(g, hand, market={name: 0 for name in supply}, supply=supply, **kw)


def test_buried_treasure_reveals_the_bottom_supply_card_face_up_on_top_3_cheaper_this_turn(g2):
    g = g2
    buried(g, {"buried_treasure": 1, "city": 1}, ["scout", "post_horse", "alchemist"])
    play_all(g, "buried_treasure", "city")
    assert g.face_up() == ["alchemist"] and g.supply_deck() == ["alchemist", "scout", "post_horse"]
    end_main(g)
    assert g.coins == 2 and cost(g, "alchemist") == 2               # 5 - 3
    assert "buy scout" not in labels(g)                              # face down: not in the market
    g.apply("buy alchemist")                                         # 2 coins spent: the turn ends
    assert g.discard_pile(0) == {"alchemist": 1, "buried_treasure": 1, "city": 1} and g.turn_player == 1
    assert g.supply_deck() == ["scout", "post_horse"] and g.face_up() == []


def test_buried_treasure_revealed_card_at_price_zero_is_bought_with_no_coins(g2):
    """With 0 coins and nothing to set the Second phase is skipped, unless a card costs 0: a
    revealed Scout (2 - 3, not below 0) can be bought for nothing."""
    g = g2
    buried(g, {"buried_treasure": 1}, ["post_horse", "scout"])
    g.apply("play buried_treasure")
    assert g.turn_player == 0 and g.context == "second phase" and g.coins == 0
    assert labels(g) == ["pass", "buy scout"]
    g.apply("buy scout")
    assert g.discard_pile(0) == {"scout": 1, "buried_treasure": 1}    # and the turn went on to Cleanup
    assert g.turn_player == 1


def test_second_phase_is_kept_with_no_coins_for_a_card_an_override_prints_at_0():
    """The same rule for any card: with a Post Horse costing 0 (an override), 0 coins still buy."""
    g = new(rules(2, overrides=("post_horse.cost=0",)))
    me(g, {"apprentice_maid": 1}, market={"post_horse": 1})
    assert g.context == "second phase" and g.coins == 0 and labels(g) == ["pass", "buy post_horse"]


def test_buried_treasure_revealed_card_costing_more_than_the_coins_skips_the_second_phase(g2):
    g = g2
    buried(g, {"buried_treasure": 1}, ["post_horse", "alchemist"])
    g.apply("play buried_treasure")
    assert g.turn_player == 1 and g.face_up() == ["alchemist"]       # 2 coins short: nothing to decide


def test_buried_treasure_revealed_card_is_in_the_market_for_adventurers_gain(g2):
    """Gains by effect take the revealed card like any market card, within their limit on the printed
    cost (reductions apply to buying only, RULINGS 13)."""
    g = g2
    buried(g, {"buried_treasure": 1, "adventurer": 1, "city": 1, "farming_village": 1},
           ["post_horse", "alchemist"])
    play_all(g, "buried_treasure", "adventurer")
    g.apply("choose city")                                           # cost 3: up to 5
    assert "choose alchemist" in labels(g)
    g.apply("choose alchemist")
    assert g.owned(0, "alchemist") == 1 and g.supply_deck() == ["post_horse"] and g.face_up() == []


def test_buried_treasure_revealed_card_gain_limit_reads_the_printed_cost(g2):
    g = g2
    buried(g, {"buried_treasure": 1, "adventurer": 1, "farming_village": 1, "city": 1},
           ["post_horse", "alchemist"])
    play_all(g, "buried_treasure", "adventurer")
    g.apply("choose farming_village")                                # cost 1: up to 3
    assert "choose alchemist" not in labels(g)                       # costs 2 to buy, 5 printed


def test_buried_treasure_revealed_card_is_in_the_market_for_flammarias_deck_top():
    g = new(rules(2, princesses=("flammaria", "lulunasaika")))
    buried(g, {"buried_treasure": 1, "large_city": 2}, ["post_horse", "alchemist"])
    play_all(g, "buried_treasure", "large_city", "large_city")
    end_main(g)
    g.apply("back flammaria")
    assert "choose alchemist" in labels(g)
    g.apply("choose alchemist")
    g.apply("pass")
    assert g.owned(0, "alchemist") == 1 and g.face_up() == [] and g.supply_deck() == ["post_horse"]
    assert g.hand(0).get("alchemist") == 1                           # from the deck top, drawn at cleanup


def test_buried_treasure_next_player_may_buy_the_face_up_card_at_its_cost_faq(g2):
    g = g2
    g.arrange(1, hand={"large_city": 2}, deck=CITIES, discard={})
    buried(g, {"buried_treasure": 1, "city": 1}, ["post_horse", "alchemist"])
    play_all(g, "buried_treasure", "city")
    to_cleanup(g)
    assert g.turn_player == 1 and g.face_up() == ["alchemist"]       # nothing bought: no refill
    play_all(g, "large_city", "large_city")
    end_main(g)
    assert cost(g, "alchemist", p=1) == 5                             # the reduction was for that turn
    g.apply("buy alchemist")
    assert g.discard_pile(1) == {"alchemist": 1} and g.face_up() == []


def test_buried_treasure_revealed_card_is_the_first_revealed_at_the_next_refill(g2):
    """Buying out a market kind leaves 7 kinds showing: the refill at cleanup reveals from the
    supply top, the face-up card first (ref §4 #27)."""
    g = g2
    buried(g, {"buried_treasure": 1, "large_city": 1}, ["post_horse", "scout"])
    g.arrange(0, market={"city_development": 1})
    play_all(g, "buried_treasure", "large_city")
    end_main(g)
    g.apply("buy city_development")
    to_cleanup(g)
    assert g.market().get("scout") == 1 and g.face_up() == [] and g.supply_deck() == ["post_horse"]


def test_buried_treasure_with_an_empty_supply_does_nothing_faq(g2):
    g = g2
    market = g.market()
    me(g, {"buried_treasure": 1, "city": 1}, supply=[])
    play_all(g, "buried_treasure", "city")
    end_main(g)
    assert g.face_up() == [] and g.supply_deck() == [] and g.market() == market
    assert g.coins == 2 and g.open_plays == 1                       # the card was played all the same


def test_buried_treasure_two_cards_revealed_in_one_turn_are_both_in_the_market_3_cheaper(g2):
    """The first revealed card, now under the second, is still 'treated as being in the market this
    turn'."""
    g = g2
    buried(g, {"buried_treasure": 2, "city": 2}, ["post_horse", "alchemist", "adventurer"])
    play_all(g, "buried_treasure", "buried_treasure", "city", "city")
    assert g.face_up() == ["alchemist", "adventurer"]
    end_main(g)
    assert (cost(g, "adventurer"), cost(g, "alchemist")) == (2, 2)
    g.apply("buy adventurer")                                        # the covered one
    g.apply("buy alchemist")
    assert g.owned(0, "adventurer") == g.owned(0, "alchemist") == 1 and g.supply_deck() == ["post_horse"]


def test_buried_treasure_face_up_card_of_an_earlier_turn_leaves_the_market_once_covered(g2):
    """Reading (ref §4 #27): a face-up card stays in the market while it lies on top; under a card
    revealed later it is face up but covered, until the card above it is taken."""
    g = g2
    g.arrange(1, hand={"buried_treasure": 1, "large_city": 2}, deck=CITIES, discard={})
    buried(g, {"buried_treasure": 1}, ["post_horse", "scout", "alchemist", "adventurer"])
    g.apply("play buried_treasure")                                  # Adventurer: 2 coins, none held
    assert g.turn_player == 1 and g.face_up() == ["adventurer"]
    play_all(g, "buried_treasure", "large_city", "large_city")
    assert g.face_up() == ["alchemist", "adventurer"]
    end_main(g)
    assert "buy adventurer" not in labels(g) and cost(g, "alchemist", p=1) == 2
    g.apply("buy alchemist")
    assert cost(g, "adventurer", p=1) == 5                           # on top again, at its cost


def test_buried_treasure_reduction_adds_to_klam_klams_with_the_highest_floor(g2):
    g = g2
    buried(g, {"buried_treasure": 1, "city": 1}, ["post_horse", "alchemist"], princess="klam_klam", domain={})
    play_all(g, "buried_treasure", "city")
    end_main(g)
    assert cost(g, "alchemist") == 1                                 # max(5 - 3 - 1, 1): Klam Klam's floor


# =========================================================================================
# Cost 4
# =========================================================================================

def test_hunted_beast_draws_and_opponents_discard_a_card_costing_5_or_more(g2):
    g = g2
    g.arrange(1, hand={"duke": 1, "senator": 1, "city": 1, "farming_village": 1, "apprentice_maid": 1})
    me(g, {"hunted_beast": 1}, deck=["large_city"] + CITIES)
    g.apply("play hunted_beast")
    assert g.hand(0) == {"large_city": 1} and g.open_plays == 1
    assert g.decider == 1 and set(labels(g)) == {"choose duke", "choose senator"}
    g.apply("choose senator")
    assert g.hand(1) == {"duke": 1, "city": 1, "farming_village": 1, "apprentice_maid": 1}
    assert g.discard_pile(1).get("senator") == 1
    assert g.decider == 0


def test_hunted_beast_spares_hands_of_four_and_hands_without_expensive_cards(g3):
    g = g3
    g.arrange(1, hand={"duke": 1, "senator": 1, "city": 2})                            # 4 cards
    g.arrange(2, hand={"city": 3, "farming_village": 2}, discard={})                  # nothing >= 5
    me(g, {"hunted_beast": 1})
    g.apply("play hunted_beast")
    assert g.context == "main phase" and g.decider == 0
    assert g.hand(1) == {"duke": 1, "senator": 1, "city": 2}
    assert g.hand(2) == {"city": 3, "farming_village": 2} and g.discard_pile(2) == {}


def test_attendant_maids_any_face_can_be_bought_from_the_shared_pile_faq(g2):
    g = g2
    me(g, {"large_city": 2}, market={m: 1 for m in MAIDS})
    play_all(g, "large_city", "large_city")
    end_main(g)
    assert {f"buy {m}" for m in MAIDS} <= set(labels(g))
    assert all(cost(g, m) == 4 for m in MAIDS)
    g.apply("buy honoka")                               # no princess: no question
    assert g.context == "second phase" and g.discard_pile(0) == {"honoka": 1}
    g.apply("pass")


def test_attendant_maids_share_one_pile_in_the_random_market_faq():
    """FAQ: the five Attendant Maids count as one kind in the market (one pile); the market shows
    8 kinds, so with several Maid faces showing it shows more than 8 different cards."""
    db = rules(2).cards
    piles = dict(zip(db.frame.id, db.frame.pile))
    assert {piles[m] for m in MAIDS} == {"attendant_maid"}
    many_faces = 0
    for seed in range(60):
        g = Game(rules(2, market=MARKET_A), seed=seed)
        shown = [c for c, n in g.market().items() if n and db.frame.category.iat[db.index(c)] in ("common", "rare")]
        kinds = {piles[c] for c in shown}
        assert len(kinds) == 8
        faces = [c for c in shown if c in MAIDS]
        if len(faces) >= 2:
            many_faces += 1
            assert len(shown) == 8 + len(faces) - 1
    assert many_faces > 0


def test_attendant_maid_bought_with_a_domain_may_be_set_at_once_or_not(g2):
    g = g2
    me(g, {"large_city": 3}, princess="lulunasaika", domain={}, market={"honoka": 1, "lily": 1})
    play_all(g, "large_city", "large_city", "large_city")
    end_main(g)
    g.apply("buy honoka")
    assert g.context == "card choice" and set(labels(g)) == {"choose honoka", "pass"}
    g.apply("pass")
    assert g.domain(0) == {} and g.discard_pile(0) == {"honoka": 1}
    assert g.context == "second phase" and "set honoka" not in labels(g)    # buying, not setting
    g.apply("buy lily")
    g.apply("choose lily")
    assert g.domain(0) == {"lily": 1} and g.sp(0) == 6 + 2
    assert "lily" not in g.discard_pile(0)


def test_sharifa_bought_and_set_gives_each_opponent_a_face_up_curse_on_deck(g3):
    g = g3
    g.arrange(1, deck=["city"] * 3)
    g.arrange(2, deck=["city"] * 3)
    me(g, {"large_city": 2}, princess="lulunasaika", domain={}, market={"sharifa": 1, "curse": 12})
    play_all(g, "large_city", "large_city")
    end_main(g)
    g.apply("buy sharifa")
    g.apply("choose sharifa")
    assert g.domain(0) == {"sharifa": 1} and g.sp(0) == 8
    for q in (1, 2):
        assert g.deck(q)[0] == "curse" and top_face_up(g, q) and len(g.deck(q)) == 4
    assert g.market()["curse"] == 10
    assert g.deck(0) == CITIES


def test_sharifa_set_from_hand_triggers_and_curses_run_out_clockwise(g4):
    g = g4
    for q in (1, 2, 3):
        g.arrange(q, deck=["city"] * 3)
    me(g, {"sharifa": 1}, princess="lulunasaika", domain={}, market={"curse": 2})
    end_main(g)
    g.apply("set sharifa")
    assert [g.deck(q)[0] for q in (1, 2, 3)] == ["curse", "curse", "city"]
    assert g.market().get("curse", 0) == 0


def test_sharifa_bought_without_a_domain_is_not_set(g2):
    g = g2
    g.arrange(1, deck=["city"] * 3)
    me(g, {"large_city": 2}, market={"sharifa": 1})
    play_all(g, "large_city", "large_city")
    end_main(g)
    g.apply("buy sharifa")
    assert g.context == "second phase"
    assert g.discard_pile(0) == {"sharifa": 1} and g.deck(1) == ["city"] * 3


def test_petit_when_set_opponents_discard_lowest_cost_of_court_maid_senator_duke(g3):
    g = g3
    g.arrange(1, princess="laolily", domain={"court_maid": 1, "senator": 1, "duke": 1, "farming_village": 1},
              discard={})
    g.arrange(2, princess="bergamot", domain={"senator": 1, "duke": 2}, discard={})
    me(g, {"large_city": 2}, princess="lulunasaika", domain={}, market={"petit": 1})
    play_all(g, "large_city", "large_city")
    end_main(g)
    g.apply("buy petit")
    g.apply("choose petit")
    assert g.domain(1) == {"senator": 1, "duke": 1, "farming_village": 1}
    assert g.discard_pile(1) == {"court_maid": 1} and g.sp(1) == 0 + 3 + 6 - 2
    assert g.domain(2) == {"duke": 2} and g.discard_pile(2) == {"senator": 1} and g.sp(2) == 12


def test_petit_set_from_hand_with_nothing_to_take(g2):
    g = g2
    g.arrange(1, princess="laolily", domain={"farming_village": 1, "honoka": 1}, discard={})
    me(g, {"petit": 1}, princess="lulunasaika", domain={})
    end_main(g)
    g.apply("set petit")
    assert g.domain(1) == {"farming_village": 1, "honoka": 1} and g.discard_pile(1) == {}
    assert g.domain(0) == {"petit": 1}


def test_honoka_counts_4_sp_as_the_only_maid_in_the_domain(g2):
    g = g2
    g.arrange(0, princess="lulunasaika", domain={"honoka": 1})
    assert g.sp(0) == 6 + 4
    g.arrange(0, domain={"honoka": 1, "duke": 1, "city": 1})             # no other Maid
    assert g.sp(0) == 6 + 4 + 6
    g.arrange(0, domain={"honoka": 1, "apprentice_maid": 1})             # Apprentice Maids are Maids
    assert g.sp(0) == 6 + 2 - 2
    g.arrange(0, domain={"honoka": 1, "court_maid": 1})                  # Court Maids too
    assert g.sp(0) == 6 + 2 + 2
    g.arrange(0, domain={"honoka": 1, "lily": 1})                        # and the Attendant Maids
    assert g.sp(0) == 6 + 2 + 2


def test_honoka_sp_drops_when_another_maid_is_set(g2):
    g = g2
    me(g, {"court_maid": 1}, princess="lulunasaika", domain={"honoka": 1})
    assert g.sp(0) == 10
    end_main(g)
    g.apply("set court_maid")
    assert g.sp(0) == 6 + 2 + 2


def test_minnyan_when_set_gains_a_coin_counter(g2):
    g = g2
    me(g, {"large_city": 2}, princess="lulunasaika", domain={}, market={"minnyan": 1})
    play_all(g, "large_city", "large_city")
    end_main(g)
    g.apply("buy minnyan")
    g.apply("choose minnyan")
    assert counters(g) == (0, 1)
    assert g.domain(0) == {"minnyan": 1}
    g.apply("pass")                                  # coin counters are for the Main phase
    finish_turn(g)
    me(g, {"city": 1})
    assert "spend coin counter" in labels(g)
    g.apply("spend coin counter")
    assert g.coins == 1 and counters(g) == (0, 0)


def test_minnyan_bought_but_not_set_gives_nothing(g2):
    g = g2
    me(g, {"large_city": 2}, princess="lulunasaika", domain={}, market={"minnyan": 1})
    play_all(g, "large_city", "large_city")
    end_main(g)
    g.apply("buy minnyan")
    g.apply("pass")
    assert counters(g) == (0, 0)


def test_lily_pays_3_coins_for_a_succession_counter_once_per_main_phase(g2):
    g = g2
    me(g, {"large_city": 2}, princess="lulunasaika", domain={"lily": 1})
    assert g.sp(0) == 8
    assert "use lily" not in labels(g)                  # needs 3 coins
    play_all(g, "large_city", "large_city")
    assert g.coins == 6 and "use lily" in labels(g)
    g.apply("use lily")
    assert g.coins == 3
    assert g.counters(0).succession == 1 and g.sp(0) == 9
    assert "use lily" not in labels(g)                  # once per Main phase per Lily


def test_two_lilies_two_uses(g2):
    g = g2
    me(g, {"large_city": 2}, princess="lulunasaika", domain={"lily": 2})
    play_all(g, "large_city", "large_city")
    g.apply("use lily")
    g.apply("use lily")
    assert g.coins == 0 and g.counters(0).succession == 2 and g.sp(0) == 6 + 4 + 2


def test_lily_only_while_set_in_the_domain(g2):
    g = g2
    me(g, {"large_city": 2, "lily": 1}, princess="lulunasaika", domain={})
    play_all(g, "large_city", "large_city")
    assert "use lily" not in labels(g)


def test_lily_each_use_needs_her_3_coins_while_uses_are_left(g2):
    """Each Lily set in the domain is one use a Main phase (her card data: an ability used from the domain,
    TRIG_DOMAIN); what a use costs is her routine's (lily_ready: 3 coins), asked again for each use."""
    g = g2
    me(g, {"large_city": 1, "city": 1}, princess="lulunasaika", domain={"lily": 2})
    play_all(g, "large_city", "city")
    assert g.coins == 5
    g.apply("use lily")
    assert g.coins == 2 and g.counters(0).succession == 1
    assert "use lily" not in labels(g)                  # a use is left, but not 3 coins


def test_honoka_sp_text_adds_2_to_her_printed_sp():
    """Honoka's 4 SP as the only Maid is her SP text (TRIG_SCORE, kernel/scoring.py): 2 more than her
    printed SP. With her SP overridden to 3 she is worth 5 alone and 3 beside another Maid."""
    g = new(rules(2, overrides=("honoka.sp=3",)))
    g.arrange(0, princess="lulunasaika", domain={"honoka": 1})
    assert g.sp(0) == 6 + 5
    g.arrange(0, domain={"honoka": 1, "court_maid": 1})
    assert g.sp(0) == 6 + 3 + 2


def test_attendant_maid_set_on_buy_is_her_on_buy_routine_and_needs_a_domain(g2):
    """The Attendant Maids' "when you buy this, you may set it" is their on_buy routine (card data), run
    for the Maid just bought; without a domain it does nothing (the routine checks, not the turn)."""
    g = g2
    me(g, {"large_city": 3}, market={"lily": 1, "honoka": 1})
    play_all(g, "large_city", "large_city", "large_city")
    end_main(g)
    g.apply("buy lily")                                 # no domain: not set, no question
    assert g.context == "second phase" and g.discard_pile(0) == {"lily": 1}
    g.arrange(0, princess="lulunasaika", domain={})
    g.apply("buy honoka")
    assert g.context == "card choice" and set(labels(g)) == {"choose honoka", "pass"}


def test_land_reclamation_decree_opponents_take_a_face_up_farming_village(g3):
    g = g3
    g.arrange(1, deck=["city"] * 3)
    g.arrange(2, deck=["farming_village"] * 3)          # a face-down FV on top does not protect
    me(g, {"post_horse": 1, "land_reclamation_decree": 2}, market={"farming_village": 10})
    g.apply("play post_horse")
    g.apply("play land_reclamation_decree")
    assert g.coins == 2 and g.open_plays == 1
    for q in (1, 2):
        assert g.deck(q)[0] == "farming_village" and top_face_up(g, q) and len(g.deck(q)) == 4
    assert g.market()["farming_village"] == 8
    # the second Decree: everyone already has a face-up FV on top
    g.apply("play land_reclamation_decree")
    assert g.coins == 4
    assert len(g.deck(1)) == len(g.deck(2)) == 4 and g.market()["farming_village"] == 8


def test_land_reclamation_decree_pile_runs_out_clockwise(g3):
    g = g3
    g.arrange(1, deck=["city"] * 3)
    g.arrange(2, deck=["city"] * 3)
    me(g, {"land_reclamation_decree": 1}, market={"farming_village": 1})
    g.apply("play land_reclamation_decree")
    assert g.deck(1)[0] == "farming_village" and g.deck(2)[0] == "city"


def test_bank_two_coins_plus_one_after_a_city_or_large_city(g2):
    g = g2
    me(g, {"bank": 1, "post_horse": 1})
    play_all(g, "post_horse", "bank")
    assert g.coins == 2 and g.open_plays == 1 + 2 + 0 - 2
    g = Game(g.ruleset, seed=7)
    me(g, {"large_city": 1, "bank": 1})
    play_all(g, "large_city", "bank")
    assert g.coins == 3 + 3
    g = Game(g.ruleset, seed=7)
    me(g, {"city": 2, "bank": 1, "post_horse": 1})
    play_all(g, "city", "city", "bank")                 # one +1 only, however many Cities
    assert g.coins == 2 + 2 + 3


def test_bank_played_before_the_city_gets_no_bonus(g2):
    g = g2
    me(g, {"post_horse": 1, "bank": 1, "city": 1})
    play_all(g, "post_horse", "bank", "city")
    assert g.coins == 2 + 2


def test_library_gives_one_more_coin_for_each_later_action(g2):
    g = g2
    me(g, {"library": 1, "post_horse": 1, "purveyor": 1, "city": 1})
    g.apply("play library")
    assert g.coins == 1 and g.open_plays == 1
    g.apply("play post_horse")
    assert g.coins == 2
    g.apply("play city")                                # a Territory: no bonus
    assert g.coins == 4
    g.apply("play purveyor")
    assert g.coins == 7


def test_library_first_copy_does_not_trigger_itself_two_libraries_give_three_faq(g2):
    g = g2
    me(g, {"library": 2})
    g.apply("play library")
    assert g.coins == 1
    g.apply("play library")
    assert g.coins == 1 + (1 + 1) == 3


def test_flea_market_one_coin_two_links_draws_one(g2):
    g = g2
    me(g, {"flea_market": 1}, deck=["duke"] + CITIES)
    g.apply("play flea_market")
    assert g.coins == 1 and g.open_plays == 2 and g.hand(0) == {"duke": 1}


def test_supply_unit_returns_an_action_face_up_on_deck_at_start_of_cleanup(g2):
    g = g2
    # a Post Horse left in hand and a domain City make Cleanup stop at Keep, after the return
    me(g, {"supply_unit": 1, "trading_ship": 1, "post_horse": 1}, deck=["duke"] + CITIES,
       princess="lulunasaika", domain={"city": 1})
    g.apply("play supply_unit")
    assert g.hand(0) == {"trading_ship": 1, "post_horse": 1, "duke": 1} and g.open_plays == 2
    g.apply("play trading_ship")
    g.apply("number 1")
    to_cleanup(g)
    assert g.context == "card choice" and g.decider == 0
    assert set(labels(g)) == {"choose trading_ship", "pass"}
    g.apply("choose trading_ship")
    assert g.context == "keep"
    assert g.deck(0)[0] == "trading_ship" and top_face_up(g, 0)
    assert g.play_area() == {"supply_unit": 1}
    g.apply("pass")
    assert g.hand(0)["trading_ship"] == 1               # drawn in the new hand
    assert "trading_ship" not in g.discard_pile(0)


def test_supply_unit_return_is_optional(g2):
    g = g2
    me(g, {"supply_unit": 1, "post_horse": 1})
    play_all(g, "supply_unit", "post_horse")
    to_cleanup(g)
    g.apply("pass")
    assert g.turn_player == 1
    assert g.discard_pile(0) == {"supply_unit": 1, "post_horse": 1, "city": 2}     # 2 Cities drawn


def test_supply_unit_does_not_return_supply_unit_faq(g2):
    g = g2
    me(g, {"supply_unit": 2})
    play_all(g, "supply_unit", "supply_unit")
    to_cleanup(g)
    # no Action other than Supply Unit in the play area: nothing is asked
    assert g.turn_player == 1
    assert g.discard_pile(0) == {"supply_unit": 2, "city": 2}


def test_two_supply_units_return_two_other_actions_but_not_each_other_faq(g2):
    g = g2
    me(g, {"supply_unit": 2, "post_horse": 1, "scout": 1}, deck=["city"] * 30)
    play_all(g, "supply_unit", "supply_unit", "post_horse", "scout")
    if g.context == "card choice":                      # Scout looks at the top card
        g.apply("pass")
    to_cleanup(g)
    assert set(labels(g)) == {"choose post_horse", "choose scout", "pass"}
    g.apply("choose scout")
    assert set(labels(g)) == {"choose post_horse", "pass"}
    g.apply("choose post_horse")
    assert g.turn_player == 1
    assert g.discard_pile(0) == {"supply_unit": 2, "city": 4}
    assert g.hand(0)["post_horse"] == 1 and g.hand(0)["scout"] == 1


def test_infantry_battalion_two_coins_opponents_with_5_cards_discard_a_territory(g2):
    g = g2
    g.arrange(1, hand={"city": 1, "farming_village": 1, "duke": 1, "senator": 1, "court_maid": 1}, discard={})
    me(g, {"infantry_battalion": 1})
    g.apply("play infantry_battalion")
    assert g.coins == 2 and g.open_plays == 0
    assert g.decider == 1 and set(labels(g)) == {"choose city", "choose farming_village"}
    g.apply("choose farming_village")
    assert g.discard_pile(1) == {"farming_village": 1}
    assert sum(g.hand(1).values()) == 4
    assert g.context == "second phase" and g.decider == 0


def test_infantry_battalion_spares_small_hands_and_hands_without_territory(g3):
    g = g3
    g.arrange(1, hand={"city": 2, "farming_village": 2}, discard={})                   # 4 cards
    g.arrange(2, hand={"duke": 2, "court_maid": 3}, discard={})                       # no Territory
    me(g, {"infantry_battalion": 1})
    g.apply("play infantry_battalion")
    assert g.decider == 0 and g.discard_pile(1) == {} and g.discard_pile(2) == {}


def test_attacks_resolve_clockwise_from_the_next_player(g4):
    g = g4
    for q in (1, 2, 3):
        g.arrange(q, hand={"city": 3, "farming_village": 2}, discard={})
    finish_turn(g)                                      # seat 0 ends; seat 1 attacks
    g.arrange(1, hand={"infantry_battalion": 1}, deck=CITIES)
    g.arrange(0, hand={"city": 3, "farming_village": 2}, discard={})
    g.apply("play infantry_battalion")
    order = []
    while g.context == "card choice":
        order.append(g.decider)
        g.apply("choose city")
    assert order == [2, 3, 0]


# =========================================================================================
# Cost 5
# =========================================================================================

def test_imperial_estate_played_with_a_domain_is_set_at_start_of_cleanup(g2):
    g = g2
    me(g, {"imperial_estate": 1}, princess="lulunasaika", domain={})
    g.apply("play imperial_estate")
    assert g.coins == 2 and g.open_plays == 1
    end_main(g)
    g.apply("pass")
    assert g.turn_player == 1
    assert g.domain(0) == {"imperial_estate": 1} and g.sp(0) == 6 + 2
    assert "imperial_estate" not in g.discard_pile(0)


def test_imperial_estate_set_at_cleanup_can_then_hold_a_kept_action(g2):
    g = g2
    me(g, {"imperial_estate": 1, "trading_ship": 1}, princess="lulunasaika", domain={})
    g.apply("play imperial_estate")
    to_cleanup(g)
    assert g.domain(0) == {"imperial_estate": 1}
    assert g.context == "keep" and set(labels(g)) == {"pass", "keep trading_ship"}
    g.apply("keep trading_ship")
    assert g.kept(0) == {"trading_ship": 1}


def test_imperial_estate_set_only_when_played_and_only_with_a_domain_faq(g2):
    g = g2
    # in hand at Cleanup: nothing happens, even with a domain
    me(g, {"imperial_estate": 1, "city": 1}, princess="lulunasaika", domain={})
    g.apply("play city")
    to_cleanup(g)
    assert g.domain(0) == {} and g.discard_pile(0) == {"imperial_estate": 1, "city": 1}
    # played without a domain: discarded as usual
    g = Game(g.ruleset, seed=7)
    me(g, {"imperial_estate": 1})
    g.apply("play imperial_estate")
    to_cleanup(g)
    assert g.domain(0) == {} and g.discard_pile(0) == {"imperial_estate": 1}


def test_imperial_estate_can_be_set_from_hand_as_a_succession_card(g2):
    g = g2
    me(g, {"imperial_estate": 1}, princess="lulunasaika", domain={})
    end_main(g)
    g.apply("set imperial_estate")
    assert g.domain(0) == {"imperial_estate": 1} and g.sp(0) == 8


def test_royal_guard_opponents_discard_the_top_three_cards(g3):
    g = g3
    g.arrange(1, deck=["duke", "senator", "court_maid", "city"], discard={})
    g.arrange(2, deck=["large_city", "city", "duke"], discard={"farming_village": 1})
    me(g, {"royal_guard": 1})
    g.apply("play royal_guard")
    assert g.coins == 2 and g.open_plays == 0
    assert g.discard_pile(1) == {"duke": 1, "senator": 1, "court_maid": 1}
    assert g.deck(1) == ["city"]
    assert g.discard_pile(2) == {"large_city": 1, "city": 1, "duke": 1, "farming_village": 1}
    assert g.deck(2) == []


def test_royal_guard_short_deck_does_not_reshuffle_the_cards_it_discarded(g3):
    g = g3
    g.arrange(1, deck=["duke"], discard={"city": 5})
    g.arrange(2, deck=["large_city", "city"], discard={})
    me(g, {"royal_guard": 1})
    g.apply("play royal_guard")
    # 1 card in the deck: the 5 Cities go under it, then the Duke and 2 Cities are discarded
    assert g.discard_pile(1) == {"duke": 1, "city": 2}
    assert g.deck(1) == ["city"] * 3
    # 2 cards and an empty discard pile: both are discarded, the deck is empty
    assert g.discard_pile(2) == {"large_city": 1, "city": 1}
    assert g.deck(2) == []


def test_curse_witch_pay_a_coin_every_opponent_gains_a_curse(g3):
    g = g3
    g.arrange(1, discard={})
    g.arrange(2, discard={})
    me(g, {"city": 1, "curse_witch": 1}, market={"curse": 12})
    g.apply("play city")
    g.apply("play curse_witch")
    assert g.open_plays == 0
    assert "pass" in labels(g)                          # optional
    g.apply("number 0")
    assert g.coins == 1
    assert [g.label(a) for a in g.legal_actions()] == ["number 2: every opponent gains a Curse",
                                                       "number 3: draw 2 cards"]
    g.apply("number 2")
    assert g.discard_pile(1) == {"curse": 1} and g.discard_pile(2) == {"curse": 1}
    assert g.market()["curse"] == 10 and g.discard_pile(0) == {}


def test_curse_witch_exile_an_action_or_succession_then_draw_two(g2):
    g = g2
    me(g, {"city": 1, "curse_witch": 1, "apprentice_maid": 1, "farming_village": 1},
       deck=["duke", "senator"] + CITIES)
    play_all(g, "city", "curse_witch")
    assert labels(g) == ["pass", "number 0", "number 1"]
    g.apply("number 1")
    assert labels(g) == ["choose apprentice_maid"]      # Action/Succession only
    g.apply("choose apprentice_maid")
    assert abroad(g, "apprentice_maid") == 1 and g.coins == 2
    g.apply("number 3")
    assert g.hand(0) == {"farming_village": 1, "duke": 1, "senator": 1}


def test_curse_witch_declined_or_unpaid_does_nothing(g2):
    g = g2
    g.arrange(1, discard={})
    me(g, {"curse_witch": 1, "city": 1, "post_horse": 1})
    play_all(g, "city", "curse_witch")
    g.apply("pass")
    assert g.context == "second phase" and g.coins == 2
    assert g.discard_pile(1) == {} and g.hand(0) == {"post_horse": 1}
    g = Game(g.ruleset, seed=7)
    g.arrange(1, discard={})
    me(g, {"curse_witch": 1, "farming_village": 1, "curse": 1})     # no coin, no Action/Succession
    g.apply("play curse_witch")
    assert g.turn_player == 1                           # nothing was asked; the turn is over
    assert g.discard_pile(1) == {} and abroad(g, "farming_village") == 0


def test_curse_witch_curses_run_out_clockwise_four_players_faq(g4):
    """FAQ: 4 players, 2 Curses left: A's Curse Witch gives them to B and C; D gets none."""
    g = g4
    for q in (1, 2, 3):
        g.arrange(q, discard={})
    me(g, {"city": 1, "curse_witch": 1}, market={"curse": 2})
    g.apply("play city")
    g.apply("play curse_witch")
    g.apply("number 0")
    g.apply("number 2")
    assert [g.discard_pile(q).get("curse", 0) for q in (1, 2, 3)] == [1, 1, 0]
    assert g.market().get("curse", 0) == 0


def test_curse_witch_curses_run_out_clockwise_from_a_later_seat(g4):
    g = g4
    finish_turn(g)
    finish_turn(g)                                      # seat 3 (C) plays the Witch
    for q in (0, 1, 3):
        g.arrange(q, discard={})
    g.arrange(2, hand={"city": 1, "curse_witch": 1}, deck=CITIES, discard={}, market={"curse": 2})
    assert g.turn_player == 2
    g.apply("play city")
    g.apply("play curse_witch")
    g.apply("number 0")
    g.apply("number 2")
    assert [g.discard_pile(q).get("curse", 0) for q in (3, 0, 1)] == [1, 1, 0]


def test_ball_first_gives_a_coin(g2):
    g = g2
    me(g, {"ball": 2, "post_horse": 1}, deck=["duke", "senator"] + CITIES)
    g.apply("play ball")
    assert g.hand(0) == {"ball": 1, "post_horse": 1, "duke": 1} and g.open_plays == 1
    assert [g.label(a) for a in g.legal_actions()] == [
        "number 0: gain 1 coin", "number 1: Succession cards cost 1 less this turn"]
    g.apply("number 0")
    assert g.coins == 1
    g.apply("play ball")                                # not the first: draw only
    assert g.context == "main phase" and g.coins == 1
    assert g.hand(0) == {"post_horse": 1, "duke": 1, "senator": 1}


def test_ball_succession_cards_cost_one_less_not_below_two(g2):
    g = g2
    me(g, {"ball": 1, "large_city": 1}, market={"margrave": 1, "imperial_estate": 1, "sharifa": 1, "alchemist": 1})
    g.apply("play ball")
    g.apply("number 1")
    g.apply("play large_city")
    end_main(g)
    assert (cost(g, "duke"), cost(g, "senator"), cost(g, "court_maid")) == (7, 4, 2)
    assert (cost(g, "margrave"), cost(g, "imperial_estate"), cost(g, "sharifa")) == (5, 4, 3)
    assert (cost(g, "city"), cost(g, "alchemist"), cost(g, "farming_village")) == (3, 5, 1)


def test_ball_and_klam_klam_reductions_add_with_the_highest_floor(g2):
    g = g2
    me(g, {"ball": 1, "large_city": 1}, princess="klam_klam", domain={})
    g.apply("play ball")
    g.apply("number 1")
    g.apply("play large_city")
    end_main(g)
    assert (cost(g, "duke"), cost(g, "court_maid"), cost(g, "city"), cost(g, "farming_village")) == (6, 2, 2, 1)


def test_adventurer_exiles_a_card_and_gains_one_costing_up_to_two_more(g2):
    g = g2
    me(g, {"large_city": 1, "adventurer": 1, "city": 1, "curse": 1},
       market={"senator": 12, "margrave": 1, "alchemist": 1})
    play_all(g, "large_city", "adventurer")
    assert g.open_plays == 0 and g.coins == 3
    assert labels(g) == ["choose city"]                 # never a Calamity; mandatory
    g.apply("choose city")
    assert abroad(g, "city") == 1
    choices = set(labels(g))
    assert {"choose senator", "choose alchemist", "choose city", "choose court_maid"} <= choices
    assert not {"choose margrave", "choose large_city", "choose duke", "choose curse"} & choices
    assert "pass" not in choices
    g.apply("choose senator")
    assert g.discard_pile(0) == {"senator": 1} and g.market()["senator"] == 11
    assert g.hand(0) == {"curse": 1}


def test_adventurer_with_only_calamities_in_hand_does_nothing(g2):
    g = g2
    me(g, {"adventurer": 1, "curse": 2})
    g.apply("play adventurer")
    assert g.turn_player == 1                           # nothing was asked; the turn is over
    assert g.discard_pile(0) == {"adventurer": 1, "curse": 2} and abroad(g, "curse") == 0


def test_adventurer_gaining_an_attendant_maid_does_not_set_her(g2):
    """'When you buy this card ... you may set it': a gain by Adventurer is not a buy."""
    g = g2
    g.arrange(1, deck=["city"] * 3)
    me(g, {"city": 1, "adventurer": 1, "court_maid": 1}, princess="lulunasaika", domain={},
       market={"sharifa": 1, "curse": 8})
    play_all(g, "city", "adventurer")
    g.apply("choose court_maid")                        # cost 3: up to 5
    assert "choose sharifa" in labels(g)
    g.apply("choose sharifa")
    assert g.context == "second phase"
    assert g.discard_pile(0) == {"sharifa": 1} and g.domain(0) == {}
    assert g.deck(1) == ["city"] * 3


def test_adventurer_gain_still_allows_backing_in_the_second_phase_faq(g2):
    g = g2
    me(g, {"large_city": 2, "adventurer": 1, "farming_village": 1})
    play_all(g, "large_city", "large_city", "adventurer")
    g.apply("choose farming_village")
    g.apply("choose city")
    assert g.discard_pile(0) == {"city": 1}
    assert g.context == "second phase" and g.coins == 6
    assert "back lulunasaika" in labels(g)
    g.apply("back lulunasaika")
    assert g.princess(0) == "lulunasaika" and g.domain(0) == {"large_city": 2}


def test_adventurer_gain_still_allows_setting_in_the_second_phase_faq(g2):
    g = g2
    me(g, {"adventurer": 1, "farming_village": 1, "duke": 1}, princess="lulunasaika", domain={})
    g.apply("play adventurer")
    g.apply("choose farming_village")
    g.apply("choose court_maid")
    assert g.discard_pile(0) == {"court_maid": 1}
    assert g.context == "second phase" and "set duke" in labels(g)
    g.apply("set duke")
    assert g.domain(0) == {"duke": 1} and g.sp(0) == 12


def test_charm_witch_draws_and_opponent_discards_an_action_or_succession(g2):
    g = g2
    g.arrange(1, hand={"post_horse": 1, "duke": 1, "city": 2, "farming_village": 1}, discard={})
    me(g, {"charm_witch": 1}, deck=["large_city"] + CITIES)
    g.apply("play charm_witch")
    assert g.hand(0) == {"large_city": 1} and g.open_plays == 1
    assert g.decider == 1 and set(labels(g)) == {"choose post_horse", "choose duke"}
    g.apply("choose duke")
    assert g.discard_pile(1) == {"duke": 1}
    assert g.decider == 0 and g.context == "main phase"


def test_charm_witch_reduces_costs_of_cards_sharing_a_type_this_turn(g2):
    g = g2
    g.arrange(1, hand={"post_horse": 1, "city": 4}, discard={})
    me(g, {"charm_witch": 1}, market={"margrave": 1, "imperial_estate": 1, "alchemist": 1, "sharifa": 1,
                                      "adventurer": 1})
    g.apply("play charm_witch")
    g.apply("choose post_horse")                        # an Action
    g.apply("play city")
    end_main(g)
    assert (cost(g, "alchemist"), cost(g, "adventurer"), cost(g, "margrave")) == (4, 4, 5)
    assert (cost(g, "duke"), cost(g, "imperial_estate"), cost(g, "sharifa"), cost(g, "city")) == (8, 5, 4, 3)
    g.apply("pass")                                     # seat 1's turn begins
    assert g.turn_player == 1
    g.arrange(1, hand={"city": 1}, market={"alchemist": 1})
    g.apply("play city")
    end_main(g)
    assert cost(g, "alchemist", p=1) == 5               # the reduction is over (and was not theirs)


def test_charm_witch_one_witch_reduces_by_one_per_card_whatever_the_matches_faq(g4):
    """FAQ: discarding 2 Actions and 1 Succession (one Witch) reduces Margrave (Action/Succession)
    by 1 only, never 2; Actions and Succession cards each cost 1 less."""
    g = g4
    g.arrange(1, hand={"post_horse": 1, "city": 4}, discard={})
    g.arrange(2, hand={"trading_ship": 1, "city": 4}, discard={})
    g.arrange(3, hand={"senator": 1, "city": 4}, discard={})
    me(g, {"charm_witch": 1}, market={"margrave": 1, "alchemist": 1})
    g.apply("play charm_witch")
    for q, c in ((1, "post_horse"), (2, "trading_ship"), (3, "senator")):
        assert g.decider == q
        g.apply(f"choose {c}")
    g.apply("play city")
    end_main(g)
    assert cost(g, "margrave") == 6 - 1
    assert (cost(g, "alchemist"), cost(g, "duke"), cost(g, "city")) == (4, 7, 3)


def test_charm_witch_several_witches_stack_but_not_below_two_faq(g2):
    g = g2
    g.arrange(1, hand={"post_horse": 2, "city": 4}, discard={})
    me(g, {"charm_witch": 2}, deck=["city"] * 30,
       market={"alchemist": 1, "margrave": 1, "city_development": 1, "post_horse": 1})
    g.apply("play charm_witch")
    g.apply("choose post_horse")
    g.apply("play charm_witch")
    assert g.decider == 1 and sum(g.hand(1).values()) == 5
    g.apply("choose post_horse")
    g.apply("play city")
    end_main(g)
    assert cost(g, "alchemist") == 5 - 2
    assert cost(g, "margrave") == 6 - 2
    assert cost(g, "city_development") == 2             # 3 - 2 = 1, floor 2
    assert cost(g, "post_horse") == 2                   # already 2


def test_charm_witch_small_hands_are_spared_and_give_no_reduction(g2):
    g = g2
    g.arrange(1, hand={"post_horse": 1, "city": 3}, discard={})                        # 4 cards
    me(g, {"charm_witch": 1}, market={"alchemist": 1})
    g.apply("play charm_witch")
    assert g.decider == 0 and g.hand(1) == {"post_horse": 1, "city": 3}
    g.apply("play city")
    end_main(g)
    assert cost(g, "alchemist") == 5


def test_alchemist_draws_two_one_link(g2):
    g = g2
    me(g, {"alchemist": 1, "city": 1}, deck=["duke", "senator"] + CITIES)
    g.apply("play alchemist")
    assert g.hand(0) == {"city": 1, "duke": 1, "senator": 1} and g.open_plays == 1 and g.coins == 0


# =========================================================================================
# Cost 6
# =========================================================================================

def test_gossip_loving_duchess_when_set_opponents_discard_highest_cost_maid_senator_duke(g3):
    g = g3
    g.arrange(1, princess="laolily", domain={"court_maid": 1, "senator": 1, "duke": 1}, discard={})
    g.arrange(2, princess="bergamot", domain={"court_maid": 2, "large_city": 1}, discard={})
    me(g, {"gossip_loving_duchess": 1}, princess="lulunasaika", domain={})
    end_main(g)
    g.apply("set gossip_loving_duchess")
    assert g.domain(0) == {"gossip_loving_duchess": 1} and g.sp(0) == 6 + 3
    assert g.domain(1) == {"court_maid": 1, "senator": 1} and g.discard_pile(1) == {"duke": 1}
    assert g.sp(1) == 5
    assert g.domain(2) == {"court_maid": 1, "large_city": 1} and g.discard_pile(2) == {"court_maid": 1}


def test_gossip_loving_duchess_cannot_be_played_and_is_not_set_on_buy(g2):
    g = g2
    me(g, {"gossip_loving_duchess": 1, "large_city": 3}, princess="lulunasaika", domain={},
       market={"gossip_loving_duchess": 1})
    assert "play gossip_loving_duchess" not in labels(g)
    play_all(g, "large_city", "large_city", "large_city")
    end_main(g)
    g.apply("buy gossip_loving_duchess")
    assert g.context == "second phase"                  # no set-on-buy question
    assert g.discard_pile(0) == {"gossip_loving_duchess": 1}


def test_margrave_three_coins_no_link_set_at_cleanup_with_a_domain(g2):
    g = g2
    me(g, {"margrave": 1, "post_horse": 1}, princess="lulunasaika", domain={"city": 1})
    g.apply("play margrave")
    assert g.coins == 3 and g.open_plays == 0
    end_main(g)
    g.apply("pass")
    assert g.domain(0) == {"city": 1, "margrave": 1} and g.sp(0) == 6 + 3
    assert "margrave" not in g.discard_pile(0)


def test_margrave_set_only_when_played_and_only_with_a_domain_faq(g2):
    g = g2
    me(g, {"margrave": 1, "city": 1}, princess="lulunasaika", domain={})
    g.apply("play city")
    to_cleanup(g)
    assert g.domain(0) == {} and g.discard_pile(0) == {"margrave": 1, "city": 1}
    g = Game(g.ruleset, seed=7)
    me(g, {"margrave": 1})
    g.apply("play margrave")
    to_cleanup(g)
    assert g.domain(0) == {} and g.discard_pile(0) == {"margrave": 1}


def test_margrave_cannot_be_kept_faq(g2):
    g = g2
    me(g, {"margrave": 1, "post_horse": 1}, princess="lulunasaika", domain={"large_city": 2})
    to_cleanup(g)
    assert g.context == "keep"
    assert set(labels(g)) == {"pass", "keep post_horse"}
    g.apply("keep post_horse")
    assert g.turn_player == 1                           # the second Large City cannot hold Margrave
    assert g.kept(0) == {"post_horse": 1} and g.discard_pile(0) == {"margrave": 1}


def test_margrave_library_bonus_applies_since_it_is_an_action(g2):
    g = g2
    me(g, {"library": 1, "margrave": 1})
    play_all(g, "library", "margrave")
    assert g.coins == 1 + 3 + 1


# =========================================================================================
# Overtime: attacks skip eliminated players
# =========================================================================================

def test_curse_witch_skips_players_out_in_overtime(g3):
    g = g3
    g.arrange(1, discard={})
    g.arrange(2, discard={})
    me(g, {"city": 1, "curse_witch": 1}, market={"curse": 12})
    knock_out(g, 1)
    g.apply("play city")
    g.apply("play curse_witch")
    g.apply("number 0")
    g.apply("number 2")
    assert g.discard_pile(1) == {} and g.discard_pile(2) == {"curse": 1}
    assert g.market()["curse"] == 11


def test_hand_attack_skips_players_out_in_overtime(g3):
    g = g3
    g.arrange(1, hand={"city": 5}, discard={})
    g.arrange(2, hand={"city": 5}, discard={})
    me(g, {"infantry_battalion": 1})
    knock_out(g, 1)
    g.apply("play infantry_battalion")
    assert g.decider == 2
    g.apply("choose city")
    assert g.discard_pile(1) == {} and g.hand(1) == {"city": 5}
    assert g.discard_pile(2) == {"city": 1}


def test_royal_guard_and_sharifa_skip_players_out_in_overtime(g3):
    g = g3
    g.arrange(1, deck=["city"] * 4, discard={})
    g.arrange(2, deck=["city"] * 4, discard={})
    me(g, {"royal_guard": 1, "sharifa": 1}, princess="lulunasaika", domain={}, market={"curse": 12})
    knock_out(g, 2)
    g.apply("play royal_guard")
    assert g.discard_pile(1) == {"city": 3} and g.deck(1) == ["city"]
    assert g.discard_pile(2) == {} and len(g.deck(2)) == 4
    end_main(g)
    g.apply("set sharifa")
    assert g.deck(1) == ["curse", "city"] and g.deck(2) == ["city"] * 4


def test_petit_and_battering_ram_skip_players_out_in_overtime(g3):
    g = g3
    g.arrange(1, princess="laolily", domain={"city": 1, "court_maid": 1}, kept={"post_horse": 1}, discard={})
    g.arrange(2, princess="bergamot", domain={"city": 1, "court_maid": 1}, kept={"post_horse": 1}, discard={})
    me(g, {"battering_ram": 1, "petit": 1}, princess="lulunasaika", domain={})
    knock_out(g, 1)
    g.apply("play battering_ram")
    assert g.decider == 2
    g.apply("choose post_horse")
    assert g.kept(1) == {"post_horse": 1} and g.kept(2) == {}
    end_main(g)
    g.apply("set petit")
    assert g.domain(1) == {"city": 1, "court_maid": 1} and g.domain(2) == {"city": 1}


def test_land_reclamation_decree_and_gossip_loving_duchess_skip_players_out_in_overtime(g3):
    g = g3
    g.arrange(1, princess="laolily", domain={"duke": 1}, deck=["city"] * 3, discard={})
    g.arrange(2, princess="bergamot", domain={"duke": 1}, deck=["city"] * 3, discard={})
    me(g, {"land_reclamation_decree": 1, "gossip_loving_duchess": 1}, princess="lulunasaika", domain={},
       market={"farming_village": 10})
    knock_out(g, 1)
    g.apply("play land_reclamation_decree")
    assert g.deck(1) == ["city"] * 3 and g.deck(2)[0] == "farming_village"
    end_main(g)
    g.apply("set gossip_loving_duchess")
    assert g.domain(1) == {"duke": 1} and g.domain(2) == {}


def test_supply_unit_cannot_take_back_a_played_margrave_before_it_is_set(g3):
    """Start of Cleanup: Margrave's mandatory set resolves before Supply Unit's optional return
    (the engine's fixed order), so a played Margrave always reaches the domain."""
    g = g3
    g.arrange(0, princess="lulunasaika", domain={}, hand={"supply_unit": 1, "margrave": 1}, deck=["city"] * 6,
              discard={})
    g.apply("play supply_unit")
    g.apply("play margrave")
    while g.context != "card choice" and g.turn_player == 0 and not g.over:
        g.apply(g.legal_actions()[0])
    assert g.domain(0).get("margrave") == 1
