"""An audit of the card-value rule search (`card_value.rule_search`): did its race miss a plan?

The race culls most of its plans after 32 seeds, too few to tell a point of value from none. The
audit plays *every* plan the search considers (the start plan without the kind, the start plan,
and each plan with one rule for a card of the kind at any place with any conditions of
`card_value.CONDITION_GRID`) against the banned plan on the same `seeds` seeds, seats mirrored, with
no culling. The best of some 200 noisy estimates is biased upward (the winner's curse), so the
`recheck` plans that score best (among those whose results ever differ from an even share) are
played again on fresh seeds by the study's own head to head
(`card_value.head_to_head`): those intervals are honest, and they say how often the plan's seats
end owning the kind.

A kind whose audit finds nothing above 0 on fresh seeds is not undervalued by the race: no single
rule for it adds anything to the start plan, and a positive value needs a different plan (a deck
built around the kind), not a longer search of this one.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from hoc.games.heart_of_crown.rules import Ruleset
from hoc.games.heart_of_crown.studies import card_value as cv
from hoc.research.harness import Backend

SEEDS = 1000        # seeds per plan: about 2 points of noise (95%) for a rule that fires in most games
RECHECK = 3         # best plans played again on fresh seeds
RECHECK_SEEDS = 2000


@dataclasses.dataclass
class Audit:
    """Every plan of the rule search for `kind` against the banned plan (`plans`: one row per plan,
    best first), and the best few again on fresh seeds (`rechecks`: (plan, `card_value.Value`))."""

    kind: str
    seeds: int
    plans: pd.DataFrame
    rechecks: list
    games: int

    @property
    def best_recheck(self) -> "tuple[str, cv.Value] | None":
        """The recheck with the highest value (None when no plan's results ever differed from even)."""
        return max(self.rechecks, key=lambda r: r[1].value) if self.rechecks else None


def describe(plan, cards: list[str]) -> str:
    """A plan's rules for the kind's cards and their places: `trading_ship (princess) at 11 of 14`,
    or `no rule`."""
    rules = [(i, r) for i, r in enumerate(plan.buy) if r.card in cards]
    if not rules:
        return "no rule"
    return "; ".join(f"{r.card} ({', '.join(f'{k} {v}' for k, v in r.conditions) or 'always'}) at {i + 1} of "
                     f"{len(plan.buy)}" for i, r in rules)


def audit(ruleset: Ruleset, kind: str, tuning: cv.Tuning = cv.Tuning(), seeds: int = SEEDS, recheck: int = RECHECK,
          recheck_seeds: int = RECHECK_SEEDS, seed: int = 0, backend: Backend | None = None) -> Audit:
    """The audit of `kind` under `ruleset` (random markets that always offer it), from the start plan
    of `tuning`, on game seeds of run `seed` (the rechecks on other seeds of the same run seed)."""
    from hoc.agents.tune import evaluate
    from hoc.games.heart_of_crown.agents.tuning.search import derive
    from hoc.errors import HocError
    from hoc.games.heart_of_crown.agents.priority import list_id

    cv.check_kind(ruleset, kind)
    for name, n in (("--seeds", seeds), ("--recheck-seeds", recheck_seeds)):
        if n < 2:
            raise HocError(f"{name} must be at least 2 (the interval is over seeds), got {n}")
    if recheck < 1:
        raise HocError(f"--recheck must be at least 1, got {recheck}")
    rs = dataclasses.replace(ruleset, market="random", market_with=(kind,))
    backend = backend or Backend()
    _, banned, pool, cards = cv.rule_plans(rs, kind, tuning)
    row = banned.params(rs)
    share = evaluate.per_seed(rs, np.stack(pool.rows), row, list_id(row), derive(seed, 11), seeds, backend)
    mean, lo, hi = np.array([cv.mean_interval(x) for x in share]).T - 1.0 / rs.players
    even = 1.0 / rs.players
    plans = pd.DataFrame({"plan": [describe(p, cards) for p in pool.plans], "value": mean, "lo": lo, "hi": hi,
                          # seeds whose result differs from an even share: 0 for a rule that never fires
                          "uneven": (share != even).mean(1), "index": np.arange(len(pool.plans))})
    plans = plans.sort_values(["value", "index"], ascending=[False, True]).reset_index(drop=True)
    banned_agent = cv._plan_agent(banned, "banned", rs)
    rechecks = []
    # a plan with even results on every seed played as the banned one did: its recheck would read 0
    for k in plans["index"][plans["uneven"] > 0][:recheck]:
        v = cv.head_to_head(rs, kind, cv._plan_agent(pool.plans[k], "candidate", rs), banned_agent,
                            recheck_seeds, derive(seed, 12), backend, progress=False)
        rechecks.append((describe(pool.plans[k], cards), v))
    games = share.size * rs.players + sum(v.games for _, v in rechecks)
    return Audit(kind, seeds, plans.drop(columns="index"), rechecks, games)
