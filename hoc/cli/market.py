"""`hoc market`: one supply end to end (`hoc.research.market`), and the random baseline its figures
are placed against (`--baseline N`)."""
from __future__ import annotations

import json
import shlex
import tempfile
from pathlib import Path

from hoc.cli.options import backend_of, check_writable, edition_option, game_of, game_option, worker_options
from hoc.errors import HocError

MEASURED = ("The default budget takes about 1 minute a supply with --jobs 2 on a 2-core machine (measured: "
            "0.7 to 1.3 min in either game's baseline; docs/market.md).")


def _budget(args):
    from hoc.research.market import Budget

    return Budget(iterations=args.iterations, remeasure_seeds=args.remeasure_seeds, polish=args.polish,
                  polish_iterations=args.polish_iterations, top=args.top,
                  pair_seeds=args.pair_seeds, select_seeds=args.select_seeds, princess_seeds=args.princess_seeds,
                  seed=args.seed)


def _command(args, supply: str) -> str:
    argv = ["--game", args.game_name, *(["--edition", args.edition] if args.edition != "2e" else []),
            "--players", str(args.players), supply, "--seed", str(args.seed)]
    for flag, value, default in (("--iterations", args.iterations, 100), ("--remeasure-seeds", args.remeasure_seeds, 100),
                                 ("--polish", args.polish, 11), ("--polish-iterations", args.polish_iterations, 40),
                                 ("--top", args.top, 4), ("--pair-seeds", args.pair_seeds, 300),
                                 ("--select-seeds", args.select_seeds, 40),
                                 ("--princess-seeds", args.princess_seeds, 200)):
        if value != default:
            argv += [flag, str(value)]
    return " ".join(shlex.quote(a) for a in argv)


def cmd_market(args) -> int:
    from hoc.research import market as mk
    from hoc.research.market import baseline as bl
    from hoc.research.market import report as rp

    game = game_of(args)
    budget = _budget(args)
    if args.baseline is not None:
        if args.supply is not None:
            raise HocError("--baseline measures random supplies: give no supply with it")
        if args.baseline < 1:
            raise HocError(f"--baseline must be at least 1, got {args.baseline}")
        mk.ruleset_of(game, mk.random_supply(game, 0, args.players, args.edition), args.players, args.edition)
        backend = backend_of(args)
        try:
            rows = bl.extend(args.baseline_dir, game, args.players, args.baseline, budget, backend, args.edition,
                             progress=lambda line: print(line, flush=True))
        finally:
            backend.close()
        print(f"{len(rows)} random supplies in {bl.path_of(args.baseline_dir, game, args.players)}")
        return 0
    if args.supply is None:
        raise HocError("name a supply: ten kinds comma-separated, a preset, or `random --seed S` (or --baseline N)")
    if args.supply == "random":
        supply = mk.random_supply(game, args.seed, args.players, args.edition)
        label = f"random --seed {args.seed} ({', '.join(supply)})"
        given = "random"
    else:
        supply, label, given = args.supply, args.supply, args.supply
    ruleset = mk.ruleset_of(game, supply, args.players, args.edition)
    out = Path(args.out) if args.out else None
    if out is not None:
        if out.exists() and not out.is_dir():
            raise HocError(f"--out {out}: exists and is not a folder")
        check_writable("--out", out, folder=True)
    if args.plot is not None:
        if Path(args.plot).suffix != ".png" or not Path(args.plot).stem:
            raise HocError(f"--plot must name a .png file, got {args.plot!r}")
        check_writable("--plot", Path(args.plot), folder=False)
    base = bl.load(args.baseline_dir, game, ruleset.players, budget)
    command = _command(args, given) + (f" --out {shlex.quote(args.out)}" if args.out else "")
    backend = backend_of(args)
    quiet = args.json
    try:
        with tempfile.TemporaryDirectory(prefix="hoc_market_") as tmp:
            work = out or Path(tmp)
            report = mk.market(ruleset, budget, work, backend, command,
                               progress=(lambda line: None) if quiet else (lambda line: print(line, flush=True)),
                               baseline=base, label=label)
    except KeyboardInterrupt:
        print(f"\ninterrupted{': the atlas checkpoint in ' + str(out / 'atlas') + ' keeps every finished iteration; the same command goes on' if out else ''}",
              flush=True)
        return 130
    finally:
        backend.close()
    report = rp.finite(report)
    text = rp.markdown(report)
    if out is not None:
        (out / "market.md").write_text(text, encoding="utf-8")
        (out / "market.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
        rp.plot(report, out / "market.png")
    if args.plot:
        rp.plot(report, args.plot)
    print(json.dumps(report) if args.json else text, flush=True)
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("market", help="one supply end to end: its decks, dominance, princesses, first seat, length, "
                                      "and each figure's percentile among random supplies",
                       description="One supply of the game end to end: its strategy atlas (every elite measured "
                                   "again on fresh seeds), the best distinct decks in a round robin (common seeds, "
                                   "seats mirrored), how many decks are viable and whether one dominates, each "
                                   "princess's strength by her best plan there (a game with princesses), the first seat's "
                                   "edge and the game's length, the kinds the viable decks own and those nobody "
                                   "buys, each figure placed among random supplies (the baseline: --baseline N "
                                   "measures it once, resumably). " + MEASURED)
    p.add_argument("supply", nargs="?",
                   help="ten kinds comma-separated, a preset of the game's (e.g. first_game), or random (drawn by "
                        "--seed)")
    game_option(p)
    edition_option(p)
    p.add_argument("--players", type=int, default=2, help="2 to 4")
    p.add_argument("--seed", type=int, default=0, help="seed of the searches and games (with random: of the supply too)")
    p.add_argument("--iterations", type=int, default=100, help="iterations of the supply's atlas (default 100)")
    p.add_argument("--remeasure-seeds", type=int, default=100,
                   help="fresh seeds per panel member for every elite of the atlas (default 100)")
    p.add_argument("--polish", type=int, default=11,
                   help="starts of the atlas's polish at most: its best families tuned further (default 11; 0: none)")
    p.add_argument("--polish-iterations", type=int, default=40,
                   help="iterations of each polish start's CMA-ES (default 40)")
    p.add_argument("--top", type=int, default=4, help="distinct decks in the round robin (default 4)")
    p.add_argument("--pair-seeds", type=int, default=300,
                   help="common seeds per ordered pair of the round robin, each in every seat (default 300)")
    p.add_argument("--select-seeds", type=int, default=40,
                   help="a game with princesses: seeds per candidate plan when each princess's best plan is chosen (default 40)")
    p.add_argument("--princess-seeds", type=int, default=200,
                   help="a game with princesses: fresh seeds per panel member for each princess's chosen plan (default 200)")
    p.add_argument("--out", help="folder for market.md, market.json, market.png and the atlas (rerun the same "
                                 "command to resume the atlas)")
    p.add_argument("--plot", help="save the report's figure as a PNG")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--baseline", type=int, metavar="N",
                   help="measure random supplies seed 0 to N-1 that the baseline lacks (resumable), instead of a report")
    p.add_argument("--baseline-dir", default=str(Path("results") / "market_baseline"),
                   help="the baselines' folder (default results/market_baseline: <game>/<players>p.jsonl)")
    worker_options(p)
    p.set_defaults(func=cmd_market)
