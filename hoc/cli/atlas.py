"""`hoc atlas`: the strategy atlas of one market: every viable deck, found by quality-diversity search
(`hoc.research.atlas`)."""
from __future__ import annotations

import shlex
from pathlib import Path

from hoc.cli.options import backend_of, check_writable, edition_option, game_defaults, game_option, worker_options
from hoc.errors import HocError


def _command(args) -> str:
    """The options that determine the atlas, spelled out (defaults included)."""
    argv = ["--game", args.game_name, *(["--edition", args.edition] if args.edition != "2e" else []),
            "--players", str(args.players), "--market", args.market]
    for k in args.market_with or ():
        argv += ["--with", k]
    for o in args.override or ():
        argv += ["--override", o]
    if args.panel:
        argv += ["--panel", args.panel]
    if args.descriptors:
        argv += ["--descriptors", args.descriptors]
    argv += ["--iterations", str(args.iterations), "--emitters", str(args.emitters), "--optimizers",
             str(args.optimizers), "--batch", str(args.batch),
             "--seeds", str(args.seeds), "--resolution", str(args.resolution),
             "--polish", str(args.polish), "--polish-iterations", str(args.polish_iterations),
             "--remeasure-seeds", str(args.remeasure_seeds), "--seed", str(args.seed), "--out", args.out]
    return " ".join(shlex.quote(a) for a in argv)


def cmd_atlas(args) -> int:
    from hoc.agents.registry import get, split_names
    from hoc.games import get as game
    from hoc.research.atlas import atlas
    from hoc.research.atlas.search import Settings
    from hoc.agents.plan_space import space_of

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise HocError(f"--out {out}: exists and is not a folder")
    check_writable("--out", out, folder=True)
    spec = game(args.game_name)
    options = {**game_defaults(), **vars(args)}
    if args.turn_cap is None:
        options["turn_cap"] = game_defaults()["turn_cap"]
    ruleset = spec.ruleset_from(options, game_defaults())
    if args.market_with:
        import dataclasses

        ruleset = dataclasses.replace(ruleset, market_with=tuple(args.market_with))
        ruleset.vector              # a kind the random markets cannot offer: one line now
    if not 2 <= ruleset.players <= 4:
        raise HocError(f"--players must be 2 to 4 for the atlas, got {ruleset.players}")
    space = space_of(ruleset)
    panel = tuple(get(n) for n in split_names(args.panel or ",".join(space.panel())))
    for a in panel:
        a.params(ruleset)           # an agent of another game, or a card the rules lack: one line now
    descriptors = tuple(split_names(args.descriptors)) if args.descriptors else space.default_descriptors
    settings = Settings(space, panel, descriptors, seed=args.seed, iterations=args.iterations,
                        emitters=args.emitters, optimizers=args.optimizers, batch=args.batch, seeds=args.seeds, resolution=args.resolution,
                        remeasure_seeds=args.remeasure_seeds, polish=args.polish,
                        polish_iterations=args.polish_iterations)
    backend = backend_of(args)
    try:
        frame = atlas(settings, out, backend, _command(args), progress=lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        print(f"\ninterrupted: the checkpoint in {out} keeps every finished iteration; the same command goes on",
              flush=True)
        return 130
    best = frame.iloc[0]
    print(f"{len(frame)} elites, {int(frame['viable'].sum())} viable; the best, {best['plan']}: "
          f"{100 * best['fitness']:.1f}% [{100 * best['lo']:.1f}, {100 * best['hi']:.1f}] against the panel "
          f"on fresh seeds")
    print(f"written: {out / 'elites.parquet'}, {out / 'atlas.png'}, {out / 'summary.md'}, {out / 'plans'}/")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("atlas", help="every viable deck of a market, found by quality-diversity search (ribs)",
                       description="Quality-diversity search (CMA-ME with ribs) over the game's plans: a grid of two "
                                   "descriptors measured from each plan's games, each cell keeping the plan that "
                                   "wins most against the reference panel (common seeds, seats mirrored); then the "
                                   "best families are polished (swept and tuned by CMA-ES). Every elite is measured "
                                   "again on fresh seeds at the end. Rerun the same command to resume. The "
                                   "defaults take about 2 minutes on 2 cores (--jobs 2).")
    game_option(p)
    edition_option(p)
    p.add_argument("--players", type=int, default=2, help="2 to 4")
    p.add_argument("--market", default="random",
                   help="random (a fresh market every game, where the game's plans allow it), a preset name, "
                        "or the kinds of one market, comma-separated")
    p.add_argument("--with", dest="market_with", action="append", metavar="KIND",
                   help="random markets always offer this kind, the rest drawn (repeatable)")
    p.add_argument("--override", action="append", metavar="CARD.FIELD=VALUE",
                   help="change a card value for the search (repeatable)")
    p.add_argument("--turn-cap", type=int, default=None, help="turns per player before a capped draw (the game's own)")
    p.add_argument("--panel", help="the reference agents, comma-separated (default: the game's strongest fast plans)")
    p.add_argument("--descriptors", help="two measures, comma-separated: the game's own (a wrong name lists them; "
                                         "docs/atlas.md) or owns:KIND, the copies of a kind at the end "
                                         "(default: the game's two)")
    p.add_argument("--iterations", type=int, default=150, help="iterations of the search (default 150)")
    p.add_argument("--emitters", type=int, default=3, help="CMA-ME emitters (default 3)")
    p.add_argument("--optimizers", type=int, default=1,
                   help="of the emitters, how many climb the fitness alone; the others fill the archive (default 1)")
    p.add_argument("--batch", type=int, default=12, help="plans per emitter per iteration (default 12)")
    p.add_argument("--seeds", type=int, default=16,
                   help="seeds per panel member for each plan in the search, each in every seat (default 16)")
    p.add_argument("--resolution", type=int, default=10, help="cells per descriptor (default 10)")
    p.add_argument("--polish", type=int, default=11,
                   help="starts of the polish at most: the best elite, then the best owning each kind, each swept "
                        "and tuned by CMA-ES before the re-measurement (default 11; 0: no polish)")
    p.add_argument("--polish-iterations", type=int, default=40,
                   help="iterations of each polish start's CMA-ES, of --batch plans each (default 40)")
    p.add_argument("--remeasure-seeds", type=int, default=100,
                   help="fresh seeds per panel member for every elite at the end (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument("--out", required=True, help="folder for elites.parquet, plans/, atlas.png, summary.md and the "
                                                "checkpoint; rerun the same command to resume")
    worker_options(p)
    p.set_defaults(func=cmd_atlas)
