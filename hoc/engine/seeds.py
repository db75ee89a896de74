"""A run's game seeds, the same for every game: game `index` of a run with seed `master` is dealt
from `game_seed(master, index)`, so a game is fixed by its run seed and index whatever else runs
beside it, in whatever order, in whichever process."""
import numpy as np
from numba import njit

from hoc.engine.jit import entry
from hoc.engine.state import GOLDEN, mix64
from hoc.errors import HocError


@entry
def game_seed(master, index):
    """The seed of game `index` of a run with seed `master`, as a signed 64-bit integer."""
    return np.int64(mix64(np.uint64(master) ^ mix64(np.uint64(index) + GOLDEN)))


@njit(cache=True)
def game_seeds(master, first, n):
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = game_seed(master, first + i)
    return out


def check_seed(seed) -> int:
    """A seed as an int, or a HocError naming what is wrong with it."""
    try:
        value = int(seed)
    except (TypeError, ValueError):
        raise HocError(f"seed must be an integer, got {seed!r}") from None
    if value < 0 or value >= 2 ** 63:
        raise HocError(f"seed must be between 0 and 2**63 - 1 (9223372036854775807), got {value}")
    return value
