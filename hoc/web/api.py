"""The HTTP routes of the web table, under /api. Bodies are checked by strict models (a malformed one,
a wrong JSON type included, is a 422 naming the field); every refusal is a 4xx JSON answer
{"error": message} (`hoc.web.app`), and the OpenAPI schema lists every status each route answers.

What a request names is data: agents from the library, agent files inside the served folder, and the
options of search and learned agents read the same way (`hoc.agents.registry.Reach`). The agents
think and replays are built on workers (`hoc.web.workers`), within the bounds of `hoc.web.limits`."""
from __future__ import annotations

import json
import threading
from typing import Annotated, Literal, Union

from fastapi import APIRouter, Query
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from hoc.games.heart_of_crown.spec import GAME as TOLD     # the game the web table plays
from hoc.web import limits, replays, results
from hoc.web.errors import Refused
from hoc.web.store import Store
from hoc.web.tables import HUMAN, MAX_SEATS, Setup, WebTable
from hoc.web.workers import Busy, Workers

MAX_RUNS = 8
STRICT = ConfigDict(extra="forbid", strict=True)
AgentName = Annotated[str, StringConstraints(min_length=1, max_length=limits.MAX_AGENT_NAME)]
PathName = Annotated[str, Query(min_length=1, max_length=1000)]


class Error(BaseModel):
    """Every refusal's body."""

    error: str


def answers(*statuses: int) -> dict:
    """The OpenAPI entries of the refusals a route may answer."""
    said = {400: "bad input: an unknown agent, market or card, a damaged file", 403: "outside the served folder",
            404: "no such game, replay, file or frame", 409: "not now: an illegal action, a seat not to decide",
            413: "too large: a body, a saved game or a replay over its bound",
            422: "a malformed request: a missing, unknown or mistyped field, a value out of range",
            503: "the workers are busy: try again shortly"}
    return {s: {"model": Error, "description": said[s]} for s in statuses}


class Seat(BaseModel):
    seat: int
    agent: str
    human: bool


class PlayAllOffer(BaseModel):
    """What `POST /api/games/{id}/play-all` would play now: every card the seat may play is a plain one."""

    plays: int
    cards: list[dict]
    text: str


class GameState(BaseModel):
    """A game as a page shows it (`WebTable.state`)."""

    id: str
    seats: list[Seat]
    humans: list[int]
    viewer: int
    view: dict                      # the seat's view (`hoc.games.heart_of_crown.view.seat_view`)
    feed: list[str]
    feed_length: int
    decisions: int
    over: bool
    thinking: int | None            # the agent's seat that is thinking, if one is
    stopped: str | None             # why the agents stopped before the end (a bound), if they did
    play_all: PlayAllOffer | None   # the viewer's plain plays, when "play all" is offered
    result: dict | None
    seed: int
    game: int
    rules: dict


class ReplaySummary(BaseModel):
    id: str
    source: str
    seats: list[str]
    frames: int
    result: dict
    sp_by_turn: list[dict]
    log: list[str]


class Value(BaseModel):
    what: str                       # "coins", "links", "sp", ... (the game's own)
    n: int
    text: str                       # "2 coins"


class Card(BaseModel):
    """A card as a page draws it: its name, its whole sheet as plain text (`hoc cards`), and its face
    from the game's card data (`CardDB.face`)."""

    name: str
    text: str
    types: list[str]                # in the data's order: the first is the card's colour
    cost: int
    values: list[Value]
    rules: str                      # the printed text ("" for none)
    summary: str
    supply: str


def linked(status: int, *links: tuple[str, str, dict]) -> dict:
    """A response's OpenAPI links: (name, operationId, parameters) from the id it answers with (what a
    client, or a schema-driven fuzzer, may call next)."""
    return {status: {"links": {name: {"operationId": op, "parameters": {"key": "$response.body#/id", **extra}}
                               for name, op, extra in links}}}


GAME_LINKS = (("state", "game_state", {}), ("act", "act", {}), ("play_all", "play_all", {}), ("saved", "saved", {}),
              ("cards", "game_cards", {}))
REPLAY_LINKS = (("summary", "replay_summary", {}), ("first_frame", "replay_frame", {"k": 0}),
                ("cards", "replay_cards", {}))


class Rules(BaseModel):
    model_config = STRICT
    edition: Literal["2e", "1e"] = "2e"
    market: str = Field("random", max_length=400)
    princesses: str | None = Field(None, max_length=400)
    turn_cap: int = Field(100, ge=1, le=limits.MAX_TURN_CAP)
    instant_win_at_30: bool = False
    seed: int = Field(0, ge=0, lt=2 ** 63)
    game: int = Field(0, ge=0, lt=2 ** 63)


class NewGame(Rules):
    agents: list[AgentName] = Field(min_length=1, max_length=MAX_SEATS)

    @field_validator("agents", mode="before")
    @classmethod
    def _names(cls, v):
        """A comma-separated string reads as the command line's --agents does (a search agent's
        options stay with it)."""
        if isinstance(v, str) and len(v) <= MAX_SEATS * (limits.MAX_AGENT_NAME + 1):
            from hoc.agents.registry import split_names

            return split_names(v, archives=False)
        return v


class Act(BaseModel):
    model_config = STRICT
    action: Union[int, Annotated[str, StringConstraints(max_length=200)]]
    seat: int | None = None
    decisions: int | None = None


class PlayAll(BaseModel):
    model_config = STRICT
    seat: int | None = None
    decisions: int | None = None


class SavedReplay(BaseModel):
    model_config = STRICT
    saved: dict


class RunReplay(BaseModel):
    model_config = STRICT
    run: str = Field(min_length=1, max_length=1000)
    game: int = Field(0, ge=0, lt=2 ** 63)


class SeedReplay(NewGame):
    pass


def router(root, work: Workers) -> APIRouter:
    """The routes of a server reading the folder `root` (`hoc.web.files.Root`), its slow work on
    `work`."""
    from hoc.agents.registry import Reach

    api = APIRouter(prefix="/api")
    games = Store("game", limits.MAX_GAMES, limits.MAX_GAME_BYTES, lambda t: t.nbytes())
    shown = Store("replay", limits.MAX_REPLAYS, limits.MAX_REPLAY_BYTES, lambda f: f.nbytes)
    runs: dict = {}
    reach = Reach(root.folder, limits.MAX_ITERATIONS)

    def agents(names: list[str]):
        """The agents named, as data: the library's, agent files inside the root, search and learned
        agents whose options are read the same way (nothing imported, nothing outside the root read)."""
        from hoc.research.simulate import resolve

        found = resolve(names, reach)
        for n, a in zip(names, found):
            if a.game not in (None, TOLD.name):
                raise Refused(f"agent {n!r} plays {a.game}; the web table plays {TOLD.title}")
        return found

    def think(table: WebTable, wait: float = limits.WAIT_SECONDS) -> None:
        """Let the agents of a game play on a worker if one is to decide and none is at it yet, and wait
        for them a little (a request answers at once when they are quick, and says `thinking` when they
        are not). When the workers are full the game waits: the next request on it tries again."""
        with table.lock:
            due = table.agents_to_play() and not table.queued
            if due:
                try:
                    work.submit(table.think, work.budget(limits.THINKING_SECONDS))
                    table.queued = True
                except Busy:
                    due = False
        if due:
            table.settled.wait(wait)
        games.fit()

    # ---- what a page offers
    @api.get("/options")
    def options():
        from hoc.agents.registry import of_game
        from hoc.games.heart_of_crown.presets import RECOMMENDED

        known = of_game(TOLD.name)
        return {"agents": [HUMAN, *known], "descriptions": {n: a.description for n, a in known.items()},
                "search_agent": "ismcts:iterations=200",
                "markets": ["random", "basic", *RECOMMENDED], "editions": ["2e", "1e"], "max_seats": MAX_SEATS,
                "root": str(root.folder), "limits": limits_now()}

    # ---- playing
    @api.post("/games", status_code=201, response_model=GameState, operation_id="new_game",
              responses={**linked(201, *GAME_LINKS), **answers(400, 403, 404, 413, 422, 503)})
    def new_game(body: NewGame):
        work.check()
        setup = Setup(body.agents, body.edition, body.market, body.princesses, body.seed, body.game, body.turn_cap,
                      body.instant_win_at_30)
        plan, index = setup.plan(agents)
        table = WebTable(plan, index)
        # the game's view once before any agent starts: its first reading compiles (or loads) the view's
        # kernels, under numba's process-wide compiler lock, which an agent's own first compile (a search:
        # a minute, several on a busy machine) holds throughout; read later, the view would wait for it
        # (measured on a cold cache: this request answered after 41 s instead of 1 s)
        table.state()
        key = games.add(table)
        think(table)
        with table.lock:
            return {"id": key, **table.state()}

    @api.get("/games/{key}", response_model=GameState, operation_id="game_state",
             responses={**linked(200, *GAME_LINKS), **answers(400, 404, 422)})
    def game_state(key: str, seat: int | None = None, since: int = 0):
        table = games.get(key)
        think(table, 0)
        with table.lock:
            return {"id": key, **table.state(seat, since)}

    @api.post("/games/{key}/actions", response_model=GameState, operation_id="act",
              responses={**linked(200, *GAME_LINKS), **answers(400, 404, 409, 413, 422, 503)})
    def act(key: str, body: Act, since: int = 0):
        table = games.get(key)
        with table.lock:
            table.act(body.action, body.seat, body.decisions)
        think(table)
        with table.lock:
            return {"id": key, **table.state(None, since)}     # the view of the next human seat to decide

    @api.post("/games/{key}/play-all", response_model=GameState, operation_id="play_all",
              responses={**linked(200, *GAME_LINKS), **answers(400, 404, 409, 413, 422, 503)})
    def play_all(key: str, body: PlayAll, since: int = 0):
        """Play every plain card of the deciding seat's hand, one legal action after another (as many
        clicks would); a 409 unless the state offers it (`play_all`)."""
        table = games.get(key)
        with table.lock:
            table.play_all(body.seat, body.decisions)
        think(table)
        with table.lock:
            return {"id": key, **table.state(None, since)}

    @api.get("/games/{key}/saved", operation_id="saved",
             responses={200: {"content": {"application/json": {"schema": {"type": "object"}}}}, **answers(404, 422)})
    def saved(key: str):
        table = games.get(key)
        with table.lock:
            data = table.saved()
        return Response(json.dumps(data, indent=1) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="hoc-game-{key}.json"'})

    @api.get("/games/{key}/cards", response_model=dict[str, Card], operation_id="game_cards",
             responses=answers(404, 422))
    def game_cards(key: str):
        return cards(games.get(key).db)

    # ---- replays
    @api.post("/replays", status_code=201, response_model=ReplaySummary, operation_id="new_replay",
              responses={**linked(201, *REPLAY_LINKS), **answers(400, 403, 404, 413, 422, 503)})
    def new_replay(body: Union[SavedReplay, RunReplay, SeedReplay]):
        if isinstance(body, SavedReplay):
            if len(json.dumps(body.saved)) > limits.MAX_SAVED_BYTES:
                raise Refused(f"the saved game is larger than {limits.MAX_SAVED_BYTES:,} bytes", 413)
            f = work.run(replays.from_saved, body.saved, work.budget(limits.REPLAY_SECONDS))
        elif isinstance(body, RunReplay):
            f = work.run(replays.from_run, root.run(body.run), body.game, reach, body.run,
                         work.budget(limits.REPLAY_SECONDS))
        else:
            if HUMAN in body.agents:
                raise Refused(f"a replay of a seed is played by agents: no `{HUMAN}` seat")
            setup = Setup(body.agents, body.edition, body.market, body.princesses, body.seed, body.game,
                          body.turn_cap, body.instant_win_at_30)
            plan, index = setup.plan(agents)
            f = work.run(replays.from_seed, plan, index, work.budget(limits.REPLAY_SECONDS))
        key = shown.add(f)
        return {"id": key, **f.summary()}

    @api.get("/replays/{key}", response_model=ReplaySummary, operation_id="replay_summary",
             responses=answers(404, 422))
    def replay_summary(key: str):
        return {"id": key, **shown.get(key).summary()}

    @api.get("/replays/{key}/frames/{k}", operation_id="replay_frame",
             responses={200: {"content": {"application/json": {"schema": {"type": "object", "required": [
                 "view", "frame", "frames", "decision", "sp", "turn"]}}}}, **answers(404, 422)})
    def replay_frame(key: str, k: int):
        return Response(shown.get(key).frame(k), media_type="application/json")

    @api.get("/replays/{key}/cards", response_model=dict[str, Card], operation_id="replay_cards",
             responses=answers(404, 422))
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
        p = root.run(path)
        with runs_lock:             # a run is read once, then kept (the last few)
            if p not in runs:
                if len(runs) >= MAX_RUNS:
                    runs.pop(next(iter(runs)))
                runs[p] = results.Run(p, Reach(root.folder))    # its summary plays nothing: any budget its agents had
            return runs[p]

    @api.get("/run", responses=answers(400, 403, 404, 422))
    def run_summary(path: PathName):
        return {"path": path, **run_of(path).summary()}

    @api.get("/run/chart", responses={200: {"content": {"image/png": {"schema": {"type": "string", "format": "binary"}}}},
                                      **answers(400, 403, 404, 413, 422, 503)})
    def run_chart(path: PathName, kind: Annotated[str, Query(max_length=40)]):
        run = run_of(path)
        return Response(work.run(run.chart, kind), media_type="image/png")

    @api.get("/study", responses=answers(400, 403, 404, 422))
    def study(path: PathName):
        folder = root.path(path, "folder")
        if not folder.is_dir():
            raise Refused(f"{path} is not a folder")
        return results.study(root, folder)

    metas: dict = {}

    @api.get("/study/meta", responses={200: {"content": {"image/png": {"schema": {"type": "string", "format": "binary"}}}},
                                       **answers(400, 403, 404, 422, 503)})
    def study_meta(path: PathName):
        p = root.file(path)
        key = (p, p.stat().st_mtime_ns)
        with runs_lock:
            chart = metas.get(key)
        if chart is None:
            chart = work.run(results.meta_chart, p)
            with runs_lock:
                if len(metas) >= MAX_RUNS:
                    metas.pop(next(iter(metas)))
                metas[key] = chart
        return Response(chart, media_type="image/png")

    @api.get("/file", responses={200: {"content": {"image/png": {"schema": {"type": "string", "format": "binary"}},
                                                   "text/plain": {"schema": {"type": "string"}},
                                                   "application/json": {"schema": {"type": "object"}}}},
                                 **answers(400, 403, 404, 413, 422)})
    def file(path: PathName):
        p = root.file(path)
        if p.stat().st_size > results.MAX_FILE_BYTES and p.suffix != ".csv":
            raise Refused(f"{path} is larger than {results.MAX_FILE_BYTES:,} bytes, the most the web table shows",
                          413)
        if p.suffix == ".png":
            return Response(p.read_bytes(), media_type="image/png")
        if p.suffix == ".csv":
            return results.table(p)
        return Response(p.read_text(errors="replace"), media_type="text/plain; charset=utf-8")

    from hoc.web.markets import add_routes

    add_routes(api, root, answers, work.stopping)

    from hoc.web import studies

    studies.add_routes(api, answers, work.stopping)

    def limits_now() -> dict:
        return {"max_iterations": limits.MAX_ITERATIONS, "max_turn_cap": limits.MAX_TURN_CAP,
                "max_decisions": limits.MAX_DECISIONS}

    return api


def cards(db) -> dict:
    """Every card's printed name, its text as a player reads it (`hoc cards`) and its face (types,
    cost, printed values, text: `CardDB.face`), by id."""
    return {db.name(i): {"name": db.english(i), "text": db.sheet(i), **db.face(i)} for i in range(len(db))}
