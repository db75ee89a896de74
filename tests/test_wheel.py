"""The package as a user installs it: a wheel built with `python -m build`, installed into a clean
virtual environment, runs from a folder outside the checkout. This is what catches a data file missing
from the wheel (card data, archetype files) and a top-level name that would shadow another package.

It builds a venv and installs the dependencies from the package index (pip's cache makes that quick on a
machine that has installed the project once), then compiles the engine once in that venv: about two to
three minutes on the 2-core CI machine.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(argv, cwd, env, timeout=900):
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(map(str, argv))} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    pytest.importorskip("build")
    out = tmp_path_factory.mktemp("dist")
    # a copy of the sources, so the build never writes into the checkout (build/, *.egg-info)
    src = tmp_path_factory.mktemp("src") / "heart-of-crown"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv", "venv", "build", "dist", "*.egg-info",
                                                              "__pycache__", "*.parquet", "results", "notebooks"))
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(src)], cwd=src, env=os.environ.copy())
    (path,) = out.glob("heart_of_crown-*.whl")
    return path


def test_the_wheel_holds_only_the_hoc_package_with_its_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"hoc"}, f"the wheel installs top-level names besides hoc: {sorted(top)}"
    assert "hoc/games/heart_of_crown/data/cards.csv" in names
    import hoc

    assert f"heart_of_crown-{hoc.__version__}-py3-none-any.whl" == wheel.name
    web = {Path(n).name for n in names if n.startswith("hoc/web/static/")}   # the web table's pages and assets
    assert web and web == {p.name for p in (ROOT / "hoc" / "web" / "static").iterdir()}, web
    # the top-level agents/ folder, every file of it, as hoc/agent_files (where hoc.agent_folders.library() reads it)
    packed = {n.removeprefix("hoc/agent_files/") for n in names if n.startswith("hoc/agent_files/")}
    shipped = {str(p.relative_to(ROOT / "agents")) for p in (ROOT / "agents").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert {"heart_of_crown/archetypes/senator_duke.toml", "heart_of_crown/tuned/tuned_general_2p.toml",
            "heart_of_crown/learned/learned_2p.npz", "dominion/bots/dom_big_money.toml"} <= shipped
    assert packed == shipped


@pytest.mark.slow   # a clean venv installs the wheel and compiles the engine (~2 min)
def test_the_wheel_installs_in_a_clean_venv_and_runs_outside_the_checkout(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    hoc = env_dir / "bin" / "hoc"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "NUMBA_CACHE_DIR")}
    env["HOC_CACHE_DIR"] = str(tmp_path / "cache")
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    _run([py, "-m", "pip", "install", "--quiet", str(wheel)], cwd=tmp_path, env=env)
    _run([py, "-m", "pip", "check"], cwd=tmp_path, env=env)
    work = tmp_path / "elsewhere"
    work.mkdir()

    where = _run([py, "-c", "import hoc; print(hoc.__file__)"], cwd=work, env=env)
    assert str(env_dir) in where and str(ROOT) not in where
    assert _run([hoc, "--version"], cwd=work, env=env).split()[-1] == _version()
    out = _run([hoc, "simulate", "--games", "100", "--seed", "3"], cwd=work, env=env)
    assert "100 games" in out
    assert "senator_duke" in _run([hoc, "agents"], cwd=work, env=env)
    out = _run([hoc, "tournament", "--agents", "basic_rush,senator_duke", "--games-per-pairing", "40",
                "--market", "basic"], cwd=work, env=env)
    assert "senator_duke" in out
    # a user copies an installed archetype, renames it and plays it
    archetype = _run([py, "-c", "from hoc.games.heart_of_crown.agents.catalog import ARCHETYPES; print(ARCHETYPES / 'senator_duke.toml')"],
                     cwd=work, env=env).strip()
    assert archetype.startswith(str(env_dir)) and "/hoc/agent_files/" in archetype    # read from the install
    shutil.copy(archetype, work / "my_plan.toml")
    out = _run([hoc, "simulate", "--agents", "my_plan.toml,basic_rush", "--games", "60", "--market", "basic"],
               cwd=work, env=env)
    assert "my_plan" in out


def _version() -> str:
    import hoc

    return hoc.__version__
