"""Priority-list agents defined as TOML data: file checking with clear errors, the conditions of
buy rules, and the archetype library playing valid games."""
import pytest

from agents.registry import AGENTS, from_file, get
from hoc.errors import HocError
from hoc.game import Game
from hoc.rules import Ruleset
from hoc.simulate import lineup, simulate

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
    for name, agent in AGENTS.items():
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
