"""A game of a run replayed and told (`hoc replay`): the run's plan rebuilt from its lineup and
seed, from the manifest of a run saved with --out (the replay checked against the row it saved), or
from a game saved by `hoc play`. The telling itself is the game's (`GameSpec.replay`), which knows games, not runs.
"""
from __future__ import annotations

import json
from pathlib import Path

from hoc.agents.agent import LOCAL, Agent, Reach, no_params
from hoc.errors import HocError
from hoc import games
from hoc.engine.spec import Ruleset
from hoc.research.harness import Plan
from hoc.research.simulate import lineup
from hoc.research.store import MANIFEST, provenance


def replay(ruleset: Ruleset, agents, seed: int, index: int, rotate: bool = False, mirror: bool = False) -> list[str]:
    """The log of game `index` of the run with seed `seed` and this lineup."""
    plan = Plan(ruleset, list(agents), index + 1, seed, rotate, mirror)
    return _told(plan, index)[0].lines


def _told(plan, index: int):
    """Game `index` of the plan told by its game (`GameSpec.replay`): (telling, winner, scores)."""
    from hoc.agents.deciders import seating

    return plan.ruleset.game.replay_module().tell(plan, index, *seating(plan.ruleset, plan.agents))


# ---- a game of a saved run -------------------------------------------------------------------------

def run_plan(path: str | Path, agents=None, reach: Reach = LOCAL):
    """The plan of a run saved with --out (a NAME.parquet folder), rebuilt from its manifest: the
    same rules, lineup, seed, seat rotation and overrides. `agents` (names or paths, seat order of
    the run's lineup) stand in for agents the registry cannot find by their recorded names (a
    priority list given by its path); their parameters must be those recorded. `reach`: where the
    recorded names may lead (`hoc.agents.registry.Reach`; the web table's keeps them in its folder)."""
    folder = Path(path)
    manifest = folder / MANIFEST
    if not manifest.exists():
        runs = sorted(str(m.parent) for m in folder.glob(f"*.parquet/{MANIFEST}")) if folder.is_dir() else []
        inside = f"; it holds the runs {', '.join(runs)}" if runs else ""
        raise HocError(f"{folder} is not a saved run (no {MANIFEST}){inside}")
    try:
        recorded = json.loads(manifest.read_text())
        p = recorded["plan"]
        ruleset = games.get(recorded.get("game", games.DEFAULT)).replay_module().ruleset_of(p)
        names = agents or ",".join(p["agents"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise HocError(f"{manifest} is unreadable: {e}") from None
    try:
        seats = lineup(names, ruleset.players, reach)
    except HocError as e:
        raise HocError(f"{e}; the run's agents were {', '.join(p['agents'])}: name their files with --agents, "
                       f"in the same order") from None
    plan = Plan(ruleset, seats, p["games"], p["seed"], p["rotate"], p["mirror"], first=p["first"], chunk=p["chunk"],
                shuffle=p.get("shuffle", False))
    now = json.loads(json.dumps({"plan": plan.describe(), **provenance(plan)}))
    differ = sorted(k for k in set(now["plan"]) | set(p) if now["plan"].get(k) != p.get(k))
    differ += [k for k in ("rules_hash", "card_data_hash") if now[k] != recorded.get(k)]
    if differ:
        raise HocError(f"cannot rebuild the run in {folder}: {', '.join(differ)} differ from what it recorded "
                       f"(rule options, agents or card data changed since; the run's engine: "
                       f"{recorded.get('engine_version')})")
    return plan, recorded


def recorded_row(path: str | Path, plan, index: int):
    """The saved row of game `index` (a pandas Series), or None if its part is not on disk."""
    import pandas as pd

    first = plan.first + (index - plan.first) // plan.chunk * plan.chunk
    part = Path(path) / f"part-{first:012d}.parquet"      # as hoc.research.store names a chunk's part
    if not part.exists():
        return None
    df = pd.read_parquet(part)
    row = df[df.game == index]
    return row.iloc[0] if len(row) else None


def replay_run(path: str | Path, index: int, agents=None):
    """Replay game `index` of a saved run exactly as it was played, and check it against the row the
    run saved (winner and SP): a game that ends otherwise is an error naming what differs."""
    plan, recorded = run_plan(path, agents)
    check_index(path, plan, index)
    r, winner, scores = _told(plan, index)
    mine = (winner, scores)
    r.lines.append(same_as_saved(path, plan, recorded, index, *mine))
    return r


def check_index(path, plan, index: int) -> None:
    """Game `index` is one of the run's."""
    if not plan.first <= index < plan.first + plan.games:
        raise HocError(f"game {index} is not in the run in {path}: it holds games {plan.first} to "
                       f"{plan.first + plan.games - 1}")


def same_as_saved(path, plan, recorded: dict, index: int, winner: int, scores: list[int]) -> str:
    """The line saying a replayed game ended as the run saved it (or that the run has not saved it
    yet); an error naming what differs when it did not."""
    score = plan.ruleset.game.score
    row = recorded_row(path, plan, index)
    if row is None:
        return f"(the run did not save game {index}'s result yet: nothing to compare with)"
    saved = (int(row.winner), [int(row[f"{score}_{j}"]) for j in range(plan.ruleset.players)])
    if (winner, scores) != saved:
        raise HocError(f"the replay of game {index} ends with winner {winner} and {score.upper()} {scores}, but the "
                       f"run saved winner {saved[0]} and {score.upper()} {saved[1]} (recorded by engine "
                       f"{recorded.get('engine_version')})")
    return (f"(the run saved the same result for game {index}: winner {saved[0]}, {score.upper()} "
            f"{', '.join(map(str, saved[1]))})")


# ---- a game saved by `hoc play` -------------------------------------------------------------------

def load_saved(path: str | Path) -> tuple:
    """The plan, game index, decisions and recorded result of a saved game file."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as e:
        raise HocError(f"cannot read {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise HocError(f"{path} is not a saved game (not JSON: {e})") from None
    return saved_plan(data, str(path))


def saved_plan(data, name: str, max_decisions: int | None = None) -> tuple:
    """The plan, game index, decisions and recorded result of a saved game's data (`name`: what the
    messages call it, e.g. its file), every field checked first (`hoc.games.saved.read`;
    `max_decisions`: the most decisions taken again, None for any)."""
    from hoc.games import saved as saved_game

    saved = saved_game.read(data, name, max_decisions)
    try:
        ruleset = saved.spec.replay_module().ruleset_of(saved.rules)
    except (KeyError, TypeError) as e:
        raise HocError(f"{name} is a damaged saved game: its rules do not make a ruleset ({e})") from None
    # the seats keep the names they played under; their recorded decisions are taken again
    agents = {name: Agent(name, -1, "a recorded seat", no_params, play=int) for name in saved.seats}
    plan = Plan(ruleset, [agents[n] for n in saved.seats], saved.game + 1, saved.seed)
    return plan, saved.game, saved.actions, saved.result


def replay_saved(path: str | Path):
    """Tell a game saved by `hoc play` (its game's `retell`) and check that it ends as it was saved."""
    plan, index, actions, result = load_saved(path)
    told = plan.ruleset.game.replay_module()
    r = told.retell(plan, index, actions)
    now = told.result_of(r.game)
    if now != result:
        differ = ", ".join(f"{k} {now[k]!r} (saved: {result.get(k)!r})" for k in now if now[k] != result.get(k))
        raise HocError(f"the replay of {path} does not end as the game was saved: {differ}")
    return r
