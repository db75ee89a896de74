"""Python agents: any callable that takes a `hoc.game.Game` and returns a legal action (an id or a
label) for `game.decider`. Use one by `module:function` name (`hoc simulate --agents
hoc.agents.examples:basic_rush_py,random`) or register it: `hoc.agents.registry.register("mine", fn)`.
They run at Python speed through the same decision interface as the jitted agents.
"""
from __future__ import annotations

from hoc.game import Game

BUY_ORDER = ("duke", "large_city", "senator", "city", "court_maid")


def basic_rush_py(game: Game):
    """basic_rush written in Python over the step API (the same decisions as the jitted one)."""
    legal = set(game.legal_actions())
    labels = {game.label(a): a for a in legal}
    me = game.decider
    if game.context == "main phase":
        for name in game.hand(me):
            if f"play {name}" in labels and "territory" in game.ruleset.cards.frame.types.iat[
                    game.ruleset.cards.index(name)]:
                return labels[f"play {name}"]
        return "pass"
    if game.context == "second phase":
        cards = game.ruleset.cards
        positive = [n for n in game.hand(me) if "succession" in cards.frame.types.iat[cards.index(n)]
                    and cards.frame.sp.iat[cards.index(n)] > 0]
        if any(lbl.startswith("pass: stop setting") for lbl in labels):
            return f"set {positive[0]}" if positive else "pass"
        buying = any(lbl.startswith("pass: stop buying") for lbl in labels)
        if not buying and game.princess(me) is None and game.coins >= 6:
            for k in game.ruleset.pool:
                if f"back {cards.name(k)}" in labels:
                    return f"back {cards.name(k)}"
        if not buying and game.princess(me) is not None and \
                sum(game.hand(me)[n] * cards.frame.sp.iat[cards.index(n)] for n in positive) >= 2:
            return f"set {positive[0]}"
        for name in BUY_ORDER:
            if name in ("duke", "senator", "court_maid") and game.princess(me) is None:
                continue
            if name == "large_city" and game.owned(me, name) >= 3:
                continue
            if f"buy {name}" in labels:
                return f"buy {name}"
        return "pass"
    if game.context == "coronation":
        return "declare coronation"
    if game.context == "card choice":
        return game.decide_default()
    return "pass"
