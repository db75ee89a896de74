"""Card value under strong play: for every common kind of the 2nd edition, the change in win rate
when a strong player may use the kind, against the same player with it banned; and what a card
change (Curse Witch costing 6) does to its value and to every agent.

For each kind X, on random markets that always offer X: the strong 2-player plan (`--start`, by
default `tuned_plan_c_2p+plan`: the strongest plan of the library with every part of its turn planner
on, its Main phase, card questions and Second phase decided by look-ahead) without its rules for X
(X banned) plays head to head against the same plan with its rules for X searched (the best of every plan with one rule for X at any place, with any of a grid of
conditions, raced against the banned plan), on the same game seeds, each seed played in both seats.
The value is the allowed plan's win rate minus 50%, with a 95% interval over seeds. A control prices
some kinds with whole plans re-tuned by `hoc tune` for each condition, at two tune seeds, to show
how much two searches differ by themselves.

Resumable per kind: each result is a file in `values/`, the plans in `plans/`; a rerun skips what
is done (`--cards` limits the kinds)."""
from __future__ import annotations

import json
import math

import pandas as pd

from experiments.common import Study, cli, parser, points
from hoc.games.heart_of_crown.studies import card_value as cv
from hoc.games.heart_of_crown.studies.balance_report import STUDY_START
from hoc.errors import HocError
from hoc.research import plots
from hoc.games.heart_of_crown.rules import Ruleset

NAME = "balance"


START = STUDY_START         # the strongest plan of the library with its whole turn planner
CONTROL = "hideout,donation,rampart,scout,wishing_well,post_horse,curse_witch,margrave"


def arguments(argv):
    p = parser(NAME, __doc__, 5000, "game seeds per head to head, each played in both seats")
    p.add_argument("--tune-games", type=int, default=None,
                   help="games per re-tune of the control (default 20 x --games: 100000)")
    p.add_argument("--select-seeds", type=int, default=cv.SELECT_SEEDS,
                   help=f"seeds per finalist when the rule search picks its plans (default {cv.SELECT_SEEDS})")
    p.add_argument("--refine-seeds", type=int, default=cv.REFINE_SEEDS,
                   help=f"seeds per step of the refinement of the rule search's two plans (default {cv.REFINE_SEEDS}; "
                        "0: none)")
    p.add_argument("--build-steps", type=int, default=0,
                   help="steps of the climb that builds the buyer's whole plan around the kind (default 0: none)")
    p.add_argument("--cards", default="all", help="kinds to price, comma-separated (default all)")
    p.add_argument("--control", default=CONTROL,
                   help=f"kinds also priced by whole re-tuned plans at tune seeds 0 and 1 (default {CONTROL}; "
                        "'' for none)")
    p.add_argument("--what-if", default="curse_witch.cost=6", help="card change to price (default curse_witch.cost=6)")
    p.add_argument("--start", default=START,
                   help=f"the strong player's start plan (default {START}: the strongest plan with its whole turn "
                        "planner; tuned_general_2p+plan for the earlier design, tuned_general_2p for the fixed "
                        "defaults)")
    return p.parse_args(argv)


def planning(start: str) -> bool:
    """The start plan plays with its turn planner: `NAME+plan`, or a plan whose file has a [plan]
    section (`tuned_plan_2p`)."""
    plan = cv.start_plan(start).plan
    return plan is not None and dict(plan).get("samples", 1) > 0


def engine_of(start: str) -> dict:
    """The engine's source hash as a setting of a saved value when the start plan plays with its turn
    planner (its play is engine code: a changed engine measures again); nothing otherwise."""
    if not planning(start):
        return {}
    from hoc._cache import source_hash

    return {"engine": source_hash()}


def value_of(kind: str, strong: str, tune_seed: int, args, study: Study) -> dict:
    """One kind's value for one strong player (and tune seed): read from `values/` when a run with
    the same settings left it, else measured and written there."""
    rs = Ruleset(players=2)
    start = "tuned_general_2p" if strong == cv.TUNED else args.start    # the control re-tunes the plain plan
    settings = {"kind": kind, "strong": strong, "tune_seed": tune_seed, "seeds": args.games, "seed": args.seed,
                "start": start, "start_plan": digest(cv.plan_file(start).read_bytes() if strong == cv.TUNED
                                                      else cv.start_plan(start).toml().encode()),
                # 3: the finalists compared on seeds of their own; 5: then the two plans' rules refined;
                # 6: the allowed plan takes the refined buyer when it wins clearly; 7: on 8 x the
                # selection's seeds, paired (the start plan's digest also names its planner's settings)
                **({"tune_games": args.tune_games} if strong == cv.TUNED else {"forced": 7}),
                # named only when not the default, so the values measured before the option keep matching
                **({"select_seeds": args.select_seeds} if strong != cv.TUNED and args.select_seeds != cv.SELECT_SEEDS
                   else {}),
                **({"refine_seeds": args.refine_seeds} if strong != cv.TUNED and args.refine_seeds != cv.REFINE_SEEDS
                   else {}),
                **({"build_steps": args.build_steps} if strong != cv.TUNED and args.build_steps else {}),
                **engine_of(start)}
    name = f"{kind}.tune{tune_seed}.json" if strong == cv.TUNED else f"{kind}.{strong}.json"
    path = study.out / "values" / name
    reuse = False
    if path.exists():
        saved = json.loads(path.read_text())
        before = saved.get("settings", {}) | {"strong": strong}
        if before == settings:
            return saved["value"]
        # only the value's seeds differ: the rule search (which never plays them) found these very plans
        reuse = strong == cv.RULES and before | {"seeds": args.games} == settings
    tuning = cv.Tuning(start=None if strong == cv.TUNED else start, games=args.tune_games, seed=tune_seed,
                       select_seeds=args.select_seeds, refine_seeds=args.refine_seeds, build_steps=args.build_steps)
    folder = study.out / "plans" / (f"tune{tune_seed}" if strong == cv.TUNED else strong)
    v = cv.card_value(rs, kind, strong, tuning, args.games, args.seed, folder, study.backend, progress=study.verbose,
                      reuse=reuse)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"settings": settings, "value": v.as_dict()}, indent=1))
    return v.as_dict()


def digest(text: bytes) -> str:
    """The start plan's text, hashed: a changed library plan must not reuse values measured with the old one."""
    import hashlib

    return hashlib.sha256(text).hexdigest()[:16]


def kinds_of(text: str, rs: Ruleset) -> list[str]:
    _, every = rs.market_piles
    kinds = every if text == "all" else [k.strip() for k in text.split(",") if k.strip()]
    for k in kinds:
        cv.check_kind(rs, k)
    return kinds


def main(argv: list[str] | None = None) -> Study:
    args = arguments(argv)
    if args.tune_games is None:
        args.tune_games = 20 * args.games
    if args.select_seeds < 1:
        raise HocError(f"--select-seeds must be at least 1, got {args.select_seeds}")
    if args.refine_seeds < 0:
        raise HocError(f"--refine-seeds must be at least 0, got {args.refine_seeds}")
    if args.build_steps < 0:
        raise HocError(f"--build-steps must be at least 0, got {args.build_steps}")
    study = Study(NAME, "Card value under strong play (2 players, random markets)", args, argv)
    rs = Ruleset(players=2)
    what_if = Ruleset(players=2, overrides=(args.what_if,))       # a bad change is refused before playing
    what_if.vector
    kind = cv.kind_of_override(what_if, args.what_if)
    kinds, control = kinds_of(args.cards, rs), kinds_of(args.control, rs) if args.control else []
    study.text(
        f"**Strong player.** For each kind X, on random markets that always offer X: `{args.start}` without its "
        "rules for X, with X banned (it never buys X nor picks it to gain), against the same plan with its rules for "
        f"X searched: the best of {len(cv.CONDITION_GRID)} sets of conditions × every place in the buy list for one "
        "rule per card of X (and of the plan as it was, and without X), raced with common seeds against the banned "
        f"plan, the race's finalists then compared over {args.select_seeds:,} seeds of their own; the best plan "
        "with a rule for X then refined (a hill climb over that rule: another place, a threshold moved, a "
        f"condition added or dropped, {args.refine_seeds:,} fresh seeds a step), taking the place of the plan "
        "picked only when its paired interval over another comparison on fresh seeds is above 0 (the refined "
        "plan that buys X, below, as well). "
        + ("Both players share every other rule, so their games differ by X alone. " if not args.build_steps else
           f"Then the buyer's whole plan is built around X ({args.build_steps} steps of the same climb over every "
           f"rule, {cv.BUILD_SAMPLE} neighbours drawn a step, X still bought), and takes the place of the allowed "
           "plan only when it beats it clearly both against the banned plan and against its own deck without X; "
           "the banned player is then whichever of the two it does worse against. ") +
        f"**Value** = the allowed plan's win rate against the banned one minus 50%, over {args.games:,} game "
        "seeds each played in both seats, 95% interval over seeds. The plans of each kind are in `plans/rules/`. "
        "A plan is free to ignore X, so a value below 0 can only be noise or a poor search; a value near 0 says "
        "one rule for X adds nothing to this plan (a deck built around X could still gain from it).")
    rows = []
    for k in kinds:
        v = value_of(k, cv.RULES, 0, args, study)
        f = v["forced"]
        rows.append({"kind": k, **{c: v[c] for c in ("value", "lo", "hi", "rate", "bought", "seeds", "games")},
                     **{f"forced_{c}": f[c] for c in ("value", "lo", "hi", "bought")}})
    t = pd.DataFrame(rows).sort_values("value", ascending=False).reset_index(drop=True)
    t.to_csv(study.path("values.csv"), index=False)
    above, below = int((t.lo > 0).sum()), int((t.hi < 0).sum())
    study.text(f"## Value of each kind ({len(t)} kinds)",
               f"{above} kinds are worth something to the strong player (interval above 0), {below} have an interval "
               f"below 0, {len(t) - above - below} are within noise of 0.")
    png = plots.effect_bars(t.assign(label=t.kind), "label", study.path("values.png"),
                            f"Card value: {args.start} with its rules for the kind searched, against it banned",
                            "win rate minus 50%, percentage points", value="value")
    study.figure(str(png), "value of each common kind under strong play")
    study.table(pd.DataFrame({
        "kind": t.kind, "value": [points(r.value, r.lo, r.hi) for r in t.itertuples()],
        "allowed plan's seats ending with it": [f"{100 * b:.0f}%" for b in t.bought],
        "a plan that buys it": [points(r.forced_value, r.forced_lo, r.forced_hi)
                                + f" ({100 * r.forced_bought:.0f}%)" for r in t.itertuples()]}))
    study.text("*A plan that buys it*: the best plan found whose seats end with the kind (every raced plan with a "
               "rule for it plays a 32-seed check; those ending with it in at least a quarter of the games race "
               f"again against the banned plan, and their finalists join the {args.select_seeds:,}-seed comparison; "
               "the best is refined as above, every step's plan ending with it in "
               f"{100 * (cv.BUYS + cv.REFINE_SPARE):.0f}% of the seats), against the same banned plan: what using "
               "the kind costs this plan "
               "when the search prefers not to. It is a bound for this plan's way of playing, not for the card"
               + (": with `+plan` the plan plays its Main phase, card questions and its Second phase's back, set or "
                  "buy by its turn planner (`hoc.games.heart_of_crown.agents.planner`), its buys by its list." if planning(args.start) else
                  ": priority lists play Actions before Territories and answer a card's choices with their first "
                  "option."))
    if control:
        _control(control, t, args, study)
    _what_if(args, what_if, kind, study)
    return study.finish()


def _control(control: list[str], main_values: pd.DataFrame, args, study: Study) -> None:
    """The same kinds priced by whole plans re-tuned for each condition, at two tune seeds."""
    rows = []
    for k in control:
        r = {"kind": k}
        for s in (0, 1):
            v = value_of(k, cv.TUNED, s, args, study)
            r |= {f"value{s}": v["value"], f"lo{s}": v["lo"], f"hi{s}": v["hi"], f"bought{s}": v["bought"]}
        rows.append(r)
    c = pd.DataFrame(rows).merge(main_values[["kind", "value", "lo", "hi"]], on="kind", how="left")
    c.to_csv(study.path("control_retuned.csv"), index=False)
    d = (c.value0 - c.value1).abs()
    apart = int(((c.lo0 > c.hi1) | (c.hi0 < c.lo1)).sum())
    study.text("## Control: whole plans re-tuned for each condition",
               f"`hoc tune` from `tuned_general_2p` against it, {args.tune_games:,} games per re-tune, once with X "
               "allowed (and tried in half the first generation) and once with X banned, at tune seeds 0 and 1 "
               "(`plans/tune0`, `plans/tune1`). The two seeds' values differ by "
               f"{100 * d.mean():.1f} points on average (largest {100 * d.max():.1f}); their intervals are disjoint for "
               f"{apart} of {len(c)} kinds, and a plan that never ends with X can still beat its banned twin by many "
               "points: the two searches wander apart, and that difference swamps the card. This is why the main "
               "table compares plans that differ in their rules for X only (`hoc balance --strong tuned` still "
               "offers the re-tuning design).")
    study.table(pd.DataFrame({
        "kind": c.kind,
        "re-tuned, seed 0": [points(r.value0, r.lo0, r.hi0) + f" (ends with it {100 * r.bought0:.0f}%)"
                             for r in c.itertuples()],
        "re-tuned, seed 1": [points(r.value1, r.lo1, r.hi1) + f" (ends with it {100 * r.bought1:.0f}%)"
                             for r in c.itertuples()],
        "main table": [points(r.value, r.lo, r.hi) if not math.isnan(r.value) else "" for r in c.itertuples()]}))


def _what_if(args, what_if: Ruleset, kind: str, study: Study) -> None:
    tuning = cv.Tuning(start=args.start, select_seeds=args.select_seeds, refine_seeds=args.refine_seeds,
                       build_steps=args.build_steps)
    w = cv.what_if(what_if, kind, _field(), cv.RULES, tuning, args.games, 4 * args.games, args.seed,
                   study.out / "plans" / "what_if", study.backend, progress=study.verbose)
    study.text(f"## What if: {args.what_if}",
               f"The value of {kind} with the printed card and with the change, each with its rules for {kind} "
               "searched under that card, on the same game seeds:",
               f"- printed: {points(w.baseline.value, w.baseline.lo, w.baseline.hi)} (the allowed plan's seats end "
               f"with {kind} {100 * w.baseline.bought:.0f}% of the time)",
               f"- changed: {points(w.changed.value, w.changed.lo, w.changed.hi)} ({100 * w.changed.bought:.0f}%)",
               f"- change: {points(w.change, w.lo, w.hi)} (paired over the same seeds)",
               *([_forced_line(w)] if w.forced else []))
    a = w.agents.sort_values("change")
    a.to_csv(study.path("what_if_agents.csv"), index=False)
    study.text(f"Every agent's win rate per seat in a round robin of {len(a)} agents on markets that always offer "
               f"{kind}, printed → changed, same seeds ({int(a.games.min()):,} seats per agent); the corrected "
               f"interval is Bonferroni's for {len(a)} agents:")
    study.table(pd.DataFrame({
        "agent": a.agent, "printed": [f"{100 * x:.1f}%" for x in a.rate_baseline],
        "changed": [f"{100 * x:.1f}%" for x in a.rate_changed],
        "change": [points(r.change, r.change_lo, r.change_hi) for r in a.itertuples()],
        "corrected": [f"[{100 * r.change_lo_corrected:+.1f}, {100 * r.change_hi_corrected:+.1f}]"
                      for r in a.itertuples()]}))
    moved = w.largest()
    study.text("Changes clear of noise (corrected interval excludes 0): "
               + (", ".join(f"{r.agent} {points(r.change, r.change_lo_corrected, r.change_hi_corrected)}"
                            for r in moved.itertuples()) or "none") + ".",
               f"The same what-if from the command line: `hoc balance --override {args.what_if} --seeds {args.games} "
               f"--games {4 * args.games}`.")


def _forced_line(w) -> str:
    b, c = w.baseline.forced, w.changed.forced
    return (f"- the best plans found that buy it: printed {points(b.value, b.lo, b.hi)}, changed "
            f"{points(c.value, c.lo, c.hi)}, change {points(*w.forced)} (paired)")


def _field():
    """The agents whose win-rate change the what-if reports: the hand-written plans and the tuned
    2-player library of the 2nd edition (`card_value.what_if_agents`)."""
    return cv.what_if_agents(2)


if __name__ == "__main__":
    cli(main)
