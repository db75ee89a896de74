"""The plans of Heart of Crown's agent library: basic_rush (built in), the hand-written archetypes and
the plans found by `hoc tune`, as priority-list files the registry names by their stem."""
from __future__ import annotations

from hoc.agent_folders import game_folder

ARCHETYPES = game_folder("heart_of_crown") / "archetypes"   # hand-written plans (agents/heart_of_crown/archetypes)
TUNED = game_folder("heart_of_crown") / "tuned"             # plans found by `hoc tune`, each naming its command

BASIC_RUSH_DESCRIPTION = ("plays Territories only; backs at 6 coins; sets Succession cards worth >= 2 SP; "
                          "buys Duke > Large City (<3) > Senator > City > Court Maid")
BASIC_RUSH = """description = "basic_rush as a priority list"
[princess]
min_coins = 6
[set]
min_sp = 2
[play]
territories_only = true
keep = false
abilities = false
accept_modes = false
[[buy]]
card = "duke"
princess = true
[[buy]]
card = "large_city"
owned_below = 3
[[buy]]
card = "senator"
princess = true
[[buy]]
card = "city"
[[buy]]
card = "court_maid"
princess = true
"""
