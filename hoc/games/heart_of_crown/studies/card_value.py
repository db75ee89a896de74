"""Card value under strong play (issue 14): what a common kind is worth to a player who can use it
well, and how a card change (`--override`) moves that worth.

The value of kind X: on random markets that always offer X, the strong player with X allowed
plays head to head against the same strong player with X banned (it never buys X nor picks it to
gain), on the same seeds and markets, each seed played once with the allowed player in every seat
(seats mirrored). The value is the allowed player's win rate minus an even share (50% at 2
players), with a 95% interval over the seeds (each seed's mirrored games are one observation, so
the interval needs no independence between a seed's games).

The strong player is an agent spec. "rules" (the default) starts from a strong plan
(`tuned_general_<players>p`): the banned player is that plan without its rules for X, the allowed
player the best of it and of every plan with one rule for X inserted at any place with any of a grid
of conditions, raced against the banned one (the race's finalists then compared on seeds of their
own). Both players share every other rule, so the head to
head measures X and little else; the value can only come out below 0 by chance (the allowed player
may ignore X). "tuned" re-tunes whole plans for each condition with `hoc tune` from the same start
plan, seed and budget (X allowed; X banned: the start plan's rules for X dropped, the search may not
name it): the two searches wander apart, and their difference in strength (several points at
100,000 games: results/balance/summary.md, control) swamps most cards. Either way a cost change is
priced by a player re-fitted to it, not read as "nobody buys it". Any other agent spec plays as
given, with X banned through `ban`: priority lists carry the ban in their parameter row (`[choose]
never`); an agent of another kind can take a ban once it registers how (`BANS`, the extension point
for the search agent: there a ban removes X from its legal choices).

A what-if (`what_if`) measures the value under the printed cards and under the override on the
same seeds, each with its own re-tuned plans, and the change with a paired interval; it also plays
a round robin of fixed agents under both rulesets on the same seeds and reports each agent's
win-rate change, with Bonferroni-corrected intervals for the list of largest changes.
"""
from __future__ import annotations

import dataclasses
import math
import sys
from itertools import combinations
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from hoc.agents.registry import Agent
from hoc.errors import HocError
from hoc.research import progress as meter
from hoc.research import stats
from hoc.research.harness import Backend, Plan, chunk_size
from hoc.games.heart_of_crown.rules import Ruleset

Z95 = 1.959963984540054
# seeds per plan in the first round of the rule search's races (doubling each round): 8 culled a plan
# worth +2.9 points in its first 16 games for one worth nothing (a kind whose value the planner brings out)
RACE_SEEDS = 32
FINALISTS = 4               # plans of each race the final selection compares
# seeds per finalist in that selection: about 0.3 points of noise for a rule that fires in most games
SELECT_SEEDS = 1000
# seeds of a paired comparison between two plans (a refined plan and the one it would replace), in
# selection seeds: 1,000 resolve about 2 points, and a plan that buys the kind in half the games can
# be worth one (Ball's refined buyer read +0.8 [+0.5, +1.2] on 20,000 value seeds and lost at 1,000)
CLEAR = 8
BUYS = 0.25                 # a plan "buys the kind" when its seats end with it this often
# the refinement of the searched rules (`refine`): seeds per step, shared by the plan and every
# neighbour (their differences are the rule's, not the deal's), and steps at most
REFINE_SEEDS = 400
REFINE_STEPS = 8
# a plan that must buy the kind, refined, must own it this much more often than BUYS on the step's
# seeds: the cheapest buyer owns it as rarely as it may, and must still pass BUYS on fresh seeds
# (the share of 800 seats varies by about 0.015)
REFINE_SPARE = 0.04
# the build (`build`): a climb over every rule of a plan that buys the kind, drawing this many of its
# neighbours (several hundred: every rule moved, every threshold) at random each step
BUILD_SAMPLE = 32
RULES = "rules"             # the default strong player: the start plan's rules for the kind searched
TUNED = "tuned"             # the strong-player spec that re-tunes a whole plan per condition
# conditions a searched rule for the kind may carry: none, a cap on copies, the moment of the game
CONDITION_GRID = ((), (("owned_below", 1),), (("owned_below", 2),), (("owned_below", 3),), (("owned_below", 5),),
                  (("princess", False),), (("princess", True),), (("turn_at_most", 8),),
                  (("turn_at_least", 6),), (("coins_at_most", 5),), (("owned_below", 2), ("princess", False)),
                  # one or two copies once the deck stands (a card that helps a built deck but would
                  # take the place of an early cheap Territory): the plans that buy it least harmfully
                  (("owned_below", 1), ("turn_at_least", 6)), (("owned_below", 1), ("turn_at_least", 10)),
                  (("owned_below", 2), ("turn_at_least", 6)), (("owned_below", 1), ("princess", True)))


# ---- bans: the extension point for agents of other kinds -------------------------------------------

def _ban_priority(agent: Agent, cards: list[int], ruleset: Ruleset) -> Agent:
    """A priority list with `cards` on its `never` list (kept with any it already has)."""
    from hoc.games.heart_of_crown.agents import priority_kernel as PK

    def params(rs, base=agent.params, cards=tuple(cards)):
        row = base(rs).copy()
        have = list(row[PK.PR_NEVER:PK.PR_NEVER + row[PK.PR_N_NEVER]])
        every = have + [c for c in cards if c not in have]
        if len(every) > PK.MAX_NEVER:
            raise HocError(f"{agent.name}: a ban of {len(every)} cards; at most {PK.MAX_NEVER}")
        row[PK.PR_N_NEVER] = len(every)
        row[PK.PR_NEVER:PK.PR_NEVER + len(every)] = every
        return row

    return dataclasses.replace(agent, params=params)


# how an agent of a kind plays with cards banned, by its policy id (jitted agents) or by the part of
# its spec before ":" (e.g. "ismcts" for `ismcts:princess=laolily`). The search agent (issue 13)
# registers here: `BANS["ismcts"] = lambda agent, cards, ruleset: <the agent with those card ids
# removed from its legal buys and gains>`; nothing else in the study changes.
BANS: dict[int | str, Callable[[Agent, list[int], Ruleset], Agent]] = {}


def _register_defaults() -> None:
    from hoc.agents.ids import ISMCTS, LEARNED, PLANNED, PRIORITY

    BANS.setdefault(PRIORITY, _ban_priority)
    # a planning list and the search agent read the same row: their own decisions leave out what the
    # never list bans (hoc.games.heart_of_crown.agents.planner.unbanned), their look-aheads and rollouts play the list
    BANS.setdefault(PLANNED, _ban_priority)
    BANS.setdefault(ISMCTS, _ban_priority)
    # a learned policy's row starts with its model list's: the ban is an action mask over its buys and
    # gains (hoc.games.heart_of_crown.agents.learned.kernel), with no re-training
    BANS.setdefault(LEARNED, _ban_priority)


def ban(agent: Agent, kind: str, ruleset: Ruleset) -> Agent:
    """`agent` playing with every card of common kind `kind` banned, renamed `<name>-no-<kind>`."""
    _register_defaults()
    how = BANS.get(agent.id) if agent.play is None else BANS.get(agent.name.split(":", 1)[0])
    if how is None:
        raise HocError(f"agent {agent.name!r} cannot play with a card banned: no ban is defined for its kind "
                       f"(priority lists take one; a new kind of agent registers it in "
                       f"hoc.games.heart_of_crown.studies.card_value.BANS)")
    banned = how(agent, list(ruleset.cards.cards_of_pile(kind)), ruleset)
    return dataclasses.replace(banned, name=f"{agent.name}-no-{kind}")


# ---- the strong players of the two conditions -------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Tuning:
    """How `--strong tuned` re-tunes: from `start` (an agent spec of a priority list) against
    `opponents`, `games` per re-tune, with the search's seed."""

    start: str | None = None          # default: tuned_general_<players>p
    opponents: tuple[str, ...] = ()   # default: the start plan
    games: int = 20_000
    seed: int = 0
    population: int = 16
    validate_games: int = 200
    select_seeds: int = SELECT_SEEDS  # seeds per finalist of the rule search's selection (`_select`)
    refine_seeds: int = REFINE_SEEDS  # seeds per step of its refinement (`refine`); 0: none
    build_steps: int = 0              # steps of its build around the kind (`build`); 0: none

    def start_name(self, players: int) -> str:
        return self.start or f"tuned_general_{players}p"


def start_plan(name: str):
    """The genome of a start plan: a priority-list spec, or `NAME+plan`, the very player the registry
    plays under that name (the list with every part of its turn planner on, its file's own planner
    settings kept)."""
    from hoc.games.heart_of_crown.agents.catalog import PLAN_SUFFIX, planned_spec
    from hoc.games.heart_of_crown.agents.genome import from_spec, load

    if name.endswith(PLAN_SUFFIX):
        return from_spec(planned_spec(name))
    return load(plan_file(name))


def plan_file(name: str) -> Path:
    """The TOML file of a priority-list agent spec (a name of the library or a path)."""
    from hoc.agents.registry import get
    from hoc.games.heart_of_crown.agents.catalog import list_file

    get(name)           # unknown names fail here with the registry's own message
    path = list_file(name)
    if path is not None:
        return path
    raise HocError(f"--from {name!r}: tuning starts from a priority-list plan (a name from `hoc agents` "
                   f"or a .toml file)")


def retune(ruleset: Ruleset, tuning: Tuning, ban_kind: str | None, out: Path, backend: Backend,
           label: str, progress: bool = True) -> Agent:
    """A plan re-tuned for `ruleset` (with `ban_kind` banned if given), from the start plan; a
    finished re-tune in `out` with the same settings is reused, an interrupted one resumes."""
    from hoc.agents.registry import from_file, get
    from hoc.games.heart_of_crown.agents.tuning import search
    from hoc.games.heart_of_crown.agents.genome import load

    start = plan_file(tuning.start_name(ruleset.players))
    names = list(tuning.opponents) or [tuning.start_name(ruleset.players)]
    settings = search.Settings(ruleset, tuple(get(n) for n in names), tuning.seed, None, load(start),
                               population=tuning.population, ban=(ban_kind,) if ban_kind else (),
                               playoff_seeds=max(20, min(200, tuning.games // 100)))
    budget = search.Budget(games=tuning.games)
    best = out / "best.toml"
    state = search.load(out, settings) if out.exists() else None     # other settings: one line, exit 2
    if not (state is not None and budget.spent(state, 0) and best.exists()):
        if progress:
            print(f"hoc balance: re-tuning {label} ({tuning.games:,} games from {start.stem})", file=sys.stderr)
        argv = ["--players", str(ruleset.players), "--market", "random", "--from", str(start),
                "--opponents", ",".join(names), "--games", str(tuning.games), "--seed", str(tuning.seed),
                "--population", str(tuning.population), "--out", str(out)]
        for k in ruleset.market_with:
            argv += ["--with", k]
        for o in ruleset.overrides:
            argv += ["--override", o]
        if ban_kind:
            argv += ["--ban", ban_kind]
        search.tune(settings, budget, out, backend, tuning.validate_games, argv, progress=progress)
    return dataclasses.replace(from_file(best), name=label)


def rule_plans(ruleset: Ruleset, kind: str, tuning: Tuning):
    """(without, banned, pool, cards): the rule search's plans for `kind`. `without` is the start
    plan without its rules for the kind's cards, `banned` the same with the kind on its `never`
    list, `pool` (`Candidates`, `without` first, then the start plan) every plan with one rule for
    a card of the kind inserted at any place with any conditions of CONDITION_GRID."""
    from dataclasses import replace

    from hoc.games.heart_of_crown.agents.genome import Rule
    from hoc.games.heart_of_crown.agents.tuning.search import Candidates

    start = start_plan(tuning.start_name(ruleset.players))
    cards = [ruleset.cards.name(c) for c in ruleset.cards.cards_of_pile(kind)]
    banned = twin(start, kind, cards)
    without = replace(banned, never=start.never)
    pool = Candidates(ruleset)
    for plan in [without, start] + [replace(without, buy=without.buy[:i] + (Rule(c, cond),) + without.buy[i:])
                                    for c in cards for i in range(len(without.buy) + 1) for cond in CONDITION_GRID]:
        if len(plan.buy) <= 24:
            pool.add(plan)
    return without, banned, pool, cards


def twin(plan, kind: str, cards: list[str]):
    """`plan` without its rules for the kind's `cards` and with the kind on its `never` list: the
    same deck, played without the kind."""
    from dataclasses import replace

    from hoc.games.heart_of_crown.agents.genome import FALLBACK_BUY

    return replace(plan, buy=tuple(r for r in plan.buy if r.card not in cards) or FALLBACK_BUY,
                   never=tuple(dict.fromkeys(plan.never + (kind,))))


def rule_search(ruleset: Ruleset, kind: str, tuning: Tuning, work: Path, backend: Backend, label: str,
                progress: bool = True, reuse: bool = False) -> tuple[Agent, Agent, Agent]:
    """(X allowed, X banned, X forced) from the start plan: banned is the start without its rules for
    the kind and with the kind on its `never` list; allowed is the best of that plan, the start
    itself, and the plan with one rule for a card of the kind inserted at any place with any
    conditions of CONDITION_GRID, raced (successive halving, common seeds, seats mirrored) against
    the banned plan; forced the best of those that buy the kind. Both share every other rule, so
    their head to head measures the kind, not two searches that went different ways.

    The race's finalists, the buyers' (`_buyers`) and the plan without the kind are then compared on
    SELECT_SEEDS fresh seeds (`_select`): the race's first rounds are too short to tell a plan worth
    a point from one worth nothing when its rule fires in most games (32 seeds: about 8 points of
    noise), and plans that never fire tie at exactly 50%, so a worthwhile plan is culled more often
    than not. Last, the two plans' rules for the kind are refined (`_refined`, `refine`): the grid's
    conditions are coarse, and the cheapest way to buy a card is often between two of them. The two
    climb from different plans, so the allowed plan takes the refined buyer when that wins clearly.
    With `tuning.build_steps`, the buyer's whole plan is then built around the kind (`_built`).

    `reuse`: the caller knows `work` holds this very search's plans (the same ruleset, kind, start
    plan, tuning and engine): they are read back instead of searched again."""
    from hoc.games.heart_of_crown.agents.priority import list_id
    from hoc.agents.registry import from_file
    from hoc.agents.tune import evaluate
    from hoc.games.heart_of_crown.agents.tuning.search import derive

    names = [f"{label}-allowed", f"{label}-banned", f"{label}-forced"]
    if reuse and all((work / f"{n}.toml").exists() for n in names):
        return tuple(dataclasses.replace(from_file(work / f"{n}.toml"), name=n) for n in names)
    without, banned, pool, cards = rule_plans(ruleset, kind, tuning)
    if progress:
        meter.say(f"hoc balance: {label}: racing {len(pool.plans)} plans with a rule for {kind} against "
                  f"{tuning.start_name(ruleset.players)} without it")
    meter.expect(**_expected(ruleset, tuning, pool, cards))
    meter.stage("race")
    r = evaluate.race(ruleset, np.stack(pool.rows), banned.params(ruleset)[None, :],
                      np.array([list_id(banned.params(ruleset))], np.int32), derive(tuning.seed, 7), backend,
                      seeds=RACE_SEEDS, keep=FINALISTS)
    meter.stage("buyers")
    buyers, fallback = _buyers(ruleset, kind, cards, pool, r.order, banned, tuning.seed, backend)
    meter.stage("select")
    best, forced, played = _select(ruleset, kind, [without] + [pool.plans[k] for k in r.order[:FINALISTS]], buyers,
                                   banned, derive(tuning.seed, 9), backend, tuning.select_seeds)
    forced = forced or fallback
    # the allowed plan's refinement starts from the best plan with a rule for the kind (the race's
    # best when the plan without it was picked), and must beat the plan picked
    ruled = [p for p in [best] + [pool.plans[k] for k in r.order] if any(x.card in cards for x in p.buy)]
    best, n = _refined(ruleset, kind, ruled[0], best, 0.0, banned, derive(tuning.seed, 10), backend, tuning,
                       "allowed")
    forced, m = _refined(ruleset, kind, forced, forced, BUYS, banned, derive(tuning.seed, 11), backend, tuning,
                         "buyer")
    played += n + m
    # the two refinements climb from different plans, and the buyer's can end the stronger: the
    # allowed player (free to buy the kind) takes it when it wins clearly, as any refined plan
    meter.stage("cross-check")
    if tuning.refine_seeds and forced != best:
        best, k = _clearly_better(ruleset, kind, best, forced, banned, derive(tuning.seed, 12), backend,
                                  tuning.select_seeds)
        played += k
    meter.stage("build")
    built, twinned, forced, k = _built(ruleset, kind, cards, best, banned, forced, derive(tuning.seed, 14), backend,
                                       tuning, label if progress else None)
    start_name = tuning.start_name(ruleset.players)
    dropped = (f"{start_name} without {kind}: its rules for it dropped" if twinned is banned
               else f"the plan built around {kind} (the allowed one) without it: its rules for it dropped")
    how = "searched" if built is best else "searched, then the whole plan built around it"
    best, banned = built, twinned
    played += k
    work.mkdir(parents=True, exist_ok=True)
    note = (f"{start_name} with its rules for {kind} {how} ({len(pool.plans)} plans raced, "
            f"{r.games_played:,} games, the finalists compared over {played:,} more, seed {tuning.seed})")
    files = []
    for name, plan, what in ((names[0], best, note),
                             (names[1], banned, dropped),
                             (names[2], forced, f"{note}: the best that buys it")):
        path = work / f"{name}.toml"
        path.write_text(plan.toml(description=what, comment=f"hoc balance, {ruleset.players} players, random "
                                  f"markets always offering {kind}, overrides {list(ruleset.overrides)}"))
        files.append(dataclasses.replace(from_file(path), name=name))
    return files[0], files[1], files[2]


def _expected(ruleset: Ruleset, tuning: Tuning, pool, cards: list[str]) -> dict[str, int]:
    """The games each stage of `rule_search` is expected to play (its progress line's size): the race
    and the first check of the buyers exactly, their race, the selection and the comparisons at their
    most, each refinement at its most steps (a refinement often takes them all) with as many
    neighbours as the race's plans have (the median of a sample of them). A stage's figure gives way
    to the games it played when it ends."""
    from hoc.agents.tune.evaluate import race_games

    p = ruleset.players
    ruled = [plan for plan in pool.plans if any(x.card in cards for x in plan.buy)]
    select = tuning.select_seeds * p
    near = np.median([len(neighbours(ruleset, plan, cards)) for plan in ruled[::20]]) if ruled else 0
    step = int(1 + near) * tuning.refine_seeds * p
    refining = bool(tuning.refine_seeds)
    building = refining and tuning.build_steps > 0
    return {"race": race_games(len(pool.plans), p, 1, RACE_SEEDS, FINALISTS),
            "buyers": len(ruled) * RACE_SEEDS * p + (race_games(len(ruled), p, 1, RACE_SEEDS, FINALISTS)
                                                     if len(ruled) > FINALISTS else 0),
            "select": (1 + 2 * FINALISTS) * select,
            "refine allowed": REFINE_STEPS * step, "check allowed": 2 * CLEAR * select * refining,
            "refine buyer": REFINE_STEPS * step, "check buyer": 2 * select * refining,
            "cross-check": 2 * CLEAR * select * refining,
            "build": tuning.build_steps * (1 + BUILD_SAMPLE) * tuning.refine_seeds * p * building,
            "check build": 3 * select * building}


def _added(ruleset: Ruleset, card: str) -> tuple:
    """Conditions a refinement may add to a rule for `card`: a cap on copies, the moment of the game,
    the deck's size, the princess, and buying it only when it is about the most the hand affords."""
    cost = int(ruleset.cards[card].cost)
    return (("owned_below", 1), ("owned_below", 2), ("turn_at_least", 4), ("turn_at_least", 6),
            ("turn_at_least", 8), ("turn_at_most", 8), ("coins_at_most", cost), ("coins_at_most", cost + 1),
            ("cards_at_least", 12), ("cards_at_least", 16), ("princess", True), ("princess", False))


def neighbours(ruleset: Ruleset, plan, cards: list[str]) -> list:
    """The plans one step from `plan` in its rules for `cards` (every other rule kept): a rule moved
    to any other place, a whole-number condition moved by 1, 2 or 4 (inside the format's bounds), a
    condition dropped or flipped, or one of `_added` added (up to the format's conditions per rule)."""
    from dataclasses import replace

    from hoc.games.heart_of_crown.agents import priority_kernel as PK
    from hoc.games.heart_of_crown.agents.genome import BOUNDS, Rule

    out, seen = [], {plan.params(ruleset).tobytes()}

    def keep(buy):
        p = replace(plan, buy=buy)
        key = p.params(ruleset).tobytes()
        if key not in seen:           # two moves to the same list play the same games: one is enough
            seen.add(key)
            out.append(p)

    buy = plan.buy
    for i, r in enumerate(buy):
        if r.card not in cards:
            continue
        rest = buy[:i] + buy[i + 1:]
        for j in range(len(buy)):        # the rule at any other place: what it takes the place of
            if j != i:
                keep(rest[:j] + (r,) + rest[j:])
        conds = list(r.conditions)
        for k, (name, value) in enumerate(conds):
            keep(buy[:i] + (Rule(r.card, tuple(conds[:k] + conds[k + 1:])),) + buy[i + 1:])
            if isinstance(value, bool):
                changed = [not value]
            elif name in BOUNDS:
                lo, hi = BOUNDS[name]
                changed = [value + d for d in (-4, -2, -1, 1, 2, 4) if lo <= value + d <= hi]
            else:
                changed = []
            for v in changed:
                keep(buy[:i] + (Rule(r.card, tuple(conds[:k] + [(name, v)] + conds[k + 1:])),) + buy[i + 1:])
        if len(conds) < PK.MAX_CONDS:
            have = {name for name, _ in conds}
            for name, v in _added(ruleset, r.card):
                if name not in have:
                    keep(buy[:i] + (Rule(r.card, tuple(conds + [(name, v)])),) + buy[i + 1:])
    return out


def refine(ruleset: Ruleset, kind: str, plan, banned, seed: int, backend: Backend, buys: float = 0.0,
           seeds: int = REFINE_SEEDS, steps: int = REFINE_STEPS, moves: list[str] | None = None, sample: int = 0,
           clear: bool = False):
    """(the plan, games played): a hill climb over `plan`'s rules for the kind (or for the cards
    `moves`), against `banned`. Each step plays the plan and all its `neighbours` (or `sample` of
    them drawn at random) on `seeds` fresh seeds of its own (common to all of them, seats mirrored)
    and moves to the best neighbour whose seats end owning the kind in at least `buys` (plus
    REFINE_SPARE, when above 0) of those games, when it won more of them than the plan; it stops at
    a step with none better (with `sample`, only when none is allowed: the next draw differs).
    `clear`: a move must win clearly, its paired interval over the step's seeds above 0. The
    race tries each rule with a few sets of conditions; this is where a rule finds the moment its
    card helps most (or, for a plan that must buy it, costs least): three conditions, a threshold
    between two of the grid's, another place.
    Its figures are biased upward (the best of many on the same seeds): the caller compares its
    result with the race's on seeds of their own."""
    from hoc.agents.tune import evaluate
    from hoc.games.heart_of_crown.agents.tuning.search import derive
    from hoc.games.heart_of_crown.agents.priority import list_id

    ids = ruleset.cards.cards_of_pile(kind)
    cards = [ruleset.cards.name(c) for c in ids]
    row = banned.params(ruleset)
    need = buys + REFINE_SPARE if buys > 0 else 0.0
    played = 0
    for step in range(steps if seeds > 0 else 0):
        near = neighbours(ruleset, plan, cards if moves is None else moves)
        if sample and len(near) > sample:
            pick = np.random.default_rng(derive(derive(seed, step), 1)).choice(len(near), sample, replace=False)
            near = [near[k] for k in sorted(pick)]
        if not near:
            break
        plans = [plan] + near
        meter.more((steps - step) * len(plans) * seeds * ruleset.players)      # at its most steps
        g = evaluate.seed_games(ruleset, np.stack([p.params(ruleset) for p in plans]), row, list_id(row),
                                derive(seed, step), seeds, backend)
        played += g.won.size
        share, own = g.share(), g.owning(ids)
        rate = share.mean(1)
        ok = [i for i in range(1, len(plans)) if own[i] >= need]
        if not ok:
            break
        i = max(ok, key=lambda i: (rate[i], -i))
        better = mean_interval(share[i] - share[0])[1] > 0 if clear else rate[i] > rate[0]
        if better or own[0] < need:
            plan = plans[i]
        elif not sample:
            break
    return plan, played


def build(ruleset: Ruleset, kind: str, plan, banned, seed: int, backend: Backend, seeds: int = REFINE_SEEDS,
          steps: int = REFINE_STEPS, sample: int = BUILD_SAMPLE):
    """(the plan, games played): the deck built around the kind. `refine` over every rule of `plan`
    (a buyer of the kind), not only the kind's, and the kind still bought in at least BUYS of the
    seats: what a card is worth may need other cards bought more, less or later, which no rule for
    the card alone can price. A tuned plan sits near a peak, where most moves lose: the best of a
    draw on a step's seeds is then often noise, and a climb that takes it walks downhill, so a
    move must win clearly. Its gains may have nothing to do with the kind: the caller holds the
    result against the plan's `twin` too."""
    moves = list(dict.fromkeys(r.card for r in plan.buy))
    return refine(ruleset, kind, plan, banned, seed, backend, BUYS, seeds, steps, moves, sample, clear=True)


def _refined(ruleset: Ruleset, kind: str, start, plan, buys: float, banned, seed: int, backend: Backend,
             tuning: Tuning, what: str = "allowed"):
    """(`plan` or a better one, games played): `start` (a plan with a rule for the kind) refined on
    seeds of its own (`refine`), then it and `plan` held against the banned plan on
    `tuning.select_seeds` fresh seeds. For the allowed plan (`buys` 0) the refined one replaces
    `plan` only when it wins clearly, its paired interval over those seeds above 0: a hill climb over
    a few hundred plans finds noise too, and a plan free to ignore the kind must not come to read
    below 0 by it. A buyer's replaces it when it wins and still buys the kind (or `plan` did not).
    `what` names its stages on the progress line."""
    from hoc.games.heart_of_crown.agents.tuning.search import derive

    if tuning.refine_seeds == 0:
        return plan, 0
    meter.stage(f"refine {what}")
    new, played = refine(ruleset, kind, start, banned, derive(seed, 0), backend, buys, tuning.refine_seeds)
    meter.stage(f"check {what}")
    if new == plan:
        return plan, played
    if buys == 0:
        plan, k = _clearly_better(ruleset, kind, plan, new, banned, derive(seed, 1), backend, tuning.select_seeds)
        return plan, played + k
    old_v, new_v = _held(ruleset, kind, (plan, new), banned, derive(seed, 1), backend, tuning.select_seeds)
    better = new_v.bought >= buys and (new_v.rate > old_v.rate or old_v.bought < buys)
    return (new if better else plan), played + old_v.games + new_v.games


def _held(ruleset: Ruleset, kind: str, plans, banned, seed: int, backend: Backend, seeds: int) -> list:
    """Each of `plans` against the banned plan on the same `seeds` seeds, seats mirrored."""
    banned_agent = _plan_agent(banned, "banned", ruleset)
    return [head_to_head(ruleset, kind, _plan_agent(p, "candidate", ruleset), banned_agent, seeds, seed, backend,
                         progress=False) for p in plans]


def _clearly_better(ruleset: Ruleset, kind: str, plan, other, banned, seed: int, backend: Backend, seeds: int):
    """(`other` if it beats `plan` clearly against the banned plan, else `plan`; games played): its
    paired interval over CLEAR x `seeds` fresh seeds above 0. A plan found by many trials on the same
    seeds carries their noise, and a plan free to ignore the kind must not come to read below 0 by it."""
    old_v, new_v = _held(ruleset, kind, (plan, other), banned, seed, backend, CLEAR * seeds)
    better = mean_interval(new_v.scores - old_v.scores)[1] > 0
    return (other if better else plan), old_v.games + new_v.games


def _built(ruleset: Ruleset, kind: str, cards: list[str], allowed, banned, forced, seed: int, backend: Backend,
           tuning: Tuning, label: str | None = None):
    """(allowed, banned, forced, games played): the buyer `forced` built around the kind (`build`,
    `tuning.build_steps` steps), then held on `tuning.select_seeds` fresh seeds against the banned
    plan and against its own `twin` (the built deck without the kind). It takes the place of the
    allowed and of the buyer only when it beats `allowed` (against the banned plan) clearly in the
    head to head it does worse in, and the banned player is then that one's: the built plan must
    beat both the best plan known without the kind and its own deck without it, so what it is
    worth is the kind's, not the climb's other finds. `label`: say what the build found (stderr)."""
    from hoc.games.heart_of_crown.agents.tuning.search import derive

    if tuning.build_steps == 0 or tuning.refine_seeds == 0:
        return allowed, banned, forced, 0
    new, played = build(ruleset, kind, forced, banned, derive(seed, 0), backend, tuning.refine_seeds,
                        tuning.build_steps)
    meter.stage("check build")
    if new == forced:
        if label:
            meter.say(f"hoc balance: {label}: the build found no plan better than the buyer")
        return allowed, banned, forced, played
    other = twin(new, kind, cards)
    old_v, = _held(ruleset, kind, (allowed,), banned, derive(seed, 1), backend, tuning.select_seeds)
    against = (banned, other)
    vs = [_held(ruleset, kind, (new,), b, derive(seed, 1), backend, tuning.select_seeds)[0] for b in against]
    played += old_v.games + sum(v.games for v in vs)
    worse = min(range(2), key=lambda i: (vs[i].rate, i))
    gain = mean_interval(vs[worse].scores - old_v.scores)
    taken = vs[worse].bought >= BUYS and gain[1] > 0
    if label:
        meter.say(f"hoc balance: {label}: the plan built around {kind} wins {100 * vs[0].rate:.1f}% against the "
                  f"banned plan and {100 * vs[1].rate:.1f}% against its own deck without {kind} "
                  f"({100 * vs[worse].bought:.0f}% of its seats end with it), the allowed plan "
                  f"{100 * old_v.rate:.1f}%: {'taken' if taken else 'not taken'} (paired {100 * gain[0]:+.1f} "
                  f"[{100 * gain[1]:+.1f}, {100 * gain[2]:+.1f}] points)")
    if taken:
        return new, against[worse], new, played
    return allowed, banned, forced, played


def _plan_agent(plan, name: str, ruleset: Ruleset) -> Agent:
    """A raced plan as the priority-list agent it plays as."""
    from hoc.games.heart_of_crown.agents.priority import list_id

    return Agent(name, list_id(plan.params(ruleset)), "", plan.params)


def _buyers(ruleset: Ruleset, kind: str, cards: list[str], pool, order, banned, seed: int, backend: Backend,
            seeds: int = 32):
    """The finalists among the raced plans that do buy the kind (what using it costs when the search
    prefers not to), and the plan to report if none does. A rule for the kind may never fire (its
    conditions unmet, or a rule above it always buying), so every raced plan with such a rule plays
    a short check, and those whose seats end with the kind in at least BUYS of the games race again
    (against the banned plan)."""
    from hoc.games.heart_of_crown.agents.priority import list_id
    from hoc.agents.tune import evaluate
    from hoc.agents.tune.evaluate import race_games
    from hoc.games.heart_of_crown.agents.tuning.search import Candidates, derive

    row = banned.params(ruleset)
    with_rule = [k for k in order if any(x.card in cards for x in pool.plans[k].buy)]
    own = evaluate.seed_games(ruleset, np.stack([pool.rows[k] for k in with_rule]), row, list_id(row),
                              derive(seed, 13), seeds, backend).owning(ruleset.cards.cards_of_pile(kind))
    buyers = Candidates(ruleset)
    for k, o in zip(with_rule, own):
        if o >= BUYS:
            buyers.add(pool.plans[k])
    fallback = buyers.plans[0] if buyers.plans else pool.plans[with_rule[0]]
    meter.more(race_games(len(buyers.plans), ruleset.players, 1, RACE_SEEDS, FINALISTS)
               if len(buyers.plans) > FINALISTS else 0)
    if len(buyers.plans) <= FINALISTS:
        return list(buyers.plans), fallback
    r = evaluate.race(ruleset, np.stack(buyers.rows), row[None, :], np.array([list_id(row)], np.int32),
                      derive(seed, 8), backend, seeds=RACE_SEEDS, keep=FINALISTS)
    return [buyers.plans[k] for k in r.order[:FINALISTS]], fallback


def _select(ruleset: Ruleset, kind: str, finalists: list, buyers: list, banned, seed: int, backend: Backend,
            seeds: int = SELECT_SEEDS):
    """(the best plan, the best plan that buys the kind or None, games played): every plan played
    against the banned one over `seeds` seeds of their own (not the value's), seats mirrored.
    The first of `finalists` (the plan without the kind) wins ties, and a buyer must end with the
    kind in at least BUYS of its seats here too."""
    banned_agent = _plan_agent(banned, "banned", ruleset)
    plans, seen = [], set()
    for plan in finalists + buyers:
        key = plan.params(ruleset).tobytes()
        if key not in seen:
            seen.add(key)
            plans.append(plan)
    values = [head_to_head(ruleset, kind, _plan_agent(p, "candidate", ruleset), banned_agent,
                           seeds, seed, backend, progress=False) for p in plans]
    best = max(range(len(plans)), key=lambda i: (values[i].rate, -i))
    bought = [i for i in range(len(plans)) if values[i].bought >= BUYS]
    forced = plans[max(bought, key=lambda i: (values[i].rate, -i))] if bought else None
    return plans[best], forced, sum(v.games for v in values)


def strong_pair(ruleset: Ruleset, kind: str, strong: str, tuning: Tuning, work: Path, backend: Backend,
                progress: bool = True, reuse: bool = False) -> tuple[Agent, Agent, Agent | None]:
    """(X allowed, X banned, X forced) strong players for `ruleset` (whose markets always offer
    `kind`); `forced`, the best player found that buys X, only for the rule search (None else).
    `reuse`: the rule search's plans in `work` are this search's (`rule_search`)."""
    from hoc.agents.registry import get

    if strong == RULES:
        return rule_search(ruleset, kind, tuning, work, backend,
                           kind + ("" if not ruleset.overrides else "-override"), progress, reuse)
    if strong == TUNED:
        tag = "-".join(["base"] if not ruleset.overrides else [o.replace("=", "") for o in ruleset.overrides])
        allowed = retune(ruleset, tuning, None, work / f"{kind}.{tag}.allowed", backend,
                         f"{kind}-allowed" + ("" if not ruleset.overrides else "-override"), progress)
        banned = retune(ruleset, tuning, kind, work / f"{kind}.{tag}.banned", backend,
                        f"{kind}-banned" + ("" if not ruleset.overrides else "-override"), progress)
        return allowed, banned, None
    agent = get(strong)
    return agent, ban(agent, kind, ruleset), None


# ---- head to head -----------------------------------------------------------------------------------

@dataclasses.dataclass
class Value:
    """The value of `kind` for one ruleset: the allowed player's win rate against the banned one
    minus an even share, with a 95% interval over seeds; `scores` holds each seed's share won."""

    kind: str
    allowed: str
    banned: str
    seeds: int
    games: int
    rate: float
    value: float
    lo: float
    hi: float
    bought: float               # share of the allowed player's seats that ended owning the kind
    banned_owned: float         # the same for the banned player (only forced gains)
    scores: np.ndarray = dataclasses.field(repr=False)
    forced: "Value | None" = None   # rule search: the best player that buys the kind, against the banned one

    def as_dict(self) -> dict:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in ("scores", "forced")}
        d["forced"] = self.forced.as_dict() if self.forced is not None else None
        return d


def mean_interval(x: np.ndarray) -> tuple[float, float, float]:
    """Mean of per-seed observations with a normal 95% interval (NaN for fewer than 2 seeds)."""
    n = len(x)
    m = float(np.mean(x)) if n else math.nan
    if n < 2:
        return m, math.nan, math.nan
    half = Z95 * float(np.std(x, ddof=1)) / math.sqrt(n)
    return m, m - half, m + half


def head_to_head(ruleset: Ruleset, kind: str, allowed: Agent, banned: Agent, seeds: int, seed: int,
                 backend: Backend, progress: bool = True) -> Value:
    """`seeds` game seeds, each played with `allowed` in every seat and `banned` in the others."""
    from hoc.research.studies import _play, owns

    p = ruleset.players
    plan = Plan(ruleset, [allowed] + [banned] * (p - 1), seeds * p, seed, mirror=True, chunk=chunk_size(seeds * p))
    df = _play([("h2h", plan)], ["game", "seed", "winner", "win_mask", "agent", "owned", "market"], backend, None,
               progress)
    if not stats.offers(df, kind).all():        # the markets are built to offer it: a broken guarantee is a bug
        raise HocError(f"a market of the study did not offer {kind}")
    seat_allowed = np.stack([(df[f"agent_{j}"].astype(str) == allowed.name).to_numpy() for j in range(p)], 1)
    won = np.stack([stats.won(df, j) for j in range(p)], 1)
    own = np.stack([owns(df, j, kind, ruleset.cards) for j in range(p)], 1)
    a_won = (won & seat_allowed).any(1).astype(float)
    per_seed = pd.Series(a_won).groupby(df["game"].to_numpy() // p).mean().to_numpy()
    rate, lo, hi = mean_interval(per_seed)
    even = 1.0 / p
    return Value(kind, allowed.name, banned.name, len(per_seed), len(df), rate, rate - even, lo - even, hi - even,
                 float(own[seat_allowed].mean()), float(own[~seat_allowed].mean()), per_seed)


def card_value(ruleset: Ruleset, kind: str, strong: str = RULES, tuning: Tuning = Tuning(), seeds: int = 2000,
               seed: int = 0, work: str | Path | None = None, backend: Backend | None = None,
               progress: bool = True, reuse: bool = False) -> Value:
    """The value of common kind `kind` under `ruleset` (random markets that always offer it).
    `reuse`: `work` holds this rule search's plans already (a rerun with other value seeds).
    `progress`: the stages on stderr, and one progress line over all the run's games with its ETA
    (the search's stages sized as `_expected` says, the value's head to heads exactly)."""
    import tempfile
    from contextlib import nullcontext

    check_kind(ruleset, kind)
    if seeds < 2:
        raise HocError(f"--seeds must be at least 2 (the interval is over seeds), got {seeds}")
    rs = dataclasses.replace(ruleset, market="random", market_with=(kind,))
    backend = backend or Backend()
    metered = meter.metered(kind, "games", unit_scale=True) if progress and not meter.metering() else nullcontext()
    with tempfile.TemporaryDirectory(prefix="hoc-balance-") as tmp, metered:
        folder = Path(work) if work is not None else Path(tmp)
        # the value's head to heads: the allowed player's, and the buyer's unless it is the same plan
        meter.expect(value=(2 if strong == RULES else 1) * seeds * rs.players)
        meter.stage("strong players", 2 * tuning.games if strong == TUNED else 0)
        allowed, banned, forced = strong_pair(rs, kind, strong, tuning, folder, backend, progress, reuse)
        meter.stage("value")
        if progress:
            meter.say(f"hoc balance: {kind}: {seeds:,} seeds x {rs.players} seats, {allowed.name} against "
                      f"{banned.name}")
        inner = progress and not meter.metering()           # the run's progress line counts these games
        value = head_to_head(rs, kind, allowed, banned, seeds, seed, backend, inner)
        if forced is not None:
            same = forced.params(rs).tobytes() == allowed.params(rs).tobytes()
            value.forced = dataclasses.replace(value) if same else \
                head_to_head(rs, kind, forced, banned, seeds, seed, backend, inner)
        return value


def check_kind(ruleset: Ruleset, kind: str) -> None:
    from hoc.names import did_you_mean

    db = ruleset.cards
    commons = db.pile_ids("common")
    if kind not in commons:
        raise HocError(f"{kind!r} is not a common kind of {ruleset.edition}{did_you_mean(kind, commons)}; "
                       f"see `hoc cards --edition {ruleset.edition}`")


def kind_of_override(ruleset: Ruleset, override: str) -> str:
    """The common kind an override changes (`curse_witch.cost=6` -> curse_witch)."""
    db = ruleset.cards
    name = override.split(".", 1)[0].strip()
    if name in db.pile_ids("common"):
        return name
    if name in db.ids:
        pile = str(db.frame.pile.iat[db.index(name)])
        if pile in db.pile_ids("common"):
            return pile
    raise HocError(f"--override {override!r} changes {name!r}, not a card of a common kind: give the kind to "
                   f"price with --card")


def kinds_to_price(ruleset: Ruleset, card: str | None) -> list[str]:
    """The kinds a study prices: `card` (a list, or `all`), else the kind the first override changes."""
    if card:
        if card.strip() == "all":
            _, kinds = dataclasses.replace(ruleset, overrides=()).market_piles
            return list(kinds)
        kinds = [k.strip() for k in card.split(",") if k.strip()]
        for k in kinds:
            check_kind(ruleset, k)
        if len(set(kinds)) != len(kinds):
            raise HocError(f"--card names a kind twice: {card}")
        if ruleset.overrides and len(kinds) != 1:
            raise HocError("with --override, --card names the one kind to price")
        return kinds
    if ruleset.overrides:
        return [kind_of_override(ruleset, ruleset.overrides[0])]
    raise HocError("give --card KIND (a common kind, several comma-separated, or all) to price, "
                   "or --override CARD.FIELD=VALUE for a what-if")


def what_if_agents(players: int, edition: str = "2e") -> list[Agent]:
    """The agents whose win-rate change a what-if reports unless told (`hoc balance --override`'s round
    robin): the hand-written plans and the tuned ones for this player count, of this edition's library
    (`edition_plan`: the 1E archetypes and tuned plans under 1E only)."""
    from hoc.agents.registry import AGENTS
    from hoc.games.heart_of_crown.agents.catalog import archetypes
    from hoc.games.heart_of_crown.agents.catalog import edition_plan

    return [a for a in archetypes() if edition_plan(a.name, edition)] + \
        [a for n, a in AGENTS.items() if n.startswith("tuned_") and n.endswith(f"_{players}p") and edition_plan(n, edition)]


# ---- what if: the value under a card change, and every agent's change ------------------------------

@dataclasses.dataclass
class WhatIf:
    kind: str
    overrides: tuple[str, ...]
    baseline: Value
    changed: Value
    change: float
    lo: float
    hi: float
    agents: pd.DataFrame        # per fixed agent: win rate printed vs changed, change, intervals
    forced: tuple[float, float, float] | None = None   # the change of the best plans that buy the kind

    def largest(self) -> pd.DataFrame:
        """The agents whose change's corrected interval excludes 0, largest first."""
        a = self.agents
        moved = a[(a.change_lo_corrected > 0) | (a.change_hi_corrected < 0)]
        return moved.reindex(moved.change.abs().sort_values(ascending=False).index)


def agent_changes(baseline: Ruleset, changed: Ruleset, agents: list[Agent], games: int, seed: int,
                  backend: Backend, progress: bool = True) -> pd.DataFrame:
    """Round robins of `agents` under both rulesets on the same seeds: each agent's win rate per
    seat played, the change with Newcombe's 95% interval (treating the rulesets' games as
    independent, which is conservative: they share their seeds) and with the Bonferroni-corrected
    one (95% for all agents together)."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    from hoc.research.studies import _play

    combos = list(combinations(agents, baseline.players)) or [tuple(agents)]
    per = max(1, math.ceil(games / len(combos)))
    rates = []
    for tag, rs in (("baseline", baseline), ("changed", changed)):
        plans = [(f"{tag}-{'-vs-'.join(a.name for a in c)}", Plan(rs, list(c), per, seed, rotate=True,
                                                                 chunk=chunk_size(per))) for c in combos]
        df = _play(plans, ["game", "seed", "winner", "win_mask", "agent"], backend, None, progress)
        rates.append(stats.win_rates(df, "agent").set_index("agent"))
    base, new = rates
    alpha = 0.05 / max(1, len(agents))
    rows = []
    for a in [x.name for x in agents]:
        w0, n0 = int(base.wins[a]), int(base.games[a])
        w1, n1 = int(new.wins[a]), int(new.games[a])
        d, lo, hi = stats.rate_difference(w1, n1, w0, n0)
        clo, chi = confint_proportions_2indep(w1, n1, w0, n0, method="newcomb", compare="diff", alpha=alpha)
        rows.append({"agent": a, "games": n1, "rate_baseline": w0 / n0, "rate_changed": w1 / n1, "change": d,
                     "change_lo": lo, "change_hi": hi, "change_lo_corrected": float(clo),
                     "change_hi_corrected": float(chi)})
    return pd.DataFrame(rows)


def what_if(ruleset: Ruleset, kind: str, agents: list[Agent], strong: str = RULES, tuning: Tuning = Tuning(),
            seeds: int = 2000, games: int = 20_000, seed: int = 0, work: str | Path | None = None,
            backend: Backend | None = None, progress: bool = True) -> WhatIf:
    """The value of `kind` with the printed cards and with `ruleset.overrides`, on the same seeds,
    each with its own strong players; the change with a paired 95% interval over seeds; and every
    fixed agent's win-rate change on markets that always offer `kind`."""
    import tempfile

    if not ruleset.overrides:
        raise HocError("a what-if needs a card change: give --override CARD.FIELD=VALUE")
    check_kind(ruleset, kind)
    backend = backend or Backend()
    printed = dataclasses.replace(ruleset, overrides=())
    with tempfile.TemporaryDirectory(prefix="hoc-balance-") as tmp:
        folder = Path(work) if work is not None else Path(tmp)
        values = [card_value(rs, kind, strong, tuning, seeds, seed, folder, backend, progress)
                  for rs in (printed, ruleset)]
    base, new = values
    change, lo, hi = mean_interval(new.scores - base.scores)      # same seeds: paired
    forced = mean_interval(new.forced.scores - base.forced.scores) if base.forced and new.forced else None
    if progress:
        print(f"hoc balance: every agent's win rate, printed and changed ({len(agents)} agents)", file=sys.stderr)
    field = agent_changes(dataclasses.replace(printed, market="random", market_with=(kind,)),
                          dataclasses.replace(ruleset, market="random", market_with=(kind,)), agents, games, seed,
                          backend, progress)
    return WhatIf(kind, tuple(ruleset.overrides), base, new, change, lo, hi, field, forced)
