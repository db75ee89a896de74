"""Imitation, the first phase of `hoc learn`: the network fitted to a teacher's decisions.

The teacher (by default the strongest plan of the library for the player count) plays against each
member of the league and against itself; a share of its decisions with a choice is recorded
(`hoc.agents.learn.record`). The policy head learns the teacher's action by cross-entropy over the
legal actions, the value head the game's result for the deciding seat (squared error). Every 20th
game is held out: its decisions measure how often the network picks the teacher's action on games it
never saw.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from hoc.agents.learn.model import PolicyValue
from hoc.agents.learn.record import Samples, record

HELD_OUT = 20            # every HELD_OUT-th game is held out


@dataclass(frozen=True)
class Fit:
    samples: int
    held_out: int
    agreement: float         # share of held-out decisions where the network picks the teacher's action
    value_error: float       # mean squared error of the value head on them


def collect(ruleset, teacher, opponents: list, games: int, seed: int, rate: float, progress=None) -> Samples:
    """The teacher's decisions in `games` games shared out over the opponents and itself;
    `progress(n)` after each lineup's `n` games."""
    lineups = [(teacher, o) for o in opponents] + [(teacher, teacher)]
    share = [games // len(lineups) + (1 if i < games % len(lineups) else 0) for i in range(len(lineups))]
    parts = []
    first = 0
    for (t, o), n in zip(lineups, share):
        if n == 0:
            continue
        seats = [t] + [o] * (ruleset.players - 1)
        labels = [0] + ([k for k in range(1, ruleset.players)] if o is t else [-1] * (ruleset.players - 1))
        parts.append(record(ruleset, seats, labels, n, seed, rate, first=first))
        first += n              # every lineup plays games of its own indices: no two share a seed
        if progress is not None:
            progress(n)
    return Samples(*(np.concatenate([getattr(p, f) for p in parts]) for f in Samples._fields))


def fit(model: PolicyValue, samples: Samples, epochs: int, generator: torch.Generator, lr: float = 1e-3,
        batch: int = 1024, progress=None) -> Fit:
    held = samples.games % HELD_OUT == 0
    train = np.flatnonzero(~held)
    test = np.flatnonzero(held)
    O = torch.from_numpy(samples.obs)
    M = torch.from_numpy(samples.masks)
    A = torch.from_numpy(samples.actions)
    V = torch.from_numpy(samples.values)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        order = torch.from_numpy(train)[torch.randperm(len(train), generator=generator)]
        for lo in range(0, len(order), batch):
            j = order[lo:lo + batch]
            logits, v = model(O[j], M[j])
            loss = torch.nn.functional.cross_entropy(logits, A[j]) + 0.5 * ((v - V[j]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if progress is not None:
                progress(len(j))
    agree, err = 0.0, 0.0
    with torch.no_grad():
        for lo in range(0, len(test), 8192):
            j = torch.from_numpy(test[lo:lo + 8192])
            logits, v = model(O[j], M[j])
            agree += float((logits.argmax(1) == A[j]).sum())
            err += float(((v - V[j]) ** 2).sum())
    n = max(len(test), 1)
    return Fit(len(train), len(test), agree / n, err / n)
