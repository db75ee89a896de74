"""`hoc cards`: every card's values and text, or the named cards', or the card data as JSON."""
from __future__ import annotations

from hoc.cli.options import edition_option, game_command, game_option


def cmd_cards(args) -> int:
    return game_command(args, "cards")(args)


def add_parser(sub) -> None:
    p = sub.add_parser("cards", help="every card's values and text (or the named cards')")
    p.add_argument("names", nargs="*", metavar="NAME", help="a card's id or English name, e.g. duke or 'Court Maid'")
    game_option(p, agents=False)
    edition_option(p)
    p.add_argument("--json", action="store_true", help="the card data as JSON records")
    p.set_defaults(func=cmd_cards)
