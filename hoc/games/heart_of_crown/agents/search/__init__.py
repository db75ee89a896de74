"""The ISMCTS search agent: its options, presets and parameter row (the jitted search is in
`kernel.py`).

An agent spec is a preset name, optionally followed by `:key=value,...`:

    ismcts                                   the default budget
    ismcts:iterations=1000,rollout=senator_duke
    ismcts_strong:princess=twins             a preset with an option changed

Options: `iterations` per decision, `exploration` (PUCT constant, also `c`), `prior` (the prior
probability of the rollout list's own action), `rollout` (the
priority-list agent that plays the rollouts and models every other player), `cutoff` (rollouts stop
after this many turns of all players and are scored by `eval`; 0 plays them to the end), `eval`
(`sp`: a logistic of the searcher's SP lead, `scale` SP per e-fold; `learned`: the turn planner's
evaluation of the position, `hoc/games/heart_of_crown/agents/evaluation.py`), `princess` (back her whenever she
is offered, and use her ability: the rollout list's `abilities` is turned on), `abilities` (1: every
player of the search's rollouts and models uses the princess's ability and Lily's when worth it; 0:
never; default: on with `princess`, else the rollout list's own setting), `main` (1: search the Main-phase decisions too where a card with a text, an ability or
a kept card is at hand, as the turn planner does; 0: the Main phase follows the rollout list),
`net` (a learned policy, `hoc.games.heart_of_crown.agents.learned`, that guides the search: its softmax is the prior at
`temperature`, it models every player and plays the searcher's own unsearched decisions, and its
value head scores each leaf at the searcher's next decision, with no rollout; `rollout` is then
only the list whose row carries the settings and a study's ban).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from hoc.errors import HocError
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.kernel.setup import new_state
from hoc.games.heart_of_crown.agents.search.kernel import (  # noqa: F401 (ISMCTS: re-exported)
    ISMCTS, IS_CUTOFF, IS_EVAL, IS_EXPLORE, IS_ITERATIONS, IS_MAIN, IS_NET, IS_NET_TEMPERATURE, IS_PRINCESS, IS_PRIOR, IS_SCALE,
    ROLLOUT_AGENT, any_planner,
    search_nodes, search_tail,
)
from hoc.games.heart_of_crown.agents import priority_kernel as PK

MAX_ITERATIONS = 100_000
EVALS = ("sp", "learned")


@dataclass(frozen=True)
class Options:
    iterations: int = 400
    exploration: float = 1.0
    prior: float = 0.5
    rollout: str = "tuned_laolily_2p"
    cutoff: int = 0
    eval: str = "sp"
    scale: float = 4.0
    princess: str | None = None
    main: int = 0
    net: str | None = None
    temperature: float = 12.0
    abilities: int | None = None          # None: on when `princess` names her, else the rollout list's


PRESETS = {
    "ismcts": Options(),
    "ismcts_fast": Options(iterations=100),
    "ismcts_strong": Options(iterations=1500),
    "ismcts_net": Options(net="learned_2p", main=1),        # guided by the shipped network, searching the Main phase
}
KEYS = ("iterations", "exploration", "c", "prior", "rollout", "cutoff", "eval", "scale", "princess", "main", "net",
        "temperature", "abilities")


def is_spec(name: str) -> bool:
    """`name` names a search agent (a preset, or a preset with options)."""
    return name.partition(":")[0] in PRESETS


def parse(spec: str, agents=None) -> Options:
    """The options of a spec `preset[:key=value,...]`; one-line HocError for anything wrong.
    `agents` looks an agent up by name (the registry's `get`, passed in: the registry builds the
    search agents); with it the rollout list is checked as its option is read, without it the
    rollout is taken by name."""
    base, _, rest = spec.partition(":")
    if base not in PRESETS:
        raise HocError(f"unknown search agent {base!r}: expected one of {', '.join(PRESETS)}")
    opts = PRESETS[base]
    if ":" in spec and not rest.strip():
        raise HocError(f"agent {spec!r}: no option after ':' (e.g. {base}:iterations=1000)")
    seen = set()
    for token in (t.strip() for t in rest.split(",") if rest):
        key, eq, value = token.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise HocError(f"agent {spec!r}: {token!r} is not key=value (keys: {', '.join(KEYS)})")
        if key not in KEYS:
            from hoc.names import did_you_mean
            raise HocError(f"agent {spec!r}: unknown option {key!r}{did_you_mean(key, KEYS)}; "
                           f"options: {', '.join(KEYS)}")
        key = "exploration" if key == "c" else key
        if key in seen:
            raise HocError(f"agent {spec!r}: option {key!r} given twice")
        seen.add(key)
        opts = dataclasses.replace(opts, **{key: _value(spec, key, value, agents)})
    unused = sorted(seen & {"cutoff", "eval", "scale", "prior"}) if opts.net else []
    if unused:        # a guided search has no rollout to cut off and takes its prior from the network
        raise HocError(f"agent {spec!r}: {', '.join(unused)} {'does' if len(unused) == 1 else 'do'} not apply with net (its prior and its leaves' "
                       "scores are the network's)")
    return opts


def _value(spec: str, key: str, text: str, agents):
    if key in ("main", "abilities"):
        if text not in ("0", "1"):
            raise HocError(f"agent {spec!r}: {key} must be 0 or 1, not {text!r}")
        return int(text)
    if key in ("iterations", "cutoff"):
        try:
            v = int(text)
        except ValueError:
            raise HocError(f"agent {spec!r}: {key} must be a whole number, not {text!r}") from None
        lo = 1 if key == "iterations" else 0
        hi = MAX_ITERATIONS if key == "iterations" else 1000
        if not lo <= v <= hi:
            raise HocError(f"agent {spec!r}: {key} must be between {lo} and {hi}, not {v}")
        return v
    if key == "prior":
        return _number(spec, key, text, 0, 1)
    if key == "net":
        from hoc.games.heart_of_crown.agents import learned

        if not learned.is_spec(text) or ":" in text:
            raise HocError(f"agent {spec!r}: net must name a learned policy ({', '.join(learned.library())} or an "
                           f".npz file of hoc learn), not {text!r}")
        return text
    if key == "temperature":
        return _number(spec, key, text, 0.01, 100)
    if key in ("exploration", "scale"):
        lo = 0.01 if key == "scale" else 0
        return _number(spec, key, text, lo, 100, f"{'above 0.01' if key == 'scale' else 'at least 0'} and at most 100")
    if key == "eval":
        if text not in EVALS:
            raise HocError(f"agent {spec!r}: eval must be one of {', '.join(EVALS)}, not {text!r}")
        return text
    if key == "rollout":
        if agents is not None:
            _rollout_agent(spec, text, agents)      # checked now: a wrong name fails before any game
        return text
    return text                           # princess: checked against the ruleset's cards in `row`


def _number(spec: str, key: str, text: str, lo: float, hi: float, bounds: str | None = None) -> float:
    try:
        v = float(text)
    except ValueError:
        raise HocError(f"agent {spec!r}: {key} must be a number, not {text!r}") from None
    if not lo <= v <= hi:
        raise HocError(f"agent {spec!r}: {key} must be {bounds or f'between {lo:g} and {hi:g}'}, not {text}")
    return v


def _rollout_agent(spec: str, name: str, agents):
    if is_spec(name):
        raise HocError(f"agent {spec!r}: the rollout policy must be a priority list, not the search agent {name!r}")
    agent = agents(name)
    if agent.id != ROLLOUT_AGENT:
        raise HocError(f"agent {spec!r}: the rollout policy must be a priority-list agent (an archetype, a tuned "
                       f"plan or a .toml file), not {name!r}")
    return agent


def row(spec: str, opts: Options, ruleset, agents, net=None) -> np.ndarray:
    """The parameter row: the rollout list's row (the list looked up by `agents`), then the search
    options in their own block after it (IS_*), and the restricted princess first in its backing order.
    A searcher told to back a princess uses her ability (the row's `abilities` flag, which the rollouts
    and the searched Main-phase decisions read) unless `abilities=0` says otherwise.
    `net` is the guiding network's row function (`hoc.games.heart_of_crown.agents.learned.Row`) when `opts.net` names one."""
    P = _rollout_agent(spec, opts.rollout, agents).params(ruleset).copy()
    P[IS_ITERATIONS] = opts.iterations
    P[IS_EXPLORE] = round(opts.exploration * 1000)
    P[IS_PRIOR] = round(opts.prior * 1000)
    P[IS_CUTOFF] = opts.cutoff
    P[IS_SCALE] = round(opts.scale * 1000)
    P[IS_PRINCESS] = -1
    P[IS_MAIN] = opts.main
    P[IS_EVAL] = EVALS.index(opts.eval)
    if net is not None:
        from hoc.games.heart_of_crown.agents.learned.kernel import LN_KEY

        P[IS_NET] = net(ruleset)[LN_KEY]       # checks the network plays this game and player count
        P[IS_NET_TEMPERATURE] = round(opts.temperature * 1000)
    if opts.eval == "learned":          # the turn planner's evaluation, in the row's planner block
        from hoc.games.heart_of_crown.agents.evaluation import N_FEATURES, weights
        from hoc.games.heart_of_crown.agents.planner import PL_WEIGHTS, WEIGHT_SCALE

        P[PL_WEIGHTS:PL_WEIGHTS + 1 + N_FEATURES] = [round(x * WEIGHT_SCALE) for x in weights()]
    if opts.princess is not None:
        db = ruleset.cards
        if opts.princess not in db.pile_ids("princess"):
            from hoc.names import did_you_mean
            raise HocError(f"agent {spec!r}: {opts.princess!r} is not a princess of edition {db.edition}"
                           f"{did_you_mean(opts.princess, db.pile_ids('princess'))}")
        k = db.index(opts.princess)
        if k not in ruleset.pool:
            raise HocError(f"agent {spec!r}: princess {opts.princess!r} is not in this game's pool "
                           f"({', '.join(db.name(i) for i in ruleset.pool)})")
        P[IS_PRINCESS] = k
        order = [int(x) for x in P[PK.PR_PRINCESS:PK.PR_PRINCESS + P[PK.PR_N_PRINCESS]] if x != k]
        order = [k] + order[:7]
        P[PK.PR_N_PRINCESS] = len(order)
        P[PK.PR_PRINCESS:PK.PR_PRINCESS + len(order)] = order
    if opts.abilities is not None:
        P[PK.PR_ABILITIES] = opts.abilities
    elif opts.princess is not None:
        P[PK.PR_ABILITIES] = 1
    return P


def describe(opts: Options) -> str:
    end = f"cut off after {opts.cutoff} turns, scored by SP lead" if opts.cutoff else "played to the end"
    who = f"; backs {opts.princess} when offered" if opts.princess else ""
    if opts.abilities is not None:
        who += f"; {'uses' if opts.abilities else 'never uses'} princess abilities"
    who += "; searches the Main phase" if opts.main else ""
    if opts.net:
        return (f"ISMCTS search guided by {opts.net}: {opts.iterations} iterations per decision, PUCT c="
                f"{opts.exploration:g}, the network's prior (temperature {opts.temperature:g}), models and value{who}")
    return (f"ISMCTS search: {opts.iterations} iterations per decision, PUCT c={opts.exploration:g} prior "
            f"{opts.prior:g}, rollouts by {opts.rollout} ({end}){who}")


def new_search_state(T, R, ids, rows) -> np.ndarray:
    """A state for games under (T, R) with room for the search agents and turn planners of the
    lineup (agent ids, parameter rows): `new_state` plus the arena, none when no seat searches or
    plans."""
    return reserve(new_state(T, R), ids, rows)


def preference_keys(ids, rows) -> list[int]:
    """The networks the planning seats' Second phases are weighed by (`horizon = -1`)."""
    from hoc.agents.ids import PLANNED
    from hoc.games.heart_of_crown.agents.planner import PL_HORIZON, PL_SECOND, PL_WEIGHTS

    return [int(rows[k, PL_WEIGHTS]) for k in range(len(ids))
            if ids[k] == PLANNED and rows[k, PL_SECOND] > 0 and rows[k, PL_HORIZON] < 0 and rows[k, PL_WEIGHTS] != 0]


def reserve(state: np.ndarray, ids, rows) -> np.ndarray:
    """`state`, or a longer copy with the arena the lineup's search agents and turn planners need
    (agent ids, rows), and the tail of networks its learned seats read (`hoc.games.heart_of_crown.agents.learned`)."""
    from hoc.games.heart_of_crown.agents import learned

    ids = np.ascontiguousarray(ids, K.DTYPE)
    rows = np.ascontiguousarray(rows, K.DTYPE).reshape(len(ids), -1)
    need = int(state[K.H_LEN]) + int(search_tail(state, search_nodes(ids, rows), any_planner(ids)))
    guides = [rows[k, IS_NET] for k in range(len(ids)) if ids[k] == ISMCTS and rows[k, IS_NET] != 0]
    guides += preference_keys(ids, rows)
    networks = learned.tail(ids, rows, guides)   # the weights of learned seats and guided searches, at the very end
    if networks is not None:
        base = max(need, len(learned.strip(state)))
        return state if learned.same_tail(state, base, networks) else learned.attach(state, base, networks)
    if need <= state.shape[0]:
        return state
    big = np.zeros(need, state.dtype)
    big[:state.shape[0]] = state
    return big
