"""Dominion strength study: our methods against the strongest bot other people wrote, kingdom by kingdom.

The kingdoms: each imported bot's own kingdom, where its author named one whose cards are all in our
set (the cards named beside the bot's own, completed to 10 from the seed where they are fewer), and
`--kingdoms` random base-set kingdoms drawn from the seed. On each kingdom:

1. a round robin of the imported bots (`hoc import-bots`, agents/dominion/bots/imported) that can play it (every
   kingdom card a bot buys or plays is in the kingdom): every pair plays `--games` games, common
   seeds, seats mirrored; the strongest imported bot is the one with the best mean score over its
   pairings (a shared win counts 1/k);
2. against that bot, on fresh seeds, seats mirrored: our per-kingdom tuned plan (`hoc tune --game
   dominion --market K`, budget `--tune-games` games, against `--tune-opponents`: by default that
   bot, as a player evolves a bot against the one at hand) and the strategy atlas's best elite
   (`hoc atlas --market K`, when `--atlas-iterations` is above 0), `--match-games` games each, and
   our search agent (`--search`, `--search-games` games; `--search-rollout strongest` plays its
   rollouts with the bot it faces): each score with its 95% interval over seed pairs.

Each kingdom is one unit of work, saved in `OUT/kingdoms/` as it finishes: a rerun with the same
options skips the finished kingdoms. Writes strength.csv, strength.parquet, roundrobin.csv,
strength.png and summary.md.
"""
from __future__ import annotations

import json
import sys
import time
import tomllib
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from experiments.common import Study, cli, parser, pct, saved
from hoc.errors import HocError

NAME = "dominion_strength"
KINGDOM_STREAM = 50          # the seed stream kingdoms are drawn from (issue 50)
MATCH_FIRST = 24 << 36       # the methods' games (all on the same seeds) start far from the round robin's and the tuner's
METHODS = ("tuned", "atlas", "search")


def kingdom_cards() -> list[str]:
    from hoc.games.dominion.cards import CardDB

    return list(CardDB().kingdom)


def own_kingdoms(seed: int) -> list[dict]:
    """Each imported bot's own kingdom, where its author named one: the cards named (DominionSim's board
    lists the cards beside the bot's own) and the kingdom cards the bot buys or plays, completed to 10
    from the seed where they are fewer (skipped where they are more)."""
    from hoc.games.dominion.agents.bots import LIBRARY, imported

    every = kingdom_cards()
    bots = imported()
    out = []
    for path in sorted((LIBRARY / "imported").glob("*.toml")):
        named = tomllib.loads(path.read_text(encoding="utf-8")).get("source", {}).get("kingdom", "")
        board = [c.strip() for c in named.split(",") if c.strip()]
        cards = set(board) | (bots[path.stem].cards & set(every))
        if not board or not cards <= set(every) or len(cards) > 10:
            continue
        rng = np.random.default_rng([seed, KINGDOM_STREAM, len(out) + 1])
        added = sorted(rng.choice([c for c in every if c not in cards], 10 - len(cards), replace=False).tolist())
        out.append({"id": f"own_{path.stem}", "kind": "own", "author_bot": path.stem,
                    "cards": sorted(cards) + added, "completed": added})
    return out


def random_kingdoms(seed: int, n: int) -> list[dict]:
    every = kingdom_cards()
    rng = np.random.default_rng([seed, KINGDOM_STREAM, 0])
    return [{"id": f"random_{i:02d}", "kind": "random", "author_bot": "", "completed": [],
             "cards": sorted(rng.choice(every, 10, replace=False).tolist())} for i in range(n)]


def eligible(cards: list[str]) -> list[str]:
    """The imported bots whose every kingdom card (bought or played) is in the kingdom."""
    from hoc.games.dominion.agents.bots import imported

    every, here = set(kingdom_cards()), set(cards)
    return [name for name, bot in imported().items() if (bot.cards & every) <= here]


def duel(ruleset, a, b, games: int, seed: int, first: int = 0) -> np.ndarray:
    """A's mean share of the wins per seed against B (games // 2 seeds, each played in both seatings)."""
    from hoc.engine import layout as L
    from hoc.research.harness import Plan
    from hoc.research.rows import play_rows

    plan = Plan(ruleset, [a, b], max(2, games - games % 2), seed=seed, mirror=True, first=first)
    rows, _ = play_rows(plan, first, plan.games)
    seats = plan.seats(first, plan.games)
    mask = rows[:, L.RES_WIN_MASK].astype(np.int64)
    winners = (mask & 1) + (mask >> 1 & 1)
    mine = np.argmax(seats == 0, axis=1)
    share = np.where((mask >> mine) & 1 == 1, 1.0 / np.maximum(winners, 1), 0.0)
    return share.reshape(-1, 2).mean(axis=1)


def interval(x: np.ndarray) -> tuple[float, float, float]:
    """Mean share with its 95% interval: the t interval over seed pairs (as `hoc tune` validates), or
    Wilson's over the games where it says nothing (every pair scored the same, or one pair)."""
    from hoc.games.dominion.agents.tuning import interval as t_interval
    from hoc.research.stats import wilson

    m, lo, hi = t_interval(x)
    if np.isnan(lo) or lo == hi:
        lo, hi = wilson(int(round(2 * x.sum())), 2 * len(x))
    return m, max(0.0, min(lo, m)), min(1.0, max(hi, m))      # Wilson's bounds can miss 0 or 1 by a rounding


def unit(k: dict, s: dict, folder: str) -> dict:
    """One kingdom: the round robin, the strongest imported bot, and each method against it."""
    from hoc.agents.registry import get, split_names
    from hoc.games.dominion.agents import tuning
    from hoc.games.dominion.agents.catalog import bot_agent
    from hoc.games.dominion.agents.bots import parse
    from hoc.games.dominion.rules import Ruleset

    t0 = time.perf_counter()
    rs = Ruleset(players=2, market=tuple(k["cards"]))
    seed = int(np.random.SeedSequence([s["seed"], KINGDOM_STREAM, *map(ord, k["id"])]).generate_state(1)[0] >> 1)
    names = eligible(k["cards"])
    if not names:
        raise HocError(f"kingdom {k['id']}: no imported bot can play it")
    bots = {n: get(n) for n in names}
    shares = {n: [] for n in names}
    pairs = []
    for x, y in combinations(names, 2):            # every pairing on the same seeds
        sx = float(duel(rs, bots[x], bots[y], s["games"], seed).mean())
        shares[x].append(sx)
        shares[y].append(1 - sx)
        pairs.append({"a": x, "b": y, "score_a": sx})
    table = sorted(((float(np.mean(v)) if v else 1.0, n) for n, v in shares.items()), reverse=True)
    strongest = table[0][1]
    here = Path(folder)
    opponent = bots[strongest]
    results = []

    def judge(method: str, agent, games: int, extra: dict):
        x = duel(rs, agent, opponent, games, seed, first=MATCH_FIRST)
        results.append({"method": method, "agent": agent.name, "games": 2 * len(x), "shares": x.tolist(), **extra})

    opponents = ([strongest] if s["tune_opponents"] == "strongest" else split_names(s["tune_opponents"]))
    # each candidate plays up to 800 games per opponent (hoc tune's own), fewer on a budget too small for
    # one generation of 30 candidates (24 children and 6 parents)
    per_opponent = max(2, min(800, s["tune_games"] // (30 * len(opponents))))
    tuned = tuning.tune(rs, [get(n) for n in opponents], s["tune_games"], seed, str(here / "tune"),
                        games_per_opponent=per_opponent, validate_games=s["games"], command=f"--game dominion --market {','.join(k['cards'])}",
                        progress=lambda line: None)
    agent = bot_agent(parse(tuned.out / "best.toml", name=f"tuned_{k['id']}"))
    judge("tuned", agent, s["match_games"], {"plan": str((tuned.out / "best.toml").relative_to(here.parent.parent))})
    if s["atlas_iterations"]:
        from hoc.agents.plan_space import space_of
        from hoc.research.atlas import atlas
        from hoc.research.atlas.search import Settings
        from hoc.research.harness import Backend

        space = space_of(rs)
        settings = Settings(space, tuple(get(n) for n in space.panel()), tuple(space.default_descriptors),
                            seed=seed, iterations=s["atlas_iterations"])
        frame = atlas(settings, here / "atlas", Backend(1), f"--game dominion --market {','.join(k['cards'])}",
                      progress=lambda line: None)
        best = here / "atlas" / frame.iloc[0]["plan"]
        judge("atlas", bot_agent(parse(best, name=f"atlas_{k['id']}")), s["match_games"],
              {"plan": str(best.relative_to(here.parent.parent))})
    searcher = s["search"]
    if s["search_rollout"] == "strongest":         # the search playing out its games with the bot it faces
        searcher += ("," if ":" in searcher else ":") + f"rollout={strongest}"
    judge("search", get(searcher), s["search_games"], {"plan": ""})
    return {"kingdom": k, "bots": names, "strongest": strongest,
            "round_robin": [{"bot": n, "score": v} for v, n in table], "pairs": pairs, "methods": results,
            "seconds": time.perf_counter() - t0}


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m" if seconds >= 3600 else f"{seconds // 60}m{seconds % 60:02d}s"


def options(argv):
    p = parser(NAME, __doc__, 2_000, "games per pairing of the round robin")
    p.add_argument("--kingdoms", type=int, default=20, help="random base-set kingdoms (default 20)")
    p.add_argument("--match-games", type=int, default=20_000,
                   help="games of the tuned plan and of the atlas's elite against the strongest bot, on fresh seeds "
                        "(default 20000: an interval of about ±0.7 points, as a strong plan and a strong bot are often "
                        "a few points apart)")
    p.add_argument("--no-own", action="store_true", help="skip the imported bots' own kingdoms")
    p.add_argument("--tune-games", type=int, default=500_000,
                   help="the tuner's budget in games per kingdom (default 500000)")
    p.add_argument("--tune-opponents", default="strongest",
                   help="whom the plan is tuned against: `strongest` (default: the kingdom's strongest imported bot, "
                        "the one it is judged against, on other seeds), or agent names, comma-separated (e.g. hoc "
                        "tune's own, dom_smithy_bm,dom_witch_bm: a plan that never saw the bot)")
    p.add_argument("--atlas-iterations", type=int, default=0,
                   help="run the strategy atlas on each kingdom with this many iterations and judge its best elite "
                        "(default 0: no atlas)")
    p.add_argument("--search", default="dom_search", help="the search agent judged (default dom_search)")
    p.add_argument("--search-rollout", choices=("own", "strongest"), default="own",
                   help="the search's rollout bot: its own (default; dom_search plays out with dom_smithy_bm) or "
                        "the kingdom's strongest imported bot")
    p.add_argument("--search-games", type=int, default=200,
                   help="games of the search agent against the strongest bot per kingdom (default 200)")
    args = p.parse_args(argv)
    for flag, value, least in (("--kingdoms", args.kingdoms, 0), ("--tune-games", args.tune_games, 1),
                               ("--atlas-iterations", args.atlas_iterations, 0),
                               ("--search-games", args.search_games, 2), ("--games", args.games, 2),
                               ("--match-games", args.match_games, 2)):
        if value < least:
            raise HocError(f"{flag} must be at least {least}, got {value}")
    from hoc.agents.registry import get, split_names

    if args.tune_opponents != "strongest":
        for n in split_names(args.tune_opponents):
            get(n)
    if get(args.search).game != "dominion":
        raise HocError(f"--search {args.search!r} is not a Dominion agent; see `hoc agents --game dominion`")
    return args


def main(argv: list[str] | None = None) -> Study:
    args = options(argv)
    kingdoms = ([] if args.no_own else own_kingdoms(args.seed)) + random_kingdoms(args.seed, args.kingdoms)
    if not kingdoms:
        raise HocError("no kingdom to study: --kingdoms 0 with --no-own")
    study = Study(NAME, "Our methods against the strongest imported Dominion bot, kingdom by kingdom", args, argv)
    settings = {"format": 3} | {k: getattr(args, k) for k in (
        "seed", "games", "match_games", "tune_games", "tune_opponents", "atlas_iterations", "search", "search_rollout", "search_games")}
    units = study.out / "kingdoms"
    units.mkdir(exist_ok=True)
    done = {}
    for k in kingdoms:
        settings_k = {**settings, "cards": k["cards"]}
        got = saved(units / f"{k['id']}.json", settings_k, "result")
        if got is not None:
            done[k["id"]] = got
    todo = [k for k in kingdoms if k["id"] not in done]
    print(f"{len(kingdoms)} kingdoms: {len(done)} finished before, {len(todo)} to play on {args.jobs} worker(s)",
          flush=True)
    from hoc.research.harness import run_tasks

    tasks = ((k, settings, str(units / k["id"])) for k in todo)
    try:
        play(study, run_tasks(study.backend, unit, tasks, len(todo)), settings, done, len(todo))
    except KeyboardInterrupt:
        study.backend.close()
        print(f"interrupted; {len(done)} of {len(kingdoms)} kingdoms are finished and saved in {units}; resume with "
              f"the same command: {study.command}", file=sys.stderr)
        sys.exit(130)
    report(study, [done[k["id"]] for k in kingdoms], args)
    study.finish()
    return study


def play(study: Study, results, settings: dict, done: dict, todo: int) -> None:
    """Save each kingdom as it finishes, with a progress line and the time left."""
    units = study.out / "kingdoms"
    t0 = time.perf_counter()
    for i, result in enumerate(results, 1):
        k = result["kingdom"]
        path = units / f"{k['id']}.json"
        part = path.with_suffix(".part")            # written whole, then renamed: a kill never leaves half a unit
        part.write_text(json.dumps({"settings": {**settings, "cards": k["cards"]}, "result": result}, indent=1))
        part.replace(path)
        done[k["id"]] = result
        spent = time.perf_counter() - t0
        print(f"[{i}/{todo}] {k['id']}: strongest {result['strongest']}; "
              + ", ".join(f"{m['method']} {100 * np.mean(m['shares']):.0f}%" for m in result["methods"])
              + f"; {_clock(spent)} spent, ETA {_clock(spent / i * (todo - i))}", flush=True)


def report(study: Study, results: list[dict], args) -> None:
    from hoc.research.stats import wilson

    rows, robin = [], []
    for r in results:
        k = r["kingdom"]
        top = r["round_robin"][0]
        for m in r["methods"]:
            rate, lo, hi = interval(np.asarray(m["shares"]))
            rows.append({"kingdom": k["id"], "kind": k["kind"], "cards": ",".join(k["cards"]),
                         "bots": len(r["bots"]), "strongest": r["strongest"], "strongest_score": top["score"],
                         **{key: v for key, v in m.items() if key != "shares"}, "rate": rate, "lo": lo, "hi": hi,
                         "beats": bool(lo > 0.5)})
        robin += [{"kingdom": k["id"], "rank": i, **b} for i, b in enumerate(r["round_robin"])]
    t = pd.DataFrame(rows)
    t.to_csv(study.path("strength.csv"), index=False)
    t.to_parquet(study.path("strength.parquet"), index=False)
    pd.DataFrame(robin).to_csv(study.path("roundrobin.csv"), index=False)
    own = sum(r["kingdom"]["kind"] == "own" for r in results)
    study.text(f"{len(results)} kingdoms: {own} named by an imported bot's author (the cards named beside the "
               f"bot's own, completed to 10 from the seed where they are fewer), {len(results) - own} random base-set kingdoms drawn from seed "
               f"{args.seed}. On each, a round robin of the imported bots that can play it ({args.games:,} games a "
               f"pairing, common seeds, seats mirrored) picks the strongest; each method then plays it on fresh "
               f"seeds, seats mirrored: the tuned plan (`hoc tune --game dominion`, {args.tune_games:,} games "
               f"against {args.tune_opponents}) and the atlas's best elite "
               + (f"({args.atlas_iterations} iterations)" if args.atlas_iterations else "(not run: --atlas-iterations 0)")
               + f" {args.match_games:,} games each, the search agent `{args.search}`"
               + (" rolling out the strongest imported bot" if args.search_rollout == "strongest" else "")
               + f" {args.search_games:,} games. "
               "A rate is the method's share of the wins (a shared win counts 1/2) with its 95% interval (t over "
               "seed pairs; Wilson's over games where every pair scored alike); it beats the bot when the interval is above 50%.")
    study.text("## Per method")
    lines = []
    for method in METHODS:
        sub = t[t.method == method]
        if sub.empty:
            continue
        won = int(sub.beats.sum())
        lo, hi = wilson(won, len(sub))
        lines.append({"method": method, "kingdoms": len(sub), "beats the strongest imported bot": won,
                      "share (95% interval)": pct(won / len(sub), lo, hi)})
    study.table(pd.DataFrame(lines))
    study.text("## Per kingdom")
    show = t.assign(rate=[pct(r, lo, hi) for r, lo, hi in zip(t.rate, t.lo, t.hi)])
    study.table(show[["kingdom", "cards", "bots", "strongest", "method", "games", "rate", "beats"]])
    lost = t[(t.method == "tuned") & ~t.beats]
    study.text("## Where the tuned plan does not beat the strongest imported bot")
    if lost.empty:
        study.text("Nowhere: the tuned plan beats the strongest imported bot on every kingdom studied.")
    else:
        study.table(lost.assign(rate=[pct(r, lo, hi) for r, lo, hi in zip(lost.rate, lost.lo, lost.hi)])[
            ["kingdom", "cards", "strongest", "rate"]])
    png = plot(t, study.path("strength.png"))
    study.figure(png, "each method's score against the strongest imported bot, per kingdom")


def plot(t: pd.DataFrame, path: str) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kingdoms = list(dict.fromkeys(t.kingdom))
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(kingdoms) + 1.5))
    for j, method in enumerate(METHODS):
        sub = t[t.method == method]
        if sub.empty:
            continue
        y = np.array([kingdoms.index(k) for k in sub.kingdom]) + (j - 1) * 0.2
        ax.errorbar(sub.rate, y, xerr=[sub.rate - sub.lo, sub.hi - sub.rate], fmt="o", ms=4, capsize=2, label=method)
    ax.axvline(0.5, color="grey", lw=1, ls="--")
    ax.set_yticks(range(len(kingdoms)), kingdoms, fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("score against the strongest imported bot (95% interval)")
    ax.invert_yaxis()
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


if __name__ == "__main__":
    cli(main)
