"""Point numba's on-disk cache at a folder keyed by a hash of the engine sources and card data.

numba's own cache key misses edits to jitted callees in other modules and to data frozen at compile
time, so a stale cache could silently run old rules. Hashing every source and data file of the
engine and agents into the folder name makes any edit start from a fresh cache.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

_ROOTS = [Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent / "agents"]
_SUFFIXES = {".py", ".csv"}   # agent TOML files are data passed at run time: no need


def source_hash() -> str:
    h = hashlib.sha256()
    for root in _ROOTS:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix in _SUFFIXES and "__pycache__" not in path.parts:
                h.update(str(path.relative_to(root)).encode())
                h.update(path.read_bytes())
    h.update(os.environ.get("NUMBA_BOUNDSCHECK", "").encode())
    return h.hexdigest()[:16]


def configure() -> Path:
    """Set NUMBA_CACHE_DIR (unless the user set it) before any jitted module is imported."""
    base = Path(os.environ.get("HOC_CACHE_DIR", Path.home() / ".cache" / "hoc"))
    folder = base / f"numba-{source_hash()}"
    if "NUMBA_CACHE_DIR" not in os.environ:
        os.environ["NUMBA_CACHE_DIR"] = str(folder)
        import numba  # noqa: F401  (config may already be loaded by the user)

        numba.config.CACHE_DIR = str(folder)
    return Path(os.environ["NUMBA_CACHE_DIR"])
