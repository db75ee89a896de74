"""Heart of Crown (both editions): the card data, rulesets, market presets, the jitted rules
(`kernel`), the Python `Game` and the turn-by-turn wording of a game (`replay`)."""
