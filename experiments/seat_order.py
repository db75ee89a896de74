"""Seat order: the first player's advantage at 2, 3 and 4 players, and how much the 2E starting
decks (later seats trade Farming Villages for Orchards: 7/6/5/4 Farming Villages, 0/1/2/3
Orchards) compensate it, against 1E-style decks (7 Farming Villages, no Orchard, in every seat)
set through card overrides. Same seeds for both decks; every seat played by the same strong plan:
the tuned general plan for the player count (`tuned_general_<n>p`) where there is one, else the
2-player one, `tuned_general_2p`."""
from __future__ import annotations

import pandas as pd

from hoc.agents.registry import AGENTS, get
from experiments.common import cli, Study, parser, pct
from hoc.research import stats
from hoc.research.harness import Plan, chunk_size
from hoc.research.plots import effect_bars
from hoc.games.heart_of_crown.rules import Ruleset
from hoc.research.runs import execute
from hoc.research.simulate import concat

NAME = "seat_order"
FIRST_EDITION_DECKS = ("farming_village.start2=7", "farming_village.start3=7", "farming_village.start4=7",
                       "orchard.start2=0", "orchard.start3=0", "orchard.start4=0")


def seat_rates(rs: Ruleset, agent, games: int, seed: int, study: Study, name: str) -> pd.DataFrame:
    frames: list[pd.DataFrame] = []
    plan = Plan(rs, [agent] * rs.players, games, seed, chunk=chunk_size(games))
    execute(plan, study.backend, study.path(f"{name}.parquet"), [frames.append], progress=False)
    return stats.win_rates(concat(frames), "seat")


def strong_plan(players: int):
    """The tuned general plan for this player count, else the 2-player one."""
    return AGENTS.get(f"tuned_general_{players}p") or get("tuned_general_2p")


def main(argv: list[str] | None = None) -> Study:
    p = parser(NAME, __doc__, 20_000, "games per player count and deck")
    p.add_argument("--agent", help="agent in every seat (default: tuned_general_<players>p where it exists, "
                                   "else tuned_general_2p)")
    args = p.parse_args(argv)
    study = Study(NAME, "Seat order and the 2E starting decks", args, argv)
    agents = {n: get(args.agent) if args.agent else strong_plan(n) for n in (2, 3, 4)}
    study.text("Every seat is played by the same agent: " + "; ".join(
        f"{n} players `{a.name}`" for n, a in agents.items()) + f" ({agents[2].description}). Random markets; "
        f"{args.games:,} games per player count and deck, the same seeds for both decks.")
    rows = []
    for players in (2, 3, 4):
        agent = agents[players]
        cells = {}
        for deck, overrides in (("2E decks", ()), ("1E-style decks", FIRST_EDITION_DECKS)):
            rs = Ruleset(players=players, overrides=overrides)
            cells[deck] = seat_rates(rs, agent, args.games, args.seed, study, f"{players}p_{deck[:2].lower()}")
        for seat in range(players):
            r2, r1 = cells["2E decks"].iloc[seat], cells["1E-style decks"].iloc[seat]
            rows.append({"players": players, "agent": f"`{agent.name}`", "seat": seat,
                         "2E decks": pct(r2.rate, r2.lo, r2.hi),
                         "1E-style decks": pct(r1.rate, r1.lo, r1.hi), "even share": f"{100 / players:.1f}%",
                         "rate": r2.rate, "lo": r2.lo, "hi": r2.hi, "label": f"{players}p seat {seat}",
                         "excess": r2.rate - 1 / players, "excess_lo": r2.lo - 1 / players,
                         "excess_hi": r2.hi - 1 / players})
    t = pd.DataFrame(rows)
    study.text("## Win rate by seat")
    study.table(t[["players", "agent", "seat", "2E decks", "1E-style decks", "even share"]])
    png = effect_bars(t.iloc[::-1], "label", study.path("seats.png"), "Seat win rate minus an even share, 2E decks",
                      "percentage points", value="excess", lo="excess_lo", hi="excess_hi", sort=False)
    study.figure(str(png), "seat advantage with 2E decks")
    t.to_csv(study.path("seats.csv"), index=False)
    study.finish()
    return study


if __name__ == "__main__":
    cli(main)
