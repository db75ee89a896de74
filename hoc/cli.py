"""The `hoc` command line. Bad input prints one line naming the problem and exits with code 2."""
from __future__ import annotations

import argparse
import json
import sys

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
                   help="agent by seat, comma-separated; a single name fills every seat (see `hoc agents`)")
    p.add_argument("--market", default="random",
                   help="random (default), basic, a preset name, or 10 comma-separated common kinds")
    p.add_argument("--princesses", default=None, help="princess pool in order, e.g. lulunasaika,laolily")
    p.add_argument("--seed", type=int, default=0, help="master seed of the run (default 0)")
    p.add_argument("--rotate-seats", action="store_true", help="rotate the lineup game by game")
    p.add_argument("--override", action="append", metavar="CARD.FIELD=VALUE",
                   help="change a card value for this run, e.g. duke.cost=7 (repeatable)")
    p.add_argument("--turn-cap", type=int, default=100, help="turns per player before a capped draw")
    p.add_argument("--instant-win-at-30", action="store_true", help="30 SP wins at once outside overtime too")


def _run_options(p: argparse.ArgumentParser):
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", default="loky", help="loky (local processes, default) or dask")
    p.add_argument("--scheduler", help="Dask scheduler address for --backend dask, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--mirror", action="store_true",
                   help="mirrored games: each game seed is played once with every rotation of the seats")
    p.add_argument("--out", help="write one row per game to this Parquet folder (NAME.parquet); "
                                 "rerun the same command to resume an interrupted run")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")


def _backend(args):
    from hoc.harness import Backend

    return Backend(args.jobs, args.backend, args.scheduler)


def cmd_simulate(args) -> int:
    from hoc.harness import Plan, chunk_size
    from hoc.runs import execute
    from hoc.simulate import Summary, lineup, report

    ruleset = _ruleset(args)
    agents = lineup(args.agents, ruleset.players)
    backend = _backend(args)
    plan = Plan(ruleset, agents, args.games, args.seed, args.rotate_seats, args.mirror, args.validate,
                chunk=chunk_size(args.games))
    summary = Summary(ruleset, agents, plan.seed, plan.rotate)
    wall = execute(plan, backend, args.out, [summary.add])
    result = summary.result(wall)
    print(json.dumps(result) if args.json else report(result))
    return 0


def cmd_replay(args) -> int:
    from hoc.replay import replay
    from hoc.simulate import lineup

    ruleset = _ruleset(args)
    if args.game < 0:
        raise HocError(f"--game must be 0 or more, got {args.game}")
    print("\n".join(replay(ruleset, lineup(args.agents, ruleset.players), args.seed, args.game,
                           rotate=args.rotate_seats)))
    return 0


def cmd_cards(args) -> int:
    from hoc.cards import CardDB

    db = CardDB(args.edition)
    cols = ["id", "pile", "category", "types", "subtypes", "cost", "links", "coins", "sp", "copies",
            "effect", "implemented", "name_en", "name_ja"]
    df = db.frame[cols]
    if args.json:
        print(df.to_json(orient="records", force_ascii=False))
    else:
        import pandas as pd

        with pd.option_context("display.max_rows", None, "display.width", 200, "display.max_columns", None):
            print(df.drop(columns=["name_ja"]).to_string(index=False))
    return 0


def cmd_agents(args) -> int:
    from agents.registry import AGENTS

    width = max(len(n) for n in AGENTS)
    for name, agent in AGENTS.items():
        print(f"{name:<{width}}  {agent.description}")
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in the same single line as every other bad input."""

    def error(self, message):
        self.exit(2, f"hoc: error: {message} (see `{self.prog} --help`)\n")


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="hoc", description="Heart of Crown simulator")
    sub = top.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("simulate", help="play many games and summarise them")
    _game_options(p, 10_000)
    p.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
    p.add_argument("--validate", action="store_true", help="check the invariants after every step")
    _run_options(p)
    p.set_defaults(func=cmd_simulate)
    p = sub.add_parser("replay", help="print a turn-by-turn log of one game of a run")
    _game_options(p, None)
    p.add_argument("--game", type=int, default=0, help="game index within the run (default 0)")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("cards", help="list the card database")
    p.add_argument("--edition", default="2e")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_cards)
    p = sub.add_parser("agents", help="list the available agents")
    p.set_defaults(func=cmd_agents)
    return top


def main(argv: list[str] | None = None) -> int:
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


if __name__ == "__main__":
    sys.exit(main())
