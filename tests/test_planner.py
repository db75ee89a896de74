"""The turn planner (hoc.games.heart_of_crown.agents.planner): decisions on cards whose choices matter, taken because of
where they lead (a buy reached, a better card kept, more plays or coins), and the planner's
reproducibility, hidden-information and legality guarantees."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from hoc.agents import registry
from hoc.games.heart_of_crown.agents import catalog
from hoc.games.heart_of_crown.agents import policies
from hoc.games.heart_of_crown.agents import priority
from hoc.agents.ids import PLANNED
from hoc.games.heart_of_crown.agents.planner import plan_scores
from hoc.games.heart_of_crown.agents.search import reserve
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.kernel.state import seat_agent
from hoc.games.heart_of_crown.rules import Ruleset

from conftest import labels, play_all

MARKET = ["trading_ship", "post_horse", "library", "curse_witch", "adventurer", "royal_guard", "bank",
          "city_development", "handyman", "purveyor"]
CITIES = ["city"] * 12
PLAN = "tuned_general_2p+plan"     # its first buy rule is the Duke


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return Ruleset(players=2, market=MARKET)


@pytest.fixture(scope="module")
def planner():
    return registry.get(PLAN)


@pytest.fixture(scope="module")
def plain():
    return registry.get("tuned_general_2p")


def table(rs, hand, deck=None, coins_market=None, seed=7) -> Game:
    g = Game(rs, seed=seed)
    assert g.turn_player == 0 and g.context == "main phase"
    g.arrange(0, hand=hand, deck=CITIES if deck is None else deck, discard={})
    return g


def scores(g, agent) -> dict[str, float]:
    """The planner's score of every candidate action (by label) at g's decision."""
    P = np.ascontiguousarray(agent.params(g.ruleset), K.DTYPE)
    s = reserve(g.state.copy(), [agent.id], P[None, :])
    seat_agent(s, g.decider, agent.id, P)
    acts = np.zeros(K.N_ACTIONS, K.DTYPE)
    vals = np.zeros(K.N_ACTIONS)
    n = plan_scores(s, g.decider, acts, vals)
    return {g.label(int(acts[i])).split(":")[0]: float(vals[i]) for i in range(n)}


def test_the_plan_suffix_makes_a_planning_list_and_the_plain_list_stays_plain(planner, plain):
    assert planner.id == PLANNED and plain.id == policies.PRIORITY
    assert policies.needs([planner.id, plain.id]) == (False, True, False)


def test_trading_ship_takes_two_coins_because_they_reach_the_duke(rs, planner, plain):
    """Three Cities played (6 coins), Trading Ship closes the plays: drawn cards could not be played,
    two coins buy the Duke. The list's fixed answer is its first mode, draw 2. (A small deck: the
    plan backs only when owning 16 cards, so its Second phase buys.)"""
    g = table(rs, {"city": 3, "trading_ship": 1}, deck=["city"] * 6)
    play_all(g, "city", "city", "city", "trading_ship")
    assert labels(g) == ["number 0", "number 1"]
    assert g.decide(plain) == K.A_NUMBER + 0
    assert g.decide(planner) == K.A_NUMBER + 1
    v = scores(g, planner)
    assert v["number 1"] > v["number 0"]


def test_trading_ship_draws_when_its_cards_can_still_be_played(rs, planner):
    """The same hand, but Post Horse left an open play: the planner tries both modes on its
    determinizations, and two Cities drawn (the deck holds only Cities) are worth more than 2 coins."""
    g = table(rs, {"post_horse": 1, "trading_ship": 1}, deck=CITIES)
    play_all(g, "post_horse")               # draws a City; 2 open plays
    play_all(g, "trading_ship")
    assert g.open_plays == 1
    v = scores(g, planner)
    assert v["number 0"] > v["number 1"]
    assert g.decide(planner) == K.A_NUMBER + 0


def test_curse_witch_does_not_exile_a_duke_to_pay_for_a_curse(rs, planner):
    """With no coin to pay, the only cost is exiling the Duke in hand: declining keeps a better card."""
    g = table(rs, {"curse_witch": 1, "duke": 1})
    play_all(g, "curse_witch")
    assert "pass" in labels(g)
    a = g.decide(planner)
    assert a == K.A_PASS, g.label(a)


def test_curse_witch_pays_with_an_apprentice_maid_and_curses(rs, planner, plain):
    """An Apprentice Maid (-2 SP) is a cost worth paying: the planner exiles it and gives the curse;
    the plain list declines the optional cost and plays Curse Witch as a blank."""
    g = table(rs, {"curse_witch": 1, "apprentice_maid": 1})
    play_all(g, "curse_witch")
    assert g.decide(plain) == K.A_PASS
    a = g.decide(planner)
    assert a != K.A_PASS, "the planner should pay the cost"
    g.apply(a)
    while g.context == "card choice" and g.decider == 0:
        g.apply(g.decide(planner))
    assert g.exiled().get("apprentice_maid", 0) == 1
    assert g.discard_pile(1).get("curse", 0) + g.deck(1).count("curse") >= 1 or g.hand(0)


def test_library_is_played_before_the_other_actions_for_its_bonus(rs, planner, plain):
    """Library makes every later Action give a coin more: played first, Post Horse and Bank each add
    one. The fixed order plays the lowest card id among the link cards first."""
    g = table(rs, {"library": 1, "post_horse": 1, "purveyor": 1})
    own = g.label(g.decide(plain))
    assert own != "play library"
    assert g.label(g.decide(planner)) == "play library"


def test_city_development_waits_for_the_coin_it_costs_then_upgrades_a_farming_village(rs, planner, plain):
    """City Development asks 1 coin: played first (0 coins) it could do nothing, so the planner plays a
    Territory first; then it plays City Development and takes an upgrade (Farming Village -> City or
    City -> Large City, whichever scores more). The fixed order plays the Action first."""
    g = table(rs, {"city_development": 1, "farming_village": 2, "city": 1}, deck=["city"] * 6)
    assert g.label(g.decide(plain)) == "play city_development"
    first = g.label(g.decide(planner))
    assert first in ("play farming_village", "play city"), first
    g.apply(first)
    assert g.label(g.decide(planner)) == "play city_development"
    g.apply("play city_development")
    a = g.decide(planner)
    assert g.label(a).split(":")[0] in ("number 0", "number 1"), g.label(a)     # an upgrade, not a decline
    g.apply(a)
    while g.context == "card choice" and g.decider == 0:
        g.apply(g.decide(planner))
    assert g.exiled().get("farming_village", 0) + g.exiled().get("city", 0) == 1


def test_a_terminal_is_played_after_the_cards_that_keep_plays_open(rs, planner):
    """Royal Guard has no link: played first it would end the plays and strand the Cities."""
    g = table(rs, {"royal_guard": 1, "city": 2})
    v = scores(g, planner)
    assert v["play city"] > v["play royal_guard"]
    assert g.label(g.decide(planner)) != "play royal_guard"


def test_adventurer_exiles_a_card_and_prefers_the_trade_that_scores_best(rs, planner):
    """Adventurer's exile is weighed by what the gain then brings: every answer is scored, and the one
    taken is the best-scoring one (or the list's own within the margin)."""
    g = table(rs, {"adventurer": 1, "farming_village": 1, "city": 1}, deck=CITIES)
    play_all(g, "adventurer")
    v = scores(g, planner)
    a = g.label(g.decide(planner)).split(":")[0]
    assert v[a] >= max(v.values()) - 5


def wishing_well(rs, deck, princess):
    """Wishing Well played from a hand of two Farming Villages, a Court Maid and a Senator, over a
    deck of `deck`; the planner answers its discards. Returns the game and the cards discarded."""
    g = Game(rs, seed=7)
    g.arrange(0, hand={"wishing_well": 1, "court_maid": 1, "senator": 1, "farming_village": 2}, deck=deck,
              discard={}, princess=princess)
    play_all(g, "wishing_well")
    return g


def answer_all(g, agent) -> list[str]:
    out = []
    while g.context == "card choice" and g.decider == 0:
        a = g.label(g.decide(agent)).split(":")[0]
        out.append(a)
        g.apply(a)
    return out


def test_wishing_well_keeps_the_succession_cards_its_list_would_set(rs, planner):
    """With a domain, the list sets the Court Maid and the Senator in hand (5 SP): discarding them
    for Cities would buy more coins but lose the set, so the planner keeps them."""
    g = wishing_well(rs, CITIES, "lulunasaika")
    v = scores(g, planner)
    assert v["pass"] > v["choose court_maid"] and v["pass"] > v["choose senator"]
    assert not {"choose court_maid", "choose senator"} & set(answer_all(g, planner))
    assert g.hand(0)["court_maid"] == 1 and g.hand(0)["senator"] == 1


def test_wishing_well_digs_for_succession_cards_on_a_set_turn(rs, planner):
    """The same hand over a deck of Senators: the Farming Villages' coins would not be spent on a set
    turn, so the planner discards them to draw Senators and sets more SP."""
    g = wishing_well(rs, ["senator"] * 6, "lulunasaika")
    answers = answer_all(g, planner)
    assert answers.count("choose farming_village") == 2
    assert g.hand(0).get("farming_village", 0) == 0 and g.hand(0)["senator"] >= 3


def test_wishing_well_trades_dead_cards_for_coins_without_a_domain(rs, planner):
    """Without a domain nothing can be set: the Court Maid and the Senator are dead cards, and the
    planner gives dead cards up for Cities."""
    g = wishing_well(rs, CITIES, False)
    answers = answer_all(g, planner)
    assert {"choose court_maid", "choose senator"} & set(answers)
    assert g.hand(0)["city"] >= 2


def test_without_settle_the_planner_prices_no_set(rs):
    """`settle = 0` (a [plan] section's default) weighs coins only: the Court Maid and the Senator
    in hand score as if they were in the discard pile."""
    spec = catalog.planned_spec(PLAN).with_plan(settle=0)
    coins_only = catalog.from_list(spec, "coins_only")
    assert dict(priority.parse(catalog.list_file("tuned_general_2p")).with_plan().plan)["settle"] == 0
    assert dict(catalog.planned_spec(PLAN).plan)["settle"] > 0
    g = wishing_well(rs, CITIES, "lulunasaika")
    v = scores(g, coins_only)
    assert v["choose court_maid"] >= v["pass"] - 1e-9


def test_hideout_puts_on_the_deck_the_card_that_helps_the_next_turn(rs, planner, plain):
    """Hideout's choice changes nothing this turn: the next turn's hand draws the card. Without a
    domain a Duke would be a dead card there and Margrave plays for 3 coins (over a deck of Farming
    Villages, the coins that matter), so the planner puts Margrave on the deck, weighing the next
    turn (`next`); the list's default takes the dearest, the Duke."""
    g = Game(Ruleset(players=2, market=MARKET[:9] + ["hideout"]), seed=7)
    g.arrange(0, hand={"hideout": 1, "farming_village": 2}, deck=["farming_village"] * 12,
              discard={"duke": 1, "margrave": 1})
    play_all(g, "hideout")
    assert {"choose duke", "choose margrave"} <= set(labels(g))
    assert g.label(g.decide(plain)).startswith("choose duke")
    v = scores(g, planner)
    assert v["choose margrave"] > v["choose duke"]
    assert g.label(g.decide(planner)).startswith("choose margrave")
    without = catalog.from_list(catalog.planned_spec(PLAN).with_plan(next=0), "this_turn_only")
    w = scores(g, without)
    assert w["choose margrave"] == w["choose duke"]        # the turn's end cannot tell them apart


def test_planning_takes_the_list_s_own_action_when_no_other_is_better_by_the_margin(rs, planner, plain):
    """Plain Territories only: nothing to plan, the list's order stands."""
    g = table(rs, {"city": 2, "farming_village": 1})
    assert g.decide(planner) == g.decide(plain)


def test_plan_section_parses_and_rejects_bad_keys(tmp_path):
    text = (catalog.TUNED / "tuned_general_2p.toml").read_text() + "\n[plan]\nsamples = 3\ndeck = 120\n"
    spec = priority.parse("x.toml", text)
    assert spec.planned and dict(spec.plan)["samples"] == 3 and dict(spec.plan)["deck"] == 120
    with pytest.raises(Exception, match="unknown key 'sampels' in \\[plan\\]"):
        priority.parse("x.toml", text.replace("samples = 3", "sampels = 3"))
    with pytest.raises(Exception, match="samples must be a whole number from 0 to 16"):
        priority.parse("x.toml", text.replace("samples = 3", "samples = 99"))
    off = priority.parse("x.toml", text.replace("samples = 3", "samples = 0"))
    assert not off.planned


def test_the_planner_never_sees_hidden_cards(rs, planner):
    """Its choice depends on what the player may see only: the same decision with its own deck in
    another order and the opponent's hand and deck cards exchanged gives the same scores (the
    determinizations gather hidden cards by id)."""
    deck = ["city", "farming_village", "duke"] * 4
    views = []
    for flip in (False, True):
        g = table(rs, {"city": 3, "trading_ship": 1}, deck=list(reversed(deck)) if flip else deck)
        if flip:
            cards1 = [c for c, n in g.hand(1).items() for _ in range(n)] + list(g.deck(1))
            cards1 = list(reversed(cards1))
            k = sum(g.hand(1).values())
            g.arrange(1, hand=_counts(cards1[:k]), deck=cards1[k:])
        play_all(g, "city", "city", "city", "trading_ship")
        views.append(scores(g, planner))
    assert views[0] == views[1]


def _counts(cards):
    out: dict[str, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


def test_planned_games_are_legal_and_reproducible_and_leave_the_state_as_it_was(rs, planner, plain):
    """Random markets, the planner in both seats of some games: every action legal (--validate's
    checks), the same seeds give the same games, and a decision leaves the game as it found it."""
    from hoc.research.simulate import lineup, simulate

    agents = lineup(f"{PLAN},tuned_general_2p", 2)
    a = simulate(Ruleset(players=2), agents, 40, seed=3, rotate=True, validate=True, announce=False)
    b = simulate(Ruleset(players=2), agents, 40, seed=3, rotate=True, announce=False)
    assert len(a.games) == 40                       # validate raises on an illegal action or broken invariant
    assert a.games["winner"].tolist() == b.games["winner"].tolist()
    g = Game(Ruleset(players=2), seed=11)
    while not g.over and g.turns < 30:
        before = g.state.copy()
        act = g.decide(planner)
        n = int(g.state[K.H_LEN])              # the game part: the arena after it is the planner's
        before = before[:n]
        assert np.array_equal(np.delete(g.state[:n], _agent_stream(g)), np.delete(before, _agent_stream(g))), \
            "a planned decision changed the game"
        assert g.is_legal(act)
        g.apply(act)


def _agent_stream(g):
    """Slots a decision may change: the deciding seats' own random streams and the lineup block."""
    s = g.state
    slots = list(range(K.AGENTS, K.AGENTS + 4 * K.AGENT_SZ))
    for p in range(g.players):
        o = int(s[K.H_OFF_PLAYER]) + p * K.PSZ + K.P_ARNG
        slots += [o, o + 1]
    slots += list(range(K.LEGAL, K.LEGAL + K.N_ACTIONS))
    return slots


# ---- hidden information, the search's Main phase, bans ---------------------------------------------

from test_ismcts import RANDOM_2P, hidden_variants  # noqa: E402 (the search's hidden-information variants)


@pytest.mark.parametrize("seed", [3, 8])
def test_planned_decisions_are_the_same_for_states_differing_only_in_hidden_information(seed, planner, plain):
    """Opponent hand swapped with its deck cards, own and opponent deck order permuted, the face-down
    supply permuted, the game's random streams changed: the same decision at every planned decision
    of real games, and the planner's own stream advances the same way."""
    from test_ismcts import pb

    rng = np.random.default_rng(seed)
    g = Game(RANDOM_2P, seed=seed)
    pairs = planned = second = 0
    while not g.over:
        p = g.decider
        if p == 0 and g.turn_player == 0 and g.context in ("main phase", "card choice", "second phase") \
                and len(g.legal_actions()) > 1:
            base = g.clone()
            expected = base.decide(planner)
            planned += 1
            second += g.context == "second phase" and g.second_phase == "open" and g.princess(p) is not None
            for name, v in hidden_variants(g, p, rng):
                got = v.decide(planner)
                assert got == expected, (f"turn {g.turns}, {g.context}: {name} changed the decision "
                                         f"{g.label(expected)!r} -> {g.label(got)!r}")
                arng = slice(pb(v.state, p) + K.P_ARNG, pb(v.state, p) + K.P_ARNG + 2)
                assert np.array_equal(v.state[arng], base.state[arng])
                pairs += 1
        g.apply(g.decide(planner if p == 0 else plain))
    assert planned >= 20 and pairs >= 5 * planned and second >= 3


@pytest.mark.parametrize("seed, spec", [(5, "ismcts:iterations=24,main=1"),
                                        (6, "ismcts:iterations=12,net=learned_2p,main=1")])
def test_search_main_phase_decisions_are_the_same_for_states_differing_only_in_hidden_information(seed, spec):
    """The search agent with main=1 searches Main-phase decisions too: the same hidden-information
    guarantee holds there, also when a network guides it (its observation is the searcher's own)."""
    from test_ismcts import pb

    searcher, other = registry.get(spec), registry.get("tuned_laolily_2p")
    rng = np.random.default_rng(seed)
    g = Game(RANDOM_2P, seed=seed)
    mains = 0
    while not g.over:
        p = g.decider
        if p == 0 and g.context == "main phase" and len(g.legal_actions()) > 1:
            base = g.clone()
            expected = base.decide(searcher)
            mains += 1
            for name, v in hidden_variants(g, p, rng):
                got = v.decide(searcher)
                assert got == expected, f"turn {g.turns}: {name} changed the Main-phase decision"
                arng = slice(pb(v.state, p) + K.P_ARNG, pb(v.state, p) + K.P_ARNG + 2)
                assert np.array_equal(v.state[arng], base.state[arng])
        g.apply(g.decide(searcher if p == 0 else other))
    assert mains >= 20


@pytest.mark.parametrize("edition", ["2e", "1e"])
def test_main_phase_candidates_are_exactly_the_legal_actions(edition):
    """The planner lists Main-phase actions from the hand and kept cards: the same set, in the same
    order, as the engine's legal_actions, at every Main-phase decision of random games (random
    actions: every kind of Main-phase action comes up, the 1st edition's kept cards and hand abilities
    too)."""
    from hoc.games.heart_of_crown.agents.planner import main_actions

    out = np.zeros(K.N_ACTIONS, K.DTYPE)
    checked = 0
    rng = np.random.default_rng(1)
    for seed in range(12):
        g = Game(Ruleset(edition=edition, players=2, market="random"), seed=seed)
        while not g.over and g.turns < 60:
            legal = [int(a) for a in g.legal_actions()]
            if g.context == "main phase":
                n = main_actions(g.state, g.decider, out)
                assert out[:n].tolist() == legal
                checked += 1
            g.apply(legal[rng.integers(len(legal))])
    assert checked > 200


@pytest.mark.parametrize("spec", [PLAN, "ismcts:iterations=16,main=1", "ismcts:iterations=8,net=learned_2p,main=1"])
def test_a_planner_or_search_agent_with_a_kind_banned_never_buys_it(spec):
    """The card-value study's ban (hoc.games.heart_of_crown.studies.card_value.BANS) for the planning list and the search
    agent: with curse_witch banned, on markets that always offer it, neither buys nor gains one."""
    from hoc.games.heart_of_crown.studies import card_value as cv
    from hoc.research.simulate import simulate
    from hoc.research.studies import owns

    rs = Ruleset(players=2, market="random", market_with=("curse_witch",))
    agent = registry.get(spec)
    banned = cv.ban(agent, "curse_witch", rs)
    run = simulate(rs, [banned, registry.get("curse_witch")], 6 if "ismcts" in spec else 40, seed=1,
                   rotate=True, announce=False)
    games = run.games
    mine = np.stack([(games[f"agent_{j}"].astype(str) == banned.name).to_numpy() for j in range(2)], 1)
    own = np.stack([owns(games, j, "curse_witch", rs.cards) for j in range(2)], 1)
    assert not own[mine].any(), "a player with curse_witch banned ended owning one"
    assert own[~mine].any(), "the curse_witch archetype never bought one: the check would prove nothing"


# ---- the Second phase: back, set or buy, weighed by the evaluation a turn or two ahead ------------

SECOND_ONLY = """
[princess]
prefer = ["lulunasaika"]
[set]
min_sp = 40
[plan]
samples = 0
second = 2
horizon = 1
[[buy]]
card = "duke"
[[buy]]
card = "city"
"""


def second_only(tmp_path, text=SECOND_ONLY, name="second_only"):
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return catalog.from_list(priority.parse(path), name)


def test_sets_the_duke_that_reaches_coronation_rather_than_buy_by_the_list_s_threshold(tmp_path):
    """Lulunasaika (6 SP) with a Duke and a Senator in the domain (15 SP) and a Duke in hand, 8
    coins: the list's threshold (set only with 40 SP in hand) buys another Duke; setting the one in
    hand makes 21 SP, a coronation the next turn. The Second-phase planner plays both on and sets."""
    agent = second_only(tmp_path)
    plain = catalog.from_list(dataclasses.replace(priority.parse(tmp_path / "second_only.toml"), plan=None), "plain")
    g = Game(Ruleset(players=2, market="basic"), seed=3)
    g.arrange(0, princess="lulunasaika", domain={"duke": 1, "senator": 1}, hand={"duke": 1}, deck=CITIES,
              discard={}, coins=8)
    assert g.context == "second phase" and g.second_phase == "open" and g.sp(0) == 15
    assert g.label(g.decide(plain)).startswith("buy duke")
    assert g.label(g.decide(agent)) == "set duke"


def test_a_second_phase_margin_no_option_can_beat_plays_exactly_the_list_s_games(tmp_path):
    """With second_margin above any difference of the evaluation, every weighed Second phase keeps
    the list's own action: the games are those of the plain list, seed for seed (the look-aheads
    draw only from the planner's own random stream, never the game's)."""
    from hoc.research.harness import Plan
    from hoc.research.rows import play_rows

    agent = second_only(tmp_path, SECOND_ONLY.replace("horizon = 1", "horizon = 1\nsecond_margin = 100000"), "kept")
    plain = catalog.from_list(dataclasses.replace(priority.parse(tmp_path / "kept.toml"), plan=None), "plain")
    rs = Ruleset(players=2, market="random")
    a = play_rows(Plan(rs, [agent, plain], 40, seed=9, rotate=True), 0, 40)
    b = play_rows(Plan(rs, [plain, plain], 40, seed=9, rotate=True), 0, 40)
    assert np.array_equal(a[0], b[0])


def test_second_phase_options_are_legal_and_the_list_s_own_comes_first(tmp_path):
    """At every open Second phase a planning seat weighs, each option it may take (the list's own,
    backing, setting, the buy rules' buy) is a legal action, in games played to the end."""
    agent = second_only(tmp_path)
    plain = registry.get("tuned_general_2p")
    weighed = 0
    for seed in range(4):
        g = Game(RANDOM_2P, seed=seed)
        while not g.over:
            a = g.decide(agent if g.decider == 0 else plain)
            assert g.is_legal(a)
            weighed += g.decider == 0 and g.context == "second phase" and g.second_phase == "open"
            g.apply(a)
    assert weighed >= 20


def test_the_shipped_evaluation_has_a_weight_for_every_feature_and_a_missing_one_is_named(tmp_path):
    from hoc.games.heart_of_crown.agents.evaluation import FEATURE_NAMES, N_FEATURES, weights

    assert len(FEATURE_NAMES) == N_FEATURES and len(weights()) == 1 + N_FEATURES
    text = "[weights]\nconst = 0.5\n" + "".join(f"{n} = 0.1\n" for n in FEATURE_NAMES if n != "own_sp")
    (tmp_path / "e.toml").write_text(text)
    with pytest.raises(ValueError, match="no weight for own_sp"):
        weights(tmp_path / "e.toml")


def test_evaluation_features_read_each_player_s_cards_from_the_view_of_the_player_asked():
    """The features of p are p's terms then its rivals' mean: swapping the seat asked swaps them."""
    from hoc.games.heart_of_crown.agents.evaluation import N_FEATURES, SEAT_TERMS, position_features

    g = Game(Ruleset(players=2, market="basic"), seed=3)
    g.arrange(0, princess="lulunasaika", domain={"duke": 1, "senator": 1}, hand={"duke": 1}, deck=CITIES, discard={})
    a, b = np.zeros(N_FEATURES), np.zeros(N_FEATURES)
    position_features(g.state, 0, a)
    position_features(g.state, 1, b)
    assert a[0] == g.sp(0) == 15 and b[SEAT_TERMS] == 15 and a[SEAT_TERMS] == b[0] == 0
    assert a[1] == 6 and a[2] == 1.0 and b[2] == 0.0        # a Duke still to set; backed or not


# ---- the Second phase without look-ahead: the preference at the end of the Second phase ----------

def second_scores_and_ends(g, agent):
    """(actions, the planner's scores, the features where each option's Second phase ends, the game
    state as it was before weighing, the agent seated) of the open Second phase g waits for, as the
    agent's planner weighs it."""
    from hoc.games.heart_of_crown.agents.evaluation import N_FEATURES
    from hoc.games.heart_of_crown.agents.planner import second_ends, second_scores

    P = np.ascontiguousarray(agent.params(g.ruleset), K.DTYPE)
    g.state = reserve(g.state, [agent.id], P[None, :])
    seat_agent(g.state, g.decider, agent.id, P)
    before = g.state[:g.state[K.H_LEN]].copy()
    acts, vals = np.zeros(K.N_ACTIONS, K.DTYPE), np.zeros(K.N_ACTIONS)
    n = second_scores(g.state, g.decider, acts, vals)
    feats = np.zeros((K.N_ACTIONS, N_FEATURES))
    second_ends(g.state, g.decider, acts, n, feats)
    return acts[:n].copy(), vals[:n].copy(), feats[:n], before


def test_horizon_minus_one_scores_each_option_by_the_preference_network_where_its_second_phase_ends(tmp_path):
    """With horizon = -1 an option's score is the shipped preference network's output (x 1000) for the
    features where the list's own option's Second phase ends and this option's difference to them, the
    same as the network in NumPy; the own option scores 0; no random number is drawn and the real game
    is left as it was."""
    from hoc.engine import weights as nw
    from hoc.games.heart_of_crown.agents.preference import NETWORK, value

    agent = second_only(tmp_path, SECOND_ONLY.replace("horizon = 1", "horizon = -1"), "preference")
    g = Game(Ruleset(players=2, market="basic"), seed=3)
    g.arrange(0, princess="lulunasaika", domain={"duke": 1, "senator": 1}, hand={"duke": 1}, deck=CITIES,
              discard={}, coins=8)
    acts, vals, feats, before = second_scores_and_ends(g, agent)
    assert {g.label(a) for a in acts} >= {"set duke"} and len(acts) >= 2
    net = nw.load(NETWORK)
    expected = value(net, np.hstack([np.repeat(feats[:1], len(acts) - 1, 0), feats[1:] - feats[:1]]))
    assert vals[0] == 0
    np.testing.assert_allclose(vals[1:], np.round(1000 * expected), atol=1.5)
    assert np.array_equal(g.state[:len(before)], before), "weighing changed the real game"


def test_a_network_that_is_not_a_second_phase_preference_is_refused_in_one_line(tmp_path):
    from hoc.engine import weights as nw
    from hoc.errors import HocError
    from hoc.games.heart_of_crown.agents import preference

    path = tmp_path / "policy.npz"
    nw.initial(46, 5, (8, 4), seed=1, meta={"game": "heart_of_crown"}).save(path)
    with pytest.raises(HocError, match="reads 46 features and has no policy head; this network reads 46 and has 5"):
        preference.key(path)


def test_each_option_is_valued_where_its_second_phase_ends_setting_or_buying_not_both(tmp_path):
    """Lulunasaika with 15 SP in her domain, a Duke in hand and 8 coins: setting the Duke ends its
    Second phase at 21 SP with nothing left to set (a Second phase that sets buys nothing); buying a
    Duke ends it at 15 SP with two Dukes (12 SP) still to set."""
    agent = second_only(tmp_path, SECOND_ONLY.replace("horizon = 1", "horizon = -1"), "preference")
    g = Game(Ruleset(players=2, market="basic"), seed=3)
    g.arrange(0, princess="lulunasaika", domain={"duke": 1, "senator": 1}, hand={"duke": 1}, deck=CITIES,
              discard={}, coins=8)
    acts, _, feats, _ = second_scores_and_ends(g, agent)
    by = {g.label(a): f for a, f in zip(acts, feats)}
    sp, to_set = 0, 1                                  # FEATURE_NAMES: own_sp, own_to_set
    assert by["set duke"][sp] == 21 and by["set duke"][to_set] == 0
    buy = next(k for k in by if k.startswith("buy duke"))
    assert by[buy][sp] == 15 and by[buy][to_set] == 12


def test_a_horizon_below_minus_one_is_refused_in_one_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(SECOND_ONLY.replace("horizon = 1", "horizon = -2"))
    with pytest.raises(Exception, match=r"\[plan\] horizon must be a whole number from -1 to 8"):
        priority.parse(path)


@pytest.mark.parametrize("seed", [4])
def test_the_preference_s_second_phase_is_the_same_for_states_differing_only_in_hidden_information(seed, tmp_path, plain):
    """horizon = -1 reads no determinization: its Second-phase choice must still ignore what the
    player cannot see (the other hand, every deck order, the face-down supply, the random streams)."""
    from test_ismcts import RANDOM_2P, hidden_variants

    agent = catalog.from_list(priority.parse(catalog.list_file("tuned_plan_b_2p")).with_plan(
        samples=0, second=1, horizon=-1), "preference")
    rng = np.random.default_rng(seed)
    g = Game(RANDOM_2P, seed=seed)
    weighed = pairs = 0
    while not g.over:
        p = g.decider
        if p == 0 and g.turn_player == 0 and g.context == "second phase" and g.second_phase == "open" \
                and len(g.legal_actions()) > 1:
            expected = g.clone().decide(agent)
            weighed += 1
            for name, v in hidden_variants(g, p, rng):
                assert v.decide(agent) == expected, f"turn {g.turns}: {name} changed {g.label(expected)!r}"
                pairs += 1
        g.apply(g.decide(agent if p == 0 else plain))
    assert weighed >= 10 and pairs >= 5 * weighed


def test_fitting_the_preference_writes_a_network_the_planner_reads(tmp_path):
    """`python -m experiments.second_preference` on a few games: a weight file with its gate, which
    a list with horizon = -1 plays (its key registered, its games legal)."""
    pytest.importorskip("torch")
    from experiments import second_preference
    from hoc.games.heart_of_crown.agents import preference

    out = tmp_path / "pref.npz"
    second_preference.main(["--games", "12", "--hidden", "8", "4", "--epochs", "1", "--out", str(out)])
    assert preference.key(out) > 0 and preference.gate(out).shape == (24,)
