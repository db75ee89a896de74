"""The tuner's drivers, every game's: a candidate plays as a parameter row of data, never code.

- `kernel`: the one compiled routine, playing a schedule of (seed, parameter row per seat) games;
- `evaluate`: races by successive halving with common random numbers, seats mirrored.

A game's own search over its plans sits in its agents (`GameSpec.commands` runs it for `hoc tune`):
Heart of Crown's CMA-ES over priority lists in `hoc.games.heart_of_crown.agents.tuning`, Dominion's
evolved buy menus in `hoc.games.dominion.agents.tuning`.

Only `kernel` may import the JIT compiler: the compiled-code cache is keyed by a hash of every module
that does (`hoc._cache`), so the other modules stay out of it and editing them never recompiles.
"""
