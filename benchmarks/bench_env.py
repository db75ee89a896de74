"""Environment speed figures (a script that prints numbers, never a timed test).

    python benchmarks/bench_env.py [--envs 64,256,1024] [--seconds 10]

Prints, on one core, in process time (best of 3 runs: the machine is shared):
- the vectorized stepper (`hoc.env.VecHoc`) under a random policy: learner decisions per second,
  each with its observation and legal-action mask written, the opponent's decisions (a jitted random
  agent) played inside the same call, and the policy's own choice (a uniform legal action, jitted)
  included; 2-player games on random markets (the target: 200,000 decisions/s), for several
  batch sizes (the batch's states and observations outgrow the CPU caches as it grows);
- the same counting every decision of the games (the learner's and the opponent's);
- the PettingZoo AEC environment (one game, Python per step) under a random policy: steps per second,
  for information.
"""
from __future__ import annotations

import argparse
import os
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402


@njit(cache=True)
def uniform_legal(masks, u, out):
    """The random policy: for each row, the legal action of rank floor(u * legal actions)."""
    for i in range(masks.shape[0]):
        n = 0
        for a in range(masks.shape[1]):
            n += masks[i, a]
        k = int(u[i] * n)
        for a in range(masks.shape[1]):
            if masks[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


def stepper_rate(envs: int, seconds: float, seed: int) -> tuple[float, float]:
    """(learner decisions/s, all decisions/s) of one run of `seconds`."""
    from hoc.env import VecHoc
    from hoc.games.heart_of_crown.kernel.constants import H_STEPS

    vec = VecHoc(envs, opponents="random", seed=seed)
    obs, masks = vec.reset()
    rng = np.random.default_rng(seed)
    actions = np.zeros(envs, np.int64)
    uniform_legal(masks, rng.random(envs), actions)
    vec.step(actions)                                   # compiled before the clock starts
    learner, total, t = 0, 0, time.process_time()
    while time.process_time() - t < seconds:
        uniform_legal(masks, rng.random(envs), actions)
        before = vec.states[:, H_STEPS].astype(np.int64)
        obs, masks, rewards, dones = vec.step(actions)
        after = vec.states[:, H_STEPS].astype(np.int64)
        # a game that ended restarted in its slot: its decisions up to its end, then the new game's
        total += int(np.where(dones, vec.ended[:, 3] - before + after, after - before).sum())
        learner += envs
    elapsed = time.process_time() - t
    return learner / elapsed, total / elapsed


def aec_rate(seconds: float, seed: int) -> float:
    import hoc.env

    e = hoc.env.env(players=2, seed=seed)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, t = 0, time.process_time()
    while time.process_time() - t < seconds:
        if not e.agents:                    # every seat has stepped out of the finished game
            e.reset()
            continue
        agent = e.agent_selection
        if e.terminations[agent]:
            e.step(None)
            continue
        mask = e.observe(agent)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    return steps / (time.process_time() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--envs", default="64,256,1024", help="games stepped together, one run per size (default 64,256,1024)")
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds per run (default 10)")
    args = ap.parse_args()
    print("vectorized stepper, random policy, 2-player games on random markets, one core (best of 3):")
    for envs in (int(n) for n in args.envs.split(",")):
        runs = [stepper_rate(envs, args.seconds, seed) for seed in range(3)]
        learner = max(r[0] for r in runs)
        total = max(r[1] for r in runs)
        print(f"  {envs:5} games: {learner:,.0f} learner decisions/s (observation and mask written for each; "
              f"target 200,000); {total:,.0f} decisions/s counting the opponent's (a jitted random agent)")
    print(f"AEC environment (PettingZoo, Python per step), random policy: {aec_rate(args.seconds / 2, 0):,.0f} steps/s")


if __name__ == "__main__":
    main()
