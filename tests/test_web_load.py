"""Load: 50 games at once through the web table's HTTP API on localhost, driven by a bounded client
(8 threads, a deadline, a cap on requests per game), end exactly as the same seeds played by `hoc
simulate` (the jitted batch): winners, SP, turns and end reason, game by game.

Half the games have agents in every seat (the server's workers play them out; the client asks again
while they think, as the play page does); in the other half
seat 0 is a `human` seat whose every decision the client takes over HTTP: it keeps its own copy of
the game (the same seed, the decisions the server reports), asks the agent that plays seat 0 in
the simulated run what it would do, and sends that. So the games are many at once, interleaved
request by request on one server, and each must still end as it does alone."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")

GAMES, SEED, AGENTS, MARKET = 50, 31, "basic_rush,senator_duke", "random"
THREADS, DEADLINE_S, MAX_REQUESTS = 8, 600, 3000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from hoc.web.server import Background

    s = Background(tmp_path_factory.mktemp("served"))
    # the first game compiles the Python Game's kernels when the cache is cold: not inside the timed run
    r = httpx.post(s.url + "/api/games", json={"agents": ["basic_rush", "basic_rush"], "market": "basic"}, timeout=900)
    assert r.status_code == 201, r.text
    yield s
    s.stop()


def expected():
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.research.simulate import lineup, simulate

    rs = Ruleset(players=2, market=MARKET)
    df = simulate(rs, lineup(AGENTS, 2), GAMES, seed=SEED, announce=False).games
    return rs, [{"mask": int(r.win_mask), "sp": [int(r.sp_0), int(r.sp_1)], "turns": int(r.turns),
                 "end_reason": str(r.end_reason)} for r in df.itertuples()]


def play(url: str, index: int, ruleset, deadline: float) -> dict:
    """Game `index` through the API; seat 0 scripted by the client in odd games."""
    from hoc.games.heart_of_crown.game import Game
    from hoc.research.harness import Plan
    from hoc.research.simulate import lineup

    scripted = index % 2 == 1
    agents = lineup(AGENTS, 2)
    plan = Plan(ruleset, agents, index + 1, SEED)
    names = ["human" if scripted else agents[0].name, agents[1].name]
    with httpx.Client(base_url=url, timeout=120) as c:
        r = c.post("/api/games", json={"agents": names, "seed": SEED, "game": index, "market": MARKET})
        assert r.status_code == 201, r.text
        s = settled(c, r.json(), deadline)
        mine = Game.of_run(ruleset, SEED, plan.seed_index(index))
        taken = 0
        for _ in range(MAX_REQUESTS):
            if s["over"]:
                break
            assert time.monotonic() < deadline, f"game {index}: past the deadline"
            actions = c.get(f"/api/games/{s['id']}/saved").json()["actions"]
            for a in actions[taken:]:         # the agent seat's decisions since, and ours
                mine.apply(a)
            taken = len(actions)
            assert mine.decider == s["view"]["decider"] == 0
            a = mine.decide(agents[0], plan.params[0])
            r = c.post(f"/api/games/{s['id']}/actions", json={"action": int(a), "seat": 0, "decisions": s["decisions"]})
            assert r.status_code == 200, r.text
            s = settled(c, r.json(), deadline)
        assert s["over"], f"game {index} did not end within {MAX_REQUESTS} requests"
    res = s["result"]
    return {"mask": sum(1 << w for w in res["winners"]), "sp": res["sp"], "turns": res["turns"],
            "end_reason": res["end_reason"]}


def settled(c, s: dict, deadline: float) -> dict:
    """The game's state once its agents have stopped thinking (asked again every 50 ms)."""
    while s["thinking"] is not None:
        assert time.monotonic() < deadline, f"game {s['id']}: still thinking at the deadline"
        time.sleep(0.05)
        r = c.get(f"/api/games/{s['id']}")
        assert r.status_code == 200, r.text
        s = r.json()
    return s


@pytest.mark.slow   # a load test: fifty games through a live server
def test_fifty_concurrent_games_through_the_api_end_as_hoc_simulate_plays_them(server):
    ruleset, want = expected()
    deadline = time.monotonic() + DEADLINE_S
    t0 = time.monotonic()
    with ThreadPoolExecutor(THREADS) as pool:
        got = list(pool.map(lambda i: play(server.url, i, ruleset, deadline), range(GAMES)))
    seconds = time.monotonic() - t0
    differ = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    assert not differ, f"{len(differ)} of {GAMES} games end otherwise than `hoc simulate`: {differ[:3]}"
    assert len({tuple(w["sp"]) for w in want}) > 5          # the games differ from each other
    print(f"{GAMES} games through the API in {seconds:.1f} s, all as `hoc simulate` plays them")
