"""Heart of Crown behind the engine's `GameSpec`: its jitted interface and what its results mean.

A seat's score is its SP; its two extras are the princess it backed (a category of the princess
pool's names, '' for none) and the turn it backed her (0: never)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from hoc.engine.spec import GameSpec
from hoc.games.heart_of_crown import observation
from hoc.games.heart_of_crown.kernel import api
from hoc.games.heart_of_crown.kernel.constants import END_REASONS, N_ACTIONS
from hoc.games.heart_of_crown.kernel.invariants import ERRORS

_PRINCESS_TYPES: dict = {}


def princess_type(ruleset) -> tuple[pd.CategoricalDtype, np.ndarray]:
    """The category type of the princess columns ('' then the pool's names) and a map from princess
    card id (-1: none, the last entry) to its category code, made once per pool."""
    db = ruleset.cards
    key = (ruleset.edition, tuple(int(k) for k in ruleset.pool), tuple(ruleset.overrides))
    if key not in _PRINCESS_TYPES:
        code = np.zeros(len(db) + 1, np.int64)
        for i, k in enumerate(ruleset.pool):
            code[k] = i + 1
        _PRINCESS_TYPES.clear()             # one ruleset at a time in practice: keep it small
        _PRINCESS_TYPES[key] = (pd.CategoricalDtype([""] + [db.name(k) for k in ruleset.pool]), code)
    return _PRINCESS_TYPES[key]


def extra_columns(extras: np.ndarray, ruleset) -> dict:
    dtype, code = princess_type(ruleset)
    return {"princess": pd.Categorical.from_codes(code[extras[:, 0]], dtype=dtype),
            "backed_turn": extras[:, 1].astype(np.int16)}




GAME = GameSpec(name="heart_of_crown", title="Heart of Crown", kernel=api, kernel_for=api.for_rules,
                default_agent="basic_rush", n_actions=N_ACTIONS,
                observation=observation, score="sp", score_title="SP", extras=("princess", "backed_turn"), extra_columns=extra_columns,
                end_reasons=END_REASONS, errors=ERRORS, python_game="hoc.games.heart_of_crown.game:Game",
                rules="hoc.games.heart_of_crown.rules:Ruleset", rules_from_options="hoc.games.heart_of_crown.rules:from_options",
                cli_options="hoc.games.heart_of_crown.rules:add_options",
                deciders="hoc.games.heart_of_crown.agents.policies", room="hoc.games.heart_of_crown.agents.search:reserve",
                parameters="hoc.games.heart_of_crown.agents.row:ROW",
                agents="hoc.games.heart_of_crown.agents.catalog",
                replay="hoc.games.heart_of_crown.replay", commands="hoc.games.heart_of_crown.commands", atlas="hoc.games.heart_of_crown.agents.atlas:Space", studies=("princesses", "sp_curves", "card_value"))
