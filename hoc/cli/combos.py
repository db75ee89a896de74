"""`hoc combos`: which pairs of kinds are stronger together than apart, and which blunt or counter
each other (`hoc.research.combos`)."""
from __future__ import annotations

import argparse
import json
import shlex
import signal
from pathlib import Path

from hoc.cli.options import backend_of, check_writable, edition_option, game_defaults, game_option, worker_options
from hoc.errors import HocError
from hoc.research.combos.design import ACROSS_TARGETS, KNOCKOUTS, LEFT_OUT, MEASURES

BUDGET = ("iterations", "batch", "seeds", "pick", "pick_seeds", "measure_seeds", "confirm", "replicates", "waves")


def _command(args, kinds, copies: float) -> str:
    """The command that reproduces the screen (`copies`: what `--copies` defaults to for it)."""
    argv = ["--game", args.game_name, *(["--edition", args.edition] if args.edition != "2e" else []),
            "--players", str(args.players)]
    if args.kinds:
        argv += ["--kinds", ",".join(kinds)]
    for o in args.override or ():
        argv += ["--override", o]
    if args.yardstick:
        argv += ["--yardstick", args.yardstick]
    for name in BUDGET:
        argv += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    argv += ["--context", args.context, "--measure", args.measure]
    if args.measure == "combined":           # always: the default depends on --context
        argv += ["--across", args.across]
    if args.copies != LEFT_OUT["copies"] or args.copies != copies:     # not left to the game's default
        argv += ["--copies", f"{args.copies:g}"]
    if args.measure != "offered":            # always: the default was idle before it was repaired
        argv += ["--knockouts", args.knockouts]
    argv += ["--planner" if args.planner else "--no-planner",
             "--fdr", str(args.fdr), "--seed", str(args.seed), *(["--shuffle-labels"] if args.shuffle_labels else []),
             "--out", args.out]
    return " ".join(shlex.quote(a) for a in argv)


def cmd_combos(args) -> int:
    from hoc.agents.registry import split_names
    from hoc.games import get as game
    from hoc.research.combos import report, screen
    from hoc.research.combos.design import BASIC, SCREEN, Settings, copies_for

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise HocError(f"--out {out}: exists and is not a folder")
    check_writable("--out", out, folder=True)
    spec = game(args.game_name)
    if not spec.atlas:
        raise HocError(f"{spec.title} has no plan space to search decks in (its GameSpec names no atlas)")
    options = {**game_defaults(), **vars(args), "market": "random"}
    if args.turn_cap is None:
        options["turn_cap"] = game_defaults()["turn_cap"]
    ruleset = spec.ruleset_from(options, game_defaults())
    if not 2 <= ruleset.players <= 4:
        raise HocError(f"--players must be 2 to 4 for hoc combos, got {ruleset.players}")
    kinds = split_names(args.kinds) if args.kinds else None
    settings = Settings.of(ruleset, kinds, yardstick=args.yardstick or "", seed=args.seed, fdr=args.fdr,
                           context=args.context, measure=args.measure, across=args.across, planner=args.planner,
                           copies=args.copies, knockouts=args.knockouts, shuffle=args.shuffle_labels,
                           **{n: getattr(args, n) for n in BUDGET})
    for name in (*BUDGET, "across", "planner", "copies", "knockouts"):     # the defaults resolved, for the
        setattr(args, name, getattr(settings, name))                        # command written down
    if args.yardstick and args.yardstick != BASIC:
        _check_yardstick(settings)
    if args.planner:                            # a game without a planner: one line now
        from hoc.agents.plan_space import space_of

        space_of(settings.ruleset(settings.market(SCREEN, *settings.pairs()[0], 0))).thinking()
    backend = backend_of(args)
    command = _command(args, settings.kinds, copies_for(ruleset.game, settings.measure))
    progress = (lambda line: None) if args.json else (lambda line: print(line, flush=True))
    stopped = signal.signal(signal.SIGTERM, _interrupt)   # a cluster's scheduler ends a job so: stop as on Ctrl-C
    try:
        rows = screen.run(settings, out, backend, progress)
    except KeyboardInterrupt:
        print(f"\ninterrupted: {out / screen.RUNS} keeps every finished run; the same command goes on", flush=True)
        return 130
    finally:
        signal.signal(signal.SIGTERM, stopped)
    frame = report.write(settings, rows, out, command)
    if args.json:
        print(json.dumps(report.as_json(settings, frame, command)))
        return 0
    t = report.tables(frame)
    for key, title in (("combos", "combos"), ("blunt", "weaker together"), ("across", "across seats"))[
            :2 if settings.measure == "built" else 3]:          # built measures no across-seat figure
        confirmed = t[key][t[key]["confirmed"]]
        names = ", ".join(f"{r.a}+{r.b} {100 * r.estimate:+.1f} [{100 * r.lo:+.1f}, {100 * r.hi:+.1f}]"
                          for r in confirmed.itertuples()) or "none"
        print(f"confirmed {title}: {names}")
    print(f"written: {out / 'summary.md'}, {out / 'pairs.parquet'}, {out / 'combos.png'}")
    return 0


def _interrupt(signum, frame):
    """SIGTERM as Ctrl-C: the session records its time (`sessions.jsonl`) and says how to go on."""
    raise KeyboardInterrupt


def _check_yardstick(settings) -> None:
    from hoc.agents.registry import get

    get(settings.yardstick).params(settings.ruleset())     # unknown, or another game's: one line now


def add_parser(sub) -> None:
    p = sub.add_parser("combos", help="pairs of kinds stronger (or weaker) together: a screen, then a confirmation",
                       description="For every pair of kinds A, B: four decks searched (CMA-ES over the game's plan "
                                   "space) in a market of A, B and eight random kinds, one that may use both, A only, "
                                   "B only and neither, measured against a yardstick on common seeds; the same-seat "
                                   "interaction v(A,B) - v(A) - v(B) + v(neither), and A's deck against B's across "
                                   "seats (by default, --measure combined, the same seat is read as --measure built: one "
                                   "deck built on the pair and its knock-outs, on the log-odds scale, what the kinds add "
                                   "to each other). "
                                   "The top pairs are run again in fresh markets with fresh searches (the next "
                                   "ones too, in a second wave, unless a table's first wave confirmed clearly under half), and "
                                   "confirmed with the false-discovery rate controlled (Benjamini-Hochberg over the pairs followed up), "
                                   "each read against the screen's typical pair (the median of its pairs' figures). "
                                   "Rerun the same command to resume. About 4 to 20 s of one core per run of a pair "
                                   "(docs/combos.md): measured over all 465 pairs (31 kinds) on 2 cores (--jobs 2), the "
                                   "defaults took 288 minutes of one core's time (153 minutes of wall time: 114 for the "
                                   "screen and the first wave of follow-ups, 39 for the second), "
                                   "--measure built 54 minutes and --measure offered 67 minutes of wall time.")
    game_option(p)
    edition_option(p)
    p.add_argument("--players", type=int, default=2, help="2 to 4")
    p.add_argument("--kinds", help="the kinds whose pairs are screened, comma-separated (default: every kind)")
    p.add_argument("--override", action="append", metavar="CARD.FIELD=VALUE", help="change a card value (repeatable)")
    p.add_argument("--turn-cap", type=int, default=None, help="turns per player before a capped draw (the game's own)")
    p.add_argument("--yardstick", help="the reference agent the searches play (default: the atlas's first panel agent; "
                                       "under --measure built, basic: the plan space's best guess on the basic "
                                       "supply alone, which is also a name to give)")
    p.add_argument("--context", default="pair", choices=("pair", "market"),
                   help="what the decks may use: the pair and the basic supply (pair, default: the pair's own "
                        "strength), or every kind of the market the condition does not bar (market: what the pair "
                        "adds to the market's best deck)")
    p.add_argument("--measure", default="combined", choices=MEASURES,
                   help="offered: each condition's deck the strongest that may use its kinds, what offering the "
                        "pair adds (0 when no strong deck builds on it); built: one deck built on the pair (owning "
                        "a copy of each) and its knock-outs against the deck without them, on the log-odds scale: "
                        "what the kinds add to each other, as players' combo guides mean it (no across-seat "
                        "figure); combined (default): the same seat as built, across seats on the decks --across names")
    p.add_argument("--across", default=None, choices=ACROSS_TARGETS,
                   help="under --measure combined, the decks the across-seat figure answers: decks built on each "
                        "kind, owning a copy, each searched once for all its pairs and read against the baseline "
                        "deck on the log-odds scale (built, the default with --context pair: a counter to a kind no "
                        "strong deck uses, as players' guides name them), or the strongest decks that may use each "
                        "kind (offered, the default with --context market: 0 where no strong deck uses it)")
    p.add_argument("--copies", type=float, default=None,
                   help="copies of each kind a deck built on the pair (and, across seats, on one kind) owns at the "
                        "end, on average (default: the game's own, the least at which its combos show: 1 in a "
                        "market that shows a few cards at a time, 3 with full supply piles; 1 under --measure "
                        "offered). More asks how the kinds work in a deck committed to them: the strongest deck "
                        "owning one of each is often the stronger kind's deck with a token copy of the other, where "
                        "an engine's parts (cards giving actions and the terminals they let play) cannot show what "
                        "they add; committed decks are weaker, so their figures are not the market's best decks' "
                        "(docs/combos.md)")
    p.add_argument("--knockouts", default=None, choices=KNOCKOUTS,
                   help="the deck built on the pair without B, without A and without either: the deck and its "
                        "knock-outs each swept card by card, filling the hole each barred kind leaves (repaired, the "
                        "default with --copies above 1: a plan committed to a pair leaves to it what a deck without "
                        "it needs, such as the dearest Treasure, and a knock-out that never wins puts the log-odds "
                        "prediction out of reach), or the plan with the barred kinds' rules idle (idle, the default "
                        "at one copy, where the sweeps add only their own noise); not under --measure offered")
    p.add_argument("--planner", action=argparse.BooleanOptionalAction, default=None,
                   help="the decks play their Main phase and card questions by the game's turn planner, one "
                        "determinization each (a mode, an optional cost, a card to lose weighed by looking ahead, "
                        "not answered by a list's fixed defaults; docs/combos.md); default: on where the game "
                        "has one, refused for a game without one")
    p.add_argument("--iterations", type=int, default=12, help="CMA-ES iterations per search (default 12)")
    p.add_argument("--batch", type=int, default=10, help="plans per start per iteration, two starts (default 10)")
    p.add_argument("--seeds", type=int, default=12, help="seeds per plan in a search, each in every seat (default 12)")
    p.add_argument("--pick", type=int, default=5, help="a search's best plans measured again (default 5)")
    p.add_argument("--pick-seeds", type=int, default=48, help="seeds for that measurement (default 48)")
    p.add_argument("--measure-seeds", type=int, default=None,
                   help="fresh seeds for the four decks and the matchups (default 1600; 200 under --measure "
                        "offered): where a deck is built on the pair, 200 seeds' noise was most of the spread "
                        "of a pair's replicates")
    p.add_argument("--confirm", type=int, default=None,
                   help="pairs followed up per table: combos, weaker together, across seats (default one in ten "
                        "of the pairs screened, at least 6, and a third of a small screen's up to 15: 46 of 465, 15 "
                        "of 45, 7 of 21); a folder resumed with more follows up more pairs and plays none of its "
                        "runs again")
    p.add_argument("--replicates", type=int, default=None,
                   help="fresh markets per pair followed up (default 8; 16 with repaired knock-outs, which take "
                        "their own paths in each market; 4 under --measure offered, whose decks vary less from "
                        "market to market); a folder resumed with more adds replicates")
    p.add_argument("--waves", type=int, default=None,
                   help="follow-up waves at most (default 2): a table's next --confirm pairs are followed up where "
                        "its last wave did not show the ranking ran dry at the cut (under half of it confirmed, "
                        "the whole 95%% interval); "
                        "--waves 1 follows up the first --confirm only, as folders made before waves did; a folder "
                        "resumed with more plays the new waves only")
    p.add_argument("--fdr", type=float, default=0.10, help="false-discovery rate among the confirmed pairs (default 0.1)")
    p.add_argument("--seed", type=int, default=0, help="seed of the screen (default 0)")
    p.add_argument("--shuffle-labels", action="store_true",
                   help="null check: each run plays a random pair of the kinds, not the one it is labelled")
    p.add_argument("--json", action="store_true", help="print one JSON object: pairs and across, each a list of "
                                                       "{a, b, estimate, lo, hi, confirmed}")
    p.add_argument("--out", required=True, help="folder for runs.jsonl, pairs.parquet, summary.md, combos.png, plans/; "
                                                "rerun the same command to resume")
    worker_options(p)
    p.set_defaults(func=cmd_combos)
