"""The agent library under the 1st edition: a priority list read for an edition drops the names of
cards only another edition has (a rule for a card the markets never offer), while a name no edition
has is still one clear error; every library plan loads and plays valid 1E games."""
import re

import pytest

from hoc.agents.registry import AGENTS, from_file
from hoc.games.heart_of_crown.agents.catalog import list_file
from hoc.errors import HocError
from hoc.games.heart_of_crown.agents.priority import parse
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.simulate import lineup, simulate

FIRST = Ruleset(players=2, edition="1e")
LIBRARY = [name for name in AGENTS if list_file(name) is not None]
PLANNING = {name for name in LIBRARY if parse(list_file(name)).planned}   # a turn planner's games are slow


def write(tmp_path, text, name="agent.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_the_library_has_the_archetypes_and_the_tuned_plans():
    assert {"draw_engine", "attack_deck", "twins_extra_turns", "tuned_general_2p"} <= set(LIBRARY)
    assert len(LIBRARY) >= 20


@pytest.mark.parametrize("name", LIBRARY)
def test_every_library_plan_binds_to_both_editions(name):
    for edition in ("2e", "1e"):
        AGENTS[name].params(Ruleset(players=2, edition=edition))


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in PLANNING else n for n in LIBRARY])
def test_every_library_plan_plays_valid_1e_games(name):
    run = simulate(FIRST, lineup(f"{name},basic_rush", 2), 40, seed=11, rotate=True, validate=True, announce=False)
    assert len(run.games) == 40


def test_a_card_of_the_other_edition_drops_its_rule_and_its_names(tmp_path):
    spec = parse(write(tmp_path, 'key = ["margrave", "alchemist"]\n[play]\nfirst = ["flea_market", "library"]\n'
                                 '[choose]\nnever = ["ball"]\n[[buy]]\ncard = "flea_market"\n'
                                 '[[buy]]\ncard = "duke"\n'))
    read, notes = spec.for_edition("1e")
    assert read.key == ("alchemist",) and read.first == ("library",) and read.never == ()
    assert [r["card"] for r in read.buy] == ["duke"]
    assert "flea_market (2e only): buy rule 1 dropped" in notes
    assert spec.for_edition("2e") == (spec, ())                     # 2E has them all: nothing dropped
    same = parse(write(tmp_path, 'key = ["alchemist"]\n[play]\nfirst = ["library"]\n[[buy]]\ncard = "duke"\n',
                       "same.toml"))
    assert (from_file(tmp_path / "agent.toml").params(FIRST) == from_file(same.path).params(FIRST)).all()


def test_a_1e_only_card_is_dropped_under_2e(tmp_path):
    read, notes = parse(write(tmp_path, '[[buy]]\ncard = "bribery"\n[[buy]]\ncard = "duke"\n')).for_edition("2e")
    assert [r["card"] for r in read.buy] == ["duke"] and notes == ("bribery (1e only): buy rule 1 dropped",)


def test_conditions_naming_a_card_of_the_other_edition(tmp_path):
    """offered (never holds) drops its rule; not_offered (always holds) drops the condition."""
    read, _ = parse(write(tmp_path, '[[buy]]\ncard = "city"\noffered = "margrave"\n'
                                    '[[buy]]\ncard = "senator"\nnot_offered = "margrave"\ncoins_at_least = 5\n'
                                    )).for_edition("1e")
    assert read.buy == ({"card": "senator", "coins_at_least": 5},)


def test_a_plan_of_only_other_edition_cards_is_one_clear_error(tmp_path):
    agent = from_file(write(tmp_path, '[[buy]]\ncard = "margrave"\n'))
    with pytest.raises(HocError, match=r"agent\.toml: every \[\[buy\]\] rule names a card edition 1e lacks"):
        agent.params(FIRST)


@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_a_misspelt_card_is_still_one_error_naming_file_line_and_suggestion(tmp_path, edition):
    agent = from_file(write(tmp_path, '[[buy]]\ncard = "city"\n[[buy]]\ncard = "flea_markt"\n'))
    with pytest.raises(HocError) as e:
        agent.params(Ruleset(players=2, edition=edition))
    message = str(e.value)
    assert "\n" not in message
    assert re.search(rf"agent\.toml, line 4: unknown card 'flea_markt' in edition {edition} "
                     r"\(did you mean 'flea_market'\?\): no edition has a card of that name", message)


def test_a_misspelt_key_is_still_an_error(tmp_path):
    agent = from_file(write(tmp_path, 'key = ["margrav"]\n[[buy]]\ncard = "city"\n'))
    with pytest.raises(HocError, match=r"key 'margrav' is not a common kind of edition 1e.*nor of any edition"):
        agent.params(FIRST)


def test_the_cli_names_what_a_plan_leaves_out_under_an_edition(capsys):
    from hoc.cli.main import main

    assert main(["agents", "--edition", "1e"]) == 0
    out = capsys.readouterr().out
    line = next(l for l in out.splitlines() if l.startswith("draw_engine "))
    assert "under 1e, without: flea_market" in line
    line = next(l for l in out.splitlines() if l.startswith("senator_duke "))
    assert "under 1e" not in line


DEFENSE_MARKET = ["rampart", "hideout", "magic_talisman", "infantry_battalion", "royal_guard", "scout",
                  "hunted_beast", "post_horse", "trading_ship", "alchemist"]


@pytest.mark.parametrize("defender", ["defense_1e", "basic_rush", "twins_1e"])
def test_a_priority_list_reveals_rampart_against_infantry_battalion(defender):
    """The Defense question needs no key of the format: it is marked good for the defender when the
    card guards what the Attack reaches, so every priority list reveals (as the default answer does)."""
    from hoc.games.heart_of_crown.game import Game

    g = Game(Ruleset(players=2, edition="1e", market=DEFENSE_MARKET), seed=7)
    g.arrange(0, hand={"infantry_battalion": 1}, deck=["city"] * 10, discard={})
    g.arrange(1, hand={"rampart": 1, "city": 4})
    g.apply("play infantry_battalion")
    assert g.decider == 1 and {g.label(a).split(":")[0] for a in g.legal_actions()} == {"choose rampart", "pass"}
    assert g.label(g.decide(AGENTS[defender])) == "choose rampart"
    g.apply(g.decide(AGENTS[defender]))
    assert g.hand(1) == {"rampart": 1, "city": 4} and g.discard_pile(1) == {}


def test_the_1e_archetypes_are_hand_written_plans_naming_only_1e_cards():
    from hoc.games.heart_of_crown.agents.catalog import HAND_WRITTEN

    for name in ("twins_1e", "defense_1e"):
        assert name in HAND_WRITTEN
        assert parse(list_file(name)).for_edition("1e")[1] == ()      # nothing left out under 1E
    assert parse(list_file("twins_1e")).prefer[0] == "twins"
    defense = {r["card"] for r in parse(list_file("defense_1e")).buy}
    assert {"rampart", "hideout", "magic_talisman"} <= defense


@pytest.mark.parametrize("name", ["twins_1e", "defense_1e"])
def test_the_1e_archetypes_beat_basic_rush_under_1e(name):
    from hoc.research.stats import wilson

    run = simulate(FIRST, lineup(f"{name},basic_rush", 2), 1000, seed=21, rotate=True, validate=True, announce=False)
    wins = int(run.summary()["wins_by_agent"][name])
    assert wilson(wins, 1000)[0] > 0.5, f"{name}: {wins} of 1000"


def test_a_plans_key_kind_of_the_other_edition_is_dropped_so_key_markets_are_found_in_1e_games(tmp_path):
    from hoc.games.heart_of_crown.agents.catalog import planned
    from hoc.research.harness import offers

    spec = parse(write(tmp_path, 'key = ["margrave", "alchemist"]\n[[buy]]\ncard = "duke"\n'))
    assert spec.key_for("1e") == spec.for_edition("1e")[0].key == ("alchemist",) and spec.key_for("2e") == spec.key
    agent = from_file(spec.path)
    assert agent.key == ("margrave", "alchemist")
    assert agent.key_for("2e") == ("margrave", "alchemist") and agent.key_for("1e") == ("alchemist",)
    assert AGENTS["twins_extra_turns"].key_for("1e") == () and AGENTS["twins_extra_turns"].key_for("2e") == ("margrave",)
    assert planned("twins_extra_turns+plan").key_for("1e") == ()
    games = simulate(FIRST, lineup("basic_rush", 2), 200, seed=2, announce=False).games
    chosen = [offers(games, k) for k in agent.key_for("1e")]
    assert 0 < sum(all(c) for c in zip(*chosen)) < 200          # some 1E markets offer every 1E key kind
    assert not offers(games, "margrave").any()                  # the dropped kind: no 1E market has it


def test_each_editions_defaults_come_from_its_own_library():
    """tune's opponents, the meta-game's population and balance's what-if round robin: the 1E archetypes
    and tuned plans under 1E only; 2E runs get none of them."""
    from hoc.agents.registry import get
    from hoc.games.heart_of_crown.agents import catalog
    from hoc.games.heart_of_crown.studies.card_value import what_if_agents

    first = {"twins_1e", "defense_1e"}
    for edition in ("2e", "1e"):
        rs = Ruleset(players=2, edition=edition)
        defaults = {"tune": set(catalog.opponents(rs)), "meta": {a.name for a in catalog.population(rs, get)},
                    "balance": {a.name for a in what_if_agents(2, edition)}}
        for name, agents in defaults.items():
            ones = {a for a in agents if a in first or "_1e_" in a}
            if edition == "2e":
                assert not ones, (name, ones)
            else:
                assert first <= agents, (name, agents)
                assert name == "tune" or "tuned_general_1e_2p" in agents, (name, agents)
        assert "senator_duke" in defaults["tune"] and "basic_rush" in defaults["tune"]
