"""Studies started from the web table (`POST /api/studies`, `hoc.web.studies`): a simulation, a round robin
and the princess study run as jobs on their own thread (a 202 at once, the progress, then the report in
the command's own words with the command that reproduces it, equal to what that command computes); every
bad request a 4xx {"error"} naming the problem, before anything is played; the bounds on agents, games,
waiting jobs and CPU."""
from __future__ import annotations

import threading
import time
import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from hoc.web import limits  # noqa: E402
from hoc.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    (folder / "mine.toml").write_text("not read\n")
    with TestClient(create_app(folder)) as c:
        yield c


def finished(client, job: dict, seconds: float = 600) -> dict:
    began = time.monotonic()
    while job["state"] in ("waiting", "running"):
        assert time.monotonic() - began < seconds, job
        time.sleep(0.2)
        job = client.get(f"/api/studies/{job['id']}").json()
    assert job["state"] == "done", job["error"]
    return job


def test_a_simulation_runs_as_a_job_and_reports_what_hoc_simulate_reports(client):
    from hoc.research.harness import Backend, Plan
    from hoc.research.simulate import lineup, summarise
    from hoc.games.heart_of_crown.rules import Ruleset

    r = client.post("/api/studies", json={"kind": "simulate", "agents": ["basic_rush", "senator_duke"], "games": 40,
                                          "market": "basic", "seed": 3})
    assert r.status_code == 202, r.text
    job = finished(client, r.json())
    assert job["done"] == job["total"] == 40 and job["progress"][-1] == "40 of 40 games played"
    assert job["command"] == ("hoc simulate --game heart_of_crown --players 2 --market basic --seed 3 "
                              "--agents basic_rush,senator_duke --games 40 --rotate-seats")
    plan = Plan(Ruleset(players=2, market="basic"), lineup("basic_rush,senator_duke", 2), 40, 3, True)
    same = summarise(plan, Backend(1), progress=False).summary
    assert job["data"]["win_rate_by_agent"] == same["win_rate_by_agent"]
    assert "basic_rush" in job["report"] and "[" in job["report"]            # rates with their intervals


def test_a_study_of_dominion_runs_through_the_same_routes(client):
    r = client.post("/api/studies", json={"kind": "simulate", "game": "dominion", "agents": ["dom_big_money", "dom_smithy_bm"],
                                          "games": 20, "market": "first_game"})
    assert r.status_code == 202, r.text
    job = finished(client, r.json())
    assert job["data"]["game"] == "dominion" and job["data"]["games"] == 20
    assert job["command"].startswith("hoc simulate --game dominion --players 2 --market first_game")


def test_a_tournament_runs_as_a_job_with_every_pairing(client):
    r = client.post("/api/studies", json={"kind": "tournament", "agents": ["basic_rush", "senator_duke", "curse_witch"],
                                          "games": 10, "market": "basic"})
    assert r.status_code == 202, r.text
    job = finished(client, r.json())
    assert job["total"] == 30 and job["data"]["games"] == 30
    assert {a["agent"] for a in job["data"]["agents"]} == {"basic_rush", "senator_duke", "curse_witch"}
    assert job["report"].startswith("round robin: 30 games") and "--games-per-pairing 10" in job["command"]


def test_the_princess_study_runs_for_heart_of_crown_and_is_refused_for_dominion(client):
    r = client.post("/api/studies", json={"kind": "princesses", "games": 30, "games_per_pair": 2})
    assert r.status_code == 202, r.text
    job = finished(client, r.json())
    assert job["total"] == 30 + 15 * 2 and job["report"].startswith("princesses: 30 games")
    r = client.post("/api/studies", json={"kind": "princesses", "game": "dominion"})
    assert r.status_code == 400 and "Dominion has no princesses" in r.json()["error"]
    options = client.get("/api/studies/options").json()
    assert "princesses" not in options["games"]["dominion"]["kinds"]
    assert "princesses" in options["games"]["heart_of_crown"]["kinds"]


@pytest.mark.parametrize("body, status, words", [
    ({"kind": "simulate", "agents": ["nobody"]}, 400, "'nobody' is not one of the agents"),
    ({"kind": "simulate", "agents": ["ismcts"]}, 400, "less the search agents"),
    ({"kind": "simulate", "agents": ["mine.toml"]}, 400, "'mine.toml' is not one of the agents"),
    ({"kind": "simulate", "agents": ["os:system"]}, 400, "'os:system' is not one of the agents"),
    ({"kind": "simulate", "agents": ["senator_duke"], "game": "dominion"}, 400, "study of Dominion"),
    ({"kind": "simulate", "agents": ["basic_rush"] * 3}, 400, "3 agents for 2 players"),
    ({"kind": "simulate", "market": "nowhere"}, 400, "nowhere"),
    ({"kind": "simulate", "game": "chess"}, 400, "no game 'chess'"),
    ({"kind": "tournament", "agents": ["basic_rush"]}, 400, "at least 2 different agents"),
    ({"kind": "tournament", "agents": ["basic_rush", "curse_witch", "senator_duke", "laolily_maids", "klam_discount",
                                       "court_politics"], "games": 20_000}, 400, "at most 40,000"),
    ({"kind": "princesses", "agents": ["basic_rush"]}, 400, "name no agents"),
    ({"kind": "simulate", "games": limits.MAX_STUDY_GAMES + 1}, 422, "games"),
    ({"kind": "simulate", "agents": ["basic_rush"] * 7}, 422, "agents"),
    ({"kind": "simulate", "players": 5}, 422, "players"),
    ({"kind": "simulate", "games": "10"}, 422, "games"),
    ({"kind": "meta"}, 422, "kind"),
    ({"kind": "simulate", "out": "runs/x.parquet"}, 422, "out"),
    ({"games": 10}, 422, "kind"),
])
def test_a_bad_study_request_is_a_clear_4xx_before_anything_is_played(client, body, status, words):
    r = client.post("/api/studies", json=body)
    assert r.status_code == status and words in r.json()["error"], r.text


def test_an_unknown_job_is_a_404(client):
    r = client.get("/api/studies/0123456789abcdef")
    assert r.status_code == 404 and "no job" in r.json()["error"]
    assert client.get("/api/studies/" + "x" * 41).status_code == 422


def test_jobs_past_the_waiting_bound_are_refused_with_a_503_and_a_job_stops_at_its_cpu_budget():
    from hoc.web.errors import Refused
    from hoc.web.jobs import Job, Jobs

    release = threading.Event()
    jobs = Jobs("studies", threading.Event(), seconds=600, waiting=1)
    held = [jobs.start(Job("simulate", "held", 1, "hoc simulate"), lambda job, told: ("", {"released": release.wait(30)}))
            for _ in range(2)]
    with pytest.raises(Refused, match="2 studies are running or waiting, at most 1 \\+ 1") as e:
        jobs.start(Job("simulate", "one more", 1, "hoc simulate"), lambda job, told: ("", {}))
    assert e.value.status == 503
    release.set()

    def spin(job, told):                # a job that keeps the CPU busy between its steps
        while True:
            end = time.thread_time() + 0.05
            while time.thread_time() < end:
                pass
            told(1)

    bounded = Jobs("studies", threading.Event(), seconds=0.2)
    job = bounded.start(Job("simulate", "endless", 10 ** 9, "hoc simulate --games 1000000000"), spin)
    began = time.monotonic()
    while job.state != "failed" and time.monotonic() - began < 30:
        time.sleep(0.05)
    assert job.state == "failed" and "stopped after 0.2 s of CPU" in job.error and "--games 1000000000" in job.error
    assert all(j.state in ("running", "done") for j in held)
