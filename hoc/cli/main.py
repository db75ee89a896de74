"""The `hoc` command line. Bad input prints one line naming the problem and exits with code 2,
before any game is played; Ctrl-C prints one line saying what was saved and exits with code 130."""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from hoc.cli.options import (
    GAME_OPTIONS, backend_of, check_games, check_outputs, check_writable, game_options, ruleset_of, run_options,
    write_plot,
)
from hoc.errors import HocError, InvariantError


def cmd_simulate(args) -> int:
    from hoc.research.harness import Plan, chunk_size
    from hoc.research.runs import LengthTally, execute
    from hoc.research.simulate import Summary, lineup, report, resumed_games

    check_outputs(args)
    ruleset = ruleset_of(args)
    agents = lineup(args.agents, ruleset.players)
    plan = Plan(ruleset, agents, args.games, args.seed, args.rotate_seats, args.mirror, args.validate,
                chunk=chunk_size(args.games))
    backend = backend_of(args)
    summary = Summary(ruleset, agents, plan.seed, plan.rotate)
    lengths = LengthTally()           # counts per length and end reason: flat memory however many games
    consumers = [summary.add] + ([lengths.add] if args.plot else [])
    resumed = resumed_games(plan, args.out)
    try:
        timing = execute(plan, backend, args.out, consumers)
    finally:
        backend.close()
    result = summary.result(timing, played=plan.games - resumed)
    print(json.dumps(result) if args.json else report(result), flush=True)
    if args.plot:
        from hoc.research import plots

        write_plot("--plot", args.plot, lambda: plots.length_histogram(
            lengths.frame(), args.plot, title=f"Game length ({plan.games:,} games)", count="games"))
    if args.sp_curves:
        from hoc.research import plots
        from hoc.research.curves import sp_by_turn

        curves = sp_by_turn(plan, 200)
        write_plot("--sp-curves", args.sp_curves, lambda: plots.sp_curves(
            curves, args.sp_curves, title=f"Succession points by own turn (first {min(200, plan.games)} games)"))
    return 0


def _study_start(args):
    from hoc.research.simulate import lineup  # noqa: F401  (loads the agent registry before timing)

    check_outputs(args)
    return ruleset_of(args)


def cmd_tournament(args) -> int:
    from hoc.research.simulate import resolve
    from hoc.research.studies import tournament, tournament_json, tournament_plot, tournament_report

    ruleset = _study_start(args)
    agents = resolve(args.agents)
    if args.games_per_pairing < 1:
        raise HocError(f"--games-per-pairing must be at least 1, got {args.games_per_pairing}")
    sprt = _sprt(args.sprt)
    backend = backend_of(args)
    try:
        t = tournament(ruleset, agents, args.games_per_pairing, args.seed, backend, args.out, args.mirror, sprt,
                       progress=True)
    finally:
        backend.close()
    if args.json:
        print(json.dumps(tournament_json(t, args.seed, ruleset.players)), flush=True)
    else:
        print("\n".join(tournament_report(t, ruleset.players, args.market, args.seed, args.mirror)), flush=True)
    if args.plot:
        write_plot("--plot", args.plot, lambda: tournament_plot(args.plot, ruleset.players, t))
    return 0


def _sprt(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        sprt = tuple(float(x) for x in text.split(","))
    except ValueError:
        sprt = ()
    if len(sprt) != 2 or not 0 < sprt[0] < sprt[1] < 1:
        raise HocError(f"--sprt takes P0,P1 with 0 < P0 < P1 < 1, got {text!r}")
    return sprt


def cmd_princesses(args) -> int:
    from hoc.research import plots
    from hoc.research import princess_study as ps

    ruleset = _study_start(args)
    if args.agents is not None:
        raise HocError("hoc princesses plays each princess by her own plan: replace one with --plans PRINCESS=AGENT, "
                       "not --agents")
    if args.rotate_seats:
        raise HocError("hoc princesses draws each seat's princess at random in every game: --rotate-seats does not "
                       "apply")
    plans = ps.best_plans(ruleset, ps.parse_plans(args.plans, ruleset))
    check_games(args)
    if args.games_per_pair < 0:
        raise HocError(f"--games-per-pair must be 0 or more, got {args.games_per_pair}")
    backend = backend_of(args)
    try:
        result = ps.princess_strength(ruleset, plans, args.games, args.seed, backend, args.out, progress=True,
                                      games_per_pair=args.games_per_pair, mirror=args.mirror)
    finally:
        backend.close()
    if args.json:
        print(json.dumps(ps.as_json(result, args.seed)), flush=True)
    else:
        print("\n".join(ps.report(result, args.market, args.seed)), flush=True)
    if args.plot:
        write_plot("--plot", args.plot, lambda: plots.princess_bars(
            result.strength.rename(columns={"seats": "backed"}), args.plot, even=1 / ruleset.players,
            title=f"Win rate when backed by her best plan ({len(result.games):,} games, {ruleset.players} players)"))
    return 0


def _balance_ruleset(args):
    from hoc.rules import Ruleset

    return Ruleset(edition=args.edition, players=args.players, market="random", overrides=tuple(args.override or ()),
                   turn_cap=args.turn_cap)


def cmd_balance(args) -> int:
    from hoc.agents.registry import AGENTS
    from hoc.research import balance_report as report
    from hoc.research import card_value as cv
    from hoc.research.runs import check_memory
    from hoc.research.simulate import resolve

    if not 2 <= args.players <= 4:
        raise HocError(f"balance plays 2 to 4 players, got {args.players}")
    for flag, value, low in (("--tune-games", args.tune_games, 1), ("--seeds", args.seeds, 2),
                             ("--games", args.games, 1)):
        if value < low:
            raise HocError(f"{flag} must be at least {low}, got {value}")
    if args.plot is not None:
        if Path(args.plot).suffix != ".png" or not Path(args.plot).stem:
            raise HocError(f"--plot must name a .png file, got {args.plot!r}")
        check_writable("--plot", Path(args.plot), folder=False)
    if args.work is not None and Path(args.work).exists() and not Path(args.work).is_dir():
        raise HocError(f"--work must name a folder, got the file {args.work}")
    agents = None
    if args.agents is not None:
        agents = resolve(args.agents)
        if not agents:
            raise HocError("no agents given")
    ruleset = _balance_ruleset(args)
    ruleset.vector                      # bad overrides and player counts fail now, before any game
    check_memory(max(2 * args.games, args.seeds * ruleset.players))
    kinds = cv.kinds_to_price(ruleset, args.card)
    tuning = cv.Tuning(args.start, tuple(n.strip() for n in (args.opponents or "").split(",") if n.strip()),
                       args.tune_games, args.seed)
    if args.strong in (cv.RULES, cv.TUNED):
        if args.start is None and tuning.start_name(ruleset.players) not in AGENTS:
            raise HocError(f"no {tuning.start_name(ruleset.players)} in the library to start from: name a start "
                           f"plan with --from, e.g. --from tuned_general_2p")
        cv.plan_file(tuning.start_name(ruleset.players))     # a missing start plan fails now
        for n in tuning.opponents:
            resolve(n)
    else:
        strong = resolve(args.strong)
        if len(strong) != 1:
            raise HocError(f"--strong names one agent, got {args.strong!r}")
        cv.ban(strong[0], kinds[0], ruleset)      # an agent that cannot take a ban fails now
    if ruleset.overrides:
        if agents is None:
            agents = cv.what_if_agents(ruleset.players)
        if len(agents) < ruleset.players:
            raise HocError(f"{len(agents)} agents cannot fill {ruleset.players} seats")
    head = report.head(args.strong, ruleset, tuning, args.seeds, args.seed, shlex.join(["hoc", *args.argv]))
    backend = backend_of(args)
    try:
        if ruleset.overrides:
            w = cv.what_if(ruleset, kinds[0], agents, args.strong, tuning, args.seeds, args.games, args.seed,
                           args.work, backend)
            result, table = report.what_if_json(head, w), report.what_if_table(w)
        else:
            values = [cv.card_value(ruleset, k, args.strong, tuning, args.seeds, args.seed, args.work, backend)
                      for k in kinds]
            result, table = report.values_json(head, values), report.values_table(values)
    finally:
        backend.close()
    print(json.dumps(result) if args.json else report.text(result), flush=True)
    if args.plot:
        from hoc.research import plots

        write_plot("--plot", args.plot, lambda: plots.effect_bars(
            table, "label", args.plot, (f"What if {' '.join(ruleset.overrides)}" if ruleset.overrides else
                                        "Card value under strong play") + f", {ruleset.players} players",
            "win-rate change, percentage points", value="value", sort=not ruleset.overrides))
    return 0


def cmd_replay(args) -> int:
    from hoc.research.replays import replay, replay_run
    from hoc.research.simulate import lineup

    if not 0 <= args.game < 2 ** 63:
        raise HocError(f"--game must be 0 to 2**63 - 1, got {args.game}")
    given = [f"--{k.replace('_', '-')}" for k in GAME_OPTIONS if getattr(args, k) is not None and k != "agents"]
    if args.file:
        from hoc.research.replays import replay_saved

        if given or args.from_run or args.agents is not None:
            drop = given + (["--from"] if args.from_run else []) + (["--agents"] if args.agents is not None else [])
            raise HocError(f"a saved game replays with the rules and seats it recorded: drop {', '.join(drop)}")
        print("\n".join(replay_saved(args.file).lines))
        return 0
    if args.from_run:
        if given:
            raise HocError(f"--from replays the run with the options it recorded: drop {', '.join(given)}")
        print("\n".join(replay_run(args.from_run, args.game, args.agents).lines))
        return 0
    for k, v in GAME_OPTIONS.items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    ruleset = ruleset_of(args)
    print("\n".join(replay(ruleset, lineup(args.agents, ruleset.players), args.seed, args.game,
                           rotate=args.rotate_seats)))
    return 0


CARD_SECTIONS = (("princess", "Princesses"), ("basic", "Basic cards (the basic market and the starting decks)"),
                 ("rare", "Rare cards (one copy each, shuffled into the supply)"),
                 ("common", "Supply kinds (10 of them make a game's supply)"))


def cmd_cards(args) -> int:
    from hoc.cards import CardDB

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


def cmd_play(args) -> int:
    from hoc.cli.session import cmd_play as play

    return play(args)


def cmd_agents(args) -> int:
    from hoc.agents.registry import AGENTS

    width = max(len(n) for n in AGENTS)
    for name, agent in AGENTS.items():
        print(f"{name:<{width}}  {agent.description}")
    return 0


# ---- hoc meta (issue 14): the meta-game of a population of plans ----------------------------------

def _meta_command(args) -> str:
    """The command that reproduces the run, every option that decides it spelled out."""
    if args.matrix:
        argv = ["--matrix", args.matrix] + (["--agents", args.agents] if args.agents else [])
    else:
        argv = ["--edition", args.edition, "--players", str(args.players), "--market", args.market,
                "--agents", args.agents or ",".join(a.name for a in _meta_population(args)),
                "--games-per-pairing", str(args.games_per_pairing), "--seed", str(args.seed)]
    if args.alpha is not None:
        argv += ["--alpha", f"{args.alpha:g}"]
    return shlex.join(["hoc", "meta", *argv, "--bootstrap", str(args.bootstrap)])


def _meta_population(args):
    """The agents given, or every hand-written and tuned plan this edition can play."""
    from hoc.research.meta import population
    from hoc.research.simulate import resolve
    from hoc.rules import Ruleset

    if args.agents is not None:
        return resolve(args.agents)
    return population(Ruleset(edition=args.edition, players=args.players, market=args.market))


def cmd_meta(args) -> int:
    from hoc.research import meta
    from hoc.rules import Ruleset

    check_outputs(args)
    if args.bootstrap < 0:
        raise HocError(f"--bootstrap must be 0 or more, got {args.bootstrap}")
    if args.alpha is not None and not args.alpha > 0:
        raise HocError(f"--alpha must be positive, got {args.alpha:g}")
    if args.save_matrix is not None:
        if Path(args.save_matrix).suffix != ".csv":
            raise HocError(f"--save-matrix must name a .csv file, got {args.save_matrix!r}")
        check_writable("--save-matrix", Path(args.save_matrix), folder=False)
    if args.matrix:
        # a saved matrix carries its own players, market and games: options that would change them do not apply
        played = {"--edition": args.edition != "2e", "--players": args.players != 2, "--market": args.market != "random",
                  "--games-per-pairing": args.games_per_pairing != 400, "--save-matrix": args.save_matrix is not None}
        clash = [k for k, given in played.items() if given]
        if clash:
            raise HocError(f"--matrix analyses saved games and plays none: {', '.join(clash)} cannot apply "
                           f"(the matrix records its own players, market and games)")
        results = meta.load(args.matrix)
        if args.agents:
            results = meta.subset(results, [a.strip() for a in args.agents.split(",") if a.strip()])
        market = results.market
    else:
        if not 2 <= args.players <= 4:
            raise HocError(f"a meta-game is played by 2 to 4 players, got {args.players}")
        ruleset = Ruleset(edition=args.edition, players=args.players, market=args.market)
        agents = _meta_population(args)
        if len(agents) < 2:
            raise HocError(f"a meta-game needs at least 2 agents, got {len(agents)}")
        if args.games_per_pairing < 1:
            raise HocError(f"--games-per-pairing must be at least 1, got {args.games_per_pairing}")
        for a in agents:
            a.params(ruleset)               # an agent this edition cannot play fails now, by name
        market = args.market
        backend = backend_of(args)
        try:
            results = meta.play(ruleset, agents, args.games_per_pairing, args.seed, backend, progress=True)
        finally:
            backend.close()
        if args.save_matrix:
            results.save(args.save_matrix)
    m = meta.analyse(results, args.alpha, args.bootstrap, args.seed)
    command = _meta_command(args)
    print(json.dumps(meta.as_dict(m, command, market)) if args.json else meta.report(m, command, market), flush=True)
    if args.plot:
        from hoc.research import plots

        games = int(results.table.drop_duplicates("lineup")["games"].sum())
        write_plot("--plot", args.plot, lambda: plots.meta_game(
            m, args.plot, title=f"Meta-game, {results.players} players, market {market} ({games:,} games)"))
    return 0


def _meta_parser(sub) -> None:
    p = sub.add_parser("meta", help="the meta-game of a population of plans: Nash equilibrium and α-Rank")
    p.add_argument("--agents", help="the population, comma-separated (default: every hand-written and tuned plan "
                                    "the edition can play)")
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")
    p.add_argument("--players", type=int, default=2, help="2 (default) to 4")
    p.add_argument("--market", default="random",
                   help="random (default), basic, a preset name, or 10 comma-separated common kinds")
    p.add_argument("--games-per-pairing", type=int, default=400,
                   help="games per lineup (default 400), rounded up to a multiple of the players: each seed is played "
                        "once from every seat")
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0): the same seeds for every lineup")
    p.add_argument("--alpha", type=float, help="α-Rank's selection intensity (default: the smallest of 0.5, 1, 2, "
                                               "... at which the masses settle)")
    p.add_argument("--bootstrap", type=int, default=200,
                   help="tables resampled from the games to test the equilibrium's support and α-Rank's "
                        "masses (default 200; 0 skips)")
    p.add_argument("--matrix", metavar="FILE.csv", help="analyse a matrix saved by --save-matrix instead of playing "
                                                         "(with --agents: the sub-game of those agents)")
    p.add_argument("--save-matrix", metavar="FILE.csv", help="save the results table to reuse with --matrix")
    p.add_argument("--plot", help="save the matrix and the weights (2 players) or the α-Rank masses as a PNG")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", default="loky", help="loky (local processes, default) or dask")
    p.add_argument("--scheduler", help="Dask scheduler address for --backend dask, e.g. tcp://10.0.0.5:8786")
    p.set_defaults(func=cmd_meta)


# ---- hoc tune (issue 12): strong priority-list plans found by search -----------------------------

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
    argv += ["--games", str(args.games)] if args.games is not None else ["--minutes", f"{args.minutes:g}"]
    argv += ["--seed", str(args.seed), "--population", str(args.population), "--out", args.out]
    return argv


def cmd_tune(args) -> int:
    from hoc.agents.registry import get
    from hoc.research import tuning
    from hoc.agents.tune.genome import load
    from hoc.agents.tune.search import Budget, Settings, tune
    from hoc.rules import Ruleset

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
        from hoc.research.card_value import plan_file

        start = plan_file(start)
    settings = Settings(ruleset, tuple(get(n) for n in names), args.seed, args.princess,
                        load(start) if start else None, population=args.population,
                        ban=tuple(args.ban or ()))
    backend = backend_of(args)
    try:
        result = tune(settings, budget, args.out, backend, args.validate_games, _tune_command(args))
    finally:
        backend.close()
    print("\n".join(tuning.report(result)))
    return 0


def _tune_parser(sub) -> None:
    p = sub.add_parser("tune", help="search for a strong priority-list plan; writes an agent file")
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")
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
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", default="loky", help="loky (local processes, default) or dask")
    p.add_argument("--scheduler", help="Dask scheduler address for --backend dask, e.g. tcp://10.0.0.5:8786")
    p.set_defaults(func=cmd_tune)


def _balance_parser(sub) -> None:
    p = sub.add_parser("balance", help="value of a common card under strong play, and what-ifs by re-tuning",
                       description="The value of a common kind: on random markets that always offer it, a strong "
                                   "player allowed it against the same player with it banned (same seeds, seats "
                                   "mirrored). With --override: that value printed and changed, and every agent's "
                                   "win-rate change.")
    p.add_argument("--card", help="common kind(s) to price, comma-separated, or all (default with --override: "
                                  "the kind it changes)")
    p.add_argument("--override", action="append", metavar="CARD.FIELD=VALUE",
                   help="a card change to price, e.g. curse_witch.cost=6 (repeatable)")
    p.add_argument("--strong", default="rules",
                   help="the strong player: rules (default: the start plan with its rules for the card searched, "
                        "against the start plan without them), tuned (whole plans re-tuned by hoc tune for each "
                        "condition: noisier), or an agent spec, played as given and with the card banned")
    p.add_argument("--from", dest="start", metavar="PLAN",
                   help="the start plan of rules and tuned (default tuned_general_<players>p)")
    p.add_argument("--opponents", help="with --strong tuned: agents the re-tunes play against, comma-separated "
                                       "(default: the start plan)")
    p.add_argument("--tune-games", type=int, default=100_000,
                   help="with --strong tuned: games per re-tune (default 100000)")
    p.add_argument("--seeds", type=int, default=5000,
                   help="game seeds of each head to head, each played in every seat (default 5000)")
    p.add_argument("--games", type=int, default=20_000,
                   help="with --override: games per ruleset of the agents' round robin (default 20000)")
    p.add_argument("--agents", help="with --override: the agents whose win-rate change is reported "
                                    "(default: the archetypes and the tuned plans)")
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")
    p.add_argument("--players", type=int, default=2, help="2 to 4")
    p.add_argument("--turn-cap", type=int, default=100, help="turns per player before a capped draw")
    p.add_argument("--seed", type=int, default=0, help="seed of the games and of the re-tunes (default 0)")
    p.add_argument("--work", help="folder keeping the re-tuned plans (a rerun reuses them; default: temporary)")
    p.add_argument("--plot", help="save the values (or, with --override, the changes) as bars with intervals (PNG)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", default="loky", help="loky (local processes, default) or dask")
    p.add_argument("--scheduler", help="Dask scheduler address for --backend dask, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=cmd_balance)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in the same single line as every other bad input."""

    def error(self, message):
        self.exit(2, f"hoc: error: {message} (see `{self.prog} --help`)\n")


def parser() -> argparse.ArgumentParser:
    from hoc import __version__

    top = _Parser(prog="hoc", description="Heart of Crown simulator")
    top.add_argument("--version", action="version", version=f"hoc {__version__}")
    sub = top.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("simulate", help="play many games and summarise them")
    game_options(p, 10_000)
    p.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
    p.add_argument("--validate", action="store_true", help="check the invariants after every step")
    p.add_argument("--plot", help="save a histogram of game length (PNG)")
    p.add_argument("--sp-curves", help="save mean SP per own turn by agent, over the first 200 games (PNG)")
    run_options(p)
    p.set_defaults(func=cmd_simulate)
    p = sub.add_parser("tournament", help="round robin of agents: win-rate table with intervals, ratings")
    game_options(p, None)
    p.set_defaults(agents="senator_duke,curse_witch,basic_rush", rotate_seats=True)
    p.add_argument("--games-per-pairing", type=int, default=2000, help="games per set of agents (default 2000)")
    p.add_argument("--sprt", metavar="P0,P1", help="2 players: stop a pairing once Wald's test decides "
                                                   "between win rates P0 and P1 of its first agent, e.g. 0.5,0.55")
    p.add_argument("--plot", help="save the win-rate table as a heatmap PNG")
    run_options(p)
    p.set_defaults(func=cmd_tournament)
    p = sub.add_parser("princesses", help="each princess's win rate when backed by her best plan, princess "
                                          "against princess, and the market kinds that move her most")
    game_options(p, None)
    p.set_defaults(agents=None)
    p.add_argument("--games", type=int, default=12_000,
                   help="games with each seat's princess drawn at random (default 12000)")
    p.add_argument("--plans", action="append", metavar="PRINCESS=AGENT,...",
                   help="the agent playing a princess instead of her tuned plan tuned_PRINCESS_2p, e.g. "
                        "twins=my_twins.toml (repeatable)")
    p.add_argument("--games-per-pair", type=int, default=2000,
                   help="2 players: mirrored games of each pair of princesses' plans for the matrix (default 2000; "
                        "0: none)")
    p.add_argument("--plot", help="save the princess win rates as a bar chart PNG")
    run_options(p)
    p.set_defaults(func=cmd_princesses)
    _balance_parser(sub)
    p = sub.add_parser("replay", help="print a turn-by-turn log of one game of a run")
    game_options(p, None)
    p.set_defaults(**dict.fromkeys(GAME_OPTIONS))       # None: not given (--from takes the run's own)
    p.add_argument("file", nargs="?", metavar="FILE.json", help="a game saved by `hoc play` (its own rules and seats)")
    p.add_argument("--game", type=int, default=0, help="game index within the run (default 0)")
    p.add_argument("--from", dest="from_run", metavar="RUN.parquet",
                   help="replay game --game of a run saved with --out, with the options it recorded "
                        "(--agents only to name agent files the run's names do not find)")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("play", help="play a game at the terminal against agents, or hot seat with several people",
                       description="Play game 0 of --seed at the terminal. --agents names one agent per seat "
                                   "(seat 0 plays first), `human` for a person: e.g. human,basic_rush; "
                                   "human,human is hot seat (default players: one per name). Type an action's "
                                   "number or label; ? CARD shows a card's text; save FILE; q quits.")
    game_options(p, None)
    p.set_defaults(agents="human,basic_rush", players=None)
    p.add_argument("--save", metavar="FILE.json",
                   help="save the game here at its end or on quitting, for `hoc replay FILE.json`")
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("cards", help="every card's values and text (or the named cards')")
    p.add_argument("names", nargs="*", metavar="NAME", help="a card's id or English name, e.g. duke or 'Court Maid'")
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")
    p.add_argument("--json", action="store_true", help="the card data as JSON records")
    p.set_defaults(func=cmd_cards)
    p = sub.add_parser("agents", help="list the available agents")
    p.set_defaults(func=cmd_agents)
    _tune_parser(sub)
    _meta_parser(sub)
    return top


def _interrupted(args, argv: list[str]) -> str:
    """What a Ctrl-C leaves behind, and the command that carries on from there."""
    command = shlex.join(["hoc", *argv])
    if not hasattr(args, "out"):
        return "interrupted"
    if args.out is None:
        return "interrupted; nothing was saved (no --out given: add --out NAME.parquet to keep the games of a run)"
    from hoc.research.store import saved

    parts, games = saved(args.out) if Path(args.out).is_dir() else (0, 0)
    if not parts:
        return f"interrupted before any game was saved in {args.out}; start again with: {command}"
    return (f"interrupted; {games:,} games in {parts:,} parts are saved in {args.out}; "
            f"resume with the same command: {command}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser().parse_args(argv)
    args.argv = argv
    try:
        return args.func(args)
    except HocError as e:
        print(f"hoc: error: {e}", file=sys.stderr)
        return 2
    except InvariantError as e:
        print(f"hoc: invariant broken: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print(f"hoc: {_interrupted(args, argv)}", file=sys.stderr)
        return 130                      # 128 + SIGINT, as shells report an interrupted command


if __name__ == "__main__":
    sys.exit(main())
