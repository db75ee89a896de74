"""The library of plans found by `hoc tune` (agents/heart_of_crown/tuned/): each is an agent every command accepts,
says how it was found and how it was validated, and a per-princess plan backs its princess first."""
from __future__ import annotations

import re

import pytest

from hoc.games.heart_of_crown.agents import priority
from hoc.agents.registry import AGENTS, get
from hoc.games.heart_of_crown.agents.catalog import TUNED, archetypes
from hoc.games.heart_of_crown.agents.genome import from_text, load
from hoc.games.heart_of_crown.rules import Ruleset

FILES = sorted(TUNED.glob("*.toml"))
PRINCESSES = ("lulunasaika", "laolily", "klam_klam", "bergamot", "flammaria", "twins")


def test_the_library_holds_plans():
    assert FILES, "agents/heart_of_crown/tuned/ is empty"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_tuned_plan_names_the_command_that_found_it_and_its_validation(path):
    text = path.read_text(encoding="utf-8")
    assert re.search(r"^# Written by `hoc tune .*--out \S+`", text, re.M), "no hoc tune command in the header"
    assert re.search(r"^# (Validation|Head to head).*\d+\.\d% \[\d+\.\d, \d+\.\d\]", text, re.M), \
        "no validation figure with its interval in the header"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_tuned_plan_is_an_agent_by_name_and_round_trips_as_a_genome(path):
    agent = get(path.stem)
    assert agent is AGENTS[path.stem] and agent.play is None
    rules = Ruleset(players=2, edition="1e" if "_1e_" in path.stem else "2e")
    plan = load(path)
    assert (from_text(plan.toml()).params(rules) == agent.params(rules)).all()


@pytest.mark.parametrize("princess", [p for p in PRINCESSES if (TUNED / f"tuned_{p}_2p.toml").exists()])
def test_a_per_princess_plan_backs_its_princess_first(princess):
    spec = priority.parse(TUNED / f"tuned_{princess}_2p.toml")
    assert spec.prefer[0] == princess


@pytest.mark.parametrize("princess,players", [(p, n) for p in PRINCESSES for n in (2, 3, 4)
                                               if (TUNED / f"tuned_{p}_1e_{n}p.toml").exists()])
def test_a_per_princess_1e_plan_backs_its_princess_first_and_binds_under_1e_at_its_table_size(princess, players):
    spec = priority.parse(TUNED / f"tuned_{princess}_1e_{players}p.toml")
    assert spec.prefer[0] == princess
    get(f"tuned_{princess}_1e_{players}p").params(Ruleset(players=players, edition="1e"))


def test_tuned_plans_are_not_among_the_hand_written_archetypes():
    names = {a.name for a in archetypes()}
    assert "basic_rush" in names and not {p.stem for p in FILES} & names
