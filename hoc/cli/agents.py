"""`hoc agents`: the agents a command can name, with what each does."""
from __future__ import annotations


def cmd_agents(args) -> int:
    from hoc.agents.registry import AGENTS

    width = max(len(n) for n in AGENTS)
    for name, agent in AGENTS.items():
        print(f"{name:<{width}}  {agent.description}")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("agents", help="list the available agents")
    p.set_defaults(func=cmd_agents)
