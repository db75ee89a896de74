"""The learned policy's weight file (`hoc.engine.weights`, where it moved so that game agent libraries
can read weight files too): re-exported under its former name."""
from hoc.engine.weights import *  # noqa: F401,F403
from hoc.engine.weights import ARRAYS, FORMAT, MAX_HIDDEN, Network, _check_shapes, features, initial, load  # noqa: F401
