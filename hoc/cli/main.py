"""The `hoc` command line: the parser of every command and the dispatch to it. Each command is a
module of its own (`hoc.cli.simulate`, `hoc.cli.tournament`, ...) that adds its parser and runs it;
the options several share are `hoc.cli.options`. Bad input prints one line naming the problem and
exits with code 2, before any game is played; Ctrl-C prints one line saying what was saved and exits
with code 130."""
from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from hoc.cli import (agents, atlas, balance, cards, combos, import_bots, learn, market, meta, play, princesses, replay,
                     serve, simulate, tournament, tune)
from hoc.errors import HocError, InvariantError

COMMANDS = (simulate, tournament, princesses, balance, atlas, market, combos, replay, play, serve, cards, agents, tune,
            learn, meta, import_bots)   # in --help order


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in the same single line as every other bad input."""

    def error(self, message):
        self.exit(2, f"hoc: error: {message} (see `{self.prog} --help`)\n")


def parser() -> argparse.ArgumentParser:
    from hoc import __version__
    from hoc.games import specs

    top = _Parser(prog="hoc", description=f"{' and '.join(spec.title for spec in specs())} simulator")
    top.add_argument("--version", action="version", version=f"hoc {__version__}")
    sub = top.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in COMMANDS:
        command.add_parser(sub)
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
        from hoc.cli.options import use_agents_dirs

        use_agents_dirs(args)
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
