"""`hoc tune`: search for a strong priority-list plan and write it as an agent file (the search is
`hoc.agents.tune`, its default opponents and report `hoc.research.tuning`)."""
from __future__ import annotations

from pathlib import Path

from hoc.cli.options import backend_of, edition_option, game_of, game_option, worker_options
from hoc.errors import HocError


def _tune_command(args) -> list[str]:
    """The options that determine the plan, spelled out (defaults included), to print as the
    command that reproduces the run."""
    argv = ["--edition", args.edition, "--players", str(args.players), "--market", args.market]
    for flag, values in (("--with", args.market_with), ("--override", args.override), ("--ban", args.ban)):
        for value in values or ():
            argv += [flag, value]
    for flag, value in (("--princess", args.princess), ("--opponents", args.opponents), ("--from", args.start)):
        if value:
            argv += [flag, value]
    if args.plan:
        argv += ["--plan"]
    if args.second:
        argv += ["--second"]
    argv += ["--games", str(args.games)] if args.games is not None else ["--minutes", f"{args.minutes:g}"]
    argv += ["--seed", str(args.seed), "--population", str(args.population), "--out", args.out]
    return argv


def _tune_dominion(args) -> int:
    from hoc.agents.registry import get, split_names
    from hoc.agents.tune import dominion
    from hoc.games.dominion.agents.genome import universe
    from hoc.games.dominion.rules import Ruleset

    for flag, given in (("--princess", args.princess), ("--plan", args.plan), ("--second", args.second),
                        ("--from", args.start),
                        ("--ban", args.ban), ("--with", args.market_with), ("--minutes", args.minutes)):
        if given:
            raise HocError(f"{flag} is not an option of tune --game dominion")
    if args.edition != "2e":
        raise HocError("--edition is a Heart of Crown option; Dominion here is the base set, 2nd edition")
    if args.games < 1:
        raise HocError(f"--games must be at least 1, got {args.games}")
    ruleset = Ruleset(players=args.players, market=args.market, overrides=tuple(args.override or ()))
    names = split_names(args.opponents or "dom_smithy_bm,dom_witch_bm")
    if len(set(names)) != len(names):
        raise HocError(f"--opponents names an agent twice: {', '.join(names)}")
    opponents = [get(n) for n in names]
    universe(ruleset)                       # a fixed kingdom, or a one-line error now
    command = " ".join(["--game dominion", "--players", str(args.players), "--market", args.market,
                        *[f"--override {o}" for o in args.override or ()], "--opponents", ",".join(names),
                        "--games", str(args.games), "--seed", str(args.seed), "--population", str(args.population),
                        "--validate-games", str(args.validate_games), "--out", args.out])
    result = dominion.tune(ruleset, opponents, args.games, args.seed, args.out, population=args.population,
                           validate_games=args.validate_games, command=command,
                           progress=lambda line: print(line, flush=True))
    print("\n".join(dominion.report(result)))
    return 0


def cmd_tune(args) -> int:
    if game_of(args) == "dominion":
        return _tune_dominion(args)
    from hoc.agents.registry import get
    from hoc.research import tuning
    from hoc.games.heart_of_crown.agents.genome import load
    from hoc.agents.tune.search import Budget, Settings, tune
    from hoc.games.heart_of_crown.rules import Ruleset

    if not 2 <= args.players <= 4:
        raise HocError(f"tune plays 2 to 4 players, got {args.players}")
    budget = Budget(args.games, args.minutes)
    ruleset = Ruleset(edition=args.edition, players=args.players, market=args.market,
                      overrides=tuple(args.override or ()), market_with=tuple(args.market_with or ()))
    if args.opponents is not None:
        from hoc.agents.registry import split_names
        names = split_names(args.opponents)
        if len(set(names)) != len(names):
            raise HocError(f"--opponents names an agent twice: {', '.join(names)}")
    else:
        names = tuning.default_opponents(ruleset)
    start = args.start
    if start and not Path(start).exists():      # a plan of the library by name, e.g. tuned_general_2p
        from hoc.games.heart_of_crown.studies.card_value import plan_file

        start = plan_file(start)
    settings = Settings(ruleset, tuple(get(n) for n in names), args.seed, args.princess,
                        load(start) if start else None, population=args.population,
                        ban=tuple(args.ban or ()), plan=args.plan, second=args.second)
    backend = backend_of(args)
    try:
        result = tune(settings, budget, args.out, backend, args.validate_games, _tune_command(args))
    finally:
        backend.close()
    print("\n".join(tuning.report(result)))
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("tune", help="search for a strong priority-list plan; writes an agent file")
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
