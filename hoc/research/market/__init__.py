"""One supply end to end (`hoc market`): its strongest decks, how many are viable, whether one
dominates, each princess's strength on it (Heart of Crown), the first seat's edge and the game's
length, the kinds the winning decks own and those nobody buys; each figure placed against its
distribution over random supplies (`baseline`).

The decks come from the strategy atlas of the supply (`hoc.research.atlas`), every elite measured
again on fresh seeds against the reference panel. The best distinct decks then play each other
(`decks.round_robin`: common seeds, each seed with the deck in every seat); the princesses are each
played by the best of the supply's top decks and the library's plans re-pointed to back her
(`princesses`). Everything is drawn from the budget's seed, so the same command gives the same
report; `budget.identity()` is what a baseline must share for its percentiles to apply.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from hoc.errors import HocError


@dataclass(frozen=True)
class Budget:
    """What determines a supply's report besides the supply and the rules."""

    iterations: int = 100           # of the atlas (each of emitters x batch plans)
    emitters: int = 3
    batch: int = 12
    seeds: int = 16                 # per panel member per plan in the search
    remeasure_seeds: int = 100      # per panel member for every elite at the end
    polish: int = 11                # starts of the atlas's polish at most (0: none)
    polish_iterations: int = 40
    top: int = 4                    # distinct decks in the round robin
    pair_seeds: int = 300           # common seeds per ordered pair of the round robin, each in every seat
    select_seeds: int = 40          # per candidate plan when a princess's best plan is chosen
    princess_seeds: int = 200       # fresh seeds per panel member for each princess's chosen plan
    seed: int = 0

    def __post_init__(self):
        for name, value, least in (("iterations", self.iterations, 1), ("emitters", self.emitters, 1),
                                   ("batch", self.batch, 2), ("seeds", self.seeds, 1),
                                   ("remeasure_seeds", self.remeasure_seeds, 2), ("polish", self.polish, 0),
                                   ("polish_iterations", self.polish_iterations, 1), ("top", self.top, 2),
                                   ("pair_seeds", self.pair_seeds, 2), ("select_seeds", self.select_seeds, 1),
                                   ("princess_seeds", self.princess_seeds, 2)):
            if not isinstance(value, int) or value < least:
                raise HocError(f"--{name.replace('_', '-')} must be at least {least}, got {value}")

    def identity(self) -> dict:
        """The budget as a baseline records it (the seed apart: a baseline's supplies each have their own)."""
        d = asdict(self)
        d.pop("seed")
        return d


def candidates(game: str, players: int = 2, edition: str = "2e") -> list[str]:
    """The kinds a random supply of the game is drawn from (the game's own random market's)."""
    from hoc.games import get

    spec = get(game)
    options = {"players": players, "market": "random"}
    if edition != "2e":
        options["edition"] = edition
    _, kinds = spec.ruleset(**options).market_piles
    return list(kinds)


def random_supply(game: str, seed: int, players: int = 2, edition: str = "2e") -> tuple[str, ...]:
    """Ten kinds drawn from the game's candidates by `seed` (numpy's default generator), in the
    candidates' order."""
    pool = candidates(game, players, edition)
    chosen = np.random.default_rng(seed).choice(len(pool), 10, replace=False)
    return tuple(pool[i] for i in sorted(chosen))


def ruleset_of(game: str, supply: str | tuple[str, ...], players: int = 2, edition: str = "2e",
               turn_cap: int | None = None):
    """The ruleset of one fixed supply: a preset's name or ten kinds (the game's ruleset checks them
    and names the problem in one line: an unknown kind, a kind twice, not ten)."""
    from hoc.games import get

    spec = get(game)
    if isinstance(supply, str) and supply == "random":
        raise HocError("a report is of one supply: name ten kinds, a preset, or `random --seed S`")
    options = {"players": players, "market": supply}
    if edition != "2e":
        options["edition"] = edition
    if turn_cap is not None:
        options["turn_cap"] = turn_cap
    if not 2 <= players <= 4:
        raise HocError(f"--players must be 2 to 4 for a supply's report, got {players}")
    ruleset = spec.ruleset(**options)
    ruleset.vector
    if not spec.atlas:
        raise HocError(f"{spec.title} has no plan space for the strategy atlas, which finds a supply's decks")
    return ruleset


def kinds_of(ruleset) -> list[str]:
    """The supply's ten kinds."""
    _, kinds = ruleset.market_piles
    return list(kinds)


def _princess_games(space, panel, decks: int, budget: Budget) -> int:
    """The games of `princesses.strengths` for `decks` decks: every princess's backing of each deck and
    of the space's starts on the select seeds, then her best on the princess seeds."""
    per = len(panel) * space.ruleset.players
    n = len(space.princesses)
    return n * (decks + len(space.starts())) * budget.select_seeds * per + n * budget.princess_seeds * per


def market(ruleset, budget: Budget, folder: str | Path, backend, command: str, progress=print,
           baseline: list[dict] | None = None, label: str = "") -> dict:
    """The report of the supply of `ruleset` (a fixed market) as one JSON-able object; the atlas is
    kept in `folder/atlas` (the same command resumes it)."""
    from hoc.agents.plan_space import space_of
    from hoc.agents.registry import get
    from hoc.research import progress as meter
    from hoc.research.atlas import atlas
    from hoc.research.atlas.search import Settings
    from hoc.research.market import decks, percentiles, princesses

    t0 = time.perf_counter()
    folder = Path(folder)
    space = space_of(ruleset)
    panel = tuple(get(n) for n in space.panel())
    settings = Settings(space, panel, tuple(space.default_descriptors), seed=budget.seed,
                        iterations=budget.iterations, emitters=budget.emitters, batch=budget.batch,
                        seeds=budget.seeds, remeasure_seeds=budget.remeasure_seeds, polish=budget.polish,
                        polish_iterations=budget.polish_iterations)
    progress(f"the strategy atlas of the supply ({budget.iterations} iterations)")
    with meter.metered("market", "games", unit_scale=True):    # one progress line over every stage (stderr)
        p = ruleset.players
        with_princesses = bool(ruleset.pool and hasattr(space, "backing"))
        # the stages after the atlas, at their most (the top decks all distinct)
        meter.expect(**{"round robin": budget.top * (budget.top - 1) * budget.pair_seeds * p,
                        "princesses": _princess_games(space, panel, budget.top, budget) if with_princesses else 0})
        frame = atlas(settings, folder / "atlas", backend, command, progress=progress)
        points = np.load(folder / "atlas" / "points.npy")
        found = decks.viable(frame, space)
        chosen = decks.distinct(frame, budget.top)
        if len(chosen) < 2:
            raise HocError(f"the atlas of this supply kept {len(frame)} elite: nothing to play it against; give "
                           f"more --iterations")
        progress(f"round robin of the {len(chosen)} best distinct decks on {budget.pair_seeds} common seeds per pair")
        meter.expect(princesses=_princess_games(space, panel, len(chosen), budget) if with_princesses else 0)
        meter.stage("round robin", len(chosen) * (len(chosen) - 1) * budget.pair_seeds * p)
        table = decks.round_robin(space, points[chosen], budget.pair_seeds, budget.seed, backend)
        if with_princesses:
            meter.stage("princesses")
            progress(f"each princess's best plan on the supply ({len(space.princesses)} princesses)")
            strengths = princesses.strengths(space, panel, [points[i] for i in chosen], budget, backend)
    report = {
        "game": ruleset.game.name, "title": ruleset.game.title, "market_word": ruleset.game.market_word,
        "players": ruleset.players, "supply": kinds_of(ruleset), "label": label or ",".join(kinds_of(ruleset)),
        "command": command, "budget": asdict(budget),
        "panel": [a.name for a in panel],
        "decks": decks.deck_rows(frame, chosen, found["kinds"]),
        "viable": found["summary"],
        "round_robin": table["matrix"],
        "dominant": decks.dominant(table, [frame.at[i, "plan"] for i in chosen], 1 / ruleset.players),
        "first_seat": table["first_seat"], "length": table["length"],
        "kinds": found["kinds"],
    }
    if with_princesses:
        report["princesses"] = strengths
    report["figures"] = percentiles.figures(report)
    report["seconds"] = round(time.perf_counter() - t0, 1)
    report["percentiles"] = percentiles.place(report["figures"], baseline or [])
    report["baseline"] = {"supplies": len(baseline or [])}
    return report
