"""Every study notebook runs from top to bottom at a tiny size, so none can rot; and every study
script is deterministic for its seed."""
from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


SLOW = {"balance", "benchmark", "princesses"}     # studies that tune or race plans even at their smallest


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.stem in SLOW else p for p in NOTEBOOKS],
                         ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_at_a_tiny_size(path, tmp_path, monkeypatch, warm_kernels):
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    monkeypatch.setenv("HOC_NOTEBOOK_GAMES", "120")
    monkeypatch.setenv("HOC_NOTEBOOK_OUT", str(tmp_path))
    monkeypatch.setenv("HOC_JOBS", "1")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs) or path.stem == "balance"
    assert (tmp_path / path.stem / "summary.md").exists()


def test_a_study_reruns_identically_from_its_command(tmp_path, warm_kernels):
    from experiments import seat_order

    a = seat_order.main(["--games", "200", "--jobs", "1", "--out", str(tmp_path / "a")])
    b = seat_order.main(["--games", "200", "--jobs", "1", "--out", str(tmp_path / "b")])
    table = lambda s: [line for line in (s.out / "summary.md").read_text().splitlines()  # noqa: E731
                       if line.startswith("|")]
    assert table(a) == table(b) and len(table(a)) == 2 + 9
