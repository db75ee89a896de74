"""Golden replay logs: `hoc.research.replays.replay` of a few fixed (seed, game) pairs must match the stored
files in tests/golden/. Any change of the rules, the agents or the random streams shows up here: the
log has a line for every decision, with the cards, coins and SP it moved.

Regenerate after an intended change with:  HOC_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
A change of the log's wording alone must leave the games as they were: `test_golden_replay_is_the_runs_game`
checks each replay against the run's recorded result, and `test_golden_log_follows_the_rules` re-checks
the stored text against the rules.
"""
from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from hoc.research.replays import replay
from hoc.games.heart_of_crown.rules import Ruleset
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
    assert lines[-2].startswith("End after ") and lines[-1].startswith("Final SP: ")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_replay_is_the_runs_game(name):
    """The replay plays the very game that `simulate` records for that index: same end, turns, winner, SP."""
    from hoc.research.harness import Plan
    from hoc.games.heart_of_crown.replay import replay_game
    from hoc.research.simulate import simulate

    opts, agents, seed, index, rotate = CASES[name]
    ruleset = Ruleset(market="basic", **opts)
    seats = lineup(agents, ruleset.players)
    r = replay_game(Plan(ruleset, seats, index + 1, seed, rotate), index)
    row = simulate(ruleset, seats, index + 1, seed=seed, rotate=rotate).games.iloc[index]
    assert (r.game.end_reason, r.game.turns) == (row.end_reason, row.turns)
    assert (r.game.winner if r.game.winner is not None else -1) == row.winner
    assert [r.game.sp(j) for j in range(ruleset.players)] == [row[f"sp_{j}"] for j in range(ruleset.players)]


# ---- a rules check of the logs themselves ---------------------------------------------------

import re  # noqa: E402

from hoc.games.heart_of_crown.cards import CardDB  # noqa: E402

TURN = re.compile(r"^Turn (\d+), seat (\d+) \((\S+)\)(, extra turn)?: (-?\d+) SP\. Hand: (.*)$")
PLAY = re.compile(r"^  plays ([^:(]+?)(?:: .*)? \(coins (\d+)(?:, .*)?\)$")
BUY = re.compile(r"^  buys an? (.+) for (\d+) coins? \((\d+) left\)$")
BACK = re.compile(r"^  backs (.+) with (\d+) coins; (.+) moves? to the domain \((-?\d+) SP\)$")
SET = re.compile(r"^  sets an? (.+) \((-?\d+) SP\)$")
DECLARE = re.compile(r"^  declares coronation with (-?\d+) SP$")
END = re.compile(r"^End after (\d+) turns by (.+?): (?:seat (\d+) \(\S+\) wins|no winner)\.$")
REASONS = {"coronation": "coronation", "overtime": "overtime", "judgement": "judgement", "the turn cap": "turn_cap"}


def _names(db) -> dict[str, str]:
    """Every way the log writes a card -> its id: 'City', 'Cities', 'Farming Village'."""
    out = {}
    for i, card in enumerate(db.ids):
        out[db.english(i)] = out[db.plural(i)] = card
    return out


def _cards(text: str, names: dict[str, str]) -> dict[str, int]:
    """'2 Farming Villages and a City' or '3 Farming Villages, 2 Apprentice Maids' -> {id: count}."""
    out = {}
    for part in re.split(r", | and ", text):
        n, _, name = part.partition(" ")
        count = 1 if n in ("a", "an") else int(n) if n.isdigit() else None
        card = names[name] if count is not None else names[part]
        out[card] = out.get(card, 0) + (count or 1)
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_log_follows_the_rules(name):
    """Coins add up card by card, buys cost the printed cost (Klam Klam: -1, never below 1), backing
    needs 6 coins and moves the 3 highest-cost Territories played, setting adds the card's SP,
    a declaration needs 20 SP, turns rotate seat by seat and the end line counts them."""
    opts, agents, seed, index, rotate = CASES[name]
    players = opts["players"]
    db = CardDB("2e")
    names = _names(db)
    f = db.frame.set_index("id")
    princess, sp = {}, {s: 0 for s in range(players)}
    lines = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    turns, seat, coins, played, last_declarer, expected_seat = 0, None, 0, [], None, 0
    for line in lines[4:]:
        if m := TURN.match(line):
            turns += 1
            assert int(m[1]) == turns
            seat = int(m[2])
            if not m[4]:
                assert seat == expected_seat, line
                expected_seat = (seat + 1) % players
            assert int(m[5]) == sp[seat]
            assert sum(_cards(m[6], names).values()) <= 5
            coins, played = 0, []
        elif m := PLAY.match(line):
            card = names[m[1]]
            coins += int(f.coins[card])
            played.append(card)
            assert int(m[2]) == coins, line
        elif m := BUY.match(line):
            card = names[m[1]]
            cost = int(f.cost[card])
            if princess.get(seat) == "klam_klam":
                cost = max(cost - 1, 1)
            assert int(m[2]) == cost and coins - int(m[3]) == cost, line
            assert card not in ("curse", "apprentice_maid", "orchard")
            coins = int(m[3])
        elif m := BACK.match(line):
            card = names[m[1]]
            assert seat not in princess and card not in princess.values()
            assert int(m[2]) == coins >= int(f.cost[card])
            princess[seat] = card
            territories = sorted((c for c in played if "territory" in f.types[c]), key=lambda c: -f.cost[c])[:3]
            moved = {}
            for c in territories:
                moved[c] = moved.get(c, 0) + 1
            assert _cards(m[3], names) == moved, line
            sp[seat] = int(f.sp[card]) + sum(int(f.sp[c]) * n for c, n in moved.items())
            assert int(m[4]) == sp[seat], line
            coins = 0
        elif m := SET.match(line):
            assert seat in princess
            sp[seat] += int(f.sp[names[m[1]]])
            assert int(m[2]) == sp[seat], line
        elif m := DECLARE.match(line):
            assert int(m[1]) == sp[seat] >= 20
            last_declarer = seat
        elif m := END.match(line):
            assert int(m[1]) == turns
            reason, winner = REASONS[m[2].split(" (")[0].split(":")[0]], (int(m[3]) if m[3] else None)
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
    for s in range(players):
        backed = db.english(db.index(princess[s])) if s in princess else "no princess"
        assert f"seat {s} {sp[s]} ({backed})" in final
