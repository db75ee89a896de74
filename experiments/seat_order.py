"""Seat order: the first player's advantage at 2, 3 and 4 players, and how much the 2E starting
decks (later seats trade Farming Villages for Orchards: 7/6/5/4 Farming Villages, 0/1/2/3
Orchards) compensate it, against 1E-style decks (7 Farming Villages, no Orchard, in every seat)
set through card overrides. Same seeds for both decks; every seat played by the same strong plan:
the tuned general plan for the player count (`tuned_general_<n>p`) where there is one, else the
2-player one, `tuned_general_2p`. With `--edition 1e`: the 1st edition's own rules and cards (its
decks are the same in every seat), every seat played by `tuned_general_1e_2p`."""
from __future__ import annotations

import numpy as np
import pandas as pd

from hoc.agents.registry import AGENTS, get
from hoc.errors import HocError
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


def strong_plan(players: int, edition: str = "2e"):
    """The tuned general plan for this player count and edition, else the edition's 2-player one."""
    tag = "" if edition == "2e" else f"{edition}_"
    return AGENTS.get(f"tuned_general_{tag}{players}p") or get(f"tuned_general_{tag}2p")


def main(argv: list[str] | None = None) -> Study:
    p = parser(NAME, __doc__, 20_000, "games per player count and deck")
    p.add_argument("--agent", help="agent in every seat (default: tuned_general_<players>p where it exists, "
                                   "else tuned_general_2p)")
    p.add_argument("--edition", default="2e", help="2e (default: its decks against 1E-style decks) or 1e "
                                                  "(the 1st edition's rules and cards; default --out "
                                                  "results/seat_order_1e)")
    args = p.parse_args(argv)
    if args.edition not in ("2e", "1e"):
        raise HocError(f"--edition must be 2e or 1e, got {args.edition!r}")
    if args.edition == "1e":
        return first_edition(args, argv)
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


def place_rates(df: pd.DataFrame, players: int) -> pd.DataFrame:
    """Win rate by place in turn order (0 played first) of games whose rules seated the players
    (`position_j` columns); shared wins count for every seat sharing."""
    rows = []
    mask = df.win_mask.to_numpy().astype(np.int64)
    for place in range(players):
        won = sum(int(((df[f"position_{j}"].to_numpy() == place) & ((mask >> j) & 1 == 1)).sum())
                  for j in range(players))
        lo, hi = stats.wilson(int(won), len(df))
        rows.append({"place": place, "wins": int(won), "games": len(df), "rate": won / len(df), "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


def first_edition(args, argv) -> Study:
    """The seat order under the 1st edition's rules and cards (7 Farming Villages and 3 Apprentice Maids in
    every seat; Judgement when the Duke pile is empty, ties shared), and under its hand-elimination
    seating (the same seeds): who plays first is then decided by the opening hands."""
    if args.out == f"results/{NAME}":
        args.out = f"results/{NAME}_1e"
    study = Study(NAME, "Seat order under the 1st edition", args, argv)
    agents = {n: get(args.agent) if args.agent else strong_plan(n, "1e") for n in (2, 3, 4)}
    study.text("Every seat is played by the same agent: " + "; ".join(
        f"{n} players `{a.name}`" for n, a in agents.items()) + f" ({agents[2].description}). 1st edition, "
        f"random markets; {args.games:,} games per player count. Shared wins count for every seat sharing.")
    rows = []
    for players in (2, 3, 4):
        agent = agents[players]
        r = seat_rates(Ruleset(edition="1e", players=players), agent, args.games, args.seed, study, f"{players}p_1e")
        frames: list[pd.DataFrame] = []
        rs = Ruleset(edition="1e", players=players, seating="hand_elimination")
        execute(Plan(rs, [agent] * players, args.games, args.seed, chunk=chunk_size(args.games)), study.backend,
                study.path(f"{players}p_1e_hand_elimination.parquet"), [frames.append], progress=False)
        games = concat(frames)
        by_place, by_lineup = place_rates(games, players), stats.win_rates(games, "seat")
        for seat in range(players):
            x, y, z = r.iloc[seat], by_place.iloc[seat], by_lineup.iloc[seat]
            rows.append({"players": players, "agent": f"`{agent.name}`", "seat": seat, "1E": pct(x.rate, x.lo, x.hi),
                         "hand elimination, by place": pct(y.rate, y.lo, y.hi),
                         "hand elimination, by lineup seat": pct(z.rate, z.lo, z.hi),
                         "even share": f"{100 / players:.1f}%", "rate": x.rate, "lo": x.lo, "hi": x.hi,
                         "label": f"{players}p seat {seat}", "excess": x.rate - 1 / players,
                         "excess_lo": x.lo - 1 / players, "excess_hi": x.hi - 1 / players})
    t = pd.DataFrame(rows)
    study.text("## Win rate by seat",
               "`1E`: the players sit in the lineup's order (seat 0 plays first). Hand elimination (`--seating "
               "hand_elimination`, the same seeds): each player picks its opening hand from its 10 starting cards and "
               "the most Apprentice Maids shown plays first; the place is the seat's place in turn order (0 played "
               "first), the lineup seat the seat the harness dealt to. Every seat here plays the same plan, which "
               "shows all three Apprentice Maids, so the places are drawn at random (the tie rule).")
    study.table(t[["players", "agent", "seat", "1E", "hand elimination, by place", "hand elimination, by lineup seat",
                   "even share"]])
    png = effect_bars(t.iloc[::-1], "label", study.path("seats.png"), "Seat win rate minus an even share, 1E",
                      "percentage points", value="excess", lo="excess_lo", hi="excess_hi", sort=False)
    study.figure(str(png), "seat advantage under the 1st edition")
    t.to_csv(study.path("seats.csv"), index=False)
    study.finish()
    return study


if __name__ == "__main__":
    cli(main)
