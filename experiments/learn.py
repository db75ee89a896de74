"""Learning example: a policy-gradient agent trained on CPU over the vectorized stepper.

    python -m experiments.learn [--minutes 5 | --updates N] [--opponent random,basic_rush] [--eval-games 1000]

REINFORCE with a learned baseline (numpy only): a linear policy over the observation vector
(`hoc.games.heart_of_crown.observation.FIELDS`, each slot squashed by sign(x) log(1 + |x|)) with a masked softmax
over the fixed action space, and a linear value baseline. The learner plays one seat of 2-player
games on random markets, seats rotating game after game, against built-in jitted opponents (random
by default, then basic_rush: a curriculum) inside `hoc.env.VecHoc`.

Reward: the environment's (+1 sole win, 1/2 shared win, -1 loss, 0 draw at the turn cap) plus a
small shaping term, `--shaping` x (the SP the learner gained by the decision), so the first games,
which random play mostly draws at the turn cap, still say which decisions lead somewhere.

Writes into --out (default results/learn): curve.csv and curve.png (win, draw and loss rates of the
training games against the decisions taken, with 95% Wilson intervals), evaluation.csv (the trained
policy and the untrained one, uniform over the legal actions, against random, basic_rush and
senator_duke, seats rotated, with 95% intervals), policy.npz (the weights) and summary.md.
"""
from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")        # one core, as the figures say (set before numpy loads BLAS)

import argparse  # noqa: E402
import shlex  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from hoc.env import VecHoc, layout  # noqa: E402
from hoc.errors import HocError  # noqa: E402
from hoc.research.stats import wilson  # noqa: E402

EVAL_OPPONENTS = ("random", "basic_rush", "senator_duke")


def features(obs: np.ndarray) -> np.ndarray:
    """The policy's input: every slot squashed (counts, SP and turns on one scale), and a bias."""
    x = np.empty((obs.shape[0], obs.shape[1] + 1), np.float32)
    np.log1p(np.abs(obs), out=x[:, :-1])
    x[:, :-1] *= np.sign(obs)
    x[:, -1] = 1.0
    return x


@dataclass
class Policy:
    """Linear masked-softmax policy and linear value baseline."""

    W: np.ndarray       # (features, actions)
    v: np.ndarray       # (features,)

    @classmethod
    def untrained(cls, n_features: int, n_actions: int) -> "Policy":
        return cls(np.zeros((n_features, n_actions), np.float32), np.zeros(n_features, np.float32))

    def probabilities(self, x: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits = x @ self.W
        logits[masks == 0] = -np.inf
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        return p

    def sample(self, p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        u = rng.random((p.shape[0], 1), dtype=np.float32)
        a = (np.cumsum(p, axis=1) < u).sum(axis=1)
        return np.minimum(a, p.shape[1] - 1)


class Adam:
    def __init__(self, shape, lr: float):
        self.m, self.s, self.lr, self.t = np.zeros(shape, np.float32), np.zeros(shape, np.float32), lr, 0

    def step(self, param: np.ndarray, grad: np.ndarray) -> None:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.s = 0.999 * self.s + 0.001 * grad * grad
        m = self.m / (1 - 0.9 ** self.t)
        s = self.s / (1 - 0.999 ** self.t)
        param += self.lr * m / (np.sqrt(s) + 1e-8)       # ascent: grad is the objective's gradient


def own_sp(obs: np.ndarray, sp: slice) -> np.ndarray:
    return obs[:, sp.start].copy()


def train(args, out: Path) -> tuple[Policy, list[dict]]:
    rng = np.random.default_rng(args.seed)
    stages = [o.strip() for o in args.opponent.split(",")]
    stage = 0
    vec = VecHoc(args.envs, opponents=stages[0], seed=args.seed)
    L = layout(2)
    obs, masks = vec.reset()
    x = features(obs)
    pol = Policy.untrained(x.shape[1], masks.shape[1])
    opt_w, opt_v = Adam(pol.W.shape, args.lr), Adam(pol.v.shape, args.lr)
    T, N = args.horizon, args.envs
    X = np.zeros((T, N, x.shape[1]), np.float32)
    P = np.zeros((T, N, masks.shape[1]), np.float32)
    A = np.zeros((T, N), np.int64)
    R = np.zeros((T, N), np.float32)
    D = np.zeros((T, N), np.bool_)
    curve, window = [], np.zeros(3, np.int64)      # wins, draws, losses since the last curve point
    decisions, start, update = 0, time.process_time(), 0
    while (update < args.updates) if args.updates else (time.process_time() - start < args.minutes * 60):
        done = update / args.updates if args.updates else (time.process_time() - start) / (args.minutes * 60)
        now = min(len(stages) - 1, int(done * len(stages)))
        if now != stage:            # the next opponent of the curriculum, in fresh games
            if window.sum():
                curve.append(curve_point(decisions, time.process_time() - start, window, stages[stage]))
                window[:] = 0
            stage = now
            vec = VecHoc(args.envs, opponents=stages[stage], seed=args.seed + stage)
            obs, masks = vec.reset()
            x = features(obs)
        for t in range(T):
            p = pol.probabilities(x, masks)
            a = pol.sample(p, rng)
            sp = own_sp(obs, L["sp/0"])
            X[t], P[t], A[t] = x, p, a
            obs, masks, rewards, dones = vec.step(a)
            gained = np.where(dones, 0.0, own_sp(obs, L["sp/0"]) - sp)     # a new game's SP is not a gain
            R[t] = rewards + args.shaping * gained
            D[t] = dones
            window += [(rewards[dones] > 0).sum(), (rewards[dones] == 0).sum(), (rewards[dones] < 0).sum()]
            x = features(obs)
        decisions += T * N
        # returns of the segment, cut at the ends of games, the value baseline after its last step
        G = np.zeros((T, N), np.float32)
        g = x @ pol.v
        for t in range(T - 1, -1, -1):
            g = R[t] + args.gamma * np.where(D[t], 0.0, g)
            G[t] = g
        Xf, Gf = X.reshape(T * N, -1), G.reshape(-1)
        adv = Gf - Xf @ pol.v
        opt_v.step(pol.v, Xf.T @ adv / len(adv))                 # least squares on the returns
        adv = (adv - adv.mean()) / (adv.std() + 1e-6)
        onehot = np.zeros_like(P.reshape(T * N, -1))
        onehot[np.arange(T * N), A.reshape(-1)] = 1.0
        Pf = P.reshape(T * N, -1)
        # d log pi(a|x) / d logits = onehot(a) - pi; entropy bonus: -pi (log pi + H)
        logp = np.log(np.maximum(Pf, 1e-12))
        entropy = -(Pf * logp).sum(axis=1, keepdims=True)
        dlogits = (onehot - Pf) * adv[:, None] - args.entropy * Pf * (logp + entropy)
        opt_w.step(pol.W, Xf.T @ dlogits / len(adv))
        update += 1
        if update % args.log_every == 0:
            curve.append(curve_point(decisions, time.process_time() - start, window, stages[stage]))
            last = curve[-1]
            print(f"{decisions:>10,} decisions {last['seconds']:6.0f} s vs {last['opponent']}: {last['games']:5} games, "
                  f"win {last['win']:.3f} [{last['win_lo']:.3f}, {last['win_hi']:.3f}], draw {last['draw']:.3f}, "
                  f"loss {last['loss']:.3f}", flush=True)
            window[:] = 0
    if window.sum():
        curve.append(curve_point(decisions, time.process_time() - start, window, stages[stage]))
    return pol, curve


def curve_point(decisions: int, seconds: float, window: np.ndarray, opponent: str) -> dict:
    wins, draws, losses = (int(v) for v in window)
    n = wins + draws + losses
    lo, hi = wilson(wins, n) if n else (float("nan"), float("nan"))
    return {"decisions": decisions, "seconds": round(seconds, 1), "opponent": opponent, "games": n,
            "win": wins / n if n else float("nan"), "win_lo": lo, "win_hi": hi,
            "draw": draws / n if n else float("nan"), "loss": losses / n if n else float("nan")}


def evaluate(pol: Policy, opponent: str, games: int, seed: int, envs: int = 250) -> dict:
    """`games` games (every slot plays games // envs of them, so long games count as often as
    short ones), seats rotating, the policy sampling its actions."""
    rng = np.random.default_rng(seed)
    envs = min(envs, games)
    per_slot = max(1, games // envs)
    vec = VecHoc(envs, opponents=opponent, seed=seed)
    obs, masks = vec.reset()
    played = np.zeros(envs, np.int64)
    outcome = np.zeros(3, np.int64)
    while (played < per_slot).any():
        a = pol.sample(pol.probabilities(features(obs), masks), rng)
        obs, masks, rewards, dones = vec.step(a)
        counted = dones & (played < per_slot)
        outcome += [(rewards[counted] > 0).sum(), (rewards[counted] == 0).sum(), (rewards[counted] < 0).sum()]
        played += dones
    wins, draws, losses = (int(v) for v in outcome)
    n = wins + draws + losses
    lo, hi = wilson(wins, n)
    llo, lhi = wilson(losses, n)
    return {"opponent": opponent, "games": n, "wins": wins, "draws": draws, "losses": losses,
            "win_rate": wins / n, "win_lo": lo, "win_hi": hi, "loss_rate": losses / n, "loss_lo": llo, "loss_hi": lhi}


def plot(curve, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    d = np.array([c["decisions"] for c in curve])
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(d, [c["win"] for c in curve], label="win")
    ax.fill_between(d, [c["win_lo"] for c in curve], [c["win_hi"] for c in curve], alpha=0.3)
    ax.plot(d, [c["draw"] for c in curve], label="draw (turn cap)")
    ax.plot(d, [c["loss"] for c in curve], label="loss")
    for i in range(len(curve)):
        if i == 0 or curve[i]["opponent"] != curve[i - 1]["opponent"]:
            ax.axvline(d[i], color="grey", lw=0.5)
            ax.text(d[i], 1.02, f"vs {curve[i]['opponent']}", fontsize=8)
    ax.set_ylim(0, 1.1)
    ax.set_xlabel("learner decisions")
    ax.set_ylabel("share of the training games")
    ax.set_title("REINFORCE, linear policy: training games (95% band on wins)", fontsize=10, pad=14)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m experiments.learn", description=__doc__.strip().splitlines()[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="training time, CPU minutes of one core (default 5)")
    ap.add_argument("--opponent", default="random,basic_rush",
                    help="training opponents, jitted agents played in turn for equal shares of the time "
                         "(default random,basic_rush)")
    ap.add_argument("--updates", type=int, default=0,
                    help="train for exactly this many updates instead of --minutes (the run is then the same "
                         "on any machine; the curriculum splits the updates)")
    ap.add_argument("--eval-games", type=int, default=1000, help="evaluation games per opponent (default 1000)")
    ap.add_argument("--envs", type=int, default=256, help="games stepped together (default 256)")
    ap.add_argument("--horizon", type=int, default=32, help="decisions per game between updates (default 32)")
    ap.add_argument("--lr", type=float, default=0.001,
                    help="Adam step (default 0.001: at 0.01 the policy collapsed against basic_rush)")
    ap.add_argument("--gamma", type=float, default=0.995)
    ap.add_argument("--entropy", type=float, default=0.003, help="entropy bonus (default 0.003)")
    ap.add_argument("--shaping", type=float, default=0.02, help="reward per SP gained (default 0.02)")
    ap.add_argument("--log-every", type=int, default=10, help="updates per learning-curve point (default 10)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="results/learn")
    args = ap.parse_args(argv)
    for name in ("minutes", "eval_games", "envs", "horizon", "log_every"):
        if getattr(args, name) <= 0:
            ap.exit(2, f"error: --{name.replace('_', '-')} must be positive, got {getattr(args, name)}\n")
    if args.updates < 0:
        ap.exit(2, f"error: --updates must be 0 (train for --minutes) or more, got {args.updates}\n")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = "python -m experiments.learn " + shlex.join(sys.argv[1:] if argv is None else argv)

    try:
        pol, curve = train(args, out)
    except HocError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    import pandas as pd

    pd.DataFrame(curve).to_csv(out / "curve.csv", index=False)
    if curve:
        plot(curve, out / "curve.png")
    np.savez(out / "policy.npz", W=pol.W, v=pol.v)
    rows = []
    for name, p in (("trained", pol), ("untrained (uniform)", Policy.untrained(*pol.W.shape))):
        for k, opp in enumerate(EVAL_OPPONENTS):
            r = evaluate(p, opp, args.eval_games, seed=10_000 + args.seed * 10 + k)
            rows.append({"policy": name, **r})
            print(f"{name} vs {opp}: win {r['win_rate']:.3f} [{r['win_lo']:.3f}, {r['win_hi']:.3f}], "
                  f"loss {r['loss_rate']:.3f} [{r['loss_lo']:.3f}, {r['loss_hi']:.3f}] over {r['games']} games",
                  flush=True)
    table = pd.DataFrame(rows)
    table.to_csv(out / "evaluation.csv", index=False)
    write_summary(out, command, args, curve, table)
    return 0


def write_summary(out: Path, command: str, args, curve, table) -> None:
    lines = [f"# Learning example\n\nCommand: `{command}`\n",
             f"Training: {curve[-1]['decisions'] if curve else 0:,} learner decisions in "
             f"{curve[-1]['seconds'] if curve else 0:.0f} CPU seconds against {args.opponent}; the whole run, "
             f"evaluation included, {time.process_time():.0f} CPU seconds.\n",
             "| policy | opponent | games | win rate [95% CI] | draw rate | loss rate [95% CI] |", "|---|---|---|---|---|---|"]
    for r in table.itertuples():
        lines.append(f"| {r.policy} | {r.opponent} | {r.games} | {r.win_rate:.3f} [{r.win_lo:.3f}, {r.win_hi:.3f}] | "
                     f"{r.draws / r.games:.3f} | {r.loss_rate:.3f} [{r.loss_lo:.3f}, {r.loss_hi:.3f}] |")
    (out / "summary.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
