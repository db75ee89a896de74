"""`hoc import-bots`: other simulators' bots (DominionSim XML, Dominiate strategies, pyminion bots) as
bot files of the game they play, with a coverage table of what was translated. The game's own side
(`GameSpec.commands`, function `import_bots`) reads and writes them; without --game, the one game
that has that side."""
from __future__ import annotations

from hoc.errors import HocError


def cmd_import_bots(args) -> int:
    from hoc.games import get, specs

    if args.game_name is None:
        able = [s.name for s in specs() if s.commands and hasattr(s.commands_module(), "import_bots")]
        if len(able) != 1:
            raise HocError(f"name the game with --game ({', '.join(able) or 'no game imports bots'})")
        args.game_name = able[0]
    from hoc.cli.options import game_command

    get(args.game_name)                 # an unknown game: one line naming the games
    return game_command(args, "import_bots")(args)


def add_parser(sub) -> None:
    p = sub.add_parser("import-bots", help="translate DominionSim, Dominiate or pyminion bots into bot files")
    p.add_argument("source", choices=("dominionsim", "dominiate", "pyminion"),
                   help="the bots' simulator: dominionsim (an XML file such as DomBots.xml), dominiate (a strategy "
                        ".coffee file or a folder of them), pyminion (a bot module .py or a folder of them)")
    p.add_argument("path", help="the file, or a folder of files")
    p.add_argument("--out", default="imported_bots", help="folder for the bot files (default: imported_bots)")
    p.add_argument("--prefix", default=None, help="file name prefix (default: domsim, dominiate or pyminion)")
    p.add_argument("--partial", action="store_true",
                   help="also write bots that name cards the game lacks or overflow what a bot holds (their rules "
                        "for those cards, or their last rules, left out)")
    p.add_argument("--commit", default=None, help="the source's commit, recorded in each file")
    p.add_argument("--game", dest="game_name", default=None, metavar="GAME",
                   help="the game the bots play (default: the one game that imports bots)")
    p.set_defaults(func=cmd_import_bots)
