"""hoc: a rules-exact Heart of Crown engine on flat integer arrays, jitted with numba."""
from hoc._cache import configure as _configure_cache

CACHE_DIR = _configure_cache()

__version__ = "0.1.0"
