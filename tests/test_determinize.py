"""The search agent's determinization (`hoc.games.heart_of_crown.agents.arena.determinize`) keeps what
the searcher sees when it chooses from a deck's top cards: its own deck's window, and an opponent's deck
top that a 1E Scout or Royal Guard reveals to it; everything else hidden is shuffled."""
from __future__ import annotations

import numpy as np

from hoc.engine.jit import entry
from hoc.games.heart_of_crown.agents.arena import AR_BUF, AR_RNG, copy_offset, determinize
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.kernel.state import mix64, store_u64
from hoc.games.heart_of_crown.rules import Ruleset

MARKET_1E = ["stargazing_witch", "library", "purveyor", "royal_guard", "scout", "conscription_writ",
             "slash_and_burn_farming", "buried_treasure", "rampart", "hideout"]


@entry
def _determinized(s, p, seed):
    """Copy the game part of s into its arena copy, determinize it for p with a stream of `seed`; return
    where the copy starts."""
    start = copy_offset(s)
    length = s[K.H_LEN]
    for i in range(length):
        s[start + i] = s[i]
    store_u64(s, s[K.H_LEN] + AR_RNG, mix64(np.uint64(seed)))
    determinize(s, s[start:start + length], p)
    return start


def samples(g: Game, p: int, n: int = 40) -> list[Game]:
    """n determinizations of g for searcher p, as Games (read with the usual accessors)."""
    length = int(g.state[K.H_LEN])
    out = []
    for seed in range(n):
        s = np.zeros(2 * length + AR_BUF + int(max(g.state[K.H_DCAP], g.state[K.H_SCAP])) + 16, K.DTYPE)
        s[:length] = g.state[:length]
        start = _determinized(s, p, seed)
        h = g.clone()
        h.state = s[start:start + length].copy()
        out.append(h)
    return out


def game(seed=3) -> Game:
    return Game(Ruleset(edition="1e", players=2, market=tuple(MARKET_1E)), seed=seed)


def test_an_opponents_deck_top_that_a_royal_guard_reveals_stays_in_the_determinizations():
    g = game()
    g.arrange(0, hand={"royal_guard": 1}, deck=["city"] * 6, discard={})
    g.arrange(1, hand={"farming_village": 2, "senator": 1}, deck=["duke", "city", "large_city", "senator", "court_maid"])
    g.apply("play royal_guard")
    assert g.context == "card choice" and g.decider == 0 and g.state[K.H_CH_OWNER] == 1
    tops = set()
    for h in samples(g, 0):
        assert h.deck(1)[:3] == ["duke", "city", "large_city"]          # the three it looks at
        assert sorted(h.deck(1)[3:] + [c for c, n in h.hand(1).items() for _ in range(n)]) == sorted(
            ["senator", "court_maid", "farming_village", "farming_village", "senator"])
        assert h.legal_actions() == g.legal_actions()
        tops.add(tuple(h.deck(1)[3:]))
    assert len(tops) > 1                                   # the rest of that deck and the hand are shuffled


def test_an_opponents_top_card_a_scout_reveals_stays_and_the_searchers_own_deck_is_shuffled():
    g = game()
    g.arrange(0, hand={"scout": 1}, deck=["curse", "city", "duke", "senator"], discard={})
    g.arrange(1, deck=["duke", "city", "large_city", "senator", "court_maid"])
    g.apply("play scout")
    g.apply("pass")                                         # my own top card stays, face up
    assert g.decider == 0 and g.state[K.H_CH_OWNER] == 1 and g.deck(1)[0] == "duke"
    mine = set()
    for h in samples(g, 0):
        assert h.deck(1)[0] == "duke" and h.legal_actions() == g.legal_actions()
        assert h.deck(0)[0] == "curse"                      # face up now: seen by everyone
        mine.add(tuple(h.deck(0)[1:]))
    assert len(mine) > 1                                    # below it, its own deck is hidden order


def test_the_searchers_own_window_stays_as_before():
    g = game()
    g.arrange(0, hand={"stargazing_witch": 1}, deck=["duke", "city", "large_city", "senator", "court_maid"],
              discard={})
    g.apply("play stargazing_witch")
    assert g.context == "card choice" and g.state[K.H_CH_OWNER] == 0
    n = int(g.state[K.H_CH_N])                              # the window it chooses from
    for h in samples(g, 0):
        assert h.deck(0)[:n] == g.deck(0)[:n] and h.legal_actions() == g.legal_actions()
