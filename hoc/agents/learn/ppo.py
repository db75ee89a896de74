"""PPO with action masking over the vectorized stepper, against a league of opponents (CleanRL's
recipe in one file: rollout, generalised advantage estimation, clipped policy loss).

The learner plays one seat of many games at once (`hoc.env.VecHoc`: the other seats are jitted
agents, played inside the stepper); its seat rotates game after game. The games are shared out over
the league, one stepper per opponent: fixed agents (the tuned library) and snapshots of the learner
itself (weight files played by the jitted forward pass, `hoc.games.heart_of_crown.agents.learned.kernel`). Illegal actions
get logit -1e9, so they are never sampled and carry no gradient. A decision with a single legal action
is stepped like any other but left out of the policy and entropy terms (it teaches nothing).

Reward: the environment's, at the end of the game (1 a win, 1/k a shared win, -1 a loss, 0 a draw).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from hoc.agents.learn.model import PolicyValue


@dataclass(frozen=True)
class Settings:
    envs: int = 128             # games stepped at once, shared out over the league
    steps: int = 64             # decisions per game slot per update
    epochs: int = 4
    minibatches: int = 4
    lr: float = 1e-4
    gamma: float = 1.0          # the game's result is all that counts, however late
    lam: float = 0.95
    clip: float = 0.2
    vf_coef: float = 0.5
    ent_coef: float = 0.003
    max_grad_norm: float = 0.5

    @property
    def batch(self) -> int:
        return self.envs * self.steps


class League:
    """The steppers of one generation: `slots[i]` = (opponent name, VecHoc)."""

    def __init__(self, ruleset, opponents: list[str], envs: int, seed: int):
        from hoc.env import VecHoc

        share = [envs // len(opponents) + (1 if i < envs % len(opponents) else 0) for i in range(len(opponents))]
        self.slots = [(name, VecHoc(n, opponents=name, ruleset=ruleset, seed=seed * 1000 + i))
                      for i, (name, n) in enumerate(zip(opponents, share)) if n > 0]
        parts = [vec.reset() for _, vec in self.slots]
        self.obs = np.concatenate([o for o, _ in parts])
        self.masks = np.concatenate([m for _, m in parts])
        self.bounds = np.cumsum([0] + [vec.n for _, vec in self.slots])

    def step(self, actions: np.ndarray):
        obs, masks, rewards, dones = [], [], [], []
        for (name, vec), lo, hi in zip(self.slots, self.bounds[:-1], self.bounds[1:]):
            o, m, r, d = vec.step(actions[lo:hi])
            obs.append(o.copy())
            masks.append(m.copy())
            rewards.append(r.copy())
            dones.append(d.copy())
        self.obs, self.masks = np.concatenate(obs), np.concatenate(masks)
        return np.concatenate(rewards), np.concatenate(dones)

    def opponent_of(self) -> np.ndarray:
        """The league index of each game slot's opponent."""
        return np.repeat(np.arange(len(self.slots)), np.diff(self.bounds))


def rollout(model: PolicyValue, league: League, settings: Settings, generator: torch.Generator):
    """`settings.steps` decisions in every game slot: the batch of an update, and the games that
    ended in it as (league index, reward) pairs."""
    T, N = settings.steps, len(league.obs)
    n_obs, n_act = league.obs.shape[1], league.masks.shape[1]
    obs = torch.zeros((T, N, n_obs), dtype=torch.int16)
    masks = torch.zeros((T, N, n_act), dtype=torch.bool)
    actions = torch.zeros((T, N), dtype=torch.int64)
    logps = torch.zeros((T, N))
    values = torch.zeros((T, N))
    rewards = torch.zeros((T, N))
    dones = torch.zeros((T, N))
    ended = []
    who = league.opponent_of()
    with torch.no_grad():
        for t in range(T):
            o = torch.from_numpy(np.clip(league.obs, -32768, 32767).astype(np.int16))
            m = torch.from_numpy(league.masks.astype(np.bool_))
            logits, v = model(o, m)
            probs = torch.softmax(logits, dim=-1)
            a = torch.multinomial(probs, 1, generator=generator).squeeze(1)
            obs[t], masks[t], actions[t], values[t] = o, m, a, v
            logps[t] = torch.log_softmax(logits, dim=-1).gather(1, a[:, None]).squeeze(1)
            r, d = league.step(a.numpy())
            rewards[t], dones[t] = torch.from_numpy(r), torch.from_numpy(d.astype(np.float32))
            for i in np.flatnonzero(d):
                ended.append((int(who[i]), float(r[i])))
        o = torch.from_numpy(np.clip(league.obs, -32768, 32767).astype(np.int16))
        _, last = model(o, torch.from_numpy(league.masks.astype(np.bool_)))
    advantages = torch.zeros((T, N))
    gae = torch.zeros(N)
    for t in reversed(range(T)):
        next_value = last if t == T - 1 else values[t + 1]
        live = 1.0 - dones[t]
        delta = rewards[t] + settings.gamma * next_value * live - values[t]
        gae = delta + settings.gamma * settings.lam * live * gae
        advantages[t] = gae
    batch = {"obs": obs.reshape(T * N, n_obs), "masks": masks.reshape(T * N, n_act), "actions": actions.reshape(-1),
             "logps": logps.reshape(-1), "values": values.reshape(-1), "advantages": advantages.reshape(-1)}
    batch["returns"] = batch["advantages"] + batch["values"]
    batch["choice"] = batch["masks"].sum(1) > 1
    return batch, ended


def update(model: PolicyValue, optimizer: torch.optim.Optimizer, batch: dict, settings: Settings,
           generator: torch.Generator) -> dict:
    """PPO's epochs over the batch; the mean losses of the last epoch."""
    n = len(batch["actions"])
    size = max(1, n // settings.minibatches)
    choice = batch["choice"].float()
    adv = batch["advantages"]
    sel = batch["choice"]
    adv = (adv - adv[sel].mean()) / (adv[sel].std() + 1e-8) if sel.any() else adv
    stats = {}
    for _ in range(settings.epochs):
        order = torch.randperm(n, generator=generator)
        sums = {"policy": 0.0, "value": 0.0, "entropy": 0.0, "kl": 0.0}
        for lo in range(0, n, size):
            j = order[lo:lo + size]
            logits, v = model(batch["obs"][j], batch["masks"][j])
            logp_all = torch.log_softmax(logits, dim=-1)
            logp = logp_all.gather(1, batch["actions"][j][:, None]).squeeze(1)
            ratio = torch.exp(logp - batch["logps"][j])
            w = choice[j]
            k = w.sum().clamp(min=1.0)
            a = adv[j]
            policy = (torch.max(-a * ratio, -a * ratio.clamp(1 - settings.clip, 1 + settings.clip)) * w).sum() / k
            p_all = torch.exp(logp_all)
            entropy = (-(p_all * logp_all.clamp(min=-30)).sum(1) * w).sum() / k
            value = ((v - batch["returns"][j]) ** 2).mean()
            loss = policy + settings.vf_coef * value - settings.ent_coef * entropy
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), settings.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                kl = (((ratio - 1) - torch.log(ratio)) * w).sum() / k
            parts = len(j) / n
            for key, x in (("policy", policy), ("value", value), ("entropy", entropy), ("kl", kl)):
                sums[key] += float(x.detach()) * parts
        stats = sums
    return stats
