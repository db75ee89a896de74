"""Princess win rates: each 2E princess's win rate when backed, at 2, 3 and 4 players, over random
markets; how early each is backed; which market cards raise or lower each princess's win rate most.

Every seat is played by `experiments/agents/pool_order.toml`, a princess-neutral money plan that
backs in pool order and uses every ability. Each princess is first choice (the pool reordered to
start with her) in an equal share of the games, with the same seeds for every princess."""
from __future__ import annotations

from hoc.agents.registry import from_file
from experiments.common import cli, AGENTS, Study, parser, pct, points
from hoc.research import plots, stats
from hoc.rules import Ruleset
from hoc.research.studies import princesses

NAME = "princesses"


def main(argv: list[str] | None = None) -> Study:
    args = parser(NAME, __doc__, 12_000, "games per player count").parse_args(argv)
    study = Study(NAME, "Princess win rates (2nd edition, random markets)", args, argv)
    agent = from_file(AGENTS / "pool_order.toml")
    study.text(f"Agents: `{agent.name}` in every seat ({agent.description}). Each princess is the first "
               f"choice in 1/6 of the games; the seat that backs second takes the next princess of the pool. "
               f"A princess's figures therefore depend on this agent's play: a plan built around her "
               f"(see the archetypes) may do better.")
    for players in (2, 3, 4):
        rs = Ruleset(players=players)
        games, table = princesses(rs, [agent] * players, args.games, args.seed, study.backend,
                                  study.path(f"games_{players}p.parquet"))
        png = plots.princess_bars(table, study.path(f"princesses_{players}p.png"),
                                  title=f"Win rate when backed, {players} players ({len(games):,} games)")
        study.text(f"## {players} players ({len(games):,} games; an even share is {100 / players:.1f}%)")
        shown = table[table.princess != stats.NONE]
        study.table(shown.assign(
            **{"win rate when backed": [pct(r.rate, r.lo, r.hi) for r in shown.itertuples()],
               "seats that backed her": shown.backed,
               "own turn backed (median, mean)": [f"{r.median_turn:.0f}, {r.mean_turn:.1f}" for r in shown.itertuples()]}
        )[["princess", "win rate when backed", "seats that backed her", "own turn backed (median, mean)"]])
        study.figure(str(png), f"princess win rates, {players} players")
        by_kind = stats.princess_by_kind(games, min_seats=max(30, args.games // 200))
        if len(by_kind):
            study.text("Market cards that move each princess's win rate most (offered minus not offered). "
                       f"These are the extremes of {len(by_kind)} comparisons, so some intervals miss zero by "
                       "chance alone; the full table is in the CSV file beside this summary:")
            lines = []
            for princess, g in by_kind.groupby("princess"):
                up, down = g.sort_values("diff").iloc[-1], g.sort_values("diff").iloc[0]
                lines.append(f"- {princess}: up with {up.kind} {points(up['diff'], up.lo, up.hi)}; "
                             f"down with {down.kind} {points(down['diff'], down.lo, down.hi)}")
            study.text(*lines)
            by_kind.to_csv(study.path(f"princess_by_kind_{players}p.csv"), index=False)
    study.finish()
    return study


if __name__ == "__main__":
    cli(main)
