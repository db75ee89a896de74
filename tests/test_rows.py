"""Agent parameter rows are laid out in one table per game (`hoc.engine.rows`): no field a kind carries
overlaps another it carries, every field fits in the row, and every agent of the library writes its row
only into the fields its kind carries (a slot written outside them would be read by another kind, or
by nobody)."""
from __future__ import annotations

import numpy as np
import pytest

from hoc.agents import ids
from hoc.engine.layout import N_PARAMS
from hoc.engine.rows import Field, Row

KIND_NAMES = {ids.PRIORITY: "priority", ids.PLANNED: "planned", ids.ISMCTS: "search", ids.LEARNED: "learned"}


def test_two_fields_one_kind_carries_may_not_overlap():
    with pytest.raises(ValueError, match="overlap"):
        Row(10, [Field("a.x", 0, 3, kinds=("k",)), Field("b.y", 2, kinds=("k",))])
    Row(10, [Field("a.x", 0, 3, kinds=("k",)), Field("b.y", 2, kinds=("other",))])     # different kinds may share


def test_a_field_must_fit_in_the_row_and_be_carried():
    with pytest.raises(ValueError, match="not inside"):
        Row(10, [Field("a.x", 8, 3, kinds=("k",))])
    with pytest.raises(ValueError, match="no kind"):
        Row(10, [Field("a.x", 0)])


def test_a_scaled_field_stores_and_reads_back_its_value():
    row = Row(4, [Field("s.c", 1, scale=1000, kinds=("k",))])
    r = np.zeros(4, np.int32)
    row.store(r, "s.c", 1.25)
    assert r[1] == 1250 and row.read(r, "s.c") == 1.25


@pytest.mark.parametrize("game", ["heart_of_crown", "dominion"])
def test_every_library_agent_writes_its_row_only_into_the_fields_its_kind_carries(game):
    from hoc.agents.registry import of_game
    from hoc.games import get

    from hoc.cli.options import GAME_OPTIONS

    spec = get(game)
    table = spec.parameter_row()
    assert table.size == N_PARAMS
    ruleset = spec.ruleset_from(dict(GAME_OPTIONS), GAME_OPTIONS)
    checked = 0
    for name, agent in of_game(game).items():
        if agent.id not in KIND_NAMES or agent.game is None:
            continue
        row = agent.params(ruleset)
        allowed = np.zeros(N_PARAMS, bool)
        for f in table.carried(KIND_NAMES[agent.id]):
            allowed[f.offset:f.end] = True
        outside = np.flatnonzero((row != 0) & ~allowed)
        assert not len(outside), f"{name} writes slots {outside.tolist()} that its kind carries no field for"
        checked += 1
    assert checked > 5
