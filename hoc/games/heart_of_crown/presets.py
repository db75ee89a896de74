"""Named markets: the 1E rulebook's recommended sets (reference §2.8) by their English names, and
markets the tests and benchmarks use. A preset is usable in an edition when every one of its kinds
exists there (first_play, introductory, intermediate, adventure and walpurgis_night exist in 2E)."""

RECOMMENDED = {
    "first_play": ["scout", "wishing_well", "post_horse", "trading_ship", "purveyor", "supply_unit",
                   "library", "city_development", "adventurer", "alchemist"],
    "introductory": ["scout", "post_horse", "wishing_well", "rampart", "battering_ram", "trading_ship",
                     "city_development", "infantry_battalion", "purveyor", "alchemist"],
    "introductory_2": ["donation", "scout", "wishing_well", "rampart", "battering_ram",
                       "slash_and_burn_farming", "city_development", "royal_guard", "adventurer", "alchemist"],
    "intermediate": ["scout", "donation", "magic_talisman", "supply_unit", "library", "stargazing_witch",
                     "hunted_beast", "purveyor", "imperial_estate", "curse_witch"],
    "intermediate_2": ["post_horse", "wishing_well", "bribery", "conscription_writ", "trading_ship",
                       "hideout", "shinobi", "moneylender", "infantry_battalion", "gossip_loving_duchess"],
    "big_business": ["wishing_well", "scout", "bribery", "supply_unit", "trading_ship", "library",
                     "city_development", "bank", "moneylender", "alchemist"],
    "great_war": ["scout", "post_horse", "rampart", "battering_ram", "trading_ship", "supply_unit",
                  "infantry_battalion", "shinobi", "hideout", "royal_guard"],
    "adventure": ["donation", "wishing_well", "buried_treasure", "supply_unit", "hunted_beast",
                  "stargazing_witch", "library", "alchemist", "adventurer", "imperial_estate"],
    "walpurgis_night": ["donation", "scout", "wishing_well", "magic_talisman", "charm_witch", "library",
                        "stargazing_witch", "hunted_beast", "hideout", "curse_witch"],
    "court_politics": ["wishing_well", "bribery", "conscription_writ", "magic_talisman", "charm_witch",
                       "stargazing_witch", "royal_guard", "alchemist", "imperial_estate",
                       "gossip_loving_duchess"],
    # 2E markets used by the tests and benchmarks (together 30 of the 31 kinds, every attack among them)
    "maids_and_witches": ["handyman", "city_development", "adventurer", "magic_talisman", "stargazing_witch",
                          "supply_unit", "attendant_maid", "infantry_battalion", "charm_witch", "curse_witch"],
    "siege": ["hunted_beast", "royal_guard", "land_reclamation_decree", "battering_ram", "gossip_loving_duchess",
              "post_horse", "library", "scout", "hideout", "wishing_well"],
    "festival": ["ball", "flea_market", "margrave", "bank", "buried_treasure", "imperial_estate", "trading_ship",
                 "purveyor", "donation", "rampart"],
}
