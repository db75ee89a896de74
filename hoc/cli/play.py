"""`hoc play`: a game at the terminal against agents, or hot seat with several people (the session
at the table is `hoc.cli.session`)."""
from __future__ import annotations

import sys
from pathlib import Path

from hoc.cli.options import check_writable, game_of, game_options, ruleset_of
from hoc.errors import HocError


def cmd_play(args) -> int:
    from rich.console import Console

    from hoc.cli.session import play, seats
    from hoc.research.harness import Plan

    if args.rotate_seats:
        raise HocError("hoc play plays one game: seats are as --agents names them (drop --rotate-seats)")
    if args.save is not None:           # refused now, not after a whole game
        if not Path(args.save).parent.is_dir():
            raise HocError(f"--save {args.save}: the folder {Path(args.save).parent} does not exist")
        check_writable("--save", Path(args.save), folder=False)
    dominion = game_of(args) == "dominion"
    names = "human,dom_big_money" if dominion and args.agents == "human,basic_rush" else args.agents
    agents = seats(names, args.players)
    args.players = len(agents)
    ruleset = ruleset_of(args)
    if dominion:
        from hoc.cli.dominion_play import play as play_dominion
        from hoc.engine.seeds import game_seeds

        if args.save is not None:
            raise HocError("--save keeps Heart of Crown games only so far")
        return play_dominion(ruleset, agents, int(game_seeds(args.seed, 0, 1)[0]))
    plan = Plan(ruleset, agents, 1, args.seed)
    width = min(Console().width, 100)
    console = Console(width=width, highlight=False, soft_wrap=False, file=sys.stdout)
    # a file name is asked for only from a person at a terminal: scripted input would be read as one
    play(plan, console, input, args.save, offer_save=sys.stdin.isatty())
    return 0


def add_parser(sub) -> None:
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
