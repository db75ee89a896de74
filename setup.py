"""The packages and their data files, which pyproject.toml cannot say (everything else is there): hoc's
packages, and the top-level `agents/` folder (the agent library: plans, bots, learned weights, a Python
agent to copy) installed as `hoc/library`, where `hoc.agent_folders.library()` finds it in a wheel (a
checkout or an editable install reads `agents/` itself)."""
from setuptools import find_namespace_packages, setup

LIBRARY = ["hoc.library", *(f"hoc.library.{p}" for p in find_namespace_packages("agents"))]   # agents/ and its folders

setup(
    packages=[*find_namespace_packages(include=["hoc", "hoc.*"]), *LIBRARY],
    package_dir={"hoc.library": "agents"},
    package_data={
        "hoc.web": ["static/*"],    # the web table's pages and assets (hoc serve)
        "hoc": ["games/*/data/*.csv", "games/*/data/*.md", "games/*/agents/data/*.toml", "games/*/agents/data/*.npz",
                "games/*/agents/library/*.toml"],   # (the last: Dominion bots left in their old folder, still read)
        **{p: ["*.md", "*.toml", "*.npz", "*.py"] for p in LIBRARY},
    },
)
