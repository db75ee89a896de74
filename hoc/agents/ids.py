"""The ids of the jitted agent kinds: an agent's id is its case in `hoc.agents.policies.decide`, and
which kinds a lineup holds decides which compiled loop it needs (a search, a planner, or neither)."""
RANDOM = 0
PRIORITY = 2          # priority lists (the archetypes and basic_rush); id 1 was basic_rush's own policy
ISMCTS = 3            # the search agent (hoc.agents.search)
PLANNED = 4           # a priority list with its turn planner on (hoc.games.heart_of_crown.agents.planner)
