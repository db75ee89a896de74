"""The web table's supply reports (`hoc market`): a report saved by `hoc market --out DIR` read from the
served folder, and a new report measured on request.

A report takes minutes, so it never runs on a request's thread nor on the workers that play the
agents' decisions: a job (`hoc.web.jobs`) on one thread of its own measures one report at a time, a
few more may wait, and a request beyond that is refused (503). The request that starts one answers
at once (202) with the job's address; the page asks it for the progress and, at the end, the report.
What a request names is data (a game, kinds, numbers within `limits`): nothing is read from a path it
gives, nothing is imported. A job's atlas lives in a temporary folder removed when it ends; the last
few reports are kept in memory, the oldest dropped first.
"""
from __future__ import annotations

import json
import tempfile
import threading
from typing import Annotated

from fastapi import Path, Query
from pydantic import BaseModel, ConfigDict, Field

from hoc.errors import HocError
from hoc.games import DEFAULT
from hoc.web.errors import Refused
from hoc.web.jobs import MAX_PROGRESS, Job, Jobs

MAX_ITERATIONS = 150            # of a report's atlas asked on the web (the command line's default: 100)
MAX_PAIR_SEEDS = 1_000
MAX_WAITING = 2                 # reports waiting behind the one being measured; beyond that a 503
MAX_KEPT = 8                    # finished reports kept (the oldest dropped first)
MAX_REPORT_BYTES = 2_000_000   # a saved report read (one is some 20 kB)


class NewMarket(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    game: Annotated[str, Field(min_length=1, max_length=40)] = DEFAULT       # the games registry's default
    supply: Annotated[str, Field(min_length=1, max_length=600)]
    seed: int = Field(0, ge=0, lt=2 ** 31)
    players: int = Field(2, ge=2, le=4)
    iterations: int = Field(100, ge=1, le=MAX_ITERATIONS)
    pair_seeds: int = Field(300, ge=2, le=MAX_PAIR_SEEDS)


class MarketJob(Job):
    """A supply report being measured: its view says `report` (the figures) and `markdown` (its words),
    as the market page reads them."""

    def __init__(self, request: NewMarket, label: str, command: str):
        super().__init__("market", label, 0, command)
        self.request = request

    def view(self) -> dict:
        return {"id": self.id, "state": self.state, "label": self.label, "progress": self.progress[-MAX_PROGRESS:],
                "error": self.error, "report": self.data, "markdown": self.report}


class Markets:
    """The supply reports, measured one at a time on their own thread (`hoc.web.jobs`)."""

    def __init__(self, root, stopping: threading.Event, baseline_dir: str = "results/market_baseline"):
        self.root, self.baseline_dir = root, baseline_dir
        self.jobs = Jobs("supply reports", stopping, None, MAX_WAITING, MAX_KEPT)

    def start(self, body: NewMarket) -> MarketJob:
        from hoc.research import market as mk
        from hoc.games import get

        try:
            spec = get(body.game)
            supply = mk.random_supply(spec.name, body.seed, body.players) if body.supply == "random" else body.supply
            ruleset = mk.ruleset_of(spec.name, supply, body.players)       # bad names: one line, a 400, now
            budget = mk.Budget(iterations=body.iterations, pair_seeds=body.pair_seeds, seed=body.seed)
        except HocError as e:
            raise Refused(str(e)) from None
        label = supply if isinstance(supply, str) else f"random --seed {body.seed} ({', '.join(supply)})"
        b = body
        command = (f"hoc market --game {ruleset.game.name} --players {ruleset.players} {b.supply} --seed {b.seed}"
                   + (f" --iterations {b.iterations}" if b.iterations != 100 else "")
                   + (f" --pair-seeds {b.pair_seeds}" if b.pair_seeds != 300 else ""))
        return self.jobs.start(MarketJob(body, label, command),
                               lambda job, told: self._measure(job, ruleset, budget, told))

    def _measure(self, job: MarketJob, ruleset, budget, told) -> tuple[str, dict]:
        from hoc.research import market as mk
        from hoc.research.harness import Backend
        from hoc.research.market import baseline as bl
        from hoc.research.market import report as rp

        base = bl.load(self.root.folder / self.baseline_dir, ruleset.game.name, ruleset.players, budget)
        with tempfile.TemporaryDirectory(prefix="hoc_web_market_") as work:
            report = mk.market(ruleset, budget, work, Backend(), job.command.removeprefix("hoc market "),
                               progress=told, baseline=base, label=job.label)
        report = json.loads(json.dumps(rp.finite(report)))
        return rp.markdown(report), report

    def get(self, key: str) -> MarketJob:
        return self.jobs.get(key)

    def shutdown(self) -> None:
        self.jobs.shutdown()


def add_routes(api, root, answers, stopping: threading.Event) -> Markets:
    """The routes: POST /api/markets (start a report), GET /api/markets/{id} (its progress and result),
    GET /api/market?path=DIR (a report `hoc market --out DIR` saved in the served folder)."""
    markets = Markets(root, stopping)

    @api.post("/markets", status_code=202, operation_id="new_market", responses=answers(400, 422, 503))
    def new_market(body: NewMarket):
        return markets.start(body).view()

    @api.get("/markets/{key}", operation_id="market_job", responses=answers(404, 422))
    def market_job(key: Annotated[str, Path(max_length=40)]):
        return markets.get(key).view()

    @api.get("/market", operation_id="saved_market", responses=answers(400, 403, 404, 413, 422))
    def saved_market(path: Annotated[str, Query(min_length=1, max_length=1000)]):
        from hoc.research.market import report as rp

        folder = root.path(path, "folder")
        f = folder / "market.json" if folder.is_dir() else folder
        p = root.file(root.name(f))
        if p.stat().st_size > MAX_REPORT_BYTES:
            raise Refused(f"{path} is larger than {MAX_REPORT_BYTES:,} bytes, more than a report of hoc market", 413)
        try:
            report = json.loads(p.read_text(encoding="utf-8"))
            text = rp.markdown(report)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, UnicodeDecodeError):
            raise Refused(f"{path} holds no report of hoc market") from None
        png = p.with_suffix(".png")
        return {"path": path, "report": report, "markdown": text, "png": root.name(png) if png.is_file() else None}

    return markets
