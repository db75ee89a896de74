"""hoc: a rules-exact Heart of Crown engine on flat integer arrays, jitted with numba."""
from hoc._cache import configure as _configure_cache
from hoc._version import __version__
from hoc._moved import install as _install_moved

CACHE_DIR = _configure_cache()
_install_moved()

__all__ = ["CACHE_DIR", "__version__"]
