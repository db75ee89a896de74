"""`hoc market`: one supply's report on a tiny budget in both games (its parts, its JSON), a dominant
deck detected and two equal decks not called dominant, percentiles against a small baseline and the
baseline's resumption, bad supplies refused in one line, the web page, and `hoc balance` / `hoc
princesses` on Dominion."""
from __future__ import annotations

import json
import math
import time

import numpy as np
import pytest

from hoc.cli.main import main
from hoc.research import market as mk
from hoc.research.harness import Backend
from hoc.research.market import baseline as bl
from hoc.research.market import decks, percentiles

SERIAL = Backend(1)
TINY = mk.Budget(iterations=1, emitters=1, batch=4, seeds=2, remeasure_seeds=4, polish=2, polish_iterations=2, top=2,
                 pair_seeds=4, select_seeds=1, princess_seeds=3)
TINY_FLAGS = ["--iterations", "1", "--remeasure-seeds", "4", "--polish", "2", "--polish-iterations", "2", "--top", "2",
              "--pair-seeds", "4", "--select-seeds", "1", "--princess-seeds", "3"]
HOC_SUPPLY = ("attendant_maid,battering_ram,city_development,flea_market,hideout,library,magic_talisman,rampart,"
              "stargazing_witch,wishing_well")
KEYS = {"game", "title", "market_word", "players", "supply", "label", "command", "budget", "panel", "decks",
        "viable", "round_robin", "dominant", "first_seat", "length", "kinds", "figures", "percentiles", "baseline",
        "seconds"}


@pytest.fixture(scope="module")
def hoc_report(tmp_path_factory):
    ruleset = mk.ruleset_of("heart_of_crown", HOC_SUPPLY)
    folder = tmp_path_factory.mktemp("hoc_market")
    return mk.market(ruleset, TINY, folder, SERIAL, "tiny", progress=lambda line: None), ruleset


def _interval_holds(r: dict, rate: str = "rate") -> bool:
    return r["lo"] - 1e-9 <= r[rate] <= r["hi"] + 1e-9


def test_a_heart_of_crown_report_has_every_part_with_intervals(hoc_report):
    r, ruleset = hoc_report
    assert KEYS | {"princesses"} <= set(r)
    assert r["supply"] == HOC_SUPPLY.split(",")
    n = len(r["decks"])
    assert n == len(r["round_robin"]) >= 2
    for i in range(n):
        assert r["round_robin"][i][i] is None
        for j in range(n):
            if i != j:
                a, b = r["round_robin"][i][j], r["round_robin"][j][i]
                assert 0 <= a["lo"] <= a["rate"] <= a["hi"] <= 1
                assert a["rate"] + b["rate"] <= 1 + 1e-9          # one game's shares add to 1 at most (draws 0)
    # the viable decks: at least the best, never more than the elites; the best's interval is its own
    v = r["viable"]
    assert 1 <= v["distinct"] <= v["viable"] <= v["elites"]
    assert _interval_holds(v["best"], "fitness")
    # every princess of the pool, by her best plan, with an interval
    pool = [ruleset.cards.name(k) for k in ruleset.pool]
    assert sorted(p["princess"] for p in r["princesses"]) == sorted(pool)
    assert all(_interval_holds(p) for p in r["princesses"])
    assert _interval_holds(r["first_seat"], "edge") and _interval_holds(r["length"], "turns")
    assert 3 < r["length"]["turns"] < 100
    # kinds: bought by a viable deck or by none, never both, all of the supply
    owned, unbought = set(r["kinds"]["owned_by_viable"]), set(r["kinds"]["unbought"])
    assert not owned & unbought and owned | unbought == set(r["supply"])
    assert set(r["kinds"]["owned_by_no_elite"]) <= unbought
    # without a baseline no percentile is claimed, and the report says so
    assert all(p["percentile"] is None for p in r["percentiles"].values())
    assert "princess_spread" in r["figures"]


def test_the_report_reads_as_markdown_and_draws_its_figure(hoc_report, tmp_path):
    from hoc.research.market import report as rp

    r = rp.finite(hoc_report[0])
    text = rp.markdown(r)
    for part in ("## Decks", "Round robin", "## The game", "## Princesses", "## Kinds", "## Against random markets",
                 "no baseline"):
        assert part in text
    rp.plot(r, tmp_path / "m.png")
    assert (tmp_path / "m.png").read_bytes()[:4] == b"\x89PNG"


def test_dominion_json_prints_one_object_of_the_schema_without_princesses(capsys, tmp_path):
    code = main(["market", "first_game", "--game", "dominion", *TINY_FLAGS, "--json", "--out", str(tmp_path / "d")])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 0 and len(out) == 1
    r = json.loads(out[0])
    assert KEYS <= set(r) and "princesses" not in r
    assert r["game"] == "dominion" and len(r["supply"]) == 10 and "smithy" in r["supply"]
    assert set(r["figures"]) == set(percentiles.FIGURES) - {"princess_spread"}
    for name in ("market.md", "market.json", "market.png"):
        assert (tmp_path / "d" / name).exists()
    assert json.loads((tmp_path / "d" / "market.json").read_text()) == r


def test_a_deck_that_beats_every_other_is_called_dominant_and_two_equal_decks_are_not():
    from hoc.agents.plan_space import space_of
    from hoc.games.heart_of_crown.agents.atlas import GATE, PER_CARD

    space = space_of(mk.ruleset_of("heart_of_crown", HOC_SUPPLY))
    strong = space.starts()[0]                      # the panel's own tuned plan
    weak = strong.copy()
    weak[:PER_CARD * len(space.cards)].reshape(-1, PER_CARD)[:, GATE] = 0.0    # buys (almost) nothing
    table = decks.round_robin(space, np.stack([strong, weak]), 40, 0, SERIAL)
    assert table["matrix"][0][1]["lo"] > 0.5
    assert decks.dominant(table, ["strong", "weak"], 0.5)["deck"] == "strong"
    even = decks.round_robin(space, np.stack([strong, strong]), 40, 0, SERIAL)
    assert even["matrix"][0][1]["lo"] <= 0.5 <= even["matrix"][0][1]["hi"]     # one plan: each seed's seatings split
    assert decks.dominant(even, ["a", "b"], 0.5)["deck"] is None


def test_a_percentile_is_the_mid_rank_among_the_baseline_with_a_wilson_interval():
    base = [{"figures": {"length": x, "dominant": d}} for x, d in ((10.0, 0), (12.0, 0), (14.0, 1), (16.0, 0))]
    placed = percentiles.place({"length": 14.0, "dominant": 1, "viable": 3}, base)
    assert placed["length"]["percentile"] == pytest.approx(100 * 2.5 / 4)       # two below, one tie
    assert placed["length"]["lo"] < 62.5 < placed["length"]["hi"] and placed["length"]["supplies"] == 4
    assert placed["dominant"]["percentile"] == pytest.approx(100 * 3.5 / 4)
    assert placed["viable"]["percentile"] is None                               # no supply of the baseline has it
    assert percentiles.place({"length": 99.0}, base)["length"]["percentile"] == 100


@pytest.mark.slow
def test_the_baseline_keeps_each_supply_once_resumes_and_ignores_another_budget(tmp_path):
    rows = bl.extend(tmp_path, "dominion", 2, 1, TINY, SERIAL, progress=lambda line: None)
    assert [r["seed"] for r in rows] == [0]
    assert rows[0]["supply"] == list(mk.random_supply("dominion", 0))
    first = bl.path_of(tmp_path, "dominion", 2).read_text()
    rows = bl.extend(tmp_path, "dominion", 2, 2, TINY, SERIAL, progress=lambda line: None)
    assert [r["seed"] for r in rows] == [0, 1]
    assert bl.path_of(tmp_path, "dominion", 2).read_text().startswith(first)     # the first kept as it was
    import dataclasses

    assert bl.load(tmp_path, "dominion", 2, dataclasses.replace(TINY, pair_seeds=5)) == []
    # a report of one of them is placed among the three
    ruleset = mk.ruleset_of("dominion", mk.random_supply("dominion", 1))
    r = mk.market(ruleset, dataclasses.replace(TINY, seed=1), tmp_path / "w", SERIAL, "x", progress=lambda line: None,
                  baseline=rows)
    assert r["figures"] == rows[1]["figures"]                                   # the same seed, the same figures
    assert r["baseline"]["supplies"] == 2 and all(p["supplies"] == 2 for p in r["percentiles"].values())


def test_baseline_lines_of_plans_that_played_otherwise_are_not_placed_against(tmp_path):
    """A line records how its game's plans played (`plan_space.revision`): Dominion's lines from
    before its plans played Throne Room first are kept in the file but not used; Heart of Crown's,
    whose plans did not change, record none and are used."""
    for game, line in (("dominion", {"seed": 0, "budget": TINY.identity(), "figures": {}}),
                       ("dominion", {"seed": 1, "budget": TINY.identity(), "plans": 2, "figures": {}}),
                       ("heart_of_crown", {"seed": 0, "budget": TINY.identity(), "figures": {}})):
        path = bl.path_of(tmp_path, game, 2)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a") as f:
            f.write(json.dumps(line) + "\n")
    assert [r["seed"] for r in bl.load(tmp_path, "dominion", 2, TINY)] == [1]
    assert [r["seed"] for r in bl.load(tmp_path, "heart_of_crown", 2, TINY)] == [0]


def test_random_supplies_are_ten_different_kinds_drawn_by_the_seed():
    for game in ("heart_of_crown", "dominion"):
        a, b = mk.random_supply(game, 5), mk.random_supply(game, 6)
        assert len(set(a)) == 10 and a == mk.random_supply(game, 5) and a != b
        assert set(a) <= set(mk.candidates(game))


@pytest.mark.parametrize("argv, said", [
    (["heart_of_crown", HOC_SUPPLY.replace("library", "libary")], "libary"),
    (["heart_of_crown", HOC_SUPPLY.rsplit(",", 1)[0]], "exactly 10"),
    (["heart_of_crown", HOC_SUPPLY.replace("library", "rampart")], "twice"),
    (["dominion", "cellar,market,merchant,militia,mine,moat,remodel,smithy,village,workshopp"], "workshopp"),
    (["dominion", "cellar,market,merchant,militia,mine,moat,remodel,smithy,village"], "exactly 10"),
    (["dominion", "cellar,cellar,merchant,militia,mine,moat,remodel,smithy,village,workshop"], "twice"),
    (["dominion", "random_kingdom"], "unknown"),
])
def test_a_bad_supply_is_refused_in_one_line_with_exit_2(argv, said, capsys):
    game, supply = argv
    assert main(["market", supply, "--game", game]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0] and "Traceback" not in err[0]


def test_no_supply_and_a_baseline_with_a_supply_are_refused(capsys):
    assert main(["market"]) == 2
    assert main(["market", "first_game", "--game", "dominion", "--baseline", "3"]) == 2
    assert main(["market", "first_game", "--game", "dominion", "--top", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3


def test_the_web_page_measures_a_supply_off_the_request_and_opens_a_saved_report(tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from hoc.web.app import create_app

    assert main(["market", "first_game", "--game", "dominion", *TINY_FLAGS, "--json", "--out",
                 str(tmp_path / "saved")]) == 0
    with TestClient(create_app(tmp_path)) as c:
        assert c.get("/market").status_code == 200 and "hoc market" in c.get("/market").text
        saved = c.get("/api/market", params={"path": "saved"})
        assert saved.status_code == 200 and saved.json()["report"]["game"] == "dominion"
        assert "## Decks" in saved.json()["markdown"] and saved.json()["png"] == "saved/market.png"
        assert c.get("/api/market", params={"path": "../"}).status_code == 403
        assert c.get("/api/market", params={"path": "nothing"}).status_code == 404
        bad = c.post("/api/markets", json={"game": "dominion", "supply": "first_game,smithy"})
        assert bad.status_code == 400 and "first_game" in bad.json()["error"]
        assert c.post("/api/markets", json={"supply": "random", "iterations": 10_000}).status_code == 422
        began = time.monotonic()
        job = c.post("/api/markets", json={"game": "heart_of_crown", "supply": HOC_SUPPLY, "iterations": 1,
                                           "pair_seeds": 2})
        assert job.status_code == 202
        assert time.monotonic() - began < 30          # answered before the report is measured
        assert c.get("/api/options").status_code == 200     # other requests go on meanwhile
        key = job.json()["id"]
        while (state := c.get(f"/api/markets/{key}").json())["state"] in ("waiting", "running"):
            assert time.monotonic() - began < 600
            time.sleep(0.5)
        assert state["state"] == "done", state["error"]
        assert state["report"]["supply"] == HOC_SUPPLY.split(",") and "## Princesses" in state["markdown"]
        assert c.get("/api/markets/nope").status_code == 404


def test_dominion_balance_prices_a_kingdom_card_through_the_atlas_on_kingdoms_that_offer_it(capsys, tmp_path):
    assert main(["balance", "--game", "dominion", "--card", "witch", "--atlas-iterations", "1", "--seeds", "4",
                 "--supplies", "2", "--work", str(tmp_path), "--json"]) == 0
    r = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    value = r["values"][0]
    assert value["kind"] == "witch" and len(value["supplies"]) == 2
    assert all("witch" in s["supply"] and len(s["supply"]) == 10 for s in value["supplies"])
    assert value["supplies"][0]["supply"] != value["supplies"][1]["supply"]
    if value["owner"]:
        assert value["archetype_lo"] <= value["archetype_value"] <= value["archetype_hi"]
    else:
        assert math.isnan(value["archetype_value"])


@pytest.mark.parametrize("argv, said", [
    (["balance", "--game", "dominion"], "--card"),
    (["balance", "--game", "dominion", "--card", "smithyy"], "smithy"),
    (["balance", "--game", "dominion", "--card", "witch", "--strong", "tuned"], "atlas"),
    (["princesses", "--game", "dominion"], "Dominion has none"),
])
def test_dominion_questions_without_an_answer_are_refused_in_one_line(argv, said, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0]
