"""What the shared layers know of a game: its `GameSpec`.

The loops, the research harness, the summaries and the environments never name a game's cards or
rules; they read the game's spec. A spec holds the game's jitted interface (`kernel`: the module of
`new_state`, `init_game`, `legal_actions`, `apply`, `check`, `record`, ...; `hoc.engine.loops` plays
it), what its result row means (the seat's score, the game's two extras per seat and how they read
as columns, the codes of how a game ends) and the size of its action space.
"""
from __future__ import annotations

import types
from dataclasses import dataclass, field
from typing import Callable, Mapping, Protocol


@dataclass(frozen=True)
class GameSpec:
    name: str                           # the games registry's key and `--game` value ("heart_of_crown")
    title: str                          # for people ("Heart of Crown")
    kernel: types.ModuleType            # the jitted interface (see the module docstring)
    # (ruleset vector, shared) -> the interface the loops of such a ruleset take: `kernel` or a variant
    # that compiles less (e.g. without another edition's routines); `shared` says the run's agents
    # call `kernel` themselves (a search or a look-ahead), so the loops had better share it
    kernel_for: Callable = field(repr=False)
    default_agent: str                  # the agent a command seats when none is named
    n_actions: int                      # size of the fixed action space (legal masks, the environments)
    observation: types.ModuleType       # what a seat sees: observe(s, seat, out), legal_mask(s, seat, out),
                                        # size(players), FIELDS (the environments)
    score: str                          # result column stem of a seat's final score ("sp": sp_0, sp_1, ...)
    score_title: str                    # its name for people ("SP")
    extras: tuple[str, ...]             # result column stems of the seat's extras (RES_EXTRA + i)
    # (extras rows of one seat (games, N_EXTRAS) int64, the ruleset) -> {stem: column}: the extras as
    # result columns (a code may read as a category, e.g. a card id as its name)
    extra_columns: Callable = field(repr=False)
    # "module:Class" of the game's Python `Game`: Game(ruleset, seed), .state, .over, .decider,
    # .is_legal(a), .apply(a), .legal_actions(), .label(a), .winners, .end_reason, .score(p),
    # .describe_seat(p) (named, not imported: the Python game reads the rules, which name the spec)
    python_game: str = ""
    # "module:Class" of the game's ruleset: Class(players=..., market=..., ...) with the game's own keywords
    rules: str = ""
    # "module:function" building the game's ruleset from the command line's game options:
    # function(options: dict, defaults: dict) -> Ruleset (an option equal to its default was not given)
    rules_from_options: str = ""
    # "module:function(parser)" adding the game's own command-line options ("" for none)
    cli_options: str = ""
    end_reasons: Mapping[int, str] = field(default_factory=dict)    # END code (result row) -> its name
    errors: Mapping[int, str] = field(default_factory=dict)         # a loop's or a check's error code -> message
    # the game's agent side, named (its agents read the rules, which name the spec):
    # "module" of its jitted deciders: `DECIDERS[variant]` (`hoc.agents.ids.Variant`), `decider(ids)`
    deciders: str = ""
    # "module:function(state, ids, rows) -> state": the state, or a longer copy with the room a lineup's
    # agents need beyond the game (a search's or a look-ahead's arena, networks' weights)
    room: str = ""
    # "module:name" of the table laying out its agents' parameter rows (`hoc.engine.rows.Row`)
    parameters: str = ""
    # "module" of its telling of a run's games: `tell(plan, index, decide, room)` -> (the telling, with
    # its `.lines`; the winner, -1 for none; each seat's score), `ruleset_of(recorded plan)` -> the
    # ruleset a run's manifest recorded
    replay: str = ""
    # what a preset or drawn supply of the game is called ("market"; Dominion's "kingdom")
    market_word: str = "market"
    # "module" of its own side of the shared commands: `cards(args)`, `tune(args)`, `play(args, ruleset,
    # agents)`, each returning the exit code (a command the module lacks is one the game does not have)
    commands: str = ""
    # the game's own studies that shared commands run: "princesses" (`hoc princesses`), "sp_curves"
    # (`hoc simulate --sp-curves`)
    studies: tuple[str, ...] = ()
    # "module" of its agent catalog, which the registry reads (`hoc.agents.registry`): `library(get)`
    # yields its named agents, `PARSERS` the kinds of name it reads (`hoc.agents.agent.Parser`),
    # `from_file(path, data)` reads an agent file whose `game` key names this game (or has none, for
    # the default game), `annotate(name, edition)` adds to a line of `hoc agents --edition`
    agents: str = ""
    # "module:Class" of its plan space for the strategy atlas (`hoc.agents.plan_space.Space`;
    # "" for a game without an atlas)
    atlas: str = ""


    def game_class(self):
        """The game's Python `Game` class (`python_game`)."""
        return _named(self.python_game)

    def ruleset(self, **options):
        """A ruleset of the game (`rules`), e.g. `ruleset(players=3, market="random")`."""
        return _named(self.rules)(**options)

    def ruleset_from(self, options: dict, defaults: dict):
        """The ruleset the command line's game options name (`rules_from_options`)."""
        return _named(self.rules_from_options)(options, defaults)

    def deciders_module(self) -> types.ModuleType:
        """The module of the game's jitted deciders (`deciders`)."""
        import importlib

        return importlib.import_module(self.deciders)

    def with_room(self, state, ids, rows):
        """`state`, or a longer copy with the room the lineup (agent ids, parameter rows) needs (`room`)."""
        return _named(self.room)(state, ids, rows)

    def replay_module(self) -> types.ModuleType:
        """The module telling the game's runs (`replay`)."""
        import importlib

        return importlib.import_module(self.replay)

    def commands_module(self) -> types.ModuleType:
        """The module of the game's side of the shared commands (`commands`)."""
        import importlib

        return importlib.import_module(self.commands)

    def catalog(self) -> types.ModuleType:
        """The module of the game's agent catalog (`agents`)."""
        import importlib

        return importlib.import_module(self.agents)

    def parameter_row(self):
        """The table of the game's agent parameter rows (`parameters`)."""
        return _named(self.parameters)

    def add_options(self, parser) -> None:
        """Add the game's own command-line options (`cli_options`)."""
        if self.cli_options:
            _named(self.cli_options)(parser)


def _named(path: str):
    """The object `module:name` names (a spec names its Python side, it does not import it: that side
    reads the rules, which name the spec)."""
    import importlib

    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class Ruleset(Protocol):
    """What the shared layers read of a game's ruleset (each game has its own class)."""

    game: GameSpec                      # the game these are rules of
    players: int
    edition: str                        # the game's edition or version label, recorded with results
    overrides: tuple[str, ...]          # card value changes, recorded with results
    market: object                      # the supply as given: "random", a preset's name or the kinds
    pool: list[int]                     # the card ids a seat may back as its princess ([]: none)

    @property
    def cards(self): ...                # the card database: .table (int32 card table), .name(id), len(),
                                        # .ids (card id by name), .kinds (the supply kinds' names by pile)

    @property
    def vector(self): ...               # the ruleset vector (int32), `hoc.engine.layout` R_*

    def describe(self) -> dict: ...     # the rules as a record (JSON-able; "game", "edition", "players",
                                        # "market", "overrides" and the game's own options), saved with runs
