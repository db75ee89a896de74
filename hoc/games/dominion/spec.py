"""Dominion behind the engine's `GameSpec`: its jitted interface, deciders and what its results mean.

A seat's score is its VP; its two extras are the Provinces and the Curses it owned at the end."""
from __future__ import annotations

import numpy as np

from hoc.engine.spec import GameSpec
from hoc.games.dominion import observation
from hoc.games.dominion.kernel import api
from hoc.games.dominion.kernel.constants import END_REASONS, N_ACTIONS
from hoc.games.dominion.kernel.invariants import ERRORS


def extra_columns(extras: np.ndarray, ruleset) -> dict:
    return {"provinces": extras[:, 0].astype(np.int8), "curses": extras[:, 1].astype(np.int8)}




GAME = GameSpec(name="dominion", title="Dominion", kernel=api, kernel_for=api.for_rules,
                default_agent="dom_big_money", n_actions=N_ACTIONS, observation=observation,
                score="vp", score_title="VP", extras=("provinces", "curses"), extra_columns=extra_columns,
                end_reasons=END_REASONS, errors=ERRORS, python_game="hoc.games.dominion.game:Game",
                rules="hoc.games.dominion.rules:Ruleset", rules_from_options="hoc.games.dominion.rules:from_options", cli_options="hoc.games.dominion.rules:add_options",
                deciders="hoc.games.dominion.agents.policies", room="hoc.games.dominion.agents.search:room",
                parameters="hoc.games.dominion.agents.row:ROW",
                agents="hoc.games.dominion.agents.catalog",
                replay="hoc.games.dominion.replay", commands="hoc.games.dominion.commands", atlas="hoc.games.dominion.agents.atlas:Space", market_word="kingdom")
