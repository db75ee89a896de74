"""A replay at the web table: a game's decisions taken again one by one by the saved game's
`Script`, with the table (every seat's hand shown) and the replay's log kept at each decision, so a
page can step forward and back. The games come from where `hoc replay` finds them: a game saved by
`hoc play` or the web table, game N of a Parquet run, or game N of a seed and lineup."""
from __future__ import annotations

from hoc.games.heart_of_crown.replay import Script, result_of
from hoc.games.heart_of_crown.view import seat_view
from hoc.web.errors import Refused


class Frames:
    """The replay of (plan, index, actions): `frames[k]` is the table before decision k (the last
    one: the end) and the decision taken there; `lines` is the whole log, each frame saying how many
    of its lines were written by then."""

    def __init__(self, plan, index: int, actions: list[int], source: str):
        t = Script(plan, index, actions)
        self.source, self.seats, self.db = source, [a.name for a in t.agents], plan.ruleset.cards
        self.frames: list[dict] = []
        t.begin()
        while t.ready():
            self._keep(t, actions[len(t.actions)])
            t.step()
        t.close()
        self._keep(t, None)
        self.lines = t.lines
        self.result = result_of(t.game)
        self.sp_by_turn = self._sp_by_turn()

    def _keep(self, t, taken: int | None) -> None:
        g = t.game
        view = seat_view(t, None)
        text = next((a["text"] for a in view["actions"] if a["action"] == taken), None)
        self.frames.append({"view": view, "lines": len(t.lines), "decision": len(t.actions),
                            "taken": None if taken is None else {"action": int(taken), "label": g.label(taken),
                                                                 "text": text},
                            "sp": [int(g.sp(q)) for q in range(g.players)], "turn": int(g.turns)})

    def _sp_by_turn(self) -> list[dict]:
        """Every seat's SP at the end of each turn (the last frame of each turn number)."""
        last: dict[int, list[int]] = {}
        for f in self.frames:
            last[f["turn"]] = f["sp"]
        return [{"turn": t, "sp": sp} for t, sp in sorted(last.items())]

    def frame(self, k: int) -> dict:
        if not 0 <= k < len(self.frames):
            raise Refused(f"no frame {k}: the replay has frames 0 to {len(self.frames) - 1}", 404)
        f = self.frames[k]
        return {**f, "frame": k, "frames": len(self.frames)}

    def summary(self) -> dict:
        return {"source": self.source, "seats": self.seats, "frames": len(self.frames), "result": self.result,
                "sp_by_turn": self.sp_by_turn, "log": self.lines}


def from_saved(data, resolve=None) -> Frames:
    """A saved game's replay (its JSON as `hoc play --save` writes it), checked to end as saved."""
    from hoc.research.replays import saved_plan

    plan, index, actions, result = saved_plan(data, "the saved game")
    f = Frames(plan, index, actions, "a saved game")
    if f.result != result:
        differ = ", ".join(f"{k} {f.result[k]!r} (saved: {result.get(k)!r})" for k in f.result
                           if f.result[k] != result.get(k))
        raise Refused(f"the replay of the saved game does not end as it was saved: {differ}", 422)
    return f


def from_run(path, index: int, agents=None, name: str | None = None) -> Frames:
    """Game `index` of a Parquet run folder, replayed as it was played and checked against its row
    (`name`: what the page calls the run, default its path)."""
    from hoc.research.replays import replay_run, run_plan

    plan, _ = run_plan(path, agents)
    if plan.ruleset.game.name != "heart_of_crown":
        raise Refused(f"the web replay tells Heart of Crown games; {path} is a run of {plan.ruleset.game.title} "
                      f"(`hoc replay --from {path}` tells it at the terminal)", 422)
    r = replay_run(path, index, agents)
    return Frames(plan, index, r.actions, f"game {index} of the run {name or path}")


def from_seed(plan, index: int) -> Frames:
    """Game `index` of the run of `plan` (its seed and lineup), played by its agents."""
    from hoc.games.heart_of_crown.replay import replay_game

    r = replay_game(plan, index)
    return Frames(plan, index, r.actions, f"game {index} of seed {plan.seed}")
