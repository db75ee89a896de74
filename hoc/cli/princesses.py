"""`hoc princesses`: each princess's strength when backed by her best plan (the study and its report
are `hoc.games.heart_of_crown.studies.princess_study`'s)."""
from __future__ import annotations

import json

from hoc.cli.options import backend_of, check_games, game_of, game_options, run_options, study_start, write_plot
from hoc.errors import HocError


def cmd_princesses(args) -> int:
    from hoc.research import plots
    from hoc.games.heart_of_crown.studies import princess_study as ps

    from hoc.games import get

    spec = get(game_of(args))
    if "princesses" not in spec.studies:
        raise HocError(f"hoc princesses studies a game's princesses; {spec.title} has none "
                       f"(hoc tournament or hoc meta --game {spec.name} compare its agents)")
    ruleset = study_start(args)
    if args.agents is not None:
        raise HocError("hoc princesses plays each princess by her own plan: replace one with --plans PRINCESS=AGENT, "
                       "not --agents")
    if args.rotate_seats:
        raise HocError("hoc princesses draws each seat's princess at random in every game: --rotate-seats does not "
                       "apply")
    plans = ps.best_plans(ruleset, ps.parse_plans(args.plans, ruleset))
    check_games(args)
    if args.games_per_pair < 0:
        raise HocError(f"--games-per-pair must be 0 or more, got {args.games_per_pair}")
    backend = backend_of(args)
    try:
        result = ps.princess_strength(ruleset, plans, args.games, args.seed, backend, args.out, progress=True,
                                      games_per_pair=args.games_per_pair, mirror=args.mirror)
    finally:
        backend.close()
    if args.json:
        print(json.dumps(ps.as_json(result, args.seed)), flush=True)
    else:
        print("\n".join(ps.report(result, args.market, args.seed)), flush=True)
    if args.plot:
        write_plot("--plot", args.plot, lambda: plots.princess_bars(
            result.strength.rename(columns={"seats": "backed"}), args.plot, even=1 / ruleset.players,
            title=f"Win rate when backed by her best plan ({len(result.games):,} games, {ruleset.players} players)"))
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("princesses", help="each princess's win rate when backed by her best plan, princess "
                                          "against princess, and the market kinds that move her most",
                       description="Each princess's win rate when backed by her best plan, princess against "
                                   "princess, and the market kinds that move her most. Typical time on 2 cores: "
                                   "about 40 s at the defaults (40,000 games and 2,000 per pair of princesses, "
                                   "--jobs 2).")
    game_options(p, None)
    p.set_defaults(agents=None)
    p.add_argument("--games", type=int, default=40_000,
                   help="games with each seat's princess drawn at random (default 40000: each princess's win rate "
                        "within about ±1 point, 95%%, at 2 to 4 players, so a rerun on other seeds moves none by "
                        "more than that)")
    p.add_argument("--plans", action="append", metavar="PRINCESS=AGENT,...",
                   help="the agent playing a princess instead of her tuned plan for the table size: "
                        "tuned_PRINCESS_Np when the library has it, else tuned_PRINCESS_2p (under 1E first "
                        "tuned_PRINCESS_1e_Np, then tuned_PRINCESS_1e_2p), e.g. "
                        "twins=my_twins.toml (repeatable)")
    p.add_argument("--games-per-pair", type=int, default=2000,
                   help="2 players: mirrored games of each pair of princesses' plans for the matrix (default 2000; "
                        "0: none)")
    p.add_argument("--plot", help="save the princess win rates as a bar chart PNG")
    run_options(p)
    p.set_defaults(func=cmd_princesses)
