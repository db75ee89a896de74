"""Dominion's agent parameter row, every field in one table (`hoc.engine.rows`): a bot's buy menu,
play order and trashing settings, then the search agent's block after the bot's row (a search
agent's row is its rollout bot's row with the search's settings after it). The kinds' modules read
their offsets here; the table checks at import that no kind's fields overlap."""
from __future__ import annotations

from hoc.engine.layout import N_PARAMS
from hoc.engine.rows import Field, Row

BOTS = ("priority", "search")          # a search agent's row starts with its rollout bot's
BR_SZ = 8                              # a buy rule: card, min and max coins, owned below, provinces min and max, vs
MAX_BUY = 24
MAX_PLAY = 64
BOT_LEN = 1 + MAX_BUY * BR_SZ + 1 + MAX_PLAY + 2
SEARCH_LEN = 4
WR_SZ = 4                              # a `when` condition: its rule and comparison, two terms, a constant
MAX_WHEN = 16
WHEN = BOT_LEN + SEARCH_LEN            # the conditions sit after the search block, so a search agent keeps them

ROW = Row(N_PARAMS, [
    Field("bot.n_buy", 0, kinds=BOTS, doc="buy rules in use"),
    Field("bot.buy", 1, MAX_BUY * BR_SZ, kinds=BOTS, doc="buy rules, in order"),
    Field("bot.n_play", 1 + MAX_BUY * BR_SZ, kinds=BOTS, doc="cards in the play order"),
    Field("bot.play", 2 + MAX_BUY * BR_SZ, MAX_PLAY, kinds=BOTS, doc="Action cards, in the order played"),
    Field("bot.trash_copper", 2 + MAX_BUY * BR_SZ + MAX_PLAY, kinds=BOTS, doc="trash Coppers while this many treasure"),
    Field("bot.trash_victory_min_provinces", 3 + MAX_BUY * BR_SZ + MAX_PLAY, kinds=BOTS,
          doc="trash Victory cards while at least this many Provinces are left"),
    Field("search.iterations", BOT_LEN, kinds=("search",), doc="per decision"),
    Field("search.exploration", BOT_LEN + 1, scale=1000, kinds=("search",), doc="UCB1 constant"),
    Field("search.questions", BOT_LEN + 2, kinds=("search",), doc="1: search the answers to card questions too"),
    Field("search.prior", BOT_LEN + 3, scale=1000, kinds=("search",), doc="prior of the rollout bot's own action"),
    Field("bot.n_when", WHEN, kinds=BOTS, doc="`when` conditions in use (0 for a plain buy menu)"),
    Field("bot.when", WHEN + 1, MAX_WHEN * WR_SZ, kinds=BOTS, doc="`when` conditions of the buy rules"),
])
