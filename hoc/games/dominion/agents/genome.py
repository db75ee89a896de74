"""A Dominion buy menu as the tuner's genome (`hoc.games.dominion.agents.tuning`): its entries, the
cards a plan may buy on a kingdom, the menus a search starts from (Big Money with an endgame, alone
and with one or two copies of each kingdom card or one per 11 cards owned), the moves that breed new
menus from old (insert, delete, swap or tweak an entry; one parent's first entries with the other's
last), and the menu as a bot and as a bot file."""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace

import numpy as np

from hoc.errors import HocError
from hoc.games.dominion.agents.row import MAX_WHEN

COUNTS = (1, 2, 3, 4, 6, 8)
DENSITIES = (5, 7, 9, 11, 13, 16)       # one copy of the card per N cards owned
MONEY = (10, 20)                        # the range of a deck-money threshold


@dataclass(frozen=True)
class Entry:
    card: str
    coins: int
    max_coins: int | None = None
    owned_below: int | None = None
    provinces_at_most: int | None = None
    gains_at_most: int | None = None      # buy while the game is this many gains from its end (`gains_to_end`)
    density: int | None = None            # buy while owning fewer than one copy per N cards owned
    money_above: int | None = None        # buy once the deck's money (`money`: the coins its cards make) is above N

    def buy(self) -> dict:
        """The entry as a bot file's buy entry (`hoc.games.dominion.agents.bots`)."""
        fields = {k: v for k, v in asdict(self).items() if v is not None and k not in WHEN}
        when = [WHEN[k].format(n=v, card=self.card) for k, v in asdict(self).items() if k in WHEN and v is not None]
        return fields | ({"when": when} if when else {})

    def conditions(self) -> int:
        return sum(getattr(self, k) is not None for k in WHEN)

    def toml(self) -> str:
        def value(v):
            return f'"{v}"' if isinstance(v, str) else "[" + ", ".join(map(value, v)) + "]" if isinstance(v, list) else str(v)

        return "{ " + ", ".join(f"{k} = {value(v)}" for k, v in self.buy().items()) + " }"


WHEN = {"gains_at_most": "gains_to_end <= {n}", "density": "{n} * owned({card}) < owned(all)",
        "money_above": "money > {n}"}          # the fields written as `when` conditions
Genome = tuple[Entry, ...]
STARTING_PLAN: Genome = (Entry("province", 8), Entry("gold", 6), Entry("silver", 3))   # Big Money
# Big Money with the endgame players give it: Duchies from four gains before the end, Estates from two
ENDGAME_PLAN: Genome = (Entry("province", 8), Entry("duchy", 5, gains_at_most=4), Entry("estate", 2, gains_at_most=2),
                        Entry("gold", 6), Entry("silver", 3))


def universe(ruleset) -> list[str]:
    """The cards a plan may buy on this kingdom: Treasures, Victory cards, the kingdom's cards."""
    from hoc.games.dominion.kernel import constants as K

    mode, kingdom = ruleset.kingdom
    if mode != K.KINGDOM_FIXED:
        raise HocError("tune --game dominion finds a plan for one kingdom: give --market a recommended kingdom "
                       "(e.g. first_game) or 10 kingdom cards")
    return ["province", "duchy", "estate", "gold", "silver", *kingdom]


def starts(ruleset) -> list[Genome]:
    """The menus a search starts from: Big Money, Big Money with its endgame, and the latter with one
    or two copies of each kingdom card, or one per 11 cards owned (as Big Money Ultimate buys its
    Smithies), bought before Gold (costing 5 or more) or before Silver. Most strong base-set decks
    are a money deck around one or two kingdom cards, a long walk from plain Big Money for single
    mutations: a search starting from each such deck finds them in one generation."""
    db = ruleset.cards
    out = [STARTING_PLAN, ENDGAME_PLAN]
    at = {e.card: i for i, e in enumerate(ENDGAME_PLAN)}
    for card in universe(ruleset)[5:]:
        place = at["gold"] if db[card].cost >= 5 else at["silver"]
        for around in (Entry(card, db[card].cost, owned_below=1), Entry(card, db[card].cost, owned_below=2),
                       Entry(card, db[card].cost, density=11)):
            out.append(ENDGAME_PLAN[:place] + (around,) + ENDGAME_PLAN[place:])
    return out


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
        density = money = None
        if owned is not None and "action" in c.types and rng.random() < 0.3:    # a share of the deck, not a count
            owned, density = None, int(rng.choice(DENSITIES))
        if card in ("province", "gold") and rng.random() < 0.3:
            money = int(rng.integers(*MONEY))
        at_most = gains = None
        if "victory" in c.types and card != "province":       # an endgame rule: Provinces left, or gains to the end
            if rng.random() < 0.5:
                at_most = int(rng.integers(1, 8))
            else:
                gains = int(rng.integers(1, 8))
        high = coins + int(rng.integers(0, 3)) if rng.random() < 0.25 else None
        return Entry(card, coins, high, owned, at_most, gains, density, money)

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
            which = int(rng.integers(6))
            if which == 0:
                e = replace(e, coins=max(c.cost, e.coins + int(rng.choice([-1, 1]))))
            elif which == 1:
                e = replace(e, owned_below=None if rng.random() < 0.3 else int(rng.choice(COUNTS)))
            elif which == 2 and "victory" in c.types and e.card != "province":
                # a step of the endgame rule it has (or a new one of either kind)
                if e.gains_at_most is not None and rng.random() < 0.8:
                    e = replace(e, gains_at_most=int(np.clip(e.gains_at_most + rng.choice([-1, 1]), 1, 7)))
                elif rng.random() < 0.5:
                    e = replace(e, provinces_at_most=int(rng.integers(1, 8)), gains_at_most=None)
                else:
                    e = replace(e, gains_at_most=int(rng.integers(1, 8)), provinces_at_most=None)
            elif which == 4 and "action" in c.types:
                # a step of its density (or one instead of its count), or none
                if e.density is not None and rng.random() < 0.8:
                    e = replace(e, density=int(np.clip(e.density + rng.choice([-2, 2]), 3, 20)))
                else:
                    e = replace(e, density=None if e.density else int(rng.choice(DENSITIES)), owned_below=None)
            elif which == 5:
                if e.money_above is not None and rng.random() < 0.7:
                    e = replace(e, money_above=int(np.clip(e.money_above + rng.choice([-2, 2]), 4, 30)))
                else:
                    e = replace(e, money_above=None if e.money_above else int(rng.integers(*MONEY)))
            else:
                e = replace(e, max_coins=None if e.max_coins is not None else e.coins + int(rng.integers(0, 3)))
            g[i] = e
        return fit(tuple(g)) or STARTING_PLAN

    def cross(self, a: Genome, b: Genome) -> Genome:
        i = int(self.rng.integers(1, len(a) + 1))
        j = int(self.rng.integers(0, len(b) + 1))
        child = list(a[:i]) + [e for e in b[j:] if e not in a[:i]]
        return fit(tuple(child[:16]))


def fit(g: Genome) -> Genome:
    """The menu with its last entries' conditions dropped while it has more than a bot row holds."""
    g = list(g)
    i = len(g) - 1
    while sum(e.conditions() for e in g) > MAX_WHEN and i >= 0:
        g[i] = replace(g[i], gains_at_most=None, density=None, money_above=None)
        i -= 1
    return tuple(g)


def bot(genome: Genome, name: str):
    from hoc.games.dominion.agents.bots import NEVER, Bot

    buy = tuple(e.buy() for e in genome)
    return Bot(name, "a buy menu tuned by hoc tune --game dominion", buy, (), 0, NEVER, "(tuned)")


def toml(genome: Genome, header: str) -> str:
    lines = [f"# {line}" for line in header.splitlines()]
    lines += ['game = "dominion"', 'description = "a buy menu tuned by hoc tune --game dominion"', "buy = ["]
    lines += [f"  {e.toml()}," for e in genome]
    return "\n".join(lines + ["]", ""])
