"""`hoc tune --game dominion`: an evolved Dominion bot for one kingdom, as Provincial evolves buy
menus per kingdom.

A candidate is a buy menu (`hoc.games.dominion.agents.genome`, read as a bot by
`hoc.games.dominion.agents.bots`: entries best first, each a card with its fewest and most coins,
copies owned below or a share of the deck, a threshold of the deck's money, and for Victory cards
how few Provinces must be left or how few gains the game is from its end); its Actions are played in
the default order (+Actions first, then Throne Room, then by cost). The first generation plays the
starts (`genome.starts`: Big Money, with its endgame, and that with one or two copies of each
kingdom card or one per 11 cards) beside children bred from them. Each generation, children are bred from the
best plans by mutation (insert, delete, swap or tweak an entry) and crossover (one parent's first
entries, the other's last), and every plan, parents included, plays the same games against each
opponent: common random numbers, seats mirrored (each seed played with the candidate in every
seat), a shared win counting 1/k. The best `keep` plans by mean score against
the opponents are the next parents. The last parents replay four times the games on seeds of their
own (a generation's best is also its luckiest); their best is pruned (entries whose removal costs
nothing on the same games are dropped, so the plan reads as what matters), then validated on fresh
seeds against every opponent, each score with its 95% interval over seed pairs.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from hoc.errors import HocError
from hoc.games.dominion.agents.genome import Breeder, Genome, bot, starts, toml

VALIDATE_FIRST = 12 << 36      # validation games start far from the search's indices (a multiple of 2, 3, 4)


def scores(ruleset, genome: Genome, opponents, games: int, seed: int, first: int = 0) -> np.ndarray:
    """Per opponent, per seed: the candidate's mean share of the wins over the seed's seatings
    (games // players seeds, every seating once)."""
    from hoc.games.dominion.agents.catalog import bot_agent as dominion_bot
    from hoc.engine import layout as L
    from hoc.research.harness import Plan
    from hoc.research.rows import play_rows

    me = dominion_bot(bot(genome, "candidate"))
    p = ruleset.players
    out = []
    for opp in opponents:
        plan = Plan(ruleset, [me] + [opp] * (p - 1), games - games % p, seed=seed, mirror=True, first=first)
        rows, _ = play_rows(plan, first, plan.games)
        seats = plan.seats(first, plan.games)
        mask = rows[:, L.RES_WIN_MASK].astype(np.int64)
        winners = sum((mask >> j) & 1 for j in range(p))
        mine = np.argmax(seats == 0, axis=1)          # the candidate's seat in each game
        share = np.where((mask >> mine) & 1 == 1, 1.0 / np.maximum(winners, 1), 0.0)
        out.append(share.reshape(-1, p).mean(axis=1))
    return np.array(out)


def prune(ruleset, genome: Genome, opponents, games: int, seed: int, progress=print) -> Genome:
    """Drop, last first, every entry whose removal leaves the score on the same games no lower: the
    entries that never fire (the games are then the very same) and those that do not help."""
    prune_seed = int(np.random.SeedSequence([seed, 1 << 20]).generate_state(1)[0])
    best = float(scores(ruleset, genome, opponents, games, prune_seed).mean())
    for i in reversed(range(len(genome))):
        if len(genome) == 1:
            break
        shorter = genome[:i] + genome[i + 1:]
        s = float(scores(ruleset, shorter, opponents, games, prune_seed).mean())
        if s >= best:
            genome, best = shorter, s
    progress(f"pruned to {len(genome)} entries: score {best:.3f} on the pruning games")
    return genome


def interval(x: np.ndarray) -> tuple[float, float, float]:
    """(score, lo, hi) over seeds (each seed's mirrored games a unit), inside [0, 1] (`stats.unit_interval`)."""
    from hoc.research.stats import unit_interval

    return unit_interval(x)


@dataclass
class Result:
    genome: Genome
    generations: int
    games: int
    seconds: float
    validation: list[dict]
    out: Path


def tune(ruleset, opponents, games_budget: int, seed: int, out: str, population: int = 24, keep: int = 6,
         games_per_opponent: int = 800, validate_games: int = 20_000, command: str = "",
         progress=print) -> Result:
    if ruleset.players < 2:
        raise HocError("tune plays 2 to 4 players")
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise HocError(f"--out {out} is a file; name a folder")
    folder.mkdir(parents=True, exist_ok=True)
    breed = Breeder(ruleset, seed)
    parents: list[Genome] = starts(ruleset)         # the first generation plays every start: a money deck per kingdom card
    used = 0
    generation = 0
    t0 = time.perf_counter()
    history = []
    per_candidate = games_per_opponent * len(opponents)
    while used + (population + keep) * per_candidate <= games_budget or generation == 0:
        children = []
        while len(children) < population:
            a = parents[int(breed.rng.integers(len(parents)))]
            if breed.rng.random() < 0.3 and len(parents) > 1:
                b = parents[int(breed.rng.integers(len(parents)))]
                child = breed.cross(a, b)
            else:
                child = breed.mutate(a)
            if child not in parents and child not in children:
                children.append(child)
        pool = parents + children
        gen_seed = int(np.random.SeedSequence([seed, generation]).generate_state(1)[0])
        fitness = [float(scores(ruleset, g, opponents, games_per_opponent, gen_seed).mean()) for g in pool]
        used += len(pool) * per_candidate
        order = np.argsort(fitness)[::-1]
        parents = [pool[i] for i in order[:keep]]
        history.append({"generation": generation, "games": used, "best": fitness[order[0]],
                        "best_plan": [asdict(e) for e in parents[0]]})
        progress(f"generation {generation}: best score {fitness[order[0]]:.3f} "
                 f"({len(parents[0])} entries), {used:,} games")
        generation += 1
    # the last generation's best is also its luckiest: its parents replay four times the games on seeds
    # of their own, and the best of that is pruned and validated
    final_seed = int(np.random.SeedSequence([seed, 1 << 21]).generate_state(1)[0])
    final = [float(scores(ruleset, g, opponents, 4 * games_per_opponent, final_seed).mean()) for g in parents]
    used += len(parents) * 4 * per_candidate
    progress(f"the {len(parents)} best replayed on {4 * games_per_opponent:,} games each: "
             + ", ".join(f"{x:.3f}" for x in final))
    best = prune(ruleset, parents[int(np.argmax(final))], opponents, 2 * games_per_opponent, seed, progress)
    validation = []
    final = scores(ruleset, best, opponents, validate_games, seed + 1, first=VALIDATE_FIRST)
    for opp, s in zip(opponents, final):
        m, lo, hi = interval(s)
        validation.append({"opponent": opp.name, "score": m, "lo": lo, "hi": hi, "seeds": len(s),
                           "games": len(s) * ruleset.players})
    seconds = time.perf_counter() - t0
    lines = [f"tuned by: hoc tune {command}".rstrip(), f"kingdom: {ruleset.describe()['market']}"]
    lines += [f"score against {v['opponent']}: {100 * v['score']:.1f}% [{100 * v['lo']:.1f}, {100 * v['hi']:.1f}] "
              f"({v['games']:,} games on fresh seeds, seats mirrored)" for v in validation]
    (folder / "best.toml").write_text(toml(best, "\n".join(lines)), encoding="utf-8")
    (folder / "summary.json").write_text(json.dumps({
        "command": f"hoc tune {command}", "rules": ruleset.describe(), "opponents": [o.name for o in opponents],
        "seed": seed, "generations": generation, "games": used, "seconds": seconds, "validation": validation,
        "best": [asdict(e) for e in best], "history": history}, indent=1), encoding="utf-8")
    return Result(best, generation, used, seconds, validation, folder)


def report(r: Result) -> list[str]:
    lines = [f"best plan after {r.generations} generations ({r.games:,} games, {r.seconds:.0f} s): {r.out / 'best.toml'}"]
    lines += [f"  {e.toml()}" for e in r.genome]
    lines.append("validated on fresh seeds, seats mirrored (score: a shared win counts 1/k; 95% interval over seeds):")
    lines += [f"  vs {v['opponent']}: {100 * v['score']:.1f}% [{100 * v['lo']:.1f}, {100 * v['hi']:.1f}] "
              f"({v['games']:,} games)" for v in r.validation]
    return lines
