"""Fit the Second phase's preference network (`horizon = -1`) to the look-ahead planner's choices.

The look-ahead planner (`second = N`, `horizon = H` in a list's [plan]) weighs each option of an
open Second phase (the list's own action, backing, setting, its buy) by playing N determinized
copies 1 + H of its own turns on and scoring them with the evaluation: strong (`tuned_plan_c_2p`,
horizon 2, beats its own buy rules 61%) but it plays 2-3 turns per option. The preference
(`hoc.games.heart_of_crown.agents.preference`) plays each option on only to the end of this Second
phase and scores it by a small network of the features there: the look-ahead distilled.

1. `collect`: the teacher (a planning list, `--second` / `--horizon` overriding its own) plays itself
   on random markets. At each Second phase its planner weighs, every option's look-ahead score
   (`second_scores`) and its features where the Second phase ends (`second_ends`) are recorded.
   With `--student FILE` the student network's choice is played instead of the teacher's (the
   teacher still scores every option): the data then cover the positions the student reaches
   (DAgger), and an earlier run's data (`--data`) are added to them.
2. `fit`: a two-layer ReLU network (torch, the `learn` extra) from the own option's features and
   another option's difference to them, to the difference of their look-ahead scores (log-odds,
   Huber loss); first on the games before the last fifth, to report on the last fifth how much of
   the look-ahead's best score its choices lose (against the list's own choice), then on all.
3. The network is written in the learned agents' weight format, without a policy head (`--out`; the
   shipped one is `hoc/games/heart_of_crown/agents/data/second_phase.npz`).

    python -m experiments.second_preference --teacher tuned_plan_c_2p --second 8 --games 20000 --seed 41 \
        --out hoc/games/heart_of_crown/agents/data/second_phase.npz
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from hoc.games.heart_of_crown.agents.preference import squash, value


def collect(teacher, student, games: int, seed: int, rs):
    """(features, scores, decision index, game index) of every weighed option; the teacher's or
    the student's choices played."""
    from hoc.games.heart_of_crown.agents.policies import decider
    from hoc.games.heart_of_crown.agents.search import reserve
    from hoc.games.heart_of_crown.agents.evaluation import N_FEATURES, position_features
    from hoc.games.heart_of_crown.agents.planner import PL_SECOND_MARGIN, second_ends, second_scores
    from hoc.games.heart_of_crown.game import Game
    from hoc.games.heart_of_crown.kernel import constants as K
    from hoc.games.heart_of_crown.kernel.state import seat_agent

    P = np.ascontiguousarray(teacher.params(rs), K.DTYPE)
    margin = float(P[PL_SECOND_MARGIN])
    play = decider([teacher.id])
    acts = np.zeros(K.N_ACTIONS, K.DTYPE)
    vals = np.zeros(K.N_ACTIONS, np.float64)
    feats = np.zeros((K.N_ACTIONS, N_FEATURES), np.float64)
    here = np.zeros(N_FEATURES, np.float64)
    X, y, group, game_of, now = [], [], [], [], []
    decision = 0
    for i in range(games):
        g = Game.of_run(rs, seed, i)
        g.state = reserve(g.state, [teacher.id], P[None, :])
        for q in range(rs.players):
            seat_agent(g.state, q, teacher.id, P)
        while not g.over:
            p = g.decider
            n = second_scores(g.state, p, acts, vals)
            if n <= 1:
                g.apply(int(play(g.state)))
                continue
            second_ends(g.state, p, acts, n, feats)
            position_features(g.state, p, here)
            now.append(here.copy())
            X.append(feats[:n].copy())
            y.append(vals[:n] / 1000.0)                      # log-odds
            group.append(np.full(n, decision))
            game_of.append(np.full(n, i))
            decision += 1
            if student is None:
                score = vals[:n].copy()
                score[0] += margin
            else:
                score = np.r_[0.0, value(student, np.hstack([np.repeat(feats[:1], n - 1, 0), feats[1:n] - feats[:1]]))]
            g.apply(int(acts[int(np.argmax(score))]))
    if not X:
        return np.zeros((0, N_FEATURES)), np.zeros(0), np.zeros(0, int), np.zeros(0, int), np.zeros((0, N_FEATURES))
    return np.vstack(X), np.concatenate(y), np.concatenate(group), np.concatenate(game_of), np.vstack(now)


def pairs(X, y, group):
    """(inputs, targets, decision) of every option but the list's own (the first of its decision):
    the own option's features, this option's less them; this option's score less the own's."""
    first = np.r_[True, group[1:] != group[:-1]]
    own = np.flatnonzero(first)[np.cumsum(first) - 1]          # the own option of each row's decision
    alt = ~first
    return np.hstack([X[own], X - X[own]])[alt], (y - y[own])[alt], group[alt]


def fit(inputs, targets, hidden, seed, epochs, clip=20.0):
    """A two-layer ReLU network (the kernel's forward pass: inputs squashed) fitted by Adam to the
    clipped targets (Huber loss: a look-ahead that saw the game's end moves the fit, not owns it)."""
    import torch

    torch.set_num_threads(1)           # one thread: the same weights from the same data, run after run
    torch.manual_seed(seed)
    X = torch.tensor(squash(inputs), dtype=torch.float32)
    Y = torch.tensor(np.clip(targets, -clip, clip), dtype=torch.float32)
    d = X.shape[1]
    net = torch.nn.Sequential(torch.nn.Linear(d, hidden[0]), torch.nn.ReLU(), torch.nn.Linear(hidden[0], hidden[1]),
                              torch.nn.ReLU(), torch.nn.Linear(hidden[1], 1))
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-5)
    gen = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for ix in torch.randperm(len(Y), generator=gen).split(1024):
            opt.zero_grad()
            loss = torch.nn.functional.huber_loss(net(X[ix])[:, 0], Y[ix], delta=2.0)
            loss.backward()
            opt.step()
    return net


def predict(net, inputs):
    import torch

    with torch.no_grad():
        return net(torch.tensor(squash(inputs), dtype=torch.float32))[:, 0].numpy()


def regret(pred, targets, group):
    """Mean over decisions of the look-ahead's score of its best option less that of the option
    chosen (the own unless some other is predicted above 0), in log-odds; and for the list's own."""
    best = {}
    chosen = {}
    for z, t, g in zip(pred, targets, group):
        best[g] = max(best.get(g, 0.0), t)
        if z > chosen.get(g, (0.0, 0.0))[0]:
            chosen[g] = (z, t)
    n = len(best)
    return (sum(best.values()) - sum(t for _, t in chosen.values())) / n, sum(best.values()) / n


BACKED = 2          # FEATURE_NAMES: own_backed
ALWAYS = 1.0e4      # a gate constant no position's features outweigh


def changes(dec, z):
    """{decision: whether the network prefers some option to the list's own}."""
    out = {}
    for d, v in zip(dec, z):
        out[d] = out.get(d, False) or v > 0
    return out


def fit_gate(now, dec, z, decisions, threshold, backs=True):
    """The gate: a logistic regression (statsmodels) of whether the network changes the list's choice
    on the features of the position before the choice (`now`, one row per decision), its constant
    moved so that a sum above 0 means a chance above `threshold`. With `backs` False it is fitted to
    the decisions of a backed player (whether to set) only, and every backing decision is weighed (a
    weight on `own_backed` that only a backed player's sum pays)."""
    import statsmodels.api as sm

    changed = changes(dec, z)
    rows = np.asarray(sorted(decisions))
    if not backs:
        rows = rows[now[rows, BACKED] > 0.5]
    Xn = now[rows]
    keep = Xn.std(axis=0) > 1e-9
    target = np.array([changed[d] for d in rows], float)
    model = sm.Logit(target, sm.add_constant(Xn[:, keep])).fit(disp=0, method="bfgs", maxiter=3000)
    w = np.zeros(1 + now.shape[1])
    w[0] = model.params[0] - np.log(threshold / (1 - threshold))
    w[1 + np.flatnonzero(keep)] = model.params[1:]
    if not backs:
        w[0] += ALWAYS
        w[1 + BACKED] -= ALWAYS
    return w.astype(np.float32)


def gated(now, dec, z, w, decisions):
    """On these decisions: the share the gate weighs, and the share of the network's changes of the
    list's choice it keeps."""
    open_ = {d: w[0] + now[d] @ w[1:] > 0 for d in decisions}
    changed = [d for d, c in changes(dec, z).items() if c and d in open_]
    return sum(open_.values()) / max(1, len(open_)), sum(open_[d] for d in changed) / max(1, len(changed))


def to_network(net, meta):
    from hoc.engine import weights as nw

    layers = [m for m in net if hasattr(m, "weight")]
    w = [m.weight.detach().numpy().astype(np.float32) for m in layers]
    b = [m.bias.detach().numpy().astype(np.float32) for m in layers]
    h2 = w[1].shape[0]
    return nw.Network(w[0].T.copy(), b[0], w[1].T.copy(), b[1], np.zeros((0, h2), np.float32),
                      np.zeros(0, np.float32), w[2][0].copy(), b[2].copy(), meta)


def main(argv=None) -> None:
    from hoc.games.heart_of_crown.agents.catalog import from_list, list_file
    from hoc.games.heart_of_crown.agents import priority
    from hoc.errors import HocError
    from hoc.games.heart_of_crown.agents import preference
    from hoc.games.heart_of_crown.rules import Ruleset

    from experiments.common import _Parser

    ap = _Parser(prog="python -m experiments.second_preference", description=__doc__.splitlines()[0])
    ap.add_argument("--teacher", default="tuned_plan_c_2p", help="a planning list with `second` above 0")
    ap.add_argument("--second", type=int, default=None, help="the teacher's determinizations per option (default: its own)")
    ap.add_argument("--horizon", type=int, default=None, help="the teacher's horizon (default: its own)")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--hidden", type=int, nargs=2, default=(64, 32), help="the two hidden layers' sizes")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--gate", type=float, default=0.15,
                    help="weigh a decision where the gate's chance that the network changes the list's choice is above this")
    ap.add_argument("--gate-backs", choices=("fit", "always"), default="always",
                    help="gate the backing decisions too, or weigh them all (the default)")
    ap.add_argument("--student", default=None, help="a preference network (.npz) whose choices are played (DAgger)")
    ap.add_argument("--data", default=None, help=".npz of earlier data: added to the new (and written back)")
    ap.add_argument("--out", default="/tmp/second_phase.npz")
    a = ap.parse_args(argv)

    for what, where in (("--out", a.out), ("--data", a.data)):
        if where and not Path(where).resolve().parent.is_dir():     # before the games, not after them
            ap.error(f"{what} {where}: no folder {Path(where).resolve().parent}")
    path = list_file(a.teacher)
    if path is None:
        ap.error(f"no list named {a.teacher!r}")
    spec = priority.parse(path)
    plan = dict(spec.plan or ())
    changes = {k: v for k, v in (("second", a.second), ("horizon", a.horizon)) if v is not None}
    if plan.get("second", 0) <= 0 and "second" not in changes:
        ap.error(f"{a.teacher} does not plan its Second phase (second = 0)")
    if changes.get("horizon", plan.get("horizon", 0)) < 0:
        ap.error("the teacher must look ahead (horizon 0 or more)")
    teacher = from_list(spec.with_plan(**changes) if changes else spec, "teacher")
    student = None
    if a.student:
        from hoc.engine import weights as nw

        try:
            student = preference.check(nw.load(a.student), a.student)
        except HocError as e:
            ap.error(str(e))
    rs = Ruleset(players=2, market="random")

    t0 = time.time()
    X, y, group, game_of, now = collect(teacher, student, a.games, a.seed, rs)
    print(f"collected {len(np.unique(group)):,} decisions ({len(y):,} options) from {a.games:,} games "
          f"in {time.time() - t0:.0f} s")
    if a.data and Path(a.data).exists():
        d = np.load(a.data)
        game_of = np.concatenate([d["game"], game_of + d["game"].max() + 1])    # (use another --seed for new games)
        group = np.concatenate([d["group"], group + d["group"].max() + 1])
        X, y, now = np.vstack([d["X"], X]), np.concatenate([d["y"], y]), np.vstack([d["now"], now])
    if a.data:
        np.savez(a.data, X=X, y=y, group=group, game=game_of, now=now)
    if len(y) == 0:
        sys.exit("error: the teacher weighed no Second phase")
    inputs, targets, dec = pairs(X, y, group)
    games_of = game_of[np.r_[False, group[1:] == group[:-1]]]
    cut = np.quantile(np.unique(game_of), 0.8)
    train, test = games_of <= cut, games_of > cut
    net = fit(inputs[train], targets[train], a.hidden, a.seed, a.epochs)
    held = regret(predict(net, inputs[test]), targets[test], dec[test])
    print(f"held-out games: the look-ahead's best option less the one chosen, {held[0]:.3f} log-odds a decision "
          f"(the list's own: {held[1]:.3f})")
    a.gate_backs = a.gate_backs == "fit"
    train_dec = np.unique(dec[train])
    gate_w = fit_gate(now, dec, predict(net, inputs), train_dec, a.gate, a.gate_backs)
    kept = gated(now, dec, predict(net, inputs), gate_w, np.unique(dec[test]))
    print("held-out games, the gate: weighs {:.0%} of the decisions and keeps {:.0%} of the network's changes".format(*kept))
    net = fit(inputs, targets, a.hidden, a.seed, a.epochs)
    gate_w = fit_gate(now, dec, predict(net, inputs), np.unique(dec), a.gate, a.gate_backs)
    command = "python -m experiments.second_preference " + " ".join(argv if argv is not None else sys.argv[1:])
    meta = {"game": "heart_of_crown", "players": 2, "kind": "second-phase preference", "command": command.strip(),
            "teacher": a.teacher, "decisions": int(len(np.unique(dec))),
            "held_out_regret": round(held[0], 4), "own_regret": round(held[1], 4),
            "description": "the Second phase's preference: the look-ahead planner's option scores, distilled"}
    meta.update(gate_threshold=a.gate, gate_backs="fit" if a.gate_backs else "always", gate_weighs=round(kept[0], 4), gate_keeps=round(kept[1], 4))
    preference.save(preference.check(to_network(net, meta), a.out), gate_w, Path(a.out))
    preference.key(Path(a.out))            # the file reads back
    print(f"wrote {a.out}")

if __name__ == "__main__":
    main()
