"""Supply-combo balance: across many random markets, each common card's association with the win
rate of the seats that use it, with game length and with end reasons; pairs of cards stronger
together than apart; and a what-if card change (Curse Witch costing 6) against the printed card.

The games are a round robin of the archetype agents (`hoc agents`), so "use" means what these
plans choose to buy: a card none of them buys has no users."""
from __future__ import annotations

from hoc.agents.registry import archetypes
from experiments.common import cli, Study, parser, pct, points
from hoc.research import plots, stats
from hoc.rules import Ruleset
from hoc.research.studies import balance, pair_synergy

NAME = "balance"


def main(argv: list[str] | None = None) -> Study:
    p = parser(NAME, __doc__, 20_000, "games in all, per ruleset")
    p.add_argument("--what-if", default="curse_witch.cost=6", help="card change to test (default curse_witch.cost=6)")
    args = p.parse_args(argv)
    study = Study(NAME, "Supply-combo balance (2 players, random markets)", args, argv)
    what_if = Ruleset(players=2, overrides=(args.what_if,))         # a bad change is refused before playing
    agents = archetypes()
    study.text(f"Agents: a round robin of {len(agents)} archetypes ({', '.join(a.name for a in agents)}), "
               "seats rotated. Associations, not causes: a plan buys a card when it suits it, and a card's "
               "figures mix in the cards it tends to appear with.")
    b = balance(Ruleset(players=2), agents, args.games, args.seed, study.backend, study.path("games.parquet"))
    fp = b.first_player
    study.text(f"## Overall ({len(b.games):,} games)",
               f"First-player win rate {pct(fp.rate, fp.lo, fp.hi)}; mean game length {b.games.turns.mean():.1f} "
               f"turns (both players).")
    users = b.users.dropna(subset=["diff"])
    png = plots.effect_bars(users, "kind", study.path("users.png"), "Users' win rate minus the other seats'",
                            "percentage points", value="diff", lo="diff_lo", hi="diff_hi")
    study.text("## Each card's users", "Win rate of seats that owned the card at the end minus the other seats, "
               "in games that offered it:")
    study.figure(str(png), "users' win rate difference per card")
    study.table(users.assign(**{
        "users' win rate": [pct(r.user_rate, r.user_lo, r.user_hi) for r in users.itertuples()],
        "difference": [points(r.diff, r.diff_lo, r.diff_hi) for r in users.itertuples()],
        "seats using it": [f"{100 * r.user_share:.0f}%" for r in users.itertuples()],
    })[["kind", "users' win rate", "difference", "seats using it"]])
    unused = b.users[b.users.users == 0].kind.tolist()
    if unused:
        study.text(f"Never owned by these agents: {', '.join(unused)}.")
    eff = b.effects.dropna(subset=["turns_diff"]).sort_values("turns_diff")
    study.text("## Game length and end reasons",
               "Mean game length (turns, both players) in games offering the card minus games without it; "
               "shortest and longest:")
    study.text(*[f"- {r.kind}: {r.turns_diff:+.2f} turns [{r.turns_diff_lo:+.2f}, {r.turns_diff_hi:+.2f}]"
                 for r in list(eff.head(3).itertuples()) + list(eff.tail(3).itertuples())])
    ends = stats.end_reasons_by_kind(b.games)
    ends.to_csv(study.path("end_reasons_by_kind.csv"), index=False)
    if "overtime_with" in ends:
        e = ends.assign(d=ends.overtime_with - ends.overtime_without).sort_values("d")
        study.text("Share of games ending in overtime, offered minus not: most "
                   + ", ".join(f"{r.kind} {100 * r.d:+.1f} points" for r in e.tail(3).iloc[::-1].itertuples())
                   + "; least " + ", ".join(f"{r.kind} {100 * r.d:+.1f} points" for r in e.head(3).itertuples())
                   + " (all kinds in `end_reasons_by_kind.csv`).")
    syn = pair_synergy(b.games, Ruleset(players=2).cards, min_seats=max(20, args.games // 1000))
    syn.to_csv(study.path("pair_synergy.csv"), index=False)
    study.text("## Pairs stronger together", "Interaction on the win-rate scale (owned both − first only − "
               f"second only + neither), the five largest of {len(syn)} pairs with enough seats in each group; "
               "with this many pairs, an interval that misses zero may be chance:")
    study.text(*[f"- {r.pair}: {points(r.synergy, r.lo, r.hi)} ({r.both} seats owned both)"
                 for r in syn.head(5).itertuples()] or ["- no pair had enough seats at this size: run with more --games"])
    w = balance(what_if, agents, args.games, args.seed, study.backend,
                study.path("games_what_if.parquet"))
    kind = args.what_if.split(".")[0]
    ch = w.changes.set_index("kind")
    study.text(f"## What if: {args.what_if}",
               f"The same {len(w.games):,} games (same seeds) with the change, against the printed card:")
    r = ch.loc[kind] if kind in ch.index else None
    if r is not None and r.users and r.users_baseline:
        study.text(f"- {kind} users' win rate: {100 * r.user_rate_baseline:.1f}% printed → {100 * r.user_rate:.1f}% "
                   f"changed, {points(r.change, r.change_lo, r.change_hi)}",
                   f"- seats owning it: {int(r.users_baseline):,} printed → {int(r.users):,} changed")
    else:
        before = int(b.users.set_index("kind").users.get(kind, 0))
        study.text(f"- seats owning {kind}: {before:,} printed → none changed: at its new value no agent's "
                   "priorities reach it (they buy something else with those coins), so its users' win rate "
                   "is undefined; the agents' own win rates below show what the plans lose.")
    a0 = stats.win_rates(w.baseline.games, "agent").set_index("agent")
    a1 = stats.win_rates(w.games, "agent").set_index("agent")
    moves = []
    for agent in a0.index:
        d, lo, hi = stats.rate_difference(int(a1.wins[agent]), int(a1.games[agent]), int(a0.wins[agent]),
                                          int(a0.games[agent]))
        moves.append((abs(d), f"- {agent}: {pct(a0.rate[agent], a0.lo[agent], a0.hi[agent])} printed → "
                              f"{pct(a1.rate[agent], a1.lo[agent], a1.hi[agent])} changed, {points(d, lo, hi)}"))
    study.text("Agents whose win rate moved most:", *[m for _, m in sorted(moves, reverse=True)[:4]])
    f0, f1 = w.baseline.first_player, w.first_player
    study.text(f"- first-player win rate {pct(f0.rate, f0.lo, f0.hi)} → {pct(f1.rate, f1.lo, f1.hi)}; "
               f"mean length {w.baseline.games.turns.mean():.2f} → {w.games.turns.mean():.2f} turns")
    study.finish()
    return study


if __name__ == "__main__":
    cli(main)
