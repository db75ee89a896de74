"""The learning environments (`hoc.env`): the PettingZoo AEC environment and the Gymnasium one pass
their libraries' checkers, the observation shows only what the observing seat may see and reads
the game as `Game` does, environment games are engine games, and the vectorized stepper plays the
same games with rewards at the end."""
from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import hoc.env
from hoc.games.heart_of_crown.observation import layout, legal_mask, observe, reference, size
from hoc.env.vector import VecHoc, reward
from hoc.errors import HocError, IllegalActionError
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.kernel.zones import FACE_UP
from hoc.games.heart_of_crown.rules import Ruleset

from conftest import random_policy

LEARNER_BLOCK = (K.AGENTS, K.LEGAL)    # where a game's jitted lineup and its legal-action scratch live


def quiet(fn, *args, **kwargs):
    """Run a library checker without its advice on Dict observation spaces (a mask needs one)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


# ---- the libraries' checkers ------------------------------------------------------------------

@pytest.mark.parametrize("players,market", [(2, "random"), (3, "basic"), (4, "random")])
def test_the_aec_environment_passes_the_pettingzoo_api_test(players, market):
    quiet(api_test, hoc.env.env(players=players, market=market, seed=5), num_cycles=400)


def test_the_aec_environment_passes_the_pettingzoo_seed_test():
    quiet(seed_test, lambda: hoc.env.env(players=2), num_cycles=400)


@pytest.mark.parametrize("opponents", ["senator_duke", "random,basic_rush"])
def test_the_gymnasium_environment_passes_check_env(opponents):
    players = len(opponents.split(",")) + 1
    e = gymnasium.make("hoc/HeartOfCrown-v0", opponents=opponents, players=players)
    quiet(check_env, e.unwrapped, skip_render_check=True)


def test_the_gymnasium_id_is_registered_by_importing_hoc_env():
    assert hoc.env.GYM_ID in gymnasium.registry
    e = gymnasium.make("hoc/HeartOfCrown-v0", opponents="basic_rush", market="basic", seat=1)
    obs, info = e.reset(seed=3)
    assert info["seat"] == 1 and obs["observation"].shape == (size(2),)
    assert obs["action_mask"].sum() > 0 and obs["observation"][layout(2)["seat"]][0] == 1


# ---- what an observation shows ------------------------------------------------------------------

def view(game: Game, seat: int) -> tuple[np.ndarray, np.ndarray]:
    obs = np.zeros(size(game.players), np.float32)
    mask = np.zeros(K.N_ACTIONS, np.int8)
    assert observe(game.state, seat, obs) == obs.shape[0]
    legal_mask(game.state, seat, mask)
    return obs, mask


def positions(seeds=range(6), players=2, steps=(5, 40, 120, 300)):
    """Games of random play stopped at several points, on random markets (every card text in play)."""
    for seed in seeds:
        g = Game(Ruleset(players=players), seed=seed)
        policy = random_policy(seed)
        taken = 0
        for stop in steps:
            while taken < stop and not g.over:
                g.apply(policy(g))
                taken += 1
            if g.over:
                break
            yield g


def hide_differently(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position but for what `seat` cannot see: every deck's face-down cards in another
    order, each other seat's hand traded with cards of its deck, the supply's face-down cards in
    another order, and other random streams."""
    other = game.clone()
    s = other.state
    nc = int(s[K.H_NC])
    for p in range(other.players):
        b = int(s[K.H_OFF_PLAYER] + p * K.PSZ)
        off, n = int(s[K.H_OFF_DECK] + p * s[K.H_DCAP]), int(s[b + K.P_DECK_N])
        down = [i for i in range(off, off + n) if not s[i] & FACE_UP]
        cards = [int(s[i]) for i in down]
        rng.shuffle(cards)
        s[down] = cards
        if p != seat:
            hand = int(s[K.H_OFF_HAND] + p * nc)
            for i in down:                      # trade hand cards for deck cards of other kinds
                held = [c for c in range(nc) if s[hand + c] > 0 and c != s[i]]
                if held:
                    c = rng.choice(held)
                    s[hand + c] -= 1
                    s[hand + int(s[i])] += 1
                    s[i] = c
        for slot in (K.P_RNG, K.P_RNG + 1, K.P_ARNG, K.P_ARNG + 1):
            s[b + slot] = rng.randrange(-2 ** 31, 2 ** 31)
    sup, n = int(s[K.H_OFF_SUPPLY]), int(s[K.H_SUPPLY_N] - s[K.H_REVEALED])
    order = s[sup:sup + n].copy()
    rng.shuffle(order)
    s[sup:sup + n] = order
    s[K.H_RNG], s[K.H_RNG + 1] = rng.randrange(-2 ** 31, 2 ** 31), rng.randrange(-2 ** 31, 2 ** 31)
    return other


def test_states_that_differ_only_in_hidden_information_give_identical_observations():
    rng = random.Random(1)
    compared = changed = 0
    for g in positions():
        for seat in range(g.players):
            other = hide_differently(g, seat, rng)
            changed += not np.array_equal(other.state, g.state)
            for a, b in zip(view(g, seat), view(other, seat)):
                assert np.array_equal(a, b), f"{g!r}: seat {seat} sees hidden information"
            compared += 1
    assert compared >= 30 and changed >= compared - 2        # the hidden parts did differ


def test_the_observation_changes_with_what_the_seat_may_see():
    """The check above could pass with a blind observation: changing the seat's own hand, an
    opponent's discard pile or the coins changes it."""
    g = next(positions(seeds=[2], steps=[40]))
    seat, opp = g.decider, 1 - g.decider
    base = view(g, seat)[0]
    for zone, p in (("hand", seat), ("discard", opp)):
        other = g.clone()
        off = int(other.state[getattr(K, f"H_OFF_{zone.upper()}")] + p * other.state[K.H_NC])
        other.state[off + other.cards.index("duke")] += 1
        assert not np.array_equal(view(other, seat)[0], base), zone
    other = g.clone()
    other.state[K.H_COINS] += 3
    assert view(other, seat)[0][layout(2)["coins"]][0] == g.coins + 3


def test_observation_fields_read_the_table_as_game_does():
    names = None
    for g in positions(seeds=range(4), players=3):
        names = g._names
        L = layout(g.players)
        for seat in range(g.players):
            obs = view(g, seat)[0]

            def cards(key):
                return {names[c]: int(n) for c, n in enumerate(obs[L[key]]) if n}

            assert obs[L["seat"]][0] == seat and obs[L["to_decide"]][0] == (g.decider == seat)
            assert obs[L["coins"]][0] == g.coins and obs[L["turns"]][0] == g.turns
            assert obs[L["turn_player"]][0] == (g.turn_player - seat) % g.players
            assert cards("hand") == g.hand(seat)
            deck = {}
            for c in g.deck(seat):
                deck[c] = deck.get(c, 0) + 1
            assert cards("deck") == deck
            assert cards("market") == g.market() and cards("play_area") == g.play_area()
            assert cards("exiled") == g.exiled()
            prices = cards("price")
            assert all(prices.get(c, 0) == g.price(c, seat) for c in prices)
            for r in range(g.players):
                p = (seat + r) % g.players
                assert obs[L[f"sp/{r}"]][0] == g.sp(p) and obs[L[f"hand_size/{r}"]][0] == sum(g.hand(p).values())
                assert obs[L[f"deck_size/{r}"]][0] == len(g.deck(p))
                assert cards(f"discard_pile/{r}") == g.discard_pile(p) and cards(f"domain/{r}") == g.domain(p)
                assert cards(f"kept/{r}") == g.kept(p)
                princess = obs[L[f"princess/{r}"]][0]
                assert (names[int(princess) - 1] if princess else None) == g.princess(p)
                face_up = [c for c in g.deck_face_up(p) if c]
                assert sum(cards(f"deck_face_up/{r}").values()) == len(face_up)
    assert names is not None


def test_only_the_deciding_seat_has_legal_actions_in_its_mask():
    for g in positions(seeds=[3], players=3):
        for seat in range(3):
            mask = view(g, seat)[1]
            if seat == g.decider:
                assert np.flatnonzero(mask).tolist() == [int(a) for a in g.legal_actions()]
            else:
                assert not mask.any()


def test_docs_env_md_holds_the_reference_written_from_the_field_list():
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "env.md").read_text()
    assert reference() in text, "docs/env.md is stale: rewrite its table with hoc.games.heart_of_crown.observation.reference()"


# ---- environment games are engine games ---------------------------------------------------------

def same_game(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal states, leaving out the seated agents' block and the agents' own random streams (an
    environment's learner seat has no jitted agent; replays seat theirs)."""
    a, b = a.copy(), b.copy()
    for s in (a, b):
        s[LEARNER_BLOCK[0]:LEARNER_BLOCK[1] + K.N_ACTIONS] = 0
        for p in range(int(s[K.H_NP])):
            off = int(s[K.H_OFF_PLAYER] + p * K.PSZ + K.P_ARNG)
            s[off:off + 2] = 0
    return np.array_equal(a, b)


@pytest.mark.parametrize("agents", [("basic_rush", "senator_duke"), ("random", "court_politics")])
def test_an_environment_game_with_the_actions_of_a_replay_is_the_replayed_game(agents):
    from hoc.agents.registry import get
    from hoc.games.heart_of_crown.replay import replay_game
    from hoc.research.harness import Plan

    rs = Ruleset(players=2)
    r = replay_game(Plan(rs, [get(a) for a in agents], 3, 11, False, False), 2)
    e = hoc.env.env(ruleset=rs)
    e.reset(seed=r.game.seed)
    for a in r.actions:
        assert e.agent_selection == f"player_{e.game.decider}"
        e.step(a)
    assert e.game.over and all(e.terminations.values())
    assert same_game(e.game.state, r.game.state)
    assert [e.rewards[f"player_{p}"] > 0 for p in range(2)] == [p in r.game.winners for p in range(2)]


def test_a_stepper_game_is_the_engine_game_of_its_seed_with_the_same_actions():
    """Each learner decision of slot 0 is checked against a `Game` of the slot's seed in which the
    learner's actions are taken and the opponent's come from the same jitted agent."""
    from hoc.agents.registry import get

    vec = VecHoc(3, opponents="senator_duke", seed=4)
    obs, masks = vec.reset()
    rng = np.random.default_rng(0)
    game, seat, games = None, None, 0
    while games < 2:
        if game is None:
            game, seat = Game(vec.ruleset, seed=vec.game_seed(0)), int(vec.learners[0])
        while game.decider != seat and not game.over:
            game.apply(game.decide(get("senator_duke")))
        assert same_game(game.state, vec.states[0])
        assert np.array_equal(view(game, seat)[0], obs[0]) and np.array_equal(view(game, seat)[1], masks[0])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        game.apply(int(actions[0]))
        obs, masks, rewards, dones = vec.step(actions)
        if dones[0]:
            while not game.over:
                game.apply(game.decide(get("senator_duke")))
            assert rewards[0] == reward(game.state, seat) and vec.ended[0, 1] == seat
            assert vec.ended[0, 0] == np.uint64(game.seed).view(np.int64)
            game, games = None, games + 1


SEARCH_OPPONENT = "ismcts:iterations=40"      # enough to leave its rollout list, cheap enough for a test


def engine_game(ruleset, seed, opponent) -> list[np.ndarray]:
    """The game part of the state at each of seat 0's decisions in `Game(ruleset, seed)`, seat 0
    taking its first legal action and seat 1 the action of the jitted agent `opponent`."""
    game, seen = Game(ruleset, seed=seed), []
    while not game.over:
        if game.decider == 0:
            seen.append(game.state[:game.state[K.H_LEN]].copy())
            game.apply(int(game.legal_actions()[0]))
        else:
            game.apply(game.decide(opponent))
    return seen


@pytest.mark.slow   # search games in the stepper (~1 min)
def test_a_search_opponent_in_the_environments_searches_instead_of_playing_its_rollout_list():
    """The stepper's and the Gymnasium environment's `ismcts` opponent plays the game `Game.decide`
    plays with the search agent, which is not the game its rollout list plays (before the fix the
    environments' plain decide function played the list for it)."""
    from hoc.agents.registry import get
    from hoc.games.heart_of_crown.agents.search import parse

    vec = VecHoc(1, opponents=SEARCH_OPPONENT, seat=0, seed=3)
    obs, masks = vec.reset()
    seed, stepped = vec.game_seed(0), []
    dones = [False]
    while not dones[0]:
        s = vec.states[0]
        stepped.append(s[:s[K.H_LEN]].copy())
        obs, masks, rewards, dones = vec.step(np.array([np.flatnonzero(masks[0])[0]]))
    searched = engine_game(vec.ruleset, seed, get(SEARCH_OPPONENT))
    listed = engine_game(vec.ruleset, seed, get(parse(SEARCH_OPPONENT).rollout))
    assert len(stepped) == len(searched) and all(map(same_game, stepped, searched))
    assert len(listed) != len(searched) or not all(map(same_game, listed, searched))

    e = gymnasium.make("hoc/HeartOfCrown-v0", opponents=SEARCH_OPPONENT, seat=0).unwrapped
    obs, _ = e.reset(seed=seed)
    gym_seen, done = [], False
    while not done:
        gym_seen.append(e.game.state[:e.game.state[K.H_LEN]].copy())
        obs, r, done, _, _ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(gym_seen) == len(searched) and all(map(same_game, gym_seen, searched))


# ---- rewards and refusals ------------------------------------------------------------------------

@pytest.mark.parametrize("win_mask,seat,expected", [(0b01, 0, 1.0), (0b01, 1, -1.0), (0b11, 1, 0.5),
                                                    (0b110, 1, 0.5), (0b110, 0, -1.0), (0, 0, 0.0)])
def test_rewards_give_a_sole_win_1_a_shared_win_its_share_a_loss_minus_1_and_a_draw_0(win_mask, seat, expected):
    g = Game(players=3, market="basic", seed=1)
    assert reward(g.state, seat) == 0.0                  # nothing while the game runs
    g.state[K.H_END] = K.END_JUDGEMENT
    g.state[K.H_WIN_MASK] = win_mask
    assert reward(g.state, seat) == expected


def test_the_stepper_learner_loses_every_game_to_basic_rush_when_playing_at_random():
    vec = VecHoc(16, opponents="basic_rush", seed=2)
    obs, masks = vec.reset()
    rng = np.random.default_rng(1)
    seen = []
    for _ in range(400):
        obs, masks, rewards, dones = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        seen += rewards[dones].tolist()
        assert not rewards[~dones].any()
    assert len(seen) >= 5 and set(seen) == {-1.0}
    assert set(vec.learners.tolist()) == {0, 1}              # the learner's seat rotates


def test_the_stepper_refuses_an_illegal_action_naming_the_game():
    vec = VecHoc(2, opponents="random", seed=2)
    obs, masks = vec.reset()
    actions = np.array([np.flatnonzero(masks[0])[0], np.flatnonzero(masks[1] == 0)[0]])
    before = vec.states.copy()
    with pytest.raises(HocError, match="not legal in game 1"):
        vec.step(actions)
    assert np.array_equal(before, vec.states)                # nothing applied


def test_bad_environment_arguments_get_one_line_errors():
    with pytest.raises(HocError, match="2 players need 1 opponents"):
        VecHoc(2, opponents="random,random")
    with pytest.raises(HocError, match="unknown agent"):
        gymnasium.make("hoc/HeartOfCrown-v0", opponents="nobody")
    with pytest.raises(HocError, match="seat 2 does not exist"):
        VecHoc(2, seat=2)


def test_an_illegal_gymnasium_action_forfeits_the_game():
    e = gymnasium.make("hoc/HeartOfCrown-v0", opponents="random").unwrapped
    obs, _ = e.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, r, terminated, truncated, info = e.step(illegal)
    assert (r, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)


def test_an_illegal_aec_action_is_refused():
    e = hoc.env.env(seed=1)
    e.reset()
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError):
        e.step(int(np.flatnonzero(mask == 0)[0]))
