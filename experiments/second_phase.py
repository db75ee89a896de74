"""Probe: can a learned evaluation of the end of a turn weigh the Second phase's back / set / buy
choice better than a list's thresholds?

1. `collect`: the list plays itself (planner off); at each open Second phase where it could back or
   set, with probability `--explore` it takes one of {back, set, its buy} at random instead of its
   own choice (so the data see backings early and late). At the end of every turn the features of the
   player whose turn ended (`hoc.games.heart_of_crown.agents.evaluation`) are recorded with that
   player's result.
2. `fit`: a logistic regression of the result on the features (statsmodels).
3. `probe`: the list, but at each open Second phase where it could back or set it tries each of
   {back, set, its buy} on a copy, plays the copy to the end of the turn by the list, and keeps the
   option whose end of turn the evaluation scores highest (the list's own unless another beats it by
   `--margin` in log-odds); against the plain list, each game seed played in both seats.

    python -m experiments.second_phase --plan tuned_plan_b_2p --games 3000 --probe-games 500
"""
from __future__ import annotations

import argparse
import dataclasses
import time

import numpy as np


def main(argv=None) -> None:
    from hoc.games.heart_of_crown.agents.catalog import from_list, list_file
    from hoc.games.heart_of_crown.agents import priority
    from hoc.games.heart_of_crown.agents.evaluation import FEATURE_NAMES, N_FEATURES, position_features
    from hoc.games.heart_of_crown.game import Game
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.research.stats import wilson
    from experiments.common import redeal

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plan", default="tuned_plan_b_2p")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--probe-games", type=int, default=500)
    ap.add_argument("--explore", type=float, default=0.3)
    ap.add_argument("--margin", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--weights", default=None, help="a .npy of weights to probe (skips collect and fit)")
    ap.add_argument("--save", default="/tmp/second_phase_weights.npy")
    ap.add_argument("--data", default=None, help=".npz of collected (X, y): read if it exists, else written")
    ap.add_argument("--model", default="logit", choices=("logit", "mlp"))
    ap.add_argument("--hidden", type=int, default=16)
    ap.add_argument("--horizon", type=int, default=0, help="own turns played on after this one before scoring")
    ap.add_argument("--samples", type=int, default=1, help="determinizations per option (with --horizon)")
    a = ap.parse_args(argv)

    spec = priority.parse(list_file(a.plan))
    plain = from_list(dataclasses.replace(spec, plan=None), "plain")
    buyer = from_list(dataclasses.replace(spec, plan=None, set_min_sp=10 ** 6, min_coins=10 ** 6), "buyer")
    rs = Ruleset(players=2, market="random")
    buf = np.zeros(N_FEATURES, np.float64)

    def feats(g, p):
        position_features(g.state, p, buf)
        return buf.copy()

    def options(g):
        """{back, set, the list's buy} as legal now, the list's own action first."""
        own = g.decide(plain)
        legal = g.legal_actions()
        backs = [x for x in legal if g.label(x).startswith("back")]
        sets = [x for x in legal if g.label(x).startswith("set")]
        if not backs and not sets:
            return own, []
        pref = [x for x in backs if int(x) == own] or backs[:1]
        opts = [own] + [int(x) for x in pref + sets[:1] if int(x) != own]
        b = g.decide(buyer)
        if b not in opts:
            opts.append(b)
        return own, opts

    def finish_turn(g):
        t = g.turns
        while not g.over and g.turns == t:
            g.apply(g.decide(plain))

    def play_on(c, me):
        """The turn to its end, then `horizon` more of me's own turns (and the others' between)."""
        finish_turn(c)
        for _ in range(a.horizon):
            while not c.over and c.turn_player != me:
                finish_turn(c)
            if not c.over:
                finish_turn(c)

    # 1. collect
    rng = np.random.default_rng(a.seed)
    t0 = time.time()
    import os
    if a.weights is None and a.data and os.path.exists(a.data):
        d = np.load(a.data)
        X, y = d["X"], d["y"]
    elif a.weights is None:
        X, y = [], []
        for i in range(a.games):
            g = Game.of_run(rs, a.seed, i)
            rows = []
            while not g.over:
                act = g.decide(plain)
                if g.context == "second phase" and g.second_phase == "open" and rng.random() < a.explore:
                    own, opts = options(g)
                    if len(opts) > 1:
                        act = opts[rng.integers(len(opts))]
                cur, t = g.turn_player, g.turns
                g.apply(act)
                if g.over or g.turns != t:
                    rows.append((cur, feats(g, cur)))
            if g.winner is None:
                continue
            for p, f in rows:
                X.append(f)
                y.append(1.0 if g.winner == p else 0.0)
        X = np.array(X)
        y = np.array(y)
        print(f"collected {len(y)} turn ends from {a.games} games in {time.time() - t0:.0f} s")
        if a.data:
            np.savez(a.data, X=X, y=y)
    if a.weights is None and a.model == "mlp":
        net = fit_mlp(X, y, a.hidden, a.seed)
        np.savez(a.save, **net)
    elif a.weights is None:
        import statsmodels.api as sm

        keep = np.flatnonzero(X.std(axis=0) > 1e-9)        # a term the plan never varies has no weight
        model = sm.Logit(y, sm.add_constant(X[:, keep])).fit(disp=0, method="bfgs", maxiter=2000)
        w = np.zeros(N_FEATURES + 1)
        w[0] = model.params[0]
        w[1 + keep] = model.params[1:]
        for j, v, se in zip(keep, model.params[1:], model.bse[1:]):
            print(f"  {FEATURE_NAMES[j]:24s} {v:+8.3f} ({se:.3f})")
        print(f"pseudo R2 {model.prsquared:.3f}")
        np.save(a.save, w)
        net = None
    elif a.weights.endswith(".npz"):
        net = dict(np.load(a.weights))
    else:
        w, net = np.load(a.weights), None

    def value(g, p):
        if g.over:
            return 1e9 if g.winner == p else -1e9
        f = feats(g, p)
        if net is not None:
            return float(mlp_logit(net, f[None, :])[0])
        return float(w[0] + w[1:] @ f)

    # 3. probe
    wins = n = probed = changed = 0
    t0 = time.time()
    for i in range(a.probe_games):
        for me in (0, 1):
            g = Game.of_run(rs, a.seed + 1, i)
            while not g.over:
                act = g.decide(plain)
                if g.turn_player == me and g.decider == me and g.context == "second phase" \
                        and g.second_phase == "open":
                    own, opts = options(g)
                    if len(opts) > 1:
                        probed += 1
                        best, best_v = own, None
                        seeds = rng.integers(1 << 62, size=max(1, a.samples)) if a.horizon else [None]
                        for x in opts:
                            v = a.margin if x == own else 0.0
                            for sd in seeds:
                                c = g.clone()
                                if sd is not None:         # the same deal for every option
                                    redeal(c, me, np.random.default_rng(int(sd)))
                                c.apply(x)
                                play_on(c, me)
                                v += value(c, me) / len(seeds)
                            if best_v is None or v > best_v:
                                best, best_v = x, v
                        act = best
                        changed += act != own
                g.apply(act)
            wins += g.winner == me
            n += 1
    if n == 0:
        return
    lo, hi = wilson(wins, n)
    print(f"probe: {100 * wins / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] over {n} games vs {a.plan} (planner off); "
          f"{probed / n:.1f} decisions probed a game, {changed / n:.2f} changed ({time.time() - t0:.0f} s)")


def mlp_logit(net, X):
    h = np.tanh(((X - net["mu"]) / net["sd"]) @ net["W1"] + net["b1"])
    return h @ net["W2"] + net["b2"]


def fit_mlp(X, y, hidden, seed, epochs=60, batch=512, lr=3e-3, l2=1e-4):
    """A one-hidden-layer network (tanh) fitted by Adam on the log loss; 10% held out to report."""
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(y))
    cut = len(y) // 10
    te, tr = idx[:cut], idx[cut:]
    mu, sd = X[tr].mean(0), X[tr].std(0) + 1e-9
    d = X.shape[1]
    P = {"W1": rng.normal(0, 1 / np.sqrt(d), (d, hidden)), "b1": np.zeros(hidden),
         "W2": rng.normal(0, 1 / np.sqrt(hidden), hidden), "b2": np.zeros(())}
    M = {k: np.zeros_like(v) for k, v in P.items()}
    V = {k: np.zeros_like(v) for k, v in P.items()}
    Z = (X - mu) / sd
    t = 0

    def loss(ix):
        h = np.tanh(Z[ix] @ P["W1"] + P["b1"])
        z = h @ P["W2"] + P["b2"]
        return float(np.mean(np.logaddexp(0, z) - y[ix] * z))

    for ep in range(epochs):
        order = rng.permutation(tr)
        for k in range(0, len(order), batch):
            ix = order[k:k + batch]
            h = np.tanh(Z[ix] @ P["W1"] + P["b1"])
            z = h @ P["W2"] + P["b2"]
            g = (1 / (1 + np.exp(-z)) - y[ix]) / len(ix)
            G = {"W2": h.T @ g + l2 * P["W2"], "b2": g.sum()}
            gh = np.outer(g, P["W2"]) * (1 - h ** 2)
            G["W1"] = Z[ix].T @ gh + l2 * P["W1"]
            G["b1"] = gh.sum(0)
            t += 1
            for key in P:
                M[key] = 0.9 * M[key] + 0.1 * G[key]
                V[key] = 0.999 * V[key] + 0.001 * G[key] ** 2
                P[key] = P[key] - lr * (M[key] / (1 - 0.9 ** t)) / (np.sqrt(V[key] / (1 - 0.999 ** t)) + 1e-8)
        if ep % 10 == 9 or ep == epochs - 1:
            print(f"  epoch {ep + 1}: train {loss(tr):.4f}, held out {loss(te):.4f}")
    base = float(np.mean(y[te]))
    print(f"  held-out log loss of the base rate {-(base * np.log(base) + (1 - base) * np.log(1 - base)):.4f}")
    return {**P, "mu": mu, "sd": sd}


if __name__ == "__main__":
    main()
