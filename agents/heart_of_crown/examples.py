"""Python agents: any callable that takes a `hoc.games.heart_of_crown.game.Game` and returns a legal action (an `Action`
from `game.legal_actions()`, an id, or a label such as "pass") for `game.decider`. Use one by
`module:function` name (`hoc simulate --agents hoc.games.heart_of_crown.agents.examples:basic_rush_py,random`; a
`mymodule.py` in the current folder is found too) or register it:
`hoc.agents.registry.register("mine", fn)`. They play through the same decision interface as the
jitted agents; `basic_rush_py` plays about 1,400 two-player games per second on one core
(`benchmarks/bench_python_agent.py`), the jitted `basic_rush` about 40 times more. The harness
plays the games of a chunk in one `Game` (reset between games): an agent that remembers things
between calls must notice a new game (e.g. `game.turns` going back).
"""
from __future__ import annotations

from hoc.games.heart_of_crown.agents.policies import default_answer
from hoc.games.heart_of_crown.game import Game

# what basic_rush buys, best first, and whether it waits for a princess before buying it
BUY_ORDER = (("duke", True), ("large_city", False), ("senator", True), ("city", False), ("court_maid", True))


def basic_rush_py(game: Game):
    """basic_rush in Python: the same decisions as the jitted agent (tests/test_agent_forms.py)."""
    me = game.decider
    cards = game.cards
    legal = game.legal_actions()
    if game.context == "main phase":                   # the first Territory in hand; never Actions
        for a in legal:
            if a.verb == "play" and "territory" in cards[a.card].types:
                return a
        return "pass"
    if game.context == "second phase":
        worth_sp = [a for a in legal if a.verb == "set" and cards[a.card].sp > 0]
        if game.second_phase == "setting":
            return worth_sp[0] if worth_sp else "pass"
        princess = game.princess(me)
        if game.second_phase == "open" and princess is None and game.coins >= 6:
            backs = {a.card: a for a in legal if a.verb == "back"}
            for name in game.princesses_available():
                if name in backs:
                    return backs[name]
        if game.second_phase == "open" and princess is not None and worth_sp:
            hand = game.hand(me)
            if sum(hand[a.card] * cards[a.card].sp for a in worth_sp) >= 2:
                return worth_sp[0]
        buys = {a.card: a for a in legal if a.verb == "buy"}
        for name, needs_princess in BUY_ORDER:
            if name in buys and (princess is not None or not needs_princess) \
                    and not (name == "large_city" and game.owned(me, name) >= 3):
                return buys[name]
        return "pass"
    if game.context == "coronation":
        return "declare coronation"
    if game.context == "card choice":
        return default_answer(game)
    return "pass"
