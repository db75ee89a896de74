"""What keeps the cold start short: one compiled version per kernel, no CPython wrappers on the
kernels only jitted code calls, and no invariant checks compiled into a plain run."""
from __future__ import annotations

import importlib
import pkgutil

import numpy as np
import pytest
from numba import njit, types
from numba.core.dispatcher import Dispatcher

import hoc
from hoc.game import Game
from hoc.kernel import constants as K
from hoc.kernel.state import card, load_u64
from hoc.kernel.zones import draw
from hoc.research import batch
from hoc.research.harness import Plan, play_rows
from hoc.research.simulate import lineup, simulate
from hoc.rules import Ruleset


def jitted_functions() -> list[Dispatcher]:
    """Every jitted function of the engine, the agents' policies and the batch loop."""
    names = [f"hoc.kernel.{m.name}" for m in pkgutil.iter_modules(hoc.kernel.__path__)]
    names += ["hoc.agents.policies", "hoc.agents.priority_kernel", "hoc.research.batch"]
    found = {}
    for name in names:
        for value in vars(importlib.import_module(name)).values():
            for d in value.values() if isinstance(value, dict) else [value]:
                if isinstance(d, Dispatcher):
                    found[id(d)] = d
    return list(found.values())


def test_a_kernel_compiles_one_version_for_literal_int32_and_int64_arguments():
    @njit
    def costs(s):
        # a literal field, an int32 card read from the state, an int64 card: one version of `card`
        return card(s, 0, K.F_COST) + card(s, s[K.H_CUR], K.F_SP) + card(s, np.int64(1), 2)

    costs(Game(Ruleset(players=2, market="basic"), seed=1).state)
    assert len(card.signatures) == 1
    assert card.signatures[0][1:] == (types.int64, types.int64)


def test_an_entry_called_from_python_with_int32_and_int_arguments_has_one_version():
    s = Game(Ruleset(players=2, market="basic"), seed=3).state
    assert load_u64(s, np.int32(K.H_SEED)) == load_u64(s, K.H_SEED)
    assert len(load_u64.signatures) == 1


def test_every_jitted_function_has_at_most_one_version_after_runs_and_a_python_game():
    rs = Ruleset(players=2)
    simulate(rs, lineup("basic_rush", 2), 20, seed=1)
    simulate(rs, lineup("senator_duke,random", 2), 20, seed=2, validate=True)
    game = Game(rs, seed=5)
    while not game.over:
        game.apply(game.legal_actions()[0])
    many = {d.py_func.__qualname__: d.signatures for d in jitted_functions() if len(d.signatures) > 1}
    assert not many


def test_calling_a_kernel_from_python_raises_a_type_error_naming_it():
    s = Game(Ruleset(players=2, market="basic"), seed=1).state
    with pytest.raises(TypeError, match=r"hoc\.kernel\.zones\.draw is a @kernel"):
        draw(s, 0, 1)


def typed_callees(loop) -> set[str]:
    """The jitted functions a fresh (uncached) compile of a batch loop types."""
    play_rows(Plan(Ruleset(players=2), lineup("basic_rush", 2), 1, validate=loop is batch.run_batch[True]), 0, 0)
    fresh = njit(loop.py_func)
    sig = loop.signatures[0]
    fresh.compile(sig)
    typemap = fresh.overloads[sig].type_annotation.typemap
    return {t.dispatcher.py_func.__name__ for t in typemap.values() if isinstance(t, types.Dispatcher)}


def test_the_plain_batch_loop_does_not_compile_the_invariant_checks():
    plain = typed_callees(batch.run_batch[False])
    assert "play_out" in plain
    assert not plain & {"play_checked", "card_totals"}
    assert {"play_checked", "card_totals"} <= typed_callees(batch.run_batch[True])
