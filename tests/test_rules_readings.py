"""Rule readings of `docs/rules.md` that no other test file checked: one test (or a few) per
reading, named by the rule. Positions are built with `Game.arrange`, as in `test_rules_2e.py`;
seats are 0-based.

Buried Treasure's supply tricks, the market refill, 1st-edition setup, Keep timing and princess
texts, coin counters, payments that are not purchases, and a few coronation and judgement corners.
"""
from __future__ import annotations

import pytest

from hoc.games.heart_of_crown.cards import CardDB
from hoc.errors import HocError
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.rules import Ruleset

from conftest import basic, fewest_coins, finish_turn, labels, pass_policy, play_all

CITIES = ["city"] * 12          # a harmless deck: no reshuffle during the turn under test
FESTIVAL = "festival"           # a preset 2E market with Buried Treasure in it


def end_main(g):
    if g.context == "main phase":
        g.apply("pass")
    assert g.context == "second phase", g.context


def to_cleanup(g):
    """Pass the Main and Second phases of the current turn."""
    turn = g.turns
    while g.turns == turn and g.context in ("main phase", "second phase"):
        g.apply("pass")


def price(g, card) -> int:
    return fewest_coins(g, K.A_BUY + g.ruleset.cards.index(card))


def kinds_showing(g) -> set[str]:
    """The random-market kinds (piles) with at least one card showing."""
    f = g.ruleset.cards.frame.set_index("id")
    return {f.pile[c] for c, n in g.market().items() if n and f.category[c] in ("common", "rare")}


def counters(g, p=0) -> tuple[int, int]:
    """(Handyman's coin counters, other coin counters) of seat p."""
    held = g.counters(p)
    return held.handyman_coin, held.coin


# =========================================================================================
# Card data: the values where sources conflict
# =========================================================================================

def test_conflicting_card_values_court_maid_3_crown_14_or_13_karikuma_6_or_8_orchard():
    two, one = CardDB("2e").frame.set_index("id"), CardDB("1e").frame.set_index("id")
    assert two.cost["court_maid"] == one.cost["court_maid"] == 3
    assert (two.cost["imperial_crown"], one.cost["imperial_crown"]) == (14, 13)
    assert (two.sp["karikuma"], one.sp["karikuma"]) == (6, 8)
    orchard = two.loc["orchard"]
    assert (orchard.types, orchard.cost, orchard.coins, orchard.links, orchard.sp) == ("territory", 2, 1, 1, 0)
    assert "named_farming_village" in orchard["flags"].split("|")
    assert "orchard" not in one.index


# =========================================================================================
# Supply and market
# =========================================================================================

def test_random_market_supply_is_ten_kinds_of_five_plus_both_rares_and_shows_eight_kinds():
    db = CardDB("2e")
    f = db.frame.set_index("id")
    for seed in range(5):
        g = Game(Ruleset(players=2), seed=seed)
        assert g.state[K.H_N_KINDS] == 10
        cards = g.supply_deck() + [c for c, n in g.market().items() for _ in range(n)
                             if f.category[c] in ("common", "rare")]
        assert len(cards) == 10 * 5 + 2
        piles = {f.pile[c] for c in cards if f.category[c] == "common"}
        assert len(piles) == 10
        assert all(sum(f.pile[c] == p for c in cards) == 5 for p in piles)
        assert cards.count("karikuma") == cards.count("imperial_crown") == 1
        assert len(kinds_showing(g)) == 8


def test_basic_market_has_no_supply_and_no_common_or_rare_card():
    g = Game(basic(2), seed=1)
    f = g.ruleset.cards.frame.set_index("id")
    assert g.supply_deck() == []
    assert not [c for c in g.market() if f.category[c] in ("common", "rare")]


def test_market_refills_only_at_cleanup_after_a_kind_runs_out():
    g = Game(Ruleset(players=2, market=FESTIVAL), seed=3)
    showing = sorted(kinds_showing(g))
    kind = next(k for k in showing if k in g.market() and k not in ("karikuma", "imperial_crown"))
    g.arrange(0, hand={"duke": 1}, deck=CITIES, coins=20, market={kind: 1})
    assert g.context == "second phase"
    g.apply(f"buy {kind}")
    assert len(kinds_showing(g)) == 7                    # no refill while the turn goes on
    g.apply("pass")
    assert g.turn_player == 1
    assert len(kinds_showing(g)) == 8                    # refilled at the end of the Cleanup


def test_a_market_naming_a_kind_of_the_other_edition_is_refused():
    first_edition_kinds = ["wishing_well", "post_horse", "trading_ship", "hunted_beast", "infantry_battalion",
                           "alchemist", "scout", "donation", "rampart"]
    with pytest.raises(HocError, match="handyman"):
        Ruleset(edition="1e", market=tuple(first_edition_kinds + ["handyman"]))
    second_edition_kinds = ["wishing_well", "post_horse", "trading_ship", "hunted_beast", "infantry_battalion",
                            "alchemist", "scout", "donation", "rampart"]
    with pytest.raises(HocError, match="shinobi"):
        Ruleset(edition="2e", market=tuple(second_edition_kinds + ["shinobi"]))


def test_a_market_with_a_kind_whose_text_is_not_written_is_refused(monkeypatch):
    """A common whose text has no routine yet: a market naming it is refused, and a random market never
    draws it (test_commons_1e). Every common has its routine now, so one is taken away here: Scout's."""
    scout = CardDB("1e").frame.set_index("id").effect["scout"]
    monkeypatch.setattr(K, "EFFECT_IDS", {e: i for e, i in K.EFFECT_IDS.items() if e != scout})
    db = CardDB("1e")
    assert db.unimplemented([db.index("scout")]) == ["scout"]
    others = [p for p in db.pile_ids("common") if p != "scout"][:9]
    with pytest.raises(HocError, match="market cards not implemented yet: scout"):
        Ruleset(edition="1e", market=tuple(others + ["scout"]))
    Ruleset(edition="1e", market=tuple(others + [p for p in db.pile_ids("common") if p not in others + ["scout"]][:1]))


# =========================================================================================
# Costs and payments
# =========================================================================================

def test_a_reduction_never_raises_a_cost_above_the_printed_one():
    """Charm Witch (floor 2) on Territories: a City costs 2, a Farming Village stays at 1."""
    g = Game(Ruleset(players=2, market=FESTIVAL), seed=7)
    g.arrange(1, hand={"imperial_estate": 1, "city": 4}, discard={})
    g.arrange(0, hand={"charm_witch": 1, "city": 1}, deck=CITIES, discard={})
    g.apply("play charm_witch")
    assert g.decider == 1 and labels(g) == ["choose imperial_estate"]   # Territory/Succession
    g.apply("choose imperial_estate")
    g.apply("play city")
    end_main(g)
    assert (price(g, "city"), price(g, "farming_village"), price(g, "senator")) == (2, 1, 4)


def test_lily_payment_is_not_a_purchase_klam_klam_does_not_reduce_it(game2):
    g = game2
    g.arrange(0, princess="klam_klam", domain={"lily": 1}, hand={"city": 1, "farming_village": 1}, deck=CITIES)
    g.apply("play city")
    assert g.coins == 2 and "use lily" not in labels(g)
    g.apply("play farming_village")
    g.apply("use lily")
    assert g.coins == 0 and g.player(0, K.P_SUCC_CTR) == 1


def test_coin_counters_are_spent_only_in_the_main_phase_and_last_across_turns(game2):
    g = game2
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    g.state[g._pb(0) + K.P_COIN_CTR] = 2
    assert "spend coin counter" in labels(g)
    g.apply("play city")
    g.apply("spend coin counter")
    assert g.coins == 3 and counters(g) == (0, 1)
    end_main(g)
    assert "spend coin counter" not in labels(g)
    g.apply("pass")
    finish_turn(g)
    assert g.turn_player == 0 and counters(g) == (0, 1)


def test_spending_a_coin_counter_uses_handyman_counters_first(game2):
    g = game2
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    g.state[g._pb(0) + K.P_COIN_CTR] = 1
    g.state[g._pb(0) + K.P_HANDY_CTR] = 1
    g.apply("spend coin counter")
    assert counters(g) == (0, 1)


# =========================================================================================
# Drawing, backing, keeping
# =========================================================================================

def test_draw_two_with_one_card_left_draws_one(game2):
    g = game2
    g.arrange(0, hand={"alchemist": 1, "city": 1}, deck=["duke"], discard={})
    g.apply("play alchemist")
    assert g.hand(0) == {"city": 1, "duke": 1} and g.deck(0) == []
    assert g.context == "main phase"                    # the card resolved; play goes on


def test_territory_succession_card_among_the_three_highest_moves_on_backing_and_counts_at_once(game2):
    g = game2
    g.arrange(0, hand={"karikuma": 1, "large_city": 2, "city": 1}, deck=CITIES, discard={})
    play_all(g, "karikuma", "large_city", "large_city", "city")
    end_main(g)
    g.apply("back lulunasaika")
    assert g.domain(0) == {"karikuma": 1, "large_city": 2}
    assert g.sp(0) == 6 + 6
    assert g.discard_pile(0).get("city") == 1 and "karikuma" not in g.discard_pile(0)


def test_a_territory_holding_a_kept_card_from_an_earlier_turn_is_occupied(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"city": 1}, kept={"post_horse": 1}, hand={"post_horse": 1},
              deck=CITIES, discard={})
    to_cleanup(g)
    assert g.turn_player == 1                           # no Keep decision: the City is occupied
    assert g.kept(0) == {"post_horse": 1} and g.discard_pile(0) == {"post_horse": 1}


@pytest.mark.parametrize("ruleset", [dict(edition="1e"), dict(edition="2e", keep_timing="main")],
                         ids=["first_edition", "option_keep_timing_main"])
def test_keep_and_recall_at_any_time_of_the_main_phase_in_the_first_edition(ruleset):
    g = Game(Ruleset(players=2, market="basic", **ruleset), seed=7)
    g.arrange(0, princess="lulunasaika", domain={"city": 1}, hand={"post_horse": 1, "farming_village": 1},
              deck=CITIES, discard={})
    assert g.context == "main phase" and "keep post_horse" in labels(g)
    g.apply("keep post_horse")
    assert g.kept(0) == {"post_horse": 1} and g.hand(0) == {"farming_village": 1}
    g.apply("recall post_horse")
    g.apply("keep post_horse")                          # kept again in the same Main phase
    assert g.kept(0) == {"post_horse": 1}
    g.apply("recall post_horse")
    to_cleanup(g)
    assert g.turn_player == 1                           # no Keep decision at Cleanup
    assert g.kept(0) == {} and g.discard_pile(0) == {"post_horse": 1, "farming_village": 1}


# =========================================================================================
# Succession points, coronation, judgement
# =========================================================================================

def test_two_honokas_are_each_others_other_maid(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"honoka": 2})
    assert g.sp(0) == 6 + 2 + 2


def test_a_cancelled_declarer_may_declare_again_and_a_new_round_begins(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})                    # 24
    finish_turn(g, declare=True)
    g.arrange(0, domain={"duke": 2})                                            # 18: cancelled
    g.arrange(0, domain={"duke": 3})                                            # 24 again, not declared
    assert g.player(0, K.P_DECLARED) == 0
    finish_turn(g)                                                              # seat 1
    assert not g.over and g.turn_player == 0
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    finish_turn(g, declare=True)                                                # declared anew
    assert g.player(0, K.P_DECLARED) == 1 and not g.over and g.turn_player == 1
    finish_turn(g)
    assert g.over and (g.end_reason, g.winner) == ("coronation", 0)


def _overtime_3p():
    """Seats 0 and 1 declare at 24 SP, seat 2 does not: overtime begins at seat 0's next turn."""
    g = Game(basic(3), seed=7)
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})
    finish_turn(g, declare=True)
    g.arrange(1, princess="bergamot", domain={"duke": 4})
    finish_turn(g, declare=True)
    g.arrange(2, princess="klam_klam", domain={})
    finish_turn(g)
    assert g.turn_player == 0 and g.state[K.H_OVERTIME] == 1 and g.player(2, K.P_OUT) == 1
    return g


def test_no_coronation_is_declared_during_overtime():
    g = _overtime_3p()
    assert g.sp(0) >= 20
    while g.turn_player == 0 and not g.over:
        assert g.context != "coronation"
        g.apply(pass_policy(g))
    assert g.turn_player == 1 and not g.over


def test_judgement_in_overtime_ranks_only_the_declarers_and_an_eliminated_player_at_30_does_not_win():
    g = _overtime_3p()
    g.arrange(2, domain={"duke": 5})                                            # 30 SP, but out
    assert g.sp(2) == 30 and not g.over
    g.arrange(0, hand={"city": 1, "farming_village": 1}, deck=CITIES,
              market={"duke": 0, "senator": 0, "court_maid": 1})
    play_all(g, "city", "farming_village")
    end_main(g)
    g.apply("buy court_maid")
    assert g.over and g.end_reason == "judgement"
    assert g.winner == 1                                # 24 = 24: the later live seat; seat 2 not ranked


# =========================================================================================
# 1st edition
# =========================================================================================

FIRST = dict(edition="1e", market="basic")


def test_first_edition_setup_seven_villages_three_apprentice_maids_no_village_in_the_market():
    g = Game(Ruleset(players=4, **FIRST), seed=3)
    for seat in range(4):
        cards = dict(g.hand(seat))
        for c in g.deck(seat):
            cards[c] = cards.get(c, 0) + 1
        assert cards == {"farming_village": 7, "apprentice_maid": 3}
    m = g.market()
    assert "farming_village" not in m and m["curse"] == 16
    assert {k: m[k] for k in ("city", "large_city", "court_maid", "senator", "duke")} == \
        {"city": 30, "large_city": 20, "court_maid": 12, "senator": 12, "duke": 12}


def test_first_edition_defaults_duke_only_judgement_with_shared_ties():
    g = Game(Ruleset(players=2, **FIRST), seed=7)
    g.arrange(1, princess="bergamot", domain={"duke": 1})                        # 6
    g.arrange(0, princess="lulunasaika", domain={}, hand={"large_city": 2, "city": 1}, deck=CITIES,
              market={"duke": 1, "senator": 5, "court_maid": 5})                 # 6
    play_all(g, "large_city", "large_city", "city")
    end_main(g)
    g.apply("buy duke")
    assert g.over and g.end_reason == "judgement"
    assert g.winner is None and g.state[K.H_WIN_MASK] == 0b11


def test_first_edition_karikuma_has_no_cleanup_text_and_is_set_from_hand_for_8_sp():
    g = Game(Ruleset(players=2, **FIRST), seed=7)
    g.arrange(0, princess="lulunasaika", domain={}, hand={"karikuma": 1}, deck=CITIES, discard={})
    g.apply("play karikuma")
    assert g.coins == 3
    to_cleanup(g)
    assert g.domain(0) == {} and g.discard_pile(0) == {"karikuma": 1}
    finish_turn(g)
    g.arrange(0, hand={"karikuma": 1}, deck=CITIES)
    end_main(g)
    g.apply("set karikuma")
    assert g.sp(0) == 6 + 8


def test_first_edition_bergamot_discards_a_non_curse_card():
    g = Game(Ruleset(players=2, **FIRST), seed=7)
    g.arrange(0, princess="bergamot", hand={"curse": 1, "farming_village": 1}, deck=CITIES,
              discard={"post_horse": 1})
    g.apply("use princess ability")
    assert labels(g) == ["choose farming_village"]
    g.apply("choose farming_village")
    g.apply("choose post_horse")
    assert g.hand(0) == {"curse": 1, "post_horse": 1}
    h = Game(Ruleset(players=2, **FIRST), seed=7)
    h.state[h._pb(0) + K.P_COIN_CTR] = 1                # a coin counter keeps the Main phase open
    h.arrange(0, princess="bergamot", hand={"curse": 2}, deck=CITIES, discard={"post_horse": 1})
    assert h.context == "main phase" and "spend coin counter" in labels(h)
    assert not h.is_legal(K.A_ABILITY)                  # only Curses to discard


def test_first_edition_flammaria_gains_to_the_discard_pile_and_leaves_farming_villages_out():
    g = Game(Ruleset(players=2, **FIRST), seed=7)
    g.arrange(0, hand={"large_city": 1, "city": 1, "farming_village": 2}, deck=CITIES, discard={})
    play_all(g, "large_city", "city", "farming_village", "farming_village")
    end_main(g)
    g.apply("back flammaria")
    assert g.domain(0) == {"large_city": 1, "city": 1}  # fewer than 3 move: the Villages stay out
    assert g.context == "card choice" and "choose senator" in labels(g) and "choose duke" not in labels(g)
    g.apply("choose senator")
    g.apply("choose city")
    assert g.turn_player == 1                           # gained, not put on the deck
    assert g.discard_pile(0) == {"senator": 1, "city": 1, "farming_village": 2}


@pytest.mark.parametrize("others_backed,expected", [(0, 1), (1, 2)])
def test_first_edition_twins_counters_are_princesses_backed_by_others_plus_one(others_backed, expected):
    g = Game(Ruleset(players=2, **FIRST), seed=7)
    if others_backed:
        g.arrange(1, princess="lulunasaika")
    g.arrange(0, hand={"large_city": 2}, deck=CITIES, discard={})
    play_all(g, "large_city", "large_city")
    end_main(g)
    g.apply("back twins")
    assert g.player(0, K.P_TWIN_CTR) == expected


def _first_edition_twins(players: int) -> Game:
    """A 1E game at seat 0's second regular turn: every other seat has a princess, seat 0 backed the
    Twins on its first turn (as many counters as the players) and holds a harmless hand."""
    g = Game(Ruleset(players=players, **FIRST), seed=7)
    for q, princess in zip(range(1, players), ("lulunasaika", "laolily", "klam_klam")):
        g.arrange(q, princess=princess)
    g.arrange(0, hand={"large_city": 2}, deck=CITIES, discard={})
    play_all(g, "large_city", "large_city")
    end_main(g)
    g.apply("back twins")
    assert g.counters(0).twins == players
    for _ in range(players - 1):
        assert g.turn_player != 0
        finish_turn(g)
    assert g.turn_player == 0 and not g.extra_turn and g.context == "main phase"
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    return g


def test_first_edition_twins_several_counters_in_one_main_phase_give_as_many_extra_turns_in_a_row():
    """RULINGS 23a: in a regular turn's Main phase the 1E backer may spend several counters; each
    gives one extra turn, taken one after another once this turn ends."""
    g = _first_edition_twins(4)
    for spent in range(1, 4):
        assert "use princess ability" in labels(g)
        g.apply("use princess ability")
        assert (g.counters(0).twins, g.extra_turns_pending) == (4 - spent, spent)
    assert g.context == "main phase"                    # still the Main phase: the turn goes on
    turns = g.turns
    for taken in range(1, 4):
        finish_turn(g)
        assert g.turn_player == 0 and g.extra_turn and g.turns == turns + taken
        assert g.extra_turns_pending == 3 - taken
    finish_turn(g)
    assert g.turn_player == 1 and not g.extra_turn and g.turns == turns + 4
    assert g.counters(0).twins == 1


def test_first_edition_twins_no_counter_is_spent_during_an_extra_turn():
    """RULINGS 23a: the 1E text forbids only a use during an extra turn, even with counters left and
    another extra turn still to come."""
    g = _first_edition_twins(3)
    g.apply("use princess ability")
    g.apply("use princess ability")
    finish_turn(g)
    assert g.extra_turn and g.counters(0).twins == 1 and g.extra_turns_pending == 1
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    assert g.context == "main phase"
    assert "use princess ability" not in labels(g) and not g.is_legal(K.A_ABILITY)
    finish_turn(g)
    assert g.extra_turn and g.extra_turns_pending == 0
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    assert not g.is_legal(K.A_ABILITY)
    finish_turn(g)
    assert g.turn_player == 1
    finish_turn(g)
    finish_turn(g)
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    assert g.turn_player == 0 and not g.extra_turn
    assert g.is_legal(K.A_ABILITY)                      # the last counter, in the next regular turn


def test_first_edition_twins_extra_turns_right_after_declaring_do_not_win():
    """The declarer's own extra turns never complete the round (R34), however many follow each
    other: the coronation waits for the other player's turn and the declarer's next regular turn."""
    g = _first_edition_twins(2)
    g.arrange(0, domain={"duke": 4}, hand={"city": 1}, deck=CITIES)
    assert g.sp(0) >= 20
    g.apply("use princess ability")
    g.apply("use princess ability")
    finish_turn(g, declare=True)
    assert g.declared(0) and not g.over
    for pending in (1, 0):
        assert g.turn_player == 0 and g.extra_turn and g.extra_turns_pending == pending
        finish_turn(g)
        assert not g.over
    assert g.turn_player == 1
    finish_turn(g)
    assert g.over and (g.end_reason, g.winner) == ("coronation", 0)


def test_first_edition_twins_extra_turns_in_overtime_and_30_sp_in_one_wins_at_once():
    """In overtime (R35) the 1E backer still takes her extra turns in a row, and reaching 30 SP in one
    of them wins at once, mid-turn; the extra turns left are never played."""
    g = _first_edition_twins(2)
    g.arrange(0, domain={"duke": 4}, hand={"city": 1}, deck=CITIES)
    finish_turn(g, declare=True)
    g.arrange(1, domain={"duke": 3}, hand={"city": 1}, deck=CITIES)             # Lulunasaika: 24
    assert (g.sp(0), g.sp(1)) == (24, 24)
    finish_turn(g, declare=True)
    assert g.overtime and g.turn_player == 0 and not g.over
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    g.apply("use princess ability")
    g.apply("use princess ability")
    finish_turn(g)
    assert g.turn_player == 0 and g.extra_turn and g.extra_turns_pending == 1
    g.arrange(0, hand={"duke": 2, "senator": 1}, deck=CITIES)
    end_main(g)
    g.apply("set duke")
    assert g.over and (g.end_reason, g.winner) == ("overtime", 0)
    assert g.extra_turns_pending == 1


# =========================================================================================
# Princesses (2nd edition)
# =========================================================================================

def test_bergamot_may_take_back_the_action_just_discarded(game2):
    """The discard is the ability's cost, paid first: the Action just discarded lies in the
    discard pile when the effect looks for one."""
    g = game2
    g.arrange(0, princess="bergamot", hand={"post_horse": 1}, deck=CITIES, discard={})
    g.apply("use princess ability")
    assert labels(g) == ["choose post_horse"]
    g.apply("choose post_horse")
    assert labels(g) == ["choose post_horse"]
    g.apply("choose post_horse")
    assert g.hand(0) == {"post_horse": 1} and g.discard_pile(0) == {}
