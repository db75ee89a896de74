"""The web table as an attacker on the same machine would try it (`hoc serve`, issue 51): what a request
names is data (no module imported, no file outside the served folder read or confirmed, nothing looked
up in the server's working folder), every malformed request a 4xx in the documented shape, bounded
bodies, replays and stores, and the agents thinking off the request path.

The server here runs in process (Starlette's test client) from a working folder of its own that holds
a Python module, a plan and a weight file, beside a served folder holding agent files of its own."""
from __future__ import annotations

import json
import sys

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import warnings  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from hoc.web import limits  # noqa: E402
from hoc.web.app import create_app  # noqa: E402

BASIC = {"market": "basic", "turn_cap": 30}
PROBE = "probe_mod_51"


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    """(served folder, working folder, a folder beside both) with their files."""
    from hoc.games.heart_of_crown.agents.learned import library
    from hoc.engine.weights import load
    from hoc.games.heart_of_crown.agents.library import BASIC_RUSH

    base = tmp_path_factory.mktemp("place")
    served, work, outside = base / "served", base / "work", base / "outside"
    for d in (served, work, outside, served / "plans"):
        d.mkdir()
    marker = base / "imported"
    (work / f"{PROBE}.py").write_text(f"open({str(marker)!r}, 'w').write('imported')\ndef play(game):\n    return 0\n")
    (work / "cwdplan.toml").write_text(BASIC_RUSH)
    (outside / "plan.toml").write_text(BASIC_RUSH)
    (outside / "secret.toml").write_text("[password]\nvalue = 'hunter2'\n")
    (served / "plans" / "mine.toml").write_text(BASIC_RUSH)
    (served / "link.toml").symlink_to(outside / "plan.toml")
    net = load(library()["learned_2p"])
    net.meta["model"] = f"{PROBE}:play"             # a weight file whose model list is Python code
    net.save(served / "evil.npz")
    net.save(work / "x.npz")
    return served, work, outside, marker


@pytest.fixture
def client(place, monkeypatch):
    served, work, _, _ = place
    monkeypatch.chdir(work)                  # the server started from another working folder
    monkeypatch.syspath_prepend(str(work))   # ... even with that folder on the Python path
    with TestClient(create_app(served)) as c:
        yield c


def post(client, url, body, **kw):
    return client.post(url, json=body, **kw)


def refused(r, status: int, *words: str) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    error = r.json()["error"]
    for w in words:
        assert w in error, error
    return error


def nothing_imported(place):
    assert PROBE not in sys.modules and not place[3].exists(), "a request made the server import a module"


# ---- agent specs are data -------------------------------------------------------------------------

@pytest.mark.parametrize("agent", [
    f"{PROBE}:play",                                          # a Python agent by name
    f"ismcts:iterations=2,rollout={PROBE}:play",              # ... as a search agent's rollout
    f"ismcts:iterations=2,net={PROBE}:play",                  # ... as its network
    "ismcts:iterations=2,net=evil.npz",                       # a weight file whose model list is Python code
    "evil.npz",                                               # ... played itself
    "evil.npz:temperature=1",
])
def test_no_request_imports_a_module_whatever_option_names_it(client, place, agent):
    r = post(client, "/api/games", {"agents": ["human", agent], **BASIC})
    assert 400 <= r.status_code < 500, r.text
    r = post(client, "/api/replays", {"agents": ["basic_rush", agent], **BASIC})
    assert 400 <= r.status_code < 500, r.text
    nothing_imported(place)


@pytest.mark.parametrize("form", ["{}", "ismcts:iterations=2,rollout={}", "{}+plan", "ismcts:iterations=2,rollout={}+plan"])
def test_an_agent_file_outside_the_served_folder_is_neither_read_nor_confirmed(client, place, form):
    served, work, outside, _ = place
    answers = []
    for target in (outside / "plan.toml", outside / "missing.toml", outside / "secret.toml"):
        for name in (str(target), f"../outside/{target.name}"):
            r = post(client, "/api/games", {"agents": ["human", form.format(name)], **BASIC})
            answers.append((r.status_code, r.json()["error"].replace(target.name, "X")))
            assert "hunter2" not in r.text and "password" not in r.text
    assert len(set(answers)) <= 2 and all(s == 403 for s, _ in answers), answers   # one answer (two spellings)


def test_a_symlink_out_of_the_served_folder_is_outside_it(client):
    refused(post(client, "/api/games", {"agents": ["human", "link.toml"], **BASIC}), 403, "outside")
    refused(post(client, "/api/games", {"agents": ["human", "ismcts:iterations=2,rollout=link.toml"], **BASIC}), 403)


@pytest.mark.parametrize("agent", ["cwdplan.toml", "cwdplan.toml+plan", "ismcts:iterations=2,rollout=cwdplan.toml",
                                   "x.npz", "ismcts:iterations=2,net=x.npz"])
def test_names_are_not_looked_up_in_the_servers_working_folder(client, place, agent):
    refused(post(client, "/api/games", {"agents": ["human", agent], **BASIC}), 404, f"in {place[0]}")


def test_agent_files_inside_the_served_folder_play_in_every_form(client):
    for agent in ("plans/mine.toml", "plans/mine.toml+plan", "ismcts:iterations=5,rollout=plans/mine.toml"):
        r = post(client, "/api/games", {"agents": ["human", agent], **BASIC})
        assert r.status_code == 201, r.text


def test_a_search_asking_more_iterations_than_the_web_allows_is_refused_naming_the_bound(client):
    too_many = limits.MAX_ITERATIONS + 1
    refused(post(client, "/api/games", {"agents": ["human", f"ismcts:iterations={too_many}"], **BASIC}), 400,
            f"{limits.MAX_ITERATIONS:,}")


def test_an_unknown_name_tells_nothing_of_the_working_folder(client):
    error = refused(post(client, "/api/games", {"agents": ["human", PROBE], **BASIC}), 400, "unknown agent")
    assert ".py" not in error and "this folder" not in error


# ---- every malformed request a 4xx in the documented shape ------------------------------------------

LONG = "a" * 300


@pytest.mark.parametrize("method,url,body", [
    ("get", f"/api/file?path={LONG}", None), ("get", f"/api/file?path=x/{LONG}.md", None),
    ("get", f"/api/run?path={LONG}", None), ("get", f"/api/run/chart?path={LONG}&kind=length", None),
    ("get", f"/api/study?path={LONG}", None), ("get", f"/api/study/meta?path={LONG}.csv", None),
    ("post", "/api/replays", {"run": LONG}), ("post", "/api/replays", {"run": f"x/{LONG}.parquet"}),
    ("post", "/api/games", {"agents": ["human", LONG[:250] + ".toml"]}),
    ("post", "/api/games", {"agents": ["human", "ismcts:rollout=" + LONG[:250] + ".toml"]}),
    ("post", "/api/games", {"agents": ["human", "d/" + LONG[:290] + ".npz"]}),
    ("post", "/api/games", {"agents": ["human", "x\x00.toml"]}), ("get", "/api/file?path=x%00.md", None),
])
def test_names_too_long_for_the_file_system_are_a_4xx(client, method, url, body):
    r = getattr(client, method)(url, **({"json": body} if body is not None else {}))
    assert 400 <= r.status_code < 500 and "error" in r.json(), r.text


def saved_game(client) -> dict:
    s = post(client, "/api/games", {"agents": ["basic_rush", "senator_duke"], **BASIC}).json()
    return client.get(f"/api/games/{s['id']}/saved").json()


@pytest.mark.parametrize("change", [
    {"result": None}, {"result": []}, {"result": "won"}, {"result": {"over": True}},
    {"rules.overrides": [1]}, {"rules.overrides": [None]}, {"rules.overrides": [["a"]]}, {"rules.overrides": "x"},
    {"rules.princesses": [3]}, {"rules.players": "2"}, {"rules.players": True}, {"rules.turn_cap": 2.5},
    {"rules.market": ["basic"]}, {"rules.edition": None}, {"rules": []}, {"rules.extra": 1},
    {"seats": [["a"], ["b"]]}, {"seats": "ab"}, {"seats": ["a"]}, {"seats": [1, 2]},
    {"actions": [True]}, {"actions": ["3"]}, {"actions": [-1]}, {"actions": [10 ** 9]}, {"actions": {}},
    {"seed": "7"}, {"seed": -1}, {"seed": 2 ** 70}, {"game": None}, {"game": True}, {"engine_version": 3},
    {"unknown": 1},
])
def test_a_tampered_saved_game_is_refused_in_one_line_by_the_web_and_by_hoc_replay(client, tmp_path, change):
    from hoc.cli.main import main as hoc

    data = saved_game(client)
    for path, value in change.items():
        *parents, key = path.split(".")
        target = data
        for p in parents:
            target = target[p]
        target[key] = value
    refused(post(client, "/api/replays", {"saved": data}), 400, "saved game")
    f = tmp_path / "game.json"
    f.write_text(json.dumps(data))
    assert hoc(["replay", str(f)]) == 2


def test_a_saved_game_with_decisions_after_its_end_is_refused(client, tmp_path, capsys):
    from hoc.cli.main import main as hoc

    data = saved_game(client)
    assert data["result"]["over"]
    data["actions"].append(data["actions"][-1])
    refused(post(client, "/api/replays", {"saved": data}), 400, "after its end")
    f = tmp_path / "game.json"
    f.write_text(json.dumps(data))
    assert hoc(["replay", str(f)]) == 2 and "after its end" in capsys.readouterr().err


@pytest.mark.parametrize("body,field", [
    ({"agents": ["human", "basic_rush"], "seed": "7"}, "seed"),
    ({"agents": ["human", "basic_rush"], "seed": True}, "seed"),
    ({"agents": ["human", "basic_rush"], "turn_cap": 30.0}, "turn_cap"),
    ({"agents": ["human", "basic_rush"], "instant_win_at_30": 1}, "instant_win_at_30"),
    ({"agents": [1, 2]}, "agents"),
    ({"agents": ["human", "basic_rush"], "turn_cap": limits.MAX_TURN_CAP + 1}, "turn_cap"),
])
def test_wrong_json_types_are_refused_not_coerced(client, body, field):
    refused(post(client, "/api/games", body), 422, field)


def test_an_action_of_the_wrong_type_is_refused_not_coerced(client):
    s = post(client, "/api/games", {"agents": ["human", "basic_rush"], **BASIC}).json()
    for action in (True, 1.0, None, {"a": 1}):
        refused(post(client, f"/api/games/{s['id']}/actions", {"action": action}), 422, "action")
    assert client.get(f"/api/games/{s['id']}").json()["decisions"] == s["decisions"]


def test_unknown_routes_methods_hosts_and_bodies_answer_in_the_documented_shape(client, place):
    refused(client.get("/api/nothing"), 404, "no page or route")
    refused(client.delete("/api/games"), 405, "DELETE")
    refused(client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"}), 422)
    refused(client.post("/api/games", content=b"\xff\xfe", headers={"content-type": "application/json"}), 422)
    with TestClient(create_app(place[0], allowed_hosts=["localhost"]), base_url="http://evil.example") as other:
        refused(other.get("/api/options"), 400, "Host")


def test_a_body_over_the_limit_is_refused_however_it_is_sent(client):
    big = b'{"saved": "' + b"x" * (limits.MAX_BODY + 10) + b'"}'
    refused(client.post("/api/replays", content=big, headers={"content-type": "application/json"}), 413, "larger")

    def chunks():                            # no Content-Length: chunked transfer
        for k in range(0, len(big), 1 << 20):
            yield big[k:k + (1 << 20)]

    refused(client.post("/api/replays", content=chunks(), headers={"content-type": "application/json"}), 413, "larger")

    def small():
        yield json.dumps({"agents": ["human", "basic_rush"], **BASIC}).encode()

    assert client.post("/api/games", content=small(), headers={"content-type": "application/json"}).status_code == 201


def test_the_openapi_schema_lists_every_status_a_route_answers(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    assert {"400", "404", "409", "422", "503"} <= set(paths["/api/games/{key}/actions"]["post"]["responses"])
    assert {"201", "400", "403", "404", "413", "422", "503"} <= set(paths["/api/replays"]["post"]["responses"])
    for route, methods in paths.items():
        for method, op in methods.items():
            assert "422" in op["responses"] or not op.get("parameters") and "requestBody" not in op, (route, method)


# ---- bounds ---------------------------------------------------------------------------------------

def test_a_replay_longer_than_the_bound_is_refused_naming_it(client, monkeypatch):
    data = saved_game(client)
    monkeypatch.setattr(limits, "MAX_DECISIONS", len(data["actions"]) - 1)
    refused(post(client, "/api/replays", {"saved": data}), 400, f"at most {len(data['actions']) - 1}")
    refused(post(client, "/api/replays", {"agents": ["basic_rush", "senator_duke"], **BASIC}), 413,
            f"{len(data['actions']) - 1:,} decisions")


def test_the_replays_kept_hold_at_most_their_bound_in_bytes_the_oldest_dropped():
    from hoc.research.simulate import resolve
    from hoc.web import replays
    from hoc.web.store import Store
    from hoc.web.tables import Setup

    plan, index = Setup(["basic_rush", "senator_duke"], market="basic", turn_cap=30).plan(resolve)
    f = replays.from_seed(plan, index)
    assert 0 < f.nbytes < 2_000_000 and len(f) > 50
    store = Store("replay", 100, max_bytes=3 * f.nbytes + 10, size=lambda x: x.nbytes)
    keys = [store.add(f) for _ in range(10)]
    assert len(store) == 3 and store.nbytes() <= 3 * f.nbytes + 10
    store.get(keys[-1])
    with pytest.raises(Exception, match="dropped"):
        store.get(keys[0])


def test_a_replays_frames_are_kept_compressed_and_read_back_whole(client):
    r = post(client, "/api/replays", {"agents": ["basic_rush", "senator_duke"], **BASIC})
    s = r.json()
    frames = [client.get(f"/api/replays/{s['id']}/frames/{k}").json() for k in (0, s["frames"] - 1)]
    assert frames[0]["frame"] == 0 and frames[1]["frame"] == s["frames"] - 1 and frames[1]["taken"] is None
    assert frames[0]["frames"] == s["frames"] and "view" in frames[0] and frames[1]["view"]["over"]


# ---- thinking off the request path ------------------------------------------------------------------

def test_a_game_can_be_read_while_its_search_agent_thinks_and_ends_as_when_played_at_once(client):
    from hoc.research.simulate import lineup, simulate
    from hoc.games.heart_of_crown.rules import Ruleset

    agents = ["ismcts:iterations=300", "basic_rush"]
    r = post(client, "/api/games", {"agents": agents, "market": "basic", "turn_cap": 8, "seed": 5})
    assert r.status_code == 201, r.text
    s, reads = r.json(), 0
    while s["thinking"] is not None:
        assert s["thinking"] == s["view"]["decider"] and not s["over"]
        s = client.get(f"/api/games/{s['id']}").json()      # answered while the agent thinks
        reads += 1
    assert s["over"]
    df = simulate(Ruleset(players=2, market="basic", turn_cap=8), lineup(",".join(agents), 2), 1, seed=5,
                  announce=False).games
    assert s["result"]["sp"] == [int(df.sp_0[0]), int(df.sp_1[0])] and s["result"]["turns"] == int(df.turns[0])


def test_an_agent_that_cannot_decide_stops_the_game_with_its_message_and_no_retry(client, monkeypatch):
    from hoc.errors import HocError
    from hoc.games.heart_of_crown.game import Game

    s = post(client, "/api/games", {"agents": ["human", "basic_rush"], **BASIC}).json()
    decide = Game.decide

    def fails(game, agent, params=None):
        raise HocError("this agent cannot decide here")

    monkeypatch.setattr(Game, "decide", fails)
    while s["view"]["decider"] == 0 and not s["over"]:      # up to the agent's first decision
        s = post(client, f"/api/games/{s['id']}/actions", {"action": s["view"]["actions"][0]["action"]}).json()
    assert s["thinking"] is None and s["stopped"] == "the agents stopped: this agent cannot decide here"
    assert client.get(f"/api/games/{s['id']}").json()["stopped"] == s["stopped"]
    monkeypatch.setattr(Game, "decide", decide)
    refused(post(client, f"/api/games/{s['id']}/actions", {"action": 0}), 409, "cannot decide here")


def test_the_workers_refuse_a_job_past_their_queue_with_a_503(monkeypatch):
    import threading

    from hoc.web.workers import Busy, Workers

    w, gate = Workers(workers=1, waiting=1), threading.Event()
    w.submit(gate.wait)
    w.submit(gate.wait)
    with pytest.raises(Busy, match="busy"):
        w.submit(gate.wait)
    gate.set()
    w.shutdown()


def test_a_run_whose_manifest_or_part_links_out_of_the_served_folder_is_refused(client, place):
    import shutil

    from hoc.cli.main import main as hoc

    served, _, outside, _ = place
    run = served / "linked.parquet"
    if not run.exists():
        assert hoc(["simulate", "--agents", "basic_rush", "--games", "10", "--market", "basic", "--out",
                    str(outside / "real.parquet")]) == 0
        run.mkdir()
        for f in (outside / "real.parquet").iterdir():
            (run / f.name).symlink_to(f)            # every file of the run lives outside
        shutil.copytree(outside / "real.parquet", served / "half.parquet")
        part = next((served / "half.parquet").glob("part-*.parquet"))
        part.unlink()
        part.symlink_to(next((outside / "real.parquet").glob("part-*.parquet")))
    for name in ("linked.parquet", "half.parquet"):
        refused(client.get("/api/run", params={"path": name}), 403, "outside")
        refused(post(client, "/api/replays", {"run": name, "game": 0}), 403, "outside")
