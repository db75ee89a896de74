"""`hoc agents`: the agents a command can name, with what each does."""
from __future__ import annotations

from pathlib import Path

from hoc.cli.options import game_of, game_option


# the committed ladder (a checkout's results/, not installed): every plan's win rate per seat over a
# round robin of the library's plans, 2 players, random markets
LADDER = Path("results") / "benchmark" / "matrix_2p_random.csv"
LADDER_COMMAND = "python -m experiments.benchmark"


def ladder() -> tuple[Path, dict[str, str]] | None:
    """The ladder's file and each plan's rating in it ('80.4% [80.0, 80.7]': win rate per seat over all
    its games, 95% Wilson interval), or None outside a checkout."""
    from hoc.agent_folders import library

    path = library().parent / LADDER
    if not path.is_file():
        return None
    from hoc.research import meta

    seats = meta.overall(meta.load(path))
    return path, {r.agent: f"{100 * r.rate:.1f}% [{100 * r.lo:.1f}, {100 * r.hi:.1f}]" for r in seats.itertuples()}


def cmd_agents(args) -> int:
    from hoc.agents.registry import of_game
    from hoc.games import get

    catalog = get(game_of(args)).catalog()
    shown = of_game(game_of(args))
    width = max(len(n) for n in shown)
    found = ladder()
    rated = {n: r for n, r in (found[1] if found else {}).items() if n in shown}
    if rated:
        print(f"rating: win rate per seat in the ladder of {len(found[1])} plans (2 players, random markets, 95% "
              f"Wilson interval; {found[0].relative_to(found[0].parents[2])}, from `{LADDER_COMMAND}`)\n")
    rating = max((len(r) for r in rated.values()), default=0)
    for name, agent in shown.items():
        # a library plan: what the edition's reading of it leaves out
        extra = catalog.annotate(name, args.edition) if args.edition and agent.game is not None else ""
        middle = f"{rated.get(name, ''):<{rating}}  " if rated else ""
        print(f"{name:<{width}}  {middle}{agent.description}{extra}")
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
