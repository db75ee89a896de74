"""`hoc simulate`: play many games and summarise them (win rates by seat, end reasons, length)."""
from __future__ import annotations

import json

from hoc.cli.options import agents_of, backend_of, check_outputs, game_options, ruleset_of, run_options, write_plot


def cmd_simulate(args) -> int:
    from hoc.research.harness import Plan, chunk_size
    from hoc.research.runs import LengthTally
    from hoc.research.simulate import lineup, report, summarise

    check_outputs(args)
    ruleset = ruleset_of(args)
    if args.sp_curves and "sp_curves" not in ruleset.game.studies:
        from hoc.errors import HocError

        raise HocError("--sp-curves draws the score curves of a game's succession points; not available for "
                       f"{ruleset.game.title} yet")
    agents = lineup(agents_of(args), ruleset.players)
    plan = Plan(ruleset, agents, args.games, args.seed, args.rotate_seats, args.mirror, args.validate,
                chunk=chunk_size(args.games), shuffle=args.shuffle_seats)
    backend = backend_of(args)
    lengths = LengthTally()           # counts per length and end reason: flat memory however many games
    try:
        result = summarise(plan, backend, args.out, [lengths.add] if args.plot else []).summary
    finally:
        backend.close()
    curves = _sp_curves(plan, result) if args.sp_curves else None    # its compile counted in the summary
    print(json.dumps(result) if args.json else report(result), flush=True)
    if args.plot:
        from hoc.research import plots

        write_plot("--plot", args.plot, lambda: plots.length_histogram(
            lengths.frame(), args.plot, title=f"Game length ({plan.games:,} games)", count="games"))
    if args.sp_curves:
        from hoc.research import plots

        write_plot("--sp-curves", args.sp_curves, lambda: plots.sp_curves(
            curves, args.sp_curves, title=f"Succession points by own turn (first {min(200, plan.games)} games)"))
    return 0


def _sp_curves(plan, result: dict):
    """The SP curves of the first 200 games, replayed step by step (`Game`): that interface's compile
    announced once and added to the summary's compile (or load) time and wall time."""
    import time

    from hoc.games.heart_of_crown.studies.curves import sp_by_turn
    from hoc.research.engine import prepare

    warm = prepare(plan, stepped=True)
    t = time.perf_counter()
    curves = sp_by_turn(plan, 200)
    result["compile_seconds"] += warm.compile_seconds
    result["load_seconds"] += warm.load_seconds
    result["wall_seconds"] += warm.seconds + time.perf_counter() - t
    return curves


def add_parser(sub) -> None:
    p = sub.add_parser("simulate", help="play many games and summarise them")
    game_options(p, 10_000)
    p.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
    p.add_argument("--validate", action="store_true", help="check the invariants after every step")
    p.add_argument("--plot", help="save a histogram of game length (PNG)")
    p.add_argument("--sp-curves", help="save mean SP per own turn by agent, over the first 200 games (PNG)")
    run_options(p)
    p.set_defaults(func=cmd_simulate)
