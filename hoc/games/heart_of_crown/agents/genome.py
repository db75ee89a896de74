"""The genome of a priority-list plan: the TOML agent format as a value (`Plan`), so that every
genome writes a valid agent file that parses back to the same parameter row, and the cards a plan
may name in one game setting (`Universe`).

The integer thresholds of a plan (backing at so many coins, owned_below 2, ...) are its
`thresholds`: a vector with bounds that the continuous optimiser moves while the structure (which
rules, in which order, on which cards, with which kinds of condition) stays fixed.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import tomli_w

from hoc.games.heart_of_crown.agents import priority
from hoc.games.heart_of_crown.rules import Ruleset

# bounds of every whole-number setting: the search never leaves them (values outside mean the same
# as the nearest bound, or nothing a game can reach)
BOUNDS = {
    "coins_at_least": (0, 16), "coins_at_most": (0, 16), "turn_at_least": (1, 30), "turn_at_most": (1, 30),
    "owned_below": (1, 12), "owned_at_least": (1, 12), "sp_at_least": (0, 30), "sp_below": (1, 30),
    "behind_at_least": (-10, 20), "pile_at_most": (0, 12), "cards_at_least": (5, 50), "cards_below": (5, 50),
    "min_coins": (6, 14),      # every princess costs 6: fewer coins cannot back
    "min_owned": (0, 40),
    "set_min_sp": (1, 16),     # setting needs positive SP in hand anyway
    # the turn planner's weights (x 100, hoc.games.heart_of_crown.agents.planner), around their defaults
    "plan.potential": (0, 200), "plan.deck": (0, 400), "plan.par": (0, 400), "plan.backed": (0, 3000),
    "plan.counter": (0, 300), "plan.hand": (0, 200), "plan.opponents": (0, 200), "plan.coin": (0, 400),
    "plan.coin_cap": (4, 16), "plan.margin": (0, 200), "plan.settle": (0, 600),
    # its Second phase (searched when the plan weighs it: `second` above 0)
    "plan.second_margin": (0, 2000), "plan.horizon": (-1, 3),     # -1: the preference network, no look-ahead
}
SECOND_WEIGHTS = ("second_margin", "horizon")
PLAN_WEIGHTS = tuple(k[len("plan."):] for k in BOUNDS if k.startswith("plan.") and k[len("plan."):] not in SECOND_WEIGHTS)
NUMERIC = tuple(k for k in priority.CONDITIONS if k not in priority.CARD_VALUED and k != "princess")
CARD_VALUED = priority.CARD_VALUED          # offered, not_offered: a market card; backed: a princess
FLAGS = ("keep", "recall", "abilities", "territories_only", "accept_modes")


@dataclass(frozen=True)
class Rule:
    """A buy rule: the card, then its conditions in order (each kind at most once, as in TOML)."""

    card: str
    conditions: tuple[tuple[str, int | bool | str], ...] = ()

    def condition(self, kind: str):
        return dict(self.conditions).get(kind)


# a plan file needs a buy rule: the one a plan gets when none is left (every other banned or cut)
FALLBACK_BUY = (Rule("city"),)


@dataclass(frozen=True)
class Plan:
    """Every part of a priority-list agent file except its description."""

    buy: tuple[Rule, ...] = ()
    prefer: tuple[str, ...] = ()
    min_coins: int = 6
    min_owned: int = 0
    set_min_sp: int = 2
    first: tuple[str, ...] = ()
    keep: bool = True
    recall: bool = False
    abilities: bool = True
    territories_only: bool = False
    accept_modes: bool = True
    gain: tuple[str, ...] = ()
    lose: tuple[str, ...] = ()
    never: tuple[str, ...] = ()        # banned kinds or cards (`hoc tune --ban`): fixed, never searched
    plan: tuple[tuple[str, int], ...] | None = None   # the turn planner's settings ([plan]); None: off

    def document(self, description: str = "") -> dict:
        """The agent file as TOML data: only the sections the plan uses, keys in the file's order."""
        doc: dict = {}
        if description:
            doc["description"] = description
        doc["princess"] = {"prefer": list(self.prefer), "min_coins": self.min_coins, "min_owned": self.min_owned}
        doc["set"] = {"min_sp": self.set_min_sp}
        # recall is written only when on, so the files written before it existed read back unchanged
        doc["play"] = {"first": list(self.first), **{f: getattr(self, f) for f in FLAGS if f != "recall" or self.recall}}
        if self.gain or self.lose or self.never:
            doc["choose"] = {"gain": list(self.gain), "lose": list(self.lose)}
            if self.never:
                doc["choose"]["never"] = list(self.never)
        if self.plan is not None:
            doc["plan"] = dict(self.plan)
        if self.buy:
            doc["buy"] = [{"card": r.card, **dict(r.conditions)} for r in self.buy]
        return doc

    def toml(self, description: str = "", comment: str = "") -> str:
        """The agent file, laid out like the archetypes ([[buy]] tables last); tomli_w writes the
        values (its own layout puts short tables inline, which reads worse)."""
        lines = [f"# {line}".rstrip() for line in comment.splitlines()]
        for key, value in self.document(description).items():
            if key == "buy":
                for rule in value:
                    lines += ["", "[[buy]]"] + [f"{k} = {_literal(v)}" for k, v in rule.items()]
            elif isinstance(value, dict):
                lines += ["", f"[{key}]"] + [f"{k} = {_literal(v)}" for k, v in value.items()]
            else:
                lines.append(f"{key} = {_literal(value)}")
        return "\n".join(lines).lstrip("\n") + "\n"

    def spec(self, name: str = "candidate") -> priority.PriorityList:
        """The plan read back through the agent-file parser, exactly as `hoc` reads the file."""
        return priority.parse(f"{name}.toml", self.toml())

    def params(self, ruleset: Ruleset) -> np.ndarray:
        return self.spec().params(ruleset)

    def size(self) -> int:
        """Rules, conditions and listed cards: what a reader has to take in."""
        return (len(self.buy) + sum(len(r.conditions) for r in self.buy) + len(self.prefer) + len(self.first)
                + len(self.gain) + len(self.lose))

    # ---- the continuous part ----------------------------------------------------------------

    def threshold_slots(self) -> list[tuple[str, int | None]]:
        """Where each threshold sits: (setting, None) or (condition kind, rule index)."""
        slots: list[tuple[str, int | None]] = [("min_coins", None), ("min_owned", None), ("set_min_sp", None)]
        if self.plan is not None:
            slots += [(f"plan.{k}", None) for k in PLAN_WEIGHTS]
            if dict(self.plan).get("second", 0) > 0:
                slots += [(f"plan.{k}", None) for k in SECOND_WEIGHTS]
        for i, r in enumerate(self.buy):
            slots += [(k, i) for k, _ in r.conditions if k in NUMERIC]
        return slots

    def thresholds(self) -> np.ndarray:
        values = []
        plan = dict(self.plan or ())
        for kind, i in self.threshold_slots():
            if kind.startswith("plan."):
                values.append(plan[kind[len("plan."):]])
            else:
                values.append(getattr(self, kind) if i is None else self.buy[i].condition(kind))
        return np.array(values, np.int64)

    def threshold_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        slots = self.threshold_slots()
        return (np.array([BOUNDS[k][0] for k, _ in slots], np.int64),
                np.array([BOUNDS[k][1] for k, _ in slots], np.int64))

    def with_thresholds(self, values) -> Plan:
        """The same structure with new thresholds (rounded and held within their bounds)."""
        lo, hi = self.threshold_bounds()
        values = np.clip(np.rint(np.asarray(values, float)), lo, hi).astype(np.int64).tolist()
        settings = {}
        plan = dict(self.plan or ())
        rules = [dict(r.conditions) for r in self.buy]
        for (kind, i), v in zip(self.threshold_slots(), values):
            if kind.startswith("plan."):
                plan[kind[len("plan."):]] = v
            elif i is None:
                settings[kind] = v
            else:
                rules[i][kind] = v
        buy = tuple(Rule(r.card, tuple(c.items())) for r, c in zip(self.buy, rules))
        if self.plan is not None:
            settings["plan"] = tuple(plan.items())
        return replace(self, buy=buy, **settings)

    def structure(self) -> Plan:
        """The plan with every threshold at its lower bound: plans with equal structures differ in
        thresholds only."""
        return self.with_thresholds(self.threshold_bounds()[0])


def _literal(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    return tomli_w.dumps({"v": value})[len("v = "):].rstrip("\n")


def from_spec(spec: priority.PriorityList) -> Plan:
    """The plan of a parsed agent file (its description is dropped)."""
    return Plan(buy=tuple(Rule(r["card"], tuple((k, v) for k, v in r.items() if k != "card")) for r in spec.buy),
                prefer=spec.prefer, min_coins=spec.min_coins, min_owned=spec.min_owned, set_min_sp=spec.set_min_sp,
                first=spec.first, keep=spec.keep, recall=spec.recall, abilities=spec.abilities, territories_only=spec.territories_only,
                accept_modes=spec.accept_modes, gain=spec.gain, lose=spec.lose, never=spec.never, plan=spec.plan)


def load(path) -> Plan:
    return from_spec(priority.parse(path))


def from_text(text: str, name: str = "plan") -> Plan:
    return from_spec(priority.parse(f"{name}.toml", text))


@dataclass(frozen=True)
class Universe:
    """The cards a plan may name in games of one ruleset: what can be bought (the basic market, the
    rares, the market's common kinds: all of them for random markets), what can be played first,
    the princesses of the pool, and `princess`: the one the plan must back first, if any."""

    ruleset: Ruleset
    princess: str | None = None
    banned: tuple[str, ...] = ()       # kinds or cards the plan may not buy nor pick to gain
    plan: bool = False                 # every plan plays with the turn planner (`hoc tune --plan`)
    second: bool = False               # every plan weighs its Second phase by the planner (`hoc tune --second`)

    @cached_property
    def banned_cards(self) -> frozenset[str]:
        db = self.ruleset.cards
        commons = db.pile_ids("common")
        return frozenset(db.name(c) for n in self.banned for c in (db.cards_of_pile(n) if n in commons else [db.index(n)]))

    @cached_property
    def buyable(self) -> tuple[str, ...]:
        db = self.ruleset.cards
        frame = db.frame
        basics = [n for n, cat, copies in zip(db.ids, frame.category, frame.copies)
                  if cat == "basic" and copies > 0 and n != "curse"]
        rares = [n for n, cat in zip(db.ids, frame.category) if cat == "rare"]
        _, kinds = self.ruleset.market_piles          # none for the basic market, all for random ones
        commons = [db.name(c) for k in kinds for c in db.cards_of_pile(k)]
        return tuple(n for n in basics + rares + commons if n not in self.banned_cards)

    @cached_property
    def offers(self) -> tuple[str, ...]:
        """Cards worth an `offered` condition: the rares and market cards (basic piles are always out
        until they run out, which `pile_at_most` reads); a banned card's presence still counts."""
        db = self.ruleset.cards
        _, kinds = self.ruleset.market_piles
        every = [n for n, cat in zip(db.ids, db.frame.category) if cat == "rare"] + \
            [db.name(c) for k in kinds for c in db.cards_of_pile(k)]
        return tuple(every)

    @cached_property
    def playable(self) -> tuple[str, ...]:
        """Actions (Territory-Actions included) a `first` list may name."""
        db = self.ruleset.cards
        return tuple(n for n in self.buyable if "action" in str(db.frame.types.iat[db.index(n)]).split("|"))

    @cached_property
    def losable(self) -> tuple[str, ...]:
        """Cards a `lose` list may name: the starting and calamity cards, then anything buyable."""
        return ("curse", "apprentice_maid", "farming_village") + tuple(n for n in self.buyable if n != "farming_village")

    @cached_property
    def princesses(self) -> tuple[str, ...]:
        return tuple(self.ruleset.cards.name(k) for k in self.ruleset.pool)
