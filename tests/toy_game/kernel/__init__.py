"""Toy's jitted rules: constants (the state's layout around the shared slots), core (setup, turn,
decisions, invariants) and api (the names the engine calls)."""
