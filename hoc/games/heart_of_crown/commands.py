"""Heart of Crown's own side of the shared commands (`GameSpec.commands`): the card sheet of `hoc cards`,
the plan search of `hoc tune`, the table of `hoc play`."""
from __future__ import annotations

from pathlib import Path

from hoc.errors import HocError


CARD_SECTIONS = (("princess", "Princesses"), ("basic", "Basic cards (the basic market and the starting decks)"),
                 ("rare", "Rare cards (one copy each, shuffled into the supply)"),
                 ("common", "Supply kinds (10 of them make a game's supply)"))


def cards(args) -> int:
    """`hoc cards`: every card's values and text, or the named cards', or the card data as JSON."""
    from hoc.games.heart_of_crown.cards import CardDB

    db = CardDB(args.edition)
    chosen = [db.lookup(n) for n in args.names] if args.names else list(range(len(db)))
    if args.json:
        cols = ["id", "pile", "category", "types", "subtypes", "cost", "links", "coins", "sp", "copies",
                "effect", "implemented", "name_en", "name_ja", "text_en"]
        print(db.frame.iloc[chosen][cols].to_json(orient="records", force_ascii=False))
        return 0
    if args.names:
        print("\n\n".join(db.sheet(i) for i in chosen))
        return 0
    edition = {"2e": "2nd edition", "1e": "1st edition"}[db.edition]
    print(f"{edition}: {len(db)} cards. `hoc cards NAME` shows one card, --json gives the data.")
    for category, title in CARD_SECTIONS:
        cards = [i for i in chosen if db.frame.category.iat[i] == category]
        if cards:
            print(f"\n{title}\n")
            print("\n".join(db.sheet(i) for i in cards))
    return 0


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


def tune(args) -> int:
    """`hoc tune`: a priority-list plan searched by CMA-ES and structural moves, written as an agent file."""
    from hoc.cli.options import backend_of
    from hoc.agents.registry import get
    from hoc.research import tuning
    from hoc.games.heart_of_crown.agents.genome import load
    from hoc.games.heart_of_crown.agents.tuning.search import Budget, Settings, tune
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


def play(args, ruleset, agents) -> int:
    """`hoc play`: game 0 of --seed at the terminal, at the table of `hoc.cli.session`."""
    import sys

    from rich.console import Console

    from hoc.cli.session import play as play_at_table
    from hoc.research.harness import Plan

    plan = Plan(ruleset, agents, 1, args.seed)
    width = min(Console().width, 100)
    console = Console(width=width, highlight=False, soft_wrap=False, file=sys.stdout)
    # a file name is asked for only from a person at a terminal: scripted input would be read as one
    play_at_table(plan, console, input, args.save, offer_save=sys.stdin.isatty())
    return 0
