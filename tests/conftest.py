"""Shared fixtures and helpers of the hoc test suite.

Every test that builds a position uses `Game.arrange` on a basic-market game (no supply), so the
tests do not depend on the common card effects, which are still being written.
"""
from __future__ import annotations

import random
from typing import Callable

import pytest

from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.rules import Ruleset

SIX_PRINCESSES = ("lulunasaika", "laolily", "klam_klam", "bergamot", "flammaria", "twins")
END_REASONS = {"coronation", "overtime", "judgement", "turn_cap"}

# ---- policies: callables (game) -> action id or label -------------------------------------------


def pass_policy(game: Game):
    """Do nothing: pass every optional decision (never declares); forced choices take the first."""
    legal = game.legal_actions()
    return K.A_PASS if K.A_PASS in legal else legal[0]


def first_legal_policy(game: Game):
    return game.legal_actions()[0]


def random_policy(seed: int = 0) -> Callable[[Game], int]:
    rng = random.Random(seed)

    def policy(game: Game):
        return rng.choice(game.legal_actions())

    return policy


def play_to_end(game: Game, policy: Callable[[Game], int | str] | dict[int, Callable] = pass_policy,
                max_steps: int = 200_000) -> Game:
    """Play `game` to its end. `policy` is one callable for every seat, or {seat: callable}."""
    for _ in range(max_steps):
        if game.over:
            return game
        pol = policy[game.decider] if isinstance(policy, dict) else policy
        game.apply(pol(game))
    raise AssertionError(f"game did not end within {max_steps} steps: {game!r}")


def finish_turn(game: Game, declare: bool = False) -> None:
    """Pass through the rest of the current turn (declaring a coronation when offered if `declare`)."""
    turns, player, extra = game.turns, game.turn_player, game.extra_turn
    while not game.over and game.turns == turns and game.turn_player == player and game.extra_turn == extra:
        if game.context == "coronation":
            game.apply("declare coronation" if declare else "pass")
        else:
            game.apply(pass_policy(game))


def play_all(game: Game, *cards: str) -> None:
    """Play the named cards from hand, in order."""
    for c in cards:
        game.apply(f"play {c}")


def short(label: str) -> str:
    """A label without its explanation: 'pass: end the main phase' -> 'pass'."""
    return label.split(":")[0].strip()


def labels(game: Game) -> list[str]:
    """The legal actions by short label ('pass', 'play city', 'number 3', ...)."""
    return [short(game.label(a)) for a in game.legal_actions()]


# ---- fixtures ---------------------------------------------------------------------------------


def basic(players: int, **kw) -> Ruleset:
    return Ruleset(edition="2e", players=players, market="basic", **kw)


@pytest.fixture(scope="session")
def basic_1p() -> Ruleset:
    return basic(1)


@pytest.fixture(scope="session")
def basic_2p() -> Ruleset:
    return basic(2)


@pytest.fixture(scope="session")
def basic_3p() -> Ruleset:
    return basic(3)


@pytest.fixture(scope="session")
def basic_4p() -> Ruleset:
    return basic(4)


@pytest.fixture
def game2(basic_2p) -> Game:
    """A fresh 2-player basic-market game waiting for seat 1's first Main-phase decision."""
    g = Game(basic_2p, seed=7)
    assert g.turn_player == 0 and g.decider == 0 and g.context == "main phase"
    return g


@pytest.fixture(scope="session")
def warm_kernels(basic_2p):
    """Compile (or load) the kernels once, outside the timed parts of the tests."""
    from hoc.research.simulate import lineup, simulate

    simulate(basic_2p, lineup("basic_rush", 2), 2, seed=0, validate=True)
    simulate(basic_2p, lineup("random", 2), 2, seed=0, validate=False)
    return True


@pytest.fixture(name="play_to_end")
def play_to_end_fixture():
    return play_to_end


def fewest_coins(game: Game, action: int) -> int:
    """The fewest coins with which `action` is legal now (the decider's Second phase): what the
    engine really charges, to check prices against."""
    assert game.context == "second phase"
    saved = int(game.state[K.H_COINS])
    try:
        for n in range(30):
            game.state[K.H_COINS] = n
            if game.is_legal(action):
                return n
        raise AssertionError(f"{game.label(action)} is never legal")
    finally:
        game.state[K.H_COINS] = saved


@pytest.fixture(scope="session")
def margrave_rule_plans():
    """The card-value rule search's plans for Margrave from the plain `tuned_general_2p` list (no test
    of them compiles the planner): (ruleset, without, banned, pool, cards)."""
    from hoc.games.heart_of_crown.studies import card_value as cv

    rs = Ruleset(players=2, market="random", market_with=("margrave",))
    return (rs, *cv.rule_plans(rs, "margrave", cv.Tuning(start="tuned_general_2p")))
