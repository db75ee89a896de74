"""Point numba's on-disk cache at a folder keyed by a hash of the engine sources and card data.

numba's own cache key misses edits to jitted callees in other modules and to data frozen at compile
time, so a stale cache could silently run old rules. Hashing every source that compiled code can
see (the engine and every game's kernel package, whose constants are frozen in, and every other module that defines
jitted functions) into the folder name makes any such edit start from a fresh cache, while edits to
plain Python (the harness, the command line) keep it. Card data is passed to kernels as arguments.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

_ROOT = Path(__file__).resolve().parent
_KERNELS = (_ROOT / "engine", *(_ROOT / "games").glob("*/kernel"))
# packages outside hoc whose compiled code the engine runs: a game registered from elsewhere
# (`hoc.games.register`), keyed into the folder like hoc's own (`include`)
_OUTSIDE: list[Path] = []
_BASE_CACHE = os.environ.get("NUMBA_CACHE_DIR")      # a folder the user chose: kept whatever is included


def _compiled(path: Path) -> bool:
    if path.suffix != ".py" or "__pycache__" in path.parts:
        return False
    if any(k in path.parents for k in _KERNELS):
        return True
    text = path.read_text(encoding="utf-8", errors="replace")
    return "numba" in text or "@kernel" in text


def _sources():
    """(name, path) of every compiled source: hoc's by their path in the package, an included
    package's by its folder's name and their path in it; every source of an included package counts
    (its constants are frozen into the shared loops that inline its rules)."""
    for path in sorted(_ROOT.rglob("*")):
        if _compiled(path):
            yield str(path.relative_to(_ROOT)), path
    for root in _OUTSIDE:
        for path in sorted(root.rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield f"{root.name}/{path.relative_to(root)}", path


def source_hash() -> str:
    h = hashlib.sha256()
    for name, path in _sources():
        h.update(name.encode())
        h.update(path.read_bytes())
    h.update(os.environ.get("NUMBA_BOUNDSCHECK", "").encode())
    return h.hexdigest()[:16]


def source_stamps() -> str:
    """Size and modification time of every compiled source, one line each: numba's cache drops a
    source's compiled functions when these change, whatever the folder name says."""
    lines = []
    for name, path in _sources():
        st = path.stat()
        lines.append(f"{name} {st.st_size} {st.st_mtime_ns}")
    return "\n".join(lines) + "\n"


def include(package: Path) -> Path:
    """Key the cache folder by the sources of `package` too (a game registered from outside hoc), so
    an edit of its rules never runs old compiled code; the functions compiled from now on cache in the
    new folder. Returns the folder."""
    package = Path(package).resolve()
    if package in _OUTSIDE or _ROOT in (package, *package.parents):
        return current()
    _OUTSIDE.append(package)
    return configure()


def configure() -> Path:
    """Set NUMBA_CACHE_DIR (unless the user set it) before any jitted module is imported; again when a
    package is included (numba reads the folder as each function is defined)."""
    base = Path(os.environ.get("HOC_CACHE_DIR", Path.home() / ".cache" / "hoc"))
    folder = base / f"numba-{source_hash()}"
    if _BASE_CACHE is None:
        os.environ["NUMBA_CACHE_DIR"] = str(folder)
        import numba  # noqa: F401  (config may already be loaded by the user)

        numba.config.CACHE_DIR = str(folder)
    return current()


def current() -> Path:
    """The cache folder compiled code goes to now (`hoc.CACHE_DIR`)."""
    return Path(os.environ["NUMBA_CACHE_DIR"])
