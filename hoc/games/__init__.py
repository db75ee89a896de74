"""The games the engine plays, one package each: its cards, rules, jitted kernels and wording."""
