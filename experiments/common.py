"""What every study shares: its command line, its output folder, and a Markdown summary in which
every number carries its 95% interval and the command that reproduces it."""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import pandas as pd

from hoc.research.harness import Backend

AGENTS = Path(__file__).parent / "agents"


def parser(name: str, doc: str, games: int, games_help: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"python -m experiments.{name}", description=doc.strip().splitlines()[0])
    p.add_argument("--games", type=int, default=games, help=f"{games_help} (default {games}: minutes on 2 cores)")
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    p.add_argument("--jobs", type=int, default=int(os.environ.get("HOC_JOBS", 2)),
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


def cli(main) -> None:
    """Run a study's main as a command: bad input is one line on stderr and exit code 2."""
    from hoc.errors import HocError

    try:
        main()
    except HocError as e:
        sys.exit(f"error: {e}")


def pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def points(d: float, lo: float, hi: float) -> str:
    return f"{100 * d:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] points"


class Study:
    """One run of a study: its folder, backend, and the Markdown summary being written."""

    def __init__(self, name: str, title: str, args: argparse.Namespace, argv: list[str] | None):
        self.name, self.args = name, args
        self.out = Path(args.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.backend = Backend(args.jobs)
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
