"""Structural moves over plans, and plans drawn from nothing.

Every move takes a plan, the `Universe` of cards it may name and a numpy Generator, and returns a
plan that writes a valid agent file: list lengths, conditions per rule and threshold bounds stay
within the format's limits, a plan keeps at least one buy rule, a rule never names one kind of
condition twice, and a plan that must
back a given princess first keeps her first. A move that cannot apply (dropping from an empty
list) returns the plan unchanged; `mutate` draws moves until the plan changes.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from hoc.games.heart_of_crown.agents import priority_kernel as PK
from hoc.games.heart_of_crown.agents.planner import DEFAULTS as PLAN_DEFAULTS
from hoc.games.heart_of_crown.agents.planner import SECOND_DEFAULTS
from hoc.games.heart_of_crown.agents.genome import CARD_VALUED, FALLBACK_BUY, FLAGS, NUMERIC, Plan, Rule, Universe

# where fresh thresholds are drawn (inside BOUNDS): the values a player would try first
TYPICAL = {
    "coins_at_least": (2, 10), "coins_at_most": (2, 8), "turn_at_least": (2, 15), "turn_at_most": (3, 20),
    "owned_below": (1, 4), "owned_at_least": (1, 4), "sp_at_least": (2, 18), "sp_below": (2, 18),
    "behind_at_least": (1, 10), "pile_at_most": (0, 6), "cards_at_least": (10, 30), "cards_below": (10, 30),
}
KINDS = ("princess",) + NUMERIC + CARD_VALUED


def _pick(rng: np.random.Generator, items):
    return items[int(rng.integers(len(items)))]


def condition_value(kind: str, universe: Universe, rng: np.random.Generator):
    if kind == "princess":
        return bool(rng.integers(2))
    if kind == "backed":
        return _pick(rng, universe.princesses)
    if kind in CARD_VALUED:
        return _pick(rng, universe.offers)
    lo, hi = TYPICAL[kind]
    return int(rng.integers(lo, hi + 1))


def new_rule(universe: Universe, rng: np.random.Generator) -> Rule:
    """A rule on a random buyable card with none, one or two random conditions."""
    n = int(rng.choice(3, p=(0.3, 0.45, 0.25)))
    kinds = [KINDS[i] for i in rng.choice(len(KINDS), size=n, replace=False)]
    return Rule(_pick(rng, universe.buyable), tuple((k, condition_value(k, universe, rng)) for k in kinds))


def random_plan(universe: Universe, rng: np.random.Generator) -> Plan:
    """A plan from nothing: a few princesses in random order, 3 to 8 random buy rules, up to two
    Actions played first; the rest at the format's defaults."""
    pool = list(universe.princesses)
    prefer = [pool[i] for i in rng.permutation(len(pool))[:int(rng.integers(1, 4))]]
    first = [universe.playable[i] for i in rng.permutation(len(universe.playable))[:int(rng.integers(0, 3))]]
    plan = Plan(buy=tuple(new_rule(universe, rng) for _ in range(int(rng.integers(3, 9)))), prefer=tuple(prefer),
                min_coins=int(rng.integers(6, 9)), set_min_sp=int(rng.integers(1, 5)), first=tuple(first))
    return valid(plan, universe)


# ---- the moves ------------------------------------------------------------------------------------

def add_rule(plan: Plan, universe: Universe, rng) -> Plan:
    if len(plan.buy) >= PK.MAX_RULES:
        return plan
    i = int(rng.integers(len(plan.buy) + 1))
    return replace(plan, buy=plan.buy[:i] + (new_rule(universe, rng),) + plan.buy[i:])


def add_rule_for(plan: Plan, card: str, universe: Universe, rng) -> Plan:
    """A rule for `card` (with random conditions) at a random place; a full plan loses a rule for it."""
    rule = replace(new_rule(universe, rng), card=card)
    buy = plan.buy
    if len(buy) >= PK.MAX_RULES:
        k = int(rng.integers(len(buy)))
        buy = buy[:k] + buy[k + 1:]
    i = int(rng.integers(len(buy) + 1))
    return valid(replace(plan, buy=buy[:i] + (rule,) + buy[i:]), universe)


def drop_rule(plan: Plan, universe: Universe, rng) -> Plan:
    if len(plan.buy) < 2:           # an agent file needs a buy rule
        return plan
    i = int(rng.integers(len(plan.buy)))
    return replace(plan, buy=plan.buy[:i] + plan.buy[i + 1:])


def _move(items: tuple, rng) -> tuple:
    """One item moved to another place in the sequence."""
    if len(items) < 2:
        return items
    i, j = (int(x) for x in rng.choice(len(items), size=2, replace=False))
    rest = items[:i] + items[i + 1:]
    return rest[:j] + (items[i],) + rest[j:]


def move_rule(plan: Plan, universe: Universe, rng) -> Plan:
    return replace(plan, buy=_move(plan.buy, rng))


def _with_rule(plan: Plan, i: int, rule: Rule) -> Plan:
    return replace(plan, buy=plan.buy[:i] + (rule,) + plan.buy[i + 1:])


def change_card(plan: Plan, universe: Universe, rng) -> Plan:
    if not plan.buy:
        return plan
    i = int(rng.integers(len(plan.buy)))
    return _with_rule(plan, i, replace(plan.buy[i], card=_pick(rng, universe.buyable)))


def add_condition(plan: Plan, universe: Universe, rng) -> Plan:
    if not plan.buy:
        return plan
    i = int(rng.integers(len(plan.buy)))
    rule = plan.buy[i]
    free = [k for k in KINDS if rule.condition(k) is None]
    if len(rule.conditions) >= PK.MAX_CONDS or not free:
        return plan
    kind = _pick(rng, free)
    return _with_rule(plan, i, replace(rule, conditions=rule.conditions + ((kind, condition_value(kind, universe, rng)),)))


def drop_condition(plan: Plan, universe: Universe, rng) -> Plan:
    rules = [i for i, r in enumerate(plan.buy) if r.conditions]
    if not rules:
        return plan
    i = _pick(rng, rules)
    c = plan.buy[i].conditions
    k = int(rng.integers(len(c)))
    return _with_rule(plan, i, replace(plan.buy[i], conditions=c[:k] + c[k + 1:]))


def change_condition(plan: Plan, universe: Universe, rng) -> Plan:
    """A condition replaced by another kind with a fresh value, or a card-valued one re-aimed."""
    rules = [i for i, r in enumerate(plan.buy) if r.conditions]
    if not rules:
        return plan
    i = _pick(rng, rules)
    rule = plan.buy[i]
    k = int(rng.integers(len(rule.conditions)))
    old = rule.conditions[k][0]
    free = [x for x in KINDS if rule.condition(x) is None or x == old]
    kind = _pick(rng, free)
    c = rule.conditions[:k] + ((kind, condition_value(kind, universe, rng)),) + rule.conditions[k + 1:]
    return _with_rule(plan, i, replace(rule, conditions=c))


def nudge_threshold(plan: Plan, universe: Universe, rng) -> Plan:
    """One threshold moved by 1 to 3 either way (the continuous optimiser does the rest)."""
    values = plan.thresholds()
    k = int(rng.integers(len(values)))
    values[k] += int(rng.choice((-3, -2, -1, 1, 2, 3)))
    return plan.with_thresholds(values)


def flip_princess_condition(plan: Plan, universe: Universe, rng) -> Plan:
    rules = [i for i, r in enumerate(plan.buy) if r.condition("princess") is not None]
    if not rules:
        return plan
    i = _pick(rng, rules)
    rule = plan.buy[i]
    return _with_rule(plan, i, replace(rule, conditions=tuple((k, (not v) if k == "princess" else v)
                                                             for k, v in rule.conditions)))


def _list_move(items: tuple, choices: tuple, limit: int, rng, fixed: int = 0) -> tuple:
    """Add a choice not yet listed, drop one, or move one (the first `fixed` items stay put)."""
    head, tail = items[:fixed], items[fixed:]
    what = int(rng.integers(3))
    new = [c for c in choices if c not in items]
    if what == 0 and new and len(items) < limit:
        i = int(rng.integers(len(tail) + 1))
        tail = tail[:i] + (_pick(rng, new),) + tail[i:]
    elif what == 1 and tail:
        i = int(rng.integers(len(tail)))
        tail = tail[:i] + tail[i + 1:]
    else:
        tail = _move(tail, rng)
    return head + tail


def change_princesses(plan: Plan, universe: Universe, rng) -> Plan:
    fixed = 1 if universe.princess else 0
    return replace(plan, prefer=_list_move(plan.prefer, universe.princesses, len(universe.princesses), rng, fixed))


def change_first(plan: Plan, universe: Universe, rng) -> Plan:
    return replace(plan, first=_list_move(plan.first, universe.playable, PK.MAX_FIRST, rng))


def change_gain(plan: Plan, universe: Universe, rng) -> Plan:
    return replace(plan, gain=_list_move(plan.gain, universe.buyable, PK.MAX_CHOOSE, rng))


def change_lose(plan: Plan, universe: Universe, rng) -> Plan:
    return replace(plan, lose=_list_move(plan.lose, universe.losable, PK.MAX_CHOOSE, rng))


def flip_flag(plan: Plan, universe: Universe, rng) -> Plan:
    flag = _pick(rng, FLAGS)
    return replace(plan, **{flag: not getattr(plan, flag)})


# (weight, move): buy rules carry most of a plan's strength, so most moves are theirs
MOVES = (
    (12, add_rule), (8, drop_rule), (10, move_rule), (10, change_card), (9, add_condition), (6, drop_condition),
    (7, change_condition), (10, nudge_threshold), (4, flip_princess_condition), (5, change_princesses),
    (6, change_first), (3, change_gain), (3, change_lose), (3, flip_flag),
)
_WEIGHTS = np.array([w for w, _ in MOVES], float) / sum(w for w, _ in MOVES)


def crossover(a: Plan, b: Plan, rng) -> Plan:
    """A child of two plans: a's buy rules up to a cut, then b's from another cut; each other
    section (princess, set, play, choose) from either parent."""
    i, j = int(rng.integers(len(a.buy) + 1)), int(rng.integers(len(b.buy) + 1))
    buy = (a.buy[:i] + b.buy[j:])[:PK.MAX_RULES] or a.buy[:1]      # an agent file needs a buy rule
    take = rng.integers(2, size=4)
    princess, set_, play, choose = (b if t else a for t in take)
    return replace(a, buy=buy, prefer=princess.prefer, min_coins=princess.min_coins, min_owned=princess.min_owned,
                   set_min_sp=set_.set_min_sp, first=play.first, keep=play.keep, abilities=play.abilities,
                   territories_only=play.territories_only, accept_modes=play.accept_modes,
                   gain=choose.gain, lose=choose.lose)


def mutate(plan: Plan, universe: Universe, rng, moves: int = 1) -> Plan:
    """`moves` moves drawn by weight, redrawn until the plan has changed."""
    for _ in range(100):
        child = plan
        for _ in range(moves):
            move = MOVES[int(rng.choice(len(MOVES), p=_WEIGHTS))][1]
            child = move(child, universe, rng)
        child = valid(child, universe)
        if child != plan:
            return child
    return valid(plan, universe)


def _unique(items: tuple, limit: int) -> tuple:
    return tuple(dict.fromkeys(items))[:limit]


def in_edition(plan: Plan, universe: Universe) -> Plan:
    """The plan without the names its universe's edition lacks (a start plan of the other edition,
    `hoc tune --edition 1e --from tuned_general_2p`): as the agent file is read for that edition
    (`PriorityList.for_edition`), a rule for such a card goes, and so does a rule whose `offered` or
    `backed` names one (it never holds); a `not_offered` naming one goes alone (it always holds); the
    lists lose the name. The search then never breeds nor keeps a plan that names them, so it never
    meets a plan whose every buy rule is gone in the edition's reading."""
    names = frozenset(universe.ruleset.cards.ids)
    if all(r.card in names and all(v in names for k, v in r.conditions if k in CARD_VALUED) for r in plan.buy) \
            and all(n in names for n in plan.prefer + plan.first + plan.gain + plan.lose):
        return plan
    buy = tuple(Rule(r.card, tuple((k, v) for k, v in r.conditions if k != "not_offered" or v in names))
                for r in plan.buy
                if r.card in names and all(v in names for k, v in r.conditions if k in ("offered", "backed")))
    keep = lambda items: tuple(n for n in items if n in names)      # noqa: E731
    return replace(plan, buy=buy, prefer=keep(plan.prefer), first=keep(plan.first), gain=keep(plan.gain),
                   lose=keep(plan.lose))


def valid(plan: Plan, universe: Universe) -> Plan:
    """The plan within the format's limits, thresholds within bounds, the required princess first,
    and only names of the universe's edition (`in_edition`)."""
    plan = in_edition(plan, universe)
    prefer = _unique(plan.prefer, 8)
    if universe.princess:
        prefer = (universe.princess,) + tuple(p for p in prefer if p != universe.princess)
    banned = universe.banned_cards      # a banned card leaves every rule and list (the start plan's too)
    buy = tuple(Rule(r.card, r.conditions[:PK.MAX_CONDS]) for r in plan.buy if r.card not in banned)[:PK.MAX_RULES]
    buy = buy or FALLBACK_BUY           # an agent file needs a buy rule
    if universe.plan and plan.plan is None:     # --plan: the planner on, at its defaults to start
        plan = replace(plan, plan=tuple(PLAN_DEFAULTS.items()))
    if universe.second and dict(plan.plan or ()).get("second", 0) <= 0:
        # --second: the Second phase weighed, at the planner's defaults to start; the Main phase as it was
        own = dict(plan.plan) if plan.plan is not None else {**PLAN_DEFAULTS, "samples": 0}
        plan = replace(plan, plan=tuple({**PLAN_DEFAULTS, **own, **SECOND_DEFAULTS}.items()))
    plan = replace(plan, prefer=prefer, buy=buy, first=_unique(tuple(c for c in plan.first if c not in banned),
                                                               PK.MAX_FIRST),
                   gain=_unique(tuple(c for c in plan.gain if c not in banned), PK.MAX_CHOOSE),
                   lose=_unique(plan.lose, PK.MAX_CHOOSE), never=universe.banned)
    return plan.with_thresholds(plan.thresholds())
