"""`hoc learn`: train a policy and value network by imitation and PPO self-play (needs the `learn`
extra: pip install -e ".[learn]"); the run is `hoc.agents.learn.train`, its report
`hoc.research.learning`."""
from __future__ import annotations

import shlex
from pathlib import Path

from hoc.cli.options import edition_option
from hoc.errors import HocError


def _command(args) -> str:
    """The options that determine the weights, spelled out (defaults included)."""
    argv = ["--players", str(args.players), "--market", args.market, "--edition", args.edition]
    if args.opponents:
        argv += ["--opponents", args.opponents]
    if args.teacher:
        argv += ["--teacher", args.teacher]
    argv += ["--imitation-games", str(args.imitation_games), "--hidden", args.hidden,
             "--envs", str(args.envs), "--updates", str(args.updates), "--eval-games", str(args.eval_games)]
    argv += ["--steps", str(args.steps)] if args.steps is not None else ["--minutes", f"{args.minutes:g}"]
    argv += ["--seed", str(args.seed), "--jobs", str(args.jobs), "--out", args.out]
    return " ".join(shlex.quote(a) for a in argv)


def _hidden(text: str) -> tuple[int, int]:
    try:
        h = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise HocError(f"--hidden must be two sizes such as 64,64, not {text!r}") from None
    if len(h) != 2:
        raise HocError(f"--hidden must be two sizes such as 64,64, not {text!r}")
    return h


def cmd_learn(args) -> int:
    try:
        import torch  # noqa: F401
    except ImportError:
        raise HocError('hoc learn needs the learn extra (torch, CPU): pip install -e ".[learn]"') from None
    from hoc.agents.learn.train import Budget, Options, Run
    from hoc.agents.registry import split_names

    if args.jobs < 1:
        raise HocError(f"--jobs must be at least 1, got {args.jobs}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise HocError(f"--out {out}: exists and is not a folder")
    budget = Budget(args.steps, args.minutes)
    options = Options(players=args.players, market=args.market, edition=args.edition,
                      opponents=tuple(split_names(args.opponents)) if args.opponents else (),
                      teacher=args.teacher, imitation_games=args.imitation_games, hidden=_hidden(args.hidden),
                      envs=args.envs, updates=args.updates, eval_games=args.eval_games, seed=args.seed,
                      selves=not args.no_selves)
    run = Run(options, out, jobs=args.jobs, command=_command(args))
    progress = run.go(budget, progress_bar=not args.quiet)
    print(f"{out / 'policy.npz'}: {progress.generation} generations, {progress.steps:,} PPO decisions, "
          f"{progress.seconds / 60:.1f} min of training; summary: {out / 'summary.md'}")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("learn", help="train a policy network by imitation and PPO self-play (the learn extra)",
                       description="Fit a policy and value network to a teacher plan's decisions, then improve it "
                                   "by PPO against a league of tuned plans and its own snapshots, generation by "
                                   "generation; each generation ends with an evaluation against benchmark agents "
                                   "and a checkpoint. Rerun the same command to resume a killed run.")
    edition_option(p)
    p.add_argument("--players", type=int, default=2, help="2 to 4")
    p.add_argument("--market", default="random", help="random (default), a preset name, or 10 comma-separated kinds")
    p.add_argument("--opponents", help="the league's fixed members, comma-separated (default: tuned plans for the "
                                       "player count); the learner's own snapshots join them")
    p.add_argument("--no-selves", action="store_true", help="leave the learner's own snapshots out of the league")
    p.add_argument("--teacher", help="the plan imitated first (default: the strongest tuned plan for the player "
                                     "count; none: start from random weights)")
    p.add_argument("--imitation-games", type=int, default=36000, help="games of the teacher recorded (default 36000)")
    p.add_argument("--hidden", default="64,64", help="the two hidden layers' sizes (default 64,64)")
    p.add_argument("--envs", type=int, default=128, help="games stepped at once (default 128)")
    p.add_argument("--updates", type=int, default=50, help="PPO updates per generation (default 50)")
    p.add_argument("--eval-games", type=int, default=2000,
                   help="games against each benchmark agent after each generation (default 2000)")
    budget = p.add_mutually_exclusive_group(required=True)
    budget.add_argument("--steps", type=int, help="budget in PPO decisions, rounded up to whole generations "
                                                 "(the same seed gives the same weights)")
    budget.add_argument("--minutes", type=float, help="budget in minutes of this invocation")
    p.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="threads for torch and processes for the evaluation games")
    p.add_argument("--out", required=True, help="folder for policy.npz, curve.csv/png, summary.md and the checkpoint")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_learn)
