"""The package lives beside other research tooling: its only import name is `hoc`, code written for
the old top-level `agents` package gets one line naming the new path, and the version is defined once."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import hoc
from hoc.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _other_agents_installed() -> bool:
    """Another distribution (e.g. the OpenAI Agents SDK) provides `agents`: then it, not our hint, answers."""
    code = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('agents') else 1)"
    return subprocess.run([sys.executable, "-c", code], cwd="/").returncode == 0


@pytest.mark.skipif(_other_agents_installed(), reason="another package provides `agents` here")
def test_old_agents_import_names_the_new_path_in_one_line():
    code = "import hoc\ntry:\n    import agents.registry\nexcept ImportError as e:\n    print(e)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/").stdout.strip()
    assert out.startswith("no module named 'agents'") and "hoc.agents" in out and len(out.splitlines()) == 1


def test_the_moved_hint_never_answers_for_a_package_that_exists():
    from hoc._moved import _MovedAgents

    assert _MovedAgents().find_spec("hoc.agents") is None
    assert _MovedAgents().find_spec("agentsmith") is None       # only `agents` and its submodules


def test_an_old_agents_spec_on_the_command_line_names_the_new_one(capsys):
    assert main(["simulate", "--agents", "agents.examples:basic_rush_py", "--market", "basic", "--games", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "hoc.games.heart_of_crown.agents.examples:basic_rush_py" in err


def test_the_version_is_defined_once_and_shown_by_hoc_version(capsys):
    from importlib.metadata import version

    assert version("heart-of-crown") == hoc.__version__
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.split()[-1] == hoc.__version__


def test_the_top_level_agents_folder_is_data_that_shadows_no_package_named_agents(tmp_path):
    """agents/ (the agent library) has no __init__.py: a regular package `agents` later on the path
    still wins over it when the checkout is on the path first (python -m, pytest)."""
    assert (ROOT / "agents").is_dir() and not (ROOT / "agents" / "__init__.py").exists()
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "__init__.py").write_text("WHO = 'theirs'\n")
    code = "import agents; print(agents.WHO)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}"})
    assert out.stdout.strip() == "theirs", out.stderr


def test_old_heart_of_crown_module_paths_name_their_new_place_in_one_line():
    code = ("import hoc\nfor name in ('hoc.kernel.constants', 'hoc.game', 'hoc.rules', 'hoc.kernel.jit'):\n"
            "    try:\n        __import__(name)\n    except ImportError as e:\n        print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/").stdout.splitlines()
    assert len(out) == 4
    assert "'hoc.kernel': it moved to hoc.games.heart_of_crown.kernel" in out[0] and "0.3" in out[0]   # the package first
    assert "hoc.games.heart_of_crown.game" in out[1]
    assert "hoc.games.heart_of_crown.rules" in out[2]
    assert "hoc.engine.jit for hoc.kernel.jit" in out[3]
