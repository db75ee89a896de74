"""The README starts with the two set-up commands a new user types, and CI runs the second one exactly
as written: the README and CI cannot drift apart."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _first_block() -> list[str]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("```bash")
    return lines[start + 1:lines.index("```", start + 1)]


def test_readme_starts_with_exactly_two_setup_commands_main_job_then_tests():
    block = _first_block()
    assert len(block) == 2, block
    assert block[0].startswith("pip install") and block[0].endswith("hoc simulate")
    assert block[1].startswith("pip install") and block[1].endswith("pytest")


def test_ci_runs_the_readme_test_command_as_written():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert script[-1] == _first_block()[1], "the last line of .ci/run must be the README's test command"
