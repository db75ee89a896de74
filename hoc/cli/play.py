"""`hoc play`: a game at the terminal against agents, or hot seat with several people (the session
at the table is `hoc.cli.session`)."""
from __future__ import annotations

from pathlib import Path

from hoc.cli.options import check_writable, game_command, game_of, game_options, ruleset_of
from hoc.errors import HocError

DEFAULT_SEATS = "human,basic_rush"     # a person against the default game's default agent


def cmd_play(args) -> int:
    from hoc.cli.session import seats
    from hoc.games import DEFAULT, get

    if args.rotate_seats:
        raise HocError("hoc play plays one game: seats are as --agents names them (drop --rotate-seats)")
    if args.save is not None:           # refused now, not after a whole game
        if not Path(args.save).parent.is_dir():
            raise HocError(f"--save {args.save}: the folder {Path(args.save).parent} does not exist")
        check_writable("--save", Path(args.save), folder=False)
    names = args.agents
    if names == DEFAULT_SEATS and game_of(args) != DEFAULT:     # the game's own default opponent
        names = f"human,{get(game_of(args)).default_agent}"
    agents = seats(names, args.players)
    args.players = len(agents)
    ruleset = ruleset_of(args)
    return game_command(args, "play")(args, ruleset, agents)


def add_parser(sub) -> None:
    p = sub.add_parser("play", help="play a game at the terminal against agents, or hot seat with several people",
                       description="Play game 0 of --seed at the terminal. --agents names one agent per seat "
                                   "(seat 0 plays first), `human` for a person: e.g. human,basic_rush; "
                                   "human,human is hot seat (default players: one per name). Type an action's "
                                   "number or label; ? CARD shows a card's text; save FILE; q quits.")
    game_options(p, None)
    p.set_defaults(agents=DEFAULT_SEATS, players=None)
    p.add_argument("--save", metavar="FILE.json",
                   help="save the game here at its end or on quitting, for `hoc replay FILE.json`")
    p.set_defaults(func=cmd_play)
