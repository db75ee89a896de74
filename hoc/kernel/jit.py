"""The decorator for engine kernels.

Kernels never allocate: they work inside the state array, so they are compiled without numba's
reference counting (`_nrt=False`). That removes the atomic incref/decref pairs that refcount
pruning leaves around calls between kernels, which measured as most of the time of a step.

Kernels are compiled lazily, specialised on the constants their callers pass. Explicit
signatures (one compile per kernel) cut the cold compile time by a third but made games about
30% slower in `benchmarks/bench_engine.py`; speed won.
"""
from numba import njit


def kernel(fn):
    return njit(cache=True, _nrt=False)(fn)
