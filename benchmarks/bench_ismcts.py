"""Search agent speed (a script that prints numbers, never a timed test).

    python benchmarks/bench_ismcts.py [--games N] [--agents ismcts_fast,ismcts,ismcts_strong,ismcts_net]

For each search agent, 2-player games against tuned_laolily_2p on random markets, seats rotated,
on one core, in process time:
- seconds per game: whole games in the jitted loop (`play_rows`, as `hoc simulate --jobs 1` plays them);
- searched decisions per second: the searcher's decisions that run a search (Second phase, keep,
  card questions with more than one legal action), stepped through `Game.decide` and timed one by one;
- the decisions a game asks of the searcher, and how many of them it searches.
The target: at the default budget (`ismcts`), at most 2 s per 2-player game on one core.
`ismcts_net` (guided by `learned_2p`) is timed the same way; in `Game.decide` its state's tail of
weights is rebuilt at each decision (about 1 ms), which its searched-decision rate includes.
"""
from __future__ import annotations

import argparse
import time

SEARCHED = ("second phase", "keep", "card choice")


def seconds_per_game(spec: str, games: int) -> float:
    from hoc.research.harness import Plan, play_rows
    from hoc.research.simulate import lineup
    from hoc.games.heart_of_crown.rules import Ruleset

    rs = Ruleset(players=2, market="random")
    plan = Plan(rs, lineup(f"{spec},tuned_laolily_2p", 2), games, seed=101, rotate=True)
    play_rows(plan, 0, 1)                       # load the kernels
    t = time.process_time()
    play_rows(plan, 0, games)
    return (time.process_time() - t) / games


def decision_rate(spec: str, games: int) -> tuple[float, float, float]:
    """(searched decisions per second, the searcher's decisions per game, searched ones per game)."""
    from hoc.agents.registry import get
    from hoc.games.heart_of_crown.game import Game
    from hoc.games.heart_of_crown.rules import Ruleset

    rs = Ruleset(players=2, market="random")
    searcher, other = get(spec), get("tuned_laolily_2p")
    seconds = 0.0
    decisions = searched = 0
    for seed in range(games):
        g = Game(rs, seed=1000 + seed)
        me = seed % 2
        while not g.over:
            if g.decider != me:
                g.apply(g.decide(other))
                continue
            decisions += 1
            search = g.context in SEARCHED and len(g.legal_actions()) > 1
            t = time.process_time()
            a = g.decide(searcher)
            if search:
                seconds += time.process_time() - t
                searched += 1
            g.apply(a)
    return searched / seconds, decisions / games, searched / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--agents", default="ismcts_fast,ismcts,ismcts_strong,ismcts_net")
    args = ap.parse_args()
    from hoc.agents.registry import split_names

    print(f"search agents vs tuned_laolily_2p, 2 players, random markets, {args.games} games each, one core")
    for spec in split_names(args.agents):
        per_game = seconds_per_game(spec, args.games)
        rate, decisions, searched = decision_rate(spec, max(2, args.games // 2))
        print(f"{spec:<32} {per_game:6.3f} s/game   {rate:8.1f} searched decisions/s   "
              f"{decisions:5.1f} decisions/game, {searched:5.1f} searched")


if __name__ == "__main__":
    main()
