"""The `hoc` command line. Bad input prints one line naming the problem and exits with code 2,
before any game is played; Ctrl-C prints one line saying what was saved and exits with code 130."""
from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
import tempfile
from pathlib import Path

from hoc.errors import HocError, InvariantError


def _ruleset(args):
    from hoc.rules import Ruleset

    market = args.market
    princesses = tuple(p.strip() for p in args.princesses.split(",") if p.strip()) if args.princesses else None
    return Ruleset(edition=args.edition, players=args.players, market=market, princesses=princesses,
                   instant_win_at_30=args.instant_win_at_30, turn_cap=args.turn_cap,
                   overrides=tuple(args.override or ()))


def _game_options(p: argparse.ArgumentParser, games_default: int | None):
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")
    p.add_argument("--players", type=int, default=2, help="1 to 4 (1 = solo study mode)")
    p.add_argument("--agents", default="basic_rush",
                   help="agent by seat, comma-separated; a single name fills every seat (see `hoc agents`); "
                        "the search agent takes options: ismcts:iterations=1000,rollout=senator_duke "
                        "(key=value tokens after an ismcts spec are its options)")
    p.add_argument("--market", default="random",
                   help="random (default), basic, a preset name, or 10 comma-separated common kinds")
    p.add_argument("--princesses", default=None, help="princess pool in order, e.g. lulunasaika,laolily")
    p.add_argument("--seed", type=int, default=0, help="master seed of the run (default 0)")
    p.add_argument("--rotate-seats", action="store_true", help="rotate the lineup game by game")
    p.add_argument("--override", action="append", metavar="CARD.FIELD=VALUE",
                   help="change a card value for this run, e.g. duke.cost=7 (repeatable)")
    p.add_argument("--turn-cap", type=int, default=100, help="turns per player before a capped draw")
    p.add_argument("--instant-win-at-30", action="store_true", help="30 SP wins at once outside overtime too")


def _option_defaults() -> dict:
    p = argparse.ArgumentParser(add_help=False)
    _game_options(p, None)
    return vars(p.parse_args([]))


GAME_OPTIONS = _option_defaults()     # the game options and their defaults


def _run_options(p: argparse.ArgumentParser):
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", default="loky", help="loky (local processes, default) or dask")
    p.add_argument("--scheduler", help="Dask scheduler address for --backend dask, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--mirror", action="store_true",
                   help="mirrored games: each game seed is played once with every rotation of the seats")
    p.add_argument("--out", help="write one row per game to this Parquet folder (NAME.parquet); "
                                 "rerun the same command to resume an interrupted run")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")


def _check_outputs(args) -> None:
    """Refuse now, before any game is played, an output that could not be written at the end."""
    if getattr(args, "out", None) is not None:
        out = args.out
        if Path(out).suffix != ".parquet" or not Path(out).stem:
            raise HocError(f"--out must name a .parquet folder, got {out!r}")
        _check_writable("--out", Path(out), folder=True)
    pngs = {}
    for flag in ("--plot", "--sp-curves"):
        path = getattr(args, flag[2:].replace("-", "_"), None)
        if path is not None:
            if Path(path).suffix != ".png" or not Path(path).stem:
                raise HocError(f"{flag} must name a .png file, got {path!r}")
            _check_writable(flag, Path(path), folder=False)
            if getattr(args, "out", None) is not None and Path(args.out).resolve() in Path(path).resolve().parents:
                raise HocError(f"{flag} {path} is inside the --out folder, where every file is read as games; "
                               f"save the plot elsewhere")
            if Path(path).resolve() in pngs:
                raise HocError(f"{flag} and {pngs[Path(path).resolve()]} name the same file {path}")
            pngs[Path(path).resolve()] = flag


def _check_writable(flag: str, path: Path, folder: bool) -> None:
    """The games' folder must sit in an existing folder; a plot's missing folders are made when it is
    saved. Either way the nearest existing folder must take a new file."""
    if path.exists() and path.is_dir() != folder:
        raise HocError(f"{flag} {path} exists and is a {'file' if folder else 'folder'}; choose another name")
    parent = path.parent
    if not folder:
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
    if not parent.exists():
        raise HocError(f"{flag} {path}: the folder {parent} does not exist")
    if not parent.is_dir():
        raise HocError(f"{flag} {path}: {parent} is a file, not a folder")
    try:
        if path.exists() and not folder:
            open(path, "ab").close()            # an existing plot is replaced: it must be writable
        else:
            tempfile.TemporaryFile(dir=parent).close()
    except OSError as e:
        raise HocError(f"{flag} {path}: cannot write in {parent}: {e.strerror or e}") from None


def _write_plot(flag: str, path: str, draw) -> None:
    """Draw a plot after the summary is printed: a failure now names the plot and keeps the summary."""
    try:
        draw()
    except OSError as e:
        raise HocError(f"cannot write {flag} {path}: {e.strerror or e} (the summary above is complete)") from None


def _games(args) -> None:
    if args.games < 1:
        raise HocError(f"--games must be at least 1, got {args.games}")


def _backend(args):
    from hoc.research.harness import Backend

    backend = Backend(args.jobs, args.backend, args.scheduler)
    backend.connect()           # an unreachable scheduler fails now, before any output is written
    return backend


def cmd_simulate(args) -> int:
    from hoc.research.harness import Plan, chunk_size
    from hoc.research.runs import LengthTally, execute
    from hoc.research.simulate import Summary, lineup, report, resumed_games

    _check_outputs(args)
    ruleset = _ruleset(args)
    agents = lineup(args.agents, ruleset.players)
    plan = Plan(ruleset, agents, args.games, args.seed, args.rotate_seats, args.mirror, args.validate,
                chunk=chunk_size(args.games))
    backend = _backend(args)
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

        _write_plot("--plot", args.plot, lambda: plots.length_histogram(
            lengths.frame(), args.plot, title=f"Game length ({plan.games:,} games)", count="games"))
    if args.sp_curves:
        from hoc.research import plots
        from hoc.research.curves import sp_by_turn

        curves = sp_by_turn(plan, 200)
        _write_plot("--sp-curves", args.sp_curves, lambda: plots.sp_curves(
            curves, args.sp_curves, title=f"Succession points by own turn (first {min(200, plan.games)} games)"))
    return 0


def _pct(rate, lo, hi) -> str:
    return f"{100 * rate:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]"


def _records(df) -> list[dict]:
    return json.loads(df.to_json(orient="records"))


def _study_start(args):
    from hoc.research.simulate import lineup  # noqa: F401  (loads the agent registry before timing)

    _check_outputs(args)
    return _ruleset(args)


def cmd_tournament(args) -> int:
    from hoc.research.simulate import resolve
    from hoc.research.studies import tournament

    ruleset = _study_start(args)
    agents = resolve(args.agents)
    if args.games_per_pairing < 1:
        raise HocError(f"--games-per-pairing must be at least 1, got {args.games_per_pairing}")
    sprt = _sprt(args.sprt)
    backend = _backend(args)
    try:
        t = tournament(ruleset, agents, args.games_per_pairing, args.seed, backend, args.out, args.mirror, sprt,
                       progress=True)
    finally:
        backend.close()
    if args.json:
        print(json.dumps({"games": len(t.games), "seed": args.seed, "players": ruleset.players,
                          "agents": _records(t.rates), "ratings": _records(t.ratings), "seats": _records(t.seats),
                          "pairwise": _records(t.pairwise.long) if t.pairwise is not None else None,
                          "sprt": {k: v.as_dict() for k, v in t.sprt.items()}}), flush=True)
    else:
        _tournament_report(args, ruleset, t)
    if args.plot:
        _write_plot("--plot", args.plot, lambda: _tournament_plot(args.plot, ruleset, t))
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


def _tournament_plot(path: str, ruleset, t) -> None:
    """The head-to-head table with 2 players; with more, each agent's win rate against an even share."""
    from hoc.research import plots

    if t.pairwise is not None:
        plots.winrate_heatmap(t.pairwise.long, path, title=f"Head-to-head win rate ({len(t.games):,} games)")
        return
    even = 1 / ruleset.players
    shifted = t.rates.assign(diff=t.rates.rate - even, lo=t.rates.lo - even, hi=t.rates.hi - even)
    plots.effect_bars(shifted, "agent", path, f"Win rate by agent, {ruleset.players} players "
                      f"({len(t.games):,} games)", f"win rate per seat played minus an even share "
                      f"({100 * even:.0f}%), percentage points")


def _tournament_report(args, ruleset, t) -> None:
    print(f"round robin: {len(t.games):,} games, {ruleset.players} players, market {args.market}, seed {args.seed}, "
          f"seats rotated{', mirrored' if args.mirror else ''}")
    if t.pairwise is not None:
        print("\nwin rate of the row agent against the column agent (95% interval):")
        names = list(t.pairwise.wide.index)
        width = max(len(n) for n in names)
        long = t.pairwise.long.set_index(["agent", "opponent"])
        print(" " * width + "".join(f"  {n[:20]:>20}" for n in names))
        for a in names:
            cells = [f"{'':>20}" if a == b or (a, b) not in long.index else
                     f"{_pct(*long.loc[(a, b), ['rate', 'lo', 'hi']]):>20}" for b in names]
            print(f"{a:<{width}}" + "".join(f"  {c}" for c in cells))
    print("\nwin rate by agent (per seat played):")
    for r in t.rates.itertuples():
        print(f"  {r.agent:<22} {_pct(r.rate, r.lo, r.hi)}  of {r.games:,}")
    print("\nratings (OpenSkill Plackett-Luce; ordinal = mu - 3 sigma):")
    for r in t.ratings.itertuples():
        print(f"  {r.agent:<22} mu {r.mu:6.2f}  sigma {r.sigma:5.2f}  ordinal {r.ordinal:6.2f}")
    print("\nwin rate by seat (seat 0 plays first): " + ", ".join(f"seat {int(r.seat)} {_pct(r.rate, r.lo, r.hi)}"
                                                                for r in t.seats.itertuples()))
    if t.sprt:
        every = next(iter(t.sprt.values())).every
        print(f"\nsequential test (Wald's SPRT, 5% error rates, applied after every "
              f"{'game' if every == 1 else f'{every} mirrored games'}):")
    for k, v in t.sprt.items():
        print(f"  {k}: {v.words()}")
    sys.stdout.flush()


def cmd_princesses(args) -> int:
    from hoc.research import plots
    from hoc.research.simulate import lineup
    from hoc.research.studies import princesses

    ruleset = _study_start(args)
    agents = lineup(args.agents, ruleset.players)
    _games(args)
    backend = _backend(args)
    try:
        games, table = princesses(ruleset, agents, args.games, args.seed, backend, args.out, progress=True)
    finally:
        backend.close()
    if args.json:
        print(json.dumps({"games": len(games), "seed": args.seed, "players": ruleset.players,
                          "agents": [a.name for a in agents], "princesses": _records(table)}), flush=True)
    else:
        _princesses_report(args, ruleset, agents, games, table)
    if args.plot:
        _write_plot("--plot", args.plot, lambda: plots.princess_bars(
            table, args.plot, title=f"Win rate by princess backed ({len(games):,} games, {ruleset.players} players)"))
    return 0


def _princesses_report(args, ruleset, agents, games, table) -> None:
    print(f"princesses: {len(games):,} games, {ruleset.players} players, agents {', '.join(a.name for a in agents)}, "
          f"market {args.market}, seed {args.seed}; each princess first choice in 1/{len(ruleset.pool)} of the games")
    print(f"\n  {'princess':<14} {'win rate when backed (95%)':>28} {'backed by':>10} {'mean turn':>10} {'median':>7}")
    for r in table.itertuples():
        print(f"  {r.princess:<14} {_pct(r.rate, r.lo, r.hi):>28} {r.backed:>10,} {r.mean_turn:>10.1f} "
              f"{r.median_turn:>7.1f}")
    sys.stdout.flush()


def cmd_balance(args) -> int:
    from hoc.agents.registry import archetypes
    from hoc.research.simulate import resolve
    from hoc.research.studies import balance

    ruleset = _study_start(args)
    agents = resolve(args.agents if args.agents is not None else [a.name for a in archetypes()])
    if not agents:
        raise HocError("no agents given")
    _games(args)
    backend = _backend(args)
    try:
        b = balance(ruleset, agents, args.games, args.seed, backend, args.out, progress=True)
    finally:
        backend.close()
    if args.json:
        fp = b.first_player
        out = {"games": len(b.games), "seed": args.seed, "agents": [a.name for a in agents],
               "overrides": list(ruleset.overrides),
               "first_player": dataclasses.asdict(fp), "users": _records(b.users), "effects": _records(b.effects)}
        if b.changes is not None:
            out["baseline_first_player"] = dataclasses.asdict(b.baseline.first_player)
            out["changes"] = _records(b.changes)
        print(json.dumps(out), flush=True)
    else:
        _balance_report(args, ruleset, agents, b)
    if args.plot:
        from hoc.research import plots

        _write_plot("--plot", args.plot, lambda: plots.length_histogram(
            b.games, args.plot, title=f"Game length ({len(b.games):,} games)"))
    return 0


def _balance_report(args, ruleset, agents, b) -> None:
    fp = b.first_player
    print(f"balance: {len(b.games):,} games over random markets, round robin of {len(agents)} agents, seed {args.seed}"
          + (f", overrides {' '.join(ruleset.overrides)}" if ruleset.overrides else ""))
    print(f"first-player win rate {_pct(fp.rate, fp.lo, fp.hi)} (even: {100 * fp.expected:.1f}%); "
          f"mean game length {b.games.turns.mean():.1f} turns")
    if b.baseline is not None:
        f0 = b.baseline.first_player
        print(f"  without the overrides: first player {_pct(f0.rate, f0.lo, f0.hi)}; "
              f"mean length {b.baseline.games.turns.mean():.1f} turns")
    print("\nper common kind, in games that offered it: win rate of seats owning it at the end vs the others")
    print(f"  {'kind':<26} {'users win (95%)':>24} {'others':>7} {'difference (95%)':>26} {'used by':>8}")
    for r in b.users.itertuples():
        if not r.users:
            print(f"  {r.kind:<26} {'(no seat owned it)':>24}")
            continue
        print(f"  {r.kind:<26} {_pct(r.user_rate, r.user_lo, r.user_hi):>24} {100 * r.other_rate:6.1f}% "
              f"{_pct(r.diff, r.diff_lo, r.diff_hi):>26} {100 * r.user_share:7.1f}%")
    if b.changes is not None:
        print("\nwith the overrides minus without (users' win rate), largest changes:")
        moved = b.changes.dropna(subset=["change"])
        for r in moved.reindex(moved.change.abs().sort_values(ascending=False).index).head(10).itertuples():
            print(f"  {r.kind:<26} {100 * r.change:+6.1f} points  [{100 * r.change_lo:+6.1f}, {100 * r.change_hi:+6.1f}]")
    sys.stdout.flush()


def cmd_replay(args) -> int:
    from hoc.replay import replay, replay_run
    from hoc.research.simulate import lineup

    if not 0 <= args.game < 2 ** 63:
        raise HocError(f"--game must be 0 to 2**63 - 1, got {args.game}")
    given = [f"--{k.replace('_', '-')}" for k in GAME_OPTIONS if getattr(args, k) is not None and k != "agents"]
    if args.from_run:
        if given:
            raise HocError(f"--from replays the run with the options it recorded: drop {', '.join(given)}")
        print("\n".join(replay_run(args.from_run, args.game, args.agents).lines))
        return 0
    for k, v in GAME_OPTIONS.items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    ruleset = _ruleset(args)
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


def cmd_agents(args) -> int:
    from hoc.agents.registry import AGENTS

    width = max(len(n) for n in AGENTS)
    for name, agent in AGENTS.items():
        print(f"{name:<{width}}  {agent.description}")
    return 0


# ---- hoc tune (issue 12): strong priority-list plans found by search -----------------------------

def _tune_command(args) -> list[str]:
    """The options that determine the plan, spelled out (defaults included), to print as the
    command that reproduces the run."""
    argv = ["--edition", args.edition, "--players", str(args.players), "--market", args.market]
    for flag, value in (("--princess", args.princess), ("--opponents", args.opponents), ("--from", args.start)):
        if value:
            argv += [flag, value]
    argv += ["--games", str(args.games)] if args.games is not None else ["--minutes", f"{args.minutes:g}"]
    argv += ["--seed", str(args.seed), "--population", str(args.population), "--out", args.out]
    return argv


def _binds(agent, ruleset) -> bool:
    try:
        agent.params(ruleset)
        return True
    except HocError:
        return False


def cmd_tune(args) -> int:
    from hoc.agents.registry import archetypes, get
    from hoc.agents.tune.genome import load
    from hoc.agents.tune.search import Budget, Settings, tune
    from hoc.rules import Ruleset

    if not 2 <= args.players <= 4:
        raise HocError(f"tune plays 2 to 4 players, got {args.players}")
    budget = Budget(args.games, args.minutes)
    ruleset = Ruleset(edition=args.edition, players=args.players, market=args.market)
    if args.opponents is not None:
        from hoc.agents.registry import split_names
        names = split_names(args.opponents)
        if len(set(names)) != len(names):
            raise HocError(f"--opponents names an agent twice: {', '.join(names)}")
    else:                           # every archetype the edition can play (1e lacks some cards)
        names = [a.name for a in archetypes() if _binds(a, ruleset)]
    settings = Settings(ruleset, tuple(get(n) for n in names), args.seed, args.princess,
                        load(args.start) if args.start else None, population=args.population)
    backend = _backend(args)
    try:
        result = tune(settings, budget, args.out, backend, args.validate_games, _tune_command(args))
    finally:
        backend.close()
    v = result.validation
    print(f"{result.out / 'best.toml'}: {result.state.generation} generations, {result.state.games:,} games; "
          f"validation on fresh seeds, {int(v.games.iat[0]):,} games per opponent (95% interval):")
    for r in v.itertuples():
        print(f"  {r.opponent:<22} {_pct(r.rate, r.lo, r.hi)}{'  beaten' if r.beats else ''}")
    print(f"beats {int(v.beats.sum())} of {len(v)} opponents; summary: {result.out / 'summary.md'}")
    return 0


def _tune_parser(sub) -> None:
    p = sub.add_parser("tune", help="search for a strong priority-list plan; writes an agent file")
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")
    p.add_argument("--players", type=int, default=2, help="2 to 4")
    p.add_argument("--market", default="random",
                   help="random (default: a plan for random markets), a preset name, or 10 comma-separated kinds")
    p.add_argument("--princess", help="the princess the plan must back first")
    p.add_argument("--opponents", help="agents to beat, comma-separated (default: every archetype and basic_rush "
                                       "that the edition can play); "
                                       "the search's own hall of fame always joins them")
    p.add_argument("--from", dest="start", metavar="FILE.toml", help="start from this plan (default: from nothing)")
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
    _game_options(p, 10_000)
    p.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
    p.add_argument("--validate", action="store_true", help="check the invariants after every step")
    p.add_argument("--plot", help="save a histogram of game length (PNG)")
    p.add_argument("--sp-curves", help="save mean SP per own turn by agent, over the first 200 games (PNG)")
    _run_options(p)
    p.set_defaults(func=cmd_simulate)
    p = sub.add_parser("tournament", help="round robin of agents: win-rate table with intervals, ratings")
    _game_options(p, None)
    p.set_defaults(agents="senator_duke,curse_witch,basic_rush", rotate_seats=True)
    p.add_argument("--games-per-pairing", type=int, default=2000, help="games per set of agents (default 2000)")
    p.add_argument("--sprt", metavar="P0,P1", help="2 players: stop a pairing once Wald's test decides "
                                                   "between win rates P0 and P1 of its first agent, e.g. 0.5,0.55")
    p.add_argument("--plot", help="save the win-rate table as a heatmap PNG")
    _run_options(p)
    p.set_defaults(func=cmd_tournament)
    p = sub.add_parser("princesses", help="win rate of each princess when backed, and how early")
    _game_options(p, None)
    p.add_argument("--games", type=int, default=12_000, help="games in all (default 12000)")
    p.add_argument("--plot", help="save the princess win rates as a bar chart PNG")
    _run_options(p)
    p.set_defaults(func=cmd_princesses)
    p = sub.add_parser("balance", help="effect of each common card (and of --override values) over random markets")
    _game_options(p, None)
    p.set_defaults(agents=None)
    p.add_argument("--games", type=int, default=20_000, help="games in all (default 20000)")
    p.add_argument("--plot", help="save the game-length histogram PNG")
    _run_options(p)
    p.set_defaults(func=cmd_balance)
    p = sub.add_parser("replay", help="print a turn-by-turn log of one game of a run")
    _game_options(p, None)
    p.set_defaults(**dict.fromkeys(GAME_OPTIONS))       # None: not given (--from takes the run's own)
    p.add_argument("--game", type=int, default=0, help="game index within the run (default 0)")
    p.add_argument("--from", dest="from_run", metavar="RUN.parquet",
                   help="replay game --game of a run saved with --out, with the options it recorded "
                        "(--agents only to name agent files the run's names do not find)")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("cards", help="every card's values and text (or the named cards')")
    p.add_argument("names", nargs="*", metavar="NAME", help="a card's id or English name, e.g. duke or 'Court Maid'")
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")
    p.add_argument("--json", action="store_true", help="the card data as JSON records")
    p.set_defaults(func=cmd_cards)
    p = sub.add_parser("agents", help="list the available agents")
    p.set_defaults(func=cmd_agents)
    _tune_parser(sub)
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
