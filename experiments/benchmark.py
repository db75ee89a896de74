"""Strategy benchmark: the round robin of the archetype agents at 2 and 4 players, over random
markets with seats rotated, with win rates, the 2-player head-to-head table and OpenSkill ratings."""
from __future__ import annotations

from hoc.agents.registry import archetypes
from experiments.common import cli, Study, parser, pct
from hoc.research import plots
from hoc.rules import Ruleset
from hoc.research.simulate import resolve
from hoc.research.studies import tournament

NAME = "benchmark"


def main(argv: list[str] | None = None) -> Study:
    p = parser(NAME, __doc__, 400, "games per pairing at 2 players")
    p.add_argument("--games-4p", type=int, default=20, help="games per set of 4 agents (default 20)")
    p.add_argument("--agents", help="comma-separated agents (default: every archetype and basic_rush)")
    args = p.parse_args(argv)
    study = Study(NAME, "Strategy benchmark: archetype round robin", args, argv)
    agents = resolve(args.agents) if args.agents is not None else archetypes()
    study.text(f"Agents: {', '.join(f'`{a.name}`' for a in agents)} (`hoc agents` describes each).")
    for players, per in ((2, args.games), (4, args.games_4p)):
        t = tournament(Ruleset(players=players), agents, per, args.seed, study.backend,
                       study.path(f"games_{players}p.parquet"))
        study.text(f"## {players} players: {len(t.games):,} games, {per} per set of agents, seats rotated")
        rates = t.rates.merge(t.ratings[["agent", "mu", "sigma", "ordinal"]], on="agent")
        study.table(rates.assign(**{
            "win rate": [pct(r.rate, r.lo, r.hi) for r in rates.itertuples()],
            "seats played": rates.games,
            "rating (mu ± sigma)": [f"{r.mu:.1f} ± {r.sigma:.1f}" for r in rates.itertuples()],
        })[["agent", "win rate", "seats played", "rating (mu ± sigma)"]])
        if t.pairwise is not None:
            png = plots.winrate_heatmap(t.pairwise.long, study.path("head_to_head_2p.png"),
                                        title=f"Head-to-head win rate, 2 players ({len(t.games):,} games)")
            study.figure(str(png), "head-to-head win rates")
            t.pairwise.long.to_csv(study.path("head_to_head_2p.csv"), index=False)
        seat = t.seats
        study.text("Win rate by seat: " + ", ".join(f"seat {int(r.seat)} {pct(r.rate, r.lo, r.hi)}"
                                                   for r in seat.itertuples()))
    study.finish()
    return study


if __name__ == "__main__":
    cli(main)
