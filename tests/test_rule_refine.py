"""The rule search's refinement (`card_value.neighbours`, `card_value.refine`) and the per-seed
games it plays (`evaluate.seed_games`: who won and what each seat owned). The start plan is the
plain `tuned_general_2p` list, so no test compiles the planner."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from hoc.agents.tune import evaluate
from hoc.games.heart_of_crown.agents import priority_kernel as PK
from hoc.games.heart_of_crown.agents.genome import BOUNDS, Rule
from hoc.games.heart_of_crown.agents.priority import list_id
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.games.heart_of_crown.studies import card_value as cv
from hoc.research.harness import Backend

START = cv.Tuning(start="tuned_general_2p")


@pytest.fixture(scope="module")
def margrave(margrave_rule_plans):
    rs, without, banned, pool, cards = margrave_rule_plans
    return rs, without, banned, cards


def with_rule(plan, rule, at=0):
    return replace(plan, buy=plan.buy[:at] + (rule,) + plan.buy[at:])


def test_seed_games_record_what_each_seat_owned_at_the_end(margrave, warm_kernels):
    """Every seat owns its starting Farming Villages; the banned plan never owns the kind it may not
    buy; a plan that buys it first thing owns it in most games; the wins are per_seed's."""
    rs, without, banned, _ = margrave
    buyer = with_rule(without, Rule("margrave"))
    row = banned.params(rs)
    rows = np.stack([banned.params(rs), buyer.params(rs)])
    g = evaluate.seed_games(rs, rows, row, list_id(row), 5, 30, Backend())
    kind = rs.cards.cards_of_pile("margrave")
    assert g.won.shape == g.owned.shape == (2, 30, 2)
    assert (g.owning([rs.cards.index("farming_village")]) == 1.0).all()
    own = g.owning(kind)
    assert own[0] == 0.0 and own[1] > 0.8
    assert (g.share() == evaluate.per_seed(rs, rows, row, list_id(row), 5, 30, Backend())).all()


def test_neighbours_change_only_the_rules_for_the_kind_one_step_at_a_time(margrave):
    rs, without, _, cards = margrave
    plan = with_rule(without, Rule("margrave", (("turn_at_least", 6), ("owned_below", 2))), at=3)
    near = cv.neighbours(rs, plan, cards)
    keys = {p.params(rs).tobytes() for p in near}
    assert len(keys) == len(near) and plan.params(rs).tobytes() not in keys       # no repeats, never itself
    others = [r for r in plan.buy if r.card != "margrave"]
    for p in near:
        assert [r for r in p.buy if r.card != "margrave"] == others
        (rule,) = [r for r in p.buy if r.card == "margrave"]
        assert len(rule.conditions) <= PK.MAX_CONDS
        for name, value in rule.conditions:
            if name in BOUNDS:
                assert BOUNDS[name][0] <= value <= BOUNDS[name][1]
    rules = [next(r for r in p.buy if r.card == "margrave") for p in near]
    places = {next(i for i, r in enumerate(p.buy) if r.card == "margrave") for p in near}
    assert places == set(range(len(plan.buy)))                                   # moved to every other place
    assert Rule("margrave", (("turn_at_least", 5), ("owned_below", 2))) in rules   # a threshold moved by 1
    assert Rule("margrave", (("owned_below", 2),)) in rules                        # a condition dropped
    cost = rs.cards["margrave"].cost
    assert Rule("margrave", (("turn_at_least", 6), ("owned_below", 2), ("coins_at_most", cost))) in rules


def test_refining_a_rule_that_rarely_fires_finds_the_moment_the_card_helps(margrave, warm_kernels):
    """Margrave is worth many points to this plan from the first turns: a rule that waits for turn 14
    wastes it, and the refinement drops or lowers that wait, winning more of its seeds."""
    rs, without, banned, _ = margrave
    late = with_rule(without, Rule("margrave", (("turn_at_least", 14),)))
    plan, played = cv.refine(rs, "margrave", late, banned, 3, Backend(), seeds=40, steps=2)
    (rule,) = [r for r in plan.buy if r.card == "margrave"]
    assert rule.condition("turn_at_least") is None or rule.condition("turn_at_least") < 14
    assert played % (40 * 2) == 0 and played >= (1 + len(cv.neighbours(rs, late, ["margrave"]))) * 40 * 2
    row = banned.params(rs)
    rates = evaluate.per_seed(rs, np.stack([late.params(rs), plan.params(rs)]), row, list_id(row), 77, 200,
                              Backend()).mean(1)
    assert rates[1] > rates[0] + 0.03                  # on seeds the refinement never played


def test_a_refined_plan_that_must_buy_the_kind_still_buys_it(warm_kernels):
    """With `buys`, every step's plan ends with the kind in at least that share of its seats: the
    refinement prices the cheapest way to use a card, not a way to avoid it. Library first in the
    list costs this plan its early Cities: free to, the refinement buys it less."""
    rs = Ruleset(players=2, market="random", market_with=("library",))
    without, banned, _, _ = cv.rule_plans(rs, "library", START)
    start = with_rule(without, Rule("library"))
    ids = rs.cards.cards_of_pile("library")
    row = banned.params(rs)
    owned = []
    for buys in (0.0, 0.6):
        plan, _ = cv.refine(rs, "library", start, banned, 4, Backend(), buys=buys, seeds=30, steps=3)
        g = evaluate.seed_games(rs, plan.params(rs)[None, :], row, list_id(row), 99, 60, Backend())
        owned.append(g.owning(ids)[0])
    assert owned[1] >= 0.5 and owned[0] < owned[1]


def test_no_refinement_seeds_leave_the_plan_as_it_is(margrave):
    rs, without, banned, _ = margrave
    start = with_rule(without, Rule("margrave"))
    assert cv.refine(rs, "margrave", start, banned, 0, Backend(), seeds=0) == (start, 0)


def test_the_allowed_plan_takes_a_refinement_only_when_it_wins_clearly(margrave, warm_kernels):
    """Refined from a rule that waits too long, Margrave beats the plan without it by many points on
    fresh seeds and replaces it; a Library rule that only loses or ties never replaces it."""
    rs, without, banned, _ = margrave
    tuning = cv.Tuning(start="tuned_general_2p", select_seeds=60, refine_seeds=30)
    late = with_rule(without, Rule("margrave", (("turn_at_least", 14),)))
    plan, played = cv._refined(rs, "margrave", late, without, 0.0, banned, 5, Backend(), tuning)
    assert plan != without and any(r.card == "margrave" for r in plan.buy) and played > 2 * 60 * 2
    lib = Ruleset(players=2, market="random", market_with=("library",))
    lib_without, lib_banned, _, _ = cv.rule_plans(lib, "library", START)
    first = with_rule(lib_without, Rule("library"))
    assert cv._refined(lib, "library", first, lib_without, 0.0, lib_banned, 5, Backend(), tuning)[0] == lib_without


def test_the_allowed_plan_takes_the_refined_buyer_only_when_it_wins_clearly(margrave, warm_kernels):
    """The rule search's last step (`_clearly_better`): a Margrave buyer beats the plan without it by
    many points and replaces it; the plan without it never replaces the buyer, and a plan that plays
    the same games (a tie on every seed) replaces nothing."""
    rs, without, banned, _ = margrave
    buyer = with_rule(without, Rule("margrave"))
    took, played = cv._clearly_better(rs, "margrave", without, buyer, banned, 6, Backend(), 60)
    assert took == buyer and played == 2 * cv.CLEAR * 60 * 2      # both plans on CLEAR x 60 seeds, both seats
    assert cv._clearly_better(rs, "margrave", buyer, without, banned, 6, Backend(), 60)[0] == buyer
    same = replace(buyer)                             # equal rules, another object
    assert cv._clearly_better(rs, "margrave", buyer, same, banned, 6, Backend(), 60)[0] is buyer


def test_the_twin_plays_the_same_deck_without_the_kind(margrave):
    rs, without, banned, cards = margrave
    plan = with_rule(with_rule(without, Rule("margrave", (("owned_below", 2),)), at=2), Rule("margrave"), at=6)
    other = cv.twin(plan, "margrave", cards)
    assert other.buy == without.buy and other.never == ("margrave",)
    assert replace(other, buy=plan.buy, never=()) == plan              # nothing else differs
    assert cv.twin(without, "margrave", cards) == banned               # the rule search's banned plan is one
    assert cv.twin(other, "margrave", cards).never == ("margrave",)    # banned once, not twice


def test_a_deck_built_around_the_kind_moves_any_rule_and_still_buys_the_kind(margrave, warm_kernels):
    """The build climbs over every rule of the plan (not only the kind's), drawing `sample` of its
    neighbours a step, and every step's plan keeps buying the kind."""
    rs, without, banned, _ = margrave
    buyer = with_rule(without, Rule("margrave", (("turn_at_least", 10),)))
    plan, played = cv.build(rs, "margrave", buyer, banned, 8, Backend(), seeds=30, steps=3, sample=6)
    assert played == 3 * (1 + 6) * 30 * 2                   # a sample never stops the climb early
    row = banned.params(rs)
    g = evaluate.seed_games(rs, plan.params(rs)[None, :], row, list_id(row), 98, 80, Backend())
    assert g.owning(rs.cards.cards_of_pile("margrave"))[0] >= cv.BUYS
    whole = cv.neighbours(rs, buyer, list(dict.fromkeys(r.card for r in buyer.buy)))
    assert any([r for r in p.buy if r.card != "margrave"] != [r for r in buyer.buy if r.card != "margrave"]
               for p in whole)                              # its moves reach the other rules


def test_the_built_plan_replaces_the_allowed_one_only_when_it_beats_both_banned_players(margrave, monkeypatch,
                                                                                        warm_kernels):
    """A built plan that buys Margrave first thing beats the plan without it clearly: it becomes the
    allowed plan and the buyer, against whichever of the banned plan and its own deck without
    Margrave it does worse against. One that buys it late and also drops the plan's first rule
    beats neither clearly and changes nothing; with no build steps nothing is built."""
    rs, without, banned, cards = margrave
    late = with_rule(without, Rule("margrave", (("turn_at_least", 14),)))
    first = with_rule(without, Rule("margrave"))
    tuning = cv.Tuning(start="tuned_general_2p", select_seeds=80, refine_seeds=30, build_steps=2)
    worse = replace(late, buy=late.buy[:1] + late.buy[2:])
    for built, taken in ((first, True), (worse, False)):
        monkeypatch.setattr(cv, "build", lambda *a, built=built, **k: (built, 7))
        allowed, against, forced, played = cv._built(rs, "margrave", cards, without, banned, late, 4, Backend(),
                                                     tuning)
        assert played == 7 + 3 * 80 * 2
        if taken:
            assert allowed is forced is first and (against is banned or against == cv.twin(first, "margrave", cards))
        else:
            assert (allowed, against, forced) == (without, banned, late)
    none = replace(tuning, build_steps=0)
    assert cv._built(rs, "margrave", cards, without, banned, late, 4, Backend(), none) == (without, banned, late, 0)


def test_a_clear_climb_takes_a_move_that_wins_clearly_and_not_the_noise_of_a_step(margrave, warm_kernels):
    """With `clear` a move must win by its paired interval over the step's seeds: the Margrave rule
    that waits for turn 14 still gives way to one that buys it sooner, while from the plan that buys
    it first thing the plain climb takes a step's best neighbour and the clear climb stays."""
    rs, without, banned, _ = margrave
    late = with_rule(without, Rule("margrave", (("turn_at_least", 14),)))
    plan, _ = cv.refine(rs, "margrave", late, banned, 3, Backend(), seeds=40, steps=2, clear=True)
    (rule,) = [r for r in plan.buy if r.card == "margrave"]
    assert rule.condition("turn_at_least") is None or rule.condition("turn_at_least") < 14
    first = with_rule(without, Rule("margrave"))
    assert cv.refine(rs, "margrave", first, banned, 3, Backend(), seeds=40, steps=2)[0] != first
    assert cv.refine(rs, "margrave", first, banned, 3, Backend(), seeds=40, steps=2, clear=True)[0] == first
