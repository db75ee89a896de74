"""One run of a pair (`run`): its market, the decks searched for it, and their measurements on fresh
common seeds.

Same seat: four decks, each the best found that may use both kinds, A only, B only or neither
(under the `pair` context only those kinds of the market and the basic supply; under `market` every
kind the condition does not bar), all against the yardstick; the interaction is
`v(both) - v(A) - v(B) + v(neither)`.

Under the `built` measure the four decks are one deck built on the pair and its knock-outs: the
strongest plan found that owns at least `Settings.copies` copies of each kind at the end, on average (a plan
short of that counts `SHORT` of a share less per copy missing), played as it is, without B, without
A and without either (the plan read in each condition's space: its rules for a barred kind idle,
the rest buy in their place). The four play the baseline, the strongest deck found that uses
neither kind. Under `--knockouts repaired` (the command's default above one copy) the deck and
each knock-out are first swept card by card (`search.repaired`), so that a knock-out gets back
what the plan had left to the barred kind (a Treasure whose place the pair's money took). The
interaction is what the kinds add to each other in a deck built on them (does losing B cost more
when A is there?), whether or not that deck is the best the market offers: a player's combo of two
cards each weak alone can read positive here, and reads 0 under `offered`, where no deck builds on
them. It is read on the log-odds scale (`beyond_log_odds`; the share-scale
figure is kept as `same_additive`), because decks built on weak kinds sit far below one half, where
shares cannot add. Why so (each the fix of a first attempt, docs/combos.md):
- one plan, not four searches: decks searched apart under a rule to own weak cards differed by the
  searches' luck (and degenerated where the rule was hard to meet) far more than by the pair;
- the baseline, not the skeleton (some plans cannot play to an end against their own copy) nor a
  yardstick that plays the whole market (shares near 0, where a deck made worse cannot show it);
- the searches play the basic deck (`BASIC`: the plan space's best guess on the basic supply alone)
  unless a yardstick is given: against one that plays the whole market, every deck of a pair lost
  nearly every game on markets with strong kinds, and the searches could not tell plans apart;
- no across-seat figures (`None`): variants of one plan against each other play near one half,
  where a share moves most for a change in strength, and against the baseline far from it, so their
  difference measured the scale, not a counter (a trial "confirmed" a counter each way round).

Under `combined` (the command's default) a run measures the same seat as `built` does (the same
streams: the same figures) and across seats on the decks `Settings.across` names (`across_*` fields,
streams of their own); a pair followed up runs only the family that chose it (`Settings.parts`).
With `--across built` (the command's default in the `pair` context) they are decks built on each
kind (`_Run.across_built`): the deck owning a copy of A, of B and neither, searched once per kind
(`kind_decks`), and the responses to each that may use the other kind or not. With `--across
offered` they are the strongest decks that may use A only, B only and neither, searched apart for
the run; there a kind no strong deck uses reads no counter at all (most of Heart of Crown's), where
a player's guide still names one (a card that answers an attack built on).

Across seats under `--across offered`, for each kind whose deck uses it (A's deck: the A-only deck,
when it is not the neither deck): the best response to that deck that may use the other kind B, and the best that may
not; how much more B helps against A's deck than it helps against the yardstick,
`[r_B(A) - r_0(A)] - [v(B) - v(neither)]`, is B's counter to A. The figure reported for A's deck is
its negative (negative: B counters A), so that counters come out negative as in the same seat.
"""
from __future__ import annotations

import math

import numpy as np

from hoc.research.combos.design import BASIC, Settings
from hoc.research.combos.search import (INNER, best, choose, deck_agent, kind_ids, measured, repaired, same_plan,
                                        search, yardstick)

CONDITIONS = ("both", "a", "b", "neither")
SEARCH, PICK, MEASURE, RESPONSE, BOOTSTRAP = 2, 3, 4, 5, 6      # streams of a run's seeds
ACROSS_SEARCH, ACROSS_MEASURE = 7, 8          # `combined`: the across-seat decks' own searches and seeds
REPAIR = 9                                    # the sweeps that fill a knock-out's hole (`--knockouts repaired`)


def run(settings: Settings, stage: str, a: str, b: str, replicate: int, backend=None, decks=None) -> dict:
    """The figures of one run of the pair labelled (a, b): per condition its deck's share against the
    yardstick (`v_*`), its copies of the pair's kinds (`owns_*`) and plan file (`plan_*`); the
    same-seat interaction and the two across-seat figures (`cross_a`: A's deck against responses
    that may use B; `cross_b` the other way), each with its standard error over seeds, or None where
    the run does not measure it (`Settings.parts`). `decks`: the rows of `kind_decks` it reads under
    `--across built`, else played here."""
    from hoc.agents.plan_space import space_of
    from hoc.research.harness import Backend

    backend = backend or Backend()
    key = (stage, a, b, replicate)
    pa, pb = settings.played(*key)
    market = settings.market(stage, pa, pb, replicate)
    ruleset = settings.ruleset(market)
    space = space_of(ruleset)
    if settings.planner:
        space = space.thinking()
    base = space.without(market[2:]) if settings.context == "pair" else space
    spaces = {"both": base, "a": base.without([pb]), "b": base.without([pa]), "neither": base.without([pa, pb])}
    favour = {"both": [pa, pb], "a": [pa], "b": [pb], "neither": []}
    same_by, across = settings.parts(stage)
    row = {"stage": stage, "a": a, "b": b, "replicate": replicate, "played_a": pa, "played_b": pb,
           "market": ",".join(market), "context": settings.context, "measure": settings.measure,
           "same": None, "same_se": None}
    run = _Run(settings, key, market, ruleset, space, spaces, favour, backend)
    offered = None                  # (decks, shares) of the strongest decks that may use each condition's kinds
    if same_by == "built":
        row.update(run.built())
    elif same_by == "offered":
        *offered, fields = run.offered(CONDITIONS, SEARCH, MEASURE)
        row.update(fields)
    if across and settings.across == "built":
        row.update(run.across_built(decks))
    elif across:
        if offered is None:         # the across-seat decks searched apart (`combined`): no `both` deck needed
            *offered, fields = run.offered(("a", "b", "neither"), ACROSS_SEARCH, ACROSS_MEASURE)
            row.update(fields)
        row.update(run.across(*offered))
    else:
        for side in ("a", "b"):                 # not measured: see the docstring
            row[f"cross_{side}"] = row[f"cross_{side}_se"] = None
    return row


class _Run:
    """One run's market, spaces and streams, and its two measures (`built`, `offered`) and the
    across-seat figures."""

    def __init__(self, settings, key, market, ruleset, space, spaces, favour, backend):
        self.settings, self.key, self.market, self.ruleset = settings, key, market, ruleset
        self.space, self.spaces, self.favour, self.backend = space, spaces, favour, backend
        self.label = f"{key[1]} + {key[2]} ({key[0]} {key[3]}), market {','.join(market)}"

    def yardstick(self, default: str):
        return yardstick(self.settings, self.space, self.market, self.ruleset, default)

    def built(self) -> dict:
        """The same-seat figure of one deck built on the pair and its knock-outs against the baseline."""
        s, key, spaces = self.settings, self.key, self.spaces
        yardstick = self.yardstick(BASIC)
        searched = best(s, spaces, self.favour, ("both", "neither"), yardstick, s.stream(SEARCH, *key), self.backend,
                        inner={"both": (), "neither": ()}, need=self.favour)
        decks = {c: (spaces[c], searched["both"][1]) for c in CONDITIONS}     # the deck and its knock-outs
        reference = deck_agent(*searched["neither"], "baseline", self.ruleset)
        shares, out = self._play(decks, ("both",), reference, MEASURE)
        if s.knockouts == "repaired" and out["owns_a_both"] > 0 and out["owns_b_both"] > 0:
            # the deck itself is swept as its knock-outs are (a hole filled there with a card the deck with
            # both lacks too would read as the kinds' interaction); a deck that never buys one kind keeps its
            # knock-outs as they are, so that its figure is exactly 0
            pa, pb = self.market[:2]
            keep = {"both": [pa, pb], "a": [pa], "b": [pb], "neither": []}
            decks = {c: (spaces[c], repaired(s, spaces[c], decks[c][1], keep[c], yardstick, s.stream(REPAIR, *key, k),
                                             self.backend)) for k, c in enumerate(CONDITIONS)}
            shares, out = {}, {}
        more, fields = self._play(decks, [c for c in CONDITIONS if c not in shares], reference, MEASURE)
        shares.update(more)
        out.update(fields)
        same = shares["both"] - shares["a"] - shares["b"] + shares["neither"]
        rng = np.random.default_rng(s.stream(BOOTSTRAP, *key))
        out["same"], out["same_se"] = beyond_log_odds([shares[c] for c in CONDITIONS], self.ruleset.players, rng)
        out["same_additive"], out["same_additive_se"] = float(same.mean()), _se(same)
        out["yardstick"], out["reference"] = yardstick.name, reference.name
        out["plan_reference"] = searched["neither"][0].text(searched["neither"][1],
                                                            f"hoc combos: the baseline deck of {self.label}")
        return out

    def offered(self, conditions, search_stream: int, measure_stream: int) -> tuple[dict, dict, dict]:
        """Each condition's deck, the strongest found that may use its kinds, against the yardstick; its
        shares per seed; and the row's fields (with `both` among the conditions, the same-seat
        interaction)."""
        s, key = self.settings, self.key
        yardstick = self.yardstick(self.space.panel()[0])
        decks = best(s, self.spaces, self.favour, conditions, yardstick, s.stream(search_stream, *key), self.backend)
        shares, out = self._play(decks, conditions, yardstick, measure_stream)
        if "both" in conditions:
            same = shares["both"] - shares["a"] - shares["b"] + shares["neither"]
            out["same"], out["same_se"] = float(same.mean()), _se(same)
            out["yardstick"] = out["reference"] = yardstick.name
        else:
            out = {f"across_{k}": v for k, v in out.items()}      # apart from the same-seat decks' fields
            out["across_yardstick"] = yardstick.name
        return decks, shares, out

    def _play(self, decks: dict, conditions, reference, stream: int) -> tuple[dict, dict]:
        """Each deck against `reference` on the run's fresh seeds: its shares per seed, and its row
        fields (share, copies of the pair's kinds, plan file)."""
        s = self.settings
        ids = kind_ids(self.space, self.market[:2])      # the pair played
        shares, out = {}, {}
        for c in conditions:
            m = measured(s, decks[c], reference, s.stream(stream, *self.key), self.backend)
            shares[c] = m.shares[0, 0]                               # per seed, seats averaged
            out[f"v_{c}"] = float(shares[c].mean())
            out[f"owns_a_{c}"], out[f"owns_b_{c}"] = [float(m.copies[0, k].sum()) for k in ids]
            out[f"plan_{c}"] = decks[c][0].text(decks[c][1], f"hoc combos: the {c} deck of {self.label}")
        return shares, out

    def across(self, decks: dict, shares: dict) -> dict:
        """A's deck against the best responses that may use B and that may not, and B's likewise
        (`offered`'s decks: each kind's deck is the strongest that may use it)."""
        s, key, spaces = self.settings, self.key, self.spaces
        pa, pb = self.market[:2]
        out = {}
        for side, deck, other, usefulness in (("a", "a", "b", shares["b"] - shares["neither"]),
                                              ("b", "b", "a", shares["a"] - shares["neither"])):
            if same_plan(decks[deck], decks["neither"]):
                out[f"cross_{side}"], out[f"cross_{side}_se"] = 0.0, 0.0     # the kind's deck does without it
                continue
            target = deck_agent(*decks[deck], f"{deck}_deck", self.ruleset)
            # responses may use the other kind or not, never the deck's own kind (that would be the mirror)
            answer = {"with": spaces[other], "without": spaces["neither"]}
            # each response search starts from the deck of its condition against the yardstick (and keeps it
            # among its plans), so a kind that helps against the yardstick is not lost to a search's luck
            found = best(s, answer, {"with": [pb if other == "b" else pa], "without": []}, ("with", "without"),
                         target, s.stream(RESPONSE, *key, ord(side)), self.backend,
                         inner={"without": (), "with": ("without",)},
                         starts={"with": decks[other][1], "without": decks["neither"][1]})
            r = {k: measured(s, found[k], target, s.stream(MEASURE, *key, ord(side)), self.backend).shares[0, 0]
                 for k in found}
            counter = (r["with"] - r["without"]) - usefulness    # how much more the kind helps against this deck
            out[f"cross_{side}"], out[f"cross_{side}_se"] = 0.0 - float(counter.mean()), _se(counter)
        return out

    def across_built(self, decks: dict | None) -> dict:
        """Across seats between decks built on each kind (`--across built`): the deck built on A (owning
        a copy), on B, and the baseline (the strongest that uses neither), each searched once for every
        pair of its kind (`kind_decks`; `decks` their rows, else played here); the best responses to
        each that may use the other kind and that may not. B's counter to A is how much more B helps
        the responses against A's deck than against the baseline, on the log-odds scale
        (`beyond_log_odds` of r_B(A), r_0(A), r_B(baseline), r_0(baseline), all on the same seeds), so
        a deck built on a weak kind, which every response beats, reads no counter for it."""
        from hoc.research.combos import kind_decks

        s, key, spaces = self.settings, self.key, self.spaces
        pa, pb = self.market[:2]
        rows = kind_decks.of(s, key[0], (pa, pb), key[3], decks, self.backend)
        read = {t: (kind_decks.space(s, rows[k]["market"].split(",")), rows[k])    # (its space, its row)
                for t, k in (("a", pa), ("b", pb), ("neither", kind_decks.BASELINE))}

        def moved(field, t, condition):           # the kind's run's plans as points of this market's
            source, row = read[t]
            return np.array([spaces[condition].moved(x, source) for x in np.atleast_2d(row[field])])

        built = {t: (spaces[t], moved("deck", t, t)[0]) for t in ("a", "b", "neither")}
        ids = kind_ids(self.space, (pa, pb))
        seeds = s.stream(ACROSS_MEASURE, *key)                  # every matchup below on the same seeds
        out = {"across_yardstick": self.yardstick(BASIC).name}
        shares = {}                                             # (response, target) -> per seed
        for t in ("a", "b", "neither"):
            target = deck_agent(*built[t], f"{t}_deck", self.ruleset)
            out[f"across_plan_{t}"] = built[t][0].text(built[t][1], f"hoc combos: the deck built on {t} of {self.label}")
            # the responses may use the other kind or not, never the target's own kind (that were the mirror)
            if t == "neither":
                found = {"a": moved("with_kind", "a", "a"), "b": moved("with_kind", "b", "b")}
            else:
                other = "b" if t == "a" else "a"
                found = {other: search(s, spaces[other], self.favour[other], target,
                                       s.stream(RESPONSE, *key, ord(t[0])), self.backend)}
            found["neither"] = moved("responses", t, "neither")
            inner = {c: INNER[c] for c in found}
            chosen = choose(s, spaces, found, target, s.stream(RESPONSE, *key, ord(t[0]), 1), self.backend, inner)
            for c in found:
                m = measured(s, chosen[c], target, seeds, self.backend)
                shares[c, t] = m.shares[0, 0]
                out[f"across_r_{c}_{t}"] = float(shares[c, t].mean())
                out[f"across_owns_a_{c}_{t}"], out[f"across_owns_b_{c}_{t}"] = [float(m.copies[0, k].sum())
                                                                                for k in ids]
        rng = np.random.default_rng(s.stream(BOOTSTRAP, *key, 1))
        for side, deck, other in (("a", "a", "b"), ("b", "b", "a")):
            if same_plan(built[deck], built["neither"]):
                out[f"cross_{side}"], out[f"cross_{side}_se"] = 0.0, 0.0     # no deck owns the kind
                continue
            counter, se = beyond_log_odds([shares[other, deck], shares["neither", deck], shares[other, "neither"],
                                           shares["neither", "neither"]], self.ruleset.players, rng)
            out[f"cross_{side}"], out[f"cross_{side}_se"] = 0.0 - counter, se    # negative: the other kind counters
        return out


def beyond_log_odds(shares, games_per_seed: int, rng, boots: int = 400) -> tuple[float, float]:
    """How much better the deck with both kinds does than its knock-outs predict when the kinds'
    effects add on the log-odds scale (Bradley-Terry's, where independent strengths add):
    `v(both) - expit(logit v(A) + logit v(B) - logit v(neither))`, in shares of the wins, and its
    standard error by resampling the common seeds. `shares`: per seed, the shares of the deck with
    both, A only, B only and neither. On the share scale itself two kinds that each cost a deck half
    its chances against the baseline (0.5 to 0.25) leave it 0.1 with both, and
    `0.1 - 0.25 - 0.25 + 0.5` reads as a combo of +10 points where nothing interacts."""
    both, a, b, neither = (np.asarray(x, float) for x in shares)

    def beyond(idx):
        n = len(idx) * games_per_seed
        # half a win added and one game, so that a deck that never (or always) wins has a finite logit
        p = [(x[idx].mean() * n + 0.5) / (n + 1) for x in (both, a, b, neither)]
        lo = math.log(p[1] / (1 - p[1])) + math.log(p[2] / (1 - p[2])) - math.log(p[3] / (1 - p[3]))
        return float(both[idx].mean() - 1 / (1 + math.exp(-lo)))

    every = np.arange(len(both))
    if (np.array_equal(both, a) and np.array_equal(b, neither)) or (np.array_equal(both, b) and np.array_equal(a, neither)):
        return 0.0, 0.0                     # the deck does without one kind: nothing to measure
    draws = [beyond(rng.integers(0, len(both), len(both))) for _ in range(boots)]
    return beyond(every), float(np.std(draws, ddof=1))


def _se(per_seed: np.ndarray) -> float:
    n = len(per_seed)
    return float(per_seed.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
