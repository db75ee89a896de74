"""The decks of `--across built` that belong to one kind, not to a pair (`run`), searched once for
every pair of that kind.

Across seats under `--across built` a run of the pair (A, B) sets responses against the deck built
on A, the deck built on B and the baseline (the strongest deck that uses neither). In the `pair`
context those decks play only their kind and the basic supply, so the deck built on A is the same
question in every pair with A; so are the responses to it that use no kind of the pair, and the
responses to the baseline that may use A. Searched per pair they were ten searches a run, eight of
them asked again by the pair next to it (a full screen of Heart of Crown's 465 pairs about three
times as long as `--across offered`); searched per kind they are two a run: the responses to A's
deck that may use B, and to B's that may use A (`pair._Run.across_built`).

A run of a kind is keyed by (stage, kind, replicate), its market (the kind and nine others) and its
streams drawn from that key (`Settings.kind_market`, `Settings.kind_stream`), so it gives the same
decks wherever it is played and whichever pair asks first; a confirmation's replicate has decks of
its own, as its pairs have fresh markets. The baseline's run (kind "") comes first: a kind's run
searches the responses to the baseline that may use the kind. Its plans are points of its own
market's space; a pair reads them in its market's (`Layout.moved`).
"""
from __future__ import annotations

import time

from hoc.research.combos.design import Settings

BASELINE = ""                   # the kind of the baseline's run
DECK, RESPONSE, WITH_KIND, CHOICE = 9, 10, 11, 12       # streams of a run of a kind (`Settings.kind_stream`)


def needed(settings: Settings, tasks) -> list[tuple[str, str, int]]:
    """The runs of kinds (stage, kind, replicate) that the runs of pairs `tasks` read, the baselines
    first (a kind's run reads its baseline)."""
    if settings.across != "built":
        return []
    runs = {}
    for stage, a, b, r in tasks:
        if settings.parts(stage)[1]:
            runs[stage, BASELINE, r] = None
            for kind in settings.played(stage, a, b, r):
                runs[stage, kind, r] = None
    return sorted(runs, key=lambda t: t[1] != BASELINE)


def space(settings: Settings, market):
    """The plan space of a market, played as the screen's decks are (`--planner`)."""
    from hoc.agents.plan_space import space_of

    out = space_of(settings.ruleset(market))
    return out.thinking() if settings.planner else out


def run(settings: Settings, stage: str, kind: str, replicate: int, baseline: dict | None = None,
        backend=None) -> dict:
    """The decks of one kind (`kind` "": the baseline's), as points of the run's market's space:
    `deck`, the deck built on the kind (owning a copy, on average) or the baseline, against the
    yardstick; `responses`, the plans found against it that use no kind of the market; and, for a
    kind, `with_kind`, the plans found against the baseline (`baseline`, its run's row) that may use
    the kind. Responses are a search's best plans, from which each pair chooses with its own."""
    from hoc.research.combos.search import choose, deck_agent, search, yardstick
    from hoc.research.harness import Backend

    backend = backend or Backend()
    began = time.process_time()
    market = settings.kind_market(stage, kind, replicate)
    full = space(settings, market)
    ruleset = settings.ruleset(market)
    basic = full.without(market)
    mine = full.without(market[1:]) if kind else basic

    def stream(what: int) -> int:
        return settings.kind_stream(what, stage, kind, replicate)

    rival = yardstick(settings, full, market, ruleset)
    favour = [kind] if kind else []
    found = search(settings, mine, favour, rival, stream(DECK), backend, need=favour)
    deck = choose(settings, {"deck": mine}, {"deck": found}, rival, stream(CHOICE), backend, {"deck": ()},
                  {"deck": favour})["deck"][1]
    target = deck_agent(mine, deck, "deck", ruleset)
    row = {"stage": stage, "kind": kind, "replicate": replicate, "market": ",".join(market),
           "deck": deck.tolist(),
           "responses": search(settings, basic, [], target, stream(RESPONSE), backend).tolist()}
    if kind:
        base = space(settings, baseline["market"].split(","))
        rival = deck_agent(basic, basic.moved(baseline["deck"], base), "baseline", ruleset)
        row["with_kind"] = search(settings, mine, favour, rival, stream(WITH_KIND), backend).tolist()
    return {**row, "seconds": round(time.process_time() - began, 2)}


def of(settings: Settings, stage: str, kinds, replicate: int, decks: dict | None = None, backend=None) -> dict:
    """The rows of the baseline and `kinds` for (stage, replicate): from `decks` ((stage, kind,
    replicate) -> row), else played here (the same decks: a run of a kind depends on its key only)."""
    decks = dict(decks or {})
    for kind in (BASELINE, *kinds):
        if (stage, kind, replicate) not in decks:
            decks[stage, kind, replicate] = run(settings, stage, kind, replicate,
                                                decks.get((stage, BASELINE, replicate)), backend)
    return {k: decks[stage, k, replicate] for k in (BASELINE, *kinds)}
