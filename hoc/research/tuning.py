"""The study around the tuner (`hoc tune`): whom a plan is tuned against unless told, and the report
of a finished search. The search itself is `hoc.agents.tune`."""
from __future__ import annotations



def default_opponents(ruleset) -> list[str]:
    """Whom a plan is tuned against unless told: the game's choice (its catalog's `opponents`; for
    Heart of Crown every archetype and basic_rush that the ruleset's edition can play)."""
    return ruleset.game.catalog().opponents(ruleset)


def _pct(rate, lo, hi) -> str:
    return f"{100 * rate:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]"


def report(result) -> list[str]:
    """The plan found, the search's size, and its validation against each opponent on fresh seeds
    (`result`: what `hoc.agents.tune.tune` returns)."""
    v = result.validation
    lines = [f"{result.out / 'best.toml'}: {result.state.generation} generations, {result.state.games:,} games; "
             f"validation on fresh seeds, {int(v.games.iat[0]):,} games per opponent (95% interval):"]
    for r in v.itertuples():
        lines.append(f"  {r.opponent:<22} {_pct(r.rate, r.lo, r.hi)}{'  beaten' if r.beats else ''}")
    lines.append(f"beats {int(v.beats.sum())} of {len(v)} opponents; summary: {result.out / 'summary.md'}")
    return lines
