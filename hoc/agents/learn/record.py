"""Decisions recorded from jitted games: what imitation learns from (`hoc learn`'s first phase).

`record(ruleset, agents, labels, games, seed, rate)` plays `games` games of the lineup `agents`
(rotating seats game after game, like `--rotate-seats`) and keeps a random share `rate` of the
decisions with more than one legal action taken in seats whose lineup entry has a label. For each it
keeps the deciding seat's observation, its legal actions, the action of the label agent (the seat's
own agent when labels[k] == k; another agent's answer to the same state otherwise, as DAgger asks),
and the game's result for that seat (the environment's reward: 1 win, 1/k shared, -1 loss, 0 draw).

Everything is drawn from the run's seed: the same call gives the same samples.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from hoc.agents.deciders import state_for
from hoc.agents.ids import built, loops_for
from hoc.engine.layout import DTYPE, H_DECIDER, H_END, H_STEPS, MAX_STEPS, R_PLAYERS
from hoc.engine.loops import namespace
from hoc.engine.seeds import game_seed
from hoc.engine.state import mix64, rule, seat_agent
from hoc.env.vector import reward

OBS_DTYPE = np.int16            # observations are small integers (counts, SP, turns)


class Samples(NamedTuple):
    obs: np.ndarray         # (n, observation size) int16
    masks: np.ndarray       # (n, actions) bool
    actions: np.ndarray     # (n,) int64
    values: np.ndarray      # (n,) float32: the game's result for the deciding seat
    games: np.ndarray       # (n,) int64: the game index each sample comes from


def _recorder(loops, view):
    rules = loops.rules
    made = namespace(loops.__name__ + ".recorder." + view.__name__.replace(".", "_"))

    @njit(cache=True)
    def play_recording(master, first, n_games, s, lineup, params, labels, rate, obs, masks, actions, values, games,
                       tmp, scratch):
        """Play games first .. first + n_games - 1 and record into the buffers until they are full;
        returns (samples kept, games played), games played < 0 for a broken game."""
        players = rule(s, R_PLAYERS)
        cap = obs.shape[0]
        kept = 0
        threshold = np.uint64(min(rate, 1.0) * 9223372036854775807.0)      # compared with 63 random bits
        stream = np.uint64(master) ^ np.uint64(0xD1B54A32D192ED03)
        played = 0
        for g in range(n_games):
            index = first + g
            for j in range(players):
                k = (j + index) % players
                seat_agent(s, j, lineup[k], params[k])
            rules.init_game(s, game_seed(master, index))
            start = kept
            while s[H_END] == 0:
                p = s[H_DECIDER]
                k = (p + index) % players
                if labels[k] >= 0 and kept < cap:
                    n = view.legal_mask(s, p, scratch)
                    stream += np.uint64(0x9E3779B97F4A7C15)
                    if n > 1 and (mix64(stream) >> np.uint64(1)) <= threshold:
                        view.observe(s, p, tmp)
                        for i in range(obs.shape[1]):
                            obs[kept, i] = np.int16(min(max(tmp[i], -32768), 32767))
                        for i in range(masks.shape[1]):
                            masks[kept, i] = scratch[i] != 0
                        if labels[k] != k:          # another agent's answer to this state
                            seat_agent(s, p, lineup[labels[k]], params[labels[k]])
                            actions[kept] = loops.decide(s)
                            seat_agent(s, p, lineup[k], params[k])
                        else:
                            actions[kept] = -1      # filled with the action taken below
                        values[kept] = p            # the seat, until the game's result is known
                        games[kept] = index
                        kept += 1
                a = loops.decide(s)
                if kept > start and actions[kept - 1] == -1:
                    actions[kept - 1] = a
                rules.apply(s, a)
                if s[H_STEPS] > MAX_STEPS:
                    return kept, -1 - g
            for i in range(start, kept):
                values[i] = reward(s, np.int64(values[i]))
            played += 1
            if kept >= cap:
                break
        return kept, played

    made.play_recording = play_recording
    return play_recording


def recorder(ruleset, ids):
    return built(_recorder, loops_for(ruleset.game, ruleset.vector, ids), ruleset.game.observation)


def record(ruleset, agents, labels, games: int, seed: int, rate: float, first: int = 0,
           capacity: int | None = None) -> Samples:
    """Samples of the labelled seats' decisions in `games` games (see the module). `labels[k]`: the
    lineup entry whose answer is recorded at entry k's decisions (k itself: its own), or -1 for none."""
    from hoc.errors import HocError

    ids = np.array([a.id for a in agents], np.int64)
    params = np.stack([a.params(ruleset) for a in agents]).astype(DTYPE)
    labels = np.asarray(labels, np.int64)
    if len(agents) != ruleset.players or len(labels) != len(agents):
        raise HocError(f"recording needs one agent and one label per seat ({ruleset.players})")
    view = ruleset.game.observation
    n_obs = view.size(ruleset.players)
    n_act = ruleset.game.n_actions
    if capacity is None:
        per_game = 120 * int((labels >= 0).sum())
        capacity = max(16, int(games * per_game * rate * 1.2) + 64)
    obs = np.zeros((capacity, n_obs), OBS_DTYPE)
    masks = np.zeros((capacity, n_act), np.bool_)
    actions = np.zeros(capacity, np.int64)
    values = np.zeros(capacity, np.float32)
    index = np.zeros(capacity, np.int64)
    s = state_for(ruleset, ids, params)
    loop = recorder(ruleset, ids)
    kept, played = loop(np.int64(seed), np.int64(first), np.int64(games), s, ids, params, labels, float(rate), obs,
                        masks, actions, values, index, np.zeros(n_obs, np.float32), np.zeros(n_act, np.int8))
    if played < 0:
        raise HocError(f"game {first - 1 - played} of the recording ran past {MAX_STEPS} decisions (a broken game)")
    return Samples(obs[:kept], masks[:kept], actions[:kept], values[:kept], index[:kept])
