"""Toy's agents: the jitted deciders (`policies`), the priority list (`kernel`, `bots`, its parameter
row `row`), the search agent (`search`) and the catalog the registry reads (`catalog`)."""
