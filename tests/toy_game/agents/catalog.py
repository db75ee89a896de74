"""Toy's agents as the registry reads them (`GameSpec.agents`): the library's priority lists, the
search presets, the search agent with options (`toy_search:iterations=32,rollout=toy_lab`) and a list
file (a TOML file saying `game = "toy"`)."""
from __future__ import annotations

from pathlib import Path

from hoc.agents.agent import LOCAL, Agent, Parser
from hoc.agents.ids import ISMCTS, PRIORITY
from toy_game.agents import bots, search

GAME = "toy"


def bot_agent(bot: bots.Bot) -> Agent:
    return Agent(bot.name, PRIORITY, bot.description or f"Toy list {bot.path}", bot.params, game=GAME)


def from_file(path: str | Path, data: dict | None = None) -> Agent:
    return bot_agent(bots.read(path, data))


def search_agent(spec: str, reach, get) -> Agent:
    opts = search.parse(spec, get)
    reach.budget(spec, opts.iterations)
    return Agent(spec, ISMCTS, search.describe(opts), lambda ruleset: search.row(opts, ruleset, get), game=GAME)


def library(get):
    for bot in bots.library().values():
        yield bot_agent(bot)
    for name in search.PRESETS:
        yield search_agent(name, LOCAL, get)


def population(ruleset, get) -> list[Agent]:
    """The meta-game's default population: the library's lists."""
    return [get(name) for name in bots.library()]


def opponents(ruleset) -> list[str]:
    return list(bots.library())


def row_kind(row) -> int:
    return PRIORITY


PARSERS = (Parser("Toy search agent", search.is_spec, search_agent, options=True),)


def annotate(name: str, edition: str) -> str:
    return ""
