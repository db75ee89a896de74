"""`hoc tune`: search for a strong priority-list plan and write it as an agent file (the search is
`hoc.agents.tune`, its default opponents and report `hoc.research.tuning`)."""
from __future__ import annotations

from hoc.cli.options import edition_option, game_command, game_option, worker_options


def cmd_tune(args) -> int:
    return game_command(args, "tune")(args)


def add_parser(sub) -> None:
    p = sub.add_parser("tune", help="search for a strong priority-list plan; writes an agent file",
                       description="Search for a strong priority-list plan (CMA-ES over its thresholds, against "
                                   "the opponents); writes the agent file. Its time is the budget you give "
                                   "(--games or --minutes) plus the playoff and validation: --games 20000 took 72 s "
                                   "on 2 cores (--jobs 1; a whole first generation of 68,096 games, about 400 "
                                   "games/s at 2 players on a machine shared with other work, load about 8, then "
                                   "the validation at 2,000 games per opponent).")
    game_option(p)
    edition_option(p)
    p.add_argument("--players", type=int, default=2, help="2 to 4")
    p.add_argument("--market", default="random",
                   help="random (default: a plan for random markets), a preset name, or 10 comma-separated kinds")
    p.add_argument("--with", dest="market_with", action="append", metavar="KIND",
                   help="random markets always offer this common kind, the rest drawn (repeatable)")
    p.add_argument("--override", action="append", metavar="CARD.FIELD=VALUE",
                   help="change a card value for the search, e.g. curse_witch.cost=6 (repeatable)")
    p.add_argument("--ban", action="append", metavar="KIND",
                   help="the plan never buys nor picks to gain this card or common kind (repeatable); "
                        "its rules for it are dropped from --from")
    p.add_argument("--plan", action="store_true",
                   help="every candidate plays with the turn planner ([plan]: its Main phase and card questions "
                        "decided by look-ahead), its weights searched with the thresholds")
    p.add_argument("--second", action="store_true",
                   help="every candidate weighs its Second phase's back, set or buy by the turn planner (a turn or two "
                        "played on, scored by the shipped evaluation), its margin and horizon searched with the "
                        "thresholds; about 10x fewer games a minute")
    p.add_argument("--princess", help="the princess the plan must back first")
    p.add_argument("--opponents", help="agents to beat, comma-separated (default: every archetype and basic_rush "
                                       "that the edition can play); "
                                       "the search's own hall of fame always joins them")
    p.add_argument("--from", dest="start", metavar="PLAN", help="start from this plan: a .toml file or a plan of the "
                                                             "library by name (default: from nothing)")
    budget = p.add_mutually_exclusive_group(required=True)
    budget.add_argument("--games", type=int, help="budget in games (the same seed gives the same plan)")
    budget.add_argument("--minutes", type=float, help="budget in minutes of search")
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument("--population", type=int, default=24, help="plans per generation (default 24)")
    p.add_argument("--validate-games", type=int, default=2000,
                   help="games per opponent in the final validation on fresh seeds (default 2000)")
    p.add_argument("--out", required=True, help="folder for best.toml, history, curve and summary; "
                                                "rerun the same command to resume")
    worker_options(p)
    p.set_defaults(func=cmd_tune)
