"""The HTTP routes of the web table, under /api. Bodies are checked by their models (a malformed one
is a 422 naming the field); every refusal is a 4xx JSON answer {"error": message} (`hoc.web.app`)."""
from __future__ import annotations

import json
from typing import Literal, Union

import threading

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, field_validator

from hoc.web import replays, results
from hoc.web.errors import Refused
from hoc.web.store import Store
from hoc.web.tables import HUMAN, MAX_SEATS, Setup, WebTable

MAX_GAMES = 500
MAX_REPLAYS = 20
MAX_RUNS = 8
MAX_SAVED_BYTES = 5_000_000


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    edition: Literal["2e", "1e"] = "2e"
    market: str = Field("random", max_length=400)
    princesses: str | None = Field(None, max_length=400)
    turn_cap: int = Field(100, ge=1, le=1000)
    instant_win_at_30: bool = False
    seed: int = Field(0, ge=0, lt=2 ** 63)
    game: int = Field(0, ge=0, lt=2 ** 63)


class NewGame(Rules):
    agents: list[str] = Field(min_length=1, max_length=MAX_SEATS)

    @field_validator("agents", mode="before")
    @classmethod
    def _names(cls, v):
        """A comma-separated string reads as the command line's --agents does (a search agent's
        options stay with it)."""
        if isinstance(v, str):
            from hoc.agents.registry import split_names

            return split_names(v)
        return v


class Act(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Union[int, str]
    seat: int | None = None
    decisions: int | None = None


class SavedReplay(BaseModel):
    model_config = ConfigDict(extra="forbid")
    saved: dict


class RunReplay(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run: str = Field(max_length=1000)
    game: int = Field(0, ge=0, lt=2 ** 63)


class SeedReplay(NewGame):
    pass


def router(root) -> APIRouter:
    """The routes of a server reading the folder `root` (`hoc.web.files.Root`)."""
    api = APIRouter(prefix="/api")
    games, shown, runs = Store("game", MAX_GAMES), Store("replay", MAX_REPLAYS), {}

    def agents(names: list[str]):
        """The agents named, as the command line reads them, with agent files inside the root only and
        no Python agents (module:function) imported by a request."""
        from hoc.agents import search
        from hoc.agents.registry import of_game
        from hoc.research.simulate import resolve

        known = of_game("heart_of_crown")
        checked = []
        for n in names:
            if n in known or search.is_spec(n):
                checked.append(n)
            elif n.endswith(".toml"):
                checked.append(str(root.file(n)))
            elif ":" in n or "/" in n:
                raise Refused(f"agent {n!r}: the web table plays named agents, agent files (.toml) inside "
                              f"{root.folder} and the search agent; Python agents play through `hoc play`")
            else:
                checked.append(n)           # unknown: the registry says so, with suggestions
        return resolve(checked)

    # ---- what a page offers
    @api.get("/options")
    def options():
        from hoc.agents.registry import of_game
        from hoc.games.heart_of_crown.presets import RECOMMENDED

        known = of_game("heart_of_crown")
        return {"agents": [HUMAN, *known], "descriptions": {n: a.description for n, a in known.items()},
                "search_agent": "ismcts:iterations=200",
                "markets": ["random", "basic", *RECOMMENDED], "editions": ["2e", "1e"], "max_seats": MAX_SEATS,
                "root": str(root.folder)}

    # ---- playing
    @api.post("/games", status_code=201)
    def new_game(body: NewGame):
        setup = Setup(body.agents, body.edition, body.market, body.princesses, body.seed, body.game, body.turn_cap,
                      body.instant_win_at_30)
        plan, index = setup.plan(agents)
        table = WebTable(plan, index)
        key = games.add(table)
        with table.lock:
            return {"id": key, **table.state()}

    @api.get("/games/{key}")
    def game_state(key: str, seat: int | None = None, since: int = 0):
        table = games.get(key)
        with table.lock:
            return {"id": key, **table.state(seat, since)}

    @api.post("/games/{key}/actions")
    def act(key: str, body: Act, since: int = 0):
        table = games.get(key)
        with table.lock:
            table.act(body.action, body.seat, body.decisions)
            return {"id": key, **table.state(None, since)}     # the view of the next human seat to decide

    @api.get("/games/{key}/saved")
    def saved(key: str):
        table = games.get(key)
        with table.lock:
            data = table.saved()
        return Response(json.dumps(data, indent=1) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="hoc-game-{key}.json"'})

    @api.get("/games/{key}/cards")
    def game_cards(key: str):
        return cards(games.get(key).db)

    # ---- replays
    @api.post("/replays", status_code=201)
    def new_replay(body: Union[SavedReplay, RunReplay, SeedReplay]):
        if isinstance(body, SavedReplay):
            if len(json.dumps(body.saved)) > MAX_SAVED_BYTES:
                raise Refused("the saved game is too large", 413)
            f = replays.from_saved(body.saved)
        elif isinstance(body, RunReplay):
            f = replays.from_run(root.path(body.run, "run"), body.game, name=body.run)
        else:
            if HUMAN in body.agents:
                raise Refused(f"a replay of a seed is played by agents: no `{HUMAN}` seat")
            setup = Setup(body.agents, body.edition, body.market, body.princesses, body.seed, body.game,
                          body.turn_cap, body.instant_win_at_30)
            plan, index = setup.plan(agents)
            f = replays.from_seed(plan, index)
        key = shown.add(f)
        return {"id": key, **f.summary()}

    @api.get("/replays/{key}")
    def replay_summary(key: str):
        return {"id": key, **shown.get(key).summary()}

    @api.get("/replays/{key}/frames/{k}")
    def replay_frame(key: str, k: int):
        return shown.get(key).frame(k)

    @api.get("/replays/{key}/cards")
    def replay_cards(key: str):
        return cards(shown.get(key).db)

    # ---- runs and studies
    @api.get("/results")
    def listing():
        found, studies = root.folders()
        return {"root": str(root.folder), "runs": [root.name(p) for p in found],
                "studies": [root.name(p) for p in studies]}

    runs_lock = threading.Lock()

    def run_of(path: str) -> results.Run:
        p = root.path(path, "run")
        with runs_lock:             # a run is read once, then kept (the last few)
            if p not in runs:
                if len(runs) >= MAX_RUNS:
                    runs.pop(next(iter(runs)))
                runs[p] = results.Run(p)
            return runs[p]

    @api.get("/run")
    def run_summary(path: str):
        return {"path": path, **run_of(path).summary()}

    @api.get("/run/chart")
    def run_chart(path: str, kind: str):
        return Response(run_of(path).chart(kind), media_type="image/png")

    @api.get("/study")
    def study(path: str):
        folder = root.path(path, "folder")
        if not folder.is_dir():
            raise Refused(f"{path} is not a folder")
        return results.study(root, folder)

    metas: dict = {}

    @api.get("/study/meta")
    def study_meta(path: str):
        p = root.file(path)
        key = (p, p.stat().st_mtime_ns)
        with runs_lock:
            chart = metas.get(key)
        if chart is None:
            chart = results.meta_chart(p)
            with runs_lock:
                if len(metas) >= MAX_RUNS:
                    metas.pop(next(iter(metas)))
                metas[key] = chart
        return Response(chart, media_type="image/png")

    @api.get("/file")
    def file(path: str):
        p = root.file(path)
        if p.suffix == ".png":
            return Response(p.read_bytes(), media_type="image/png")
        if p.suffix == ".csv":
            return results.table(p)
        return Response(p.read_text(errors="replace"), media_type="text/plain; charset=utf-8")

    return api


def cards(db) -> dict:
    """Every card's printed name and its text as a player reads it (`hoc cards`), by id."""
    return {db.name(i): {"name": db.english(i), "text": db.sheet(i, width=72)} for i in range(len(db))}
