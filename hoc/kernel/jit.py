"""The decorator for engine kernels.

Kernels never allocate: they work inside the state array. Two choices keep them fast and quick
to compile:

- no reference counting (`_nrt=False`): it removes the atomic incref/decref pairs that refcount
  pruning leaves around calls between kernels, which measured as most of the time of a step;
- one explicit signature per kernel, built from its parameter names: without it numba compiles
  a kernel again for every literal constant a caller passes (`finish(s, END_OVERTIME, ...)`),
  which measured as a third of the compile time.
"""
import inspect

from numba import njit

ARRAYS_1D = {"s", "R", "P", "buf", "out", "totals", "work", "seat_agents"}
ARRAYS_2D = {"T", "seat_params"}
BOOLEANS = {"optional", "face_up", "validate"}
UNSIGNED = {"x", "z"}


def _type(name: str) -> str:
    if name in ARRAYS_1D:
        return "int64[::1]"
    if name in ARRAYS_2D:
        return "int64[:, ::1]"
    if name in BOOLEANS:
        return "boolean"
    if name in UNSIGNED:
        return "uint64"
    return "int64"


def kernel(fn):
    params = inspect.signature(fn).parameters
    signature = "(" + ", ".join(_type(n) for n in params) + ",)"
    return njit(signature, cache=True, _nrt=False)(fn)
