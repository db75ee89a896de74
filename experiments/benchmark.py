"""Strategy benchmark: the meta-game of the hand-written and tuned plans. Every pair of plans (every
lineup at 3 and 4 players) plays the same game seeds, each seed once from every seat; from the
win-rate matrix come the Nash equilibrium (which plans a player should mix, and whether one plan is
dominant), its stability under the games' sampling noise, and α-Rank; on random markets and on
named preset markets."""
from __future__ import annotations

import shlex

import pandas as pd

from experiments.common import Study, cli, parser, pct
from hoc.research import meta, plots
from hoc.research.simulate import resolve
from hoc.games.heart_of_crown.rules import Ruleset

NAME = "benchmark"


def main(argv: list[str] | None = None) -> Study:
    p = parser(NAME, __doc__, 2000, "games per pair of plans at 2 players, random markets")
    p.add_argument("--markets", default="first_play,intermediate",
                   help="preset markets to answer 'is there a dominant plan on this market?' at 2 players "
                        "(comma-separated, empty for none; default first_play,intermediate)")
    p.add_argument("--games-market", type=int, default=1000, help="games per pair on each preset market (default 1000)")
    p.add_argument("--games-3p", type=int, default=60, help="games per lineup at 3 players (default 60; 0 skips)")
    p.add_argument("--games-4p", type=int, default=0, help="games per lineup at 4 players (default 0: skipped)")
    p.add_argument("--agents", help="comma-separated population (default: every hand-written and tuned plan)")
    p.add_argument("--top", type=int, default=9,
                   help="the plans with the highest 2-player win rate on random markets that play the "
                        "--games-top-3p and --games-top-4p meta-games (default 9)")
    p.add_argument("--games-top-3p", type=int, default=600,
                   help="games per lineup of the top plans at 3 players (default 600; 0 skips)")
    p.add_argument("--games-top-4p", type=int, default=120,
                   help="games per lineup of the top plans at 4 players (default 120; 0 skips)")
    p.add_argument("--bootstrap", type=int, default=200, help="resampled tables per meta-game (default 200)")
    args = p.parse_args(argv)
    study = Study(NAME, "Strategy benchmark: the meta-game of the plans", _checked(args), argv)
    study.text("Each pair of plans (each lineup of 3 or 4) plays the same game seeds, each seed once from every "
               "seat (mirrored), so no figure carries a seat or a deal advantage. The Nash equilibrium is that of the "
               "symmetric constant-sum game of the 2-player win rates (nashpy's linear program); it is pure when one "
               "plan beats or ties every other, and a plan is *dominant* when its interval against every other plan "
               "lies above 50%. The bootstrap redraws every pairing's wins from its games and solves again: it says "
               "how often each plan is in the equilibrium's support. α-Rank (OpenSpiel at 2 players; the same "
               "single-population model over the heuristic payoff table at 3 and 4) gives each plan the share of time "
               "an evolving population of players spends playing it.")
    markets = [m.strip() for m in args.markets.split(",") if m.strip()]
    sections = [(2, "random", args.games)] + [(2, m, args.games_market) for m in markets]
    sections += [(n, "random", g) for n, g in ((3, args.games_3p), (4, args.games_4p)) if g]
    rulesets = [Ruleset(players=n, market=market) for n, market, _ in sections]    # a bad market fails now
    first = None
    for ruleset, (_, _, games) in zip(rulesets, sections):
        m = _section(study, args, ruleset, games)
        first = first or m
    top = [a for a in first.seats["agent"]][:args.top]
    for n, games in ((3, args.games_top_3p), (4, args.games_top_4p)):
        if games and len(top) >= 2:
            _section(study, args, Ruleset(players=n), games, top, f"the {len(top)} plans with the highest "
                     "2-player win rate")
    study.finish()
    return study


def _checked(args):
    """The options for the Study, which refuses any --games* under 1: --games-3p and --games-4p may
    be 0 (that player count skipped), so they are checked here and left out."""
    from hoc.errors import HocError

    skippable = ("games_3p", "games_4p", "games_top_3p", "games_top_4p")
    for option in skippable:
        if getattr(args, option) < 0:
            raise HocError(f"--{option.replace('_', '-')} must be 0 (skip) or more, got {getattr(args, option)}")
    if args.top < 2:
        raise HocError(f"--top must be at least 2, got {args.top}")
    return type(args)(**{k: v for k, v in vars(args).items() if k not in skippable})


def _section(study: Study, args, ruleset: Ruleset, games: int, names: list[str] | None = None,
             who: str = "") -> meta.Meta:
    players, market = ruleset.players, ruleset.market
    if names is not None:
        agents = resolve(names)
    else:
        agents = resolve(args.agents) if args.agents is not None else meta.population(ruleset)
    tag = f"{players}p_{market}" + ("_top" if names is not None else "")
    results = _played(study, ruleset, agents, games, args.seed, study.path(f"matrix_{tag}.csv"))
    m = meta.analyse(results, None, args.bootstrap, args.seed)
    command = shlex.join(["hoc", "meta", "--players", str(players), "--market", market, "--agents",
                          ",".join(a.name for a in agents), "--games-per-pairing", str(games),
                          "--seed", str(args.seed), "--bootstrap", str(args.bootstrap)])
    total = int(results.table.drop_duplicates("lineup")["games"].sum())
    per = int(results.table["games"].max())
    study.text(f"## {players} players, {'random markets' if market == 'random' else f'market {market}'}"
               + (f": {who}" if who else ""),
               f"{len(agents)} plans, {total:,} games, {per:,} per {'pair' if players == 2 else 'lineup'}. "
               f"Same figures from the command line: `{command}` (or `hoc meta --matrix matrix_{tag}.csv "
               f"--bootstrap {args.bootstrap}` on the saved table).")
    _answer(study, m, args.bootstrap)
    png = plots.meta_game(m, study.path(f"meta_{tag}.png"),
                          title=f"Meta-game, {players} players, market {market} ({total:,} games)")
    study.figure(str(png), f"meta-game {players} players {market}")
    if players == 2 and market == "random":
        _subgames(study, args, results, m, tag)
    return m


def _subgames(study: Study, args, results: meta.Results, m: meta.Meta, tag: str) -> None:
    """The same games read as smaller meta-games: the hand-written plans alone (what a player
    without the tuned plans faces), and the population without its dominant plan."""
    from hoc.games.heart_of_crown.agents.catalog import HAND_WRITTEN

    subgames = []
    hand = [a for a in results.agents if a in HAND_WRITTEN]
    if 2 <= len(hand) < len(results.agents):
        subgames.append(("the hand-written plans alone", hand))
    if m.nash.dominant:
        subgames.append((f"without {m.nash.dominant}", [a for a in results.agents if a != m.nash.dominant]))
    for title, agents in subgames:
        sub = meta.analyse(meta.subset(results, agents), None, args.bootstrap, args.seed)
        study.text(f"### 2 players, random markets: {title}",
                   f"The same games, the {len(agents)} plans' pairings only: `hoc meta --matrix matrix_{tag}.csv "
                   f"--agents {','.join(agents)} --bootstrap {args.bootstrap}`.")
        _answer(study, sub, args.bootstrap)


def _answer(study: Study, m: meta.Meta, reps: int) -> None:
    study.text(f"**Answer:** {meta.verdict(m)}.")
    stab = m.stability.set_index("agent") if m.stability is not None else None
    ar = m.alpharank.table().set_index("agent")
    rows = []
    for s in m.seats.itertuples():
        row = {"plan": s.agent, "win rate per seat (all its games)": pct(s.rate, s.lo, s.hi)}
        if m.nash is not None:
            p = dict(zip(m.nash.agents, m.nash.mixture))[s.agent]
            row["Nash probability"] = f"{100 * p:.1f}%" + _range(stab, s.agent, "p")
            if stab is not None:
                row["in the support of (bootstrap)"] = f"{100 * stab.at[s.agent, 'in_support']:.0f}%"
        row["α-Rank mass"] = f"{100 * ar.at[s.agent, 'mass']:.1f}%" + _range(stab, s.agent, "mass")
        if stab is not None:
            row["ranked first (bootstrap)"] = f"{100 * stab.at[s.agent, 'ranked_first']:.0f}%"
        rows.append(row)
    study.table(pd.DataFrame(rows))
    study.text(f"α = {m.alpharank.alpha:g} (the smallest of 0.5, 1, 2, ... at which the masses settle), population "
               f"{m.alpharank.population}; bracketed ranges are the 2.5-97.5% range over {reps} bootstrap "
               f"tables; win rates carry their 95% Wilson interval.")
    if m.matrix is not None:
        _closest(study, m)
        words = meta.cycle_words(m.matrix)
        study.text(words[0].upper() + words[1:] + ".")


def _range(stab: pd.DataFrame | None, agent: str, column: str) -> str:
    """' [lo, hi]': the bootstrap's 2.5-97.5% range of a column, or nothing without a bootstrap."""
    if stab is None:
        return ""
    return f" [{100 * stab.at[agent, column + '_lo']:.1f}, {100 * stab.at[agent, column + '_hi']:.1f}]"


def _played(study: Study, ruleset: Ruleset, agents, games: int, seed: int, path: str) -> meta.Results:
    """The section's results table: read back from its folder when a previous run of the same
    section (same agents, games, seed and market, recorded beside it) saved it, else played and saved.
    Agents are recorded by name and by a digest of their parameter rows, so a plan file edited under
    the same name is played again rather than read back."""
    import hashlib
    import json
    from pathlib import Path

    digest = {a.name: hashlib.sha256(a.params(ruleset).tobytes()).hexdigest()[:16] for a in agents}
    record = {"players": ruleset.players, "market": ruleset.market, "agents": [a.name for a in agents],
              "params": digest, "games_per_lineup": games, "seed": seed}
    done = Path(path).with_suffix(".json")
    if done.exists() and Path(path).exists() and json.loads(done.read_text()) == record:
        return meta.load(path)
    results = meta.play(ruleset, agents, games, seed, study.backend, progress=study.verbose)
    results.save(path)
    done.write_text(json.dumps(record) + "\n")
    return results


def _closest(study: Study, m: meta.Meta) -> None:
    """The pairings that decide the equilibrium: each support plan's narrowest win."""
    mat = m.matrix
    lines = []
    for a in m.nash.support:
        i = mat.agents.index(a)
        j = min((j for j in range(len(mat.agents)) if j != i), key=lambda j: mat.rate[i, j])
        lines.append(f"{a}'s closest pairing: against {mat.agents[j]}, "
                     f"{pct(mat.rate[i, j], mat.lo[i, j], mat.hi[i, j])} of {int(mat.games[i, j]):,} games.")
    study.text(*lines)


if __name__ == "__main__":
    cli(main)
