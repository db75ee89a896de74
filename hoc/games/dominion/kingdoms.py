"""The rulebook's recommended kingdoms for the base set, 2nd edition, by name (card ids)."""

RECOMMENDED: dict[str, tuple[str, ...]] = {
    "first_game": ("cellar", "market", "merchant", "militia", "mine", "moat", "remodel", "smithy", "village",
                   "workshop"),
    "size_distortion": ("artisan", "bandit", "bureaucrat", "chapel", "festival", "gardens", "sentry",
                        "throne_room", "witch", "workshop"),
    "deck_top": ("artisan", "bureaucrat", "council_room", "festival", "harbinger", "laboratory", "moneylender",
                 "sentry", "vassal", "village"),
    "sleight_of_hand": ("cellar", "council_room", "festival", "gardens", "library", "harbinger", "militia",
                        "poacher", "smithy", "throne_room"),
    "improvements": ("artisan", "cellar", "market", "merchant", "mine", "moat", "moneylender", "poacher",
                     "remodel", "witch"),
    "silver_and_gold": ("bandit", "bureaucrat", "chapel", "harbinger", "laboratory", "merchant", "mine",
                        "moneylender", "throne_room", "vassal"),
}
