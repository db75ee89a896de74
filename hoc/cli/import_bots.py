"""`hoc import-bots`: other people's Dominion bots (DominionSim XML, Dominiate strategies, pyminion
bots) as hoc bot files, with a coverage table of what was translated."""
from __future__ import annotations


def cmd_import_bots(args) -> int:
    from hoc.games.dominion.agents.imports import import_bots, table

    result = import_bots(args.source, args.path, args.out, prefix=args.prefix, partial=args.partial,
                         commit=args.commit or "")
    print(table(result))
    print(f"{len(result.written)} bot files written to {args.out} (play one with its path, e.g. "
          f"hoc simulate --game dominion --agents {result.written[0] if result.written else 'FILE.toml'},dom_big_money)")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("import-bots", help="translate DominionSim, Dominiate or pyminion bots into Dominion bot files")
    p.add_argument("source", choices=("dominionsim", "dominiate", "pyminion"),
                   help="the bots' simulator: dominionsim (an XML file such as DomBots.xml), dominiate (a strategy "
                        ".coffee file or a folder of them), pyminion (a bot module .py or a folder of them)")
    p.add_argument("path", help="the file, or a folder of files")
    p.add_argument("--out", default="imported_bots", help="folder for the bot files (default: imported_bots)")
    p.add_argument("--prefix", default=None, help="file name prefix (default: domsim, dominiate or pyminion)")
    p.add_argument("--partial", action="store_true",
                   help="also write bots that name cards hoc lacks or overflow what a bot holds (their rules for "
                        "those cards, or their last rules, left out)")
    p.add_argument("--commit", default=None, help="the source's commit, recorded in each file")
    p.set_defaults(func=cmd_import_bots)
