"""`hoc agents`: the agents a command can name, with what each does."""
from __future__ import annotations


def cmd_agents(args) -> int:
    from hoc.agents.registry import list_file, of_game
    from hoc.games.heart_of_crown.agents.priority import parse

    game = args.game_name
    shown = of_game(game)
    width = max(len(n) for n in shown)
    for name, agent in shown.items():
        line = f"{name:<{width}}  {agent.description}"
        path = list_file(name) if args.edition else None
        if path is not None:        # a library plan: what the edition's reading of it leaves out
            left = parse(path).dropped(args.edition)
            if left:
                line += f" (under {args.edition}, without: {', '.join(left)})"
        print(line)
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("agents", help="list the available agents")
    p.add_argument("--edition", default=None, choices=("2e", "1e"),
                   help="also name, for each library plan, the cards of another edition it leaves out under this "
                        "edition (2e or 1e)")
    p.add_argument("--game", dest="game_name", default="heart_of_crown", choices=("heart_of_crown", "dominion"),
                   help="the game whose agents to list (default heart_of_crown)")
    p.set_defaults(func=cmd_agents)
