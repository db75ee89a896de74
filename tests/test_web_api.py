"""The web table's HTTP API (`hoc serve`), driven in process by Starlette's test client: a game played
to its end through the API and saved as `hoc replay` reads it, the same view as `hoc play`, replays
of a saved game, a seed and a Parquet run, a run's summary and charts, a study folder, and the 4xx
answer to every kind of bad request, with the game left as it was."""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import warnings  # noqa: E402

with warnings.catch_warnings():           # Starlette's notice that its test client will move to httpx2
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from hoc.web.app import STATIC, create_app  # noqa: E402

BASIC = {"market": "basic", "turn_cap": 30}


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """The folder the server reads: a small Parquet run, a study folder and an agent file."""
    from hoc.cli.main import main as hoc

    folder = tmp_path_factory.mktemp("served")
    (folder / "runs").mkdir()
    assert hoc(["simulate", "--agents", "basic_rush,senator_duke", "--games", "40", "--seed", "2", "--market", "basic",
                "--rotate-seats", "--out", str(folder / "runs" / "small.parquet")]) == 0
    study = folder / "study"
    study.mkdir()
    (study / "summary.md").write_text("# A study\n\n| agent | rate |\n| --- | --- |\n| a | 0.5 |\n")
    (study / "table.csv").write_text("agent,rate,lo,hi\na,0.5,0.4,0.6\nb,,0.1,0.2\n")
    rows = ["players,market,lineup,agent,count,seats,wins,games"]     # a meta-game's results (hoc meta --save-matrix)
    for x, y, wins in (("a", "b", 70), ("a", "c", 40), ("b", "c", 55)):
        rows += [f"2,basic,{x}+{y},{x},1,100,{wins},100", f"2,basic,{x}+{y},{y},1,100,{100 - wins},100"]
    (study / "meta.csv").write_text("\n".join(rows) + "\n")
    from hoc.games.heart_of_crown.agents.library import BASIC_RUSH  # the built-in list as TOML

    (folder / "mine.toml").write_text(BASIC_RUSH)
    (tmp_path_factory.getbasetemp() / "outside.toml").write_text(BASIC_RUSH)
    return folder


@pytest.fixture(scope="module")
def client(root):
    return TestClient(create_app(root))


def new_game(client, agents=("human", "basic_rush"), **rules):
    r = client.post("/api/games", json={"agents": agents if isinstance(agents, str) else list(agents), **BASIC, **rules})
    assert r.status_code == 201, r.text
    return r.json()


def play_out(client, state, rng, seat=None):
    """Answer every human decision with a random legal action until the game ends."""
    while not state["over"]:
        a = rng.choice(state["view"]["actions"])
        r = client.post(f"/api/games/{state['id']}/actions", json={"action": a["action"], "decisions": state["decisions"]})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def test_a_game_plays_to_its_end_through_the_api_and_saves_for_hoc_replay(client, tmp_path):
    s = new_game(client, seed=4)
    assert s["humans"] == [0] and s["viewer"] == 0 and s["view"]["decider"] == 0
    assert s["feed"][0].startswith("Game 0 of run seed 4") and s["feed"][-1].startswith("Turn 1, seat 0 (human)")
    end = play_out(client, s, random.Random(1))
    assert end["result"]["over"] and end["view"]["actions"] == [] and end["view"]["question"] is None
    assert any(line.startswith("End after") for line in end["feed"])
    saved = client.get(f"/api/games/{s['id']}/saved")
    assert saved.status_code == 200 and "attachment" in saved.headers["content-disposition"]
    path = tmp_path / "game.json"
    path.write_bytes(saved.content)
    from hoc.research.replays import replay_saved

    r = replay_saved(path)                  # what `hoc replay FILE` tells, and it ends as the web game did
    assert r.game.over and [r.game.sp(j) for j in range(2)] == end["result"]["sp"]
    out = subprocess.run([sys.executable, "-m", "hoc", "replay", str(path)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-2].startswith("End after")


def test_the_view_is_what_the_seat_may_see_in_the_words_of_hoc_play(client):
    from hoc.cli.session import HUMAN  # noqa: F401  (the terminal's session shares the view module)
    from hoc.games.heart_of_crown import view

    s = new_game(client, seed=9)
    v = s["view"]
    me, other = v["seats"]
    assert me["you"] and me["hand_cards"] and other["hand_cards"] is None and other["deck_face_up"] is None
    assert sum(c["n"] for c in me["hand_cards"]) == me["hand"] == 5
    assert v["title"] == "Turn 1, your turn: seat 0 (human) decides, main phase"
    assert v["question"] == "Main phase: play cards"
    assert {a["label"] for a in v["actions"]} >= {"pass"} or v["actions"]
    assert all(set(p) == {"card", "name", "price", "left"} for p in v["market"])
    # the terminal table prints the same view (hoc.cli.session renders hoc.games.heart_of_crown.view)
    assert view.card_names.__module__ == "hoc.games.heart_of_crown.view"
    # the feed hides the other seat's drawn cards: it counts them
    s = play_out_until_turn(client, s, 3)
    assert any("Hand: 5 cards" in line for line in s["feed"] if "seat 1 (basic_rush)" in line)


def play_out_until_turn(client, s, turn):
    rng = random.Random(0)
    while not s["over"] and s["view"]["turn"] < turn:
        a = rng.choice(s["view"]["actions"])
        s = client.post(f"/api/games/{s['id']}/actions", json={"action": a["action"]}).json()
    return s


def test_bad_requests_get_a_clear_4xx_and_leave_the_game_unharmed(client, root):
    s = new_game(client, seed=5)
    gid = s["id"]
    before = client.get(f"/api/games/{gid}").json()
    legal = {a["action"] for a in s["view"]["actions"]}
    illegal = next(a for a in range(1000) if a not in legal)
    cases = [
        (f"/api/games/{gid}/actions", {"action": illegal}, 409, "not legal"),
        (f"/api/games/{gid}/actions", {"action": -1}, 409, "not legal"),
        (f"/api/games/{gid}/actions", {"action": 2 ** 70}, 409, "not legal"),
        (f"/api/games/{gid}/actions", {"action": "buy nothing at all"}, 409, "no action is called"),
        (f"/api/games/{gid}/actions", {"action": s["view"]["actions"][0]["action"], "seat": 1}, 409, "not to decide"),
        (f"/api/games/{gid}/actions", {"action": s["view"]["actions"][0]["action"], "decisions": 7}, 409, "moved on"),
        (f"/api/games/{gid}/actions", {"act": 3}, 422, "malformed request: action"),
        (f"/api/games/{gid}/actions", {"action": [1, 2]}, 422, "malformed request"),
        ("/api/games/0123456789abcdef/actions", {"action": 0}, 404, "no game"),
        ("/api/games", {"agents": ["human", "no_such_agent"]}, 400, "unknown agent"),
        ("/api/games", {"agents": ["human", "basic_rush"], "market": "nowhere"}, 400, "nowhere"),
        ("/api/games", {"agents": ["human"] * 5}, 422, "agents"),
        ("/api/games", {"agents": ["human", "os:system"]}, 400, "Python agents (module:function) play through"),
        ("/api/games", {"agents": ["human", "../outside.toml"]}, 403, "outside the folder"),
        ("/api/games", {"agents": ["human", "basic_rush"], "seed": -1}, 422, "seed"),
        ("/api/replays", {"saved": {"format": "something else"}}, 400, "not a game saved"),
        ("/api/replays", {"run": "../elsewhere.parquet", "game": 0}, 403, "outside"),
        ("/api/replays", {"run": "runs/small.parquet", "game": 999}, 400, "not in the run"),
    ]
    for url, body, status, words in cases:
        r = client.post(url, json=body)
        assert r.status_code == status and words in r.json()["error"], (url, body, r.status_code, r.text)
    r = client.post(f"/api/games/{gid}/actions", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "malformed" in r.json()["error"]
    r = client.post("/api/replays", content=b" " * 10_000_001, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "larger than" in r.json()["error"]
    for url, status in ((f"/api/games/{gid}?seat=1", 400), (f"/api/games/{gid}?seat=7", 400),
                        (f"/api/games/{gid}?since=99999", 400), ("/api/games/nope", 404),
                        ("/api/file?path=../outside.toml", 403), ("/api/file?path=/etc/passwd", 403),
                        ("/api/file?path=study/table.csv", 200), ("/api/run?path=study", 400),
                        ("/api/run/chart?path=runs/small.parquet&kind=pie", 404), ("/api/study?path=nowhere", 404),
                        ("/api/replays/nope/frames/0", 404), ("/api/games/x/saved", 404)):
        r = client.get(url)
        assert r.status_code == status, (url, r.text)
        if status >= 400:
            assert r.json()["error"]
    after = client.get(f"/api/games/{gid}").json()
    assert after == before                  # nothing refused touched the game
    a = s["view"]["actions"][0]
    ok = client.post(f"/api/games/{gid}/actions", json={"action": a["label"], "seat": 0, "decisions": 0})
    assert ok.status_code == 200 and ok.json()["decisions"] >= 1     # and it plays on


def test_play_all_through_the_api_ends_as_clicking_each_plain_play_does(client):
    a = next(s for seed in range(20) if (s := new_game(client, seed=seed))["play_all"])
    b = new_game(client, seed=a["seed"])
    offer = a["play_all"]
    assert offer["plays"] >= 2 and offer["text"].startswith("play all: ")
    r = client.post(f"/api/games/{a['id']}/play-all", json={"seat": 0, "decisions": 0})
    assert r.status_code == 200, r.text
    after = r.json()
    for _ in range(offer["plays"]):          # the same plays, clicked one by one
        play = next(x for x in b["view"]["actions"] if x["verb"] == "play")
        b = client.post(f"/api/games/{b['id']}/actions", json={"action": play["action"], "decisions": b["decisions"]}).json()
    assert after["decisions"] == b["decisions"] == offer["plays"]
    assert after["view"] == b["view"] and after["feed"] == b["feed"] and after["play_all"] is None
    assert not any(x["verb"] == "play" and x["card"] in {c["card"] for c in offer["cards"]}
                   for x in after["view"]["actions"])
    gid = a["id"]
    for body, status, words in (({}, 409, "nothing to play all"), ({"decisions": 0}, 409, "moved on"),
                                ({"seat": 1}, 409, "not to decide"), ({"seat": "0"}, 422, "seat"),
                                ({"all": True}, 422, "malformed")):
        r = client.post(f"/api/games/{gid}/play-all", json=body)
        assert r.status_code == status and words in r.json()["error"], (body, r.text)
    r = client.post("/api/games/0123456789abcdef/play-all", json={})
    assert r.status_code == 404 and "no game" in r.json()["error"]
    assert client.get(f"/api/games/{gid}").json()["decisions"] == after["decisions"]     # refusals changed nothing


def test_the_cards_route_gives_each_cards_face_from_the_card_data(client):
    s = new_game(client, seed=2)
    cards = client.get(f"/api/games/{s['id']}/cards").json()
    city, duchess = cards["city"], cards["gossip_loving_duchess"]
    assert city["types"] == ["territory"] and city["cost"] == 3 and city["rules"] == ""
    assert [(v["what"], v["n"]) for v in city["values"]] == [("links", 1), ("coins", 2)]
    assert duchess["types"] == ["succession", "attack"] and duchess["name"] == "Gossip-Loving Duchess"
    assert "[all opponents]" in duchess["rules"] and "cost 6" in duchess["summary"]
    assert "•" in cards["city_development"]["rules"] and cards["lulunasaika"]["types"] == ["princess"]


def test_agent_files_inside_the_root_and_the_search_agent_take_seats(client):
    s = new_game(client, agents="human,mine.toml,ismcts:iterations=8,c=1.2", seed=1)
    assert [x["agent"] for x in s["seats"]] == ["human", "mine", "ismcts:iterations=8,c=1.2"]
    assert len(s["view"]["seats"]) == 3


def test_hot_seat_shows_each_person_their_own_hand_at_their_own_decisions(client):
    s = new_game(client, agents="human,human", seed=2)      # agents as the command line's --agents reads them
    assert s["humans"] == [0, 1] and s["viewer"] == 0
    rng = random.Random(3)
    while s["view"]["decider"] == 0:
        s = client.post(f"/api/games/{s['id']}/actions", json={"action": rng.choice(s["view"]["actions"])["action"]}).json()
    assert s["viewer"] == 1 and s["view"]["seats"][1]["you"] and s["view"]["seats"][0]["hand_cards"] is None
    other = client.get(f"/api/games/{s['id']}?seat=0").json()
    assert other["view"]["actions"] == [] and other["view"]["seats"][1]["hand_cards"] is None
    table = client.get(f"/api/games/{s['id']}?seat=-1").json()
    assert all(x["hand_cards"] is None for x in table["view"]["seats"]) and table["view"]["actions"] == []


def test_games_of_agents_alone_play_out_at_once_and_show_the_table_view(client):
    s = new_game(client, agents=("basic_rush", "senator_duke"), seed=3)
    assert s["over"] and s["viewer"] == -1 and all(x["hand_cards"] is None for x in s["view"]["seats"])


def test_a_replay_of_a_saved_game_steps_through_every_decision_with_every_hand(client):
    s = play_out(client, new_game(client, seed=6), random.Random(2))
    saved = client.get(f"/api/games/{s['id']}/saved").json()
    r = client.post("/api/replays", json={"saved": saved})
    assert r.status_code == 201, r.text
    rep = r.json()
    assert rep["frames"] == len(saved["actions"]) + 1 and rep["result"] == saved["result"]
    assert rep["log"][-2].startswith("End after")
    first, last = (client.get(f"/api/replays/{rep['id']}/frames/{k}").json() for k in (0, rep["frames"] - 1))
    assert first["taken"]["action"] == saved["actions"][0] and last["taken"] is None and last["view"]["over"]
    assert all(x["hand_cards"] is not None for x in first["view"]["seats"])      # a replay shows every hand
    assert last["lines"] == len(rep["log"]) and first["lines"] < last["lines"]
    turns = [p["turn"] for p in rep["sp_by_turn"]]
    assert turns == sorted(turns) and rep["sp_by_turn"][-1]["sp"] == saved["result"]["sp"]
    broken = dict(saved, actions=saved["actions"][:3] + [99999])
    assert client.post("/api/replays", json={"saved": broken}).status_code == 400
    wrong = dict(saved, result=dict(saved["result"], sp=[99, 99]))
    assert client.post("/api/replays", json={"saved": wrong}).status_code == 422


def test_a_replay_of_a_seed_and_of_a_run_tells_what_hoc_replay_tells(client, root):
    from hoc.cli.options import GAME_OPTIONS  # noqa: F401
    from hoc.research.replays import replay, replay_run
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.research.simulate import lineup

    r = client.post("/api/replays", json={"agents": ["basic_rush", "senator_duke"], "seed": 11, "game": 2, **BASIC})
    assert r.status_code == 201, r.text
    rs = Ruleset(players=2, market="basic", turn_cap=30)
    assert r.json()["log"] == replay(rs, lineup("basic_rush,senator_duke", 2), 11, 2)
    r = client.post("/api/replays", json={"run": "runs/small.parquet", "game": 5})
    assert r.status_code == 201, r.text
    told = replay_run(root / "runs" / "small.parquet", 5).lines
    assert r.json()["log"] == told[:len(r.json()["log"])] and r.json()["result"]["over"]


def test_a_runs_summary_has_its_intervals_and_its_charts_are_pngs(client, root):
    listing = client.get("/api/results").json()
    assert listing["runs"] == ["runs/small.parquet"] and "study" in listing["studies"]
    s = client.get("/api/run", params={"path": "runs/small.parquet"}).json()
    assert s["games"] == 40 and s["agents"] == ["basic_rush", "senator_duke"]
    for r in s["win_rate_by_agent"] + s["win_rate_by_seat"]:
        assert 0 <= r["lo"] <= r["rate"] <= r["hi"] <= 1
    assert sum(r["wins"] for r in s["win_rate_by_agent"]) + s["draws"] + s["ties"] >= 40 - s["ties"]
    assert "play_seconds" not in s and set(s["charts"]) >= {"length", "winrates", "matrix"}
    for kind in s["charts"]:
        png = client.get("/api/run/chart", params={"path": "runs/small.parquet", "kind": kind})
        assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n", kind


def test_a_study_folder_shows_its_reports_tables_and_charts(client):
    s = client.get("/api/study", params={"path": "study"}).json()
    assert s["reports"] == ["study/summary.md"] and s["tables"] == ["study/meta.csv", "study/table.csv"]
    assert s["meta"] == ["study/meta.csv"]
    png = client.get("/api/study/meta", params={"path": "study/meta.csv"})
    assert png.status_code == 200 and png.content[:4] == b"\x89PNG"
    assert client.get("/api/study/meta", params={"path": "study/table.csv"}).status_code == 422
    t = client.get("/api/file", params={"path": "study/table.csv"}).json()
    assert t["columns"] == ["agent", "rate", "lo", "hi"] and t["rows"][1] == ["b", None, 0.1, 0.2]
    assert client.get("/api/file", params={"path": "study/summary.md"}).text.startswith("# A study")


def test_the_pages_and_their_assets_are_served_from_the_package_with_no_cdn(client):
    for page in ("/", "/play", "/replay", "/results", "/studies"):
        r = client.get(page)
        assert r.status_code == 200 and "<script" in r.text
    assets = sorted(p.name for p in STATIC.iterdir())
    assert {"style.css", "common.js", "play.js", "replay.js", "results.js", "chart.js", "studies.js"} <= set(assets)
    for name in assets:
        text = (STATIC / name).read_text()
        loads = re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//|url\(\s*["']?(?:https?:)?//|@import|"""
                           r"""fetch\(\s*["'`](?:https?:)?//|import\s*\(""", text)
        assert not loads, f"{name} loads something from the network: {loads}"
        assert client.get(f"/static/{name}").status_code == 200
    cards = client.get(f"/api/games/{new_game(client)['id']}/cards").json()
    assert all(set(c) == {"name", "text", "types", "cost", "values", "rules", "summary", "supply"}
               and c["text"].startswith(c["name"]) and c["types"] for c in cards.values())


def test_the_package_data_ships_the_web_assets():
    import tomllib
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
    assert pyproject["tool"]["setuptools"]["package-data"]["hoc.web"] == ["static/*"]
    extras = pyproject["project"]["optional-dependencies"]
    assert {e.split(">")[0] for e in extras["web"]} == {"fastapi", "uvicorn"}
    assert {"fastapi", "uvicorn", "httpx", "playwright"} <= {e.split(">")[0] for e in extras["test"]}


def test_hoc_serve_without_the_web_extra_says_how_to_install_it(monkeypatch, capsys):
    from hoc.cli.main import main

    monkeypatch.setitem(sys.modules, "fastapi", None)      # import fastapi raises ImportError
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == 'hoc: error: hoc serve needs the web extra: pip install -e ".[web]"'


def test_hoc_serve_refuses_a_bad_port_or_root_in_one_line(capsys, tmp_path):
    from hoc.cli.main import main

    assert main(["serve", "--port", "70000"]) == 2
    assert "--port must be 1 to 65535" in capsys.readouterr().err
    assert main(["serve", "--root", str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_the_server_answers_only_localhost_names_when_bound_to_localhost():
    from hoc.web.server import config

    app = config("127.0.0.1", 8000).app
    c = TestClient(app, base_url="http://127.0.0.1:8000")
    assert c.get("/api/options").status_code == 200
    assert TestClient(app, base_url="http://evil.example").get("/api/options").status_code == 400
    assert json.loads(c.get("/api/options").text)["max_seats"] == 4


def test_a_new_games_state_says_thinking_at_once_while_its_agent_compiles(root, monkeypatch):
    """An agent's first compile (a search: minutes on a cold cache of a busy machine) holds numba's
    process-wide compiler lock throughout, and the game's view kernels take the same lock when first read
    (compiled or loaded from the cache). The new game's view is read before its agents start, so neither
    the new game's answer nor its state waits for the agent's compile. Here the agent "compiles" until
    the test lets go, and the view takes the compiler lock on its first reading as a cold kernel does."""
    import threading
    import time

    from numba.core.compiler_lock import global_compiler_lock

    import hoc.agents.in_game as in_game
    import hoc.web.tables as tables

    compiling, compiled = threading.Event(), threading.Event()
    real_decide, real_view = in_game.decide, tables.seat_view

    def decide(*args):
        with global_compiler_lock:
            compiling.set()
            compiled.wait(60)
        return real_decide(*args)

    cold = [True]

    def seat_view(*args):
        if cold[0]:
            cold[0] = False
            compiling.wait(2)                   # read after the agent started (as it was): the lock is held
            with global_compiler_lock:
                pass
        return real_view(*args)

    client = TestClient(create_app(root))
    new_game(client)                            # the game's own kernels compiled first: only the agent's is timed
    monkeypatch.setattr(in_game, "decide", decide)
    monkeypatch.setattr(tables, "seat_view", seat_view)
    try:
        t = time.monotonic()
        s = new_game(client, agents=("basic_rush", "human"))
        assert s["thinking"] == 0 and time.monotonic() - t < 20
        assert compiling.wait(20)
        t = time.monotonic()
        s = client.get(f"/api/games/{s['id']}").json()
        assert s["thinking"] == 0 and s["decisions"] == 0 and time.monotonic() - t < 5
    finally:
        compiled.set()
    for _ in range(600):                        # the agent then plays its turn: the human seat decides
        if (s := client.get(f"/api/games/{s['id']}").json())["thinking"] is None:
            break
        time.sleep(0.1)
    assert s["thinking"] is None and s["view"]["actions"] and s["decisions"] > 0
