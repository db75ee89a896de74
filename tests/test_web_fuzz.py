"""The web table's API fuzzed against its own OpenAPI schema (schemathesis, on Hypothesis): every route
with a bounded number of generated requests, valid and invalid, and a stateful run that creates games
and replays and follows the schema's links from them (the game's state, its actions, its saved file,
a replay's frames), so games are stepped too. Every answer must be no 5xx, carry a status the schema
lists for the route, a documented content type, and a body that matches the schema.

The served folder holds what the read-only routes read: a small Parquet run, a study folder with a
report, a table and a meta-game's results, and an agent file. Examples are derandomized, so a run in
CI tries the same requests every time."""
from __future__ import annotations

import shutil
import tempfile
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance, response_schema_conformance, status_code_conformance,
)



@schemathesis.check
def no_server_error_but_busy(ctx, response, case):
    """No 5xx, except the documented back-pressure of a route that queues work: a 503 with Retry-After
    and its {"error"} (more studies or reports asked for than may wait)."""
    if response.status_code == 503 and "503" in case.operation.responses.status_codes:
        headers = {k.lower(): v for k, v in response.headers.items()}
        assert headers.get("retry-after") and "error" in response.json(), "a 503 without Retry-After or its error"
        return None
    return not_a_server_error(ctx, response, case)


CHECKS = [no_server_error_but_busy, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES = 40            # per route; the stateful run below steps games through the links
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


SERVED = Path(tempfile.mkdtemp(prefix="hoc-fuzzed-"))       # the app reads it at request time: filled below


@pytest.fixture(scope="module", autouse=True)
def served():
    from hoc.cli.main import main as hoc
    from hoc.games.heart_of_crown.agents.library import BASIC_RUSH

    assert hoc(["simulate", "--agents", "basic_rush,senator_duke", "--games", "20", "--market", "basic",
                "--out", str(SERVED / "run.parquet")]) == 0
    study = SERVED / "study"
    study.mkdir()
    (study / "summary.md").write_text("# A study\n")
    (study / "table.csv").write_text("agent,rate\na,0.5\n")
    rows = ["players,market,lineup,agent,count,seats,wins,games"]
    for x, y, wins in (("a", "b", 70), ("a", "c", 40), ("b", "c", 55)):
        rows += [f"2,basic,{x}+{y},{x},1,100,{wins},100", f"2,basic,{x}+{y},{y},1,100,{100 - wins},100"]
    (study / "meta.csv").write_text("\n".join(rows) + "\n")
    (SERVED / "mine.toml").write_text(BASIC_RUSH)
    from hoc.web import limits

    bound, limits.MAX_STUDY_TOTAL_GAMES = limits.MAX_STUDY_TOTAL_GAMES, 100     # the studies fuzzed play little
    yield SERVED
    limits.MAX_STUDY_TOTAL_GAMES = bound
    shutil.rmtree(SERVED, ignore_errors=True)


def _schema():
    from hoc.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return schemathesis.openapi.from_asgi("/api/openapi.json", create_app(SERVED))


schema = _schema()


@schema.parametrize()
@FUZZ
def test_every_route_answers_generated_requests_as_its_schema_says_and_never_with_a_5xx(case):
    case.call_and_validate(checks=CHECKS)


def test_games_and_replays_created_and_stepped_through_the_schemas_links_answer_as_it_says():
    class Workflow(schema.as_state_machine()):
        steps = 0

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            Workflow.steps += 1
            case.validate_response(response, checks=CHECKS)

    Workflow.run(settings=settings(max_examples=25, stateful_step_count=12, deadline=None, derandomize=True,
                                   database=None, suppress_health_check=list(HealthCheck)))
    assert Workflow.steps > 50          # the links were followed: games and replays were made and stepped
