"""The learned agents (`hoc.games.heart_of_crown.agents.learned`): the weight file, the jitted forward pass against NumPy and
torch, masking and bans, reproducibility, and a short `hoc learn` run when torch is installed."""
from __future__ import annotations

import json

import numpy as np
import pytest

from hoc.games.heart_of_crown.agents import learned
from hoc.agents.ids import LEARNED
from hoc.engine import weights as nw
from hoc.games.heart_of_crown.agents.learned.kernel import network_logits, network_value
from hoc.agents.registry import get
from hoc.errors import HocError
from hoc.games.heart_of_crown import observation as view
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.simulate import simulate

META = {"game": "heart_of_crown", "players": 2, "edition": "2e", "model": "tuned_general_2p"}


def random_network(seed=0, hidden=(16, 12), scale=1.0, players=2) -> nw.Network:
    """A network with random weights and biases, its logits spread by `scale`."""
    rng = np.random.default_rng(seed)
    net = nw.initial(view.size(players), K.N_ACTIONS, hidden, seed, dict(META, players=players))
    net.b1[:] = rng.normal(0, 0.1, hidden[0])
    net.b2[:] = rng.normal(0, 0.1, hidden[1])
    net.wp[:] = rng.normal(0, scale, net.wp.shape)
    net.bp[:] = rng.normal(0, scale, net.bp.shape)
    return net


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("learned") / "random.npz"
    random_network(scale=3.0).save(path)
    return path


def state_with(net: nw.Network, players=2):
    """A game state whose tail holds `net`, and the network's key."""
    key = net.key()
    learned.NETWORKS[key] = net.block()
    row = np.zeros(K.N_PARAMS, K.DTYPE)
    row[learned.LN_KEY] = key
    from hoc.games.heart_of_crown.agents.search import reserve

    g = Game(players=players, seed=1)
    return reserve(g.state, [LEARNED], row[None, :]), key


def test_the_jitted_forward_pass_equals_numpy_and_torch_on_random_inputs():
    net = random_network(seed=3, hidden=(24, 16))
    s, key = state_with(net)
    rng = np.random.default_rng(5)
    obs = rng.integers(-3, 40, (64, net.sizes[0])).astype(np.float32)
    obs[rng.random(obs.shape) < 0.8] = 0                     # mostly zero, as observations are
    obs[0, :5] = [2000, -2000, 1023, 1024, 0.5]              # past the squashing table, and not an integer
    out = np.zeros(K.N_ACTIONS, np.float32)
    ref = net.logits(obs)
    for i in range(len(obs)):
        assert network_logits(s, key, obs[i], out)
        np.testing.assert_allclose(out, ref[i], rtol=1e-4, atol=1e-4)
    torch = pytest.importorskip("torch")
    from hoc.agents.learn.model import PolicyValue

    m = PolicyValue.of(net)
    with torch.no_grad():
        logits, _ = m(torch.from_numpy(obs))
    np.testing.assert_allclose(logits.numpy(), ref, rtol=1e-4, atol=1e-4)
    back = m.network(net.meta)                              # torch -> weight file -> the same arrays
    for k in nw.ARRAYS:
        np.testing.assert_array_equal(getattr(back, k), getattr(net, k))


def test_the_jitted_value_head_equals_numpy_as_a_chance_of_winning():
    """The value head predicts the environments' reward (1 a win, -1 a loss); a search guided by the
    network reads it as a chance of winning, (v + 1) / 2 clipped to [0, 1]."""
    net = random_network(seed=4, hidden=(20, 10))
    rng = np.random.default_rng(6)
    net.wv[:] = rng.normal(0, 0.5, net.wv.shape)
    net.bv[:] = [0.1]
    s, key = state_with(net)
    obs = rng.integers(0, 30, (48, net.sizes[0])).astype(np.float32)
    obs[rng.random(obs.shape) < 0.8] = 0
    h = np.maximum(nw.features(obs) @ net.w1 + net.b1, 0)
    v = np.maximum(h @ net.w2 + net.b2, 0) @ net.wv + net.bv[0]
    want = np.clip((v + 1) / 2, 0, 1)
    assert 0 < want.min() < want.max() < 1 or (want == 0).any() or (want == 1).any()
    got = np.array([network_value(s, key, obs[i]) for i in range(len(obs))])
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    assert network_value(s, key + 1, obs[0]) == -1.0          # a key not in the tail


def test_the_agent_takes_the_legal_action_with_the_highest_logit(policy_file):
    agent = get(str(policy_file))
    net = nw.load(policy_file)
    obs = np.zeros(view.size(2), np.float32)
    g = Game(players=2, seed=4)
    checked = 0
    while not g.state[K.H_END] and checked < 200:
        a = agent.decide(g)
        legal = g.legal_mask().astype(bool)
        if legal.sum() > 1:
            view.observe(g.state, g.decider, obs)
            z = net.logits(obs[None])[0]
            assert a == int(np.flatnonzero(legal)[np.argmax(z[legal])])
            checked += 1
        g.apply(a)
    assert checked > 50


@pytest.mark.parametrize("temperature", ["", ":temperature=2"])
def test_masking_never_plays_an_illegal_action_in_validated_games(policy_file, temperature):
    rs = Ruleset(players=2)
    run = simulate(rs, [get(f"{policy_file}{temperature}"), get("basic_rush")], 150, seed=2, rotate=True,
                   validate=True, announce=False)
    assert len(run.games) == 150                    # every step checked legal, every invariant held


def test_a_ban_masks_the_banned_cards_buys_and_gains(policy_file):
    from hoc.games.heart_of_crown.studies.card_value import ban

    rs = Ruleset(players=2, market_with=("city_development",))
    agent = get(f"{policy_file}:temperature=3")        # buys widely: the kind is bought when allowed
    ids = rs.cards.cards_of_pile("city_development")
    bits = sum(1 << c for c in ids)

    def owned_by_learner(a):
        df = simulate(rs, [a, get("basic_rush")], 200, seed=3, announce=False).games
        return int(((df["owned_0"].to_numpy().astype(np.int64) & bits) != 0).sum())

    assert owned_by_learner(agent) > 0
    assert owned_by_learner(ban(agent, "city_development", rs)) == 0


def test_games_of_a_learned_agent_are_reproducible_and_parallel_equals_serial(policy_file):
    rs = Ruleset(players=2)
    agents = [get(str(policy_file)), get("tuned_general_2p")]
    one = simulate(rs, agents, 300, seed=8, rotate=True, announce=False).games
    two = simulate(rs, agents, 300, seed=8, rotate=True, jobs=2, announce=False).games
    assert one[["winner", "turns", "sp_0", "sp_1"]].equals(two[["winner", "turns", "sp_0", "sp_1"]])


@pytest.mark.slow   # a guided search's games (~1 min)
def test_a_search_agent_beside_a_learned_one_keeps_the_networks_intact(policy_file):
    rs = Ruleset(players=2)
    agents = [get(str(policy_file)), get("ismcts:iterations=20")]
    a = simulate(rs, agents, 4, seed=1, rotate=True, validate=True, announce=False).games
    b = simulate(rs, agents, 4, seed=1, rotate=True, announce=False).games
    assert a["winner"].equals(b["winner"])


def _broken(tmp_path, name, **change):
    net = random_network()
    arrays = {k: getattr(net, k) for k in nw.ARRAYS}
    meta = dict(net.meta, format=nw.FORMAT)
    for k, v in change.items():
        if k == "meta":
            meta = v
        elif v is None:
            arrays.pop(k)
        else:
            arrays[k] = v
    path = tmp_path / name
    np.savez(path, meta=np.array(json.dumps(meta) if isinstance(meta, dict) else meta), **arrays)
    return path


@pytest.mark.parametrize("name, change, says", [
    ("no_w2.npz", {"w2": None}, "no w2"),
    ("shape.npz", {"b1": np.zeros(5, np.float32)}, "b1 has shape (5,)"),
    ("nan.npz", {"wp": np.full((K.N_ACTIONS, 12), np.nan, np.float32)}, "not finite"),
    ("dtype.npz", {"bp": np.zeros(K.N_ACTIONS, np.float64)}, "float64"),
    ("format.npz", {"meta": {"format": "other"}}, "format 'other'"),
    ("json.npz", {"meta": "{not json"}, "not JSON"),
])
def test_a_weight_file_is_checked_on_load_with_one_line_naming_the_problem(tmp_path, name, change, says):
    path = _broken(tmp_path, name, **change)
    with pytest.raises(HocError) as e:
        nw.load(path)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_a_file_that_is_not_a_weight_file_and_a_missing_one_are_refused(tmp_path):
    bad = tmp_path / "x.npz"
    bad.write_text("hello")
    for path, says in ((bad, "not a weight file"), (tmp_path / "none.npz", "no such file")):
        with pytest.raises(HocError, match=says):
            get(str(path))


def test_a_network_for_other_players_or_sizes_is_refused_for_a_ruleset(tmp_path):
    path = tmp_path / "p3.npz"
    random_network(players=3).save(path)
    with pytest.raises(HocError, match="trained for 3 players"):
        get(str(path)).params(Ruleset(players=2))


def test_the_cli_refuses_a_broken_weight_file_with_exit_code_2(tmp_path, capsys):
    from hoc.cli.main import main

    path = _broken(tmp_path, "b.npz", w1=None)
    assert main(["simulate", "--agents", f"{path},basic_rush", "--games", "10"]) == 2
    err = capsys.readouterr().err.strip()
    assert "no w1" in err and len(err.splitlines()) == 1


def test_learned_agent_options_are_checked(policy_file):
    for spec, says in ((f"{policy_file}:temperature=-1", "between 0 and 100"),
                       (f"{policy_file}:heat=1", "not an option"), (f"{policy_file}:", "no option")):
        with pytest.raises(HocError, match=says):
            get(spec)


def test_the_shipped_learned_policies_name_their_command_and_figures():
    shipped = learned.library()
    assert "learned_2p" in shipped
    for name, path in shipped.items():
        if name == "learned":                     # the alias of learned_2p
            assert path == shipped["learned_2p"]
            continue
        net = nw.load(path)
        assert net.meta["command"].startswith("--players") and net.meta["figures"]
        assert net.meta["players"] == int(name.rsplit("_", 1)[1][0])
        get(name).params(Ruleset(players=net.meta["players"]))


def test_recorded_decisions_are_legal_and_carry_the_games_result():
    from hoc.agents.learn.record import record

    rs = Ruleset(players=2)
    s = record(rs, [get("tuned_general_2p"), get("basic_rush")], [0, -1], 40, 1, 0.5)
    assert len(s.actions) > 500
    assert s.masks[np.arange(len(s.actions)), s.actions].all()
    assert (s.masks.sum(1) > 1).all()
    assert set(np.unique(s.values)) <= {-1.0, 0.0, 0.5, 1.0}
    again = record(rs, [get("tuned_general_2p"), get("basic_rush")], [0, -1], 40, 1, 0.5)
    np.testing.assert_array_equal(again.actions, s.actions)


def test_the_teachers_recording_tells_its_progress_line_after_each_lineup():
    """`hoc learn`'s recording of the teacher counts its games on a progress line, lineup by lineup."""
    pytest.importorskip("torch")
    from hoc.agents.learn import imitation

    rs, told = Ruleset(players=2), []
    s = imitation.collect(rs, get("tuned_general_2p"), [get("basic_rush")], 21, 1, 0.5, progress=told.append)
    assert told == [11, 10] and len(np.unique(s.games)) == 21


@pytest.mark.slow   # trains twice in torch (~1 min)
def test_hoc_learn_trains_resumes_and_gives_the_same_weights_for_the_same_seed(tmp_path):
    pytest.importorskip("torch")
    from hoc.cli.main import main

    def learn(out, steps):
        return main(["learn", "--imitation-games", "30", "--envs", "4", "--updates", "2", "--eval-games", "20",
                     "--hidden", "8,8", "--opponents", "basic_rush", "--steps", str(steps), "--quiet",
                     "--out", str(out)])

    a, b = tmp_path / "a", tmp_path / "b"          # a generation: 2 updates of 4 games x 64 decisions
    assert learn(a, 1024) == 0
    for f in ("policy.npz", "curve.csv", "curve.png", "summary.md", "checkpoint.pt"):
        assert (a / f).exists()
    assert "hoc learn --players 2" in (a / "summary.md").read_text()
    assert learn(b, 512) == 0                     # a shorter run, then resumed to the same budget
    assert learn(b, 1024) == 0
    one, two = nw.load(a / "policy.npz"), nw.load(b / "policy.npz")
    for k in nw.ARRAYS:
        np.testing.assert_array_equal(getattr(one, k), getattr(two, k))
    get(str(a / "policy.npz")).params(Ruleset(players=2))


@pytest.mark.parametrize("extra, says", [
    (["--players", "5"], "2 to 4 players"),
    (["--opponents", "nobody"], "unknown agent 'nobody'"),
    (["--hidden", "64"], "two sizes"),
    (["--imitation-games", "-1"], "--imitation-games must be at least 0"),
])
def test_hoc_learn_refuses_bad_options_in_one_line(tmp_path, capsys, extra, says):
    pytest.importorskip("torch")
    from hoc.cli.main import main

    assert main(["learn", "--steps", "1", "--out", str(tmp_path / "o"), *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and len(err.splitlines()) == 1


def test_hoc_learn_will_not_resume_a_run_of_other_options(tmp_path, capsys):
    pytest.importorskip("torch")
    from hoc.cli.main import main

    out = tmp_path / "run"
    out.mkdir()
    (out / "options.json").write_text(json.dumps({"players": 2, "seed": 99}))
    assert main(["learn", "--steps", "1", "--opponents", "basic_rush", "--out", str(out)]) == 2
    assert "other options" in capsys.readouterr().err
    (tmp_path / "file").write_text("x")
    assert main(["learn", "--steps", "1", "--out", str(tmp_path / "file")]) == 2
