"""Which files the server may read: only those inside the folder it was started on (`hoc serve
--root`, default the current folder), named relative to it, and only runs, study results and agent
files. The server writes no file: a game is saved by the browser, which downloads it."""
from __future__ import annotations

from pathlib import Path

from hoc.folders import inside, readable_file

SKIP = {".git", ".venv", "venv", "node_modules", "__pycache__", ".pytest_cache"}
READABLE = {".md", ".csv", ".png", ".json", ".toml"}      # what a study folder shows, and agent files
MAX_DEPTH = 5
MAX_LISTED = 400


class Root:
    def __init__(self, folder: str | Path):
        self.folder = Path(folder).resolve()

    def path(self, given: str, kind: str = "file") -> Path:
        """The path `given` (relative to the root) if it lies inside the root and exists (`hoc.folders`:
        a 403 for a path leading out, whatever it points at, a 404 for one inside with nothing there)."""
        return inside(self.folder, given, kind)

    def run(self, given: str) -> Path:
        """A Parquet run folder inside the root whose manifest and parts lie inside it too (a part that is
        a symlink to elsewhere is refused, as a path to elsewhere is)."""
        from hoc.research.store import MANIFEST

        p = self.path(given, "run")
        if p.is_dir():
            for f in [p / MANIFEST, *sorted(p.glob("part-*.parquet"))]:
                if f.is_symlink():
                    inside(self.folder, f.relative_to(self.folder).as_posix(), "run")
        return p

    def file(self, given: str) -> Path:
        return readable_file(self.folder, given, READABLE)

    def name(self, p: Path) -> str:
        return "." if p == self.folder else p.relative_to(self.folder).as_posix()

    def folders(self) -> tuple[list[Path], list[Path]]:
        """The Parquet runs (NAME.parquet folders with a manifest) and the study folders (holding a
        report, a table or a chart) inside the root, a bounded walk."""
        from hoc.research.store import MANIFEST

        runs, studies = [], []

        def walk(d: Path, depth: int) -> None:
            if len(runs) + len(studies) >= MAX_LISTED:
                return
            try:
                entries = sorted(d.iterdir())
            except OSError:
                return
            if d.suffix == ".parquet":
                if (d / MANIFEST).is_file():
                    runs.append(d)
                return
            if any(e.is_file() and e.suffix in (".md", ".csv", ".png") for e in entries) and d != self.folder:
                studies.append(d)
            if depth < MAX_DEPTH:
                for e in entries:
                    if e.is_dir() and not e.is_symlink() and e.name not in SKIP and not e.name.startswith(".") \
                            and not (e / "__init__.py").exists():      # not a Python package's folder
                        walk(e, depth + 1)

        walk(self.folder, 0)
        return runs, studies
