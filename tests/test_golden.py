"""Golden replay logs: `hoc.replay.replay` of a few fixed (seed, game) pairs must match the stored
files in tests/golden/. Any change of the rules, the agents or the random streams shows up here.

Regenerate after an intended change with:  HOC_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""
from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from hoc.replay import replay
from hoc.rules import Ruleset
from hoc.research.simulate import lineup

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("HOC_UPDATE_GOLDEN") == "1"

CASES = {
    # name: (ruleset options, agents, run seed, game index, rotate)
    "basic_rush_2p_seed1_game0": (dict(players=2), "basic_rush", 1, 0, False),
    "basic_rush_2p_seed7_game3_laolily_first": (dict(players=2, princesses=("laolily", "klam_klam", "lulunasaika")),
                                                "basic_rush", 7, 3, False),
    "basic_rush_3p_seed2_game5": (dict(players=3), "basic_rush", 2, 5, False),
    "basic_rush_4p_seed4_game1": (dict(players=4), "basic_rush", 4, 1, False),
    "random_2p_seed5_game1_cap30": (dict(players=2, turn_cap=30), "random", 5, 1, False),
    "mixed_3p_seed9_game2_rotated": (dict(players=3), "random,basic_rush,basic_rush", 9, 2, True),
}


def produce(name: str) -> str:
    opts, agents, seed, index, rotate = CASES[name]
    ruleset = Ruleset(market="basic", **opts)
    return "\n".join(replay(ruleset, lineup(agents, ruleset.players), seed, index, rotate=rotate)) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_replay_log_unchanged(name):
    path = GOLDEN / f"{name}.txt"
    text = produce(name)
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; create it with HOC_UPDATE_GOLDEN=1"
    stored = path.read_text(encoding="utf-8")
    if text != stored:
        diff = "".join(list(difflib.unified_diff(stored.splitlines(True), text.splitlines(True),
                                                 "stored", "current"))[:60])
        pytest.fail(f"replay of {name} changed (set HOC_UPDATE_GOLDEN=1 if intended):\n{diff}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_log_ends_with_the_games_end(name):
    lines = produce(name).splitlines()
    assert lines[-2].startswith("end: ") and lines[-1].startswith("final SP: ")


# ---- a rules check of the logs themselves ---------------------------------------------------

import re  # noqa: E402

from hoc.cards import CardDB  # noqa: E402

TURN = re.compile(r"^turn (\d+): seat (\d+)( \(extra turn\))?, SP (-?\d+), hand: (.*)$")
PLAY = re.compile(r"^  play (\w+) \(coins (\d+)\)$")
BUY = re.compile(r"^  buy (\w+) \(coins left (\d+)\)$")
BACK = re.compile(r"^  back (\w+) \(domain: (.*); SP (-?\d+)\)$")
SET = re.compile(r"^  set (\w+) \(domain: (.*); SP (-?\d+)\)$")
DECLARE = re.compile(r"^  declare coronation \(SP (-?\d+)\)$")
END = re.compile(r"^end: (\w+) after (\d+) turns; (?:seat (\d+) wins|no winner)$")


def _zone(text: str) -> dict[str, int]:
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, n = part.partition(" x")
        if name != "-":
            out[name] = int(n) if n else 1
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_log_follows_the_rules(name):
    """Coins add up card by card, buys cost the printed cost (Klam Klam: -1, never below 1), backing
    needs 6 coins and moves the 3 highest-cost Territories played, setting adds the card's SP,
    a declaration needs 20 SP, turns rotate seat by seat and the end line counts them."""
    opts, agents, seed, index, rotate = CASES[name]
    players = opts["players"]
    db = CardDB("2e")
    f = db.frame.set_index("id")
    princess, sp = {}, {s: 0 for s in range(1, players + 1)}
    lines = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    turns, seat, coins, played, last_declarer, expected_seat = 0, None, 0, [], None, 1
    for line in lines[2:]:
        if m := TURN.match(line):
            turns += 1
            assert int(m[1]) == turns
            seat = int(m[2])
            if not m[3]:
                assert seat == expected_seat, line
                expected_seat = seat % players + 1
            assert int(m[4]) == sp[seat]
            assert sum(_zone(m[5]).values()) <= 5
            coins, played = 0, []
        elif m := PLAY.match(line):
            coins += int(f.coins[m[1]])
            played.append(m[1])
            assert int(m[2]) == coins, line
        elif m := BUY.match(line):
            cost = int(f.cost[m[1]])
            if princess.get(seat) == "klam_klam":
                cost = max(cost - 1, 1)
            assert coins - int(m[2]) == cost, line
            assert m[1] not in ("curse", "apprentice_maid", "orchard")
            coins = int(m[2])
        elif m := BACK.match(line):
            assert seat not in princess and m[1] not in princess.values()
            assert coins >= int(f.cost[m[1]])
            princess[seat] = m[1]
            territories = sorted((c for c in played if "territory" in f.types[c]), key=lambda c: -f.cost[c])[:3]
            moved = {}
            for c in territories:
                moved[c] = moved.get(c, 0) + 1
            assert _zone(m[2]) == moved, line
            sp[seat] = int(f.sp[m[1]]) + sum(int(f.sp[c]) * n for c, n in moved.items())
            assert int(m[3]) == sp[seat], line
            coins = 0
        elif m := SET.match(line):
            assert seat in princess
            sp[seat] += int(f.sp[m[1]])
            assert int(m[3]) == sp[seat], line
        elif m := DECLARE.match(line):
            assert int(m[1]) == sp[seat] >= 20
            last_declarer = seat
        elif m := END.match(line):
            assert int(m[2]) == turns
            reason, winner = m[1], (int(m[3]) if m[3] else None)
            if reason == "coronation":
                assert winner == last_declarer and sp[winner] >= 20
            elif reason == "overtime":
                assert sp[winner] >= 30
            elif reason == "turn_cap":
                assert winner is None and turns == players * opts.get("turn_cap", 100)
            break
    else:
        pytest.fail("no end line")
    final = lines[-1]
    for s in range(1, players + 1):
        assert f"seat {s} {sp[s]} ({princess.get(s, 'no princess')})" in final
