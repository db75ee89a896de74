"""Dominion's jitted kernels: layout (constants, state), zones, the turn, the cards' routines, setup,
invariants and the interface the engine's loops call (api)."""
