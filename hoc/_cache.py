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


def _compiled(path: Path) -> bool:
    if path.suffix != ".py" or "__pycache__" in path.parts:
        return False
    if any(k in path.parents for k in _KERNELS):
        return True
    text = path.read_text(encoding="utf-8", errors="replace")
    return "numba" in text or "@kernel" in text


def source_hash() -> str:
    h = hashlib.sha256()
    for path in sorted(_ROOT.rglob("*")):
        if _compiled(path):
            h.update(str(path.relative_to(_ROOT)).encode())
            h.update(path.read_bytes())
    h.update(os.environ.get("NUMBA_BOUNDSCHECK", "").encode())
    return h.hexdigest()[:16]


def source_stamps() -> str:
    """Size and modification time of every compiled source, one line each: numba's cache drops a
    source's compiled functions when these change, whatever the folder name says."""
    lines = []
    for path in sorted(_ROOT.rglob("*")):
        if _compiled(path):
            st = path.stat()
            lines.append(f"{path.relative_to(_ROOT)} {st.st_size} {st.st_mtime_ns}")
    return "\n".join(lines) + "\n"


def configure() -> Path:
    """Set NUMBA_CACHE_DIR (unless the user set it) before any jitted module is imported."""
    base = Path(os.environ.get("HOC_CACHE_DIR", Path.home() / ".cache" / "hoc"))
    folder = base / f"numba-{source_hash()}"
    if "NUMBA_CACHE_DIR" not in os.environ:
        os.environ["NUMBA_CACHE_DIR"] = str(folder)
        import numba  # noqa: F401  (config may already be loaded by the user)

        numba.config.CACHE_DIR = str(folder)
    return Path(os.environ["NUMBA_CACHE_DIR"])
