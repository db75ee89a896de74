"""Heart of Crown's plan space for the strategy atlas (`hoc atlas`): a vector of numbers in [0, 1]
decoded into a priority list (`hoc.games.heart_of_crown.agents.genome.Plan`), the tuner's format.

Every card a plan may buy on the ruleset's markets (`Universe.buyable`) has eight coordinates: its
priority (rules are ordered by it), a gate (bought at all when at least 1/2), a cap (`owned_below` 1
to 12, none above), a start (`turn_at_least` 1 to 20), a deck window (`cards_at_least` 6 to 40, none
below; `cards_below` 10 to 45, none above), a phase (before backing a princess only, either, or
after only: the condition `princess`) and, for an Action, whether it is played before the others
(`[play] first`, in priority order: a card that pays for the Actions played after it, or opens
links for them, is worth more played first). Then one coordinate per princess of the pool (the plan
prefers the highest), the backing settings (`min_coins` 6 to 14, `min_owned` 0 to 40, `set_min_sp`
1 to 16) and three switches of play (`keep`, `accept_modes`, `recall`). Other plays are the priority
list's defaults, abilities on. The tuner's plans use these conditions most; a plan's other
conditions are beyond it.

So a deck built around any card is one region of the space: the search is never told which.
"""
from __future__ import annotations

import numpy as np

from hoc.games.heart_of_crown.agents.genome import Plan, Rule, Universe, load
from hoc.games.heart_of_crown.agents.row import MAX_CONDS, MAX_FIRST, MAX_RULES
from hoc.agents.plan_space import Descriptor, Layout, Profile, deck_size, own_turns, ranked, share_of

PER_CARD = 8
PRIORITY, GATE, CAP, START, FROM, UNTIL, PHASE, FIRST = range(PER_CARD)
MAX_CAP, MAX_START = 12, 20
DECK_FROM = (6, 40)             # cards_at_least: none at the bottom of the gene's range
DECK_UNTIL = (10, 45)           # cards_below: none at the top
SETTINGS = (("min_coins", 6, 14), ("min_owned", 0, 40), ("set_min_sp", 1, 16))
SWITCHES = ("keep", "accept_modes", "recall")
MAX_CONDITIONS = MAX_CONDS      # a buy rule's most (a rule with all five drops its start)


def _backed_turn(p: Profile) -> np.ndarray:
    """The seat's own turn when it backed its princess; a seat that never backed counts one turn
    past its last."""
    turn = p.extras[:, 1]
    return np.where(turn > 0, turn, p.own_turns + 1).astype(float)


def _window(gene: float, lo: int, hi: int) -> int:
    return lo + int(round(gene * (hi - lo)))


def _gene(value, lo: int, hi: int, none: float) -> float:
    """The gene of a window's bound (`none`: the gene of no bound)."""
    return none if value is None else (min(max(value, lo), hi) - lo) / (hi - lo)


class Space(Layout):
    """The priority lists of one ruleset (`hoc.agents.plan_space.Space`)."""

    per_card, priority, gate, first = PER_CARD, PRIORITY, GATE, FIRST
    cap = (CAP, 2 / MAX_CAP)                    # owned_below 3
    # a deck built on a kind owns one copy by default: the market shows a few cards at a time, so a
    # deck reaches one without giving up its strength; asked for two, the searches often degenerated
    # into plans that bought the pair and little else, and reached 1.5 to 1.6 copies
    # (results/combos/heart_of_crown_documented_copies2)
    committed = 1.0
    planner: tuple | None = None                # the turn planner's settings its plans play with (`thinking`)

    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.universe = Universe(ruleset)
        self.cards = self.universe.buyable
        self.princesses = self.universe.princesses
        n = PER_CARD * len(self.cards) + len(self.princesses) + len(SETTINGS) + len(SWITCHES)
        self.lower, self.upper = np.zeros(n), np.ones(n)
        db = ruleset.cards
        _, kinds = ruleset.market_piles
        kinds = kinds or list(db.pile_ids("common"))
        self.kinds = {k: [int(c) for c in db.cards_of_pile(k)] for k in kinds}
        actions = [c for c in range(len(db)) if "action" in str(db.frame.types.iat[c]).split("|")]
        self.descriptors = {d.name: d for d in (
            Descriptor("action_share", "share of Action cards in the final deck", 0.0, 0.6, share_of(actions),
                       "an engine of Actions against a deck of Territories and money"),
            Descriptor("backed_turn", "own turn of backing the princess", 4.0, 24.0, _backed_turn,
                       "a rush that backs early against a long build that backs late"),
            Descriptor("deck_size", "cards owned at the end", 10.0, 50.0, deck_size,
                       "a thin deck against a thick one (buying many cheap cards)"),
            Descriptor("own_turns", "own turns in the game", 8.0, 30.0, own_turns,
                       "a fast game against a slow one"))}
        self.default_descriptors = ("action_share", "backed_turn")

    def thinking(self):
        """This space with its plans' Main phase and card questions played by the turn planner
        (`NAME+plan`'s Main-phase settings with one determinization: a Trading Ship's draw or coins,
        Donation's exile, Stargazing Witch's discards weighed by looking ahead to the turn's end
        rather than answered by the list's fixed defaults; about a third of a plain list's speed)."""
        import copy

        from hoc.games.heart_of_crown.agents.planner import DEFAULTS, MAIN_DEFAULTS

        other = copy.copy(self)
        other.planner = tuple({**DEFAULTS, **MAIN_DEFAULTS, "samples": 1}.items())
        return other

    def panel(self) -> list[str]:
        """The strongest plain priority list of the library for this table size and edition."""
        from hoc.games.heart_of_crown.agents.catalog import TUNED

        stem = f"tuned_general_{'1e_' if self.ruleset.edition == '1e' else ''}{self.ruleset.players}p"
        if (TUNED / f"{stem}.toml").exists():
            return [stem]
        return ["tuned_general_1e_2p" if self.ruleset.edition == "1e" else "tuned_general_2p"]

    # ---- plans and points --------------------------------------------------------------------

    def plan(self, x: np.ndarray) -> Plan:
        """The priority list of point x."""
        n = len(self.cards)
        genes = np.clip(np.asarray(x, float), 0.0, 1.0)
        rules, first = [], []
        for c, g in ranked(genes, n, PER_CARD, PRIORITY, GATE, self.barred):
            if g[FIRST] >= 0.5 and self.cards[c] in self.universe.playable:
                first.append(self.cards[c])
            conditions = []
            cap = 1 + int(round(g[CAP] * MAX_CAP))
            if cap <= MAX_CAP:
                conditions.append(("owned_below", cap))
            low = _window(g[FROM], *DECK_FROM)
            if low > DECK_FROM[0]:
                conditions.append(("cards_at_least", low))
            high = _window(g[UNTIL], *DECK_UNTIL)
            if high < DECK_UNTIL[1]:
                conditions.append(("cards_below", high))
            if g[PHASE] < 1 / 3 or g[PHASE] > 2 / 3:
                conditions.append(("princess", bool(g[PHASE] > 2 / 3)))
            start = 1 + int(round(g[START] * (MAX_START - 1)))
            if start > 1:
                conditions.append(("turn_at_least", start))
            rules.append(Rule(self.cards[c], tuple(conditions[:MAX_CONDITIONS])))
        at = PER_CARD * n
        prefer = self.princesses[int(np.argmax(genes[at:at + len(self.princesses)]))]
        at += len(self.princesses)
        settings = {name: lo + int(round(genes[at + i] * (hi - lo))) for i, (name, lo, hi) in enumerate(SETTINGS)}
        at += len(SETTINGS)
        switches = {name: bool(genes[at + i] >= 0.5) for i, name in enumerate(SWITCHES)}
        rules = rules[:MAX_RULES]           # a list's most: the rules of the highest priority
        bought = {r.card for r in rules}
        first = tuple(c for c in first if c in bought)[:MAX_FIRST]
        return Plan(buy=tuple(rules) or (Rule(self.cards[0]),), prefer=(prefer,), first=first, **settings,
                    **switches, plan=self.planner)

    def point(self, plan: Plan) -> np.ndarray:
        """The point whose plan is closest to `plan`: each card's first rule (its order, cap and start;
        other conditions are dropped), the cards it plays first, its first preferred princess and its
        backing settings."""
        n = len(self.cards)
        x = np.full(len(self.lower), 0.5)
        per = x[:PER_CARD * n].reshape(n, PER_CARD)
        per[:, GATE] = 0.25
        per[:, CAP] = 1.0
        per[:, START] = 0.0
        per[:, FROM] = 0.0
        per[:, UNTIL] = 1.0
        per[:, FIRST] = 0.25
        for name in plan.first:
            if name in self.cards:
                per[self.cards.index(name), FIRST] = 0.75
        seen = set()
        for i, rule in enumerate(plan.buy):
            if rule.card not in self.cards or rule.card in seen:
                continue
            seen.add(rule.card)
            c = self.cards.index(rule.card)
            per[c, PRIORITY] = 1.0 - i / max(len(plan.buy), 1)
            per[c, GATE] = 0.75
            cap = rule.condition("owned_below")
            per[c, CAP] = 1.0 if cap is None else (min(cap, MAX_CAP) - 1) / MAX_CAP
            start = rule.condition("turn_at_least")
            per[c, START] = 0.0 if start is None else (min(start, MAX_START) - 1) / (MAX_START - 1)
            per[c, FROM] = _gene(rule.condition("cards_at_least"), *DECK_FROM, none=0.0)
            per[c, UNTIL] = _gene(rule.condition("cards_below"), *DECK_UNTIL, none=1.0)
            phase = rule.condition("princess")
            per[c, PHASE] = 0.5 if phase is None else 0.9 if phase else 0.1
        at = PER_CARD * n
        x[at:at + len(self.princesses)] = 0.25
        for name in plan.prefer[:1]:
            if name in self.princesses:
                x[at + self.princesses.index(name)] = 0.75
        at += len(self.princesses)
        for i, (name, lo, hi) in enumerate(SETTINGS):
            x[at + i] = (min(max(getattr(plan, name), lo), hi) - lo) / (hi - lo)
        at += len(SETTINGS)
        for i, name in enumerate(SWITCHES):
            x[at + i] = 0.75 if getattr(plan, name) else 0.25
        return x

    def backing(self, x: np.ndarray, princess: str) -> np.ndarray:
        """Point x with its princess genes set so that its plan prefers `princess` (the deck's buys
        and backing settings unchanged): the same deck, backing another princess."""
        at = PER_CARD * len(self.cards)
        y = np.array(x, float)
        y[at:at + len(self.princesses)] = 0.25
        y[at + self.princesses.index(princess)] = 0.75
        return y

    def starts(self) -> list[np.ndarray]:
        """The library's plain lists the ruleset's edition plays, as points, the panel's own plan first
        (the emitter that climbs the fitness starts there; the others spread out from the rest)."""
        from hoc.games.heart_of_crown.agents.catalog import TUNED, edition_plan

        first = self.panel()[0]
        paths = sorted(TUNED.glob("*.toml"), key=lambda p: (p.stem != first, p.stem))
        plans = [load(p) for p in paths if edition_plan(p.stem, self.ruleset.edition)]
        return [self.point(p) for p in plans if p.plan is None]

    def row(self, x: np.ndarray) -> tuple[int, np.ndarray]:
        from hoc.games.heart_of_crown.agents.catalog import row_kind

        params = self.plan(x).params(self.ruleset)
        return row_kind(params), params

    def text(self, x: np.ndarray, header: str) -> str:
        return self.plan(x).toml(description="a deck of the strategy atlas (hoc atlas)", comment=header)
