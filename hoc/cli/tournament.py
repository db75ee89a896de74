"""`hoc tournament`: a round robin of agents, its win-rate table, ratings and sequential tests
(the study and its report are `hoc.research.studies`'s)."""
from __future__ import annotations

import json

from hoc.cli.options import backend_of, game_options, run_options, study_start, write_plot
from hoc.errors import HocError


def cmd_tournament(args) -> int:
    from hoc.research.simulate import resolve
    from hoc.research.studies import tournament, tournament_json, tournament_plot, tournament_report

    ruleset = study_start(args)
    agents = resolve(args.agents or _default_agents(ruleset))
    if args.games_per_pairing < 1:
        raise HocError(f"--games-per-pairing must be at least 1, got {args.games_per_pairing}")
    sprt = _sprt(args.sprt)
    backend = backend_of(args)
    try:
        t = tournament(ruleset, agents, args.games_per_pairing, args.seed, backend, args.out, args.mirror, sprt,
                       progress=True)
    finally:
        backend.close()
    if args.json:
        print(json.dumps(tournament_json(t, args.seed, ruleset.players)), flush=True)
    else:
        print("\n".join(tournament_report(t, ruleset.players, args.market, args.seed, args.mirror)), flush=True)
    if args.plot:
        write_plot("--plot", args.plot, lambda: tournament_plot(args.plot, ruleset.players, t))
    return 0


def _default_agents(ruleset) -> str:
    """Three plans of the default game's library, or the first three of another game's population."""
    from hoc.games import DEFAULT
    from hoc.research.meta import population

    if ruleset.game.name == DEFAULT:
        return DEFAULT_AGENTS
    return ",".join(a.name for a in population(ruleset)[:3])


DEFAULT_AGENTS = "senator_duke,curse_witch,basic_rush"


def _sprt(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        sprt = tuple(float(x) for x in text.split(","))
    except ValueError:
        sprt = ()
    if len(sprt) != 2 or not 0 < sprt[0] < sprt[1] < 1:
        raise HocError(f"--sprt takes P0,P1 with 0 < P0 < P1 < 1, got {text!r}")
    return sprt


def add_parser(sub) -> None:
    p = sub.add_parser("tournament", help="round robin of agents: win-rate table with intervals, ratings",
                       description="A round robin of agents: every pairing (every lineup at 3 or 4 players) plays "
                                   "the same game seeds; the win-rate table with 95% intervals, ratings and, with "
                                   "--sprt, sequential tests. Typical time on 2 cores: the defaults (3 plans, "
                                   "2,000 games per pairing, --jobs 1) took 41 s, measured on a machine shared "
                                   "with other work (load about 9); the time grows with the pairings times the "
                                   "games per pairing, and an agent that thinks ahead (NAME+plan, ismcts) plays "
                                   "far slower than a plain plan.")
    game_options(p, None)
    p.set_defaults(agents=None, rotate_seats=True)
    p.add_argument("--games-per-pairing", type=int, default=2000, help="games per set of agents (default 2000)")
    p.add_argument("--sprt", metavar="P0,P1", help="2 players: stop a pairing once Wald's test decides "
                                                   "between win rates P0 and P1 of its first agent, e.g. 0.5,0.55")
    p.add_argument("--plot", help="save the win-rate table as a heatmap PNG")
    run_options(p)
    p.set_defaults(func=cmd_tournament)
