"""Heart of Crown's agent parameter row, every field in one table (`hoc.engine.rows`): the priority
list's settings and lists, the turn planner's block in the row's tail, and the search's and the learned
policy's blocks after the list's row. Every kind's row starts with a list's row (a search's rollout
list, a learned policy's model list), so the list's and the planner's fields are carried by every
kind; the search's and the learned policy's blocks share their slots, as no row is both. The kinds'
modules read their offsets here (`ROW.at`), and the table checks at import that no kind's fields
overlap (`tests/test_priority_agents.py` prints it)."""
from __future__ import annotations

from hoc.engine.layout import N_PARAMS
from hoc.engine.rows import Field, Row

EVERY = ("priority", "planned", "search", "learned")     # every kind's row starts with a list's row

MAX_PRINCESSES = 8
MAX_FIRST = 14
MAX_CONDS = 4
RULE_SZ = 1 + 2 * MAX_CONDS                 # a buy rule: card, then (condition, value) pairs
MAX_RULES = 24
MAX_NEVER = 7
MAX_CHOOSE = 7                              # cards per [choose] list
LIST_LEN = 320                              # a list's row, its planner block included
PLAN_AT, PLAN_LEN = 278, 42                 # the turn planner's settings and evaluation close the list's row
SEARCH_AT = LEARNED_AT = LIST_LEN           # the search's and the learned policy's own blocks, after it


def _list() -> list[Field]:
    one = [("n_buy", 0, "buy rules in use"), ("set_min_sp", 1, "set Succession cards from this SP"),
           ("back_min_coins", 2, "back a princess with at least these coins"),
           ("keep", 3, "bit 1: keep the dearest Action at cleanup; bit 2: recall kept cards to play"),
           ("n_princess", 4, "princesses in the backing order"),
           ("abilities", 5, "1: use the princess's ability when worth it and a domain card's when legal"),
           ("back_min_owned", 6, "back only when owning at least this many cards"),
           ("territories_only", 7, "1: play Territories only, first in hand"),
           ("n_first", 16, "cards played first"),
           ("accept_modes", 31, "1: an optional choose-one answered with its first mode")]
    fields = [Field(f"list.{n}", at, kinds=EVERY, doc=doc) for n, at, doc in one]
    fields += [Field("list.princess", 8, MAX_PRINCESSES, kinds=EVERY, doc="princess ids, in backing order"),
               Field("list.first", 17, MAX_FIRST, kinds=EVERY, doc="card ids played first, in order"),
               Field("list.buy", 32, MAX_RULES * RULE_SZ, kinds=EVERY,
                     doc=f"buy rules: card, then {MAX_CONDS} (condition, value) pairs"),
               Field("list.n_never", 254, kinds=EVERY), Field("list.never", 255, MAX_NEVER, kinds=EVERY,
                                                              doc="cards never bought nor gained (a study's ban)"),
               Field("list.n_gain", 262, kinds=EVERY), Field("list.gain", 263, MAX_CHOOSE, kinds=EVERY,
                                                             doc="cards preferred when gaining"),
               Field("list.n_lose", 270, kinds=EVERY), Field("list.lose", 271, MAX_CHOOSE, kinds=EVERY,
                                                             doc="cards given up first")]
    return fields


PLAN = ("samples", "potential", "deck", "counter", "hand", "opponents", "margin", "nested", "par", "backed", "coin",
        "coin_cap", "second", "horizon", "second_margin", "second_at", "settle", "next")
PLAN_DOCS = {"samples": "determinizations per action (0: the planner is off)", "nested": "1: plan card questions "
             "inside a look-ahead", "par": "the printed cost of a card that neither helps nor hurts",
             "backed": "what having backed a princess is worth beyond her price", "coin": "a coin to spend in the "
             "Second phase", "coin_cap": "coins worth `coin` each", "second": "determinizations per Second-phase option",
             "horizon": "own turns played on before the evaluation", "second_margin": "log-odds x 1000 an option must "
             "win by", "second_at": "1: where it may back, 2: set, 3: both", "settle": "an SP set from hand, at a "
             "Main-phase look-ahead's end", "next": "1: tied answers weighed at the next turn's end"}
WEIGHT_SCALE = 10_000


def _plan() -> list[Field]:
    fields = [Field(f"plan.{n}", PLAN_AT + k, kinds=EVERY, doc=PLAN_DOCS.get(n, "a weight, x 100"))
              for k, n in enumerate(PLAN)]
    at = PLAN_AT + len(PLAN)
    return fields + [Field("plan.weights", at, PLAN_AT + PLAN_LEN - at, WEIGHT_SCALE, EVERY,
                           "the evaluation: its constant, then a weight per feature")]


SEARCH = (("iterations", 1, "per decision"), ("exploration", 1000, "PUCT constant"),
          ("cutoff", 1, "rollouts stop after this many turns (0: at the end)"),
          ("princess", 1, "backs this princess whenever offered (-1: any)"),
          ("scale", 1000, "SP lead worth e at a cut-off"), ("prior", 1000, "prior of the rollout list's action"),
          ("main", 1, "1: search Main-phase decisions with a text at hand"),
          ("eval", 1, "a cut-off's score: 0 the SP lead, 1 the learned evaluation"),
          ("net", 1, "key of the network guiding the search (0: none)"),
          ("net_temperature", 1000, "its prior's softmax temperature"))


def _search() -> list[Field]:
    return [Field(f"search.{n}", SEARCH_AT + k, 1, scale, ("search",), doc) for k, (n, scale, doc) in enumerate(SEARCH)]


def _learned() -> list[Field]:
    return [Field("learned.key", LEARNED_AT, kinds=("learned",), doc="the network, by key"),
            Field("learned.temperature", LEARNED_AT + 1, scale=1000, kinds=("learned",),
                  doc="softmax temperature (0: the highest logit)")]


ROW = Row(N_PARAMS, _list() + _plan() + _search() + _learned())
