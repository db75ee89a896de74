"""`hoc replay`: the turn-by-turn log of one game of a run, of a saved run or of a saved game."""
from __future__ import annotations

from hoc.cli.options import agents_of, game_defaults, game_options, ruleset_of
from hoc.errors import HocError


def cmd_replay(args) -> int:
    from hoc.research.replays import replay, replay_run
    from hoc.research.simulate import lineup

    _game_or_index(args)
    if not 0 <= args.game < 2 ** 63:
        raise HocError(f"--game must be 0 to 2**63 - 1, got {args.game}")
    defaults = game_defaults()
    given = [f"--{k.replace('_', '-')}" for k in defaults if getattr(args, k, None) is not None and k != "agents"]
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
    for k, v in defaults.items():
        if getattr(args, k, None) is None and k != "agents":
            setattr(args, k, v)
    ruleset = ruleset_of(args)
    print("\n".join(replay(ruleset, lineup(agents_of(args), ruleset.players), args.seed, args.game,
                           rotate=args.rotate_seats)))
    return 0


def _game_or_index(args) -> None:
    """--game N is the game index (as it always was); --game NAME names the game to replay (then
    --index N is the game index)."""
    text = str(args.game).strip()
    try:
        args.game = int(text)
    except ValueError:
        from hoc.games import get

        args.game_name = get(text).name
        args.game = 0
    if args.index is not None:
        args.game = args.index


def add_parser(sub) -> None:
    p = sub.add_parser("replay", help="print a turn-by-turn log of one game of a run")
    game_options(p, None, choose_game=False)
    p.set_defaults(**dict.fromkeys(game_defaults()))    # None: not given (--from takes the run's own)
    p.add_argument("file", nargs="?", metavar="FILE.json", help="a game saved by `hoc play` (its own rules and seats)")
    from hoc.games import names

    p.add_argument("--game", default="0", help="game index within the run (default 0); or the game, "
                                                  f"{' or '.join(names())}, with --index N")
    p.add_argument("--index", type=int, default=None, help="game index within the run (with --game NAME)")
    p.add_argument("--from", dest="from_run", metavar="RUN.parquet",
                   help="replay game --game of a run saved with --out, with the options it recorded "
                        "(--agents only to name agent files the run's names do not find)")
    p.set_defaults(func=cmd_replay)
