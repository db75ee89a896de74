"""`hoc cards`: every card's values and text, or the named cards', or the card data as JSON."""
from __future__ import annotations

from hoc.cli.options import edition_option, game_of, game_option


CARD_SECTIONS = (("princess", "Princesses"), ("basic", "Basic cards (the basic market and the starting decks)"),
                 ("rare", "Rare cards (one copy each, shuffled into the supply)"),
                 ("common", "Supply kinds (10 of them make a game's supply)"))


def cmd_cards(args) -> int:
    if game_of(args) == "dominion":
        return _dominion(args)
    from hoc.games.heart_of_crown.cards import CardDB

    db = CardDB(args.edition)
    chosen = [db.lookup(n) for n in args.names] if args.names else list(range(len(db)))
    if args.json:
        cols = ["id", "pile", "category", "types", "subtypes", "cost", "links", "coins", "sp", "copies",
                "effect", "implemented", "name_en", "name_ja", "text_en"]
        print(db.frame.iloc[chosen][cols].to_json(orient="records", force_ascii=False))
        return 0
    if args.names:
        print("\n\n".join(db.sheet(i) for i in chosen))
        return 0
    edition = {"2e": "2nd edition", "1e": "1st edition"}[db.edition]
    print(f"{edition}: {len(db)} cards. `hoc cards NAME` shows one card, --json gives the data.")
    for category, title in CARD_SECTIONS:
        cards = [i for i in chosen if db.frame.category.iat[i] == category]
        if cards:
            print(f"\n{title}\n")
            print("\n".join(db.sheet(i) for i in cards))
    return 0


def _dominion(args) -> int:
    from hoc.errors import HocError
    from hoc.games.dominion.cards import CardDB
    from hoc.games.dominion.kingdoms import RECOMMENDED

    if args.edition not in (None, "2e"):
        raise HocError("--edition is a Heart of Crown option; Dominion here is the base set, 2nd edition")
    db = CardDB()
    chosen = [db.lookup(n) for n in args.names] if args.names else list(range(len(db)))
    if args.json:
        print(db.frame.iloc[chosen].to_json(orient="records", force_ascii=False))
        return 0
    if args.names:
        print("\n".join(db.sheet(i) for i in chosen))
        return 0
    print(f"Dominion, base set (2nd edition): {len(db)} cards. `hoc cards --game dominion NAME` shows one card, "
          f"--json gives the data.")
    for kingdom, title in ((False, "Basic cards (in every supply)"), (True, "Kingdom cards (10 of them make a kingdom)")):
        print(f"\n{title}\n")
        print("\n".join(db.sheet(i) for i in chosen if db[i].kingdom == kingdom))
    print("\nRecommended kingdoms (--market NAME): " + ", ".join(RECOMMENDED))
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("cards", help="every card's values and text (or the named cards')")
    p.add_argument("names", nargs="*", metavar="NAME", help="a card's id or English name, e.g. duke or 'Court Maid'")
    game_option(p)
    edition_option(p)
    p.add_argument("--json", action="store_true", help="the card data as JSON records")
    p.set_defaults(func=cmd_cards)
