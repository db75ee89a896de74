"""Inputs that used to crash, hang or lose a run: each gives one line on stderr naming the problem and
exit code 2 (no traceback), before any game is played; a Ctrl-C gives one line saying what was saved
and how to resume, with exit code 130; a huge run keeps its memory flat."""
from __future__ import annotations

import pytest

from hoc.cli import main

BASIC = ["--market", "basic"]
SENATOR_DUKE = "hoc/agents/archetypes/senator_duke.toml"


def refused(capsys, *argv) -> str:
    """Run the command line; assert it refused the input with one line and exit code 2; return the line."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2, (code, out, err)
    assert len(lines) == 1, err
    assert lines[0].startswith("hoc: error: "), err
    assert "Traceback" not in err and out == ""
    return lines[0]


def agent_file(tmp_path, text: str | bytes, name: str = "mine.toml") -> str:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


# ---- numbers out of range --------------------------------------------------------------------------

def test_a_huge_override_value_is_refused_with_the_fields_range(capsys):
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--override", "duke.cost=99999999999")
    assert "duke.cost=99999999999" in line and "0 to 99" in line


def test_a_negative_copies_override_is_refused(capsys):
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--override", "city.copies=-1")
    assert "copies must be 0 to 99" in line


def test_a_huge_override_in_balance_is_refused_before_playing(capsys):
    line = refused(capsys, "balance", "--games", "2", "--override", "curse_witch.cost=99999999999")
    assert "curse_witch.cost" in line


def test_a_huge_threshold_in_an_agent_file_is_refused_naming_its_line(capsys, tmp_path):
    path = agent_file(tmp_path, '[[buy]]\ncard = "duke"\ncoins_at_least = 99999999999\n')
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)
    assert f"{path}, line 3" in line and "coins_at_least" in line and "99999999999" in line


def test_a_huge_princess_threshold_in_an_agent_file_is_refused(capsys, tmp_path):
    path = agent_file(tmp_path, '[princess]\nmin_coins = 99999999999\n[[buy]]\ncard = "duke"\n')
    assert "min_coins" in refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)


def test_a_huge_turn_cap_is_refused(capsys):
    assert "turn_cap must be a whole number from 1 to 1000" in refused(
        capsys, "simulate", *BASIC, "--games", "2", "--turn-cap", "99999999999")


def test_a_game_index_beyond_64_bits_is_refused_by_replay(capsys):
    assert "--game" in refused(capsys, "replay", *BASIC, "--game", str(2 ** 70))


# ---- agent files ----------------------------------------------------------------------------------

def test_an_agent_file_that_is_not_utf8_is_refused(capsys, tmp_path):
    path = agent_file(tmp_path, b'description = "caf\xe9"\n[[buy]]\ncard = "duke"\n')
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)
    assert path in line and "not UTF-8" in line and "0xe9" in line


def test_a_utf16_agent_file_is_refused(capsys, tmp_path):
    path = agent_file(tmp_path, '[[buy]]\ncard = "duke"\n'.encode("utf-16"))
    assert "not UTF-8" in refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)


def test_an_empty_agent_file_is_refused(capsys, tmp_path):
    path = agent_file(tmp_path, "")
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)
    assert path in line and "no [[buy]] rules" in line


def test_an_agent_file_of_comments_only_is_refused(capsys, tmp_path):
    path = agent_file(tmp_path, '# to do\ndescription = "later"\n')
    assert "no [[buy]] rules" in refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)


@pytest.mark.parametrize("text, problem", [
    ('princess = 3\n[[buy]]\ncard = "duke"\n', "princess must be a table"),
    ('set = "high"\n[[buy]]\ncard = "duke"\n', "set must be a table"),
    ('play = [1]\n[[buy]]\ncard = "duke"\n', "play must be a table"),
    ('choose = 2\n[[buy]]\ncard = "duke"\n', "choose must be a table"),
    ("buy = [1, 2]\n", "buy rules are written [[buy]] tables"),
    ('[[buy]]\ncard = "duke"\ncoins_at_least = 2.5\n', "coins_at_least must be a whole number"),
    ('[[buy]]\ncard = "duke"\nturn_at_most = "5"\n', "turn_at_most must be a whole number"),
    ('[play]\nkeep = "yes"\n[[buy]]\ncard = "duke"\n', "keep must be true or false"),
], ids=["princess-int", "set-string", "play-list", "choose-int", "buy-ints", "float", "string", "keep-string"])
def test_a_value_of_the_wrong_type_in_an_agent_file_is_refused(capsys, tmp_path, text, problem):
    path = agent_file(tmp_path, text)
    assert problem in refused(capsys, "simulate", *BASIC, "--games", "2", "--agents", path)


def test_an_agent_file_that_is_a_folder_is_refused(capsys, tmp_path):
    (tmp_path / "folder.toml").mkdir()
    assert "cannot read agent file" in refused(capsys, "simulate", *BASIC, "--games", "2",
                                               "--agents", str(tmp_path / "folder.toml"))


def test_an_agent_file_with_a_byte_order_mark_is_read(capsys, tmp_path):
    """Windows Notepad starts UTF-8 files with a byte-order mark: that is still UTF-8."""
    path = agent_file(tmp_path, '\ufeff[[buy]]\ncard = "duke"\n'.encode("utf-8"))
    assert main(["simulate", *BASIC, "--games", "2", "--agents", path]) == 0


# ---- rulesets ---------------------------------------------------------------------------------------

def test_fewer_princesses_than_players_is_refused(capsys):
    line = refused(capsys, "simulate", *BASIC, "--games", "2", "--players", "3",
                   "--princesses", "lulunasaika,laolily")
    assert "3 players need at least 3 princesses" in line


def test_five_players_are_refused(capsys):
    assert "players must be 1 to 4" in refused(capsys, "simulate", *BASIC, "--games", "2", "--players", "5")


def test_five_players_are_refused_by_tournament(capsys):
    assert "players must be 1 to 4" in refused(capsys, "tournament", "--players", "5",
                                               "--games-per-pairing", "2")
