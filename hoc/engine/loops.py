"""The game loop, written once for every game and every set of jitted deciders.

`game_loops(rules, agents, variant)` makes the loops that play a game whose jitted rules are the
module `rules` (its `apply`, `is_legal` and invariant `check`) with the decider of the module `agents`
that the lineup needs (`agents.DECIDERS[variant]`, a variant being (search, plan, learned): with or
without a search agent, a turn planner, a learned network; `hoc.agents.ids.Variant`). Each variant is
its own compiled decider, so a plain run compiles neither the search, the planner nor the network, and
a run of one game compiles no other game's rules.

The loops come back as a module (`hoc.engine.loops.<game>.<variant>`, registered in `sys.modules`),
and a loop that plays these loops (the research batch, the tuner's schedule, the environments'
stepper) takes that module as its closure variable. Modules, not compiled functions, are what the
closures hold because numba keys a closure's cache entry by its variables pickled: a module pickles
by its name, a compiled function with a random id, which would miss the cache in every new process.
"""
from __future__ import annotations

import sys
import types

from hoc.engine.jit import kernel
from hoc.engine.layout import E_ILLEGAL, E_STEPS, H_DECIDER, H_END, H_STEPS, MAX_STEPS, OK

_MADE: dict[tuple, types.ModuleType] = {}


def namespace(name: str, doc: str | None = None) -> types.ModuleType:
    """A module registered as `name` in `sys.modules`, to hold jitted functions made at run time: a
    closure that calls them names them as attributes of it (`made.play_out(s)`), so its cache entry
    keys on the module's name, not on the functions' random ids."""
    if name not in sys.modules:
        sys.modules[name] = types.ModuleType(name, doc)
    return sys.modules[name]


def game_loops(rules, agents, variant: tuple = (False, False, False)) -> types.ModuleType:
    """The loops of one game and one decider variant (search, plan, learned), made once per process:

    - `decide(s)`: the action of the jitted agent in the decider's seat;
    - `play_out(s)`: play the game to its end; OK, or E_STEPS if it does not end;
    - `play_checked(s, totals, work)`: the same, checking each action's legality and the game's
      invariants after each step; OK or the first error code;
    - `play_until(s, seat)`: let the jitted agents decide until `seat` must decide or the game ends;
      False if the game runs past MAX_STEPS decisions.
    """
    search, plan, learned = (bool(x) for x in variant)
    key = (rules.__name__, agents.__name__, search, plan, learned)
    if key in _MADE:
        return _MADE[key]
    variant = f"{'search_' if search else ''}{'plan' if plan else 'plain'}{'_learned' if learned else ''}"
    made = namespace(f"{__name__}.{rules.__name__.replace('.', '_')}.{variant}", game_loops.__doc__)
    made.chosen = agents.DECIDERS[(search, plan, learned)]     # read through the module (see above)

    @kernel
    def decide(s):
        return made.chosen(s)

    @kernel
    def play_out(s):
        while s[H_END] == 0:
            rules.apply(s, made.decide(s))
            if s[H_STEPS] > MAX_STEPS:
                return E_STEPS
        return OK

    @kernel
    def play_checked(s, totals, work):
        while s[H_END] == 0:
            a = made.decide(s)
            if not rules.is_legal(s, a):
                return E_ILLEGAL
            rules.apply(s, a)
            e = rules.check(s, totals, work)
            if e != OK:
                return e
            if s[H_STEPS] > MAX_STEPS:
                return E_STEPS
        return OK

    @kernel
    def play_until(s, seat):
        while s[H_END] == 0 and s[H_DECIDER] != seat:
            rules.apply(s, made.decide(s))
            if s[H_STEPS] > MAX_STEPS:
                return False
        return True

    made.decide, made.play_out, made.play_checked, made.play_until = decide, play_out, play_checked, play_until
    made.rules, made.agents, made.search, made.plan, made.learned = rules, agents, search, plan, learned
    _MADE[key] = made
    return made
