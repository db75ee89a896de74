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


def test_the_readme_is_a_front_page_whose_links_lead_into_the_docs():
    """At most 200 lines, no issue numbers, and every link it makes leads to a file that is there (the
    long sections live in docs/, which tests/test_docs.py builds --strict)."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert not re.search(r"\bissues? #?\d+|(?<![\w&])#\d+\b", text, re.IGNORECASE)
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    assert any(link.startswith("docs/") for link in links)
    missing = [link for link in links if "://" not in link and not (ROOT / link).exists()]
    assert not missing, f"the README links files that are not there: {missing}"


def test_the_strongest_agents_table_quotes_the_committed_results_it_cites():
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## The strongest agents"):text.index("\n## ", text.index("## The strongest agents") + 3)]
    learned = (ROOT / "results" / "learned" / "summary.md").read_text(encoding="utf-8")
    ladder = (ROOT / "results" / "benchmark" / "summary.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \|[^|]*\| ([\d.]+% \[[\d.]+, [\d.]+\]) \|", section, re.MULTILINE)
    assert len(rows) >= 3
    for agent, figure in rows:
        assert f"| {agent} | {figure} |" in learned, (agent, figure)
    best = re.search(r"`(\w+)`, the plan that tops the ladder[^(]*\(([\d.]+% \[[\d.]+, [\d.]+\])", section)
    assert best and f"| {best.group(1)} | {best.group(2)} |" in ladder
