"""The options several commands share, defined once: the game options (rules and seats), the run
options (workers, mirrored games, the Parquet folder, JSON), and the checks every command makes on
them before any game is played."""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from hoc.errors import HocError


def game_of(args) -> str:
    """The game the options name (checked)."""
    from hoc.games import DEFAULT, get

    return get(getattr(args, "game_name", None) or DEFAULT).name


def game_command(args, command: str):
    """The game's own side of a shared command (its `GameSpec.commands` module's function `command`),
    or a one-line error saying the game has none."""
    from hoc.games import get

    spec = get(game_of(args))
    found = getattr(spec.commands_module(), command, None) if spec.commands else None
    if found is None:
        raise HocError(f"hoc {command} does not play {spec.title} (--game {spec.name}) yet")
    return found


def agents_of(args) -> str:
    """The agents named, or the game's default agent when none was named."""
    from hoc.games import DEFAULT, get

    game = game_of(args)
    if args.agents is None or (args.agents == game_defaults()["agents"] and game != DEFAULT):
        return get(game).default_agent
    return args.agents


def ruleset_of(args):
    """The ruleset the game options name (the game's own `rules_from_options` reads them)."""
    return ruleset_from_options(game_of(args), vars(args))


def ruleset_from_options(game: str, options: dict):
    """The ruleset of `game` that game options name, by their command-line names (`edition`,
    `players`, `market`, `override`, `turn_cap` and the game's own); an option not given takes the
    command line's default. The command line and the Python front door (`hoc.simulate`) both read
    their options here, so the same options make the same rules."""
    from hoc.games import get

    defaults = game_defaults()
    return get(game).ruleset_from({**defaults, **options}, defaults)


def game_option(p: argparse.ArgumentParser, agents: bool = True):
    """--game; `agents`: the command names agents, so --agents-dir too."""
    from hoc.games import DEFAULT, names

    p.add_argument("--game", dest="game_name", default=DEFAULT, metavar="GAME",
                   help=f"{DEFAULT} (default) or {' or '.join(n for n in names() if n != DEFAULT)}")
    if agents:
        agents_dir_option(p)


def agents_dir_option(p: argparse.ArgumentParser):
    from hoc.agent_folders import ENV

    p.add_argument("--agents-dir", action="append", metavar="DIR",
                   help=f"your own agents folder (repeatable): a NAME.toml (plan or bot), NAME.npz (learned policy) "
                        f"or NAME.py (Python agents, NAME:function) dropped there is an agent by its name; searched "
                        f"before the folders of the environment variable {ENV}")


def use_agents_dirs(args) -> None:
    """Put the folders of --agents-dir before those of HOC_AGENTS_PATH (checked: one line for a missing one)."""
    if getattr(args, "agents_dir", None):
        from hoc.agent_folders import use

        use(args.agents_dir)


def edition_option(p: argparse.ArgumentParser):
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")


def game_options(p: argparse.ArgumentParser, games_default: int | None, choose_game: bool = True):
    """The game options; `choose_game`: with --game (a command that plays Heart of Crown only so far,
    and whose --game means something else, leaves it out: replay)."""
    if choose_game:
        game_option(p)
    else:
        agents_dir_option(p)
    edition_option(p)
    p.add_argument("--players", type=int, default=2, help="1 to 4 (1 = solo study mode)")
    p.add_argument("--agents", default="basic_rush",
                   help="agent by seat, comma-separated; a single name fills every seat (see `hoc agents`); "
                        "the search agent takes options: ismcts:iterations=1000,rollout=senator_duke "
                        "(key=value tokens after an ismcts spec are its options)")
    p.add_argument("--market", default="random",
                   help="random (default), a preset of the game's (basic; a recommended kingdom such as "
                        "first_game), or 10 comma-separated kinds of its supply")
    p.add_argument("--seed", type=int, default=0, help="master seed of the run (default 0)")
    p.add_argument("--rotate-seats", action="store_true", help="rotate the lineup game by game")
    p.add_argument("--shuffle-seats", action="store_true",
                   help="seat each game's lineup in an order drawn from the game's seed (a random first player)")
    p.add_argument("--override", action="append", metavar="CARD.FIELD=VALUE",
                   help="change a card value for this run, e.g. duke.cost=7 (repeatable)")
    p.add_argument("--turn-cap", type=int, default=100,
                   help="turns per player before a capped draw (default: the game's own, 100 for the default game)")
    from hoc.games import specs

    for spec in specs():                # each game's own options
        spec.add_options(p)


def _option_defaults() -> dict:
    p = argparse.ArgumentParser(add_help=False)
    game_options(p, None)
    return vars(p.parse_args([]))


def game_defaults() -> dict:
    """The game options and their defaults, every registered game's own options among them (made
    when asked: a game registered after this module was imported has its options here too)."""
    return _option_defaults()


def __getattr__(name):
    if name == "GAME_OPTIONS":          # the name older code reads: the defaults as they are now
        return game_defaults()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def worker_options(p: argparse.ArgumentParser):
    """Where the games are played: worker processes here or a Dask cluster."""
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", default="loky", help="loky (local processes, default) or dask")
    p.add_argument("--scheduler", help="Dask scheduler address for --backend dask, e.g. tcp://10.0.0.5:8786")


def run_options(p: argparse.ArgumentParser):
    worker_options(p)
    p.add_argument("--mirror", action="store_true",
                   help="mirrored games: each game seed is played once with every rotation of the seats")
    p.add_argument("--out", help="write one row per game to this Parquet folder (NAME.parquet); "
                                 "rerun the same command to resume an interrupted run")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")


def check_outputs(args) -> None:
    """Refuse now, before any game is played, an output that could not be written at the end."""
    if getattr(args, "out", None) is not None:
        out = args.out
        if Path(out).suffix != ".parquet" or not Path(out).stem:
            raise HocError(f"--out must name a .parquet folder, got {out!r}")
        check_writable("--out", Path(out), folder=True)
    pngs = {}
    for flag in ("--plot", "--sp-curves"):
        path = getattr(args, flag[2:].replace("-", "_"), None)
        if path is not None:
            if Path(path).suffix != ".png" or not Path(path).stem:
                raise HocError(f"{flag} must name a .png file, got {path!r}")
            check_writable(flag, Path(path), folder=False)
            if getattr(args, "out", None) is not None and Path(args.out).resolve() in Path(path).resolve().parents:
                raise HocError(f"{flag} {path} is inside the --out folder, where every file is read as games; "
                               f"save the plot elsewhere")
            if Path(path).resolve() in pngs:
                raise HocError(f"{flag} and {pngs[Path(path).resolve()]} name the same file {path}")
            pngs[Path(path).resolve()] = flag


def check_writable(flag: str, path: Path, folder: bool) -> None:
    """An output (a folder, or a file when `folder` is false) may name missing folders: they are made
    when it is written. The nearest existing folder must take a new file, checked now, before a run."""
    if path.exists() and path.is_dir() != folder:
        raise HocError(f"{flag} {path} exists and is a {'file' if folder else 'folder'}; choose another name")
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.exists():
        raise HocError(f"{flag} {path}: the folder {parent} does not exist")
    if not parent.is_dir():
        raise HocError(f"{flag} {path}: {parent} is a file, not a folder")
    try:
        if path.exists() and not folder:
            open(path, "ab").close()            # an existing plot is replaced: it must be writable
        else:
            tempfile.TemporaryFile(dir=parent).close()
    except OSError as e:
        raise HocError(f"{flag} {path}: cannot write in {parent}: {e.strerror or e}") from None


def write_plot(flag: str, path: str, draw) -> None:
    """Draw a plot after the summary is printed: a failure now names the plot and keeps the summary."""
    try:
        draw()
    except OSError as e:
        raise HocError(f"cannot write {flag} {path}: {e.strerror or e} (the summary above is complete)") from None


def check_games(args) -> None:
    if args.games < 1:
        raise HocError(f"--games must be at least 1, got {args.games}")


def backend_of(args):
    """The backend the run options name, connected: an unreachable scheduler fails now."""
    from hoc.research.harness import Backend

    backend = Backend(args.jobs, args.backend, args.scheduler)
    backend.connect()           # an unreachable scheduler fails now, before any output is written
    return backend


def study_start(args):
    """The checks a study makes first, and its ruleset."""
    from hoc.research.simulate import lineup  # noqa: F401  (loads the agent registry before timing)

    check_outputs(args)
    return ruleset_of(args)
