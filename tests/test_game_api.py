"""The public `Game` API that Python agents and tests read: actions that name their verb and card,
labels that parse back, card facts from the card data, and read-only accessors for what the table
shows (supply, face-up deck cards, exile zone, counters, flags, prices)."""
from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from hoc.errors import HocError, IllegalActionError
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.rules import Ruleset

from conftest import fewest_coins, random_policy


# ---- actions and labels -------------------------------------------------------------------------

def test_legal_actions_are_the_ids_and_name_their_verb_and_card(game2):
    legal = game2.legal_actions()
    plays = [a for a in legal if a.verb == "play"]
    assert plays and all(a == K.A_PLAY + game2.cards.index(a.card) for a in plays)
    playable = [c for c in game2.hand(0) if game2.cards[c].types & {"territory", "action"}]
    assert [a.card for a in plays] == playable          # Apprentice Maids (Succession) cannot be played
    passing = legal[0]
    assert passing == K.A_PASS and passing.verb == "pass" and passing.card is None


def test_an_action_is_its_int_wherever_an_id_is_expected(game2):
    a = game2.legal_actions()[-1]
    assert str(a) == str(int(a)) and f"{a}" == str(int(a))
    assert json.loads(json.dumps([a])) == [int(a)]
    assert type(pickle.loads(pickle.dumps(a))) is int
    assert np.arange(K.N_ACTIONS)[[a]].tolist() == [int(a)]
    assert repr(a) == f"<Action {int(a)}: {a.verb} {a.card}>"
    with pytest.raises(AttributeError, match="read-only"):
        a.card = "duke"                                 # one table serves every game of the card set


def test_number_actions_carry_their_number():
    g = Game(Ruleset(players=2, market="basic"), seed=1)
    from hoc.games.heart_of_crown.game import actions

    table = actions(g.cards).by_id
    assert [(table[K.A_NUMBER + n].verb, table[K.A_NUMBER + n].number) for n in range(3)] == \
        [("number", 0), ("number", 1), ("number", 2)]


@pytest.mark.parametrize("seed", [1, 2])
def test_every_label_parses_back_to_its_action_at_every_decision(seed):
    """Labels are built once per card set, except those that depend on the position (pass,
    numbered modes): all must round-trip through parse."""
    g = Game(Ruleset(players=2, market="random"), seed=seed)
    policy = random_policy(seed)
    for _ in range(60):
        if g.over:
            break
        for a in range(K.N_ACTIONS):
            assert g.parse(g.label(a)) == a
        g.apply(policy(g))


def test_unknown_label_and_illegal_action_are_refused(game2):
    with pytest.raises(IllegalActionError, match="no action is called 'fly away'"):
        game2.apply("fly away")
    with pytest.raises(IllegalActionError, match=r"action 9999 .*is not legal for seat 0 in the main phase"):
        game2.apply(9999)
    with pytest.raises(IllegalActionError, match="buy duke.* is not legal for seat 0 in the main phase"):
        game2.apply("buy duke")


# ---- card facts -----------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", ["2e", "1e"])
def test_card_facts_agree_with_the_table_the_kernels_read(edition):
    db = Ruleset(edition=edition, players=2, market="basic").cards
    for c, card in enumerate(db.cards):
        row = db.table[c]
        assert db[card.name] is card and db[c] is card and db.index(card.name) == c
        assert (card.cost, card.links, card.coins, card.sp) == \
            (row[K.F_COST], row[K.F_LINKS], row[K.F_COINS], row[K.F_SP])
        assert sum(K.TYPE_BITS[t] for t in card.types) == row[K.F_TYPES]
        assert K.CATEGORIES[card.category] == row[K.F_CAT]


def test_card_facts_show_the_run_overrides():
    assert Ruleset(players=2, market="basic", overrides=("duke.cost=5",)).cards["duke"].cost == 5


def test_an_unknown_card_is_one_line_naming_it():
    with pytest.raises(HocError, match="unknown card 'dukes' in edition 2e"):
        Ruleset(players=2, market="basic").cards["dukes"]


# ---- Python agents in the harness -------------------------------------------------------------

def test_reset_starts_the_game_of_that_seed_afresh(basic_2p):
    g = Game(basic_2p, seed=3)
    policy = random_policy(0)
    for _ in range(30):
        g.apply(policy(g))
    g.reset(5)
    fresh = Game(basic_2p, seed=5)
    assert (g.state == fresh.state).all() and g.seed == 5


# ---- what the table shows ------------------------------------------------------------------------

MARKET = ["buried_treasure", "donation", "handyman", "ball", "charm_witch", "attendant_maid",
          "land_reclamation_decree", "post_horse", "city_development", "alchemist"]
CITIES = ["city"] * 12


@pytest.fixture(scope="module")
def rules2() -> Ruleset:
    return Ruleset(players=2, market=MARKET)


def fresh(rules, hand, seed=7, decks=None, **zones) -> Game:
    """A game where seat 0, the turn player, holds `hand` over a deck of Cities (and the other seats
    have the given decks)."""
    g = Game(rules, seed=seed)
    for q, deck in (decks or {}).items():
        g.arrange(q, deck=deck)
    g.arrange(0, hand=hand, deck=CITIES, discard={}, **zones)
    return g


def to_second_phase(g: Game) -> None:
    """End the Main phase (it ends by itself once nothing in hand can be played)."""
    if g.context == "main phase":
        g.apply("pass")
    assert g.context == "second phase"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_supply_holds_every_dealt_card_that_has_not_shown_in_the_market(rules2, seed):
    g = Game(rules2, seed=seed)
    frame = g.cards.frame
    supply, market = g.supply(), g.market()
    rares = list(frame.id[frame.category == "rare"])
    assert set(supply) <= set(MARKET) | set(rares)
    for kind in MARKET + rares:
        cards = frame[frame.pile == kind]
        shown = sum(market.get(c, 0) for c in cards.id)
        assert supply.get(kind, 0) + shown == cards.copies.sum(), kind


def test_buried_treasure_turns_the_supply_bottom_face_up_on_top_3_cheaper_this_turn(rules2):
    g = fresh(rules2, {"buried_treasure": 1, "large_city": 2})
    supply = g.supply()
    assert g.supply_top() is None
    g.apply("play buried_treasure")
    top = g.supply_top()
    assert top is not None and g.supply() == supply                # it moved within the supply
    assert g.face_up() == [top] == g.supply_deck()[:1]
    g.apply("play large_city")
    to_second_phase(g)
    buy = g.parse(f"buy {top}")
    assert g.price(top) == max(g.cards[top].cost - 3, 0) == fewest_coins(g, buy)


def test_price_is_the_fewest_coins_that_make_each_buy_legal_with_reductions_added(rules2):
    g = fresh(rules2, {"ball": 1, "large_city": 1}, princess="klam_klam", domain={})
    g.apply("play ball")
    g.apply("number 1")                                 # Succession cards cost 1 less (floor 2)
    g.apply("play large_city")
    to_second_phase(g)
    buyable = [c for c in g.market() if g.cards[c].category != "princess" and c != "curse"]   # Curses: never bought
    assert len(buyable) >= 10
    for card in buyable:
        assert g.price(card) == fewest_coins(g, K.A_BUY + g.cards.index(card)), card
    duke = g.cards["duke"].cost
    assert g.price("duke") == duke - 2
    assert g.price("duke", player=1) == duke - 1        # Ball's reduction holds this turn, Klam Klam's for her backer


def test_deck_face_up_names_the_curses_sharifa_puts_on_decks_and_hides_the_rest():
    g = fresh(Ruleset(players=3, market=MARKET), {"large_city": 2}, princess="lulunasaika", domain={},
              market={"sharifa": 1, "curse": 12}, decks={1: ["city"] * 3, 2: ["city"] * 3})
    assert g.deck_face_up(1) == [None] * 3
    g.apply("play large_city")
    g.apply("play large_city")
    to_second_phase(g)
    g.apply("buy sharifa")
    g.apply("choose sharifa")                           # set: every opponent takes a Curse face up
    for q in (1, 2):
        assert g.deck_face_up(q) == ["curse", None, None, None]
        assert g.deck(q) == ["curse", "city", "city", "city"]
    assert g.deck_face_up(0) == [None] * len(CITIES)


def test_exiled_cards_leave_the_field_for_the_exile_zone(rules2):
    g = fresh(rules2, {"donation": 2, "apprentice_maid": 1, "curse": 1})
    owned = g.cards_owned(0)
    assert g.exiled() == {}
    for card in ("apprentice_maid", "curse"):
        g.apply("play donation")
        g.apply(f"choose {card}")
    assert g.exiled() == {"apprentice_maid": 1, "curse": 1}
    assert g.cards_owned(0) == owned - 2 and g.owned(0, "apprentice_maid") == g.owned(0, "curse") == 0


def test_counters_keep_handyman_coin_counters_apart(rules2):
    g = fresh(rules2, {"handyman": 1, "curse": 1})
    assert g.counters(0) == (0, 0, 0, 0, 0, 0)          # coin, handyman, twins, succession, debt, debt due
    g.apply("play handyman")
    g.apply("number 1")                                 # gain a coin counter
    assert g.counters(0).handyman_coin == 1 and g.counters(0).coin == 0
    g.apply("spend coin counter")
    assert g.coins == 1 and g.counters(0).handyman_coin == 0


def test_second_phase_says_whether_the_player_is_buying_or_setting(game2):
    g = game2
    g.arrange(0, hand={"large_city": 2, "senator": 2}, princess="lulunasaika", domain={}, deck=CITIES)
    assert g.second_phase is None
    g.apply("play large_city")
    g.apply("play large_city")
    to_second_phase(g)
    assert g.second_phase == "open"
    setting = g.clone()
    g.apply("buy city")
    assert g.second_phase == "buying" and "set senator" not in [g.label(a) for a in g.legal_actions()]
    setting.apply("set senator")
    assert setting.second_phase == "setting" and [setting.label(a) for a in setting.legal_actions()] == \
        ["pass: stop setting", "set senator"]


def test_a_backed_princess_is_no_longer_available(game2):
    g = game2
    g.arrange(0, hand={"large_city": 2}, deck=CITIES)
    pool = g.princesses_available()
    assert pool == [g.cards.name(k) for k in g.ruleset.pool]
    g.apply("play large_city")
    g.apply("play large_city")
    to_second_phase(g)
    g.apply("back laolily")
    assert g.princess(0) == "laolily"
    assert g.princesses_available() == [p for p in pool if p != "laolily"]


def test_open_plays_and_cards_played_follow_links(rules2):
    g = fresh(rules2, {"post_horse": 1, "city": 2})
    assert (g.open_plays, g.cards_played) == (1, 0)
    g.apply("play post_horse")
    assert g.cards_played == 1 and g.open_plays == g.cards["post_horse"].links
    g.apply("play city")
    assert g.cards_played == 2 and g.open_plays == g.cards["post_horse"].links + g.cards["city"].links - 1


def test_a_seat_that_does_not_exist_is_one_line(game2):
    with pytest.raises(HocError, match="seat 2 does not exist: seats are 0 to 1"):
        game2.hand(2)
