"""The screenshots of the web table in docs/web/: the play page, the replay page, a run's summary page
and a study started on the studies page, taken by a real headless Chromium (Debian's, driven by
Playwright) from a server started here.

    python docs/web/screenshots.py            # writes docs/web/play.png, replay.png, run.png, studies.png

It plays 300 quick games into a temporary Parquet run for the summary page (a few seconds once the
engine is compiled); the server reads that temporary folder only."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZE = {"width": 1360, "height": 1000}


def main() -> int:
    from playwright.sync_api import sync_playwright

    from hoc.cli.main import main as hoc
    from hoc.web.browser import launch
    from hoc.web.server import Background

    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "runs" / "rush_vs_senator.parquet"
        run.parent.mkdir()
        code = hoc(["simulate", "--agents", "basic_rush,senator_duke", "--games", "300", "--seed", "1",
                    "--market", "first_play", "--rotate-seats", "--out", str(run)])
        if code:
            return code
        server = Background(tmp)
        try:
            with sync_playwright() as pw:
                browser = launch(pw)
                page = browser.new_page(viewport=SIZE)
                page.goto(server.url + "/")
                page.fill("input[name=seat1]", "senator_duke")
                page.fill("input[name=market]", "first_play")
                page.fill("input[name=seed]", "7")
                page.click("#start")
                page.wait_for_url("**/play?id=*")
                page.wait_for_selector("#actions button")
                for _ in range(40):             # into the game: plays first, then the dearest buy, else pass
                    buttons = page.locator("#actions button")
                    labels = buttons.evaluate_all("bs => bs.map(b => b.dataset.label)")
                    texts = buttons.evaluate_all("bs => bs.map(b => b.textContent)")
                    plays = [i for i, lab in enumerate(labels) if lab.startswith("play")]
                    buys = sorted((int(t.rsplit("(", 1)[1].split()[0]), i) for i, (lab, t) in
                                  enumerate(zip(labels, texts)) if lab.startswith("buy"))
                    pick = plays[0] if plays else buys[-1][1] if buys else 0
                    before = page.get_attribute("body", "data-decisions")
                    buttons.nth(pick).click()
                    page.wait_for_function(f"document.body.dataset.decisions !== '{before}'")
                page.locator("#hand .face").first.click()
                page.mouse.move(5, 500)
                page.screenshot(path=str(HERE / "play.png"), full_page=False)
                page.goto(server.url + "/replay?run=runs/rush_vs_senator.parquet&game=3")
                page.wait_for_selector("#spchart")
                page.click("#last")
                page.wait_for_function("document.body.dataset.frame !== '0'")
                last = int(page.get_attribute("body", "data-frame"))
                page.fill("#slider", str(last * 2 // 3))
                page.wait_for_function(f"document.body.dataset.frame === '{last * 2 // 3}'")
                page.screenshot(path=str(HERE / "replay.png"))
                page.goto(server.url + "/results?run=" + "runs/rush_vs_senator.parquet")
                page.wait_for_selector("img[data-chart=length]")
                page.wait_for_function("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
                page.screenshot(path=str(HERE / "run.png"), full_page=True)
                page.goto(server.url + "/studies")      # a small round robin, followed to its report
                page.wait_for_selector("input[name=agent][value=senator_duke]")
                page.select_option("#kind", "tournament")
                for agent in ("basic_rush", "senator_duke", "curse_witch"):
                    page.check(f"input[name=agent][value={agent}]")
                page.fill("input[name=games]", "400")
                page.fill("input[name=market]", "first_play")
                page.click("#start")
                page.wait_for_function("document.body.dataset.job === 'done'", timeout=600_000)
                page.screenshot(path=str(HERE / "studies.png"), full_page=True)
                browser.close()
        finally:
            server.stop()
    for name in ("play", "replay", "run", "studies"):
        print(HERE / f"{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
