"""Dominion's agents as the registry reads them (`GameSpec.agents`): the bots of its library (buy
menus as data, `hoc.games.dominion.agents.bots`), the search presets after them (their rollouts name a
bot), the search agent with options (`dom_search:iterations=800,rollout=dom_smithy_bm`), and a bot
file (a TOML file saying `game = "dominion"`)."""
from __future__ import annotations

from pathlib import Path

from hoc.agents.agent import LOCAL, Agent, Lookup, Parser, Reach
from hoc.agents.ids import ISMCTS, PRIORITY
from hoc.games.dominion.agents import bots, search

GAME = "dominion"


def bot_agent(bot: bots.Bot) -> Agent:
    return Agent(bot.name, PRIORITY, bot.description or f"Dominion bot {bot.path}", bot.params, game=GAME)


def from_file(path: str | Path, data: dict | None = None) -> Agent:
    """A bot from its TOML file (`data`: the file as the registry read it; the bot parser reads it again)."""
    return bot_agent(bots.parse(path))


def search_agent(spec: str, reach: Reach, get: Lookup) -> Agent:
    """The search agent of a spec (`dom_search[:iterations=...,rollout=BOT,c=...,questions=1]`)."""
    opts = search.parse(spec, get)
    reach.budget(spec, opts.iterations)
    return Agent(spec, ISMCTS, search.describe(opts), lambda ruleset: search.row(opts, ruleset, get), game=GAME)


def library(get: Lookup):
    """The named agents: the library's bots, the imported bots, then the search presets."""
    for bot in (*bots.library().values(), *bots.imported().values()):
        yield bot_agent(bot)
    for name in search.PRESETS:
        yield search_agent(name, LOCAL, get)


def population(ruleset, get: Lookup) -> list[Agent]:
    """The meta-game's default population: the library's bots and search presets."""
    return [get(name) for name in (*bots.library(), *search.PRESETS)]


def opponents(ruleset) -> list[str]:
    """Whom a tuned bot is measured against unless told: the library's bots."""
    return list(bots.library())


def row_kind(row) -> int:
    """The kind of agent a tuned candidate's parameter row plays as: a bot's buy menu."""
    return PRIORITY


PARSERS = (Parser("Dominion search agent", search.is_spec, search_agent, options=True),)


def annotate(name: str, edition: str) -> str:
    """Nothing: a Dominion bot reads the same under every version."""
    return ""
