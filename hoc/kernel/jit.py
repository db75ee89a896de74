"""The decorator for engine kernels.

Kernels never allocate: they work inside the state array. Compiling them without numba's
reference counting (`_nrt=False`) removes the atomic incref/decref pairs that refcount pruning
leaves around calls between kernels, which measured as most of the time of a game step.
"""
from numba import njit

kernel = njit(cache=True, _nrt=False)
