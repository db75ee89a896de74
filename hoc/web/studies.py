"""Studies started from the web table's page (`/studies`): a simulation (`hoc simulate`), a round robin
(`hoc tournament`) or a game's princess study (`hoc princesses`, for a game that has one), run as a job
(`hoc.web.jobs`: its own thread, one at a time, a 503 when too many wait), followed on the page and
reported in the command's own words with the command that reproduces it.

What a request names is data, within bounds (`hoc.web.limits`): a game of the registry, agents among
the game's served agents (the library's names, `hoc agents`; no file, no option, no search agent,
which thinks seconds a decision), numbers of games whose total is bounded, and a CPU budget after
which the job stops. Nothing is imported, nothing is read from a path a request gives, nothing is
written: the games are kept in memory while the job runs, then only its report."""
from __future__ import annotations

import threading
from typing import Annotated, Literal

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from hoc.errors import HocError
from hoc.games import DEFAULT
from hoc.web import limits
from hoc.web.errors import Refused
from hoc.web.jobs import Job, Jobs

KINDS = ("simulate", "tournament", "princesses")
Name = Annotated[str, StringConstraints(min_length=1, max_length=80)]


class NewStudy(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["simulate", "tournament", "princesses"]
    game: Annotated[str, Field(min_length=1, max_length=40)] = DEFAULT
    agents: list[Name] = Field(default_factory=list, max_length=limits.MAX_STUDY_AGENTS)
    games: int = Field(1000, ge=1, le=limits.MAX_STUDY_GAMES)       # simulate, princesses; tournament: per pairing
    games_per_pair: int = Field(0, ge=0, le=limits.MAX_STUDY_GAMES)   # princesses at 2 players: the matrix
    players: int = Field(2, ge=2, le=4)
    market: Annotated[str, Field(min_length=1, max_length=400)] = "random"
    seed: int = Field(0, ge=0, lt=2 ** 31)
    rotate_seats: bool = True                                       # simulate


def served(game: str) -> list[str]:
    """The agents a study of `game` may name: the library's agents of the game, less the search agents
    (their games take seconds a decision: the command line plays them)."""
    from hoc.agents.ids import KINDS as AGENT_KINDS
    from hoc.agents.registry import of_game

    return [n for n, a in of_game(game).items() if not (a.id in AGENT_KINDS and AGENT_KINDS[a.id].search)]


def options() -> dict:
    """What the page offers: each game's served agents and studies, and the bounds."""
    from hoc.games import get, names

    games = {}
    for n in names():
        spec = get(n)
        games[n] = {"title": spec.title, "agents": served(n), "default_agent": spec.default_agent,
                    "market_word": spec.market_word,
                    "kinds": [k for k in KINDS if k != "princesses" or "princesses" in spec.studies]}
    return {"games": games, "default": DEFAULT, "limits": {
        "max_agents": limits.MAX_STUDY_AGENTS, "max_games": limits.MAX_STUDY_GAMES,
        "max_total_games": limits.MAX_STUDY_TOTAL_GAMES, "cpu_seconds": limits.STUDY_SECONDS}}


class Studies:
    def __init__(self, stopping: threading.Event):
        self.jobs = Jobs("studies", stopping, limits.STUDY_SECONDS, limits.MAX_STUDIES_WAITING, limits.MAX_STUDIES_KEPT)

    def start(self, body: NewStudy) -> Job:
        """Check the request (a 400 naming what is wrong, before anything is played) and queue it."""
        from hoc.cli.options import ruleset_from_options
        from hoc.games import get, names

        if body.game not in names():
            raise Refused(f"no game {body.game!r}: the games are {', '.join(names())}")
        spec = get(body.game)
        if body.kind == "princesses" and "princesses" not in spec.studies:
            raise Refused(f"{spec.title} has no princesses: its agents are compared by a simulation or a tournament")
        try:
            ruleset = ruleset_from_options(spec.name, {"players": body.players, "market": body.market})
        except HocError as e:
            raise Refused(str(e)) from None
        agents = self._agents(body, spec)
        total, label, command, work = getattr(self, "_" + body.kind)(body, spec, ruleset, agents)
        if total > limits.MAX_STUDY_TOTAL_GAMES:
            raise Refused(f"the {body.kind} would play {total:,} games; the web table plays at most "
                          f"{limits.MAX_STUDY_TOTAL_GAMES:,} a job (the command line has no such bound: {command})")
        return self.jobs.start(Job(body.kind, label, total, command), work)

    def _agents(self, body: NewStudy, spec) -> list:
        from hoc.agents.registry import get

        if body.kind == "princesses":
            if body.agents:
                raise Refused("a princess study plays each princess by her own tuned plan: name no agents")
            return []
        known = served(spec.name)
        for n in body.agents:
            if n not in known:
                from hoc.names import did_you_mean

                raise Refused(f"agent {n!r} is not one of the agents a study of {spec.title} may name here"
                              f"{did_you_mean(n, known)} (the library's, less the search agents; the command line "
                              f"plays any agent)")
        return [get(n) for n in body.agents or [spec.default_agent]]

    @staticmethod
    def _where(body: NewStudy, spec) -> str:
        return f"--game {spec.name} --players {body.players} --market {body.market} --seed {body.seed}"

    def _simulate(self, body, spec, ruleset, agents):
        from hoc.research.harness import Backend, Plan, chunk_size
        from hoc.research.simulate import report, summarise

        if len(agents) not in (1, body.players):
            raise Refused(f"{len(agents)} agents for {body.players} players: name one agent, or one per seat")
        seats = agents * body.players if len(agents) == 1 else agents
        names = ",".join(a.name for a in seats)
        command = (f"hoc simulate {self._where(body, spec)} --agents {names} --games {body.games}"
                   + (" --rotate-seats" if body.rotate_seats else ""))
        plan = Plan(ruleset, seats, body.games, body.seed, body.rotate_seats, chunk=chunk_size(body.games))

        def work(job, told):
            s = summarise(plan, Backend(1), progress=told).summary
            return report(s), s
        return body.games, f"{body.games:,} games of {names}", command, work

    def _tournament(self, body, spec, ruleset, agents):
        from itertools import combinations

        from hoc.research.harness import Backend
        from hoc.research.studies import tournament, tournament_json, tournament_report

        if len({a.name for a in agents}) != len(agents) or len(agents) < max(2, body.players):
            raise Refused(f"a tournament at {body.players} players needs at least {max(2, body.players)} different "
                          f"agents, got {', '.join(a.name for a in agents)}")
        names = ",".join(a.name for a in agents)
        pairings = len(list(combinations(agents, body.players)))
        command = f"hoc tournament {self._where(body, spec)} --agents {names} --games-per-pairing {body.games}"

        def work(job, told):
            t = tournament(ruleset, agents, body.games, body.seed, Backend(1), progress=told)
            return ("\n".join(tournament_report(t, body.players, body.market, body.seed, False)),
                    tournament_json(t, body.seed, body.players))
        return pairings * body.games, f"round robin of {names} ({pairings} pairings)", command, work

    def _princesses(self, body, spec, ruleset, agents):
        from hoc.games.heart_of_crown.studies import princess_study as ps   # the game's own study (spec.studies)
        from hoc.research.harness import Backend

        try:
            plans = ps.best_plans(ruleset, ps.parse_plans(None, ruleset))
        except HocError as e:
            raise Refused(str(e)) from None
        pairs = len(plans) * (len(plans) - 1) // 2 if body.players == 2 else 0
        command = (f"hoc princesses {self._where(body, spec)} --games {body.games} "
                   f"--games-per-pair {body.games_per_pair}")

        def work(job, told):
            r = ps.princess_strength(ruleset, plans, body.games, body.seed, Backend(1), progress=told,
                                     games_per_pair=body.games_per_pair)
            return "\n".join(ps.report(r, body.market, body.seed)), ps.as_json(r, body.seed)
        return (body.games + pairs * body.games_per_pair, f"princesses: {body.games:,} games, {len(plans)} princesses",
                command, work)


def add_routes(api, answers, stopping: threading.Event) -> Studies:
    """GET /api/studies/options, POST /api/studies (start one: 202 with its id), GET /api/studies/{id}
    (its progress, then its report)."""
    studies = Studies(stopping)

    @api.get("/studies/options", operation_id="study_options")
    def study_options():
        return options()

    @api.post("/studies", status_code=202, operation_id="new_study", responses=answers(400, 413, 422, 503))
    def new_study(body: NewStudy):
        return studies.start(body).view()

    @api.get("/studies/{key}", operation_id="study_job", responses=answers(404, 422))
    def study_job(key: Annotated[str, Path(max_length=40)]):
        return studies.jobs.get(key).view()

    return studies
