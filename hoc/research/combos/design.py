"""What a combo screen studies and with what budget (`Settings`), the pairs, and the market each run
of a pair plays in.

A run of a pair is keyed by (stage, a, b, replicate); everything it draws (the eight other kinds of
its market, its searches' starts, its games' seeds) comes from the run's seed and that key, so a run
gives the same result wherever and whenever it is played: serially, on local workers, on a Dask
cluster, or after an interruption.
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

import numpy as np

from hoc.errors import HocError

SCREEN, CONFIRM = "screen", "confirm"
ACROSS = "confirm_across"       # `combined`: an across-seat follow-up (a same-seat one is CONFIRM)
CONTEXTS = ("pair", "market")
# what a condition's deck is: the strongest that may use its kinds ("offered": what offering them
# adds), or the strongest built on them, owning copies of each ("built": what they add to each other);
# "combined" reads the same seat as `built` and across seats on the decks `across` names (built
# measures no counter, and offered reads 0 for every pair no strong deck builds on, most of Heart of
# Crown's)
MEASURES = ("combined", "offered", "built")
# the decks the across-seat figure sets the responses against (`combined` only): the strongest that may
# use each kind ("offered"), or decks built on each kind, owning a copy ("built": a kind no strong deck
# uses still has a deck to counter, whose strength is read apart from the counter on the log-odds scale;
# the command's default with the `pair` context, `kind_decks`)
ACROSS_TARGETS = ("offered", "built")
# the knock-outs of the deck built on the pair (`built`, `combined`): the plan with its rules for the
# barred kinds idle ("idle"), or with the holes they leave filled by a card sweep ("repaired",
# `search.repaired`; `hoc combos`'s default for decks of more than one copy of each kind): a plan
# committed to the pair leaves to it what a deck without it needs, and an idle knock-out that never
# wins puts the log-odds prediction out of reach
KNOCKOUTS = ("repaired", "idle")
# settings a folder's identity leaves out at these values, so the folders of screens made before the
# settings existed still resume
LEFT_OUT = {"measure": "offered", "planner": False, "across": "offered", "copies": 1.0, "knockouts": "idle",
            "plans": 1}         # plans: the game's plan space's revision (`plan_space.revision`), not a field
BASIC = "basic"         # the yardstick named so: the plan space's best guess on the basic supply alone
FORMAT = 4              # of a screen's folder (its identity; 2: Heart of Crown's play-first gene; 3: the
                        # favouring start ranked by cost, `Layout.favouring`; 4: `--across built`'s decks
                        # of one kind searched once for all its pairs, `kind_decks`; how a game's plans
                        # play is its own, `plan_space.revision`)


def followed(pairs: int) -> int:
    """Pairs followed up per table by default: one in ten of the pairs screened (46 of Heart of
    Crown's 465), at least 6, and a third of a small screen's up to 15 (15 of 45). One in twenty left
    real effects unconfirmed: in Heart of Crown's full screen the pairs ranked 18th to 23rd were
    confirmed 5 times in 6, so the screen's ranking had not run dry at the cut. A small screen's
    ranking is one market per pair: among ten Dominion cards, where many pairs interact, the engines
    a guide names ranked 1st to 15th in four screens, and with 6 followed up one screen confirmed
    none of them."""
    return max(6, min(15, pairs // 3), pairs // 10)


# follow-up waves at most by default: a table's next `confirm` pairs are followed up unless its last
# wave showed the ranking ran dry (under half confirmed, beyond doubt: `analysis.ran_dry`). In Heart
# of Crown's full screen on the defaults the first wave confirmed 43 of 46 combos and 45 of 46 pairs
# weaker together, and a pair the guides name, confirmed in both screens of their seven kinds,
# ranked 61st: the ranking had not run dry at the cut. The second wave of both same-seat tables took
# 39 minutes on 2 cores (the full screen 153, within 3 hours), and a third would take as long again;
# a table whose first wave confirms clearly under half (the counters there, 11 of 46; any table on
# shuffled labels) costs nothing more.
WAVES = 2


def copies_for(game, measure: str) -> float:
    """Copies of each kind a deck built on the pair owns by default: the game's own (its plan space's
    `committed`, which says why); one under `offered`, whose decks are not built on the pair."""
    from hoc.agents.plan_space import committed

    return LEFT_OUT["copies"] if measure == "offered" else committed(game)


def knockouts_for(measure: str, copies: float) -> str:
    """The knock-outs by default: repaired where the deck built on the pair is committed to more than
    one copy of each kind (such a plan leaves to the pair what a deck without it needs, and its idle
    knock-outs win almost never), idle at one copy (its knock-outs keep their money, and the sweeps add
    only their own noise: on Heart of Crown's seven guide kinds a follow-up's replicates spread 6.8
    points, 2.9 with idle knock-outs) and where no deck is built on the pair."""
    return "repaired" if measure != "offered" and copies > 1 else LEFT_OUT["knockouts"]


def replicates_for(measure: str, knockouts: str) -> int:
    """Fresh markets per pair followed up by default: 8, twice that with repaired knock-outs, half under
    `offered` (whose decks vary less from market to market). A repaired deck and its knock-outs take
    their own paths in each market (Dominion's ten guide cards: a follow-up's replicates spread 12 to
    15 points, against 1 to 2 in Heart of Crown with idle ones): on eight, each engine a guide names
    was confirmed in one of two screens of fresh markets, on sixteen in both."""
    if measure == "offered":
        return 4
    return 16 if knockouts == "repaired" else 8


def measure_seeds_for(measure: str) -> int:
    """Fresh seeds per measurement by default: 1600 where a deck is built on the pair, 200 under
    `offered`. The interaction of a deck built on the pair and its three knock-outs nets four shares
    near each other, and on 200 seeds its games' own noise was most of what a follow-up's replicates
    spread in Heart of Crown (the median spread 2.9 points, one run's own error 2.4 to 2.7: the markets
    and searches vary little); 1600 seeds cut that error to under 1 point for about a third more of a
    follow-up's time (a screen's run, which searches more, no more within the machine's noise)."""
    return 200 if measure == "offered" else 1600


def has_planner(ruleset) -> bool:
    """Whether the game has a turn planner for the decks to play by (the default where it has)."""
    from hoc.agents.plan_space import space_of

    try:
        space_of(ruleset).thinking()
    except HocError:
        return False
    return True


def derive(seed: int, *key: int) -> int:
    """A 63-bit seed for a stream and key (non-negative integers)."""
    a, b = np.random.SeedSequence([seed, *key]).generate_state(2, np.uint32)
    return int((int(a) << 31) ^ int(b)) & (2 ** 63 - 1)


@dataclass(frozen=True)
class Settings:
    """Everything that determines a screen (a folder resumes only with equal settings)."""

    game: str                           # the games registry's name
    rules: tuple                        # the ruleset's other options as (name, value) pairs
    candidates: tuple[str, ...]         # every kind a market may offer (the other eight are drawn from them)
    kinds: tuple[str, ...]              # the kinds whose pairs are studied
    yardstick: str = ""                 # the reference agent ("": the first of the space's panel; built: BASIC)
    seed: int = 0
    iterations: int = 12                # of CMA-ES per condition
    batch: int = 10                     # plans per start per iteration (two starts)
    seeds: int = 12                     # seeds per plan in a search, each in every seat
    sigma: float = 0.2
    pick: int = 5                       # a search's best plans measured again to choose its deck
    pick_seeds: int = 48
    measure_seeds: int = 200            # fresh seeds for the four decks and the three matchups (`of`:
                                        # 1600 where a deck is built on the pair, `measure_seeds_for`)
    confirm: int = 6                    # pairs followed up per table (combos, same-seat negatives, across seats;
                                        # `of` without it: `followed(pairs)`)
    replicates: int = 4                 # fresh markets per pair followed up (`of`: `replicates_for`)
    waves: int = 1                      # follow-ups of `confirm` pairs a table, at most (`of`: `WAVES`; `deeper`)
    fdr: float = 0.10                   # the false-discovery rate among the confirmed pairs (BH over those followed up)
    context: str = "pair"               # the decks may use: the pair and the basic supply ("pair"), or the market
    measure: str = "offered"            # each condition's deck: the best that may use its kinds, or built on them
                                        # (`of`'s and `hoc combos`'s default is `combined`)
    planner: bool = False               # the decks play with the game's turn planner (`Space.thinking`)
    across: str = "offered"             # under `combined`, the decks the across-seat figure answers (ACROSS_TARGETS)
    # copies of each kind a deck built on the pair (or on one kind, across seats) owns at the end, on
    # average; `of` defaults to the game's own (its plan space's `committed`, which says why).
    # More asks how the kinds interact in a deck committed to them: the strongest deck owning one of
    # each is often the stronger kind's deck with a token copy of the other, where an engine's parts
    # (the card that gives actions and the terminals it lets play) cannot show what they add
    copies: float = 1.0
    knockouts: str = "idle"             # KNOCKOUTS; `of`: "repaired" at more than one copy
    shuffle: bool = False               # null check: each run plays a random pair, not the one it is labelled

    def __post_init__(self):
        for name, least in (("iterations", 1), ("batch", 2), ("seeds", 1), ("pick", 1), ("pick_seeds", 2),
                            ("measure_seeds", 2), ("confirm", 0), ("replicates", 2), ("waves", 1)):
            if getattr(self, name) < least:
                raise HocError(f"--{name.replace('_', '-')} must be at least {least}, got {getattr(self, name)}")
        if self.context not in CONTEXTS:
            raise HocError(f"--context must be one of {', '.join(CONTEXTS)}, got {self.context!r}")
        if self.measure not in MEASURES:
            raise HocError(f"--measure must be one of {', '.join(MEASURES)}, got {self.measure!r}")
        if self.across not in ACROSS_TARGETS:
            raise HocError(f"--across must be one of {', '.join(ACROSS_TARGETS)}, got {self.across!r}")
        if self.across != "offered" and self.measure != "combined":
            raise HocError(f"--across {self.across} needs --measure combined (offered sets its own decks against "
                           f"each other, built measures no across-seat figure)")
        if self.across == "built" and self.context != "pair":
            raise HocError("--across built needs --context pair (a deck built on one kind, searched once for "
                           "all its pairs, plays that kind and the basic supply, in any market)")
        if not 0 < self.copies <= 10:
            raise HocError(f"--copies must be above 0 and at most 10, got {self.copies:g}")
        if self.copies != 1 and self.measure == "offered":
            raise HocError("--copies sets the decks built on the pair: it needs --measure built or combined")
        if self.knockouts not in KNOCKOUTS:
            raise HocError(f"--knockouts must be one of {', '.join(KNOCKOUTS)}, got {self.knockouts!r}")
        if self.knockouts != "idle" and self.measure == "offered":
            raise HocError("--knockouts sets the knock-outs of the deck built on the pair: it needs --measure "
                           "built or combined")
        if not 0 < self.sigma <= 1:
            raise HocError(f"--sigma must be above 0 and at most 1, got {self.sigma}")
        if not 0 < self.fdr < 1:
            raise HocError(f"--fdr must be between 0 and 1, got {self.fdr}")
        if len(self.kinds) < 2:
            raise HocError(f"--kinds must name at least 2 kinds, got {len(self.kinds)}")
        if len(set(self.kinds)) != len(self.kinds):
            raise HocError(f"--kinds names a kind twice: {', '.join(self.kinds)}")
        if len(self.candidates) < 10:
            raise HocError(f"a market needs 10 kinds; these rules offer {len(self.candidates)}")

    @classmethod
    def of(cls, ruleset, kinds=None, **budget) -> "Settings":
        """The settings of a screen over `ruleset`'s markets (its market option apart), on `hoc combos`'s
        defaults: what `budget` leaves out or gives as None is resolved as the command resolves it
        (`measure` combined, `across` built with the `pair` context, the planner where the game has one,
        then `copies_for`, `knockouts_for`, `replicates_for`, `measure_seeds_for`, `followed` and `WAVES`); the
        dataclass's own defaults are a folder's older settings (`LEFT_OUT`)."""
        from hoc.names import did_you_mean

        random = dataclasses.replace(ruleset, market="random", market_with=())
        _, candidates = random.market_piles
        candidates = tuple(candidates)
        chosen = tuple(kinds) if kinds else candidates
        for k in chosen:
            if k not in candidates:
                raise HocError(f"--kinds: {k!r} is not a kind of {ruleset.game.title}'s markets"
                               f"{did_you_mean(k, list(candidates))}")
        rules = tuple((f.name, getattr(ruleset, f.name)) for f in dataclasses.fields(ruleset)
                      if f.init and f.name not in ("market", "market_with"))
        given = {k: v for k, v in budget.items() if v is not None}
        measure = given.setdefault("measure", "combined")
        context = given.setdefault("context", "pair")
        given.setdefault("across", "built" if measure == "combined" and context == "pair" else LEFT_OUT["across"])
        if "planner" not in given:
            given["planner"] = has_planner(random)
        given.setdefault("copies", copies_for(ruleset.game, measure))
        given.setdefault("knockouts", knockouts_for(measure, given["copies"]))
        given.setdefault("replicates", replicates_for(measure, given["knockouts"]))
        given.setdefault("measure_seeds", measure_seeds_for(measure))
        given.setdefault("confirm", followed(len(chosen) * (len(chosen) - 1) // 2))
        given.setdefault("waves", WAVES)
        return cls(ruleset.game.name, rules, candidates, chosen, **given)

    def ruleset(self, market=None):
        """The ruleset with this market (default: random)."""
        from hoc.games import get

        return get(self.game).ruleset(**dict(self.rules), market=tuple(market) if market else "random")

    def pairs(self) -> list[tuple[str, str]]:
        """Every pair of the studied kinds, in the order of `kinds`."""
        return list(itertools.combinations(self.kinds, 2))

    def identity(self) -> dict:
        from hoc.agents.plan_space import revision
        from hoc.games import get

        return {"format": FORMAT, **revision(get(self.game)),
                **{f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)
                   if f.name not in ("confirm", "replicates", "waves", "fdr") and LEFT_OUT.get(f.name, None) != getattr(self, f.name)}}

    def parts(self, stage: str) -> tuple[str | None, bool]:
        """What a run of `stage` measures: the measure of its same-seat figure (None: not measured) and
        whether it measures across seats. `combined` measures both in the screen; a pair it follows up
        runs only the family that chose it (CONFIRM the same seat, ACROSS across seats), in markets of
        its own."""
        if self.measure == "offered":
            return "offered", True
        if self.measure == "built":
            return "built", False
        return ("built" if stage != ACROSS else None), stage != CONFIRM

    def follow_ups(self, chosen: dict) -> list[tuple[str, str, str, int]]:
        """The confirmation's runs (stage, a, b, replicate) of the pairs each family chose
        (`analysis.followed_up_by_family`): one run serves both families unless `combined`, whose
        families are measured apart."""
        if self.measure == "combined":
            stages = [(CONFIRM, p) for p in chosen["same"]] + [(ACROSS, p) for p in chosen["across"]]
        else:
            stages = [(CONFIRM, p) for p in dict.fromkeys(chosen["same"] + chosen["across"])]
        return [(stage, a, b, r) for stage, (a, b) in stages for r in range(self.replicates)]

    def most_follow_ups(self) -> int:
        """The most runs the confirmation can take (`follow_ups` of the fullest tables): so a screen's
        progress says, while it screens, how much follows it."""
        pairs, depth = len(self.pairs()), self.confirm * self.waves
        same = min(pairs, 2 * depth)                        # the highest and the lowest
        across = 0 if self.measure == "built" else min(pairs, depth)
        return (same + across if self.measure == "combined" else min(pairs, same + across)) * self.replicates

    def played(self, stage: str, a: str, b: str, replicate: int) -> tuple[str, str]:
        """The pair a run labelled (a, b) plays: itself, or under `shuffle` a random pair of the kinds."""
        if not self.shuffle:
            return a, b
        rng = np.random.default_rng(derive(self.seed, 7, *self._key(stage, a, b, replicate)))
        i, j = rng.choice(len(self.kinds), 2, replace=False)
        return self.kinds[int(i)], self.kinds[int(j)]

    def market(self, stage: str, a: str, b: str, replicate: int) -> tuple[str, ...]:
        """The market of a run: the pair and eight other kinds drawn from the candidates."""
        others = [k for k in self.candidates if k not in (a, b)]
        rng = np.random.default_rng(derive(self.seed, 1, *self._key(stage, a, b, replicate)))
        rest = [others[int(i)] for i in rng.choice(len(others), 8, replace=False)]
        return (a, b, *rest)

    def stream(self, what: int, stage: str, a: str, b: str, replicate: int, *more: int) -> int:
        return derive(self.seed, what, *self._key(stage, a, b, replicate), *more)

    def kind_market(self, stage: str, kind: str, replicate: int) -> tuple[str, ...]:
        """The market of a run of one kind's decks (`kind_decks`; "" the baseline's): the kind and nine
        other kinds drawn from the candidates (ten for the baseline)."""
        others = [k for k in self.candidates if k != kind]
        rng = np.random.default_rng(self.kind_stream(1, stage, kind, replicate))
        rest = [others[int(i)] for i in rng.choice(len(others), 10 - bool(kind), replace=False)]
        return (kind, *rest) if kind else tuple(rest)

    def kind_stream(self, what: int, stage: str, kind: str, replicate: int) -> int:
        """A stream of a run of one kind's decks, keyed apart from every pair's (three numbers, not four)."""
        i = self.candidates.index(kind) if kind else len(self.candidates)
        return derive(self.seed, what, (SCREEN, CONFIRM, ACROSS).index(stage), i, replicate)

    def _key(self, stage: str, a: str, b: str, replicate: int) -> tuple[int, ...]:
        i, j = self.candidates.index(a), self.candidates.index(b)
        return ((SCREEN, CONFIRM, ACROSS).index(stage), min(i, j), max(i, j), replicate)


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
