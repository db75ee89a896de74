"""What every study shares: its command line, its output folder, and a Markdown summary in which
every number carries its 95% interval and the command that reproduces it."""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path

import pandas as pd

from hoc.research.harness import Backend


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line, like every other bad input of a study."""

    def error(self, message):
        self.exit(2, f"error: {message} (see `{self.prog} --help`)\n")


def parser(name: str, doc: str, games: int, games_help: str) -> argparse.ArgumentParser:
    from hoc.research.harness import cores

    p = _Parser(prog=f"python -m experiments.{name}", description=doc.strip().splitlines()[0])
    p.add_argument("--games", type=int, default=games, help=f"{games_help} (default {games}: minutes on 2 cores)")
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    p.add_argument("--jobs", type=int, default=int(os.environ.get("HOC_JOBS", min(2, cores()))),
                   help="worker processes (default 2, or $HOC_JOBS)")
    p.add_argument("--out", default=f"results/{name}", help=f"output folder (default results/{name}); a rerun "
                                                             "resumes its games, so after changing an agent, delete it")
    return p


def results(name: str, games: str, argv: list[str] = ()) -> Path:
    """For notebooks: the study's folder under results/ if a full run left one there, else a small
    run of it now (HOC_NOTEBOOK_GAMES sets the size; the test suite runs every notebook tiny)."""
    import importlib

    tiny = os.environ.get("HOC_NOTEBOOK_GAMES")
    folder = Path(__file__).resolve().parent.parent / "results" / name
    if tiny or not (folder / "summary.md").exists():
        folder = Path(os.environ.get("HOC_NOTEBOOK_OUT", Path.home() / ".cache" / "hoc" / "notebooks")) / name
        importlib.import_module(f"experiments.{name}").main(["--games", tiny or games, "--out", str(folder), *argv])
    return folder


def saved(path: Path, settings: dict, key: str):
    """What a run with these very settings left under `key` in the JSON file `path` (a resumable
    study's unit of work), or None."""
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return data[key] if data.get("settings") == settings else None


def cli(main) -> None:
    """Run a study's main as a command: bad input is one line on stderr and exit code 2; Ctrl-C is one
    line saying what is saved and the command that resumes, and exit code 130."""
    from hoc.errors import HocError

    try:
        main()
    except HocError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print(interrupted(Path(sys.argv[0]).stem, sys.argv[1:]), file=sys.stderr)
        sys.exit(130)


def interrupted(name: str, argv: list[str]) -> str:
    """The line a Ctrl-C prints: the games saved in the study's folder, and the command that resumes."""
    from hoc.research.store import saved

    out = argparse.ArgumentParser(add_help=False)
    out.add_argument("--out", default=f"results/{name}")
    folder = out.parse_known_args(argv)[0].out
    command = shlex.join(["python", "-m", f"experiments.{name}", *argv])
    parts, games = saved(folder) if Path(folder).is_dir() else (0, 0)
    if not parts:
        return f"interrupted before any game was saved in {folder}; start again with: {command}"
    return f"interrupted; {games:,} games in {parts:,} parts are saved in {folder}; resume with the same command: {command}"


def pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def points(d: float, lo: float, hi: float) -> str:
    return f"{100 * d:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] points"


class Study:
    """One run of a study: its folder, backend, and the Markdown summary being written."""

    def __init__(self, name: str, title: str, args: argparse.Namespace, argv: list[str] | None):
        from hoc.errors import HocError

        self.name, self.args = name, args
        for option, value in vars(args).items():       # --games, --games-4p: checked before any study plays
            if option.startswith("games") and value < 1:
                raise HocError(f"--{option.replace('_', '-')} must be at least 1, got {value}")
        self.backend = Backend(args.jobs)
        self.out = Path(args.out)
        try:
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise HocError(f"--out {self.out}: cannot make the folder: {e.strerror or e}") from None
        self.verbose = argv is None          # run as a script: print the summary too
        argv = sys.argv[1:] if argv is None else argv
        self.command = " ".join([f"python -m experiments.{name}", *argv])
        import hoc

        self.lines = [f"# {title}", "", f"Reproduce: `{self.command}` (seed {args.seed}, heart-of-crown "
                      f"{hoc.__version__}; every figure below is a 95% interval: Wilson for rates, Newcombe for "
                      "differences of rates).", ""]
        self.t0 = time.perf_counter()

    def path(self, name: str) -> str:
        return str(self.out / name)

    def text(self, *lines: str) -> None:
        self.lines += [*lines, ""]

    def table(self, df: pd.DataFrame) -> None:
        cols = list(df.columns)
        self.lines += ["| " + " | ".join(map(str, cols)) + " |", "|" + " --- |" * len(cols)]
        self.lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in df.itertuples(index=False)]
        self.lines.append("")

    def figure(self, path: str, caption: str) -> None:
        self.lines += [f"![{caption}]({Path(path).name})", ""]

    def finish(self) -> Path:
        self.backend.close()
        self.lines.append(f"_{time.perf_counter() - self.t0:.0f} s on {self.args.jobs} worker(s)._")
        f = self.out / "summary.md"
        f.write_text("\n".join(self.lines) + "\n")
        if self.verbose:
            print("\n".join(self.lines))
        return f


def redeal(game, me: int, rng) -> None:
    """What seat `me` cannot see, shuffled in `game` (a 2-player Python `Game`) with numpy's `rng`: its
    own face-down deck cards among their places, and the opponent's hand and face-down deck together
    (skipped when the opponent's deck has face-up cards, and during a card question: rewriting zones
    mid-question would restart it). The Python probes' determinization."""
    import numpy as np

    from hoc.games.heart_of_crown.game import FACE_UP
    from hoc.games.heart_of_crown.kernel import constants as K

    st = game.state
    off = int(st[K.H_OFF_DECK] + game._seat(me) * st[K.H_DCAP])
    n = int(st[game._pb(me) + K.P_DECK_N])
    d = st[off:off + n]
    down = np.flatnonzero(d & FACE_UP == 0)
    d[down] = d[rng.permutation(down)]
    q = 1 - me
    if game.context == "card choice" or any(x is not None for x in game.deck_face_up(q)):
        return
    pool = [name for name, k in game.hand(q).items() for _ in range(k)] + game.deck(q)
    pool = [pool[i] for i in rng.permutation(len(pool))]
    h = sum(game.hand(q).values())
    hand = {}
    for name in pool[:h]:
        hand[name] = hand.get(name, 0) + 1
    game.arrange(q, hand=hand, deck=pool[h:])
