"""The ISMCTS search agent (issue 13): it never reads hidden information, leaves the real state as
it found it, plays legal moves, is deterministic serial or parallel, parses its specs, backs the
princess it is restricted to, and is stronger than random even on a small budget."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from hoc.games.heart_of_crown.agents import policies
from hoc.agents.registry import AGENTS, get, split_names
from hoc.games.heart_of_crown.agents.search import PRESETS, parse
from hoc.games.heart_of_crown.agents.search import kernel as SK
from hoc.errors import HocError
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.kernel.zones import FACE_UP
from hoc.research.simulate import lineup, simulate
from hoc.games.heart_of_crown.rules import Ruleset

RANDOM_2P = Ruleset(players=2, market="random")
SMALL = "ismcts:iterations=40"          # enough to search, cheap enough for many decisions
SEARCHED = ("second phase", "keep", "card choice")
GUIDED = "ismcts:iterations=16,net=learned_2p"      # guided by the shipped network


def pb(s, p):
    return int(s[K.H_OFF_PLAYER] + p * K.PSZ)


def deck_slice(s, p):
    off = int(s[K.H_OFF_DECK] + p * s[K.H_DCAP])
    return off, int(s[pb(s, p) + K.P_DECK_N])


def resync_hand(s, p, table):
    """The hand's mask and type counters from its counts (after a test moved cards by hand)."""
    nc = int(s[K.H_NC])
    h = int(s[K.H_OFF_HAND] + p * nc)
    mask = 0
    playable = succ = action = n = 0
    for c in range(nc):
        k = int(s[h + c])
        if k:
            mask |= 1 << c
            ty = int(table[c, K.F_TYPES])
            playable += k * bool(ty & (K.TY_TERRITORY | K.TY_ACTION))
            succ += k * bool(ty & K.TY_SUCCESSION)
            action += k * bool(ty & K.TY_ACTION)
            n += k
    b = pb(s, p)
    s[b + K.P_HAND_MASK] = np.int64(mask & 0xFFFFFFFF).astype(np.int32)
    s[b + K.P_HAND_MASK + 1] = np.int64(mask >> 32).astype(np.int32)
    s[b + K.P_HAND_PLAYABLE], s[b + K.P_HAND_SUCC], s[b + K.P_HAND_ACTION], s[b + K.P_HAND_N] = playable, succ, action, n


def face_down_positions(s, p, keep_top=0):
    off, n = deck_slice(s, p)
    return [off + i for i in range(n - keep_top) if not s[off + i] & FACE_UP]


def permute(s, positions, rng) -> bool:
    values = s[positions].copy()
    s[positions] = rng.permutation(values)
    return not np.array_equal(values, s[positions])


def swap_hand_with_deck(s, q, rng, table) -> bool:
    """One card of q's hand trades places with a different face-down card of q's deck."""
    nc = int(s[K.H_NC])
    h = int(s[K.H_OFF_HAND] + q * nc)
    in_hand = [c for c in range(nc) if s[h + c] > 0]
    spots = [i for i in face_down_positions(s, q) if any(s[i] != c for c in in_hand)]
    if not in_hand or not spots:
        return False
    i = spots[rng.integers(len(spots))]
    c = next(c for c in in_hand if c != s[i])
    x = int(s[i])
    s[h + c] -= 1
    s[h + x] += 1
    s[i] = c
    resync_hand(s, q, table)
    return True


def window(s, p):
    """Deck cards the decider is looking at now (a CH_DECK_TOP question): visible to it."""
    if s[K.H_CTX] == K.CTX_EFFECT and s[K.H_CH_KIND] == K.CH_DECK_TOP and s[K.H_DECIDER] == p:
        return int(s[K.H_CH_N])
    return 0


def hidden_variants(g: Game, p: int, rng):
    """States differing from g's only in what seat p cannot see, each with a name."""
    table = g.ruleset.cards.table
    q = 1 - p
    out = []
    for name in ("opponent hand", "own deck order", "opponent deck order", "supply order", "game streams", "all"):
        v = g.clone()
        s = v.state
        changed = False
        if name in ("opponent hand", "all"):
            changed |= swap_hand_with_deck(s, q, rng, table)
        if name in ("own deck order", "all"):
            changed |= permute(s, face_down_positions(s, p, window(s, p)), rng)
        if name in ("opponent deck order", "all"):
            changed |= permute(s, face_down_positions(s, q), rng)
        if name in ("supply order", "all"):
            sup = int(s[K.H_OFF_SUPPLY])
            changed |= permute(s, list(range(sup, sup + int(s[K.H_SUPPLY_N] - s[K.H_REVEALED]))), rng)
        if name in ("game streams", "all"):
            slots = [K.H_RNG, K.H_RNG + 1] + [pb(s, x) + K.P_RNG + i for x in range(2) for i in (0, 1)]
            slots += [pb(s, q) + K.P_ARNG, pb(s, q) + K.P_ARNG + 1]
            s[slots] = rng.integers(-2**31, 2**31, len(slots))
            changed = True
        if changed:
            out.append((name, v))
    return out


@pytest.mark.parametrize("seed, spec", [(3, SMALL), (8, SMALL), (4, GUIDED)])
def test_decisions_are_the_same_for_states_differing_only_in_hidden_information(seed, spec):
    """Opponent hand swapped with its deck cards, own and opponent deck order permuted, the face-down
    supply permuted, the game's random streams changed: same agent seed, same decision, at every
    searched decision of real games (and the searcher's own stream advances the same way); with a
    network guiding the search too."""
    searcher, other = get(spec), get("tuned_laolily_2p")
    rng = np.random.default_rng(seed)
    g = Game(RANDOM_2P, seed=seed)
    pairs = searched = 0
    while not g.over:
        p = g.decider
        if p == 0 and g.context in SEARCHED and len(g.legal_actions()) > 1:
            searched += 1
            base = g.clone()
            expected = base.decide(searcher)
            for name, v in hidden_variants(g, p, rng):
                got = v.decide(searcher)
                assert got == expected, (f"turn {g.turns}, {g.context}: {name} changed the decision "
                                         f"{g.label(expected)!r} -> {g.label(got)!r}")
                arng = slice(pb(v.state, p) + K.P_ARNG, pb(v.state, p) + K.P_ARNG + 2)
                assert np.array_equal(v.state[arng], base.state[arng])
                pairs += 1
        g.apply(g.decide(searcher if p == 0 else other))
    assert searched >= 20 and pairs >= 5 * searched


@pytest.mark.parametrize("spec", [SMALL, GUIDED])
def test_a_search_leaves_the_real_state_unchanged_but_for_its_own_stream(spec):
    searcher, other = get(spec), get("tuned_laolily_2p")
    g = Game(RANDOM_2P, seed=4)
    checked = 0
    while not g.over:
        p = g.decider
        agent = searcher if p == 1 else other
        g.decide(agent)                              # seats the agent (and makes the arena)
        s = g.state
        before = s[:s[K.H_LEN]].copy()
        a = int(policies.decide_search(s))
        after = s[:s[K.H_LEN]].copy()
        arng = [pb(s, p) + K.P_ARNG, pb(s, p) + K.P_ARNG + 1]
        if p == 1 and g.context in SEARCHED and len(g.legal_actions()) > 1:
            assert not np.array_equal(before[arng], after[arng])     # one draw seeded the search
            checked += 1
        before[arng] = after[arng]
        assert np.array_equal(before, after), f"turn {g.turns}: the search changed the real state"
        g.apply(a)
    assert checked >= 20


@pytest.mark.parametrize("players, market", [(2, "random"), (3, "random"), (2, "basic")])
def test_search_agents_play_only_legal_moves_and_keep_the_invariants(players, market):
    rs = Ruleset(players=players, market=market)
    names = ",".join(["ismcts:iterations=30", "tuned_laolily_2p", "ismcts:iterations=20,cutoff=4,eval=learned"][:players])
    run = simulate(rs, lineup(names, players), 6, seed=2, rotate=True, validate=True, announce=False)
    assert len(run.games) == 6                       # validate raises on an illegal action or broken invariant


@pytest.mark.parametrize("spec", ["ismcts:iterations=30", "ismcts:iterations=12,net=learned_2p,main=1"])
def test_serial_and_parallel_search_runs_are_identical(spec):
    """A guided search's network reaches the worker processes with its agent (its row function
    registers the weights when unpickled)."""
    agents = lineup(f"{spec},tuned_laolily_2p", 2)
    serial = simulate(RANDOM_2P, agents, 8, seed=7, jobs=1, rotate=True, announce=False)
    parallel = simulate(RANDOM_2P, agents, 8, seed=7, jobs=2, rotate=True, announce=False)
    a = serial.games.sort_values("game").reset_index(drop=True)
    b = parallel.games.sort_values("game").reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b, check_categorical=False)


def test_python_stepping_plays_the_same_games_as_the_jitted_loop():
    """Game.decide (replays, curves, Python lineups) gives the search its arena and the same moves."""
    from hoc.research.harness import Plan, _play_python, play_rows

    plan = Plan(RANDOM_2P, lineup("ismcts:iterations=30,senator_duke", 2), 3, seed=5, rotate=True)
    jitted, _ = play_rows(plan, 0, 3)
    stepped, _ = _play_python(plan, 0, 3)
    assert np.array_equal(jitted, stepped)


def test_specs_parse_options_and_presets():
    o = parse("ismcts:iterations=1000,rollout=senator_duke,c=1.5,cutoff=6,princess=twins,prior=0.3")
    assert (o.iterations, o.rollout, o.exploration, o.cutoff, o.princess, o.prior) == \
        (1000, "senator_duke", 1.5, 6, "twins", 0.3)
    assert parse("ismcts_strong:iterations=7").iterations == 7
    assert parse("ismcts_fast").iterations < parse("ismcts").iterations < parse("ismcts_strong").iterations
    row = get("ismcts:iterations=123,cutoff=5").params(RANDOM_2P)
    assert row[SK.IS_ITERATIONS] == 123 and row[SK.IS_CUTOFF] == 5
    # the rest of the row is the rollout list's: the search plays its plan where it does not search
    plan = get("tuned_laolily_2p").params(RANDOM_2P)
    assert np.array_equal(np.delete(row, range(SK.IS_ITERATIONS, SK.IS_END)),
                          np.delete(plan, range(SK.IS_ITERATIONS, SK.IS_END)))
    assert not plan[SK.IS_ITERATIONS:SK.IS_END].any()      # no priority list uses the search's slots


def test_options_after_a_search_spec_belong_to_it():
    assert split_names("ismcts:iterations=1000,rollout=senator_duke,twins_extra_turns") == \
        ["ismcts:iterations=1000,rollout=senator_duke", "twins_extra_turns"]
    assert split_names("basic_rush, ismcts ,ismcts_fast:c=2,cutoff=3") == \
        ["basic_rush", "ismcts", "ismcts_fast:c=2,cutoff=3"]
    agents = lineup("ismcts:iterations=1000,rollout=senator_duke,twins_extra_turns", 2)
    assert [a.name for a in agents] == ["ismcts:iterations=1000,rollout=senator_duke", "twins_extra_turns"]
    assert agents[0].id == SK.ISMCTS


@pytest.mark.parametrize("spec, message", [
    ("ismcts:depth=3", r"unknown option 'depth'"),
    ("ismcts:iterations=0", r"iterations must be between 1 and"),
    ("ismcts:iterations=many", r"iterations must be a whole number"),
    ("ismcts:c=-1", r"exploration must be"),
    ("ismcts:prior=2", r"prior must be between 0 and 1"),
    ("ismcts:eval=magic", r"eval must be one of sp"),
    ("ismcts:rollout=random", r"rollout policy must be a priority-list agent"),
    ("ismcts:rollout=ismcts_fast", r"must be a priority list, not the search agent"),
    ("ismcts:rollout=nobody", r"unknown agent 'nobody'"),
    ("ismcts:iterations", r"is not key=value"),
    ("ismcts:", r"no option after ':'"),
    ("ismcts:c=1,c=2", r"given twice"),
    ("ismcts:abilities=yes", r"abilities must be 0 or 1"),
    ("ismcts:net=tuned_laolily_2p", r"net must name a learned policy"),
    ("ismcts:net=learned_2p:temperature=1", r"net must name a learned policy"),
    ("ismcts:net=learned_2p,temperature=0", r"temperature must be between 0.01 and 100"),
    ("ismcts:net=missing.npz", r"missing.npz: no such file"),
    ("ismcts_net:cutoff=4", r"cutoff does not apply with net"),
    ("ismcts:prior=0.3,net=learned_2p", r"prior does not apply with net"),
])
def test_bad_specs_are_one_line_errors(spec, message):
    with pytest.raises(HocError, match=message) as e:
        get(spec)
    assert "\n" not in str(e.value)


def test_a_guided_search_names_its_network_in_its_row_and_refuses_a_game_it_was_not_trained_for():
    from hoc.games.heart_of_crown.agents.learned import LN_KEY

    row = get("ismcts:net=learned_2p,temperature=3").params(RANDOM_2P)
    assert row[SK.IS_NET] == get("learned_2p").params(RANDOM_2P)[LN_KEY] != 0
    assert row[SK.IS_NET_TEMPERATURE] == 3000
    assert get("ismcts").params(RANDOM_2P)[SK.IS_NET] == 0
    with pytest.raises(HocError, match=r"trained for 2 players, this game has 3"):
        get("ismcts_net").params(Ruleset(players=3))


def test_a_guided_search_with_one_iteration_plays_its_network_s_choice():
    """One iteration expands the root action of the highest logit and takes it: the guided search is
    then the network, wherever the network's choice is among the search's candidates."""
    one, net, other = get("ismcts:iterations=1,net=learned_2p,main=1"), get("learned_2p"), get("tuned_laolily_2p")
    g = Game(RANDOM_2P, seed=9)
    same = checked = 0
    while not g.over:
        if g.decider == 0 and len(g.legal_actions()) > 1:
            want = g.clone().decide(net)
            got = g.decide(one)
            same += got == want
            checked += 1
            g.apply(got)
        else:
            g.apply(g.decide(other))
    assert checked >= 40 and same >= 0.95 * checked


@pytest.mark.parametrize("players", [2])
def test_guided_search_games_are_legal_and_keep_the_invariants(players):
    run = simulate(RANDOM_2P, lineup(f"{GUIDED},main=1,tuned_laolily_2p", 2), 4, seed=3, rotate=True,
                   validate=True, announce=False)
    assert len(run.games) == 4


def test_a_princess_outside_the_game_is_an_error_when_the_row_is_built():
    with pytest.raises(HocError, match=r"'duke' is not a princess"):
        get("ismcts:princess=duke").params(RANDOM_2P)
    with pytest.raises(HocError, match=r"not in this game's pool"):
        get("ismcts:princess=twins").params(Ruleset(players=2, princesses=("laolily", "bergamot")))


def test_the_command_line_rejects_a_bad_spec_in_one_line():
    r = subprocess.run([sys.executable, "-m", "hoc", "simulate", "--agents", "ismcts:iterations=x,basic_rush",
                        "--games", "2"], capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "iterations must be a whole number" in r.stderr


def test_hoc_agents_lists_the_search_presets():
    r = subprocess.run([sys.executable, "-m", "hoc", "agents"], capture_output=True, text=True)
    listed = {line.split()[0] for line in r.stdout.splitlines() if line.strip()}
    assert set(PRESETS) <= listed
    assert all(AGENTS[n].id == SK.ISMCTS for n in PRESETS)


def test_the_princess_restriction_backs_her_whenever_she_is_offered():
    """Every time the searcher backs while twins is offered, it backs twins; and it does back her."""
    searcher, other = get("ismcts:iterations=40,princess=twins"), get("tuned_laolily_2p")
    twins = RANDOM_2P.cards.index("twins")
    backed = offered = 0
    for seed in range(4):
        g = Game(RANDOM_2P, seed=seed)
        while not g.over:
            p = g.decider
            a = g.decide(searcher if p == 0 else other)
            if p == 0 and K.A_BACK + twins in g.legal_actions():
                offered += 1
                assert not K.A_BACK <= a < K.A_BACK + K.NCMAX or a == K.A_BACK + twins, g.label(a)
            backed += p == 0 and a == K.A_BACK + twins
            g.apply(a)
    assert backed >= 3 and offered >= backed


FIRST_2P = Ruleset(players=2, edition="1e", market="random")


def test_a_search_told_to_back_a_princess_uses_her_ability_though_its_rollout_list_does_not():
    """Agents that own a princess with an ability use it unless told otherwise: the rollout list
    tuned_general_1e_2p never uses abilities, yet a searcher told to back the Twins spends her counters
    (in its rollouts and in its own Main phase); `abilities=0` switches that off on purpose."""
    from hoc.games.heart_of_crown.agents.priority_kernel import PR_ABILITIES

    assert get("tuned_general_1e_2p").params(FIRST_2P)[PR_ABILITIES] == 0
    told = "ismcts:iterations=8,princess=twins,rollout=tuned_general_1e_2p"
    assert get(told).params(FIRST_2P)[PR_ABILITIES] == 1
    assert get(told + ",abilities=0").params(FIRST_2P)[PR_ABILITIES] == 0
    assert get("ismcts:rollout=tuned_general_1e_2p").params(FIRST_2P)[PR_ABILITIES] == 0   # nobody told
    assert get("ismcts:rollout=tuned_general_1e_2p,abilities=1").params(FIRST_2P)[PR_ABILITIES] == 1

    def spent(spec):
        searcher, other = get(spec), get("tuned_laolily_1e_2p")
        uses = 0
        for seed in range(2):
            g = Game(FIRST_2P, seed=seed)
            while not g.over:
                a = g.decide(searcher if g.decider == 0 else other)
                uses += g.decider == 0 and a == K.A_ABILITY
                g.apply(a)
        return uses

    assert spent(told) >= 2
    assert spent(told + ",abilities=0") == 0


def test_a_small_search_beats_random_nearly_always():
    run = simulate(RANDOM_2P, lineup("ismcts:iterations=30,random", 2), 20, seed=1, rotate=True, announce=False)
    g = run.games
    winners = [g.loc[i, f"agent_{w}"] for i, w in zip(g.index, g.winner)]
    assert sum(w == "ismcts:iterations=30" for w in winners) >= 19, winners


def test_only_lineups_with_a_search_agent_compile_the_search():
    """The plain `decide` (every run without a search agent) leaves the search out of its compile:
    it is about a third of the cold start."""
    from numba import njit, types

    def callees(d):
        d(Game(RANDOM_2P, seed=1).state)
        fresh = njit(d.py_func)
        sig = d.signatures[0]
        fresh.compile(sig)
        typemap = fresh.overloads[sig].type_annotation.typemap
        return {t.dispatcher.py_func.__name__ for t in typemap.values() if isinstance(t, types.Dispatcher)}

    assert "ismcts_policy" not in callees(policies.decide)
    assert "ismcts_policy" in callees(policies.decide_search)
    assert policies.decider([SK.ISMCTS, 2]) is policies.decide_search
    assert policies.decider([2, 0]) is policies.decide


def test_the_search_settings_share_no_slot_with_the_priority_list_they_extend():
    # the settings are the search's own block after the whole row of its rollout list; a list's slot
    # read as a setting (or a setting read as a never-list length) would silently change both agents
    from hoc.games.heart_of_crown.agents import priority_kernel as PK

    settings = set(range(SK.IS_ITERATIONS, SK.IS_END))
    assert not settings & set(range(PK.PR_LEN)) and SK.IS_END <= K.N_PARAMS
    row = get("ismcts").params(Ruleset(players=2))
    assert row[PK.PR_N_NEVER] == 0 and row[SK.IS_ITERATIONS] == PRESETS["ismcts"].iterations


def test_a_learned_cut_off_writes_the_turn_planner_s_evaluation_into_the_search_row():
    """eval=learned: a cut-off rollout is scored by the shipped evaluation, whose weights the row
    carries in its planner block (the rollout list never reads them); eval=sp leaves them out."""
    from hoc.games.heart_of_crown.agents.evaluation import N_FEATURES, weights
    from hoc.games.heart_of_crown.agents.planner import PL_WEIGHTS, WEIGHT_SCALE

    rs = Ruleset(players=2)
    learned = get("ismcts:cutoff=6,eval=learned").params(rs)
    plain = get("ismcts:cutoff=6").params(rs)
    assert learned[SK.IS_EVAL] == 1 and plain[SK.IS_EVAL] == 0
    block = slice(PL_WEIGHTS, PL_WEIGHTS + 1 + N_FEATURES)
    assert list(learned[block]) == [round(x * WEIGHT_SCALE) for x in weights()] and not plain[block].any()


@pytest.mark.parametrize("seats", ["ismcts_fast,basic_rush", "basic_rush,ismcts_fast"])
def test_the_search_agent_buys_and_wins_from_either_seat_without_rotation(seats):
    # a fixed seat, not rotated: a fault that hits one seat only cannot hide behind the other
    run = simulate(Ruleset(players=2, market="basic"), lineup(seats, 2), 10, seed=5, announce=False)
    searcher = seats.split(",").index("ismcts_fast")
    assert (run.games.winner == searcher).sum() >= 8, run.games.winner.tolist()
