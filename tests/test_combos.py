"""Supply combos (`hoc combos`): the four conditions bar exactly their kinds, a pair nobody uses
reads exactly 0, runs are reproducible serially, in parallel and after an interruption, the
false-discovery control holds on pure noise and on shuffled labels (also where the measure leans
as a whole: pairs are read against the screen's typical pair), a planted interaction is
confirmed, and bad options are one line."""
from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pytest

from hoc.cli.main import main
from hoc.games import get as game
from hoc.research.combos import analysis, pair, report, screen, search
from hoc.research.combos.design import ACROSS, CONFIRM, SCREEN, Settings
from hoc.research.harness import Backend
from hoc.agents.plan_space import space_of

TINY = dict(iterations=2, batch=3, seeds=3, pick=2, pick_seeds=8, measure_seeds=16, confirm=2, replicates=3)
# what a test leaves unsaid is the dataclass's own (a folder's older settings), not the command's
# defaults that `Settings.of` resolves: each test states what it measures
EARLIER = {f.name: f.default for f in dataclasses.fields(Settings)
           if f.name in ("measure", "planner", "across", "copies", "knockouts", "measure_seeds", "replicates", "waves")}
KINDS = ["village", "smithy", "witch", "moat", "gardens"]
KINDS_HOC = ["bank", "library", "hideout", "scout", "rampart", "margrave", "alchemist", "wishing_well", "donation",
             "purveyor"]


def _of(ruleset, kinds, **kw):
    return Settings.of(ruleset, kinds, **{**EARLIER, **kw})


def _dominion(**kw):
    return _of(game("dominion").ruleset(players=2), KINDS, **{**TINY, **kw})


def _bought(space, x):
    return {e["card"] for e in space.entries(x)[0]}


def test_each_condition_bars_exactly_the_kinds_it_may_not_use():
    s = _dominion()
    market = s.market(SCREEN, "witch", "moat", 0)
    assert market[:2] == ("witch", "moat") and len(set(market)) == 10
    space = space_of(s.ruleset(market))
    x = space.favouring(space.starts()[0], ["witch", "moat"])
    assert {"witch", "moat"} <= _bought(space, x)
    assert "witch" in _bought(space.without(["moat"]), x) and "moat" not in _bought(space.without(["moat"]), x)
    neither = _bought(space.without(["witch", "moat"]), x)
    assert not {"witch", "moat"} & neither and {"province", "gold", "silver"} <= neither


def test_favouring_buys_two_copies_just_before_the_last_resort():
    space = space_of(game("dominion").ruleset(players=2, market="first_game"))
    buy = space.entries(space.favouring(space.starts()[0], ["smithy"]))[0]
    cards = [e["card"] for e in buy]
    assert cards[-2:] == ["smithy", "silver"]                  # Big Money's last resort is Silver
    assert buy[-2]["owned_below"] == 3
    hoc_space = space_of(game("heart_of_crown").ruleset(players=2, market=tuple(KINDS_HOC)))
    plan = hoc_space.plan(hoc_space.favouring(hoc_space.starts()[0], ["bank"]))
    rule = next(r for r in plan.buy if r.card == "bank")
    assert rule.condition("owned_below") == 3


def test_favouring_ranks_a_kind_above_the_dearest_card_it_can_replace_so_its_copies_are_bought():
    """Ranked just above the lowest card bought, a Library (cost 4) sat below Heart of Crown's City (3):
    every hand of 3 or more coins bought the City, and the start bought no Library at all."""
    from hoc.agents.registry import get
    from hoc.research.atlas.measure import measure

    market = ("library", "post_horse", *[k for k in KINDS_HOC if k not in ("library", "post_horse")][:8])
    space = space_of(game("heart_of_crown").ruleset(players=2, market=market)).without(market[2:])
    guess = space.starts()[0]
    cards = [r.card for r in space.plan(space.favouring(guess, ["library"])).buy]
    db = space.ruleset.cards
    cost = {c: int(db.frame.cost.iat[db.index(c)]) for c in cards}
    cheaper = [c for c in cards if c != "library" and cost[c] <= cost["library"]]
    assert cards.index("library") == cards.index(cheaper[0]) - 1          # just above the best it can replace
    m = measure(space, space.favouring(guess, ["library"])[None], (get("basic_rush"),), 5, 24, 0, Backend(1), ())
    library = np.asarray(space.kinds["library"])
    assert 1.0 <= m.copies[0, library].sum() <= 2.0                       # two copies at most, and bought
    dominion = space_of(game("dominion").ruleset(players=2, market="first_game"))
    artisan = space_of(game("dominion").ruleset(players=2, market=("artisan", *KINDS, "cellar", "market", "mine",
                                                                            "chapel")))
    buy = [e["card"] for e in artisan.entries(artisan.favouring(artisan.starts()[0], ["artisan"]))[0]]
    assert buy.index("artisan") == buy.index("gold") - 1                  # at 6 coins, before Gold
    buy = [e["card"] for e in dominion.entries(dominion.favouring(dominion.starts()[0], ["cellar"]))[0]]
    assert buy[-2:] == ["cellar", "silver"]           # cheaper than all it buys: in place of the cheapest


def test_rushing_buys_the_kinds_first_without_a_cap():
    space = space_of(game("dominion").ruleset(players=2, market="first_game"))
    buy = space.entries(space.rushing(space.starts()[0], ["workshop", "smithy"]))[0]
    assert {e["card"] for e in buy[:2]} == {"workshop", "smithy"}
    assert all("owned_below" not in e for e in buy[:2])


@pytest.mark.parametrize("name,kind,markets", [
    ("dominion", "witch", (("witch", "moat", "village", "smithy", "gardens", "cellar", "chapel", "market", "mine", "remodel"),
                           ("witch", "militia", "festival", "library", "laboratory", "bandit", "bureaucrat", "vassal",
                            "harbinger", "merchant"))),
    ("heart_of_crown", "library", (tuple(KINDS_HOC), ("library", "curse_witch", "post_horse", "bank", "adventurer", "ball",
                                                      "city_development", "royal_guard", "flea_market", "supply_unit"))),
])
def test_a_plan_moved_to_another_market_offering_its_cards_reads_the_same(name, kind, markets):
    """A deck built on one kind is searched once and played in every market of its pairs: moved by
    card name, a plan of the kind and the basic supply is the same plan there, cards the first market
    lacks are never bought, and every gene after the cards' comes along."""
    spaces = [space_of(game(name).ruleset(players=2, market=m)) for m in markets]
    mine, theirs = (s.without([k for k in m if k != kind]) for s, m in zip(spaces, markets))
    rng = np.random.default_rng(0)
    for x in [mine.favouring(mine.starts()[0], [kind]), *rng.random((20, len(mine.lower)))]:
        y = theirs.moved(x, mine)
        assert theirs.text(y, "") == mine.text(x, "")
        assert len(y) == len(theirs.lower) and np.array_equal(y[-2:], x[-2:])
        lacked = [i for i, c in enumerate(spaces[1].cards) if c not in spaces[0].cards]
        assert lacked and all(y[i * theirs.per_card + theirs.gate] < 0.5 for i in lacked)


def test_a_search_moves_only_the_genes_of_cards_its_space_may_buy():
    space = space_of(game("dominion").ruleset(players=2, market="first_game")).without(["smithy", "moat"])
    free = set(space.free().tolist())
    for c, card in enumerate(space.cards):
        genes = set(range(c * space.per_card, (c + 1) * space.per_card))
        assert (genes <= free) == (card not in ("smithy", "moat")) and (genes & free or card in ("smithy", "moat"))
    assert len(space.lower) - 1 in free                       # the trashing thresholds are searched


def test_a_dominion_plan_waits_for_its_deck_size_and_reads_back(tmp_path):
    """The deck-size gene: an entry bought only once the deck owns N cards (`when owned(all) >= N`), in
    the plan file, and read back into the same gene by `point`."""
    from hoc.games.dominion.agents.atlas import AFTER, PER_CARD
    from hoc.games.dominion.agents.bots import parse

    space = space_of(game("dominion").ruleset(players=2, market="first_game"))
    x = space.starts()[0].copy()
    silver = space.cards.index("silver")
    x[silver * PER_CARD + AFTER] = 0.5                        # 20 cards
    entry = next(e for e in space.entries(x)[0] if e["card"] == "silver")
    assert entry["when"] == ["owned(all) >= 20"]
    path = tmp_path / "wait.toml"
    path.write_text(space.text(x, "a wait"))
    assert space.point(parse(path))[silver * PER_CARD + AFTER] == 0.5
    x[silver * PER_CARD + AFTER] = 0.2                        # 8 cards: the starting deck already has 10
    assert "when" not in next(e for e in space.entries(x)[0] if e["card"] == "silver")


def test_the_sweeps_find_a_workshop_and_gardens_rush_from_the_pair_alone(tmp_path):
    """Players' best-known base-set combo: with only Workshop, Gardens and the basic cards, the
    search's card sweeps reach a rush (Workshops, Gardens, Estates, Coppers, ending on piles) that
    beats Big Money nearly always; CMA-ES alone from Big Money did not."""
    from hoc.agents.registry import get
    from hoc.games.dominion.agents.bots import parse

    market = ("workshop", "gardens", "bureaucrat", "chapel", "remodel", "militia", "smithy", "merchant", "vassal",
              "village")
    ruleset = game("dominion").ruleset(players=2, market=market)
    space = space_of(ruleset).without(market[2:])
    s = _of(ruleset, ["workshop", "gardens"], iterations=1, batch=4, seeds=12, pick=3)
    found = search.search(s, space, ["workshop", "gardens"], get("dom_big_money"), 5, Backend(1))
    best = found[0]
    bought = _bought(space, best)
    assert {"workshop", "gardens", "estate", "copper"} <= bought
    path = tmp_path / "rush.toml"
    path.write_text(space.text(best, "the rush"))
    assert parse(path).buy == space.bot(best).buy             # the plan file is the plan searched
    from hoc.research.atlas.measure import measure
    m = measure(space, best[None], (get("dom_big_money"),), 11, 100, 1 << 41, Backend(1), ())
    assert m.fitness[0] > 0.9


def test_a_market_and_its_streams_depend_on_the_run_key_only():
    s = _dominion()
    assert s.market(SCREEN, "witch", "moat", 0) == _dominion().market(SCREEN, "witch", "moat", 0)
    assert s.market(SCREEN, "witch", "moat", 0) != s.market(SCREEN, "witch", "moat", 1)
    assert s.market(SCREEN, "witch", "moat", 0) != s.market(CONFIRM, "witch", "moat", 0)
    assert s.stream(2, SCREEN, "witch", "moat", 0) != s.stream(2, SCREEN, "village", "moat", 0)


def test_a_pair_whose_decks_do_without_it_reads_exactly_zero():
    """When every condition's chosen deck is one plan (nothing gains from the pair), the same-seat
    interaction and both across-seat figures are 0, not noise: the conditions share their decks."""
    # the search climbs only one step from Big Money: no kind of the pair is clearly worth adding
    s = _dominion(iterations=1, batch=2)
    row = pair.run(s, SCREEN, "moat", "gardens", 0)
    if row["plan_both"].split("\n", 1)[1] == row["plan_neither"].split("\n", 1)[1]:
        assert row["same"] == 0.0 and row["same_se"] == 0.0
        assert row["v_both"] == row["v_a"] == row["v_b"] == row["v_neither"]
    # whatever was chosen, no condition's deck buys a kind it bars
    assert "moat" not in row["plan_a"].split("\n", 1)[1] and "gardens" not in row["plan_b"].split("\n", 1)[1]
    assert "moat" not in row["plan_neither"].split("\n", 1)[1]
    assert "gardens" not in row["plan_neither"].split("\n", 1)[1]


def _cards(plan: str) -> list[str]:
    return re.findall(r'card = "(\w+)"', plan.split("\n", 1)[1])


def test_built_decks_are_one_plan_on_the_pair_and_its_knock_outs_against_the_baseline():
    """Under `--measure built` the four decks are one plan that owns the pair (at least `--copies`
    of each) played as it is, without B, without A and without either, against the baseline (the
    best deck found that uses neither): the interaction is what the kinds add to each other in it."""
    s = _dominion(measure="built")
    row = pair.run(s, SCREEN, "village", "smithy", 0)
    assert row["measure"] == "built" and row["reference"] == "baseline" and row["yardstick"] == "basic"
    both = _cards(row["plan_both"])
    assert {"village", "smithy"} <= set(both)
    assert _cards(row["plan_a"]) == [c for c in both if c != "smithy"]
    assert _cards(row["plan_b"]) == [c for c in both if c != "village"]
    assert _cards(row["plan_neither"]) == [c for c in both if c not in ("village", "smithy")]
    assert not {"village", "smithy"} & set(_cards(row["plan_reference"]))
    assert min(row["owns_a_both"], row["owns_b_both"]) >= s.copies == 1
    assert row["owns_b_a"] == 0 and row["owns_a_b"] == 0
    assert row["same_additive"] == pytest.approx(row["v_both"] - row["v_a"] - row["v_b"] + row["v_neither"])
    n = s.measure_seeds * 2                                  # games against the baseline, two a seed
    logit = lambda v: np.log((v * n + 0.5) / (n + 1) / (1 - (v * n + 0.5) / (n + 1)))    # noqa: E731
    predicted = 1 / (1 + np.exp(-(logit(row["v_a"]) + logit(row["v_b"]) - logit(row["v_neither"]))))
    assert row["same"] == pytest.approx(row["v_both"] - predicted)


FESTIVAL_LIBRARY = """game = "dominion"
buy = [
  { card = "province", coins = 8, owned_below = 8 },
  { card = "festival", coins = 5, owned_below = 3 },
  { card = "library", coins = 5, owned_below = 3 },
  { card = "silver", coins = 3, owned_below = 7 },
]
"""


def test_a_repaired_knock_out_fills_the_hole_its_barred_kinds_left_and_keeps_the_kind_it_keeps(tmp_path):
    """A deck built on Festival and Library leaves Gold to them (a plan found by a screen): read with
    their rules idle, the deck without either is Silver and Provinces and almost never wins. The
    repaired knock-out (`--knockouts repaired`) opens the cards the hole needs (Gold, with the best
    guess's rule for it) and wins far more; the one that keeps Festival keeps its rule and its copies."""
    from hoc.agents.registry import get
    from hoc.games.dominion.agents.bots import parse
    from hoc.research.atlas.measure import measure

    market = ("festival", "library", "merchant", "sentry", "smithy", "poacher", "chapel", "remodel", "village", "vassal")
    ruleset = game("dominion").ruleset(players=2, market=market)
    base = space_of(ruleset).without(market[2:])
    path = tmp_path / "festival_library.toml"
    path.write_text(FESTIVAL_LIBRARY)
    x = base.point(parse(path))
    s = _of(ruleset, ["festival", "library"], seeds=12)
    basic = search.yardstick(s, base, market, ruleset)
    neither = base.without(["festival", "library"])
    fixed = search.repaired(s, neither, x, [], basic, 3, Backend(1))
    assert "gold" not in _bought(neither, x) and "gold" in _bought(neither, fixed)
    # ranked where the guess (Big Money) ranks Gold: after Province, which it would otherwise never buy
    order = [e["card"] for e in neither.entries(fixed)[0]]
    assert order.index("province") < order.index("gold") < order.index("silver")
    big_money = (get("dom_big_money"),)
    idle, repaired = (measure(neither, y[None], big_money, 11, 100, 1 << 41, Backend(1), ()).fitness[0] for y in (x, fixed))
    assert idle < 0.1 and repaired > idle + 0.2
    festival = base.without(["library"])
    kept = search.repaired(s, festival, x, ["festival"], basic, 4, Backend(1))
    slot = festival.slots(["festival"])[0] * festival.per_card
    assert np.array_equal(kept[slot:slot + festival.per_card], x[slot:slot + festival.per_card])
    m = measure(festival, kept[None], big_money, 11, 50, 1 << 41, Backend(1), ())
    assert m.copies[0, festival.kinds["festival"]].sum() >= 2.5


def test_a_repair_never_gives_up_the_copies_of_the_kind_its_knock_out_keeps():
    """A deck of Villages without the Smithies they were bought for wins almost never; Silver given the
    guess's rule (bought at 3 coins, before the Villages) wins far more, by more than the copies it then
    lacks cost a search (a screen's run: the Village deck without Smithy read as a deck with no Village).
    The knock-out keeps Village: a repair step may not drop its copies."""
    # the rule: the best step lacking no more than half a copy more than the plan
    assert search._keeping(np.array([0.02, 0.79, 0.3]), np.array([0.0, 3.0, 0.4])) == 2
    assert search._keeping(np.array([0.02, 0.79]), np.array([1.0, 1.2])) == 1
    # the run that showed it (the documented Dominion screen's, on today's defaults)
    kinds = "workshop,gardens,festival,library,militia,moat,witch,smithy,village,throne_room".split(",")
    s = _of(game("dominion").ruleset(players=2), kinds, confirm=18, copies=3, measure="combined",
                    across="built", knockouts="repaired")
    row = pair.run(s, CONFIRM, "smithy", "village", 1)
    assert row["owns_b_both"] >= 2.5 and row["owns_b_b"] >= row["owns_b_both"] - 0.5


def test_repaired_knock_outs_buy_no_barred_kind_and_are_read_as_the_idle_ones_are():
    """`--knockouts repaired`: the deck with both and its knock-outs, each swept, still own what their
    condition keeps and nothing it bars, and the figure is read from the four decks' shares as before."""
    s = _dominion(measure="built", knockouts="repaired")
    row = pair.run(s, SCREEN, "village", "smithy", 0)
    assert "smithy" not in _cards(row["plan_a"]) and "village" not in _cards(row["plan_b"])
    assert not {"village", "smithy"} & set(_cards(row["plan_neither"]))
    assert row["owns_b_a"] == row["owns_a_b"] == row["owns_a_neither"] == row["owns_b_neither"] == 0
    assert row["owns_a_a"] > 0 and row["owns_b_b"] > 0
    assert row["same_additive"] == pytest.approx(row["v_both"] - row["v_a"] - row["v_b"] + row["v_neither"])


def test_two_kinds_whose_effects_add_on_the_log_odds_scale_read_no_combo():
    """Decks built on two weak kinds sit far below one half: each kind alone halves the deck's odds
    (0.5 to 0.25 against the baseline) and both together quarter them (0.1). On the share scale
    `0.1 - 0.25 - 0.25 + 0.5` reads +10 points; `beyond_log_odds` reads no interaction, and it does
    read one the deck with both has beyond that."""
    rng = np.random.default_rng(3)
    n = 4000
    seeds = lambda p: (rng.random((n, 2)) < p).mean(1)        # noqa: E731 (two games a seed)
    expit = lambda x: 1 / (1 + np.exp(-x))                    # noqa: E731
    both = expit(2 * np.log(0.25 / 0.75))
    shares = [seeds(both), seeds(0.25), seeds(0.25), seeds(0.5)]
    assert shares[0].mean() - shares[1].mean() - shares[2].mean() + shares[3].mean() > 0.08
    estimate, se = pair.beyond_log_odds(shares, 2, rng)
    assert abs(estimate) < 3 * se + 0.005 and se < 0.01
    combo = [seeds(both + 0.1), *shares[1:]]
    estimate, se = pair.beyond_log_odds(combo, 2, rng)
    assert estimate == pytest.approx(0.1, abs=3 * se) and estimate - 3 * se > 0.05


def test_a_deck_built_on_the_pair_with_more_copies_asked_owns_more_of_each_and_is_another_screen():
    """`--copies 3`: the deck built on the pair is the strongest found owning 3 copies of each kind (a
    plan short of them counts less), so the engine's parts are there to knock out; the default (one
    copy) stays out of the identity, so folders made before the option resume."""
    committed = _dominion(measure="built", copies=3)
    row = pair.run(committed, SCREEN, "village", "smithy", 0)
    assert min(row["owns_a_both"], row["owns_b_both"]) >= 2.5
    # a plan owning one of each (card ids 0 and 1) lacks nothing by default and 2 + 2 copies of 3
    copies, ids = np.array([[1.0, 1.0, 4.0], [3.0, 3.5, 0.0]]), [np.array([0]), np.array([1])]
    assert search._short(copies, ids, 1.0).tolist() == [0.0, 0.0]
    assert search._short(copies, ids, 3.0).tolist() == [4.0, 0.0]
    assert "copies" not in _dominion(measure="built").identity()
    assert committed.identity()["copies"] == 3
    # the knock-outs idle (as every folder before `--knockouts`) stay out of the identity too
    assert "knockouts" not in committed.identity()
    assert _dominion(measure="built", knockouts="repaired").identity()["knockouts"] == "repaired"


def test_the_offered_measure_keeps_the_identity_of_older_screens():
    """A screen's folder made before `--measure` existed resumes under the default; a built screen is
    another screen."""
    assert "measure" not in _dominion().identity()
    assert _dominion(measure="built").identity()["measure"] == "built"
    with pytest.raises(Exception, match="--measure must be one of"):
        _dominion(measure="both")


def test_the_combined_measure_reads_the_same_seat_as_built_and_across_seats_as_offered():
    """`combined` (the command's default): a screen run measures the same seat on a deck built on the
    pair (the built run's figures exactly, same streams) and across seats on the strongest decks that
    may use each kind (searched apart, `across_*`); a same-seat follow-up measures only the same seat
    and an across-seat follow-up only across seats, each in markets of its own."""
    s, built = _dominion(measure="combined"), _dominion(measure="built")
    assert s.parts(SCREEN) == ("built", True) and s.parts(CONFIRM) == ("built", False) and s.parts(ACROSS) == (None, True)
    assert _dominion().parts(CONFIRM) == ("offered", True) and built.parts(CONFIRM) == ("built", False)
    assert len({s.market(stage, "witch", "moat", 0) for stage in (SCREEN, CONFIRM, ACROSS)}) == 3
    row = pair.run(s, SCREEN, "witch", "moat", 0)
    alone = pair.run(built, SCREEN, "witch", "moat", 0)
    for field in ("same", "same_se", "same_additive", "v_both", "v_neither", "plan_both", "plan_reference"):
        assert row[field] == alone[field]
    assert row["cross_a"] is not None and row["cross_b"] is not None and alone["cross_a"] is None
    assert row["across_yardstick"] == "dom_big_money" and row["yardstick"] == "basic"
    assert "moat" not in row["across_plan_a"].split("\n", 1)[1] and "witch" not in row["across_plan_b"].split("\n", 1)[1]
    counter = pair.run(s, ACROSS, "witch", "moat", 0)
    assert counter["same"] is None and counter["cross_a"] is not None and "plan_both" not in counter
    same = pair.run(s, CONFIRM, "witch", "moat", 0)
    assert same["same"] is not None and same["cross_a"] is None and "across_plan_a" not in same


def test_across_built_answers_decks_built_on_each_kind_with_responses_barred_from_that_kind():
    """`--across built`: the across-seat figure answers the deck built on each kind (owning a copy of it,
    the other barred) and the baseline; the responses to A's deck may use B or nothing of the pair, and
    every matchup is measured; the same-seat figures stay `built`'s (same streams); a kind whose
    responses never differ reads exactly 0 across."""
    s = _dominion(measure="combined", across="built")
    row = pair.run(s, ACROSS, "witch", "moat", 0)
    assert row["same"] is None and row["across_yardstick"] == "basic"
    assert "moat" not in row["across_plan_a"].split("\n", 1)[1] and "witch" not in row["across_plan_b"].split("\n", 1)[1]
    assert "witch" in row["across_plan_a"].split("\n", 1)[1] and "moat" in row["across_plan_b"].split("\n", 1)[1]
    for response, target in (("b", "a"), ("neither", "a"), ("a", "b"), ("neither", "b"), ("a", "neither"),
                             ("b", "neither"), ("neither", "neither")):
        assert 0 <= row[f"across_r_{response}_{target}"] <= 1
    assert row["across_owns_a_b_a"] == 0 and row["across_owns_b_a_b"] == 0     # never the target's own kind
    for side, response, target in (("a", "b", "a"), ("b", "a", "b")):
        if row[f"across_r_{response}_{target}"] == row[f"across_r_neither_{target}"] \
                and row[f"across_r_{response}_neither"] == row["across_r_neither_neither"]:
            assert row[f"cross_{side}"] == 0.0                  # the kind never changed a response
    screen_row = pair.run(s, SCREEN, "witch", "moat", 0)
    alone = pair.run(_dominion(measure="built"), SCREEN, "witch", "moat", 0)
    assert screen_row["same"] == alone["same"] and screen_row["cross_a"] is not None
    assert s.identity()["across"] == "built" and "across" not in _dominion(measure="combined").identity()
    with pytest.raises(Exception, match="--across built needs --measure combined"):
        _dominion(measure="offered", across="built")


def test_across_built_searches_each_kinds_decks_once_for_all_its_pairs(tmp_path):
    """`--across built`: the deck built on a kind, the responses to it that use no kind of the pair and
    those to the baseline that may use the kind are searched once per kind (`decks.jsonl`, the baseline
    first), so every pair with Witch answers the same Witch deck; a run of a pair gives the same row
    from the screen's decks, played apart, or in parallel, and a resumed screen plays nothing again."""
    s = _of(game("dominion").ruleset(players=2), KINDS[1:4], **{**TINY, "confirm": 0},
                    measure="combined", across="built")
    rows = screen.run(s, tmp_path / "serial", Backend(1), progress=lambda _: None)
    decks = screen.load(tmp_path / "serial", screen.DECKS)
    assert [d["kind"] for d in decks] == ["", "smithy", "witch", "moat"] and all(d["seconds"] > 0 for d in decks)
    assert all(len(d["responses"]) == s.pick and len(d["with_kind"]) == s.pick for d in decks[1:])
    by = {(r["a"], r["b"]): r for r in rows}
    body = lambda text: text.split("\n", 1)[1]         # noqa: E731  (the header names the pair)
    assert body(by["smithy", "witch"]["across_plan_b"]) == body(by["witch", "moat"]["across_plan_a"])
    assert "witch" in body(by["witch", "moat"]["across_plan_a"])
    assert body(by["smithy", "witch"]["across_plan_neither"]) == body(by["witch", "moat"]["across_plan_neither"])
    alone = pair.run(s, SCREEN, "witch", "moat", 0)
    assert json.dumps({**by["witch", "moat"], "seconds": 0}) == json.dumps({**alone, "seconds": 0})
    parallel = screen.run(s, tmp_path / "parallel", Backend(2), progress=lambda _: None)
    assert sorted(json.dumps({**r, "seconds": 0}) for r in parallel) == sorted(json.dumps({**r, "seconds": 0}) for r in rows)
    lines = [(tmp_path / "serial" / f).read_text() for f in (screen.RUNS, screen.DECKS)]
    screen.run(s, tmp_path / "serial", Backend(1), progress=lambda _: None)
    assert [(tmp_path / "serial" / f).read_text() for f in (screen.RUNS, screen.DECKS)] == lines


def test_a_combined_screen_follows_up_each_family_apart():
    """Under `combined` a pair chosen by the same-seat tables runs CONFIRM replicates, one chosen by
    the across-seat table ACROSS replicates (a pair chosen by both runs both); under a single measure
    one run serves both."""
    chosen = {"same": [("village", "smithy"), ("witch", "moat")], "across": [("witch", "moat"), ("moat", "gardens")]}
    tasks = _dominion(measure="combined").follow_ups(chosen)
    assert sorted({(t[0], t[1], t[2]) for t in tasks}) == sorted(
        [(CONFIRM, "village", "smithy"), (CONFIRM, "witch", "moat"), (ACROSS, "witch", "moat"),
         (ACROSS, "moat", "gardens")])
    assert len(tasks) == 4 * 3                                  # replicates each
    offered = _dominion().follow_ups(chosen)
    assert {t[0] for t in offered} == {CONFIRM} and len(offered) == 3 * 3


def test_a_combined_screens_confirmations_are_read_from_their_own_family():
    """A planted combo read from the same-seat follow-ups and a planted counter from the across-seat
    ones; neither family's runs dilute the other's replicates."""
    s = _of(game("heart_of_crown").ruleset(players=2), None, confirm=6, replicates=8, measure="combined")
    rng = np.random.default_rng(8)
    combo, counter = s.pairs()[10], s.pairs()[200]

    def row(stage, a, b, r):
        same, across = s.parts(stage)
        out = {"stage": stage, "a": a, "b": b, "replicate": r, "market": ""}
        out["same"] = float((a, b) == combo) * 0.08 + rng.normal(0, 0.02) if same else None
        out["same_se"] = 0.02 if same else None
        for m in ("cross_a", "cross_b"):
            out[m] = (-0.08 * ((a, b) == counter and m == "cross_a") + rng.normal(0, 0.02)) if across else None
            out[f"{m}_se"] = 0.02 if across else None
        return out
    rows = [row(SCREEN, a, b, 0) for a, b in s.pairs()]
    chosen = analysis.followed_up_by_family(s, analysis.screen_frame(rows))
    assert combo in chosen["same"] and counter in chosen["across"]
    rows += [row(*t) for t in s.follow_ups(chosen)]
    frame = analysis.pairs_frame(s, rows).set_index(["a", "b"])
    assert frame.loc[combo, "same_confirmed"] and frame.loc[combo, "same_replicates"] == 8
    assert frame.loc[counter, "cross_a_confirmed"] and frame.loc[counter, "cross_a_replicates"] == 8
    assert frame.loc[counter, "same_replicates"] == (8 if counter in chosen["same"] else 0)


def _run_key(row: dict) -> tuple:
    """A run's place in a screen: (stage, a, b, replicate)."""
    return row["stage"], row["a"], row["b"], row["replicate"]


def test_serial_and_parallel_screens_and_a_resumed_one_give_the_same_runs(tmp_path):
    s = _of(game("dominion").ruleset(players=2), KINDS[:3], **{**TINY, "confirm": 0})
    a = screen.run(s, tmp_path / "serial", Backend(1), progress=lambda _: None)
    b = screen.run(s, tmp_path / "parallel", Backend(2), progress=lambda _: None)
    assert all(r["seconds"] > 0 for r in a + b)        # each run's core time, the one figure that may differ
    a, b = ([{k: v for k, v in r.items() if k != "seconds"} for r in rows] for rows in (a, b))
    assert sorted(map(json.dumps, a)) == sorted(map(json.dumps, b))
    # an interruption mid-line: the cut run is played again, the others are kept
    path = tmp_path / "serial" / screen.RUNS
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][:30])
    c = [{k: v for k, v in r.items() if k != "seconds"}
         for r in screen.run(s, tmp_path / "serial", Backend(1), progress=lambda _: None)]
    assert sorted(c, key=_run_key) == sorted(a, key=_run_key)
    assert len(path.read_text().splitlines()) == len(a)
    with pytest.raises(Exception, match="other settings"):
        screen.run(_of(game("dominion").ruleset(players=2), KINDS[:3], **{**TINY, "seed": 1}), tmp_path / "serial", Backend(1), progress=lambda _: None)


def test_a_finished_screen_resumed_with_more_follow_ups_plays_only_the_new_runs(tmp_path):
    ruleset = game("dominion").ruleset(players=2)
    first = _of(ruleset, KINDS[:4], **{**TINY, "confirm": 1, "replicates": 2})
    deeper = _of(ruleset, KINDS[:4], **{**TINY, "confirm": 3, "replicates": 3})
    assert first.identity() == deeper.identity()         # the follow-up depth is not the folder's identity
    said = []
    a = screen.run(first, tmp_path, Backend(1), progress=said.append)
    # while it screens, a screen says how many runs may follow it (6 pairs, 1 a table, 2 markets each)
    assert "screen: 6 runs of a pair to play, then up to 6 runs following up the top pairs in fresh markets" in said
    confirming = [line for line in said if line.startswith("confirmation of")]
    assert int(confirming[0].split(": ")[1].split()[0]) <= first.most_follow_ups()
    b = screen.run(deeper, tmp_path, Backend(1), progress=lambda _: None)
    new = {_run_key(r) for r in b} - {_run_key(r) for r in a}
    assert {_run_key(r): r for r in b if _run_key(r) not in new} == {_run_key(r): r for r in a}    # the first runs kept as they are
    chosen = analysis.followed_up_by_family(deeper, analysis.screen_frame(b))
    assert {_run_key(r) for r in b if r["stage"] != SCREEN} == set(deeper.follow_ups(chosen))
    assert new and len((tmp_path / screen.RUNS).read_text().splitlines()) == len(b)    # nothing played twice


def _synthetic(settings, effect: dict, rng, noise=0.03):
    """Runs of every pair (screen) and of the pairs the screen follows up (confirmation), each figure
    the planted effect plus noise: the analysis alone, without games."""
    def row(stage, a, b, r):
        e = effect.get((a, b), 0.0)
        return {"stage": stage, "a": a, "b": b, "replicate": r, "market": "", **{
            m: float(e * (m == "same") + rng.normal(0, noise)) for m in analysis.MEASURES},
            **{f"{m}_se": noise for m in analysis.MEASURES}}
    rows = [row(SCREEN, a, b, 0) for a, b in settings.pairs()]
    chosen = list(dict.fromkeys(sum(analysis.followed_up_by_family(settings, analysis.screen_frame(rows)).values(), [])))
    rows += [row(CONFIRM, a, b, r) for a, b in chosen for r in range(settings.replicates)]
    return rows


def _waves(settings, effect: dict, rng, noise=0.03, stop=None):
    """The screen and its follow-ups wave after wave as `screen.run` plays them, each figure the planted
    same-seat effect plus noise; the depth each wave reached. `stop`: the waves played at most."""
    def row(stage, a, b, r):
        e = effect.get((a, b), 0.0)
        return {"stage": stage, "a": a, "b": b, "replicate": r, "market": "", **{
            m: float(e * (m == "same") + rng.normal(0, noise)) for m in analysis.MEASURES},
            **{f"{m}_se": noise for m in analysis.MEASURES}}
    rows = [row(SCREEN, a, b, 0) for a, b in settings.pairs()]
    depth, reached = analysis.first_wave(settings), []
    while True:
        held = {_run_key(r) for r in rows}
        chosen = analysis.followed_up_by_family(settings, analysis.screen_frame(rows), depth)
        rows += [row(*t) for t in settings.follow_ups(chosen) if t not in held]
        reached.append(depth)
        more = analysis.deeper(settings, rows, depth)
        if more == depth or len(reached) == stop:
            return rows, reached
        depth = more


def test_a_table_follows_up_its_next_pairs_only_where_half_of_its_last_wave_was_confirmed():
    """Fourteen planted combos among 465 pairs: the combos' first wave of six confirms them all, so
    does the second, and the third is the last allowed; the weaker and the across-seat tables, pure
    noise, confirm under half of their first wave and stop there."""
    s = _of(game("heart_of_crown").ruleset(players=2), None, confirm=6, replicates=4, waves=3)
    planted = {p: 0.15 for p in s.pairs()[100:114]}
    rows, reached = _waves(s, planted, np.random.default_rng(2))
    assert [d["combos"] for d in reached] == [6, 12, 18]
    assert all(d["weaker"] == d["counters"] == 6 for d in reached)
    frame = analysis.pairs_frame(s, rows).set_index(["a", "b"])
    assert all(frame.loc[p, "same_confirmed"] for p in planted)
    assert frame["same_confirmed"].sum() <= len(planted) + 2
    assert analysis.depths(s, rows) == reached[-1]
    # a folder cut in the third wave (its pairs' last replicates missing): its depth is the second's
    third = set(analysis.rankings(analysis.screen_frame(rows))["combos"][12:18])
    cut = [r for r in rows if r["stage"] == SCREEN or r["replicate"] != 3 or (r["a"], r["b"]) not in third]
    assert len(cut) < len(rows) and analysis.depths(s, cut)["combos"] == 12


def test_pure_noise_rarely_follows_up_a_second_wave_and_confirms_nothing_most_of_the_time():
    """A wave of six that confirmed none stops its table; one false confirmation of six cannot show the
    ranking ran dry, so a screen of noise now and then plays a second wave, and the false-discovery
    control holds over both."""
    s = _of(game("heart_of_crown").ruleset(players=2), None, confirm=6, replicates=4, waves=2)
    rng = np.random.default_rng(6)
    deeper = false = 0
    for _ in range(40):
        rows, reached = _waves(s, {}, rng)
        deeper += len(reached) > 1
        false += analysis.pairs_frame(s, rows)[["same_confirmed", "cross_a_confirmed", "cross_b_confirmed"]].to_numpy().any()
    assert deeper / 40 <= 0.25 and false / 40 <= 2 * s.fdr + 0.05


def test_a_wave_stops_its_table_only_where_under_half_of_it_was_confirmed_beyond_doubt():
    assert not analysis.ran_dry(7, 15) and not analysis.ran_dry(4, 15) and analysis.ran_dry(3, 15)
    assert analysis.ran_dry(11, 46) and analysis.ran_dry(16, 46) and not analysis.ran_dry(17, 46)
    assert analysis.ran_dry(0, 6) and not analysis.ran_dry(1, 6)
    assert not analysis.ran_dry(0, 1)           # one pair cannot show a ranking ran dry
    assert not analysis.ran_dry(46, 46) and not analysis.ran_dry(23, 46)


@pytest.mark.parametrize("real, deeper", [(7, True), (3, False)])
def test_a_small_screens_table_whose_first_wave_confirmed_7_of_15_follows_up_the_next_15(real, deeper):
    """Ten kinds, 15 pairs a table: the combos ranking's first wave holds `real` planted combos (figures
    far beyond their noise), the rest nothing; 7 of 15 may be a ranking still half full, 3 of 15 is
    not."""
    s = _of(game("dominion").ruleset(players=2), ["workshop", "gardens", "festival", "library", "militia", "moat",
                                                  "witch", "smithy", "village", "throne_room"],
            confirm=15, replicates=4, waves=2)
    rng = np.random.default_rng(3)
    pairs = s.pairs()
    screened = dict(zip(pairs, np.linspace(0.3, -0.3, len(pairs))))   # the screen's ranking: the list's order
    rows = [{"stage": SCREEN, "a": a, "b": b, "replicate": 0, "market": "",
             **{m: float(screened[(a, b)] * (m == "same")) for m in analysis.MEASURES},
             **{f"{m}_se": 0.01 for m in analysis.MEASURES}} for a, b in pairs]
    depth = analysis.first_wave(s)
    assert analysis.rankings(analysis.screen_frame(rows))["combos"][:15] == pairs[:15]
    planted = set(pairs[:real])
    chosen = analysis.followed_up_by_family(s, analysis.screen_frame(rows), depth)
    rows += [{"stage": stage, "a": a, "b": b, "replicate": r, "market": "",
              **{m: float(0.2 * ((a, b) in planted and m == "same") + rng.normal(0, 0.01)) for m in analysis.MEASURES},
              **{f"{m}_se": 0.01 for m in analysis.MEASURES}} for stage, a, b, r in s.follow_ups(chosen)]
    assert analysis.deeper(s, rows, depth)["combos"] == (30 if deeper else 15)


def test_the_false_discovery_control_confirms_nothing_on_pure_noise_most_of_the_time():
    s = _of(game("heart_of_crown").ruleset(players=2), None, confirm=6, replicates=4)
    assert len(s.pairs()) == 465
    rng = np.random.default_rng(5)
    runs = 100
    any_false = sum(analysis.pairs_frame(s, _synthetic(s, {}, rng))[["same_confirmed", "cross_a_confirmed",
                                                                        "cross_b_confirmed"]].to_numpy().any()
                    for _ in range(runs))
    # under the null, BH at q over the pairs followed up keeps the chance of any false confirmation
    # at most q per family (two families)
    assert any_false / runs <= 2 * s.fdr + 0.05


def test_a_planted_combo_is_confirmed_and_few_of_the_other_pairs_are():
    s = _of(game("heart_of_crown").ruleset(players=2), None, confirm=6, replicates=4)
    planted = s.pairs()[17]
    frame = analysis.pairs_frame(s, _synthetic(s, {planted: 0.15}, np.random.default_rng(1)))
    same = analysis.estimate(frame, "same")
    hit = same[(same.a == planted[0]) & (same.b == planted[1])].iloc[0]
    assert hit.confirmed and hit.lo > 0.05 and hit.stage == CONFIRM
    # the other 16 pairs followed up are noise: at q = 0.1 a false discovery beside the true one may
    # happen, several would mean the control is broken
    assert same["confirmed"].sum() <= 2 and (same["stage"] == CONFIRM).sum() > 10


def _leaning(settings, lean, effect: dict, rng, shuffle=False, spread=0.0, noise=0.02):
    """Runs of a measure that leans as a whole: every pair's true interaction `lean` (drawn around
    it with `spread`), plus the planted `effect`s; under `shuffle` a confirmation run of a label
    plays a random pair, as `--shuffle-labels` does."""
    pairs = settings.pairs()
    true = {p: lean + rng.normal(0, spread) + effect.get(p, 0.0) for p in pairs}

    def row(stage, label, r):
        played = pairs[rng.integers(len(pairs))] if shuffle and stage == CONFIRM else label
        return {"stage": stage, "a": label[0], "b": label[1], "replicate": r, "market": "",
                "same": float(true[played] + rng.normal(0, noise)), "same_se": noise,
                "cross_a": None, "cross_a_se": None, "cross_b": None, "cross_b_se": None}
    rows = [row(SCREEN, p, 0) for p in pairs]
    chosen = list(dict.fromkeys(sum(analysis.followed_up_by_family(settings, analysis.screen_frame(rows)).values(), [])))
    return rows + [row(CONFIRM, p, r) for p in chosen for r in range(settings.replicates)]


def test_shuffled_labels_of_a_measure_that_leans_as_a_whole_are_not_confirmed():
    """Under `built` every pair leans negative (a deck made to own two kinds gives up buys to them):
    tested against 0, each shuffled label's mean (the lean) would be "weaker together"; against the
    screen's typical pair, false confirmations stay within the false-discovery rate."""
    s = _of(game("heart_of_crown").ruleset(players=2), None, confirm=6, replicates=8, measure="built")
    rng = np.random.default_rng(3)
    false, runs = 0, 40
    for _ in range(runs):
        # pairs differ (spread 0.02), but a label names no consistent pair
        frame = analysis.pairs_frame(s, _leaning(s, -0.03, {}, rng, shuffle=True, spread=0.02))
        assert abs(frame["same_background"].iloc[0] + 0.03) < 0.01
        raw = frame["same_confirm_raw"].dropna()
        assert (raw < 0).mean() > 0.9                     # the raw means lean, as in a real built screen
        false += bool(frame["same_confirmed"].any())
    assert false / runs <= s.fdr + 0.05


def test_a_combo_on_a_leaning_background_reads_beyond_the_typical_pair():
    s = _of(game("heart_of_crown").ruleset(players=2), None, confirm=6, replicates=8, measure="built")
    planted = s.pairs()[40]
    frame = analysis.pairs_frame(s, _leaning(s, -0.03, {planted: 0.06}, np.random.default_rng(4)))
    same = analysis.estimate(frame, "same")
    hit = same[(same.a == planted[0]) & (same.b == planted[1])].iloc[0]
    # its raw mean is about +0.03; beyond the typical pair (-0.03) it is the planted +0.06
    assert hit.confirmed and hit.stage == CONFIRM and abs(hit.estimate - 0.06) < 0.025 and hit.lo > 0
    assert same["confirmed"].sum() <= 2


def test_a_screen_of_few_pairs_is_tested_against_zero_and_says_so():
    s = _of(game("dominion").ruleset(players=2), ["village", "smithy", "moat", "witch"], confirm=2,
                    replicates=4, measure="built")
    frame = analysis.pairs_frame(s, _leaning(s, -0.03, {}, np.random.default_rng(5)))
    assert (frame["same_background"] == 0).all() and (frame["same_background_se"] == 0).all()
    assert "same seat 0 (6 figures are too few to estimate it" in report._reading(s, frame)


def test_a_report_drops_the_decks_of_a_pair_no_longer_confirmed(tmp_path):
    s = _of(game("heart_of_crown").ruleset(players=2), None, confirm=6, replicates=8, measure="built")
    rows = _leaning(s, -0.03, {}, np.random.default_rng(6))
    frame = analysis.pairs_frame(s, rows).assign(same_confirmed=False)      # this rendering confirms none
    (tmp_path / "plans").mkdir()
    (tmp_path / "plans" / "bank+royal_guard_both.toml").write_text("an earlier rendering's deck")
    (tmp_path / "plans" / "mine.toml").write_text("a user's own file")
    report.plans(s, frame, rows, tmp_path / "plans")
    assert [p.name for p in (tmp_path / "plans").iterdir()] == ["mine.toml"]


def test_the_pairs_followed_up_grow_with_the_screen_and_a_small_screen_follows_up_up_to_a_third():
    """One in ten of a full screen's pairs; a small screen's ranking is one market a pair, so up to a
    third of its pairs (at most 15), never fewer than 6."""
    hoc = game("heart_of_crown").ruleset(players=2)
    assert Settings.of(hoc, None).confirm == 46                 # 465 pairs
    assert Settings.of(hoc, ["library", "post_horse", "alchemist", "trading_ship"]).confirm == 6
    seven = ["library", "post_horse", "alchemist", "trading_ship", "supply_unit", "stargazing_witch", "donation"]
    assert Settings.of(hoc, seven).confirm == 7                 # 21 pairs: a third
    dominion = game("dominion").ruleset(players=2)
    assert Settings.of(dominion, KINDS).confirm == 6            # 10 pairs: at least 6
    ten = ["workshop", "gardens", "festival", "library", "militia", "moat", "witch", "smithy", "village", "throne_room"]
    assert Settings.of(dominion, ten).confirm == 15             # 45 pairs: a third
    assert Settings.of(dominion, None).confirm == 32            # 325 pairs: one in ten
    assert Settings.of(hoc, None, confirm=3).confirm == 3


@pytest.mark.parametrize("measure,across,knockouts", [("offered", "offered", "idle"), ("built", "offered", "idle"),
                                                      ("combined", "offered", "idle"), ("combined", "built", "idle"),
                                                      ("combined", "built", "repaired")])
def test_a_screen_on_shuffled_labels_confirms_no_pair(tmp_path, measure, across, knockouts):
    """The null check of the issue: every run plays a random pair, so a label names no consistent
    pair and nothing may be confirmed, although the screen follows pairs up."""
    # searches a little stronger than TINY's, on kinds whose decks use them (two terminal attacks, a
    # terminal draw and the defence), so that the screen has non-zero pairs to follow up
    s = _of(game("dominion").ruleset(players=2), ["smithy", "witch", "militia", "moat"],
                    **{**TINY, "iterations": 3, "batch": 4, "seeds": 4, "confirm": 1, "shuffle": True,
                       "pick_seeds": 40, "measure_seeds": 24, "measure": measure, "across": across,
                       "knockouts": knockouts})
    rows = screen.run(s, tmp_path, Backend(1), progress=lambda _: None)
    assert any(r["stage"] in (CONFIRM, ACROSS) for r in rows)
    assert any((r["played_a"], r["played_b"]) != (r["a"], r["b"]) for r in rows)
    frame = analysis.pairs_frame(s, rows)
    assert not frame[["same_confirmed", "cross_a_confirmed", "cross_b_confirmed"]].to_numpy().any()


def test_hoc_combos_prints_json_pairs_and_writes_its_report(capsys, tmp_path):
    argv = ["combos", "--game", "dominion", "--kinds", "village,smithy,moat", "--iterations", "1", "--batch", "2",
            "--seeds", "2", "--pick", "1", "--pick-seeds", "4", "--measure-seeds", "8", "--confirm", "1",
            "--replicates", "2", "--out", str(tmp_path), "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert {(p["a"], p["b"]) for p in out["pairs"]} == {("village", "smithy"), ("village", "moat"), ("smithy", "moat")}
    assert all({"a", "b", "estimate", "lo", "hi", "confirmed"} <= set(p) for p in out["pairs"] + out["across"])
    assert len(out["across"]) == 6                      # every pair both ways
    assert out["background"] == {"same": 0.0, "across": 0.0}      # 3 pairs: too few to estimate it
    for name in ("summary.md", "pairs.parquet", "combos.png", "runs.jsonl"):
        assert (tmp_path / name).exists()
    summary = (tmp_path / "summary.md").read_text()
    # wall time of the sessions that played its runs (one here), core time of all
    assert "min of wall time over 1 session (" in summary and "min of one core's time)" in summary
    # the default measure, across-seat decks and planner, written into the command that reproduces the screen
    # and Dominion's decks built on a kind owning three copies by default (its plan space's)
    assert "--measure combined --across built --copies 3 --knockouts repaired --no-planner" in out["command"]
    assert out["measure"] == "combined" and "owning at least 3 copies of each kind" in summary
    assert out["across_decks"] == "built"
    assert (tmp_path / screen.DECKS).exists()           # the decks built on each kind, searched once
    # the same command again resumes: nothing left to play, the same answer, and no session recorded
    # (one that played nothing took none of the screen's time)
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["pairs"] == out["pairs"]
    assert (tmp_path / "summary.md").read_text() == summary


def test_a_screen_over_several_sessions_says_its_wall_time_in_all_and_what_no_session_recorded(tmp_path, monkeypatch):
    """Each session that plays a run adds a line (an interrupted one too); one that plays nothing adds
    none; runs no recorded session played (a folder made before the record) are named, not hidden."""
    s = _of(game("dominion").ruleset(players=2), KINDS[:3], **{**TINY, "confirm": 1, "replicates": 2, "waves": 1})

    def run(settings, stage, a, b, replicate, decks=None):
        if interrupt and (stage, a, b, replicate) == interrupt:
            raise KeyboardInterrupt
        return {"stage": stage, "a": a, "b": b, "replicate": replicate, "market": "",
                **{m: 0.0 for m in analysis.MEASURES}, **{f"{m}_se": 0.01 for m in analysis.MEASURES}}
    monkeypatch.setattr(pair, "run", run)
    interrupt = (SCREEN, *s.pairs()[2], 0)
    with pytest.raises(KeyboardInterrupt):
        screen.run(s, tmp_path, Backend(1), progress=lambda _: None)
    assert screen.sessions(tmp_path)[1:] == (1, 0)              # the interrupted session, its two runs
    interrupt = None
    rows = screen.run(s, tmp_path, Backend(1), progress=lambda _: None)
    wall, count, unrecorded = screen.sessions(tmp_path)
    assert (count, unrecorded) == (2, 0) and wall >= 0
    lines = [json.loads(x) for x in (tmp_path / screen.SESSIONS).read_text().splitlines()]
    assert [(x["before"], x["added"]) for x in lines] == [(0, 2), (2, len(rows) - 2)]
    screen.run(s, tmp_path, Backend(1), progress=lambda _: None)      # nothing left to play: no line
    assert screen.sessions(tmp_path)[1] == 2
    report.write(s, rows, tmp_path, "combos ...")
    assert f"{wall / 60:.1f} min of wall time over 2 sessions" in (tmp_path / "summary.md").read_text()
    # a folder whose first session predates the record: its runs are named, not counted as none
    (tmp_path / screen.SESSIONS).write_text(json.dumps(lines[1]) + "\n")
    assert screen.sessions(tmp_path)[1:] == (1, 2)
    report.write(s, rows, tmp_path, "combos ...")
    assert "over 1 session, the sessions of its other 2 runs not recorded (" in (
        tmp_path / "summary.md").read_text()


def test_hoc_combos_stopped_by_sigterm_records_its_session_and_says_how_to_go_on(capsys, tmp_path, monkeypatch):
    """A cluster's scheduler ends a job with SIGTERM: the command stops as on Ctrl-C (exit 130), its
    finished runs and its session's time kept, and the same command then goes on from them."""
    import os
    import signal

    played = []

    def run(settings, stage, a, b, replicate, decks=None):
        played.append((stage, a, b, replicate))
        if len(played) == 2 and not (tmp_path / screen.SESSIONS).exists():
            os.kill(os.getpid(), signal.SIGTERM)
        return {"stage": stage, "a": a, "b": b, "replicate": replicate, "market": "",
                **{m: 0.0 for m in analysis.MEASURES}, **{f"{m}_se": 0.01 for m in analysis.MEASURES}}
    monkeypatch.setattr(pair, "run", run)
    argv = ["combos", "--game", "dominion", "--kinds", "village,smithy,moat", "--measure", "built", "--confirm", "0",
            "--out", str(tmp_path)]
    before = signal.getsignal(signal.SIGTERM)
    assert main(argv) == 130
    assert "interrupted:" in capsys.readouterr().out
    assert len(screen.load(tmp_path)) == 1 and screen.sessions(tmp_path)[1:] == (1, 0)
    assert signal.getsignal(signal.SIGTERM) is before          # the command's handler lasts the screen only
    assert main(argv) == 0
    assert len(screen.load(tmp_path)) == 3 and screen.sessions(tmp_path)[1:] == (2, 0)


def test_the_market_context_answers_the_strongest_decks_across_seats_and_says_so(capsys, tmp_path):
    """`--across built` needs the `pair` context (a deck built on one kind is searched once for all its
    pairs); with `--context market` the default is `offered`, written into the command."""
    argv = ["combos", "--game", "dominion", "--kinds", "village,smithy", "--context", "market", "--iterations", "1",
            "--batch", "2", "--seeds", "2", "--pick", "1", "--pick-seeds", "4", "--measure-seeds", "8",
            "--confirm", "0", "--out", str(tmp_path), "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert "--measure combined --across offered" in out["command"] and out["across_decks"] == "offered"
    assert not (tmp_path / screen.DECKS).exists()


def test_a_built_screen_prints_its_pairs_without_across_seat_figures(capsys, tmp_path):
    argv = ["combos", "--game", "dominion", "--kinds", "village,smithy", "--measure", "built", "--iterations", "1",
            "--batch", "2", "--seeds", "2", "--pick", "1", "--pick-seeds", "4", "--measure-seeds", "8",
            "--confirm", "1", "--replicates", "2", "--copies", "2", "--out", str(tmp_path), "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["measure"] == "built" and out["across"] == [] and out["background"] == {"same": 0.0}
    assert [(p["a"], p["b"]) for p in out["pairs"]] == [("village", "smithy")]
    summary = (tmp_path / "summary.md").read_text()
    assert "not measured under `--measure built`" in summary and "--measure built" in summary
    # the copies asked, in the command that reproduces the screen and in what it says it measured
    assert "--copies 2 " in out["command"] and "owning at least 2 copies of each kind of the pair" in summary


def test_the_copies_a_deck_built_on_a_kind_owns_default_to_the_games_own_and_the_command_says_them():
    """`--copies` defaults to the game's plan space's `committed` (Dominion 3, Heart of Crown 1) and to 1
    under `--measure offered` (refused otherwise); the command written down carries `--copies` unless
    it is 1 by default, so a folder screened at one copy before Dominion's default was 3 is reproduced
    by its own command."""
    from argparse import Namespace

    from hoc.cli.combos import BUDGET, _command
    from hoc.research.combos.design import copies_for

    dominion, hoc = game("dominion").ruleset(players=2), game("heart_of_crown").ruleset(players=2)
    assert (copies_for(dominion.game, "combined"), copies_for(dominion.game, "built"), copies_for(dominion.game, "offered")) == (3.0, 3.0, 1.0)
    assert (copies_for(hoc.game, "combined"), copies_for(hoc.game, "offered")) == (1.0, 1.0)
    args = Namespace(game_name="dominion", edition="2e", players=2, kinds=None, override=None, yardstick="",
                     context="pair", measure="combined", across="built", planner=False, fdr=0.1, seed=0,
                     shuffle_labels=False, out="o", knockouts="repaired", **{n: 1 for n in BUDGET})
    written = {c: _command(Namespace(**vars(args), copies=c), KINDS, 3.0) for c in (1.0, 3.0)}
    assert "--copies 1 " in written[1.0] and "--copies 3 " in written[3.0]
    assert "--copies" not in _command(Namespace(**vars(args), copies=1.0), KINDS, 1.0)
    # the knock-outs always, where there are any: their default was idle before it was repaired
    assert "--knockouts repaired " in written[3.0]
    # repaired by default for decks committed to more than one copy of each kind, idle at one copy
    from hoc.research.combos.design import knockouts_for
    assert (knockouts_for("combined", 3.0), knockouts_for("built", 2.0)) == ("repaired", "repaired")
    assert (knockouts_for("combined", 1.0), knockouts_for("offered", 1.0)) == ("idle", "idle")
    offered = Namespace(**{**vars(args), "measure": "offered", "knockouts": "idle"}, copies=1.0)
    assert "--knockouts" not in _command(offered, KINDS, 1.0)


def test_a_deck_built_on_the_pair_is_measured_on_1600_seeds_by_default_and_the_command_says_how_many():
    """Where a deck is built on the pair its interaction nets four close shares, and on 200 seeds the
    games' own noise was most of a pair's replicate spread: 1600 by default there, 200 under `offered`
    as before; the command written down always names the seeds, so a folder screened at 200 resumes
    with its own command."""
    from argparse import Namespace

    from hoc.cli.combos import BUDGET, _command
    from hoc.research.combos.design import measure_seeds_for

    assert (measure_seeds_for("combined"), measure_seeds_for("built"), measure_seeds_for("offered")) == (1600, 1600, 200)
    args = Namespace(game_name="heart_of_crown", edition="2e", players=2, kinds=None, override=None, yardstick="",
                     context="pair", measure="combined", across="built", planner=True, fdr=0.1, seed=0,
                     shuffle_labels=False, out="o", knockouts="idle", copies=1.0,
                     **{n: 1 for n in BUDGET if n != "measure_seeds"})
    assert "--measure-seeds 200 " in _command(Namespace(**vars(args), measure_seeds=200), KINDS, 1.0)


def test_a_pair_followed_up_with_repaired_knock_outs_runs_in_16_markets_by_default():
    """Repaired knock-outs take their own paths in each market, so their replicates spread most: 16
    markets by default there, 8 with idle knock-outs, 4 under `offered`."""
    from hoc.research.combos.design import replicates_for

    assert (replicates_for("combined", "repaired"), replicates_for("built", "repaired")) == (16, 16)
    assert (replicates_for("combined", "idle"), replicates_for("built", "idle"), replicates_for("offered", "idle")) == (8, 8, 4)


def test_the_most_follow_ups_a_screen_announces_are_its_fullest_tables():
    """Each table's pairs in `replicates` markets, in every wave: combined measures its families apart,
    offered runs a pair chosen by both once, built has no across-seat table."""
    hoc = game("heart_of_crown").ruleset(players=2)
    assert _of(hoc, None, confirm=46, replicates=8, measure="combined").most_follow_ups() == 1104   # 3 x 46 x 8
    assert _of(hoc, None, confirm=46, replicates=8, measure="combined", waves=2).most_follow_ups() == 2208
    s = _of(hoc, None, confirm=6, replicates=8, measure="combined")
    pairs = s.pairs()
    full = {"same": pairs[:12], "across": pairs[12:18]}
    assert len(s.follow_ups(full)) == s.most_follow_ups() == 144
    assert _of(hoc, None, confirm=6, replicates=8, measure="built").most_follow_ups() == 96
    assert _of(hoc, KINDS_HOC[:3], confirm=6, replicates=4).most_follow_ups() == 12      # 3 pairs, offered


def test_settings_of_resolves_the_commands_defaults_so_python_and_the_command_screen_alike():
    """`Settings.of` without a budget is `hoc combos` without options: the command only passes what it
    was given, so a Python caller and the command get the same screen."""
    from hoc.cli.main import parser

    hoc, dominion = game("heart_of_crown").ruleset(players=2), game("dominion").ruleset(players=2)
    of = Settings.of(hoc, None)
    assert (of.measure, of.context, of.across, of.planner, of.copies, of.knockouts) == \
        ("combined", "pair", "built", True, 1.0, "idle")
    assert (of.measure_seeds, of.replicates, of.confirm, of.waves) == (1600, 8, 46, 2)
    d = Settings.of(dominion, KINDS)
    assert (d.planner, d.copies, d.knockouts, d.replicates, d.measure_seeds) == (False, 3.0, "repaired", 16, 1600)
    offered = Settings.of(dominion, KINDS, measure="offered")
    assert (offered.across, offered.copies, offered.knockouts, offered.replicates, offered.measure_seeds) == \
        ("offered", 1.0, "idle", 4, 200)
    assert Settings.of(hoc, None, context="market").across == "offered"
    # the dependent defaults follow what is given: one copy asked of Dominion's decks, idle knock-outs
    one = Settings.of(dominion, KINDS, copies=1)
    assert (one.knockouts, one.replicates) == ("idle", 8)
    # and the command resolves nothing of its own (its arguments' defaults are None)
    args = parser().parse_args(["combos", "--game", "dominion", "--kinds", ",".join(KINDS), "--out", "o"])
    assert all(getattr(args, n) is None for n in ("measure_seeds", "confirm", "replicates", "copies", "knockouts",
                                                  "across", "planner"))


def test_the_planner_is_on_by_default_where_the_game_has_one():
    from hoc.research.combos.design import has_planner

    assert has_planner(game("heart_of_crown").ruleset(players=2))
    assert not has_planner(game("dominion").ruleset(players=2))


def test_a_folder_of_another_measure_is_refused_naming_what_differs(tmp_path):
    """An older folder (its identity without a measure: `offered`, no planner) resumed by a command on
    today's defaults is refused in one line that says which settings differ."""
    s = _of(game("dominion").ruleset(players=2), KINDS[:2], **{**TINY, "confirm": 0})
    (tmp_path / screen.IDENTITY).write_text(json.dumps(s.identity()))
    combined = _of(game("dominion").ruleset(players=2), KINDS[:2], **{**TINY, "confirm": 0, "measure": "combined"})
    with pytest.raises(Exception, match="measure: offered there, combined here"):
        screen.run(combined, tmp_path, Backend(1), progress=lambda _: None)


def test_a_screen_saved_before_its_games_plans_played_otherwise_is_refused_naming_the_revision(tmp_path):
    """A game's plans that play otherwise (Dominion's revision 2: Throne Room before the Action it
    plays) are another screen: a folder saved before is refused in one line; a game whose plans did
    not change keeps the identity of its older folders."""
    s = _of(game("dominion").ruleset(players=2), KINDS[:2], **{**TINY, "confirm": 0})
    assert s.identity()["plans"] == 2
    assert "plans" not in _of(game("heart_of_crown").ruleset(players=2), ["library", "bank"]).identity()
    older = {k: v for k, v in s.identity().items() if k != "plans"}
    (tmp_path / screen.IDENTITY).write_text(json.dumps(older))
    with pytest.raises(Exception, match="plans: 1 there, 2 here"):
        screen.run(s, tmp_path, Backend(1), progress=lambda _: None)


@pytest.mark.parametrize("argv,message", [
    (["--kinds", "village,villag"], "'villag' is not a kind"),
    (["--kinds", "village"], "at least 2 kinds"),
    (["--kinds", "village,smithy,village"], "names a kind twice"),
    (["--replicates", "1"], "--replicates must be at least 2"),
    (["--waves", "0"], "--waves must be at least 1"),
    (["--fdr", "1.5"], "--fdr must be between 0 and 1"),
    (["--yardstick", "nobody"], "unknown agent"),
    (["--planner"], "no turn planner"),
    (["--across", "built", "--measure", "built"], "--across built needs --measure combined"),
    (["--across", "built", "--context", "market"], "--across built needs --context pair"),
    (["--copies", "0"], "--copies must be above 0"),
    (["--copies", "2", "--measure", "offered"], "--copies sets the decks built on the pair"),
    (["--knockouts", "repaired", "--measure", "offered"], "--knockouts sets the knock-outs"),
])
def test_bad_combos_options_are_one_line_and_exit_code_2(capsys, tmp_path, argv, message):
    assert main(["combos", "--game", "dominion", *argv, "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_moat_counters_witch_across_seats():
    """A documented counter: Moat blocks Witch's curses, so responses that may use Moat do better
    against the Witch deck than Moat does against the yardstick."""
    s = _of(game("dominion").ruleset(players=2), ["witch", "moat"])
    row = pair.run(s, SCREEN, "witch", "moat", 0)
    assert row["owns_a_a"] >= 1                         # the Witch deck buys Witches
    assert row["cross_a"] < 0 and row["cross_a"] + 2 * row["cross_a_se"] < 0


@pytest.mark.slow
def test_magic_talisman_counters_a_deck_built_on_curse_witch_across_seats():
    """Heart of Crown's Magic Talisman exiles Calamity cards, the curses Curse Witch hands out: against a
    deck built on Curse Witch the responses that may use the Talisman buy it and do better, beyond what it
    does for them against the baseline (`--across built`; under `offered` no strong deck uses the Witch,
    and the pair reads 0)."""
    s = _of(game("heart_of_crown").ruleset(players=2), ["curse_witch", "magic_talisman"],
                    measure="combined", across="built", planner=True)
    row = pair.run(s, ACROSS, "curse_witch", "magic_talisman", 0)
    assert row["across_owns_b_b_a"] >= 1                # the responses to the Witch deck buy Talismans
    assert row["cross_a"] < 0 and row["cross_a"] + 2 * row["cross_a_se"] < 0


def test_a_screen_plays_its_waves_and_a_resumed_one_decides_them_as_the_first_session_did(tmp_path, monkeypatch):
    """Runs of a pair replaced by planted figures (three of the ten pairs combos): the second wave follows
    up the next pair of each table, the third too; a folder cut in its last wave plays only the runs it lacks, and
    one resumed with fewer waves plays nothing."""
    s = _of(game("dominion").ruleset(players=2), KINDS, **{**TINY, "confirm": 1, "replicates": 3, "waves": 3})
    planted = set(s.pairs()[1::3])

    def run(settings, stage, a, b, replicate, decks=None):
        rng = np.random.default_rng(settings.stream(99, stage, a, b, replicate))
        return {"stage": stage, "a": a, "b": b, "replicate": replicate, "market": "",
                **{m: float(0.2 * ((a, b) in planted and m == "same") + rng.normal(0, 0.01)) for m in analysis.MEASURES},
                **{f"{m}_se": 0.01 for m in analysis.MEASURES}}
    monkeypatch.setattr(pair, "run", run)
    said = []
    rows = screen.run(s, tmp_path, Backend(1), progress=said.append)
    waves = [line.split(":")[0] for line in said if line.startswith("confirmation") and "to play" in line]
    assert waves[0].startswith("confirmation of") and "wave 2 of at most 3" in waves[1] and "wave 3" in waves[2]
    # a wave of one pair cannot show its ranking ran dry: every table goes on to the last wave
    assert analysis.depths(s, rows) == {"combos": 3, "weaker": 3, "counters": 3}
    path = tmp_path / screen.RUNS
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-2]) + "\n")
    again = screen.run(s, tmp_path, Backend(1), progress=lambda _: None)
    assert sorted(map(_run_key, again)) == sorted(map(_run_key, rows))
    fewer = dataclasses.replace(s, waves=1)
    assert fewer.identity() == s.identity()
    said = []
    assert len(screen.run(fewer, tmp_path, Backend(1), progress=said.append)) == len(rows)
    assert not [line for line in said if "to play" in line]
