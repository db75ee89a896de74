"""What pyproject.toml cannot say: the packages are hoc's plus the top-level `agents/` folder (the agent
library: plans, bots, learned weights, a Python agent to copy), mapped to the package `hoc.agent_files`,
where `hoc.agent_folders.library()` finds it in a wheel (a checkout or an editable install reads
`agents/` itself). Their data files are listed in pyproject.toml."""
from setuptools import find_namespace_packages, setup

LIBRARY = ["hoc.agent_files", *(f"hoc.agent_files.{p}" for p in find_namespace_packages("agents"))]   # agents/, its folders

setup(packages=[*find_namespace_packages(include=["hoc", "hoc.*"]), *LIBRARY], package_dir={"hoc.agent_files": "agents"})
