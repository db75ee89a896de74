"""Dominion's kingdom cards, one test or more per card text (base set, 2nd edition; the texts are
in hoc/games/dominion/data/cards.csv), on positions set up with `Game.arrange`."""
from __future__ import annotations

import pytest

from hoc.games.dominion.game import Game
from hoc.games.dominion.kernel import constants as K
from hoc.games.dominion.rules import Ruleset

TEN = ("cellar", "chapel", "moat", "harbinger", "merchant", "vassal", "village", "workshop", "militia", "smithy")


def table(*cards, players=2):
    """A game whose kingdom holds the cards named (filled up to ten), seat 0 to act."""
    kingdom = list(dict.fromkeys([*cards, *TEN]))[:10]
    return Game(Ruleset(players=players, market=tuple(kingdom)), seed=1)


def start(game, hand, deck=(), discard=(), seat=0):
    return game.arrange(seat, hand=list(hand), deck=list(deck), discard=list(discard))


def test_village_draws_one_and_gives_two_actions():
    g = start(table("village"), ["village", "copper"], deck=["gold", "estate"])
    g.apply("play:village")
    assert g.hand(0) == {"copper": 1, "gold": 1} and g[K.H_ACTIONS] == 2


def test_smithy_draws_three_and_uses_the_only_action():
    g = start(table("smithy"), ["smithy", "smithy"], deck=["gold", "silver", "estate", "copper"])
    g.apply("play:smithy")
    assert g.hand(0) == {"smithy": 1, "gold": 1, "silver": 1, "estate": 1}
    assert g[K.H_CTX] == K.CTX_BUY       # no Action left: on to the Buy phase


def test_festival_laboratory_market_and_council_room_give_their_bonuses():
    g = start(table("festival", "laboratory", "market", "council_room"),
              ["festival", "laboratory", "market", "council_room"], deck=["copper"] * 8)
    g.apply("play:festival")
    assert (g[K.H_ACTIONS], g[K.H_BUYS], g[K.H_COINS]) == (2, 2, 2)
    g.apply("play:laboratory")
    assert g[K.H_ACTIONS] == 2 and g.hand(0)["copper"] == 2
    g.apply("play:market")
    assert (g[K.H_ACTIONS], g[K.H_BUYS], g[K.H_COINS]) == (2, 3, 3) and g.hand(0)["copper"] == 3
    before = sum(g.hand(1).values())
    g.apply("play:council_room")
    assert g[K.H_BUYS] == 4 and g.hand(0)["copper"] == 7
    assert sum(g.hand(1).values()) == before + 1          # each other player draws a card


def test_cellar_discards_any_number_then_draws_that_many():
    g = start(table("cellar"), ["cellar", "estate", "estate", "copper"], deck=["gold", "gold", "silver"])
    g.apply("play:cellar")
    assert g[K.H_ACTIONS] == 1
    assert g.question()["kind"] == "hand" and g.question()["optional"]
    g.apply("choose:estate", "choose:estate", "pass")
    assert g.hand(0) == {"copper": 1, "gold": 2} and g.discard(0) == {"estate": 2}


def test_chapel_trashes_up_to_four():
    g = start(table("chapel"), ["chapel", "copper", "copper", "copper", "estate", "estate"])
    g.apply("play:chapel", "choose:copper", "choose:copper", "choose:copper", "choose:estate")
    assert g.trash() == {"copper": 3, "estate": 1} and g.hand(0) == {"estate": 1}
    assert g.question() is None           # the fourth was the last


def test_chapel_may_trash_nothing():
    g = start(table("chapel"), ["chapel", "copper"])
    g.apply("play:chapel", "pass")
    assert g.trash() == {} and g.hand(0) == {"copper": 1}


def test_moat_draws_two_and_its_reveal_blocks_an_attack():
    g = table("moat", "militia")
    start(g, ["moat", "copper", "copper", "copper", "estate"], seat=1)
    start(g, ["militia"], deck=["copper"] * 5)
    g.apply("play:militia")
    q = g.question()
    assert q == {**q, "kind": "yes/no", "seat": 1, "about": "moat"}     # the attacked player decides
    g.apply("yes")
    assert sum(g.hand(1).values()) == 5 and g[K.H_COINS] == 2


def test_moat_not_revealed_leaves_its_owner_attacked():
    g = table("moat", "militia")
    start(g, ["moat", "copper", "copper", "copper", "estate"], seat=1)
    start(g, ["militia"], deck=["copper"] * 5)
    g.apply("play:militia", "pass", "choose:estate", "choose:moat")
    assert g.hand(1) == {"copper": 3} and g.discard(1) == {"estate": 1, "moat": 1}


def test_moat_as_an_action_draws_two():
    g = start(table("moat"), ["moat"], deck=["gold", "silver", "copper"])
    g.apply("play:moat")
    assert g.hand(0) == {"gold": 1, "silver": 1}


def test_harbinger_puts_a_card_from_the_discard_pile_onto_the_deck():
    g = start(table("harbinger"), ["harbinger"], deck=["copper", "copper"], discard=["gold", "estate"])
    g.apply("play:harbinger")
    assert g[K.H_ACTIONS] == 1 and g.hand(0) == {"copper": 1}
    g.apply("choose:gold")
    assert g.deck(0) == ["gold", "copper"] and g.discard(0) == {"estate": 1}


def test_merchant_gives_a_coin_with_the_first_silver_only():
    g = start(table("merchant"), ["merchant", "merchant", "silver", "silver"], deck=["copper", "estate"])
    g.apply("play:merchant", "play:merchant")
    g.apply("treasures")
    assert g[K.H_COINS] == 2 + 2 + 1 + 1 + 1      # two Silvers, a Copper drawn, one coin per Merchant


def test_merchant_without_silver_gives_nothing():
    g = start(table("merchant"), ["merchant", "copper"], deck=["copper"])
    g.apply("play:merchant", "treasures")
    assert g[K.H_COINS] == 2


def test_vassal_discards_the_top_card_and_may_play_it_if_an_action():
    g = start(table("vassal", "village"), ["vassal"], deck=["village", "gold", "copper"])
    g.apply("play:vassal")
    assert g.question()["about"] == "village"
    g.apply("yes")
    assert g.play_area() == {"vassal": 1, "village": 1} and g.hand(0) == {"gold": 1}
    assert g[K.H_ACTIONS] == 2 and g[K.H_COINS] == 2          # Village played without using an Action


def test_vassal_discards_a_treasure_and_stops():
    g = start(table("vassal"), ["vassal"], deck=["gold", "copper"])
    g.apply("play:vassal")
    assert g.discard(0) == {"gold": 1} and g.question() is None and g[K.H_COINS] == 2


def test_workshop_gains_a_card_costing_up_to_four():
    g = start(table("workshop", "smithy"), ["workshop"])
    g.apply("play:workshop")
    assert "choose:smithy" in g.legal() and "choose:gold" not in g.legal() and "pass" not in g.legal()
    g.apply("choose:smithy")
    assert g.discard(0) == {"smithy": 1}


def test_bureaucrat_gains_silver_onto_the_deck_and_others_topdeck_a_victory_card():
    g = table("bureaucrat")
    start(g, ["estate", "duchy", "copper"], deck=["copper"], seat=1)
    start(g, ["bureaucrat"], deck=["copper"])
    g.apply("play:bureaucrat")
    assert g.deck(0)[0] == "silver"
    assert g.question()["seat"] == 1 and g.legal() == ["choose:estate", "choose:duchy"]
    g.apply("choose:duchy")
    assert g.deck(1)[0] == "duchy" and g.hand(1) == {"estate": 1, "copper": 1}


def test_bureaucrat_victim_without_victory_cards_reveals_the_hand():
    g = table("bureaucrat")
    start(g, ["copper", "silver"], deck=["copper"], seat=1)
    start(g, ["bureaucrat"])
    g.apply("play:bureaucrat")
    assert g.hand(1) == {"copper": 1, "silver": 1} and g.question() is None


def test_gardens_is_worth_one_vp_per_ten_cards_owned_rounded_down():
    g = table("gardens")
    g.arrange(0, hand=[], discard=[], deck=["gardens", "gardens"] + ["copper"] * 27)     # 29 cards
    assert _vp(g, 0) == 2 * 2
    g.arrange(0, hand=[], discard=[], deck=["gardens", "gardens"] + ["copper"] * 28)     # 30 cards
    assert _vp(g, 0) == 2 * 3


def _vp(game, p):
    """p's VP now, as its observation shows it."""
    import numpy as np

    from hoc.games.dominion.observation import TABLE_SLOTS, observe, size

    out = np.zeros(size(game.ruleset.players), np.float32)
    observe(game.state, p, out)
    return int(out[TABLE_SLOTS])


def test_militia_gives_two_coins_and_others_discard_down_to_three():
    g = table("militia")
    start(g, ["copper", "copper", "estate", "estate", "silver"], seat=1)
    start(g, ["militia"])
    g.apply("play:militia")
    assert g[K.H_COINS] == 2 and g.question()["seat"] == 1 and not g.question()["optional"]
    g.apply("choose:estate", "choose:estate")
    assert g.hand(1) == {"copper": 2, "silver": 1} and g.question() is None


def test_moneylender_trashes_a_copper_for_three_coins():
    g = start(table("moneylender"), ["moneylender", "copper", "copper"])
    g.apply("play:moneylender", "yes")
    assert g.trash() == {"copper": 1} and g[K.H_COINS] == 3


def test_moneylender_without_copper_does_nothing():
    g = start(table("moneylender"), ["moneylender", "silver"])
    g.apply("play:moneylender")
    assert g.question() is None and g[K.H_COINS] == 0


def test_poacher_discards_a_card_per_empty_supply_pile():
    g = table("poacher")
    sup = g[K.H_OFF_SUPPLY]
    for name in ("cellar", "chapel"):
        g.state[sup + g.db.index(name)] = 0
    start(g, ["poacher", "estate", "copper", "gold"], deck=["silver"])
    g.apply("play:poacher")
    assert (g[K.H_ACTIONS], g[K.H_COINS]) == (1, 1)
    g.apply("choose:estate", "choose:copper")
    assert g.hand(0) == {"gold": 1, "silver": 1} and g.question() is None


def test_remodel_trashes_a_card_and_gains_one_costing_up_to_two_more():
    g = start(table("remodel", "smithy"), ["remodel", "estate"])
    g.apply("play:remodel", "choose:estate")
    assert g.question()["cap"] == 4 and "choose:smithy" in g.legal() and "choose:duchy" not in g.legal()
    g.apply("choose:silver")
    assert g.trash() == {"estate": 1} and g.discard(0) == {"silver": 1}


def test_throne_room_plays_an_action_twice():
    g = start(table("throne_room", "smithy"), ["throne_room", "smithy"], deck=["copper"] * 8)
    g.apply("play:throne_room", "choose:smithy")
    assert g.hand(0) == {"copper": 6} and g.play_area() == {"throne_room": 1, "smithy": 1}


def test_throne_room_on_throne_room_plays_two_actions_twice_each():
    g = start(table("throne_room", "village"), ["throne_room", "throne_room", "village", "village"],
              deck=["copper"] * 8)
    g.apply("play:throne_room", "choose:throne_room", "choose:village", "choose:village")
    assert g[K.H_ACTIONS] == 8 and g.hand(0) == {"copper": 4}


def test_bandit_gains_gold_and_trashes_a_revealed_non_copper_treasure():
    g = table("bandit")
    start(g, ["copper"] * 5, deck=["silver", "copper", "estate"], seat=1)
    start(g, ["bandit"])
    g.apply("play:bandit")
    assert g.discard(0) == {"gold": 1}
    assert g.trash() == {"silver": 1} and g.discard(1) == {"copper": 1} and g.deck(1) == ["estate"]


def test_bandit_victim_chooses_between_two_treasures_and_spares_copper():
    g = table("bandit")
    start(g, ["copper"] * 5, deck=["silver", "gold"], seat=1)
    start(g, ["bandit"])
    g.apply("play:bandit")
    assert g.question()["seat"] == 1 and g.question()["kind"] == "mode"
    g.apply("second")
    assert g.trash() == {"gold": 1} and g.discard(1) == {"silver": 1}
    g2 = table("bandit")
    start(g2, ["copper"] * 5, deck=["copper", "copper"], seat=1)
    start(g2, ["bandit"])
    g2.apply("play:bandit")
    assert g2.trash() == {} and g2.discard(1) == {"copper": 2}


def test_library_draws_to_seven_setting_aside_actions_it_chooses():
    g = start(table("library", "village"), ["library", "copper", "copper"],
              deck=["village", "silver", "village", "gold", "estate", "copper"])
    g.apply("play:library")
    assert g.question()["about"] == "village"
    g.apply("yes")                      # set aside
    g.apply("pass")                     # the second Village into the hand
    assert g.hand(0) == {"copper": 3, "silver": 1, "village": 1, "gold": 1, "estate": 1}     # 7 cards
    assert g.discard(0) == {"village": 1} and g.deck(0) == []


def test_mine_trashes_a_treasure_and_gains_one_costing_up_to_three_more_to_hand():
    g = start(table("mine"), ["mine", "silver", "estate"])
    g.apply("play:mine")
    assert g.legal() == ["pass", "choose:silver"]
    g.apply("choose:silver")
    assert "choose:gold" in g.legal() and "choose:duchy" not in g.legal()
    g.apply("choose:gold")
    assert g.hand(0) == {"gold": 1, "estate": 1} and g.trash() == {"silver": 1}


def test_sentry_trashes_discards_or_puts_back_the_top_two_in_any_order():
    g = start(table("sentry"), ["sentry"], deck=["copper", "estate", "gold", "silver"])
    g.apply("play:sentry")
    assert g.hand(0) == {"copper": 1} and g[K.H_ACTIONS] == 1
    g.apply("trash")                    # estate
    g.apply("keep")                     # gold
    assert g.trash() == {"estate": 1} and g.deck(0) == ["gold", "silver"]
    g2 = start(table("sentry"), ["sentry"], deck=["copper", "gold", "silver", "estate"])
    g2.apply("play:sentry", "keep", "keep", "second")
    assert g2.deck(0) == ["silver", "gold", "estate"]


def test_witch_draws_two_and_gives_each_other_player_a_curse():
    g = table("witch", players=3)
    start(g, ["witch"], deck=["copper", "copper"])
    g.apply("play:witch")
    assert g.hand(0) == {"copper": 2}
    assert g.discard(1).get("curse") == 1 and g.discard(2).get("curse") == 1
    assert g.supply()["curse"] == 18


def test_witch_gives_no_curse_when_the_pile_is_empty():
    g = table("witch")
    g.state[g[K.H_OFF_SUPPLY] + g.db.index("curse")] = 0
    start(g, ["witch"], deck=["copper", "copper"])
    g.apply("play:witch")
    assert "curse" not in g.discard(1)


def test_artisan_gains_to_hand_then_puts_a_card_onto_the_deck():
    g = start(table("artisan", "smithy"), ["artisan", "copper"])
    g.apply("play:artisan")
    assert "choose:duchy" in g.legal() and "choose:gold" not in g.legal()
    g.apply("choose:smithy", "choose:copper")
    assert g.hand(0) == {"smithy": 1} and g.deck(0)[0] == "copper"


@pytest.mark.parametrize("card", sorted(set(Game().db.kingdom)))
def test_every_kingdom_card_plays_to_the_end_of_its_text_from_a_full_position(card):
    g = table(card)
    start(g, ["copper"] * 4 + ["estate"], deck=["silver", "gold", "estate", "copper"], seat=1)
    start(g, [card, "copper", "estate", "silver", "gold"], deck=["village", "copper", "gold", "estate"] * 2,
          discard=["copper", "estate"])
    if "action" not in g.db[card].types:
        return
    g.apply(f"play:{card}")
    for _ in range(30):                 # answer every question with its first legal answer
        if g.question() is None:
            break
        g.apply(g.legal_ids()[0])
    assert g.question() is None
