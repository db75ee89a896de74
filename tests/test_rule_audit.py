"""The audit of the balance study's rule search (`hoc.games.heart_of_crown.studies.rule_audit`):
every plan the search considers played on common seeds with no culling, and the best rechecked on
fresh seeds. The start plan here is the plain `tuned_general_2p` list, so no test compiles the planner."""
from __future__ import annotations

import json

import numpy as np
import pytest

from hoc.agents.tune import evaluate
from hoc.errors import HocError
from hoc.games.heart_of_crown.agents.priority import list_id
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.games.heart_of_crown.studies import card_value as cv
from hoc.games.heart_of_crown.studies import rule_audit as ra
from hoc.research.harness import Backend

START = cv.Tuning(start="tuned_general_2p")


@pytest.fixture(scope="module")
def margrave(margrave_rule_plans):
    rs, without, banned, pool, cards = margrave_rule_plans
    return rs, without, banned, pool


def test_per_seed_plays_the_first_round_of_a_race_on_the_same_seeds(margrave, warm_kernels):
    """Each candidate's per-seed shares add up to the wins a race's first round counts for it."""
    rs, _, banned, pool = margrave
    rows, row = np.stack(pool.rows[:6]), banned.params(rs)
    share = evaluate.per_seed(rs, rows, row, list_id(row), 17, 10, Backend())
    race = evaluate.race(rs, rows, row[None, :], np.array([list_id(row)], np.int32), 17, Backend(), seeds=10, keep=6)
    assert share.shape == (6, 10) and set(np.unique(share)) <= {0.0, 0.5, 1.0}
    assert (share.sum(1) * rs.players == race.wins[:, 0]).all() and (race.games[:, 0] == 20).all()


def test_a_plan_equal_to_its_opponent_wins_an_even_share_of_every_seed(margrave, warm_kernels):
    """Seats mirrored on one seed deal the same game twice: the same plan in both seats wins one."""
    rs, _, banned, _ = margrave
    row = banned.params(rs)
    share = evaluate.per_seed(rs, row[None, :], row, list_id(row), 3, 40, Backend())
    assert (share == 0.5).all()


@pytest.fixture(scope="module")
def audit(warm_kernels):
    return ra.audit(Ruleset(players=2), "margrave", START, seeds=6, recheck=2, recheck_seeds=10, seed=4)


def test_the_audit_plays_every_plan_of_the_rule_search_best_first(audit, margrave):
    _, _, _, pool = margrave
    assert len(audit.plans) == len(pool.plans) > 100
    assert list(audit.plans.value) == sorted(audit.plans.value, reverse=True)
    assert set(audit.plans.plan) >= {"no rule", f"margrave (always) at 1 of {len(pool.plans[0].buy) + 1}"}
    assert (audit.plans.lo <= audit.plans.value).all() and (audit.plans.value <= audit.plans.hi).all()
    assert audit.games == len(pool.plans) * 6 * 2 + 2 * 10 * 2


def test_the_audit_rechecks_only_plans_whose_rule_changed_a_result(audit):
    """A rule that never fires plays the banned plan's games (an even share on every seed): rechecking
    it would only read 0 again, so the rechecks are the best plans with uneven results."""
    fired = audit.plans[audit.plans.uneven > 0]
    assert [p for p, _ in audit.rechecks] == list(fired.plan[:2])
    assert (audit.plans[audit.plans.uneven == 0].value == 0).all()
    for _, v in audit.rechecks:
        assert v.seeds == 10 and v.games == 20 and v.kind == "margrave"
    best_plan, best = audit.best_recheck
    assert best.value == max(v.value for _, v in audit.rechecks) and best.bought > 0   # its plans buy Margraves


@pytest.mark.parametrize("kwargs,named", [({"seeds": 1}, "--seeds"), ({"recheck_seeds": 1}, "--recheck-seeds"),
                                          ({"recheck": 0}, "--recheck")])
def test_the_audit_refuses_too_few_seeds_or_rechecks_naming_the_option(kwargs, named):
    with pytest.raises(HocError, match=named):
        ra.audit(Ruleset(players=2), "margrave", START, **kwargs)


def test_the_audit_study_writes_every_plan_and_resumes_without_playing(tmp_path, monkeypatch, warm_kernels):
    from experiments import rule_audit

    argv = ["--games", "4", "--recheck", "1", "--recheck-seeds", "4", "--cards", "margrave", "--start",
            "tuned_general_2p", "--jobs", "1", "--out", str(tmp_path)]
    summary = rule_audit.main(argv)
    assert summary == tmp_path / "summary.md" and "python -m experiments.rule_audit" in summary.read_text()
    saved = json.loads((tmp_path / "audits" / "margrave.json").read_text())
    assert saved["audit"]["plans"] > 100 and len(saved["audit"]["rechecks"]) == 1
    assert (tmp_path / "plans" / "margrave.csv").read_text().startswith("plan,value,lo,hi,uneven")

    def played(*args, **kwargs):
        raise AssertionError("a finished kind was audited again")
    monkeypatch.setattr(ra, "audit", played)
    rule_audit.main(argv)                                       # resumes: every kind is read from audits/
    assert "| margrave | " in summary.read_text()
