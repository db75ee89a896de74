"""A run's game seeds, the same for every game: game `index` of a run with seed `master` is dealt
from `game_seed(master, index)`, so a game is fixed by its run seed and index whatever else runs
beside it, in whatever order, in whichever process."""
import numpy as np

from hoc.engine.jit import entry
from hoc.engine.state import GOLDEN, mix64
from hoc.errors import HocError


@entry
def game_seed(master, index):
    """The seed of game `index` of a run with seed `master`, as a signed 64-bit integer."""
    return np.int64(mix64(np.uint64(master) ^ mix64(np.uint64(index) + GOLDEN)))


@entry
def fill_game_seeds(master, first, out):
    for i in range(out.shape[0]):
        out[i] = game_seed(master, first + i)


def game_seeds(master, first: int, n: int) -> np.ndarray:
    """The seeds of games first .. first+n-1 of a run with seed `master` (int64)."""
    out = np.empty(n, np.int64)
    fill_game_seeds(np.int64(master), np.int64(first), out)
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
