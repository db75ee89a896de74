"""`hoc agents`: the agents a command can name, with what each does."""
from __future__ import annotations

from hoc.cli.options import game_of, game_option


def cmd_agents(args) -> int:
    from hoc.agents.registry import of_game
    from hoc.games import get

    catalog = get(game_of(args)).catalog()
    shown = of_game(game_of(args))
    width = max(len(n) for n in shown)
    for name, agent in shown.items():
        # a library plan: what the edition's reading of it leaves out
        extra = catalog.annotate(name, args.edition) if args.edition and agent.game is not None else ""
        print(f"{name:<{width}}  {agent.description}{extra}")
    _yours(shown, args)
    return 0


def _yours(shown: dict, args) -> None:
    """The agents of the user's folders (--agents-dir, HOC_AGENTS_PATH) that play this game, each with
    its file; a file a library name hides, or that cannot be read, says so in its line."""
    from hoc.agent_folders import user_files
    from hoc.agents.registry import get
    from hoc.errors import HocError

    found = user_files()
    if not found:
        return
    print(f"\nyour agents ({len(found)} file{'s' if len(found) != 1 else ''}):")
    width = max(len(n) for n in found)
    for name, path in found.items():
        if name in shown:
            print(f"{name:<{width}}  {path}: hidden by the library's {name} (rename the file to play it)")
            continue
        try:
            agent = get(name)
        except HocError as e:
            print(f"{name:<{width}}  {path}: cannot be read: {e}")
            continue
        if agent.game in (None, game_of(args)):
            print(f"{name:<{width}}  {agent.description} ({path})")


def add_parser(sub) -> None:
    p = sub.add_parser("agents", help="list the available agents")
    p.add_argument("--edition", default=None, choices=("2e", "1e"),
                   help="also name, for each library plan, the cards of another edition it leaves out under this "
                        "edition (2e or 1e)")
    game_option(p)
    p.set_defaults(func=cmd_agents)
