"""A replay at the web table: a game's decisions taken again one by one by the saved game's
`Script`, with the table (every seat's hand shown) and the replay's log kept at each decision, so a
page can step forward and back. The games come from where `hoc replay` finds them: a game saved by
`hoc play` or the web table, game N of a Parquet run, or game N of a seed and lineup.

A replay is built on a worker (`hoc.web.workers`) within its bounds (`hoc.web.limits`: decisions,
CPU seconds); its frames are kept as compressed JSON, about a kilobyte each, and `nbytes` says what
it holds, for the store's bound on all replays together."""
from __future__ import annotations

import json
import zlib

from hoc.games.heart_of_crown.replay import Script, result_of
from hoc.games.heart_of_crown.spec import GAME as TOLD     # the game whose replays the web table tells
from hoc.games.heart_of_crown.view import seat_view
from hoc.web import limits
from hoc.web.errors import Refused
from hoc.web.workers import Budget


class TooLong(Refused):
    status = 413


class Frames:
    """The replay of (plan, index, actions): frame k is the table before decision k (the last one: the
    end) and the decision taken there; `lines` is the whole log, each frame saying how many of its
    lines were written by then."""

    def __init__(self, plan, index: int, actions: list[int], source: str, budget: Budget | None = None):
        if len(actions) > limits.MAX_DECISIONS:
            raise TooLong(f"the game has {len(actions):,} decisions; the web table replays at most "
                          f"{limits.MAX_DECISIONS:,} (`hoc replay` tells any game)")
        budget = (budget or Budget(limits.REPLAY_SECONDS)).begin()
        t = Script(plan, index, actions)
        self.source, self.seats, self.db = source, [a.name for a in t.agents], plan.ruleset.cards
        self._frames: list[bytes] = []
        self.nbytes = 0
        last: dict[int, list[int]] = {}       # every seat's SP at the end of each turn
        t.begin()
        while t.ready():
            self._keep(t, actions[len(t.actions)], last)
            t.step()
            if budget.spent():
                raise TooLong(f"the replay took more than {limits.REPLAY_SECONDS} s of CPU to build "
                              f"({len(t.actions):,} decisions); `hoc replay` tells it at the terminal")
        t.close()
        self._keep(t, None, last)
        self.lines = t.lines
        self.result = result_of(t.game)
        self.sp_by_turn = [{"turn": turn, "sp": sp} for turn, sp in sorted(last.items())]
        self.nbytes += sum(len(line) + 60 for line in self.lines)

    def _keep(self, t, taken: int | None, last: dict) -> None:
        g = t.game
        view = seat_view(t, None)
        text = next((a["text"] for a in view["actions"] if a["action"] == taken), None)
        sp = [int(g.sp(q)) for q in range(g.players)]
        frame = {"view": view, "lines": len(t.lines), "decision": len(t.actions),
                 "taken": None if taken is None else {"action": int(taken), "label": g.label(taken), "text": text},
                 "sp": sp, "turn": int(g.turns)}
        packed = zlib.compress(json.dumps(frame, separators=(",", ":")).encode(), 1)
        self._frames.append(packed)
        self.nbytes += len(packed) + 40
        last[int(g.turns)] = sp

    def __len__(self) -> int:
        return len(self._frames)

    def frame(self, k: int) -> bytes:
        """Frame k as JSON (bytes), with its number and the replay's frame count."""
        if not 0 <= k < len(self._frames):
            raise Refused(f"no frame {k}: the replay has frames 0 to {len(self._frames) - 1}", 404)
        body = zlib.decompress(self._frames[k])
        return body[:-1] + f',"frame":{k},"frames":{len(self._frames)}}}'.encode()

    def summary(self) -> dict:
        return {"source": self.source, "seats": self.seats, "frames": len(self._frames), "result": self.result,
                "sp_by_turn": self.sp_by_turn, "log": self.lines}


def from_saved(data, budget: Budget | None = None) -> Frames:
    """A saved game's replay (its JSON as `hoc play --save` writes it, every field checked as `hoc
    replay` checks it), checked to end as saved."""
    from hoc.research.replays import saved_plan

    plan, index, actions, result = saved_plan(data, "the game sent", limits.MAX_DECISIONS)
    if plan.ruleset.game is not TOLD:
        raise Refused(f"the web replay tells {TOLD.title} games; the game sent is a game of "
                      f"{plan.ruleset.game.title} (`hoc replay FILE` tells it)", 422)
    f = Frames(plan, index, actions, "a saved game", budget)
    if f.result != result:
        differ = ", ".join(f"{k} {f.result[k]!r} (saved: {result.get(k)!r})" for k in f.result
                           if f.result[k] != result.get(k))
        raise Refused(f"the replay of the saved game does not end as it was saved: {differ}", 422)
    return f


def from_run(path, index: int, reach, name: str | None = None, budget: Budget | None = None) -> Frames:
    """Game `index` of a Parquet run folder, replayed as it was played and checked against its row
    (`reach`: where the run's agent names may lead; `name`: what the page calls the run)."""
    from hoc.research.replays import check_index, run_plan, same_as_saved

    plan, recorded = run_plan(path, reach=reach)
    if plan.ruleset.game is not TOLD:
        raise Refused(f"the web replay tells {TOLD.title} games; {name or path} is a run of "
                      f"{plan.ruleset.game.title} (`hoc replay --from RUN` tells it at the terminal)", 422)
    check_index(name or path, plan, index)
    t = played(plan, index, budget)
    g = t.game
    same_as_saved(name or path, plan, recorded, index, g.winner if g.winner is not None else -1,
                  [g.sp(j) for j in range(g.players)])
    return Frames(plan, index, t.actions, f"game {index} of the run {name or path}", budget)


def from_seed(plan, index: int, budget: Budget | None = None) -> Frames:
    """Game `index` of the run of `plan` (its seed and lineup), played by its agents."""
    return Frames(plan, index, played(plan, index, budget).actions, f"game {index} of seed {plan.seed}", budget)


def played(plan, index: int, budget: Budget | None = None):
    """Game `index` of `plan` played by its agents (a `Teller`), within the replay's bounds (`budget`:
    the CPU seconds both playing and building the frames may take)."""
    from hoc.games.heart_of_crown.replay import Teller

    budget = (budget or Budget(limits.REPLAY_SECONDS)).begin()
    t = Teller(plan, index)
    t.begin()
    while t.ready():
        t.step()
        if len(t.actions) > limits.MAX_DECISIONS:
            raise TooLong(f"the game goes on past {limits.MAX_DECISIONS:,} decisions, the most the web table "
                          f"replays; `hoc replay` tells it at the terminal")
        if budget.spent():
            raise TooLong(f"the agents took more than {limits.REPLAY_SECONDS} s of CPU to play the game "
                          f"({len(t.actions):,} decisions); `hoc replay` tells it at the terminal")
    return t
