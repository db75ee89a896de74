"""Priority-list agents defined as TOML data: file checking with clear errors, the conditions of
buy rules, and the archetype library playing valid games."""
import re

import pytest

from hoc.games.heart_of_crown.agents.policies import PRIORITY
from hoc.agents.registry import AGENTS, from_file, get, of_game
from hoc.errors import HocError
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.simulate import lineup, simulate

BASIC = Ruleset(players=2, market="basic", princesses=("lulunasaika", "laolily", "klam_klam"))


def write(tmp_path, text, name="agent.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_unknown_condition_is_named_with_file_line_and_suggestion(tmp_path):
    path = write(tmp_path, 'description = "x"\n[[buy]]\ncard = "city"\ncoins_atleast = 3\n')
    with pytest.raises(HocError, match=r"agent\.toml, line 4: unknown condition 'coins_atleast' \(did you mean "
                                       r"'coins_at_least'\?\)"):
        from_file(path)


def test_unknown_card_is_named_with_its_line_when_bound_to_an_edition(tmp_path):
    agent = from_file(write(tmp_path, '[[buy]]\ncard = "city"\n[[buy]]\ncard = "dukee"\n'))
    with pytest.raises(HocError, match=r"line 4: unknown card 'dukee' in edition 2e \(did you mean 'duke'\?\)"):
        agent.params(BASIC)


def test_invalid_toml_reports_the_parser_position(tmp_path):
    with pytest.raises(HocError, match=r"not valid TOML: .*line 1"):
        from_file(write(tmp_path, '[[buy]\ncard = "city"\n'))


def test_wrong_value_types_are_rejected(tmp_path):
    with pytest.raises(HocError, match=r"line 3: princess must be true or false"):
        from_file(write(tmp_path, '[[buy]]\ncard = "duke"\nprincess = 1\n'))
    with pytest.raises(HocError, match=r"line 3: owned_below must be a whole number"):
        from_file(write(tmp_path, '[[buy]]\ncard = "duke"\nowned_below = "two"\n'))
    with pytest.raises(HocError, match=r"unknown section 'buys'"):
        from_file(write(tmp_path, '[[buys]]\ncard = "duke"\n'))


def test_missing_agent_file_is_one_clear_error():
    with pytest.raises(HocError, match=r"cannot read agent file /nonexistent/x.toml"):
        get("/nonexistent/x.toml")


def test_every_archetype_file_loads_and_binds_to_2e():
    for name, agent in of_game("heart_of_crown").items():
        agent.params(Ruleset(players=2))


def test_rule_with_owned_below_stops_buying_at_the_limit(tmp_path):
    agent = from_file(write(tmp_path, '[princess]\nmin_coins = 99\n[[buy]]\ncard = "large_city"\nowned_below = 1\n'
                                      '[[buy]]\ncard = "city"\n'))
    g = Game(BASIC, seed=1)
    g.arrange(0, hand={"city": 6}, deck=["farming_village"] * 10, discard={})
    while g.turn_player == 0 and not g.over:
        g.apply(g.decide(agent))
    assert g.discard_pile(0).get("large_city", 0) == 1              # 12 coins, but only one Large City
    assert g.discard_pile(0).get("city", 0) == 6 + 2                # 6 played, the other 6 coins: 2 Cities


def test_princess_condition_and_backing_preference(tmp_path):
    agent = from_file(write(tmp_path, '[princess]\nprefer = ["klam_klam"]\n[[buy]]\ncard = "duke"\nprincess = true\n'
                                      '[[buy]]\ncard = "city"\n'))
    g = Game(BASIC, seed=1)
    g.arrange(0, hand={"large_city": 3}, deck=["city"] * 10, discard={})
    while g.turn_player == 0 and not g.over:
        g.apply(g.decide(agent))
    assert g.princess(0) == "klam_klam"                             # 9 coins: backs before buying a Duke


def test_coins_at_least_condition_holds_back_a_buy(tmp_path):
    agent = from_file(write(tmp_path, '[princess]\nmin_coins = 99\n[[buy]]\ncard = "city"\ncoins_at_least = 5\n'))
    g = Game(BASIC, seed=1)
    g.arrange(0, hand={"city": 2}, deck=["farming_village"] * 10, discard={})
    while g.turn_player == 0 and not g.over:
        g.apply(g.decide(agent))
    assert g.discard_pile(0).get("city", 0) == 2                    # 4 coins < 5: nothing bought


@pytest.mark.parametrize("name", ["senator_duke", "lulu_crown", "laolily_maids"])
def test_archetype_plays_valid_full_rules_games_and_beats_random(name):
    run = simulate(Ruleset(players=2), lineup(f"{name},random", 2), 300, seed=5, rotate=True, validate=True)
    wins = run.summary()["wins_by_agent"]
    assert wins[name] >= 0.95 * 300


def first_buy(tmp_path, rules_text, *, coins_hand=None, market=None, princess=None, domain=None, rival_domain=None,
              turn=None):
    """The priority agent's first second-phase decision on a prepared first turn (seat 1)."""
    agent = from_file(write(tmp_path, '[princess]\nmin_coins = 99\n' + rules_text))
    g = Game(BASIC, seed=3)
    if rival_domain is not None:
        g.arrange(1, princess="laolily", domain=rival_domain)
    g.arrange(0, hand=coins_hand or {"city": 3}, deck=["farming_village"] * 10, discard={}, market=market,
              princess=princess if princess else None, domain=domain or {})
    if turn is not None:
        g.state[g._pb(0) + K.P_TURNS] = turn
    while g.context != "second phase":
        g.apply(g.decide(agent))
    return g.label(g.decide(agent))



@pytest.mark.parametrize("rule, expected", [
    ('coins_at_most = 5', "buy city"), ('coins_at_most = 6', "buy senator"), ('coins_at_least = 7', "buy city")])
def test_conditions_on_coins(tmp_path, rule, expected):
    """Three Cities: 6 coins."""
    got = first_buy(tmp_path, f'[[buy]]\ncard = "senator"\n{rule}\n[[buy]]\ncard = "city"\n')
    assert got == expected


@pytest.mark.parametrize("rule, turn, expected", [
    ("turn_at_least = 3", 1, "buy city"), ("turn_at_least = 3", 3, "buy senator"),
    ("turn_at_most = 2", 1, "buy senator"), ("turn_at_most = 2", 5, "buy city")])
def test_conditions_on_the_players_own_turn(tmp_path, rule, turn, expected):
    assert first_buy(tmp_path, f'[[buy]]\ncard = "senator"\n{rule}\n[[buy]]\ncard = "city"\n', turn=turn) == expected


def test_condition_owned_at_least(tmp_path):
    rules = '[[buy]]\ncard = "city"\nowned_at_least = 4\n[[buy]]\ncard = "farming_village"\n'
    assert first_buy(tmp_path, rules) == "buy farming_village"          # owns the 3 played Cities
    assert first_buy(tmp_path, rules, coins_hand={"city": 4}) == "buy city"


@pytest.mark.parametrize("rule, domain, expected", [
    ("sp_at_least = 9", {"senator": 1}, "buy senator"), ("sp_at_least = 10", {"senator": 1}, "buy city"),
    ("sp_below = 10", {"senator": 1}, "buy senator"), ("sp_below = 9", {"senator": 1}, "buy city")])
def test_conditions_on_the_players_domain_sp(tmp_path, rule, domain, expected):
    got = first_buy(tmp_path, f'[[buy]]\ncard = "senator"\n{rule}\n[[buy]]\ncard = "city"\n',
                    princess="lulunasaika", domain=domain)                 # 6 + 3 = 9 SP
    assert got == expected


@pytest.mark.parametrize("rival, expected", [({"duke": 2}, "buy senator"), ({"duke": 1}, "buy city")])
def test_condition_behind_the_leader(tmp_path, rival, expected):
    got = first_buy(tmp_path, '[[buy]]\ncard = "senator"\nbehind_at_least = 4\n[[buy]]\ncard = "city"\n',
                    princess="lulunasaika", rival_domain=rival)            # 6 vs 12 or 6
    assert got == expected


@pytest.mark.parametrize("left, expected", [(2, "buy senator"), (3, "buy city")])
def test_condition_pile_at_most(tmp_path, left, expected):
    got = first_buy(tmp_path, '[[buy]]\ncard = "senator"\npile_at_most = 2\n[[buy]]\ncard = "city"\n',
                    market={"senator": left})
    assert got == expected


@pytest.mark.parametrize("dukes, expected", [(1, "buy senator"), (0, "buy city")])
def test_condition_offered(tmp_path, dukes, expected):
    """A Senator only while the market still offers a Duke."""
    got = first_buy(tmp_path, '[[buy]]\ncard = "senator"\noffered = "duke"\n[[buy]]\ncard = "city"\n',
                    market={"duke": dukes})
    assert got == expected


@pytest.mark.parametrize("dukes, expected", [(1, "buy city"), (0, "buy senator")])
def test_condition_not_offered(tmp_path, dukes, expected):
    """A Senator only once the market has no Duke left."""
    got = first_buy(tmp_path, '[[buy]]\ncard = "senator"\nnot_offered = "duke"\n[[buy]]\ncard = "city"\n',
                    market={"duke": dukes})
    assert got == expected


@pytest.mark.parametrize("rule, expected", [
    ("cards_at_least = 13", "buy senator"), ("cards_at_least = 14", "buy city"),
    ("cards_below = 14", "buy senator"), ("cards_below = 13", "buy city")])
def test_conditions_on_all_cards_owned(tmp_path, rule, expected):
    """3 Cities in hand + 10 Farming Villages in the deck: 13 cards owned."""
    got = first_buy(tmp_path, f'[[buy]]\ncard = "senator"\n{rule}\n[[buy]]\ncard = "city"\n')
    assert got == expected


@pytest.mark.parametrize("backed, expected", [("lulunasaika", "buy senator"), ("laolily", "buy city")])
def test_condition_backed_names_the_princess(tmp_path, backed, expected):
    got = first_buy(tmp_path, f'[[buy]]\ncard = "senator"\nbacked = "{backed}"\n[[buy]]\ncard = "city"\n',
                    princess="lulunasaika")
    assert got == expected


def test_backed_condition_must_name_a_princess(tmp_path):
    agent = from_file(write(tmp_path, '[[buy]]\ncard = "senator"\nbacked = "duke"\n'))
    with pytest.raises(HocError, match=r"line 3: 'duke' is not a princess"):
        agent.params(BASIC)


@pytest.mark.parametrize("territories_only, expected", [(False, "play post_horse"), (True, "play city")])
def test_territories_only_never_plays_actions(tmp_path, territories_only, expected):
    rules = (f'[play]\nterritories_only = {str(territories_only).lower()}\nfirst = ["post_horse"]\n'
             '[[buy]]\ncard = "city"\n')
    agent = from_file(write(tmp_path, rules))
    g = Game(BASIC, seed=3)
    g.arrange(0, hand={"post_horse": 1, "city": 2}, deck=["farming_village"] * 10, discard={})
    assert g.context == "main phase"
    assert g.label(g.decide(agent)) == expected
    if territories_only:                  # the whole Main phase: Territories only, the Post Horse stays
        while g.context == "main phase":
            a = g.decide(agent)
            assert g.label(a) != "play post_horse"
            g.apply(a)
        assert g.hand(0).get("post_horse", 0) == 1


@pytest.mark.parametrize("hand, revealed, expected", [
    ({"buried_treasure": 1, "city": 1}, "alchemist", "buy alchemist"),   # 5 - 3 = 2 coins
    ({"buried_treasure": 1}, "scout", "buy scout"),                      # 2 - 3: free, with no coins
    ({"city": 1}, None, "pass")])                                        # no reveal: no Alchemist for 2
def test_buy_rule_buys_a_card_buried_treasure_revealed_at_its_reduced_price(tmp_path, hand, revealed, expected):
    """A revealed card is in the market this turn: a rule naming it buys it at its reduced price."""
    agent = from_file(write(tmp_path, '[princess]\nmin_coins = 99\n[[buy]]\ncard = "alchemist"\n'
                                      '[[buy]]\ncard = "scout"\n'))
    kinds = ["buried_treasure", "alchemist", "scout", "post_horse", "wishing_well", "donation", "hideout",
             "rampart", "trading_ship", "purveyor"]
    g = Game(Ruleset(players=2, market=kinds), seed=3)
    supply = ["post_horse"] + ([revealed] if revealed else [])
    g.arrange(0, hand=hand, deck=["farming_village"] * 10, discard={}, market={"alchemist": 0, "scout": 0},
              supply=supply)
    while g.turn_player == 0 and g.context != "second phase":
        g.apply(g.decide(agent))
    assert g.turn_player == 0 and g.label(g.decide(agent)).split(":")[0] == expected


def test_every_princess_and_every_2e_common_kind_is_used_by_some_archetype():
    """Each princess is named in some archetype's backing order, and each common kind of the 2nd
    edition is bought or played by some archetype (Attendant Maids count as their kind)."""
    from hoc.games.heart_of_crown.agents.priority import parse
    from hoc.games.heart_of_crown.agents.catalog import ARCHETYPES

    db = Ruleset(players=2).cards
    kind = dict(zip(db.ids, db.frame.pile.values))
    princesses, kinds = set(), set()
    for path in ARCHETYPES.glob("*.toml"):
        spec = parse(path)
        princesses |= set(spec.prefer)
        kinds |= {kind[r["card"]] for r in spec.buy} | {kind[c] for c in spec.first}
    assert set(db.pile_ids("princess")) <= princesses
    missing = set(db.pile_ids("common")) - kinds
    assert not missing, f"common kinds no archetype uses: {sorted(missing)}"


def test_every_2e_common_kind_is_really_bought_by_some_archetype_in_play(warm_kernels):
    """Naming a card is not enough (a rule can be unreachable, e.g. a coins_at_most below its
    cost): over games of every archetype against basic_rush, every common kind is bought."""
    rs = Ruleset(players=2)
    db = rs.cards
    bought = None
    for name, agent in of_game("heart_of_crown").items():
        if agent.id == PRIORITY and name != "basic_rush":       # the priority lists (not random, not the search)
            run = simulate(rs, lineup(f"{name},basic_rush", 2), 400, seed=9, rotate=True)
            bought = run.coverage["bought"] if bought is None else bought + run.coverage["bought"]
    by_kind = bought.groupby(db.frame.pile.values).sum()
    missing = [k for k in db.pile_ids("common") if by_kind[k] == 0]
    assert not missing, f"common kinds never bought: {missing}"


def test_every_archetype_names_only_common_kinds_as_key():
    db = Ruleset(players=2).cards
    for name, agent in AGENTS.items():
        assert set(agent.key) <= set(db.pile_ids("common")), name


@pytest.mark.parametrize("accept, curses", [(True, 1), (False, 0)])
def test_accept_modes_answers_curse_witchs_optional_choose_one(tmp_path, accept, curses):
    """Curse Witch asks an optional 'choose one' (pay 1 coin or exile); declining it makes the card
    do nothing, accepting pays the coin and curses the opponent (the first mode each time)."""
    agent = from_file(write(tmp_path, f'[princess]\nmin_coins = 99\n[play]\naccept_modes = {str(accept).lower()}\n'
                                      '[[buy]]\ncard = "city"\n'))
    g = Game(BASIC, seed=3)
    g.arrange(0, hand={"curse_witch": 1, "city": 2}, deck=["farming_village"] * 10, discard={})
    before = g.owned(1, "curse")
    while g.turn_player == 0 and g.context != "second phase":
        g.apply(g.decide(agent))
    assert g.owned(1, "curse") - before == curses


@pytest.mark.parametrize("gain, market, expected", [
    ('["court_maid", "city"]', None, {"court_maid": 2}),
    ('["court_maid", "city"]', {"court_maid": 1}, {"court_maid": 1, "city": 1}),
    ("[]", None, {"senator": 2})])
def test_choose_gain_picks_flammarias_deck_top_cards_in_order(tmp_path, gain, market, expected):
    """Flammaria puts up to 2 market cards costing 5 or less on top of the deck: the agent's `gain`
    list picks them (a listed card that has run out is skipped); without a list, the dearest."""
    agent = from_file(write(tmp_path, f'[princess]\nprefer = ["flammaria"]\n[choose]\ngain = {gain}\n'
                                      '[[buy]]\ncard = "city"\n'))
    g = Game(Ruleset(players=2, market="basic", princesses=("flammaria", "lulunasaika")), seed=3)
    g.arrange(0, hand={"city": 3}, deck=["farming_village"] * 10, discard={}, market=market)
    while g.turn_player == 0 and not g.over:
        g.apply(g.decide(agent))
    assert g.princess(0) == "flammaria"
    assert g.hand(0) == {**expected, "farming_village": 3}          # the deck top, drawn at cleanup


@pytest.mark.parametrize("lose, discarded", [('["apprentice_maid"]', "apprentice_maid"), ("[]", "farming_village")])
def test_choose_lose_picks_the_card_bergamot_discards(tmp_path, lose, discarded):
    """Bergamot's ability costs a discard from hand: the agent's `lose` list names it; without a
    list, the cheapest card goes (a Farming Village, cost 1, before an Apprentice Maid, cost 2).
    The Action taken back is the `gain` list's, not the dearest."""
    agent = from_file(write(tmp_path, f'[choose]\ngain = ["post_horse"]\nlose = {lose}\n[[buy]]\ncard = "city"\n'))
    g = Game(Ruleset(players=2, market="basic", princesses=("bergamot", "lulunasaika")), seed=3)
    g.arrange(0, hand={"farming_village": 1, "apprentice_maid": 1, "city": 1}, deck=["farming_village"] * 10,
              discard={"alchemist": 1, "post_horse": 1}, princess="bergamot", domain={})
    assert g.label(g.decide(agent)) == "use princess ability"
    while g.context != "main phase" or g.hand(0).get("post_horse", 0) == 0:
        g.apply(g.decide(agent))
    assert g.discard_pile(0) == {discarded: 1, "alchemist": 1}


@pytest.mark.parametrize("discard, uses", [({"city": 1}, False), ({"city": 1, "post_horse": 1}, True)])
def test_bergamots_ability_is_used_when_her_routine_says_it_is_worth_it(tmp_path, discard, uses):
    """A priority list uses the princess's ability when it is ready and worth it; for Bergamot that is her
    routine's `bergamot_worth` (an Action in the discard pile to take back), not the agent's own rule."""
    agent = from_file(write(tmp_path, '[[buy]]\ncard = "city"\n'))
    g = Game(Ruleset(players=2, market="basic", princesses=("bergamot", "lulunasaika")), seed=3)
    g.arrange(0, hand={"farming_village": 1, "apprentice_maid": 1}, deck=["farming_village"] * 10,
              discard=discard, princess="bergamot", domain={})
    assert "use princess ability" in [g.label(a) for a in g.legal_actions()]
    assert (g.label(g.decide(agent)) == "use princess ability") == uses


@pytest.mark.parametrize("text, problem", [
    ('[choose]\ndiscard = ["curse"]\n', "unknown key 'discard' in [choose]"),
    ('[choose]\ngain = "senator"\n', "[choose] gain must be a list"),
    ('[choose]\nlose = ["a", "b", "c", "d", "e", "f", "g", "h"]\n', "[choose] lose must be a list of at most 7"),
])
def test_bad_choose_section_is_one_clear_error(tmp_path, text, problem):
    with pytest.raises(HocError, match=re.escape(problem)):
        from_file(write(tmp_path, text))


def test_choose_names_unknown_cards_with_a_suggestion(tmp_path):
    agent = from_file(write(tmp_path, '[choose]\ngain = ["imperial_estat"]\n[[buy]]\ncard = "city"\n'))
    with pytest.raises(HocError, match="unknown card 'imperial_estat'.*did you mean 'imperial_estate'"):
        agent.params(Ruleset(players=2))


@pytest.mark.parametrize("recall", [True, False])
def test_recall_takes_a_kept_action_back_into_hand_and_plays_it(tmp_path, recall):
    """2E: a kept card may be recalled any time in the Main phase and then needs an open play; a list
    with `recall = true` recalls it while a play is open and plays it, one without leaves it kept."""
    agent = from_file(write(tmp_path, f'[play]\nrecall = {str(recall).lower()}\n[[buy]]\ncard = "city"\n'))
    g = Game(BASIC, seed=3)
    g.arrange(0, princess="lulunasaika", domain={"city": 1}, kept={"post_horse": 1}, hand={"city": 1},
              deck=["farming_village"] * 10, discard={})
    assert g.context == "main phase"
    seen = []
    while g.turn_player == 0 and g.context == "main phase":
        a = g.decide(agent)
        seen.append(g.label(a))
        g.apply(a)
    assert ("recall post_horse" in seen) == recall
    assert ("play post_horse" in seen) == recall
    if recall:
        assert seen[0] == "recall post_horse"
    else:
        assert g.kept(0) == {"post_horse": 1}

