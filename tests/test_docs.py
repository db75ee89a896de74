"""The documentation site builds with `mkdocs build --strict`: a broken link or anchor, a page missing
from the navigation, a figure that is not there or a docstring the API reference cannot read fails
it, so the docs cannot drift from the code and the results silently. About 10-25 s on 2 cores."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_docs_build_strict_without_a_warning(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    # Material prints a banner about MkDocs 2.0 on every build; it is not a warning about these docs
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    log = done.stdout + done.stderr
    warnings = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
    assert done.returncode == 0 and not warnings, log
    site = tmp_path / "site"
    assert (site / "index.html").is_file() and (site / "reference" / "heart_of_crown" / "index.html").is_file()


def test_every_figure_a_page_links_is_in_results():
    """The hook copies the study figures the pages link (`../results/...png`) into the site."""
    pytest.importorskip("mkdocs")
    import importlib.util

    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    linked = sorted({m for page in (ROOT / "docs").rglob("*.md")
                     for m in hooks.FIGURE.findall(page.read_text(encoding="utf-8"))})
    assert linked, "no page links a study figure"
    missing = [f for f in linked if not (ROOT / f).is_file()]
    assert not missing, f"pages link figures that results/ does not have: {missing}"
