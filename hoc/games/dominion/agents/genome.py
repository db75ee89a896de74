"""A Dominion buy menu as the tuner's genome (`hoc.games.dominion.agents.tuning`): its entries, the cards a
plan may buy on a kingdom, the moves that breed new menus from old (insert, delete, swap or tweak an
entry; one parent's first entries with the other's last), and the menu as a bot and as a bot file."""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from hoc.errors import HocError

COUNTS = (1, 2, 3, 4, 6, 8)
@dataclass(frozen=True)
class Entry:
    card: str
    coins: int
    max_coins: int | None = None
    owned_below: int | None = None
    provinces_at_most: int | None = None

    def toml(self) -> str:
        fields = {k: v for k, v in asdict(self).items() if v is not None}
        return "{ " + ", ".join(f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}" for k, v in fields.items()) + " }"


Genome = tuple[Entry, ...]
STARTING_PLAN: Genome = (Entry("province", 8), Entry("gold", 6), Entry("silver", 3))   # Big Money


def universe(ruleset) -> list[str]:
    """The cards a plan may buy on this kingdom: Treasures, Victory cards, the kingdom's cards."""
    from hoc.games.dominion.kernel import constants as K

    mode, kingdom = ruleset.kingdom
    if mode != K.KINGDOM_FIXED:
        raise HocError("tune --game dominion finds a plan for one kingdom: give --market a recommended kingdom "
                       "(e.g. first_game) or 10 kingdom cards")
    return ["province", "duchy", "estate", "gold", "silver", *kingdom]


class Breeder:
    def __init__(self, ruleset, seed: int):
        self.db = ruleset.cards
        self.cards = universe(ruleset)
        self.rng = np.random.default_rng(seed)

    def entry(self, card: str | None = None) -> Entry:
        rng = self.rng
        card = card or self.cards[int(rng.integers(len(self.cards)))]
        c = self.db[card]
        coins = c.cost + int(rng.choice([0, 0, 0, 1, 2]))
        owned = None if "victory" in c.types or card in ("gold", "silver") and rng.random() < 0.8 \
            else int(rng.choice(COUNTS))
        at_most = int(rng.integers(1, 8)) if "victory" in c.types and card != "province" else None
        high = coins + int(rng.integers(0, 3)) if rng.random() < 0.25 else None
        return Entry(card, coins, high, owned, at_most)

    def mutate(self, g: Genome) -> Genome:
        rng = self.rng
        g = list(g)
        op = rng.integers(4) if len(g) > 1 else 0
        i = int(rng.integers(len(g)))
        if op == 0 and len(g) < 16:                       # insert
            g.insert(int(rng.integers(len(g) + 1)), self.entry())
        elif op == 1:                                     # delete
            del g[i]
        elif op == 2 and i + 1 < len(g):                  # swap neighbours
            g[i], g[i + 1] = g[i + 1], g[i]
        else:                                             # tweak one field
            e = g[i]
            c = self.db[e.card]
            which = int(rng.integers(4))
            if which == 0:
                e = Entry(e.card, max(c.cost, e.coins + int(rng.choice([-1, 1]))), e.max_coins, e.owned_below,
                          e.provinces_at_most)
            elif which == 1:
                e = Entry(e.card, e.coins, e.max_coins, None if rng.random() < 0.3 else int(rng.choice(COUNTS)),
                          e.provinces_at_most)
            elif which == 2 and "victory" in c.types and e.card != "province":
                e = Entry(e.card, e.coins, e.max_coins, e.owned_below, int(rng.integers(1, 8)))
            else:
                e = Entry(e.card, e.coins, None if e.max_coins is not None else e.coins + int(rng.integers(0, 3)),
                          e.owned_below, e.provinces_at_most)
            g[i] = e
        return tuple(g) or STARTING_PLAN

    def cross(self, a: Genome, b: Genome) -> Genome:
        i = int(self.rng.integers(1, len(a) + 1))
        j = int(self.rng.integers(0, len(b) + 1))
        child = list(a[:i]) + [e for e in b[j:] if e not in a[:i]]
        return tuple(child[:16])


def bot(genome: Genome, name: str):
    from hoc.games.dominion.agents.bots import NEVER, Bot

    buy = tuple({k: v for k, v in asdict(e).items() if v is not None} for e in genome)
    return Bot(name, "a buy menu tuned by hoc tune --game dominion", buy, (), 0, NEVER, "(tuned)")


def toml(genome: Genome, header: str) -> str:
    lines = [f"# {line}" for line in header.splitlines()]
    lines += ['game = "dominion"', 'description = "a buy menu tuned by hoc tune --game dominion"', "buy = ["]
    lines += [f"  {e.toml()}," for e in genome]
    return "\n".join(lines + ["]", ""])
