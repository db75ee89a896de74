"""The web table in a real headless browser (Debian's Chromium driven by Playwright; `.ci/run`
installs it): a whole game played to its end by clicking legal actions and saved, then replayed from
the file; a replay stepped to its end and back; a run's summary page; card texts on hover and click;
cards drawn as cards (cost, values, a colour per type, names that fit, text formatted); one click playing
all Territories as clicking each would; the chart's legend in the seats' colours; an illegal action
refused with the game unharmed; a search agent's seat shown thinking; a study started on its page,
followed and its report opened.

One server (uvicorn in a thread, on a free port of 127.0.0.1) and one browser serve the module."""
from __future__ import annotations

import json
import os

import pytest

if not os.environ.get("CI"):            # on CI the browser tests must run: a missing piece fails them
    pytest.importorskip("playwright")
    pytest.importorskip("fastapi")
from hoc.web.browser import chromium_path  # noqa: E402

if chromium_path() is None and not os.environ.get("CI"):
    pytest.skip("no Chromium here (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import sync_playwright  # noqa: E402

CLICKS = 600


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    from hoc.cli.main import main as hoc

    folder = tmp_path_factory.mktemp("served")
    (folder / "runs").mkdir()
    assert hoc(["simulate", "--agents", "basic_rush,senator_duke", "--games", "60", "--seed", "5", "--market", "basic",
                "--rotate-seats", "--out", str(folder / "runs" / "duel.parquet")]) == 0
    (folder / "study").mkdir()
    (folder / "study" / "summary.md").write_text("# Seat order\n\n| seat | rate | lo | hi |\n| --- | --- | --- | --- |\n"
                                                 "| 0 | 0.55 | 0.50 | 0.60 |\n")
    return folder


@pytest.fixture(scope="module")
def server(root):
    from hoc.web.server import Background

    import httpx

    s = Background(root)
    # the first game compiles the Python Game's kernels when the cache is cold: before any page waits on it
    r = httpx.post(s.url + "/api/games", json={"agents": ["basic_rush", "basic_rush"], "market": "basic"}, timeout=900)
    assert r.status_code == 201, r.text
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser():
    from hoc.web.browser import launch

    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    p = context.new_page()
    errors = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.set_default_timeout(60_000)
    yield p
    context.close()
    assert not errors, f"the page's scripts failed: {errors}"


def threads() -> str:
    """Where every thread of this process (the server's among them) is: what a failure waited on."""
    import sys
    import threading
    import traceback

    names = {t.ident: t.name for t in threading.enumerate()}
    return "\n".join(f"--- {names.get(k, k)}\n" + "".join(traceback.format_stack(f)[-6:])
                     for k, f in sys._current_frames().items())


def start_game(page, server, seat1="basic_rush", seed=3, turn_cap=40):
    page.goto(server.url + "/")
    page.wait_for_selector("input[name=seat1]")
    page.fill("input[name=seat1]", seat1)
    page.fill("input[name=market]", "basic")
    page.fill("input[name=seed]", str(seed))
    page.fill("input[name=turn_cap]", str(turn_cap))
    page.click("#start")
    page.wait_for_url("**/play?id=*")
    page.wait_for_selector("#actions button")


def pick(page) -> int:
    """A legal action's button to click: declare, play, the dearest buy, else the first."""
    buttons = page.locator("#actions button")
    labels = buttons.evaluate_all("bs => bs.map(b => b.dataset.label)")
    texts = buttons.evaluate_all("bs => bs.map(b => b.textContent)")
    for want in ("declare", "play"):
        hits = [i for i, lab in enumerate(labels) if lab.startswith(want)]
        if hits:
            return hits[0]
    buys = sorted((int(t.rsplit("(", 1)[1].split()[0]), i) for i, (lab, t) in enumerate(zip(labels, texts))
                  if lab.startswith("buy"))
    return buys[-1][1] if buys else 0


def test_a_whole_game_is_played_to_its_end_by_clicking_and_its_save_replays(page, server, tmp_path):
    start_game(page, server)
    assert page.inner_text("#title").startswith("Turn 1, your turn: seat 0 (human) decides")
    for _ in range(CLICKS):
        if page.get_attribute("body", "data-over") == "true":
            break
        before = page.get_attribute("body", "data-decisions")
        page.locator("#actions button").nth(pick(page)).click()
        page.wait_for_function(f"document.body.dataset.decisions !== '{before}'")
        assert page.inner_text("#error") == ""
    assert page.get_attribute("body", "data-over") == "true", f"the game did not end in {CLICKS} clicks"
    assert page.locator("#actions button").count() == 0
    result = page.inner_text("#result")
    assert " by " in result and "SP " in result
    assert "End after" in page.inner_text("#feed")
    with page.expect_download() as d:
        page.click("#save")
    path = tmp_path / "game.json"
    d.value.save_as(path)
    from hoc.research.replays import replay_saved

    r = replay_saved(path)                      # `hoc replay FILE` tells it, and it ends as it did here
    saved = json.loads(path.read_text())
    assert r.game.over and saved["result"]["over"] and saved["seats"] == ["human", "basic_rush"]
    assert f"SP {', '.join(map(str, saved['result']['sp']))}" in result
    page.goto(server.url + "/replay")           # and the replay page opens the file
    page.set_input_files("#from-file input[type=file]", str(path))
    page.click("#from-file button")
    page.wait_for_selector("#spchart")
    assert page.inner_text("#source").startswith("Replay of a saved game")
    page.click("#last")
    page.wait_for_function(f"document.body.dataset.frame === '{len(saved['actions'])}'")
    assert "The game is over." in page.inner_text("#question")


def test_card_texts_show_on_hover_and_on_click(page, server):
    start_game(page, server, seed=8)
    card = page.locator("#hand .face").first
    name = card.locator(".name").inner_text()
    card.hover()
    tip = page.locator("#tip")
    tip.wait_for(state="visible")
    assert name in tip.inner_text() and "cost" in tip.inner_text()
    page.mouse.move(2, 2)
    pile = page.locator(".pile").nth(2)
    pile.click()
    assert page.inner_text("#cardtext").startswith(pile.locator(".name").inner_text())
    assert "cost" in page.inner_text("#cardtext")


LONG_NAMES = "gossip_loving_duchess,land_reclamation_decree,city_development,magic_talisman,curse_witch," \
             "stargazing_witch,infantry_battalion,attendant_maid,imperial_estate,hunted_beast"


BULLETED = {"magic_talisman", "curse_witch", "city_development"}      # texts of the form "...: • this. • that."


def test_cards_are_drawn_as_cards_with_cost_values_a_colour_per_type_and_names_that_fit(page, server):
    import httpx

    def dealt(seed):                            # a game whose market shows the Duchess face up
        g = httpx.post(server.url + "/api/games", json={"agents": ["human", "basic_rush"], "market": LONG_NAMES,
                                                        "princesses": "klam_klam,twins,bergamot", "seed": seed}).json()
        shown = {m["card"] for m in g["view"]["market"]}
        return g if "gossip_loving_duchess" in shown and shown & BULLETED else None

    game = next(g for seed in range(60) if (g := dealt(seed)))
    page.goto(f"{server.url}/play?id={game['id']}")
    page.wait_for_selector(".pile[data-pile=gossip_loving_duchess]")
    faces = page.locator(".face")
    assert faces.count() >= 15
    unfit = page.evaluate("""[...document.querySelectorAll('.face .name')].filter(n =>
        n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1).map(n => n.textContent)""")
    assert unfit == []                          # every name inside its card, the longest shrunk to fit
    sizes = page.evaluate("""Object.fromEntries([...document.querySelectorAll('.face')].map(f =>
        [f.dataset.card, parseFloat(f.querySelector('.name').style.fontSize)]))""")
    assert sizes["klam_klam"] < sizes["city"]   # "Klam-Klam, Princess of the South Seas" was made smaller
    duchess = page.locator(".pile[data-pile=gossip_loving_duchess]")
    assert duchess.locator(".name").inner_text() == "Gossip-Loving Duchess"
    assert duchess.locator(".cost").inner_text() == "6" and "3 SP" in duchess.locator(".values").inner_text()
    assert duchess.locator(".bands i").evaluate_all("bs => bs.map(b => b.title)") == ["succession", "attack"]
    city = page.locator(".pile[data-pile=city]")
    assert city.locator(".values").inner_text().split() == ["1", "link", "2", "coins"]
    colour = "f => getComputedStyle(f).borderTopColor"
    assert city.evaluate(colour) != duchess.evaluate(colour) != page.locator(".face[data-card=klam_klam]").evaluate(colour)
    assert city.evaluate(colour) == page.locator("#hand .face[data-card=farming_village]").first.evaluate(colour)
    text = page.locator("#cardtext")            # card text formatted: bullets as a list, [terms] and 'names' marked
    bulleted = next(m["card"] for m in game["view"]["market"] if m["card"] in BULLETED)
    page.locator(f".pile[data-pile={bulleted}]").click()
    assert text.locator("li").count() == 2 and text.locator("p").count() >= 1
    assert "•" not in text.inner_text()
    duchess.click()
    assert text.locator(".term").all_inner_texts() == ["all opponents", "the highest-cost card"]
    assert "[" not in text.locator(".rules").inner_text()


def test_one_click_plays_all_territories_as_clicking_each_would(page, server):
    import httpx

    start_game(page, server, seed=3)
    offer = page.evaluate("game.state.play_all")
    assert offer and offer["plays"] >= 2
    clicks = httpx.post(server.url + "/api/games", json={"agents": ["human", "basic_rush"], "market": "basic", "seed": 3,
                                                         "turn_cap": 40}).json()
    for _ in range(offer["plays"]):             # the same game, each play clicked through the API
        play = next(a for a in clicks["view"]["actions"] if a["verb"] == "play")
        clicks = httpx.post(f"{server.url}/api/games/{clicks['id']}/actions",
                            json={"action": play["action"], "decisions": clicks["decisions"]}).json()
    assert page.inner_text("#play-all").endswith(offer["text"])
    page.click("#play-all")
    page.wait_for_function(f"document.body.dataset.decisions === '{offer['plays']}'")
    assert page.inner_text("#error") == "" and page.locator("#play-all").count() == 0
    assert page.evaluate("game.state.view") == clicks["view"]
    played = page.locator(".turnarea .face").evaluate_all("fs => fs.map(f => f.dataset.card)")
    assert set(played) == {c["card"] for c in offer["cards"]}
    assert not page.locator("#actions button[data-label^='play ']").count()


def test_the_chart_legend_and_the_seats_share_each_seats_colour(page, server):
    page.goto(server.url + "/replay?run=runs/duel.parquet&game=1")
    page.wait_for_selector("#spchart")
    for q in (0, 1):
        legend = page.locator(f"#spchart text.legend[data-seat='{q}']").evaluate("t => getComputedStyle(t).fill")
        line = page.locator(f"#spchart path[data-seat='{q}']").evaluate("p => getComputedStyle(p).stroke")
        seat = page.locator(f"table.seats tr[data-seat='{q}'] .swatch").evaluate("s => getComputedStyle(s).backgroundColor")
        assert legend == line == seat
    colours = page.locator("#spchart text.legend").evaluate_all("ts => ts.map(t => getComputedStyle(t).fill)")
    assert len(set(colours)) == 2 and "rgb(68, 68, 68)" not in colours     # not the chart text's grey


def test_a_study_started_on_its_page_shows_its_progress_and_opens_its_report(page, server):
    page.goto(server.url + "/studies")
    page.wait_for_selector("input[name=agent][value=senator_duke]")
    assert page.locator("#kind option").all_inner_texts() == ["simulate", "tournament", "princesses"]
    page.select_option("#game", "dominion")
    assert "princesses" not in page.locator("#kind option").all_inner_texts()     # Dominion has none
    assert page.locator("input[name=agent][value=dom_big_money]").count() == 1
    page.select_option("#game", "heart_of_crown")
    page.select_option("#kind", "tournament")
    page.check("input[name=agent][value=basic_rush]")
    page.click("#start")                        # one agent: refused in one line, nothing started
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "at least 2 different agents" in page.inner_text("#error")
    page.check("input[name=agent][value=senator_duke]")
    page.fill("input[name=games]", "20")
    page.fill("input[name=market]", "basic")
    page.click("#start")
    page.wait_for_function("document.body.dataset.job === 'done'", timeout=300_000)
    assert page.inner_text("#error") == ""
    assert page.get_attribute("#bar", "value") == page.get_attribute("#bar", "max") == "20"
    assert page.inner_text("#report").startswith("round robin: 20 games, 2 players, market basic")
    assert "hoc tournament --game heart_of_crown" in page.inner_text("#job-command")
    assert "/studies?job=" in page.url
    page.reload()                               # the job's address opens its report again
    page.wait_for_function("document.body.dataset.job === 'done'")
    assert page.inner_text("#report").startswith("round robin: 20 games")


def test_an_illegal_action_is_refused_and_the_game_is_unharmed(page, server):
    start_game(page, server, seed=12)
    before = page.evaluate("fetch(`/api/games/${game.id}`).then(r => r.json())")
    buttons = page.locator("#actions button").evaluate_all("bs => bs.map(b => b.textContent)")
    page.evaluate("act(99999)")                 # the page's own sender, with an action no button offers
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "not legal" in page.inner_text("#error")
    status = page.evaluate("""fetch(`/api/games/${game.id}/actions`, {method: 'POST', headers: {'Content-Type':
        'application/json'}, body: JSON.stringify({action: game.state.view.actions[0].action, decisions: 999})})
        .then(r => r.status)""")
    assert status == 409                        # a stale page's click is refused too
    after = page.evaluate("fetch(`/api/games/${game.id}`).then(r => r.json())")
    assert after == before
    assert page.locator("#actions button").evaluate_all("bs => bs.map(b => b.textContent)") == buttons
    page.locator("#actions button").nth(pick(page)).click()     # and the game plays on
    page.wait_for_function("document.body.dataset.decisions !== '0'")
    assert page.inner_text("#error") == ""


def test_hot_seat_hides_the_table_until_the_next_person_confirms(page, server):
    start_game(page, server, seat1="human", seed=4)
    for _ in range(20):                          # seat 0 passes through its turn
        if page.is_visible("#handover"):
            break
        before = page.get_attribute("body", "data-decisions")
        page.locator("#actions button").first.click()
        page.wait_for_function(f"document.body.dataset.decisions !== '{before}'")
    assert page.is_visible("#handover") and page.inner_text("#handover-text") == "Pass the screen to seat 1"
    page.click("#handover-go")
    assert not page.is_visible("#handover")
    assert page.inner_text("#title").startswith("Turn 2, your turn: seat 1 (human) decides")


def test_a_replay_steps_to_its_end_and_back_with_every_hand_and_the_sp_chart(page, server):
    page.goto(server.url + "/replay?run=runs/duel.parquet&game=1")
    page.wait_for_selector("#spchart")
    frames = int(page.get_attribute("#slider", "max")) + 1
    assert frames > 20
    assert page.locator(".hand[data-seat]").count() == 2         # every seat's hand is shown
    assert page.locator("#spchart path[data-seat]").count() == 2
    log = page.locator("#feed div").count()
    for k in range(1, frames):                   # one decision at a time, to the end
        page.click("#next")
        page.wait_for_function(f"document.body.dataset.frame === '{k}'")
    assert page.is_disabled("#next") and page.is_disabled("#last")
    assert "The game is over." in page.inner_text("#question")
    assert page.locator("#feed div").count() > log and "End after" in page.inner_text("#feed")
    for k in range(frames - 2, frames - 6, -1):  # back a few, then to the start
        page.click("#prev")
        page.wait_for_function(f"document.body.dataset.frame === '{k}'")
    page.click("#first")
    page.wait_for_function("document.body.dataset.frame === '0'")
    assert page.is_disabled("#prev") and page.locator("#feed div").count() == log
    assert page.locator("#actions button.taken").count() == 1    # the decision taken at this point


def test_a_runs_summary_page_shows_its_intervals_and_charts(page, server):
    page.goto(server.url + "/results")
    page.click("a[data-run='runs/duel.parquet']")
    page.wait_for_selector("table[data-table=seat]")
    assert "60 games, 2 players" in page.inner_text("#summary")
    rows = page.locator("table[data-table=agent] tr")
    assert rows.count() == 3 and "[" in rows.nth(1).inner_text()
    charts = page.locator("img.chart")
    assert charts.count() >= 3
    page.wait_for_function("[...document.querySelectorAll('img.chart')].every(i => i.complete && i.naturalWidth > 0)",
                           timeout=120_000)
    page.goto(server.url + "/results")
    page.click("a[data-study='study']")
    page.wait_for_selector(".md table")
    assert "0.55" in page.inner_text(".md table")


def test_a_search_agents_seat_is_shown_thinking_and_the_page_waits_for_it(page, server, monkeypatch):
    """The search's first decision waits until the page has said it is thinking: a warm search may
    finish its whole turn before the page has loaded (seen in CI: the page came up on the human's turn),
    so the test holds it, rather than racing it, and then lets it play as it would."""
    import threading

    import hoc.agents.in_game as in_game

    asked, let_go = threading.Event(), threading.Event()
    real = in_game.decide

    def decide(*args):
        asked.set()
        let_go.wait(600)
        return real(*args)

    monkeypatch.setattr(in_game, "decide", decide)
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("input[name=seat1]")
        page.fill("input[name=seat0]", "ismcts:iterations=20000")      # the web's largest budget: seconds a decision
        page.fill("input[name=seat1]", "human")
        page.fill("input[name=market]", "basic")
        page.fill("input[name=seed]", "2")
        page.click("#start")
        page.wait_for_url("**/play?id=*")
        try:
            page.wait_for_function("document.getElementById('status').textContent.includes('is thinking')")
        except Exception:
            pytest.fail(f"the page never said the search agent is thinking: status {page.inner_text('#status')!r}, "
                        f"error {page.inner_text('#error')!r}, title {page.inner_text('#title')!r}, page data "
                        f"{page.evaluate('JSON.stringify(document.body.dataset)')}; the server's threads:\n{threads()}")
        assert asked.wait(60) and page.get_attribute("body", "data-decisions") == "0"     # held, not done
        assert page.inner_text("#status").startswith("seat 0 (ismcts:iterations=20000) is thinking")
        assert page.locator("#actions button").count() == 0
    finally:
        let_go.set()
    page.wait_for_selector("#actions button", timeout=600_000)     # its turn is over: seat 1 decides
    assert page.get_attribute("body", "data-thinking") == "" and page.inner_text("#status") == ""
    assert page.inner_text("#title").startswith("Turn 2, your turn: seat 1 (human) decides")
