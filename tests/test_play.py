"""`hoc play`: a person at the terminal plays a whole game from scripted input, sees only what their seat
may see (hot seat included), reads card texts, is re-prompted on bad input, and saves a game that
`hoc replay FILE` tells to the same end."""
from __future__ import annotations

import io
import json
import re
import sys

import numpy as np
import pytest
from rich.console import Console

from hoc.cli.main import main
from hoc.cli.session import HUMAN, Session, seats
from hoc.research.replays import replay_saved
from hoc.research.harness import Plan
from hoc.games.heart_of_crown.rules import Ruleset

BASIC = ["--market", "basic"]


def run_cli(capsys, monkeypatch, stdin: str, *argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


class Person:
    """A scripted person: picks a random legal action by its number, presses Enter at every other
    prompt, and remembers each seat's true hand whenever that seat is shown its view."""

    def __init__(self, seed: int, extra: list[str] = ()):
        self.rng = np.random.default_rng(seed)
        self.extra = list(extra)        # typed first, before any action
        self.session: Session | None = None
        self.prompts = 0

    def read(self, prompt: str) -> str:
        self.prompts += 1
        if not prompt.startswith("seat "):
            return ""
        if self.extra:
            return self.extra.pop(0)
        return str(self.rng.integers(1, len(self.session.game.legal_actions()) + 1))


def session(agents: str, seed: int, person: Person, save=None, **rules) -> tuple[Session, str]:
    names = agents.split(",")
    plan = Plan(Ruleset(players=len(names), **rules), seats(agents, None), 1, seed)
    out = io.StringIO()
    humans = [q for q, n in enumerate(names) if n == HUMAN]
    s = Session(plan, humans, Console(file=out, width=100), person.read, save)
    person.session = s
    s.run()
    return s, out.getvalue()


def hidden_leaks(lines: list[str], viewer: int) -> list[str]:
    """Lines of a seat's output that name another seat's hand or drawn cards. The feed's lines are the
    replay's: a turn header names its seat, an indented line is the turn player's unless it starts with
    'seat N'."""
    leaks, turn_seat = [], None
    for line in lines:
        if m := re.match(r"Turn \d+, seat (\d+) \(.*?\).*: -?\d+ SP\. Hand: (.*)$", line):
            turn_seat = int(m[1])
            if turn_seat != viewer and not re.fullmatch(r"\d+ cards?", m[2]):
                leaks.append(line)
        elif line.startswith("  ") and turn_seat is not None:
            m = re.match(r"  seat (\d+) ", line)
            actor = int(m[1]) if m else turn_seat
            if actor != viewer and re.search(r"draws (?!a card\b|\d+ cards\b)|chooses .* in the hand|"
                                             r"chooses .* on top of the deck|hand [+-]\d+ (?!cards)", line) \
                    and not re.search(r"chooses a card (in the hand|on top of the deck)", line):
                leaks.append(line)
    return leaks


def segments(out: str) -> list[tuple[int, list[str]]]:
    """Hot seat output cut at each 'Pass the keyboard to seat N': (N, the lines N was shown)."""
    parts = re.split(r"^─* ?Pass the keyboard to seat (\d+) ?─*$", out, flags=re.M)
    return [(int(parts[i]), parts[i + 1].splitlines()) for i in range(1, len(parts), 2)]


# ---- a whole game ------------------------------------------------------------------------------------

def test_a_person_typing_the_first_action_plays_a_whole_game_and_sees_its_result(capsys, monkeypatch, tmp_path):
    save = tmp_path / "game.json"
    code, out, err = run_cli(capsys, monkeypatch, "1\n" * 3000, "--agents", "human,basic_rush", *BASIC,
                             "--seed", "3", "--save", str(save))
    assert code == 0, err
    assert "Traceback" not in out + err
    assert "Game over" in out
    end = [line for line in out.splitlines() if line.startswith("End after ")]
    assert len(end) == 1 and "seat 1 (basic_rush) wins" in end[0]      # passing every turn loses
    assert f"saved to {save}" in out
    assert "1. pass: end the main phase" in out


def test_a_random_person_against_an_agent_sees_its_draws_counted_while_the_replay_names_them(tmp_path):
    save = tmp_path / "g.json"
    s, out = session("twins_extra_turns,human", 5, Person(11), save=str(save))
    assert s.game.over
    assert "Game over" in out and "End after " in out
    assert not hidden_leaks(out.splitlines(), 1)
    replayed = replay_saved(save).lines
    named = [line for line in hidden_leaks(replayed, 1) if "draws" in line]
    assert named                    # the agent drew cards during the game (the replay names them) ...
    counted = [line for line in out.splitlines() if re.search(r"draws (a card|\d+ cards)\b", line)]
    assert len(counted) >= len(named)       # ... and the person read each of those draws as a count


def test_the_saved_game_replays_to_the_same_end(capsys, tmp_path):
    save = tmp_path / "g.json"
    s, out = session("human,basic_rush", 8, Person(3), save=str(save), turn_cap=12)
    r = replay_saved(save)
    assert r.actions == s.actions
    assert r.game.winners == s.game.winners and [r.game.sp(j) for j in range(2)] == [s.game.sp(j) for j in range(2)]
    end = next(line for line in out.splitlines() if line.startswith("End after "))
    assert main(["replay", str(save)]) == 0
    log = capsys.readouterr().out.splitlines()
    assert end in log
    assert log[1] == "Seats (seat 0 plays first): seat 0 human, seat 1 basic_rush"
    # the replay is the omniscient log: the person's hidden hand is named there
    assert any(re.match(r"Turn \d+, seat 0 \(human\): .*Hand: (?!\d+ cards)", line) for line in log)


def test_a_saved_game_that_does_not_replay_as_saved_is_refused(capsys, tmp_path):
    save = tmp_path / "g.json"
    session("human,basic_rush", 8, Person(3), save=str(save), market="basic", turn_cap=6)
    data = json.loads(save.read_text())
    data["result"]["sp"] = [99, 99]
    save.write_text(json.dumps(data))
    assert main(["replay", str(save)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hoc: error:") and "does not end as the game was saved" in err and len(err.splitlines()) == 1


# ---- what each seat sees ---------------------------------------------------------------------------

def test_hot_seat_shows_each_hand_only_to_its_owner(tmp_path):
    person = Person(21)
    s, out = session("human,human", 4, person, turn_cap=12)
    assert s.game.over
    parts = segments(out)
    assert {p for p, _ in parts} == {0, 1}
    for p, lines in parts:
        assert not hidden_leaks(lines, p), (p, hidden_leaks(lines, p))
    # each person's own hand is there, and the other's is counted in the feed
    shown = {p: sum(line.startswith("Your hand:") for line in lines) for p, lines in parts}
    assert shown[0] and shown[1]
    assert any(re.fullmatch(r"Turn \d+, seat 1 \(human\): -?\d+ SP\. Hand: \d+ cards", line)
               for p, lines in parts if p == 0 for line in lines)


def test_hot_seat_own_view_names_the_hand_the_seat_holds():
    """Every 'Your hand' line in a seat's part of the output is that seat's hand at that moment."""
    truth: list[tuple[int, str]] = []
    person = Person(5)

    class Recording(Session):
        def show_own(self, p):
            from hoc.cli.session import card_names
            truth.append((p, card_names(self.game, self.game.hand(p))))
            super().show_own(p)

    names = ["human", "human"]
    plan = Plan(Ruleset(players=2, market="basic", turn_cap=8), seats(",".join(names), None), 1, 2)
    out = io.StringIO()
    s = Recording(plan, [0, 1], Console(file=out, width=100), person.read)
    person.session = s
    s.run()
    shown = [(p, line.removeprefix("Your hand: ")) for p, lines in segments(out.getvalue()) for line in lines
             if line.startswith("Your hand: ")]
    assert shown == truth and len(truth) > 10


def test_the_other_seat_draws_are_counted_not_named():
    """A draw of seat 1: the replay names the cards, seat 1 too; seat 0 reads how many."""
    from hoc.games.heart_of_crown.cards import CardDB
    from hoc.games.heart_of_crown.replay import Table, moves

    from hoc.games.heart_of_crown.game import Game

    g = Game.of_run(Ruleset(players=2, market="basic"), 0, 0)
    db = CardDB("2e")
    before = Table.read(g)
    after = Table.read(g)
    city = db.index("city")
    after.hand[1][city] += 2
    after.deck[1][city] -= 2
    m = moves(db, before, after, 1, False, False)
    assert m.words(db) == ["draws 2 Cities"]
    assert m.words(db, hidden=True) == ["draws 2 cards"]


def test_card_text_help_and_bad_input_reprompt_with_one_line(capsys, monkeypatch):
    typed = ["?", "? Second Princess Laolily", "? 2", "? nosuchcard", "xyz", "99", "", "buy duke", "2", "q", ""]
    code, out, err = run_cli(capsys, monkeypatch, "\n".join(typed) + "\n", "--agents", "human,basic_rush",
                             *BASIC, "--seed", "3")
    from hoc.games.heart_of_crown.cards import CardDB

    db = CardDB("2e")
    assert code == 0 and "Traceback" not in out + err
    assert "'? CARD' or '? N' shows a card's text" in out
    assert "Second Princess Laolily [laolily]" in out and " ".join(db.text("laolily").split()[:4]) in out
    assert out.count("Farming Village [farming_village]") == 2     # ?: every card an action names; ? 2: action 2's
    assert "unknown card 'nosuchcard'" in out
    for bad in ("'xyz' is not one of the actions listed", "no action 99", "type a number from 1 to 2",
                "'buy duke' is not one of the actions listed"):
        assert bad in out
    assert "plays Farming Village (coins 1)" in out                        # then 2 played a card
    assert "Game over" not in out


def test_an_action_label_picks_that_action(capsys, monkeypatch):
    typed = ["play farming_village", "play Farming Village", "2", "pass", "buy City", "q", ""]
    code, out, err = run_cli(capsys, monkeypatch, "\n".join(typed) + "\n", "--agents", "human,basic_rush",
                             *BASIC, "--seed", "3")
    assert code == 0
    for told in ("plays Farming Village (coins 2)", "plays Farming Village (coins 3)",
                 "ends the Main phase with 3 coins", "buys a City for 3 coins (0 left)"):
        assert told in out


def test_the_input_ending_stops_the_game_and_keeps_what_was_saved(capsys, monkeypatch, tmp_path):
    save = tmp_path / "part.json"
    code, out, err = run_cli(capsys, monkeypatch, "2\n2\n", "--agents", "human,basic_rush", *BASIC,
                             "--seed", "3", "--save", str(save))
    assert code == 0 and "the input ended" in out and "Traceback" not in out + err
    assert main(["replay", str(save)]) == 0
    log = capsys.readouterr().out
    assert "plays Farming Village (coins 2)" in log and "saved before the end, after 2 decisions" in log


def test_quitting_offers_a_person_at_a_terminal_to_save(tmp_path):
    save = tmp_path / "quit.json"
    typed = iter(["2", "q", str(save)])
    plan = Plan(Ruleset(players=2, market="basic"), seats("human,basic_rush", None), 1, 3)
    s = Session(plan, [0], Console(file=io.StringIO(), width=100), lambda prompt: next(typed), offer_save=True)
    s.run()
    assert len(json.loads(save.read_text())["actions"]) == 1 and not s.game.over


def test_scripted_input_is_never_read_as_a_file_name(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, monkeypatch, "2\nq\nname\n", "--agents", "human,basic_rush", *BASIC,
                             "--seed", "3")
    assert code == 0 and list(tmp_path.iterdir()) == []


def test_save_command_writes_the_game_so_far(capsys, monkeypatch, tmp_path):
    save = tmp_path / "mid.json"
    code, out, err = run_cli(capsys, monkeypatch, f"2\nsave {save}\nq\n\n", "--agents", "human,basic_rush",
                             *BASIC, "--seed", "3")
    assert code == 0 and f"saved to {save}" in out
    assert len(json.loads(save.read_text())["actions"]) == 1


@pytest.mark.parametrize("argv,names", [
    (["--agents", "basic_rush,basic_rush"], "no seat is human"),
    (["--agents", "human,nosuch_agent"], "nosuch_agent"),
    (["--agents", "human,basic_rush", "--players", "3"], "2 agents for 3 players"),
    (["--agents", "human,basic_rush", "--rotate-seats"], "--rotate-seats"),
    (["--agents", "human,basic_rush", "--save", "/nonexistent/dir/g.json"], "--save"),
])
def test_bad_play_options_are_one_line_and_exit_2(capsys, monkeypatch, argv, names):
    code, out, err = run_cli(capsys, monkeypatch, "", *argv)
    assert code == 2 and names in err and len(err.strip().splitlines()) == 1


def test_replay_refuses_a_file_that_is_not_a_saved_game(capsys, tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("{}")
    assert main(["replay", str(bad)]) == 2
    assert "not a game saved by `hoc play`" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_one_human_name_with_players_fills_every_seat_hot_seat():
    agents = seats("human", 2)
    assert [a.name for a in agents] == [HUMAN, HUMAN]
    assert [a.name for a in seats("human,basic_rush", None)] == [HUMAN, "basic_rush"]
