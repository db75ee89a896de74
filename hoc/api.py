"""The front door: what `import hoc` offers, by the names one would guess.

```python
import hoc

results = hoc.simulate(["basic_rush", "senator_duke"], games=1000)
results.frame             # a pandas DataFrame, one row per game
print(results.summary)    # the summary `hoc simulate` prints

g = hoc.Game(players=2, market="basic", seed=7)     # one game of Heart of Crown, step by step
hoc.agent("senator_duke").decide(g)                  # the action a library agent takes there
hoc.games()                                          # ('heart_of_crown', 'dominion')

dominion = hoc.simulate(["dom_smithy_bm", "dom_big_money"], games=1000, game="dominion",
                        market="first_game", rotate_seats=True)
```

`hoc.Game` is Heart of Crown's; Dominion's is `hoc.games.dominion.game.Game` (`Game(Ruleset(...),
seed)` with `hoc.games.dominion.rules.Ruleset`), stepped the same way.

`hoc.simulate` runs the very code `hoc simulate` runs (`hoc.research.simulate.summarise`), with the
command line's options and defaults under their Python names; the long module paths
(`hoc.games.heart_of_crown.game.Game`, `hoc.research.simulate`, ...) keep working.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hoc.agents.agent import Agent
from hoc.errors import HocError
from hoc.games import DEFAULT
from hoc.games.heart_of_crown.game import Game

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Game", "Results", "Summary", "agent", "simulate"]

# options of every game's rules that `simulate` names itself; the rest of the command line's game
# options are a game's own (Heart of Crown's princesses, seating, ...), taken as keyword arguments
_SHARED = {"game_name", "agents", "seed", "rotate_seats", "shuffle_seats", "edition", "players", "market",
           "override", "turn_cap"}


class Summary(Mapping):
    """The summary `hoc simulate` prints, as data and as text.

    It reads as the dict `hoc simulate --json` prints (`summary["win_rate_by_agent"]`, each rate with
    its 95% interval as `lo` and `hi`), and prints as the report the command prints (`print(summary)`,
    `summary.text`).
    """

    def __init__(self, data: dict):
        self.data: dict = data
        """The figures as plain data, exactly what `hoc simulate --json` prints."""

    @property
    def text(self) -> str:
        """The readable report, exactly what `hoc simulate` prints."""
        from hoc.research.simulate import report

        return report(self.data)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:         # a notebook or the interpreter shows the report, not a long dict
        return self.text


@dataclass(frozen=True, repr=False)
class Results:
    """The games of one `simulate` call and their summary."""

    frame: pd.DataFrame
    """One row per game, with the columns `hoc simulate --out` writes to Parquet: game index and seed,
    winner and winning seats, end reason, turns, decisions, the market's kinds, and per seat (`_0`,
    `_1`, ...; seat 0 plays first) the agent, final score, princess backed and when, own turns and the
    cards owned at the end."""
    summary: Summary
    """Win rates by seat and agent, end reasons and game length, each with its 95% interval."""

    def __repr__(self) -> str:
        s = self.summary
        return f"<Results: {s['games']:,} games of {s['game']}, {' vs '.join(s['agents'])}>"


def simulate(agents: str | Agent | Sequence[str | Agent] | None = None, games: int = 10_000, *, market: str | Sequence[str] = "random",
             players: int | None = None, seed: int = 0, game: str = DEFAULT, edition: str | None = None,
             rotate_seats: bool = False, shuffle_seats: bool = False, mirror: bool = False,
             overrides: Sequence[str] = (), turn_cap: int | None = None, validate: bool = False, jobs: int = 1,
             progress: bool = True, **rules: Any) -> Results:
    """Play many games and summarise them, as `hoc simulate` does.

    Args:
        agents: the agent of each seat, seat 0 first: library names (`hoc agents`), agent files
            (`"my_plan.toml"`), `NAME+plan`, the search agent with its options
            (`"ismcts:iterations=200"`), a Python agent (`"mybot:play"`) or an `Agent` from
            `hoc.agent`. One agent fills every seat; a comma-separated string works as on the command
            line. None: the game's default agent (`basic_rush`; Dominion's `dom_big_money`) in every seat.
        games: how many games.
        market: `"random"` (a fresh market each game), a preset's name (`"basic"`; Dominion's
            recommended kingdoms such as `"first_game"`) or 10 kinds.
        players: seats at the table, 1 to 4 (1: solo study mode); by default as many as the agents
            given, or 2 for a single agent.
        seed: the run's master seed; game *i* plays its own seed drawn from (seed, *i*), so the same
            call gives the same games, and game *i* is `Game.of_run(ruleset, seed, i)`.
        game: one of `hoc.games()`: `"heart_of_crown"` (the default) or `"dominion"`.
        edition: Heart of Crown's `"2e"` (the default) or `"1e"`.
        rotate_seats: rotate the lineup by one seat each game.
        shuffle_seats: seat each game's lineup in an order drawn from its seed.
        mirror: play each game seed once with every rotation of the seats.
        overrides: card changes for this run, e.g. `["curse_witch.cost=6"]`.
        turn_cap: turns per player before a game stops as a draw (default: the game's own).
        validate: check the engine's invariants after every step (slower).
        jobs: worker processes.
        progress: announce a first compile on stderr, and show a progress bar on a terminal.
        **rules: the game's own rule options by their command-line names: Heart of Crown's
            `princesses` (the pool in backing order, a list or comma-separated), `instant_win_at_30`,
            `seating`; Dominion's `no_last_province_guard`.

    Returns:
        The games as a DataFrame (`.frame`) and their summary (`.summary`).

    Raises:
        HocError: a bad option or agent name, in one line naming it (with a did-you-mean), before
            any game is played.
    """
    from hoc.cli.options import game_defaults, ruleset_from_options
    from hoc.games import get
    from hoc.names import did_you_mean
    from hoc.research.harness import Backend, Plan, chunk_size
    from hoc.research.simulate import lineup, summarise

    spec = get(game)
    own = sorted(set(game_defaults()) - _SHARED)
    for key in rules:
        if key not in own:
            raise HocError(f"simulate() got an unknown option {key!r}{did_you_mean(key, own)}; the game options "
                           f"beyond its own arguments are {', '.join(own)}")
    seats = _seats(agents if agents is not None else spec.default_agent)
    options = {"players": players or (len(seats) if len(seats) > 1 else 2),
               "market": _joined(market), "override": list(overrides),
               **{k: _joined(v) for k, v in rules.items()}}
    if edition is not None:
        options["edition"] = edition
    if turn_cap is not None:
        options["turn_cap"] = turn_cap
    ruleset = ruleset_from_options(spec.name, options)
    plan = Plan(ruleset, lineup(seats, ruleset.players), games, seed, rotate_seats, mirror, validate,
                chunk=chunk_size(games), shuffle=shuffle_seats)
    backend = Backend(jobs)
    try:
        run = summarise(plan, backend, keep=True, progress=progress)
    finally:
        backend.close()
    return Results(run.games, Summary(run.summary))


def agent(name: str, game: str | None = None) -> Agent:
    """The agent a name names, as every command reads it: a library name (`hoc agents`), an agent
    file's path, `NAME+plan`, the search agent with its options, or a Python agent `module:function`.

    Args:
        name: the agent's name.
        game: when given, the agent must play this game (`"heart_of_crown"`, `"dominion"`).

    Returns:
        The `Agent`: its `name`, `description` and `game`; `agent.decide(g)` is the action it takes
        at the decision a `Game` waits for. Any agent argument of `simulate` takes it.
    """
    from hoc.agents.registry import get

    found = get(name)
    if game is not None and found.game not in (None, game):
        raise HocError(f"agent {found.name} plays {found.game}, not {game}; see `hoc agents --game {game}`")
    return found


def _seats(agents) -> list[str | Agent]:
    """The agents given, one entry a seat: a comma-separated string read as the command line reads it."""
    from hoc.agents.registry import split_names

    seats: list[str | Agent] = []
    for item in [agents] if isinstance(agents, (str, Agent)) else list(agents):
        if isinstance(item, str):
            seats.extend(split_names(item))
        elif isinstance(item, Agent):
            seats.append(item)
        else:
            raise HocError(f"an agent is a name or an Agent from hoc.agent(), got {type(item).__name__} {item!r}")
    if not seats:
        raise HocError("no agents given")
    return seats


def _joined(value):
    """A list of names as the command line writes it (`"a,b"`); anything else as it is."""
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else value
