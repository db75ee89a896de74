"""How often the turn planner decides otherwise than its list: both seats play a list with its
planner on; at every decision of seat 0's own turns the planner's action is compared with what the
same list with its planner off would do there.

    python -m experiments.plan_decisions --plans tuned_plan_2p,curse_witch --games 200 [--out DIR]

A list whose planner rarely differs cannot gain from it, whatever the planner's quality: what it
buys leaves nothing to decide.
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import sys
from pathlib import Path


def deviations(name: str, games: int, seed: int):
    from hoc.games.heart_of_crown.agents import priority
    from hoc.games.heart_of_crown.agents.catalog import from_list, list_file
    from hoc.games.heart_of_crown.game import Game
    from hoc.games.heart_of_crown.rules import Ruleset

    spec = priority.parse(list_file(name))
    on = from_list(spec if spec.planned else spec.with_plan(), "on")
    off = from_list(dataclasses.replace(spec, plan=None), "off")
    rs = Ruleset(players=2, market="random")
    total, differ, pairs = collections.Counter(), collections.Counter(), collections.Counter()
    for i in range(games):
        g = Game.of_run(rs, seed, i)
        while not g.over:
            a = g.decide(on)
            if g.decider == 0 and g.turn_player == 0:
                b = g.decide(off)
                total[g.context] += 1
                if a != b:
                    differ[g.context] += 1
                    pairs[(g.context, g.label(b).split(":")[0], g.label(a).split(":")[0])] += 1
            g.apply(a)
    return total, differ, pairs


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--plans", default="tuned_plan_2p,tuned_general_2p,curse_witch,draw_engine")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=99)
    p.add_argument("--out", default=None, help="write the tables to OUT/decisions.md")
    a = p.parse_args(argv)
    cmd = "python -m experiments.plan_decisions " + " ".join(sys.argv[1:] if argv is None else argv)
    lines = ["# Where the planner decides otherwise than its list", "", f"`{cmd}` (random markets, 2 players, "
             f"both seats planning, seat 0's own-turn decisions counted)", ""]
    for name in a.plans.split(","):
        total, differ, pairs = deviations(name, a.games, a.seed)
        n = sum(total.values())
        lines += [f"## {name}", "", f"{n:,} own-turn decisions in {a.games} games; the planner differs at "
                  f"{sum(differ.values()):,} ({sum(differ.values()) / a.games:.2f} a game).", "",
                  "| context | decisions a game | planner differs a game |", "| --- | --- | --- |"]
        lines += [f"| {c} | {total[c] / a.games:.1f} | {differ[c] / a.games:.2f} |" for c in total]
        lines += ["", "| context | the list | the planner | times |", "| --- | --- | --- | --- |"]
        lines += [f"| {c} | {x} | {y} | {k} |" for (c, x, y), k in pairs.most_common(12)]
        lines.append("")
        print("\n".join(lines[-(len(total) + 10 + min(12, len(pairs))):]), flush=True)
    if a.out:
        Path(a.out).mkdir(parents=True, exist_ok=True)
        (Path(a.out) / "decisions.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
