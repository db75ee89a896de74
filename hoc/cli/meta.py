"""`hoc meta`: the meta-game of a population of plans, its Nash equilibrium and alpha-Rank (the study
and its report are `hoc.research.meta`'s)."""
from __future__ import annotations

import json
import shlex
from pathlib import Path

from hoc.cli.options import (
    backend_of, check_outputs, check_writable, edition_option, game_of, game_option, worker_options, write_plot,
)
from hoc.errors import HocError
from hoc.games import DEFAULT


def _meta_command(args) -> str:
    """The command that reproduces the run, every option that decides it spelled out."""
    if args.matrix:
        argv = ["--matrix", args.matrix] + (["--agents", args.agents] if args.agents else [])
    else:
        game = ["--game", game_of(args)] if game_of(args) != DEFAULT else ["--edition", args.edition]
        argv = [*game, "--players", str(args.players), "--market", args.market,
                "--agents", args.agents or ",".join(a.name for a in _meta_population(args)),
                "--games-per-pairing", str(args.games_per_pairing), "--seed", str(args.seed)]
    if args.alpha is not None:
        argv += ["--alpha", f"{args.alpha:g}"]
    return shlex.join(["hoc", "meta", *argv, "--bootstrap", str(args.bootstrap)])


def _meta_population(args):
    """The agents given, or every hand-written and tuned plan this edition can play."""
    from hoc.research.meta import population
    from hoc.research.simulate import resolve

    if args.agents is not None:
        return resolve(args.agents)
    return population(_ruleset(args))


def _ruleset(args):
    """The ruleset of the meta-game's options, read by the game (every other game option at its default)."""
    from hoc.cli.options import game_defaults
    from hoc.games import get

    defaults = game_defaults()
    given = {"edition": args.edition, "players": args.players, "market": args.market}
    return get(game_of(args)).ruleset_from({**defaults, **given}, defaults)


def cmd_meta(args) -> int:
    from hoc.research import meta

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
        ruleset = _ruleset(args)
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


def add_parser(sub) -> None:
    p = sub.add_parser("meta", help="the meta-game of a population of plans: Nash equilibrium and α-Rank",
                       description="The meta-game of a population of plans: every lineup plays the same mirrored "
                                   "seeds; the head-to-head matrix, Nash equilibrium (2 players) and α-Rank, with "
                                   "a bootstrap. Typical time on 2 cores: about 17 minutes at the defaults (the "
                                   "26 plans of the 2E library, 325 lineups, 400 games per pairing, --jobs 1), "
                                   "scaled from a tenth-size run (--games-per-pairing 40: 156 s, about 95 s of it "
                                   "playing, on a machine shared with other work, load about 7); the first run "
                                   "also compiles the turn planner's engine (minutes: the notice says how long it "
                                   "took last).")
    p.add_argument("--agents", help="the population, comma-separated (default: every hand-written and tuned plan "
                                    "the edition can play)")
    game_option(p)
    edition_option(p)
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
    worker_options(p)
    p.set_defaults(func=cmd_meta)
