"""One test per worked example and FAQ ruling of the 2E rulebook (seed 000) that the engine's cards
touch, plus the team's RULINGS where they settle a reading. Positions are built with `Game.arrange`
on basic-market games (no supply).

Seat numbers in names and messages are 1-based as in the rulebook; the API's seats are 0-based.
"""
from __future__ import annotations

import re

import pytest

from hoc.errors import HocError, IllegalActionError
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.rules import Ruleset

from conftest import basic, finish_turn, labels, pass_policy, play_all, play_to_end

CITIES = ["city"] * 12          # a harmless deck: no reshuffle during the turn under test


def end_main(g):
    """End the Main phase (it ends by itself when no play is possible)."""
    if g.context == "main phase":
        g.apply("pass")
    assert g.context == "second phase", g.context


def begin(ruleset, seed=7):
    g = Game(ruleset, seed=seed)
    assert g.turn_player == 0 and g.context == "main phase"
    return g


# =========================================================================================
# Main phase: links (rulebook example: FV, FV, Infantry Battalion, Apprentice Maid)
# =========================================================================================

def test_links_rulebook_example_fv_fv_infantry_battalion_ends_main_phase(basic_1p):
    """FV (1 link) -> FV (1 link) -> Infantry Battalion (0 links): no further play; the Apprentice
    Maid and the second Battalion stay in hand. (Solo, so the Battalion's attack has no target.)"""
    g = begin(basic_1p)
    g.arrange(0, hand={"farming_village": 2, "infantry_battalion": 2, "apprentice_maid": 1}, deck=CITIES)
    assert g.open_plays == 1
    g.apply("play farming_village")
    assert (g.open_plays, g.coins) == (1, 1)
    g.apply("play farming_village")
    assert (g.open_plays, g.coins) == (1, 2)
    g.apply("play infantry_battalion")
    assert g.open_plays == 1 + 2 - 3 == 0
    # no open play left: the Main phase is over by itself
    assert g.context == "second phase"
    assert g.hand(0) == {"infantry_battalion": 1, "apprentice_maid": 1}
    assert g.play_area() == {"farming_village": 2, "infantry_battalion": 1}


def test_links_open_plays_equal_one_plus_links_minus_played_with_territories(game2):
    g = game2
    g.arrange(0, hand={"large_city": 1, "city": 1, "farming_village": 1, "orchard": 1, "post_horse": 1},
              deck=CITIES)
    links = 0
    for card, card_links in (("farming_village", 1), ("orchard", 1), ("post_horse", 2), ("city", 1),
                             ("large_city", 1)):
        assert g.open_plays > 0
        g.apply(f"play {card}")
        links += card_links
        assert g.open_plays == 1 + links - g.cards_played
    assert g.cards_played == 5
    assert g.open_plays == 1 + 6 - 5 == 2


@pytest.mark.parametrize("card", ["apprentice_maid", "curse", "court_maid", "senator", "duke"])
def test_succession_and_calamity_cards_cannot_be_played(game2, card):
    g = game2
    g.arrange(0, hand={"farming_village": 1, card: 1}, deck=CITIES)
    assert "play farming_village" in labels(g)
    assert f"play {card}" not in labels(g)
    assert not g.is_legal(K.A_PLAY + g.ruleset.cards.index(card))
    with pytest.raises(IllegalActionError):
        g.apply(f"play {card}")


def test_territory_succession_karikuma_can_be_played(game2):
    g = game2
    g.arrange(0, hand={"karikuma": 1}, deck=CITIES)
    g.apply("play karikuma")
    assert g.coins == 3


# =========================================================================================
# Second phase: backing
# =========================================================================================

def test_backing_example_large_city_city_two_fv_moves_three_highest_cost(game2):
    """Rulebook example: Large City + City + 2 FV (+ a Post Horse) played, 7 coins; backing Klam Klam
    moves Large City, City and one FV to the domain; the 4th Territory (FV) and the Action are
    discarded; no buying after backing."""
    g = game2
    g.arrange(0, hand={"large_city": 1, "city": 1, "farming_village": 2, "post_horse": 1}, deck=CITIES,
              discard={})
    play_all(g, "large_city", "city", "farming_village", "farming_village", "post_horse")
    assert g.coins == 7
    if g.context == "main phase":       # Post Horse drew a City (once its effect exists)
        g.apply("pass")
    assert g.context == "second phase"
    assert "back klam_klam" in labels(g)
    g.apply("back klam_klam")
    assert g.princess(0) == "klam_klam"
    assert g.domain(0) == {"large_city": 1, "city": 1, "farming_village": 1}
    assert g.sp(0) == -2
    discard = g.discard_pile(0)
    assert discard.get("farming_village") == 1 and discard.get("post_horse") == 1
    assert "large_city" not in discard
    # backing ended the Second phase: the turn is over, nothing was bought
    assert g.turn_player == 1
    assert sum(g.market()[k] for k in ("city", "farming_village", "court_maid")) == 30 + 16 + 12


def test_backing_leftover_coins_are_lost_and_no_buy_after_backing(game2):
    g = game2
    g.arrange(0, hand={"large_city": 3}, deck=CITIES, discard={})
    play_all(g, "large_city", "large_city", "large_city")
    assert g.coins == 9
    end_main(g)
    g.apply("back laolily")
    # Laolily asks how many Court Maids: we are inside the backing, the 3 spare coins are gone
    assert g.context == "card choice"
    assert g.coins == 0
    assert all(lab.startswith("number") for lab in labels(g))
    g.apply("number 0")
    assert g.turn_player == 1            # no Second-phase decision came back to seat 1
    assert g.discard_pile(0) == {}       # nothing bought or gained


def test_backing_is_mandatory_for_the_three_highest_cost_territories_faq(game2):
    """FAQ: played Farming Villages among the 3 highest-cost Territories must move (even at -2 SP)."""
    g = game2
    g.arrange(0, hand={"large_city": 1, "city": 1, "farming_village": 3}, deck=CITIES, discard={})
    play_all(g, "large_city", "city", "farming_village", "farming_village", "farming_village")
    end_main(g)
    g.apply("back lulunasaika")
    # no decision was offered: the move is automatic and the turn is over
    assert g.turn_player == 1
    assert g.domain(0) == {"large_city": 1, "city": 1, "farming_village": 1}
    assert g.sp(0) == 6 - 2
    assert g.discard_pile(0) == {"farming_village": 2}


def test_backing_with_fewer_than_three_territories_moves_all_of_them(game2):
    g = game2
    g.arrange(0, hand={"large_city": 2}, deck=CITIES, discard={})
    play_all(g, "large_city", "large_city")
    end_main(g)
    g.apply("back lulunasaika")
    assert g.domain(0) == {"large_city": 2}


def test_backing_without_territories_still_gives_a_domain(game2):
    g = game2
    g.arrange(0, hand={"duke": 1}, deck=CITIES, coins=6)
    assert g.context == "second phase"
    g.apply("back lulunasaika")
    assert g.princess(0) == "lulunasaika" and g.domain(0) == {} and g.sp(0) == 6


def test_backing_equal_cost_territories_the_player_chooses():
    """RULINGS 10/23: on equal cost the player chooses which Territories move (City made cost 6)."""
    g = begin(Ruleset(players=2, market="basic", overrides=("city.cost=6",)))
    g.arrange(0, hand={"large_city": 2, "city": 2}, deck=CITIES, discard={})
    play_all(g, "large_city", "large_city", "city", "city")
    end_main(g)
    g.apply("back lulunasaika")
    assert g.context == "card choice" and g.decider == 0
    assert sorted(labels(g)) == ["choose city", "choose large_city"]
    g.apply("choose city")
    assert g.context == "card choice"
    g.apply("choose city")
    # two Cities chosen; one Large City still to move: there is no choice left
    assert g.turn_player == 1
    assert g.domain(0) == {"city": 2, "large_city": 1}


def test_princesses_are_unique_and_backing_needs_no_princess(game2):
    g = game2
    g.arrange(1, princess="laolily")
    g.arrange(0, hand={"large_city": 2}, deck=CITIES)
    play_all(g, "large_city", "large_city")
    end_main(g)
    # the market still shows Laolily (arrange does not take her), but a seat with a princess
    # cannot back another one
    g.arrange(0, princess="lulunasaika")
    assert not any(lab.startswith("back") for lab in labels(g))


def test_backed_princess_leaves_the_princess_area(game2):
    g = game2
    g.arrange(0, hand={"large_city": 2}, deck=CITIES)
    play_all(g, "large_city", "large_city")
    end_main(g)
    g.apply("back lulunasaika")
    assert "lulunasaika" not in g.market()
    g.arrange(1, hand={"large_city": 2}, deck=CITIES)
    play_all(g, "large_city", "large_city")
    end_main(g)
    assert "back lulunasaika" not in labels(g)
    assert "back laolily" in labels(g)


# =========================================================================================
# Second phase: exactly one of buy / back / set
# =========================================================================================

def test_second_phase_after_buying_cannot_set_or_back(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", hand={"large_city": 3, "duke": 1}, deck=CITIES)
    play_all(g, "large_city", "large_city", "large_city")
    end_main(g)
    assert {"buy city", "set duke"} <= set(labels(g))
    g.apply("buy city")
    assert g.coins == 6
    assert "set duke" not in labels(g)
    assert "buy city" in labels(g)           # any number of buys
    g.apply("buy city")
    assert g.coins == 3


def test_second_phase_after_buying_cannot_back(game2):
    g = game2
    g.arrange(0, hand={"large_city": 3}, deck=CITIES)
    play_all(g, "large_city", "large_city", "large_city")
    end_main(g)
    assert "back lulunasaika" in labels(g)
    g.apply("buy city")
    assert g.coins == 6
    assert not any(lab.startswith("back") for lab in labels(g))


def test_second_phase_after_setting_cannot_buy(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", hand={"city": 2, "duke": 1, "senator": 1}, deck=CITIES)
    play_all(g, "city", "city")
    end_main(g)
    g.apply("set duke")
    assert g.context == "second phase"
    assert set(labels(g)) == {"pass", "set senator"}


def test_setting_needs_a_princess(game2):
    g = game2
    g.arrange(0, hand={"city": 1, "duke": 1}, deck=CITIES)
    g.apply("play city")
    end_main(g)
    assert "set duke" not in labels(g)


def test_setting_example_duke_set_apprentice_maid_not_required(game2):
    """Rulebook example: with a Duke and an Apprentice Maid in hand, set the Duke (+6) and leave the
    Apprentice Maid (-2) in hand: setting any number, including not every Succession card."""
    g = game2
    g.arrange(0, princess="lulunasaika", domain={}, hand={"duke": 1, "apprentice_maid": 1}, deck=CITIES,
              discard={})
    assert g.context == "second phase"
    assert {"set duke", "set apprentice_maid"} <= set(labels(g))
    g.apply("set duke")
    assert g.sp(0) == 12
    assert "pass" in labels(g)
    g.apply("pass")
    assert g.domain(0) == {"duke": 1}
    assert g.discard_pile(0) == {"apprentice_maid": 1}
    assert g.sp(0) == 12


# =========================================================================================
# Succession points, coronation, overtime
# =========================================================================================

def test_sp_example_lulunasaika_fv_duke_senator_is_13(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"farming_village": 1, "duke": 1, "senator": 1})
    assert g.sp(0) == 6 - 2 + 6 + 3 == 13
    finish_turn(g)
    assert g.turn_player == 1          # 13 < 20: no coronation offered


def test_player_without_princess_has_zero_sp(game2):
    g = game2
    g.arrange(0, princess=None, domain={"duke": 2})
    assert g.sp(0) == 0


def test_coronation_offered_only_at_end_of_turn_with_20_sp(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 2},
              hand={"senator": 1, "city": 1, "apprentice_maid": 1}, deck=CITIES)
    assert g.sp(0) == 18
    g.apply("play city")
    end_main(g)
    g.apply("set senator")
    assert g.sp(0) == 21
    # still the Second phase: no declaration before the end of the turn
    assert g.context == "second phase"
    assert "declare coronation" not in labels(g)
    g.apply("pass")
    assert g.context == "coronation" and g.decider == 0
    assert g.hand(0) == {"city": 5}                 # after Cleanup: the new hand is drawn
    assert set(labels(g)) == {"pass", "declare coronation"}


def test_coronation_declarer_wins_at_start_of_next_turn_after_everyone_played(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})
    finish_turn(g, declare=True)
    assert g.declared(0)
    assert not g.over and g.turn_player == 1       # seat 2 still plays its turn
    finish_turn(g)
    assert g.over
    assert (g.end_reason, g.winner) == ("coronation", 0)
    assert g.turns == 2                             # seat 1's winning turn never starts


def test_coronation_not_declared_does_not_win(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})
    finish_turn(g, declare=False)
    finish_turn(g)
    assert not g.over and g.turn_player == 0 and g.turns == 3


def test_coronation_cancelled_when_declarer_falls_below_20(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})
    finish_turn(g, declare=True)
    g.arrange(0, domain={"duke": 2})               # e.g. an attack took a Duke: 18 SP
    assert not g.declared(0)
    finish_turn(g)
    assert not g.over and g.turn_player == 0


def test_coronation_two_declarers_in_the_round_start_overtime(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})
    finish_turn(g, declare=True)
    g.arrange(1, princess="bergamot", domain={"duke": 4})
    finish_turn(g, declare=True)
    assert not g.over
    assert g.overtime
    assert g.turn_player == 0


def test_coronation_four_players_example_a24_b20_overtime_c_d_skipped(basic_4p):
    """Rulebook example: A 24 declares, B 20 declares, C 18 and D 16 cannot; at A's next turn,
    overtime between A and B; C and D are out and skipped."""
    g = begin(basic_4p)
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})                    # 24
    finish_turn(g, declare=True)
    g.arrange(1, princess="bergamot", domain={"duke": 3, "court_maid": 1})      # 20
    assert g.sp(1) == 20
    finish_turn(g, declare=True)
    g.arrange(2, princess="klam_klam", domain={"duke": 3})                      # 18
    assert g.sp(2) == 18
    finish_turn(g)
    assert not g.declared(2)
    g.arrange(3, princess="twins", domain={"duke": 2, "court_maid": 2})         # 16
    assert g.sp(3) == 16
    finish_turn(g)
    assert not g.over
    assert g.turn_player == 0 and g.overtime
    assert [g.knocked_out(p) for p in range(4)] == [False, False, True, True]
    order = []
    for _ in range(4):
        order.append(g.turn_player)
        finish_turn(g)
    assert order == [0, 1, 0, 1]
    assert not g.over


def test_overtime_first_to_30_sp_wins_immediately_mid_turn(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})                    # 24
    finish_turn(g, declare=True)
    g.arrange(1, princess="bergamot", domain={"duke": 4})                       # 24
    finish_turn(g, declare=True)
    assert g.overtime and g.turn_player == 0
    finish_turn(g)
    # seat 2 sets a Duke (30 SP): wins at once, before the end of its turn
    g.arrange(1, hand={"duke": 1, "senator": 1}, deck=CITIES)
    end_main(g)                                     # (Bergamot's ability made the Main phase wait)
    assert g.decider == 1
    turns = g.turns
    g.apply("set duke")
    assert g.over
    assert (g.end_reason, g.winner) == ("overtime", 1)
    assert g.turns == turns
    assert g.hand(1) == {"senator": 1}             # the rest of the turn never happened


def test_overtime_declarer_already_at_30_when_overtime_begins_wins_at_once(game2):
    """RULINGS 19 (reference reading 3): a declarer who passed 30 SP before overtime began has
    reached it first; the game ends when overtime begins."""
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})                    # 24
    finish_turn(g, declare=True)
    g.arrange(1, princess="bergamot", domain={"duke": 5})                       # 30
    finish_turn(g, declare=True)
    assert g.over
    assert (g.end_reason, g.winner, g.turns) == ("overtime", 1, 2)


def test_overtime_the_first_to_have_reached_30_wins(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 5})                    # 36 (no instant win)
    assert not g.over
    finish_turn(g, declare=True)
    g.arrange(1, princess="bergamot", domain={"duke": 6})                       # 36, reached later
    finish_turn(g, declare=True)
    assert g.over and (g.end_reason, g.winner) == ("overtime", 0)


def test_coronation_other_player_at_30_without_declaring_does_not_stop_it(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})                    # 24
    finish_turn(g, declare=True)
    g.arrange(1, princess="bergamot", domain={"duke": 6})                       # 36
    finish_turn(g, declare=False)
    assert g.over and (g.end_reason, g.winner) == ("coronation", 0)


def test_overtime_below_20_is_not_eliminated(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})
    finish_turn(g, declare=True)
    g.arrange(1, princess="bergamot", domain={"duke": 4})
    finish_turn(g, declare=True)
    g.arrange(0, domain={"duke": 1})                                            # 12 SP
    finish_turn(g)
    assert g.turn_player == 1 and not g.over
    finish_turn(g)
    assert g.turn_player == 0 and not g.knocked_out(0)


def test_instant_win_at_30_off_by_default(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"duke": 3}, hand={"duke": 1}, deck=CITIES)
    g.apply("set duke")
    assert g.sp(0) == 30 and not g.over


def test_instant_win_at_30_option_wins_at_once_outside_overtime():
    g = begin(basic(2, instant_win_at_30=True))
    g.arrange(0, princess="lulunasaika", domain={"duke": 3}, hand={"duke": 1}, deck=CITIES)
    g.apply("set duke")
    assert g.over and g.winner == 0
    assert g.end_reason == "instant_30"


# =========================================================================================
# Judgement: Duke, Senator and Court Maid piles all empty
# =========================================================================================

def _judgement_position(g, market):
    g.arrange(0, princess="lulunasaika", hand={"city": 1, "farming_village": 1}, deck=CITIES,
              market=market)
    play_all(g, "city", "farming_village")
    end_main(g)
    assert g.coins == 3


def test_judgement_when_duke_senator_court_maid_piles_all_empty_most_sp_wins(game2):
    g = game2
    g.arrange(1, princess="bergamot", domain={"senator": 1})                       # 3 SP
    _judgement_position(g, {"duke": 0, "senator": 0, "court_maid": 1})
    g.apply("buy court_maid")
    assert g.over
    assert (g.end_reason, g.winner) == ("judgement", 0)                            # 6 > 3


def test_judgement_tie_goes_to_later_seat(game2):
    g = game2
    g.arrange(1, princess="bergamot", domain={"duke": 1})                          # 6 SP
    _judgement_position(g, {"duke": 0, "senator": 0, "court_maid": 1})
    assert g.sp(0) == g.sp(1) == 6
    g.apply("buy court_maid")
    assert (g.end_reason, g.winner) == ("judgement", 1)


def test_judgement_player_without_princess_counts_zero(game2):
    g = game2
    g.arrange(0, princess="laolily", domain={"farming_village": 1})                # -2 SP
    g.arrange(1, princess=None)
    g.arrange(0, hand={"city": 1, "farming_village": 1}, deck=CITIES,
              market={"duke": 0, "senator": 0, "court_maid": 1})
    play_all(g, "city", "farming_village")
    end_main(g)
    g.apply("buy court_maid")
    assert (g.end_reason, g.winner) == ("judgement", 1)


def test_judgement_not_triggered_while_one_of_the_three_piles_remains(game2):
    g = game2
    _judgement_position(g, {"duke": 0, "senator": 1, "court_maid": 3})
    g.apply("buy court_maid")
    assert not g.over


def test_judgement_also_by_buying_the_last_senator(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", hand={"city": 2, "farming_village": 1}, deck=CITIES,
              market={"duke": 0, "senator": 1, "court_maid": 0})
    play_all(g, "city", "city", "farming_village")
    end_main(g)
    g.apply("buy senator")
    assert g.over and g.end_reason == "judgement"


def test_judgement_option_duke_only_ends_on_the_last_duke():
    g = begin(basic(2, judgement="duke_only"))
    g.arrange(0, princess="lulunasaika", hand={"large_city": 2, "city": 1}, deck=CITIES,
              market={"duke": 1, "senator": 5, "court_maid": 5})
    play_all(g, "large_city", "large_city", "city")
    end_main(g)
    g.apply("buy duke")
    assert g.over and (g.end_reason, g.winner) == ("judgement", 0)


def test_judgement_option_shared_tie_has_no_single_winner():
    g = begin(basic(2, tie="shared"))
    g.arrange(1, princess="bergamot", domain={"duke": 1})
    _judgement_position(g, {"duke": 0, "senator": 0, "court_maid": 1})
    g.apply("buy court_maid")
    assert g.over and g.end_reason == "judgement"
    assert g.winner is None
    assert g.winners == [0, 1]


# =========================================================================================
# Princesses
# =========================================================================================

def _back(g, princess, seat=0, extra_hand=None):
    hand = {"large_city": 2}
    hand.update(extra_hand or {})
    g.arrange(seat, hand=hand)
    play_all(g, "large_city", "large_city")
    end_main(g)
    g.apply(f"back {princess}")


def test_laolily_offers_up_to_five_court_maids(game2):
    g = game2
    g.arrange(0, deck=CITIES, discard={})
    _back(g, "laolily")
    assert labels(g) == [f"number {n}" for n in range(6)]
    g.apply("number 5")
    assert g.discard_pile(0) == {"court_maid": 5}
    assert g.market()["court_maid"] == 7


def test_laolily_fewer_than_five_left_gains_all_remaining_faq(game2):
    g = game2
    g.arrange(0, deck=CITIES, discard={}, market={"court_maid": 3})
    _back(g, "laolily")
    assert labels(g) == ["number 0", "number 1", "number 2", "number 3"]
    g.apply("number 3")
    assert g.discard_pile(0) == {"court_maid": 3}
    assert g.market().get("court_maid", 0) == 0


def test_laolily_may_choose_fewer_court_maids_faq(game2):
    g = game2
    g.arrange(0, deck=CITIES, discard={}, market={"court_maid": 3})
    _back(g, "laolily")
    g.apply("number 1")
    assert g.discard_pile(0) == {"court_maid": 1}
    assert g.market()["court_maid"] == 2


def test_laolily_with_no_court_maid_left_asks_nothing(game2):
    g = game2
    g.arrange(0, deck=CITIES, discard={}, market={"court_maid": 0})
    _back(g, "laolily")
    assert g.turn_player == 1 and g.princess(0) == "laolily"


def test_laolily_taking_the_last_court_maids_triggers_judgement(game2):
    g = game2
    g.arrange(1, princess="lulunasaika", domain={})                                # 6 SP
    g.arrange(0, deck=CITIES, discard={}, market={"duke": 0, "senator": 0, "court_maid": 2})
    _back(g, "laolily")
    g.apply("number 2")
    assert g.over
    assert (g.end_reason, g.winner) == ("judgement", 1)                             # 0 < 6


def test_laolily_leaving_a_court_maid_does_not_trigger_judgement(game2):
    g = game2
    g.arrange(0, deck=CITIES, discard={}, market={"duke": 0, "senator": 0, "court_maid": 2})
    _back(g, "laolily")
    g.apply("number 1")
    assert not g.over


def test_klam_klam_buys_three_cities_with_six_coins_faq(game2):
    g = game2
    g.arrange(0, princess="klam_klam", hand={"city": 3}, deck=CITIES, discard={})
    play_all(g, "city", "city", "city")
    end_main(g)
    assert g.coins == 6
    for left in (4, 2, 0):
        g.apply("buy city")
        if left:
            assert g.coins == left
    assert g.discard_pile(0) == {"city": 6}         # 3 bought + the 3 played
    assert g.turn_player == 1


@pytest.mark.parametrize("card,cost,paid", [("farming_village", 1, 1), ("city", 3, 2), ("court_maid", 3, 2),
                                            ("senator", 5, 4), ("large_city", 6, 5), ("duke", 8, 7)])
def test_klam_klam_reduction_is_one_never_below_one(game2, card, cost, paid):
    g = game2
    g.arrange(0, princess="klam_klam", hand={"duke": 1}, deck=CITIES, coins=10)
    assert g.context == "second phase" and g.coins == 10
    g.apply(f"buy {card}")
    assert 10 - g.coins == paid == max(cost - 1, 1)


def test_klam_klam_reduction_only_for_her_backer(game2):
    g = game2
    g.arrange(1, princess="klam_klam")
    g.arrange(0, princess="lulunasaika", hand={"duke": 1}, deck=CITIES, coins=10)
    g.apply("buy city")
    assert g.coins == 7


def test_klam_klam_reduction_does_not_apply_to_backing(game2):
    """Backing Klam Klam herself costs the full 6 (reductions apply to buying only)."""
    g = game2
    g.arrange(0, hand={"duke": 1}, deck=CITIES, coins=5)
    assert g.context == "second phase"
    assert not any(lab.startswith("back") for lab in labels(g))
    g.arrange(0, coins=6)
    assert "back klam_klam" in labels(g)
    g.apply("back klam_klam")
    assert g.princess(0) == "klam_klam"


def test_bergamot_no_action_in_discard_cost_paid_nothing_happens_faq(game2):
    g = game2
    g.arrange(0, princess="bergamot", hand={"farming_village": 1, "apprentice_maid": 1}, deck=CITIES,
              discard={"city": 2})
    assert "use princess ability" in labels(g)
    g.apply("use princess ability")
    assert g.context == "card choice"
    assert sorted(labels(g)) == ["choose apprentice_maid", "choose farming_village"]
    g.apply("choose apprentice_maid")
    assert g.context == "main phase"
    assert g.hand(0) == {"farming_village": 1}
    assert g.discard_pile(0) == {"city": 2, "apprentice_maid": 1}


def test_bergamot_action_in_discard_comes_to_hand(game2):
    g = game2
    g.arrange(0, princess="bergamot", hand={"farming_village": 1, "apprentice_maid": 1}, deck=CITIES,
              discard={"post_horse": 1, "city": 1})
    g.apply("use princess ability")
    g.apply("choose apprentice_maid")
    assert labels(g) == ["choose post_horse"]
    g.apply("choose post_horse")
    assert g.hand(0) == {"farming_village": 1, "post_horse": 1}
    assert g.discard_pile(0) == {"city": 1, "apprentice_maid": 1}


def test_bergamot_once_per_main_phase(game2):
    g = game2
    g.arrange(0, princess="bergamot", hand={"farming_village": 2, "apprentice_maid": 1}, deck=CITIES,
              discard={"post_horse": 1})
    g.apply("use princess ability")
    g.apply("choose apprentice_maid")
    g.apply("choose post_horse")
    assert "use princess ability" not in labels(g)
    g.apply("play farming_village")
    assert "use princess ability" not in labels(g)
    finish_turn(g)
    finish_turn(g)
    assert g.turn_player == 0
    assert "use princess ability" in labels(g)     # a new Main phase


def _twins_back(g, total_cards):
    """Back the Twins with `total_cards` cards in the field, the Twins included."""
    deck = ["city"] * 8
    rest = total_cards - 1 - 2 - len(deck)
    assert rest >= 0
    g.arrange(0, hand={"large_city": 2}, deck=deck, discard={"farming_village": rest} if rest else {},
              domain={})
    assert g.cards_owned(0) == total_cards - 1
    play_all(g, "large_city", "large_city")
    end_main(g)
    g.apply("back twins")


@pytest.mark.parametrize("total,counters", [(11, 0), (21, 0), (22, 2), (23, 2), (24, 2), (25, 3), (30, 3)])
def test_twins_counters_by_field_size_including_herself(game2, total, counters):
    g = game2
    _twins_back(g, total)
    assert g.princess(0) == "twins"
    assert g.counters(0).twins == counters


def test_twins_extra_turn_follows_and_is_not_consecutive(game2):
    g = game2
    _twins_back(g, 25)
    assert g.counters(0).twins == 3
    finish_turn(g)                                  # seat 2
    assert g.turn_player == 0
    turns = g.turns
    assert "use princess ability" in labels(g)
    g.apply("use princess ability")
    assert g.counters(0).twins == 2
    assert "use princess ability" not in labels(g)  # at most one extra turn per turn
    finish_turn(g)
    assert g.turn_player == 0 and g.turns == turns + 1
    assert g.extra_turn
    # in the extra turn the ability cannot be used (no consecutive extra turns)
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    assert "use princess ability" not in labels(g)
    finish_turn(g)
    assert g.turn_player == 1 and not g.extra_turn
    finish_turn(g)
    assert g.turn_player == 0
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    assert "use princess ability" in labels(g)      # usable again in the next regular turn


def test_twins_one_counter_a_turn_so_one_extra_turn_pending_at_most_and_none_in_a_row(game2):
    """2E: "you cannot take consecutive extra turns": with counters left, one use a regular turn, one
    extra turn pending at most, and the turn after the extra turn is the next player's."""
    g = game2
    _twins_back(g, 25)
    finish_turn(g)
    g.apply("use princess ability")
    assert (g.counters(0).twins, g.extra_turns_pending) == (2, 1)
    assert not g.is_legal(K.A_ABILITY)
    finish_turn(g)
    assert g.extra_turn and g.extra_turns_pending == 0
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    assert not g.is_legal(K.A_ABILITY)
    finish_turn(g)
    assert g.turn_player == 1 and not g.extra_turn and g.counters(0).twins == 2


def test_twins_without_counters_has_no_ability(game2):
    g = game2
    _twins_back(g, 21)
    finish_turn(g)
    g.arrange(0, hand={"city": 1}, deck=CITIES)
    assert "use princess ability" not in labels(g)


def test_twins_faq_extra_turn_right_after_declaring_does_not_win(game2):
    g = game2
    _twins_back(g, 25)
    finish_turn(g)
    g.arrange(0, domain={"duke": 4}, hand={"city": 1}, deck=CITIES)             # 24 SP
    g.apply("use princess ability")
    finish_turn(g, declare=True)
    assert g.declared(0)
    assert not g.over
    assert g.turn_player == 0 and g.extra_turn                     # the extra turn
    finish_turn(g)
    assert not g.over and g.turn_player == 1
    finish_turn(g)
    assert g.over and (g.end_reason, g.winner) == ("coronation", 0)


def test_flammaria_puts_up_to_two_cards_costing_5_or_less_on_deck_last_chosen_on_top(game2):
    g = game2
    g.arrange(0, deck=["farming_village"] * 7, discard={})
    # a Post Horse left in hand makes Cleanup stop at the Keep decision, before the draw
    _back(g, "flammaria", extra_hand={"post_horse": 1})
    assert g.context == "card choice"
    choices = set(labels(g))
    assert {"choose city", "choose court_maid", "choose senator", "choose farming_village", "pass"} <= choices
    assert "choose duke" not in choices and "choose large_city" not in choices
    assert not any("curse" in c or "lulunasaika" in c for c in choices)
    g.apply("choose senator")
    assert g.deck(0)[0] == "senator"
    g.apply("choose city")
    assert g.context == "keep"
    assert g.deck(0)[:3] == ["city", "senator", "farming_village"]
    assert g.market()["senator"] == 11 and g.market()["city"] == 29
    g.apply("pass")
    assert g.hand(0) == {"city": 1, "senator": 1, "farming_village": 3}


def test_flammaria_may_take_fewer_cards(game2):
    g = game2
    g.arrange(0, deck=["farming_village"] * 7, discard={})
    _back(g, "flammaria", extra_hand={"post_horse": 1})
    g.apply("choose court_maid")
    g.apply("pass")
    assert g.context == "keep"
    assert g.deck(0)[:2] == ["court_maid", "farming_village"]
    g.apply("pass")
    assert g.hand(0) == {"court_maid": 1, "farming_village": 4}


def test_flammaria_may_take_nothing(game2):
    g = game2
    g.arrange(0, deck=["farming_village"] * 7, discard={})
    _back(g, "flammaria")
    g.apply("pass")
    assert g.turn_player == 1
    assert g.hand(0) == {"farming_village": 5}


# =========================================================================================
# Karikuma (and Imperial Estate): set at the start of Cleanup
# =========================================================================================

def test_karikuma_played_with_a_domain_is_set_at_start_of_cleanup(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={}, hand={"karikuma": 1}, deck=CITIES, discard={})
    g.apply("play karikuma")
    end_main(g)
    assert g.coins == 3
    g.apply("pass")                                 # buy nothing
    assert g.turn_player == 1
    assert g.domain(0) == {"karikuma": 1}
    assert g.sp(0) == 6 + 6
    assert "karikuma" not in g.discard_pile(0)


def test_karikuma_in_hand_at_cleanup_is_not_set_faq(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={}, hand={"karikuma": 1, "city": 1}, deck=CITIES, discard={})
    g.apply("play city")
    end_main(g)
    g.apply("pass")
    assert g.domain(0) == {}
    assert g.discard_pile(0) == {"karikuma": 1, "city": 1}


def test_karikuma_played_without_a_domain_is_discarded(game2):
    g = game2
    g.arrange(0, hand={"karikuma": 1}, deck=CITIES, discard={})
    g.apply("play karikuma")
    end_main(g)
    g.apply("pass")
    assert g.princess(0) is None and g.domain(0) == {}
    assert g.discard_pile(0) == {"karikuma": 1}


def test_imperial_estate_not_moved_by_backing_is_set_at_cleanup(game2):
    """Ref §4 #14: a set-at-Cleanup Territory left in the play area after backing is set, since the
    player now has a domain."""
    g = game2
    g.arrange(0, hand={"large_city": 3, "imperial_estate": 1}, deck=CITIES, discard={})
    play_all(g, "large_city", "large_city", "large_city", "imperial_estate")
    end_main(g)
    g.apply("back lulunasaika")
    assert g.domain(0) == {"large_city": 3, "imperial_estate": 1}
    assert g.sp(0) == 6 + 2


# =========================================================================================
# Market, decks
# =========================================================================================

@pytest.mark.parametrize("card", ["curse", "apprentice_maid", "orchard"])
def test_curses_and_starting_cards_cannot_be_bought(game2, card):
    g = game2
    g.arrange(0, hand={"duke": 1}, deck=CITIES, coins=10)
    assert g.context == "second phase"
    assert "buy city" in labels(g)
    assert f"buy {card}" not in labels(g)
    with pytest.raises(IllegalActionError):
        g.apply(f"buy {card}")


def test_market_is_the_basic_market_and_curse_pile_scales_with_players(basic_2p, basic_4p):
    m2 = Game(basic_2p, seed=1).market()
    m4 = Game(basic_4p, seed=1).market()
    basic_piles = {"city": 30, "large_city": 20, "farming_village": 16, "court_maid": 12, "senator": 12, "duke": 12}
    for m, players in ((m2, 2), (m4, 4)):
        assert {k: m[k] for k in basic_piles} == basic_piles
        assert m["curse"] == 4 * players


@pytest.mark.parametrize("seat,fv,orchard", [(0, 7, 0), (1, 6, 1), (2, 5, 2), (3, 4, 3)])
def test_starting_decks_by_seat(basic_4p, seat, fv, orchard):
    g = Game(basic_4p, seed=3)
    cards = dict(g.hand(seat))
    for c in g.deck(seat):
        cards[c] = cards.get(c, 0) + 1
    expected = {"apprentice_maid": 3, "farming_village": fv}
    if orchard:
        expected["orchard"] = orchard
    assert cards == expected


def test_reshuffle_drawing_past_the_deck_shuffles_discard_under_remaining_deck(game2):
    g = game2
    # empty hand: the turn ends at once; Cleanup draws the City, then the Dukes reshuffled under it
    g.arrange(0, hand={}, deck=["city"], discard={"duke": 10})
    assert g.turn_player == 1
    assert g.hand(0) == {"city": 1, "duke": 4}
    assert g.deck(0) == ["duke"] * 6
    assert g.discard_pile(0) == {}


def test_reshuffle_remaining_deck_cards_are_drawn_first(basic_2p):
    for seed in range(5):
        g = Game(basic_2p, seed=seed)
        g.arrange(0, hand={}, deck=["city", "senator", "large_city"],
                  discard={"farming_village": 3, "duke": 3})
        hand = g.hand(0)
        assert hand["city"] == hand["senator"] == hand["large_city"] == 1
        assert sum(hand.values()) == 5
        assert len(g.deck(0)) == 4


def test_draw_with_empty_deck_and_discard_draws_what_it_can(game2):
    g = game2
    g.arrange(0, hand={}, deck=["city", "city"], discard={})
    assert g.hand(0) == {"city": 2}
    assert g.deck(0) == []


# =========================================================================================
# Player counts, turn cap
# =========================================================================================

def test_solo_mode_ends_by_coronation(basic_1p):
    g = begin(basic_1p)
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})
    finish_turn(g, declare=True)
    assert g.over
    assert (g.end_reason, g.winner, g.turns) == ("coronation", 0, 1)


def test_solo_mode_never_ends_by_judgement_when_the_judgement_piles_run_out(basic_1p):
    g = begin(basic_1p)
    g.arrange(0, princess="lulunasaika", hand={"city": 3, "large_city": 1},
              market={"duke": 0, "senator": 0, "court_maid": 1})
    play_all(g, "city", "city", "city", "large_city")
    g.apply("buy court_maid")
    assert g.market().get("court_maid", 0) == 0
    assert not g.over
    finish_turn(g)
    assert not g.over and g.context == "main phase"      # the next turn begins: no judgement


def test_solo_mode_basic_rush_always_crowned(basic_1p):
    from hoc.research.simulate import lineup, simulate

    run = simulate(basic_1p, lineup("basic_rush", 1), 200, seed=11)
    assert set(run.games.end_reason.astype(str)) == {"coronation"}
    assert (run.games.winner == 0).all()


def test_turn_cap_ends_as_a_draw_with_end_reason_turn_cap():
    g = Game(basic(2, turn_cap=3), seed=5)
    play_to_end(g, pass_policy)
    assert g.over
    assert g.end_reason == "turn_cap" and g.winner is None
    assert g.turns == 6
    assert g.turns_taken(0) == g.turns_taken(1) == 3


def test_turn_cap_counted_as_draw_in_simulation():
    from hoc.research.simulate import lineup, simulate

    run = simulate(basic(3, turn_cap=5), lineup("random", 3), 50, seed=2)
    s = run.summary()
    assert s["end_reasons"]["turn_cap"] == s["draws"] == 50
    assert (run.games.winner == -1).all()


@pytest.mark.parametrize("bad", [dict(players=0), dict(players=5), dict(turn_cap=0),
                                 dict(princesses=("nobody",)), dict(market="nosuchpreset"),
                                 dict(edition="3e"), dict(overrides=("duke.cost=x",))])
def test_ruleset_rejects_bad_input(bad):
    with pytest.raises(HocError):
        Ruleset(**{"market": "basic", **bad})


def test_ruleset_rejects_an_empty_princess_pool():
    with pytest.raises(HocError):
        Ruleset(market="basic", princesses=())


def test_override_changes_card_data():
    g = Game(basic(2, overrides=("duke.cost=7",)), seed=7)
    g.arrange(0, princess="lulunasaika", hand={"senator": 1}, deck=CITIES, coins=7)
    assert "buy duke" in labels(g)


@pytest.mark.parametrize("types, domain, sp", [
    (None, {"large_city": 1, "farming_village": 2}, 6 - 4),                       # printed: an Action
    ("territory", {"large_city": 1, "purveyor": 1, "farming_village": 1}, 6 - 2),
    ("territory/action", {"large_city": 1, "purveyor": 1, "farming_village": 1}, 6 - 2)])
def test_a_types_override_makes_a_card_a_territory_that_backing_moves_to_the_domain(types, domain, sp):
    """Backing moves the 3 highest-cost Territories in play: an Action played beside them stays out,
    the same card made a Territory (`purveyor.types=territory`) goes in before a Farming Village."""
    overrides = () if types is None else (f"purveyor.types={types}",)
    g = Game(basic(2, overrides=overrides), seed=7)
    g.arrange(0, hand={"large_city": 1, "purveyor": 1, "farming_village": 2}, deck=CITIES, discard={})
    play_all(g, "large_city", "purveyor", "farming_village", "farming_village")
    assert g.coins == 3 + 2 + 1 + 1
    end_main(g)
    g.apply("back lulunasaika")
    assert g.domain(0) == domain and g.sp(0) == sp


@pytest.mark.parametrize("override, problem", [
    ("purveyor.types=teritory", "unknown type 'teritory' (did you mean 'territory'?)"),
    ("purveyor.types=princess", "cannot be made a princess"),
    ("lulunasaika.types=action", "a princess keeps her type")])
def test_a_bad_types_override_is_one_clear_error(override, problem):
    with pytest.raises(HocError, match=re.escape(problem)):
        basic(2, overrides=(override,)).cards


def test_game_is_over_rejects_actions(basic_1p):
    g = begin(basic_1p)
    g.arrange(0, princess="lulunasaika", domain={"duke": 3})
    finish_turn(g, declare=True)
    with pytest.raises(IllegalActionError):
        g.apply("pass")


# =========================================================================================
# Keep (2E: at Cleanup, after start-of-Cleanup effects) and Recall (RULINGS 11)
# =========================================================================================

def _to_cleanup(g):
    """Pass the Main and Second phases of the current turn."""
    turn = g.turns
    while g.turns == turn and g.context in ("main phase", "second phase"):
        g.apply("pass")


def test_keep_one_action_per_territory_costing_at_least_the_action(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"city": 1, "farming_village": 1},
              hand={"post_horse": 2}, deck=CITIES, discard={})
    _to_cleanup(g)
    assert g.context == "keep" and set(labels(g)) == {"pass", "keep post_horse"}
    g.apply("keep post_horse")
    # the Farming Village (cost 1) cannot hold a Post Horse (cost 2): no second keep
    assert g.turn_player == 1
    assert g.kept(0) == {"post_horse": 1}
    assert g.discard_pile(0) == {"post_horse": 1}


def test_keep_two_territories_hold_two_actions(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"city": 2}, hand={"post_horse": 2}, deck=CITIES, discard={})
    _to_cleanup(g)
    g.apply("keep post_horse")
    assert g.context == "keep"
    g.apply("keep post_horse")
    assert g.kept(0) == {"post_horse": 2} and g.discard_pile(0) == {}


def test_keep_is_optional(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"city": 1}, hand={"post_horse": 1}, deck=CITIES, discard={})
    _to_cleanup(g)
    g.apply("pass")
    assert g.kept(0) == {} and g.discard_pile(0) == {"post_horse": 1}


def test_keep_needs_territory_cost_at_least_the_actions(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"farming_village": 1, "duke": 1}, hand={"post_horse": 1},
              deck=CITIES, discard={})
    _to_cleanup(g)
    assert g.turn_player == 1 and g.kept(0) == {}


def test_keep_needs_a_domain(game2):
    g = game2
    g.arrange(0, hand={"post_horse": 1}, deck=CITIES, discard={})
    _to_cleanup(g)
    assert g.turn_player == 1 and g.kept(0) == {}


def test_keep_on_karikuma_set_at_start_of_cleanup(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={}, hand={"karikuma": 1, "post_horse": 1}, deck=CITIES,
              discard={})
    g.apply("play karikuma")
    _to_cleanup(g)
    assert g.domain(0) == {"karikuma": 1}
    assert g.context == "keep"
    g.apply("keep post_horse")
    assert g.kept(0) == {"post_horse": 1}


def test_margrave_cannot_be_kept(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"large_city": 1}, hand={"margrave": 1}, deck=CITIES,
              discard={})
    _to_cleanup(g)
    assert g.turn_player == 1 and g.kept(0) == {}


def test_kept_card_is_recalled_in_main_phase_and_still_needs_an_open_play(basic_1p):
    g = begin(basic_1p)
    g.arrange(0, princess="lulunasaika", domain={"city": 1}, kept={"post_horse": 1},
              hand={"infantry_battalion": 1}, deck=CITIES)
    assert "recall post_horse" in labels(g)
    g.apply("play infantry_battalion")                  # 0 links: no open play left
    assert g.open_plays == 0
    assert g.context == "main phase"                    # recall is still possible
    g.apply("recall post_horse")
    assert g.kept(0) == {} and g.hand(0) == {"post_horse": 1}
    assert "play post_horse" not in labels(g)


def test_recalled_card_can_be_played_with_an_open_play(game2):
    g = game2
    g.arrange(0, princess="lulunasaika", domain={"city": 1}, kept={"post_horse": 1},
              hand={"farming_village": 1}, deck=CITIES)
    g.apply("play farming_village")
    g.apply("recall post_horse")
    g.apply("play post_horse")
    assert g.play_area() == {"farming_village": 1, "post_horse": 1}
    assert g.open_plays == 1 + 3 - 2
