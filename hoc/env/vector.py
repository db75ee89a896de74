"""The vectorized stepper: N games of one ruleset advanced in one jitted call.

One seat of each game (the learner's) is played by the caller; the other seats by jitted agents,
played inside the call until the learner must decide again. A game that ends is started afresh at
once with the next seed of its slot (auto-reset): the step returns the reward and done flag of the
game that ended and the observation of the new game's first decision.

    vec = VecHoc(1024, opponents="random", seed=1)
    obs, masks = vec.reset()
    obs, masks, rewards, dones = vec.step(actions)      # actions: one legal action id per game

Any game's ruleset works (`VecHoc(n, opponents="dom_big_money", ruleset=dominion.rules.Ruleset())`):
the stepper plays the game through its spec, its observation and its jitted deciders.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np
from numba import njit

from hoc.agents.deciders import state_for
from hoc.agents.ids import built, loops_for
from hoc.agents.registry import get as get_agent
from hoc.errors import HocError
from hoc.engine.jit import entry
from hoc.engine.layout import DTYPE, H_END, H_NP, H_STEPS, H_WIN_MASK, MAX_STEPS, N_PARAMS, R_PLAYERS
from hoc.engine.loops import namespace
from hoc.engine.state import rule, seat_agent
from hoc.games.heart_of_crown.rules import Ruleset



@entry
def reward(s, seat):
    """The reward of `seat` at the end of the game in s: 1 for a sole win, 1/k for a win shared by k
    seats, -1 for a loss, 0 for everyone when nobody wins (the turn cap); 0 while the game runs."""
    if s[H_END] == 0:
        return 0.0
    mask = s[H_WIN_MASK]
    if mask == 0:
        return 0.0
    if (mask >> seat) & 1 == 0:
        return -1.0
    k = 0
    for p in range(s[H_NP]):
        k += (mask >> p) & 1
    return 1.0 / k


@entry
def seat_opponents(s, learner, ids, params):
    """The jitted agents in the seats other than the learner's, in seat order after it."""
    np_ = rule(s, R_PLAYERS)       # (a fresh state's header is laid out by init_game only)
    for k in range(np_ - 1):
        seat_agent(s, (learner + 1 + k) % np_, ids[k], params[k])


class Stepper(NamedTuple):
    """The jitted loops of the stepper for one kind of lineup."""

    arena: bool                 # a seat searches or plans: its states need the arena
    play_others: Callable       # (state, learner seat) -> False if the game is broken
    vec_reset: Callable
    vec_step: Callable


def _stepper(loops, view) -> Stepper:
    """The stepper's loops over a game's loops (`hoc.engine.loops.game_loops`, with the deciders the
    opponents need), so a lineup without a search agent or a planner never compiles them, and a
    search or planning opponent really searches or plans instead of playing its list. `view` is the
    game's observation module (`GameSpec.observation`)."""
    rules = loops.rules
    made = namespace(loops.__name__ + ".stepper." + view.__name__.replace(".", "_"))

    @entry
    def play_others(s, learner):
        """Let the jitted agents of the other seats decide until `learner` must decide or the game ends.
        Returns False if the game runs past MAX_STEPS decisions (a broken game)."""
        return loops.play_until(s, learner)

    @njit(cache=True)
    def start_game(s, slot, n, master, episodes, learners, fixed_seat, ids, params, seeds):
        """Set up the next game of `slot` (seed: game `episode * n + slot` of the run `master`), with the
        learner's seat fixed or rotating by episode, and play the others up to the learner's first
        decision. A game that ends before the learner ever decides is skipped."""
        np_ = rule(s, R_PLAYERS)
        while True:
            e = episodes[slot]
            learner = fixed_seat if fixed_seat >= 0 else (slot + e) % np_
            learners[slot] = learner
            seat_opponents(s, learner, ids, params)
            seeds[slot] = rules.game_seed(master, e * n + slot)
            rules.init_game(s, seeds[slot])
            if not loops.play_until(s, learner):
                return False
            if s[H_END] == 0:
                return True
            episodes[slot] += 1

    @njit(cache=True)
    def vec_reset(states, master, episodes, learners, fixed_seat, ids, params, seeds, obs, masks):
        n = states.shape[0]
        for i in range(n):
            if not made.start_game(states[i], i, n, master, episodes, learners, fixed_seat, ids, params, seeds):
                return -2 - i
            view.observe(states[i], learners[i], obs[i])
            view.legal_mask(states[i], learners[i], masks[i])
        return -1

    @njit(cache=True)
    def vec_step(states, actions, master, episodes, learners, fixed_seat, ids, params, seeds, obs, masks,
                 rewards, dones, ended):
        """Take actions[i] in game i for every i, play the other seats, reset the games that ended.
        Returns -1, or the first game whose action is illegal (nothing is applied then), or
        -2 - i for a game i that runs past MAX_STEPS."""
        n = states.shape[0]
        for i in range(n):
            if not rules.is_legal(states[i], actions[i]):
                return i
        for i in range(n):
            s = states[i]
            learner = learners[i]
            rules.apply(s, actions[i])
            if not loops.play_until(s, learner):
                return -2 - i
            rewards[i] = 0.0
            dones[i] = False
            if s[H_END] != 0:
                rewards[i] = reward(s, learner)
                dones[i] = True
                ended[i, 0] = seeds[i]
                ended[i, 1] = learner
                ended[i, 2] = s[H_WIN_MASK]
                ended[i, 3] = s[H_STEPS]
                episodes[i] += 1
                if not made.start_game(s, i, n, master, episodes, learners, fixed_seat, ids, params, seeds):
                    return -2 - i
            view.observe(s, learners[i], obs[i])
            view.legal_mask(s, learners[i], masks[i])
        return -1

    made.start_game = start_game
    return Stepper(loops.search or loops.plan, play_others, vec_reset, vec_step)


def stepper(ids, ruleset, shared: bool = False) -> Stepper:
    """The loops a lineup of agent ids needs on a ruleset (a seat that searches, a seat that plans:
    `hoc.agents.ids.needs`), made and compiled only when a lineup needs them. `shared`: the caller also
    steps the game through the game's own interface (`Game`), so the loops had better use it too."""
    return built(_stepper, loops_for(ruleset.game, ruleset.vector, ids, shared), ruleset.game.observation)


def opponent_lineup(opponents, players: int, ruleset: Ruleset) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(names, agent ids, parameter rows) of the jitted agents in the seats after the learner's:
    one name for all of them, or one per seat (a list or a comma-separated string)."""
    names = opponents.split(",") if isinstance(opponents, str) else list(opponents)
    names = [n.strip() for n in names]
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise HocError(f"{players} players need {players - 1} opponents (or one for every seat), got "
                       f"{len(names)}: {', '.join(names)}")
    agents = [get_agent(n) for n in names]
    for a in agents:
        if a.play is not None:
            raise HocError(f"opponent {a.name!r} is a Python agent; the environments seat jitted agents only")
        if a.game is not None and a.game != ruleset.game.name:
            raise HocError(f"opponent {a.name!r} plays {a.game}, not {ruleset.game.name}")
    ids = np.array([a.id for a in agents] or [0], np.int64)
    params = np.zeros((max(players - 1, 1), N_PARAMS), DTYPE)
    for k, a in enumerate(agents):
        params[k] = a.params(ruleset)
    return names, ids, params


class VecHoc:
    """N games at once: `reset()` -> (obs, masks), `step(actions)` -> (obs, masks, rewards, dones).

    obs: float32 (N, `hoc.games.heart_of_crown.observation.size(players)`), the learner seat's observation (see
    `hoc.games.heart_of_crown.observation.FIELDS`); masks: int8 (N, N_ACTIONS), 1 for each legal action; rewards:
    float32 (N,) at the end of a game (1 sole win, 1/k shared win, -1 loss, 0 draw), else 0; dones:
    bool (N,). `learners[i]` is the learner's seat in game i (fixed by `seat`, or rotating through the
    seats game after game when `seat` is None); `ended[i]` = (game seed, learner seat, winning seats
    bitmask, decisions of all seats) of the last game slot i finished. Game e of slot i has the seed of game e * N + i of a
    run with seed `seed` (`Game.of_run`), so every game can be replayed.
    """

    def __init__(self, n: int, opponents="random", players: int = 2, market="random", edition: str = "2e",
                 seat: int | None = None, seed: int = 0, ruleset: Ruleset | None = None, **rules):
        if n < 1:
            raise HocError(f"the stepper needs 1 game or more, got {n}")
        self.ruleset = ruleset if ruleset is not None else Ruleset(players=players, market=market,
                                                                   edition=edition, **rules)
        self.players = self.ruleset.players
        if seat is not None and not 0 <= seat < self.players:
            raise HocError(f"seat {seat!r} does not exist: seats are 0 to {self.players - 1}")
        self.n, self.seed, self.fixed_seat = n, int(seed), -1 if seat is None else int(seat)
        self.opponents, self.ids, self.params = opponent_lineup(opponents, self.players, self.ruleset)
        self.loops = stepper(self.ids, self.ruleset)
        # a search or planning opponent works in an arena at the tail of the state (hoc.games.heart_of_crown.agents.arena)
        one = state_for(self.ruleset, self.ids, self.params)
        self.states = np.zeros((n, one.shape[0]), DTYPE)
        self.states[:] = one
        game = self.ruleset.game
        self.obs = np.zeros((n, game.observation.size(self.players)), np.float32)
        self.masks = np.zeros((n, game.n_actions), np.int8)
        self.rewards = np.zeros(n, np.float32)
        self.dones = np.zeros(n, np.bool_)
        self.episodes = np.zeros(n, np.int64)
        self.learners = np.zeros(n, np.int64)
        self.seeds = np.zeros(n, np.int64)
        self.ended = np.zeros((n, 4), np.int64)

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        self.episodes[:] = 0
        self._check(self.loops.vec_reset(self.states, np.int64(self.seed), self.episodes, self.learners,
                                         self.fixed_seat, self.ids, self.params, self.seeds, self.obs, self.masks))
        return self.obs, self.masks

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        actions = np.ascontiguousarray(actions, np.int64)
        if actions.shape != (self.n,):
            raise HocError(f"step needs one action per game ({self.n}), got shape {actions.shape}")
        bad = self.loops.vec_step(self.states, actions, np.int64(self.seed), self.episodes, self.learners,
                                  self.fixed_seat, self.ids, self.params, self.seeds, self.obs, self.masks,
                                  self.rewards, self.dones, self.ended)
        if 0 <= bad:
            raise HocError(f"action {int(actions[bad])} is not legal in game {bad} of the stepper")
        self._check(bad)
        return self.obs, self.masks, self.rewards, self.dones

    @staticmethod
    def _check(code: int) -> None:
        if code <= -2:
            raise HocError(f"game {-2 - code} of the stepper ran past {MAX_STEPS} decisions (a broken game)")

    def game_seed(self, i: int) -> int:
        """The seed (as `Game(seed=...)` takes it) of the game now in slot i."""
        return int(np.int64(self.seeds[i]).view(np.uint64))
