"""Princess strength under strong play: each 2E princess's win rate when backed by her own best
plan, at 2, 3 and 4 players over random markets; princess against princess; the market kinds that
move each princess most.

In every game each seat draws its princess independently and uniformly from the six (by the game's
seed: the same draws and markets for every player count's rerun), and is played by that princess's
plan, by default her tuned plan `tuned_<princess>_2p` (`--plans princess=AGENT` replaces one, e.g.
with a search agent told to back her). A princess's win rate counts the seats that drew her and
backed her; seats whose princess was taken first by a seat that drew her too are counted apart."""
from __future__ import annotations

import pandas as pd

from experiments.common import cli, Study, parser, pct, points
from hoc.research import plots
from hoc.games.heart_of_crown.studies import princess_study as ps
from hoc.games.heart_of_crown.rules import Ruleset

NAME = "princesses"


def main(argv: list[str] | None = None) -> Study:
    p = parser(NAME, __doc__, 60_000, "games per player count")
    p.add_argument("--games-per-pair", type=int, default=4000,
                   help="2 players: mirrored games per pair of princesses for the matrix (default 4000)")
    p.add_argument("--plans", action="append", metavar="PRINCESS=AGENT,...",
                   help="the agent playing a princess instead of her tuned plan (repeatable)")
    args = p.parse_args(argv)
    study = Study(NAME, "Princess strength under strong play (2nd edition, random markets)", args, argv)
    plans = ps.best_plans(Ruleset(players=2), ps.parse_plans(args.plans, Ruleset(players=2)))
    study.text("Plans: " + ", ".join(f"{princess} `{a.name}`" for princess, a in plans.items()) + ". "
               "Each seat of each game draws its princess independently and uniformly from the six (from the game's "
               "seed) and is played by her plan, which backs her first. Two seats may draw the same princess: the "
               "second to back then takes its plan's next princess; such seats, and seats that never back, are "
               "left out of the win rates and counted apart. The tuned plans were tuned for 2 players: at 3 and 4 "
               "players they are the strongest plans we have for each princess, not plans tuned for that count.")
    for players in (2, 3, 4):
        section(study, args, players)
    study.finish()
    return study


def section(study: Study, args, players: int) -> None:
    rs = Ruleset(players=players)
    plans = ps.best_plans(rs, ps.parse_plans(args.plans, rs))
    r = ps.princess_strength(rs, plans, args.games, args.seed, study.backend, study.path(f"games_{players}p.parquet"),
                             games_per_pair=args.games_per_pair if players == 2 else 0)
    study.text(f"## {players} players ({len(r.games):,} games; an even share is {100 / players:.1f}%)")
    left = ps.not_first(r.seats)
    share = pct(left["share"], left["share_lo"], left["share_hi"])
    study.text(f"Each princess was drawn by {r.draws.share.min() * 100:.1f}% to {r.draws.share.max() * 100:.1f}% of "
               f"the seats (an even share is {100 / len(r.pool):.1f}%; table in `draws_{players}p.csv`). "
               f"{left['left_out']:,} of {left['seats']:,} seats, {share}, "
               f"did not back the princess they drew ({left['backed_other']:,} backed another, {left['backed_none']:,} "
               f"none) and are left out; they won {pct(left['rate'], left['lo'], left['hi'])}.")
    t = r.strength
    study.table(t.assign(**{
        "plan": [f"`{x}`" for x in t.plan],
        "win rate when backed by her plan": [pct(x.rate, x.lo, x.hi) for x in t.itertuples()],
        "minus an even share": [points(x.vs_even, x.vs_even_lo, x.vs_even_hi) for x in t.itertuples()],
        "seats": [f"{x:,}" for x in t.seats],
        "every seat that drew her": [pct(x.drawn_rate, x.drawn_lo, x.drawn_hi) for x in t.itertuples()],
        "own turn backed (median)": [f"{x:.0f}" for x in t.median_turn]})[
        ["princess", "plan", "win rate when backed by her plan", "minus an even share", "seats",
         "every seat that drew her", "own turn backed (median)"]])
    png = plots.princess_bars(t.rename(columns={"seats": "backed"}), study.path(f"princesses_{players}p.png"),
                              even=1 / players, title=f"Win rate when backed by her plan, {players} players")
    study.figure(str(png), f"princess win rates, {players} players")
    matrix = r.matrix.rename(columns={"princess": "agent"})
    title = "Princess against princess" if players == 2 else f"Princess given another at the table, {players}p"
    png = plots.winrate_heatmap(matrix, study.path(f"matrix_{players}p.png"), title=title)
    study.text(f"Princess against princess: {r.matrix_design}. Row princess's win rate (95% interval in the figure "
               f"and in `matrix_{players}p.csv`)" + (" against an even 50%." if players == 2 else
                                                    f", against an even {100 / players:.1f}%; the win rate given the "
                                                    f"whole set of princesses the other seats backed is in "
                                                    f"`tables_{players}p.csv`."))
    study.figure(str(png), f"princess matrix, {players} players")
    study.table(matrix_table(r))
    if players == 2:
        study.text(f"In {100 * r.matrix.both_backed_own.mean():.1f}% of these games both seats backed their own "
                   f"princess.")
    m = r.markets
    if len(m):
        study.text(f"Market kinds that move each princess's win rate most: the seats that drew and backed her, in "
                   f"games whose market offered the kind minus games whose market did not, in points, largest first. "
                   f"{ps.market_words(m)} (full table with p-values in `markets_{players}p.csv`). "
                   f"Random markets offer kinds together, so "
                   f"a kind's difference mixes in the kinds it comes with; and it is a difference for these plans, "
                   f"which buy some kinds and ignore others.")
        study.text(*[f"- {princess}: {text}" for princess, text in ps.market_lines(m)])
    for name, df in (("draws", r.draws), ("princesses", r.strength), ("matrix", r.matrix), ("tables", r.tables),
                     ("markets", r.markets)):
        if len(df.columns):             # an empty table keeps its header (a tiny run's markets)
            df.to_csv(study.path(f"{name}_{players}p.csv"), index=False)


def matrix_table(r: ps.PrincessStrength) -> pd.DataFrame:
    """The matrix as a table: a row per princess, her win rate against each column princess."""
    cell = r.matrix.set_index(["princess", "opponent"])
    rows = []
    for x in r.pool:
        row = {"princess (row) against": x}
        for y in r.pool:
            ok = (x, y) in cell.index and cell.loc[(x, y), "games"] > 0
            row[y] = pct(*cell.loc[(x, y), ["rate", "lo", "hi"]]) if ok else "–"
        rows.append(row)
    return pd.DataFrame(rows)


if __name__ == "__main__":
    cli(main)
