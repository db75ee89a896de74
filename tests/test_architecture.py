"""The import graph of `hoc`: no circles, and no module imports from a layer above its own.

Every module of the package is parsed with `ast`; each `import` and `from ... import` naming a `hoc`
module is an edge, wherever it stands: at module level, or inside a function (a function-level
import that closes a circle hides it, it does not remove it). A submodule's package `__init__` runs
before the submodule does, but that is Python's loading order, not a dependency the code states: the
graph holds the imports as written.

The layers, from the bottom up (`LAYERS`; a module's layer is that of the longest name that is the
module or a package holding it):

- base: the package root (its version and cache folder), errors, name suggestions, the notice for
  moved modules, names of files kept inside a folder, where the agent files are (`hoc.agent_folders`):
  what every layer may use;
- engine: what every game's jitted rules are built with (`hoc.engine`): it names no game;
- kernel: a game's jitted rules (`hoc.games.heart_of_crown.kernel`, `hoc.games.dominion.kernel`);
- game: the Python face of a game (the rest of its package): card data, rulesets, market presets,
  `Game` and the turn-by-turn telling of a game (`replay`), and the file of a saved game
  (`hoc.games.saved`); they read the kernel and name no agent;
- agent kinds: the ids of the jitted agent kinds (`hoc.agents.ids`), which a game's agents are, and
  the contract every agent keeps (`hoc.agents.agent`: the `Agent` record, the `Reach` of a name, the
  `Parser` of a kind of name; `hoc.agents.in_game`: a jitted agent deciding in a `Game`), and the
  search any game's deciders may seat (`hoc.agents.playouts`, on the game's hooks), and what a game's
  plan space for the strategy atlas is (`hoc.agents.plan_space`);
- game agents: a game's agent library (`hoc.games.heart_of_crown.agents`: its priority-list format
  and player, the turn planner, the arena, the plan as a genome, the plan files);
- agents: the shared seat of every agent (`hoc.agents`): the registry, which gathers every game's
  catalog (`GameSpec.agents`), and the deciders seated through a game's spec;
- python agents: a game's example Python agents, which decide through the shared agents;
- research: running games at scale: the batch loop, the harness, Parquet folders, summaries,
  statistics, plots, replays of a run's games (`hoc.research`);
- tuner: `hoc.agents.tune` (the races and the compiled schedule) and each game's own search over its
  plans (`hoc.games.<game>.agents.tuning`) live beside the agents they write, but they play their
  candidates through the research harness, so their layer is above research's; so does the strategy
  atlas (`hoc.research.atlas`), which plays its plans through the tuner's compiled schedule;
- studies: the studies behind the commands and their reports (round robin, the meta-game, the study
  around the tuner; a game's own studies in its `studies` package: Heart of Crown's princess strength,
  card value and SP curves; one supply's report, `hoc.research.market`, and the pair screen,
  `hoc.research.combos`, on the atlas); card value
  re-tunes plans, so the studies sit above the tuner;
- env: the learning environments (`hoc.env`), which seat jitted agents in games;
- learner: `hoc learn`'s training (`hoc.agents.learn`: imitation and PPO, in torch) lives beside the
  learned agents it writes (`hoc.games.heart_of_crown.agents.learned`, the weight file and the jitted forward pass, in the
  agents layer), but it trains over the environments and evaluates through the research harness;
- cli: the `hoc` command, and each game's own side of the shared commands (`hoc.games.<game>.commands`:
  its card sheet, its tuner's command, its table at the terminal);
- web: the web table (`hoc.web`, started by `hoc serve`), a front end ranked with the cli: it plays
  through `Game` and the replay's `Teller` and reads runs through the research layer;
- api: the Python front door (`hoc.api`: `hoc.simulate`, `hoc.Game`, `hoc.agent`), a front end ranked
  with the cli, whose options and defaults it shares.

The package root offers the front door by name (`hoc.simulate`, `hoc.games()`, ...): its module
`__getattr__` imports `hoc.api` or `hoc.games` when a user first reads such a name, never while any
module of the package loads. Those imports are the user's way in, not a dependency of the root, so
the graph leaves them out (`LAZY_FROM_ROOT`); a test checks they stay inside that function.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hoc"

LAYERS = (
    ("base", ("hoc", "hoc._version", "hoc._cache", "hoc._moved", "hoc.errors", "hoc.names", "hoc.folders",
              "hoc.agent_folders")),
    ("engine", ("hoc.engine",)),
    ("kernel", ("hoc.games.heart_of_crown.kernel", "hoc.games.dominion.kernel")),
    ("game", ("hoc.games", "hoc.games.heart_of_crown", "hoc.games.dominion")),
    ("agent kinds", ("hoc.agents.ids", "hoc.agents.agent", "hoc.agents.in_game", "hoc.agents.playouts",
                     "hoc.agents.plan_space")),
    ("game agents", ("hoc.games.heart_of_crown.agents", "hoc.games.dominion.agents")),
    ("agents", ("hoc.agents",)),
    ("python agents", ("hoc.games.heart_of_crown.agents.examples",)),
    ("research", ("hoc.research",)),
    ("tuner", ("hoc.agents.tune", "hoc.games.heart_of_crown.agents.tuning", "hoc.games.dominion.agents.tuning",
               "hoc.research.atlas")),
    ("studies", ("hoc.research.studies", "hoc.research.meta", "hoc.research.tuning", "hoc.research.market",
                 "hoc.research.combos",
                 "hoc.games.heart_of_crown.studies")),
    ("env", ("hoc.env",)),
    ("learner", ("hoc.agents.learn",)),
    ("cli", ("hoc.cli", "hoc.__main__", "hoc.games.heart_of_crown.commands", "hoc.games.dominion.commands")),
    ("web", ("hoc.web",)),
    ("api", ("hoc.api",)),
)
RANK = {layer: k for k, (layer, _) in enumerate(LAYERS)}
RANK["web"] = RANK["cli"]           # the web table is a front end beside the command line
RANK["api"] = RANK["cli"]           # ... and so is the Python front door
LAZY_FROM_ROOT = ("hoc.api", "hoc.games")     # read by the root's __getattr__ when a user asks for them


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = modules()


def layer_of(module: str) -> str | None:
    """The layer of the longest name in LAYERS that is `module` or a package holding it; the package
    root `hoc` holds only itself (else every module would fall into the base layer)."""
    best, best_len = None, -1
    for layer, names in LAYERS:
        for name in names:
            holds = module == name or (name != "hoc" and module.startswith(name + "."))
            if holds and len(name) > best_len:
                best, best_len = layer, len(name)
    return best


def _known(name: str) -> str | None:
    """The module of the package that `name` is, or the one that holds it (a name imported from it)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> dict[str, int]:
    """The `hoc` modules `module` imports, each with the line of its first import."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [_known(a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # `from hoc.games.heart_of_crown.agents import policies` imports that module
            targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in MODULES else _known(source)
                       for a in node.names]
        for target in targets:
            if target is not None and target != module and (target == "hoc" or target.startswith("hoc.")):
                found.setdefault(target, node.lineno)
    return found


GRAPH = {m: imports(m) for m in MODULES}
for _lazy in LAZY_FROM_ROOT:
    GRAPH["hoc"].pop(_lazy, None)


def _where(a: str, b: str) -> str:
    return f"{MODULES[a].relative_to(ROOT)}:{GRAPH[a][b]}"


def cycles() -> list[list[str]]:
    """One cycle of each strongly connected part of the graph that has one (Tarjan's algorithm,
    then a path back to the part's first module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    parts: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                parts.append(part)

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return [_cycle_in(set(part)) for part in parts]


def _cycle_in(part: set[str]) -> list[str]:
    """A path from the part's first module through the part back to it (breadth first: the shortest)."""
    start = min(part)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(GRAPH[v]):
                if w == start:
                    return paths[v] + [start]
                if w in part and w not in paths:
                    paths[w] = paths[v] + [w]
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no cycle through {start}")        # a strongly connected part always has one


def test_the_graph_reads_module_level_and_function_level_imports():
    assert "hoc.engine.layout" in GRAPH["hoc.research.harness"]                # at module level
    assert "hoc.research.batch" in GRAPH["hoc.research.rows"]          # inside play_rows
    assert "hoc.agents.ids" in GRAPH["hoc.research.batch"]     # `from hoc.agents.ids import built, loops_for`
    assert "hoc.games.heart_of_crown.agents.policies" in GRAPH["hoc.games.heart_of_crown.studies.princess_study"]   # `from X import module`
    assert len(MODULES) > 60


def test_the_root_imports_its_front_door_only_when_a_name_is_read():
    """The root's imports of `hoc.api` and `hoc.games` stand inside its module `__getattr__` alone."""
    tree = ast.parse(MODULES["hoc"].read_text(encoding="utf-8"))
    getattr_ = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "__getattr__")
    inside = {id(n) for n in ast.walk(getattr_)}
    lazy = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
            and any(name in LAZY_FROM_ROOT for name in _imported(n))]
    assert lazy and all(id(n) in inside for n in lazy)


def _imported(node) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    return [f"{node.module}.{a.name}" for a in node.names] + [node.module or ""]


def test_every_module_of_hoc_has_a_layer():
    assert [m for m in MODULES if layer_of(m) is None] == []


def test_the_import_graph_has_no_cycles():
    found = cycles()
    assert not found, "import cycles:\n" + "\n".join(
        " -> ".join(c) + "  (" + ", ".join(_where(a, b) for a, b in zip(c, c[1:])) + ")" for c in found)


def test_no_module_imports_from_a_higher_layer():
    upward = [f"{_where(a, b)}: {a} ({layer_of(a)}) imports {b} ({layer_of(b)})"
              for a in sorted(GRAPH) for b in sorted(GRAPH[a]) if RANK[layer_of(b)] > RANK[layer_of(a)]]
    assert upward == [], "imports from a higher layer:\n" + "\n".join(upward)
