"""Toy behind the engine's `GameSpec`: register it with `hoc.games.register("toy_game.spec")`.

A seat's score is its VP; its two extras are the Duchies it owned and the cards it owned at the end."""
from __future__ import annotations

import numpy as np

from hoc.engine.spec import GameSpec
from toy_game import observation
from toy_game.kernel import api
from toy_game.kernel.constants import END_REASONS, ERRORS, N_ACTIONS


def extra_columns(extras: np.ndarray, ruleset) -> dict:
    return {"duchies": extras[:, 0].astype(np.int8), "cards": extras[:, 1].astype(np.int16)}


GAME = GameSpec(
    name="toy", title="Toy", kernel=api, kernel_for=api.for_rules, default_agent="toy_big_money",
    n_actions=N_ACTIONS, observation=observation, score="vp", score_title="VP", extras=("duchies", "cards"),
    extra_columns=extra_columns, end_reasons=END_REASONS, errors=ERRORS,
    python_game="toy_game.game:Game", rules="toy_game.rules:Ruleset", rules_from_options="toy_game.rules:from_options",
    cli_options="toy_game.rules:add_options", deciders="toy_game.agents.policies",
    room="toy_game.agents.search:room", parameters="toy_game.agents.row:ROW", replay="toy_game.replay",
    commands="toy_game.commands", agents="toy_game.agents.catalog",
)
