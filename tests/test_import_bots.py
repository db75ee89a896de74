"""`hoc import-bots`: other people's Dominion bots translated into bot files. The imported Big Money
bots reproduce the statistics hoc matches against DominionSim, Dominiate and pyminion
(results/dominion_peers); every imported bot of the library plays validated games; the `when`
conditions say what the plain keys say where both can; bad input is one line and exit code 2."""
from __future__ import annotations

import textwrap
import tomllib

import numpy as np
import pytest

from hoc.cli.main import main
from hoc.games.dominion.agents import bots
from hoc.games.dominion.agents.imports import import_bots, table
from hoc.games.dominion.cards import CardDB
from hoc.games.dominion.kernel import constants as K
from hoc.games.dominion.rules import Ruleset

IMPORTED = sorted(bots.imported())
DB = CardDB()


def test_the_library_holds_at_least_twenty_imported_base_set_bots_naming_their_source():
    assert len(IMPORTED) >= 20
    for name in IMPORTED:
        bot = bots.imported()[name]
        assert name.split("_")[0] in ("domsim", "dominiate", "pyminion")
        assert bot.cards <= set(DB.ids), name              # base-set cards only
        text = open(bot.path, encoding="utf-8").read()
        source = tomllib.loads(text)["source"]
        assert source["repository"].startswith("github.com/") and source["path"] and source["author"], name
        assert source["licence"].startswith("MIT, Copyright (c)"), name
        assert "# licence: MIT, Copyright (c)" in text


def test_imported_bots_play_by_name_but_are_not_default_opponents():
    from hoc.agents.registry import get
    from hoc.games.dominion.agents import catalog

    assert get("domsim_basic_big_money").name == "domsim_basic_big_money"
    assert not set(catalog.opponents(None)) & set(IMPORTED)


def test_a_bot_without_when_conditions_leaves_their_table_empty():
    """The `when` table is the only part of the row the conditions add: a plain bot's is all zero, so
    the jitted bot reads no condition for it (its games are the same as before the table existed)."""
    from hoc.games.dominion.agents import kernel as BK

    rs = Ruleset(players=2, market="first_game")
    for name, bot in bots.library().items():
        row = bot.params(rs)
        assert row[BK.B_N_WHEN] == 0 and not row[BK.B_WHEN:BK.B_WHEN + BK.MAX_WHEN * BK.WR_SZ].any(), name
    row = bots.imported()["domsim_smithy"].params(rs)
    assert row[BK.B_N_WHEN] == 2


def test_a_search_agent_rolls_out_an_imported_bot_with_its_when_conditions():
    from hoc.agents.registry import get
    from hoc.games.dominion.agents import kernel as BK

    rs = Ruleset(players=2, market="first_game")
    bot = get("domsim_smithy").params(rs)
    search = get("dom_search:iterations=50,rollout=domsim_smithy").params(rs)
    table = slice(BK.B_N_WHEN, BK.B_WHEN + BK.MAX_WHEN * BK.WR_SZ)
    assert search[BK.B_N_WHEN] == 2 and (search[table] == bot[table]).all()


def _kingdom(bot) -> str:
    """Ten kingdom cards holding every kingdom card the bot names."""
    mine = [c for c in sorted(bot.cards) if DB[c].kingdom]
    rest = [c for c in DB.kingdom if c not in mine]
    return ",".join((mine + rest)[:10])


@pytest.mark.parametrize("name", IMPORTED)
def test_every_imported_bot_plays_two_thousand_validated_games(name):
    from hoc.agents.registry import get
    from hoc.research.harness import Plan
    from hoc.research.rows import play_rows

    rs = Ruleset(players=2, market=_kingdom(bots.imported()[name]))
    plan = Plan(rs, [get(name), get("dom_big_money")], 2_000, seed=5, rotate=True, validate=True)
    rows, _ = play_rows(plan, 0, plan.games)
    assert (rows[:, K.RES_ERROR] == 0).all(), np.unique(rows[:, K.RES_ERROR], return_counts=True)
    assert set(np.unique(rows[:, K.RES_END])) <= {K.END_PROVINCES, K.END_PILES}


def test_imported_big_money_reproduces_the_peer_simulators_statistics():
    """The same bounds as test_big_money_statistics_agree_with_the_established_simulators, for
    DominionSim's Basic Big Money and pyminion's BigMoney as imported (results/dominion_peers: mirror
    17.87 rounds, 33.1-33.2% ties, first seat 36.4-36.5% of decisive games; Smithy-BM 73.7-74.0%
    against Big Money; solo 16.80 turns to 4 Provinces)."""
    import experiments.dominion_check as check

    mirror = check.duel("domsim_basic_big_money,pyminion_big_money", 20_000, 11)
    assert 17.82 <= mirror["rounds"]["value"] <= 17.92
    assert 0.318 <= mirror["tie_rate"]["value"] <= 0.345
    assert 0.347 <= mirror["first_seat_share_of_decisive"]["value"] <= 0.381
    assert 0.48 <= mirror["a_score"]["value"] <= 0.52
    smithy = check.duel("dom_smithy_bm,dominiate_big_money", 20_000, 12)
    # Dominiate's Big Money greens (Duchies, Estates) where the peers' plain Big Money does not
    assert smithy["a_score"]["value"] < 0.74
    smithy = check.duel("dom_smithy_bm,domsim_basic_big_money", 20_000, 12)
    assert 0.725 <= smithy["a_score"]["value"] <= 0.750 and 16.93 <= smithy["rounds"]["value"] <= 17.05
    assert 16.76 <= check.solo("pyminion_big_money", 20_000, 13)["turns"]["value"] <= 16.85


def _games(agents: str, kingdom: str = "first_game", n: int = 400, seed: int = 3):
    from hoc.research.simulate import lineup, simulate

    rs = Ruleset(players=2, market=kingdom)
    return simulate(rs, lineup(agents, 2), n, seed=seed, rotate=True).games


def _write(tmp_path, name: str, buy: str, play: str = "") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'game = "dominion"\n{play}\nbuy = [\n{buy}\n]\n', encoding="utf-8")
    return str(path)


def test_when_conditions_play_the_same_games_as_the_plain_keys_they_restate(tmp_path):
    plain = _write(tmp_path, "plain", """
      { card = "province", coins = 8 },
      { card = "duchy", provinces_at_most = 4 },
      { card = "gold", coins = 6 },
      { card = "smithy", coins = 4, max_coins = 5, owned_below = 1 },
      { card = "village", owned_below = 3, fewer_than = "smithy", plus = 1 },
      { card = "silver", coins = 3 },""")
    when = _write(tmp_path, "when", """
      { card = "province", when = ["coins >= 8"] },
      { card = "duchy", when = ["supply(province) <= 4"] },
      { card = "gold" },
      { card = "smithy", when = ["coins <= 5", "owned(smithy) == 0"] },
      { card = "village", when = ["owned(village) < 3", "owned(village) < owned(smithy) + 1"] },
      { card = "silver" },""")
    a = _games(f"{plain},dom_big_money", "smithy,village,market,militia,moat,cellar,chapel,workshop,laboratory,festival")
    b = _games(f"{when},dom_big_money", "smithy,village,market,militia,moat,cellar,chapel,workshop,laboratory,festival")
    cols = ["win_mask", "turns_0", "turns_1", "vp_0", "vp_1"]
    assert a[cols].equals(b[cols])


def test_a_condition_that_never_holds_keeps_its_card_out_of_every_deck(tmp_path):
    from hoc.research.simulate import lineup, simulate

    rival = _write(tmp_path, "rival", '{ card = "province" },\n{ card = "silver" },')
    never = _write(tmp_path, "never", """
      { card = "province" },
      { card = "gold", when = ["money > 99"] },
      { card = "witch", when = ["vp > max_opponent_vp + 99"] },
      { card = "silver" },""")
    always = _write(tmp_path, "always", """
      { card = "province" },
      { card = "gold", when = ["money < 99"] },
      { card = "witch", when = ["vp > max_opponent_vp - 99"] },
      { card = "silver" },""")
    rs = Ruleset(players=2, market="witch,smithy,village,market,militia,moat,cellar,chapel,workshop,laboratory")
    bought = {}
    for name in (never, always):
        run = simulate(rs, lineup(f"{name},{rival}", 2), 200, seed=4, rotate=True, announce=False)
        bought[name] = run.coverage["bought"]
    assert bought[never]["gold"] == 0 and bought[never]["witch"] == 0
    assert bought[always]["gold"] > 0 and bought[always]["witch"] > 0


def test_gains_to_end_is_the_provinces_left_or_the_three_smallest_piles():
    from numba import njit

    from hoc.games.dominion.agents.kernel import gains_to_end as kernel
    from hoc.games.dominion.game import Game

    gains_to_end = njit(lambda s: kernel(s))
    g = Game(Ruleset(market="first_game"), seed=0)
    s = g.state
    sup = s[K.H_OFF_SUPPLY]
    assert gains_to_end(s) == 8                   # 8 Provinces; the smallest piles hold 8 + 8 + 8 or more
    for card, left in (("cellar", 1), ("market", 2), ("militia", 0)):
        s[sup + DB.index(card)] = left
    assert gains_to_end(s) == 3
    s[sup + DB.index("province")] = 2
    assert gains_to_end(s) == 2


# ---- the importers ----
DOMSIM = """<?xml version="1.0" encoding="UTF-8"?>
<playerCollection>
  <player name="Test Smithy" author="Someone" description="a test">
    <board contents="Smithy, Village" bane=""/>
    <buy name="Province">
      <condition><left type="getTotalMoney"/><operator type="greaterThan"/><right type="constant" attribute="15.0"/></condition>
    </buy>
    <buy name="Duchy">
      <condition><left type="countCardsInSupply" attribute="Province"/><operator type="smallerOrEqualThan"/>
        <right type="constant" attribute="4.0"/></condition>
    </buy>
    <buy name="Gold"/>
    <buy name="Smithy">
      <condition><left type="countCardsInDeck" attribute="Smithy"/><operator type="smallerThan"/>
        <right type="countCardTypeInDeck" attribute="Treasure"/><extra_operation type="divideBy" attribute="11.0"/></condition>
      <condition><left type="countVPon" attribute="Aqueduct"/><operator type="greaterThan"/>
        <right type="constant" attribute="4.0"/></condition>
    </buy>
    <buy name="Village">
      <condition><left type="countCardsInDeck" attribute="Village"/><operator type="smallerThan"/>
        <right type="constant" attribute="1.0"/></condition>
    </buy>
    <buy name="Silver"/>
  </player>
  <player name="Needs Prosperity" author="Someone">
    <buy name="Platinum"/>
    <buy name="Silver"/>
  </player>
</playerCollection>
"""


def test_dominionsim_rules_translate_to_plain_keys_and_when_conditions(tmp_path):
    src = tmp_path / "bots.xml"
    src.write_text(DOMSIM, encoding="utf-8")
    result = import_bots("dominionsim", src, tmp_path / "out")
    assert [c.bot for c in result.coverage] == ["Test Smithy"]
    assert result.skipped == [("Needs Prosperity", "names cards hoc's card set lacks: platinum")]
    data = tomllib.loads((tmp_path / "out" / "domsim_test_smithy.toml").read_text(encoding="utf-8"))
    assert data["buy"] == [
        {"card": "province", "when": ["money > 15"]},
        {"card": "duchy", "provinces_at_most": 4},
        {"card": "gold"},
        {"card": "smithy", "when": ["11 * owned(smithy) < owned(treasure)"]},
        {"card": "village", "owned_below": 1},
        {"card": "silver"},
    ]
    assert data["play"] == ["village", "smithy"]             # DominionSim's play priority
    assert data["source"]["kingdom"] == "smithy,village" and data["source"]["author"] == "Someone"
    bots.parse(tmp_path / "out" / "domsim_test_smithy.toml")


def test_the_coverage_table_counts_rules_and_names_every_dropped_condition(tmp_path):
    src = tmp_path / "bots.xml"
    src.write_text(DOMSIM, encoding="utf-8")
    result = import_bots("dominionsim", src, tmp_path / "out")
    cov, = result.coverage
    assert (cov.rules, cov.translated, cov.conditions) == (6, 6, 5)
    assert len(cov.dropped) == 1 and "countVPon(Aqueduct)" in cov.dropped[0]
    text = table(result)
    lines = text.splitlines()
    assert lines[0].split() == ["bot", "file", "rules", "entries", "conditions", "dropped"]
    assert lines[1].split()[-4:] == ["6", "6", "5", "1"]
    assert "countVPon(Aqueduct)" in text and "skipped Needs Prosperity" in text
    written = (tmp_path / "out" / "domsim_test_smithy.toml").read_text(encoding="utf-8")
    assert "#   - rule 4 (smithy): condition `countVPon(Aqueduct)" in written


DOMINIATE = """# A test strategy
{
  name: 'TestWitch'
  author: 'Tester'
  requires: ['Witch']
  gainPriority: (state, my) -> [
    "Colony" if my.countInDeck("Platinum") > 0
    "Province" if state.countInSupply("Colony") <= 6 \\
               or my.getTotalMoney() > 15
    "Witch" if my.countInDeck("Witch") < 2
    "Duchy" if 0 < state.gainsToEndGame() <= 5
    "Gold"
    "Smithy" if my.actions > 1
    "Silver"
  ]
}
"""


def test_dominiate_priorities_translate_with_colony_games_read_away(tmp_path):
    src = tmp_path / "TestWitch.coffee"
    src.write_text(DOMINIATE, encoding="utf-8")
    result = import_bots("dominiate", src, tmp_path / "out")
    data = tomllib.loads((tmp_path / "out" / "dominiate_test_witch.toml").read_text(encoding="utf-8"))
    assert data["buy"] == [
        {"card": "province"},                       # no Colony: countInSupply("Colony") is 0
        {"card": "witch", "owned_below": 2},
        {"card": "duchy", "when": ["gains_to_end <= 5"]},
        {"card": "gold"},
        {"card": "smithy"},                         # my.actions has no hoc quantity: dropped, named
        {"card": "silver"},
    ]
    assert (data["trash_copper"], data["trash_estates_above"]) == (4, 2)     # basicAI's trashPriority
    assert data["description"] == "A test strategy"
    assert any("my.actions" in d for d in result.coverage[0].dropped)


def test_pyminion_buy_priorities_translate(tmp_path):
    src = tmp_path / "bot.py"
    src.write_text(textwrap.dedent("""
        from pyminion.bots.bot import Bot, BotDecider
        from pyminion.expansions.base import gold, province, silver, smithy

        class SmithyDecider(BotDecider):
            def action_priority(self, player, game):
                yield smithy

            def buy_priority(self, player, game):
                money = player.state.money
                num_smithy = player.get_card_count(card=smithy)
                if money >= 8:
                    yield province
                if money >= 6:
                    yield gold
                if money in (4, 5) and num_smithy < 1:
                    yield smithy
                if money >= 3:
                    yield silver
        """), encoding="utf-8")
    result = import_bots("pyminion", src, tmp_path / "out")
    data = tomllib.loads((tmp_path / "out" / "pyminion_smithy.toml").read_text(encoding="utf-8"))
    assert data["buy"] == [{"card": "province"}, {"card": "gold"}, {"card": "smithy", "owned_below": 1},
                           {"card": "silver"}]
    assert data["play"] == ["smithy"]
    assert any("money in (4, 5)" in d for d in result.coverage[0].dropped)


@pytest.mark.parametrize("source, name, text, says", [
    ("dominionsim", "bad.xml", "<playerCollection><player name='x'><buy name='Gold'>", "is not valid XML"),
    ("dominionsim", "empty.xml", "<playerCollection></playerCollection>", "no DominionSim <player>"),
    ("dominionsim", "nan.xml", "<player name='x'><buy name='Gold'><condition><left type='constant' attribute='x'/>"
     "<operator type='greaterThan'/><right type='constant' attribute='1'/></condition></buy></player>",
     "is not a number"),
    ("dominiate", "bad.coffee", "name: 'x'\ngainPriority: (state, my) -> [\n  \"Gold\"\n]\n", "not a Dominiate strategy"),
    ("dominiate", "nogain.coffee", "{\n  name: 'x'\n  author: 'y'\n}\n", "no gainPriority"),
    ("pyminion", "bad.py", "class X(:\n", "is not valid Python"),
    ("pyminion", "nobot.py", "x = 1\n", "no pyminion bot"),
])
def test_a_malformed_source_file_is_one_line_and_exit_code_2(tmp_path, capsys, source, name, text, says):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["import-bots", source, str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("hoc: error: ") and says in err, err


def test_a_bot_file_with_a_bad_when_condition_is_one_line(tmp_path):
    from hoc.errors import HocError

    path = _write(tmp_path, "bad", '{ card = "gold", when = ["money >> 3"] },')
    with pytest.raises(HocError, match="when: 'money >> 3' must compare two sides"):
        bots.parse(path)
    path = _write(tmp_path, "bad2", '{ card = "gold", when = ["owned(platinum) > 3"] },')
    with pytest.raises(HocError, match="neither a card nor a class"):
        bots.parse(path)
