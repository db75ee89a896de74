"""The engine's one loop factory: every game loop is made by `hoc.engine.loops.game_loops`, a run of
the 2nd edition compiles none of the 1st edition's own routines yet plays the same games, and loops
made at run time load from numba's cache in a new process."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from numba import njit, types

from hoc.games.heart_of_crown.agents import policies
from hoc.research.simulate import lineup
from hoc.engine import layout as L
from hoc.engine.loops import game_loops
from hoc.games.heart_of_crown.kernel import api
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research import batch

ROOT = Path(__file__).resolve().parent.parent


def _rows(rules, ruleset, names, games, seed):
    agents = lineup(names, ruleset.players)
    ids = np.array([a.id for a in agents], L.DTYPE)
    params = np.stack([a.params(ruleset) for a in agents])
    loop = batch._batch(game_loops(rules, policies), False)
    out = np.zeros((games, L.RES_LEN), L.DTYPE)
    coverage = np.zeros((len(ruleset.cards), L.N_STATS), np.int64)
    seats = np.tile(np.arange(ruleset.players, dtype=L.DTYPE), (games, 1))
    s = batch.state_for(ruleset, ids, params)
    nc = len(ruleset.cards)
    loop(np.int64(seed), 0, s, ids, params, seats, 1, out, coverage, np.zeros(nc, L.DTYPE), np.zeros(nc, L.DTYPE))
    return out, coverage


def test_the_second_editions_own_interface_plays_the_same_games_as_the_one_for_both_editions():
    rs = Ruleset(players=2)
    for names in ("curse_witch,draw_engine", "attack_deck,tuned_general_2p"):
        whole = _rows(api, rs, names, 300, 41)
        second = _rows(api.SECOND_EDITION, rs, names, 300, 41)
        assert np.array_equal(whole[0], second[0]) and np.array_equal(whole[1], second[1])
        assert (whole[1][:, L.ST_PLAYED] > 0).sum() > 10       # the games played many card texts


def test_a_ruleset_takes_the_second_editions_interface_unless_its_agents_share_the_whole_one():
    assert Ruleset(players=2).game.kernel_for(Ruleset(players=2).vector, False) is api.SECOND_EDITION
    assert Ruleset(players=2).game.kernel_for(Ruleset(players=2).vector, True) is api
    first = Ruleset(players=2, edition="1e")
    assert first.game.kernel_for(first.vector, False) is api


def test_loops_are_made_once_per_rules_deciders_and_variant():
    from hoc.agents.ids import Variant

    assert game_loops(api, policies) is game_loops(api, policies, Variant(False, False, False))
    assert game_loops(api, policies, Variant(search=True)) is not game_loops(api, policies)
    assert game_loops(api.SECOND_EDITION, policies) is not game_loops(api, policies)
    assert game_loops(api, policies).__name__ in sys.modules


SCRIPT = """
import numpy as np
from numba import njit, types
import hoc
from hoc.research.simulate import lineup
from hoc.env.vector import VecHoc
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research import batch
from hoc.research.harness import Plan
from hoc.research.rows import play_rows

rs = Ruleset(players=2, edition={edition!r})
plan = Plan(rs, lineup("basic_rush,curse_witch", 2), 20, seed=5)
play_rows(plan, 0, 20)
vec = VecHoc(4, opponents="basic_rush", edition={edition!r}, seed=1)
vec.reset()
from hoc.agents import ids
made = [d for d in ids._BUILT.values() if hasattr(d, "stats")] + [vec.loops.vec_reset, vec.loops.vec_step]
print(sum(sum(d.stats.cache_misses.values()) for d in made))
"""


def _run(edition):
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(edition=edition)], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600)
    assert out.returncode == 0, out.stderr
    return int(out.stdout)


def test_loops_made_at_run_time_load_from_the_cache_in_a_new_process():
    for edition in ("2e", "1e"):
        _run(edition)                           # compiles what the cache may lack
        assert _run(edition) == 0               # a loop holding a compiled function would compile again


def _callees(dispatcher) -> set[str]:
    """The jitted functions a fresh compile of `dispatcher` calls."""
    fresh = njit(dispatcher.py_func)
    sig = (types.int32[::1], types.int64, types.int64)
    fresh.compile(sig)
    typemap = fresh.overloads[sig].type_annotation.typemap
    return {t.dispatcher.py_func.__name__ for t in typemap.values() if isinstance(t, types.Dispatcher)}


def test_the_second_editions_chain_reaches_none_of_the_first_editions_own_routines():
    from hoc.games.heart_of_crown.kernel import turn

    assert _callees(turn.SECOND_EDITION.dispatch) == {"dispatch"}       # the 2nd edition's routines only
    assert _callees(turn.ALL_EDITIONS.dispatch) == {"dispatch", "dispatch_1e"}
