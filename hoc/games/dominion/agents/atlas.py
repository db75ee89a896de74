"""Dominion's plan space for the strategy atlas (`hoc atlas --game dominion`): a vector of numbers in
[0, 1] decoded into a bot's buy menu (`hoc.games.dominion.agents.bots`), the format of `hoc tune
--game dominion` and of the library.

Every card a bot may buy on the kingdom (Province, Duchy, Estate, Gold, Silver, the ten kingdom
cards and Copper, for decks that gain many cheap cards) has five coordinates: its priority (entries
are ordered by it), a gate (bought at all when at least 1/2), a cap (`owned_below` 1 to 8, none
above), one more: for Duchy and Estate how few Provinces must be left (`provinces_at_most` 1 to 8),
for the others how many coins above its cost it waits for (0 to 2), and the deck size it waits for
(`when = ["owned(all) >= N"]`, N up to 40; 10 or less, the starting deck, is no wait): a rush that
first builds its gainers, then greens (nine Workshops before the first Gardens), needs it. Two more coordinates set the trashing thresholds (Coppers while the rest of
the deck's money is at least 3 to 8, or never; 1-VP Victory cards while more Provinces than 0 to 8
are left, or never). Actions are played in the bots' default order.
"""
from __future__ import annotations

import json
import re

import numpy as np

from hoc.agents.plan_space import Descriptor, Layout, deck_size, own_turns, ranked, share_of

PER_CARD = 5                    # priority, gate, cap, extra, after
PRIORITY, GATE, CAP, EXTRA, AFTER = range(PER_CARD)
MAX_CAP = 8
MAX_AFTER = 40                  # the largest deck size a card may wait for
START_DECK = 10                 # a wait for this many cards or fewer is none


class Space(Layout):
    """The buy menus of one kingdom (`hoc.agents.plan_space.Space`)."""

    per_card, priority, gate = PER_CARD, PRIORITY, GATE
    revision = 2                                # 2: the bots play Throne Room before the Action it plays
    cap = (CAP, 2 / MAX_CAP)                    # owned_below 3
    # a deck built on a kind owns three copies by default: the strongest deck owning one of each kind
    # of a pair is mostly the stronger kind's money deck with a token copy of the other, whose
    # knock-outs differ by little, so the documented engines (Village or Throne Room with Smithy) and
    # Moat against Witch read nothing; at three they are confirmed, twice each
    # (results/combos/dominion_documented_copies3, _seed1; docs/combos.md "How many copies")
    committed = 3.0

    def __init__(self, ruleset):
        from hoc.games.dominion.agents.genome import universe

        self.ruleset = ruleset
        kingdom = universe(ruleset)             # a fixed kingdom, or one line saying to name one
        # Copper last: a deck that gains many cheap cards (Gardens) buys it on purpose
        self.cards = [*kingdom, "copper"]
        db = ruleset.cards
        self.db = db
        self.lower, self.upper = np.zeros(PER_CARD * len(self.cards) + 2), np.ones(PER_CARD * len(self.cards) + 2)
        self.kinds = {n: [db.lookup(n)] for n in kingdom[5:]}
        actions = [c for c in range(len(db)) if "action" in db[c].types]
        victory = [c for c in range(len(db)) if "victory" in db[c].types or "curse" in db[c].types]
        self.descriptors = {d.name: d for d in (
            Descriptor("action_share", "share of Action cards in the final deck", 0.0, 0.6, share_of(actions),
                       "Big Money with a few Actions against an engine"),
            Descriptor("deck_size", "cards owned at the end", 5.0, 60.0, deck_size,
                       "a deck trashed thin against one bloated with cheap cards (Gardens)"),
            Descriptor("victory_share", "share of Victory and Curse cards at the end", 0.0, 0.7, share_of(victory),
                       "greening early and hard against staying lean"),
            Descriptor("own_turns", "own turns in the game", 10.0, 30.0, own_turns,
                       "a fast game against a slow one"))}
        self.default_descriptors = ("action_share", "deck_size")

    def panel(self) -> list[str]:
        """The library's bots that this kingdom lets play as written (every card they buy is in it),
        Big Money among them: the strongest known plans of the kingdom."""
        from hoc.games.dominion.agents.bots import library

        return [name for name, b in library().items() if b.cards <= set(self.cards)]

    def entries(self, x: np.ndarray) -> tuple[tuple[dict, ...], int, int]:
        """The buy menu of point x and its two trashing thresholds."""
        from hoc.games.dominion.agents.bots import NEVER

        n = len(self.cards)
        genes = np.clip(np.asarray(x, float), 0.0, 1.0)
        buy = []
        for c, g in ranked(genes, n, PER_CARD, PRIORITY, GATE, self.barred):
            card = self.cards[c]
            entry = {"card": card, "coins": self.db[card].cost}
            if card in ("duchy", "estate"):
                entry["provinces_at_most"] = 1 + int(round(g[EXTRA] * 7))
            else:
                entry["coins"] += int(round(g[EXTRA] * 2))
            cap = 1 + int(round(g[CAP] * MAX_CAP))
            if cap <= MAX_CAP:
                entry["owned_below"] = cap
            after = int(round(g[AFTER] * MAX_AFTER))
            if after > START_DECK:
                entry["when"] = [f"owned(all) >= {after}"]
            buy.append(entry)
        copper, estates = genes[PER_CARD * n:]
        trash_copper = 0 if copper < 0.3 else 3 + int(round((copper - 0.3) / 0.7 * 5))
        trash_estates = NEVER if estates < 0.3 else int(round((estates - 0.3) / 0.7 * 8))
        return tuple(buy) or ({"card": "silver", "coins": 3},), trash_copper, trash_estates

    def bot(self, x: np.ndarray, name: str = "elite"):
        from hoc.games.dominion.agents.bots import Bot

        buy, copper, estates = self.entries(x)
        return Bot(name, "a deck of the strategy atlas (hoc atlas --game dominion)", buy, (), copper, estates,
                   "(atlas)")

    def point(self, bot) -> np.ndarray:
        """The point closest to a bot: each card's first entry (order, cap and its coins or Province
        threshold) and its trashing thresholds; a bot's other keys are dropped."""
        from hoc.games.dominion.agents.bots import NEVER

        n = len(self.cards)
        x = np.full(len(self.lower), 0.5)
        per = x[:PER_CARD * n].reshape(n, PER_CARD)
        # a card the bot does not buy: its gate a small step below on, its other genes the plainest entry
        # (no cap, at its cost, Duchy and Estate at any time, no wait), so one step of a search buys it
        per[:, GATE] = 0.4
        per[:, CAP] = 1.0
        per[:, EXTRA] = [1.0 if card in ("duchy", "estate") else 0.0 for card in self.cards]
        per[:, AFTER] = 0.0
        seen = set()
        for i, e in enumerate(bot.buy):
            card = e.get("card")
            if card not in self.cards or card in seen:
                continue
            seen.add(card)
            c = self.cards.index(card)
            per[c, PRIORITY] = 1.0 - i / len(bot.buy)
            per[c, GATE] = 0.75
            if e.get("owned_below") is not None:
                per[c, CAP] = (min(e["owned_below"], MAX_CAP) - 1) / MAX_CAP
            if card in ("duchy", "estate"):
                per[c, EXTRA] = (min(max(e.get("provinces_at_most") or 8, 1), 8) - 1) / 7
            else:
                per[c, EXTRA] = min(max(e.get("coins", self.db[card].cost) - self.db[card].cost, 0), 2) / 2
            for w in e.get("when", ()):
                size = re.fullmatch(r"\s*owned\(all\)\s*>=\s*(\d+)\s*", w)
                if size:
                    per[c, AFTER] = min(int(size.group(1)), MAX_AFTER) / MAX_AFTER
        x[PER_CARD * n] = 0.0 if bot.trash_copper == 0 else 0.3 + (min(max(bot.trash_copper, 3), 8) - 3) / 5 * 0.7
        x[PER_CARD * n + 1] = 0.0 if bot.trash_estates_above >= NEVER else \
            0.3 + min(bot.trash_estates_above, 8) / 8 * 0.7
        return x

    def starts(self) -> list[np.ndarray]:
        """Big Money, as a point: the atlas is not told the kingdom's strategies (the other emitters
        start from random points)."""
        from hoc.games.dominion.agents.bots import library

        return [self.point(library()["dom_big_money"])]

    def row(self, x: np.ndarray) -> tuple[int, np.ndarray]:
        from hoc.games.dominion.agents.catalog import bot_agent

        a = bot_agent(self.bot(x))
        return a.id, a.params(self.ruleset)

    def text(self, x: np.ndarray, header: str) -> str:
        buy, copper, estates = self.entries(x)
        from hoc.games.dominion.agents.bots import NEVER

        lines = [f"# {line}".rstrip() for line in header.splitlines()]
        lines += ['game = "dominion"', 'description = "a deck of the strategy atlas (hoc atlas --game dominion)"']
        if copper:
            lines.append(f"trash_copper = {copper}")
        if estates < NEVER:
            lines.append(f"trash_estates_above = {estates}")
        lines.append("buy = [")
        for e in buy:
            lines.append("  { " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in e.items()) + " },")
        return "\n".join(lines + ["]", ""])
