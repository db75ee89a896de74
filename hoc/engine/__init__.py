"""The game-neutral engine: what every game's jitted rules are built with (the jit decorators)."""
