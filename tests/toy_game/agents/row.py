"""Toy's agent parameter row, every field in one table (`hoc.engine.rows`): a priority list's buy
rules and play order, then the search's settings after the list's row (a search agent's row is its
rollout list's row with the search's fields after it)."""
from __future__ import annotations

from hoc.engine.layout import N_PARAMS
from hoc.engine.rows import Field, Row
from toy_game.kernel.constants import MAX_CARDS

LISTS = ("priority", "search")
BR_SZ = 3                       # a buy rule: card, fewest coins, buy while owning fewer than
MAX_BUY = 12
LIST_LEN = 2 + MAX_BUY * BR_SZ + MAX_CARDS

ROW = Row(N_PARAMS, [
    Field("list.n_buy", 0, kinds=LISTS, doc="buy rules in use"),
    Field("list.buy", 1, MAX_BUY * BR_SZ, kinds=LISTS, doc="buy rules, best first"),
    Field("list.n_play", 1 + MAX_BUY * BR_SZ, kinds=LISTS, doc="cards in the play order"),
    Field("list.play", 2 + MAX_BUY * BR_SZ, MAX_CARDS, kinds=LISTS, doc="Action cards, in the order played"),
    Field("search.iterations", LIST_LEN, kinds=("search",), doc="playouts per decision"),
    Field("search.exploration", LIST_LEN + 1, scale=1000, kinds=("search",), doc="PUCT constant"),
    Field("search.prior", LIST_LEN + 2, scale=1000, kinds=("search",), doc="prior of the rollout list's own action"),
])
