"""A game saved by `hoc play`, for any game: the file's format, written and read back.

The file records the rules (`Ruleset.describe()`, naming their game), the run's seed and game index,
each seat's name and every decision taken, and the result the game had when it was saved; `hoc replay
FILE` takes the decisions again and checks it ends the same. Reading checks every field for its type
and range before a game is built from it, so a damaged or tampered file is refused in one line. What
is a game's own comes from its `GameSpec.replay` module:

- `SAVED_RULES`: the rules a file must hold, each with its kind (`KINDS`), and `OPTIONAL_RULES`: the
  ones it may hold (null allowed);
- `ruleset_of(rules)`: the ruleset rebuilt from them; `result_of(game)`: what the replay must end with;
- `retell(plan, index, actions)`: the game told again from its recorded decisions (`.lines`, `.game`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from hoc import games
from hoc.errors import HocError

FORMAT = "hoc saved game"
KEYS = ("format", "engine_version", "rules", "seed", "game", "seats", "actions", "result")
MAX_SEAT_NAME = 300


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_str(x) -> bool:
    return isinstance(x, str) and len(x) <= 2000


def _is_strings(x) -> bool:
    return isinstance(x, list) and len(x) <= 100 and all(_is_str(v) for v in x)


# a rule's kind -> (its check, what the message says it must be)
KINDS = {"name": (_is_str, "a string"), "count": (_is_int, "a whole number"),
         "names": (_is_strings, "a list of names"), "flag": (lambda x: isinstance(x, bool), "true or false")}


@dataclass(frozen=True)
class Saved:
    """A saved game's fields, each checked (`read`), and the game they are of."""

    spec: object            # the game's `GameSpec`
    rules: dict
    seed: int
    game: int
    seats: list[str]
    actions: list[int]
    result: dict


def data(ruleset, seed: int, index: int, seats: list[str], actions: list[int], result: dict) -> dict:
    """A game played so far as a saved game's data: game `index` of the run with `seed` under
    `ruleset`, the seats' names, every decision taken and the result now (the game's `result_of`)."""
    import hoc

    told = ruleset.game.replay_module()
    described = ruleset.describe()
    rules = {k: described[k] for k in ("game", *told.SAVED_RULES, *told.OPTIONAL_RULES) if k in described}
    return {"format": FORMAT, "engine_version": hoc.__version__, "rules": rules, "seed": int(seed),
            "game": int(index), "seats": list(seats), "actions": [int(a) for a in actions], "result": result}


def write(path: str | Path, saved: dict) -> None:
    """Write a saved game's data (`data`) to `path`, one line naming the problem if it cannot."""
    try:
        Path(path).write_text(json.dumps(saved, indent=1) + "\n")
    except OSError as e:
        raise HocError(f"cannot save the game to {path}: {e.strerror or e}") from None


def read(saved, name: str, max_decisions: int | None = None) -> Saved:
    """The fields of a saved game's data (its JSON as `data` makes it), every one checked for its type
    and range (`name`: what the messages call the data, e.g. its file; `max_decisions`: the most
    decisions taken again, None for any). The rules' values are checked by the ruleset made from them,
    the actions' legality by the replay that takes them again."""
    def bad(what: str):
        return HocError(f"{name} is a damaged saved game: {what}")

    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        raise HocError(f"{name} is not a game saved by `hoc play` (no \"format\": \"{FORMAT}\")")
    if not _is_str(saved.get("engine_version", "")):
        raise bad("engine_version must be a string")
    extra = sorted(str(k)[:40] for k in saved if k not in KEYS)
    if extra:
        raise bad(f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra[:5]))}")
    missing = [k for k in KEYS if k not in saved and k != "engine_version"]
    if missing:
        raise bad(f"no {', '.join(map(repr, missing))}")
    rules = saved["rules"]
    if not isinstance(rules, dict):
        raise bad("rules must be an object")
    game = rules.get("game", games.DEFAULT)      # files of the default game saved before games were named
    if not _is_str(game) or game not in games.names():
        raise bad(f"rules.game must name a game ({', '.join(games.names())})")
    spec = games.get(game)
    told = spec.replay_module()
    required, optional = told.SAVED_RULES, told.OPTIONAL_RULES
    unknown = sorted(str(k)[:40] for k in rules if k not in ("game", *required, *optional))
    if unknown or any(k not in rules for k in required):
        raise bad(f"rules must have {', '.join(required)} (and may have {', '.join(optional) or 'nothing else'})"
                  + (f"; unknown: {', '.join(map(repr, unknown[:5]))}" if unknown else ""))
    for key, kind in (*required.items(), *optional.items()):
        ok, what = KINDS[kind]
        if key in rules and not (ok(rules[key]) or key in optional and rules[key] is None):
            raise bad(f"rules.{key} must be {what}")
    seed, index = saved["seed"], saved["game"]
    if not _is_int(seed) or not 0 <= seed < 2 ** 63:
        raise bad("seed must be a whole number from 0 to 2**63 - 1")
    if not _is_int(index) or not 0 <= index < 2 ** 63:
        raise bad("game must be a whole number from 0 to 2**63 - 1")
    seats = saved["seats"]
    if not _is_strings(seats) or any(not s or len(s) > MAX_SEAT_NAME for s in seats):
        raise bad(f"seats must be a list of agent names (1 to {MAX_SEAT_NAME} characters each)")
    if _is_int(rules.get("players")) and len(seats) != rules["players"]:
        raise bad(f"{len(seats)} seats for {rules['players']} players")
    actions = saved["actions"]
    if not isinstance(actions, list) or not all(_is_int(a) and 0 <= a < spec.n_actions for a in actions):
        raise bad(f"actions must be a list of action ids (0 to {spec.n_actions - 1})")
    if max_decisions is not None and len(actions) > max_decisions:
        raise HocError(f"{name} has {len(actions):,} decisions; at most {max_decisions:,} are replayed here "
                       f"(`hoc replay` tells any length)")
    result = saved["result"]
    if not isinstance(result, dict) or sorted(result) != sorted(told.RESULT_KEYS):
        raise bad(f"result must be an object with {', '.join(told.RESULT_KEYS)}")
    if not (isinstance(result["over"], bool) and (result["end_reason"] is None or _is_str(result["end_reason"]))
            and all(isinstance(v, list) and all(_is_int(x) for x in v) or _is_int(v)
                    for k, v in result.items() if k not in ("over", "end_reason"))):
        raise bad("result must hold over (true or false), end_reason (a name or null) and whole numbers or "
                  f"lists of them ({', '.join(k for k in told.RESULT_KEYS if k not in ('over', 'end_reason'))})")
    return Saved(spec, rules, seed, index, list(seats), list(actions), result)


def take_again(teller, actions: list[int]):
    """A saved game's recorded decisions taken again by a game's teller at the game's start (one that
    has `.game` with `over` and `is_legal(a)`, `step(play=...)`, `.lines` and `ending()`): the game
    told to where it was saved, or one line naming the first decision that no longer fits."""
    for n, a in enumerate(actions):
        if teller.game.over or not teller.game.is_legal(a):
            raise HocError(f"decision {n + 1} of the saved game, action {a}, is not legal here: the rules or the "
                           f"engine changed since it was saved")
        teller.step(play=lambda game, a=a: a)
    teller.lines.append(teller.ending() if teller.game.over
                        else f"(saved before the end, after {len(actions)} decisions)")
    return teller
