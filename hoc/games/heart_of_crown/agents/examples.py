"""The library's Python agent to copy, `agents/heart_of_crown/examples.py`, read as this module so its
long-standing name keeps working (`hoc simulate --agents hoc.games.heart_of_crown.agents.examples:basic_rush_py`)
and worker processes find its functions by that name."""
from hoc.agent_folders import game_folder

_FILE = game_folder("heart_of_crown") / "examples.py"
exec(compile(_FILE.read_text(encoding="utf-8"), str(_FILE), "exec"), globals())
