"""The atlas's polish: the best families the search found, tuned before every elite is measured again.

Why a second stage: ribs's emitters restart from a random elite whenever a batch adds nothing to the
archive, and once every cell holds the luckiest of many noisy measurements that is about every other
iteration (75 restarts in 150 iterations of the climbing emitter on Dominion's First Game, --seed
1), so no emitter climbs for long. Five seeds of that atlas found the same family on top at 59.8%
to 86.5% against the panel (79.5% to 86.5% with the polish): the search finds families; it does not
finish them.

So the polish takes the best elite, then the best elite owning each kind (a family of the market),
strongest first, up to `Settings.polish` starts, chosen on a fresh measurement of every elite (the
archive's own figures are each the maximum of several noisy ones). An atlas that maps a kind by its
copies (an `owns:KIND` descriptor: a kind's archetype value, `hoc.research.atlas.value`, plays the
best deck owning it against the best without it) first polishes both sides, each held on its side:
the best owner with the kind's open gates kept open, the best deck without it with the kind's gates
kept shut. Polished on the owners' side alone (the best elite is often an owner), a strong kind's
value measured the polish (the strongest kind's read +40.9 points, +12.6 before the polish);
polished from the best deck without it but free to buy it, that deck's plan moved to an owner's
cell and the deck without stayed unpolished (+38.8). From each start it runs a local
search on common seeds: `SWEEPS` rounds of the card sweep (`sweep`: whole cards in or out), then
CMA-ES (`cma`) ranked by fitness alone for `Settings.polish_iterations` iterations, each plan on
`POLISH_GAMES` games at least. Each start's best plans by the polish's own estimates, and the
start, are then chosen among on seeds neither saw; a chosen plan takes its cell when it beats the
cell's elite on those same seeds. The re-measurement that follows (`search.remeasure`) gives every
figure, on seeds no stage used.

Every step is drawn from (seed, stream, step), and the state is checkpointed with the search after
each step, so the polish is the same serially, with --jobs and after an interruption.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hoc.agents.plan_space import OWNER
from hoc.research.atlas.measure import measure
from hoc.research.atlas.search import derive

POLISH, CHOICE, STRATEGY = 6, 7, 8      # seed streams (search.py's are 0 to 5)
SWEEPS = 2                  # rounds of the card sweep from each start before CMA-ES
SIGMA = 0.1                 # CMA-ES's first step, in the space's [0, 1] units: local, below the search's 0.15
CANDIDATES = 4              # a start's best plans by the polish's own estimates that go to the choice
# games a plan plays at least (its seeds x panel members x seats): the polish ranks close plans, and
# Heart of Crown's one-member panel at the search's 16 seeds gave 32 games a plan, where the polish
# moved by noise (its market 1 on --seed 1: the best elite 51.0% after a polish at 32 games a plan,
# 60.5% at 160); 160 is what Dominion's five bots give at 16 seeds
POLISH_GAMES = 160
CHOICE_GAMES = 480          # and a plan of the choice, against its cell's elite
LEAST_OWNED = 1.0           # mean copies at the end: an elite that owns a kind (a start of its family)


@dataclass
class Polish:
    """The polish under way: its starts (points), the CMA-ES of each, every plan each start's search
    measured with its estimate, the iterations done, and at the end the plans chosen (cell index ->
    (point, fitness on the choice's seeds, descriptors))."""

    starts: list
    strategies: list
    seen: list
    estimates: list
    iteration: int = 0
    chosen: dict | None = None
    held: list | None = None        # per start, the (card index, gate value) pairs its plans keep (`starts`)

    def holds(self) -> list:
        """What each start holds (nothing for a polish saved before starts held anything)."""
        return self.held or [()] * len(self.starts)


def seeds_for(settings, games: int) -> int:
    """Seeds per panel member for `games` games a plan at least (never fewer than the search's)."""
    per_seed = len(settings.panel) * settings.space.ruleset.players
    return max(settings.seeds, -(-games // per_seed))


def games_of(settings, plans: int, games: int = POLISH_GAMES) -> int:
    return plans * len(settings.panel) * seeds_for(settings, games) * settings.space.ruleset.players


def expected(settings, elites: int) -> int:
    """The games of a whole polish from an archive of `elites` elites (its starts at their most)."""
    if not settings.polish:
        return 0
    starts = min(settings.polish, elites)
    per_start = SWEEPS * (1 + len(settings.space.cards)) + settings.polish_iterations * settings.batch
    return games_of(settings, elites + starts * per_start) + games_of(settings, starts * (2 + CANDIDATES), CHOICE_GAMES)


def starts(settings, search, backend) -> tuple[list[np.ndarray], list[tuple]]:
    """The polish's starts and what each holds: for each kind the atlas maps by its copies (an
    `owns:KIND` descriptor), the best elite owning half a copy or more (`OWNER`) holding the
    kind's open gates open, and the best owning less holding its gates shut; then the best elite, and
    the best elite owning each kind (`LEAST_OWNED` copies at the end), those families strongest
    first; up to `settings.polish`, every elite measured once more on fresh seeds. A start's held
    gates are set in its point: (points, per start the (card index, gate value) pairs it holds)."""
    from hoc.agents.plan_space import OWNS
    from hoc.research.atlas.sweep import OFF, ON

    space = settings.space
    xs = _inside(space, search.archive.data()["solution"])
    m = measure(space, xs, settings.panel, derive(settings.seed, POLISH, 0), seeds_for(settings, POLISH_GAMES), 0,
                backend, settings.descriptors)
    _count(search, settings, len(xs))
    order = [int(i) for i in np.argsort(-m.fitness, kind="stable")]
    gate = lambda i, c: xs[i][c * space.per_card + space.gate]      # noqa: E731
    sides = []                                  # (elite, held) of the mapped kinds' two sides
    for name in settings.descriptors:
        if name.startswith(OWNS):
            kind = name[len(OWNS):]
            slots, copies = space.slots([kind]), m.copies[:, space.kinds[kind]].sum(1)
            owner = next((i for i in order if copies[i] >= OWNER), None)
            without = next((i for i in order if copies[i] < OWNER), None)
            if owner is not None:
                sides.append((owner, tuple((c, ON) for c in slots if gate(owner, c) >= 0.5)))
            if without is not None:
                sides.append((without, tuple((c, OFF) for c in slots)))
    family = [order[0]]
    for ids in space.kinds.values():
        owners = [i for i in order if m.copies[i, ids].sum() >= LEAST_OWNED]
        if owners and owners[0] not in family:
            family.append(owners[0])
    # an owner polished holding its kind's gates is not polished again free; a deck without the kind
    # is (free, it is the atlas's best elite or a family's, which may come to own it)
    owning = {i for i, held in sides if all(value == ON for _, value in held)}
    chosen = sides + [(i, ()) for i in sorted(family, key=lambda i: (-m.fitness[i], i)) if i not in owning]
    chosen = list(dict.fromkeys(chosen))[:settings.polish]
    return [_held(xs[i], space, held) for i, held in chosen], [held for _, held in chosen]


def begin(settings, search, backend):
    """The polish's starts, each swept `SWEEPS` rounds (its held cards fixed), and a CMA-ES from each."""
    from hoc.research.atlas import climb
    from hoc.research.atlas.sweep import flips, sweep

    space = settings.space
    points, held = starts(settings, search, backend)
    fixed = [tuple(c for c, _ in h) for h in held]
    seen = [[x] for x in points]
    estimates = [[-np.inf] for _ in points]         # a start is chosen among on the choice's seeds only
    moved = list(points)
    for r in range(SWEEPS):
        moved, xs, m = sweep(space, moved, settings.panel, derive(settings.seed, POLISH, 1 + r),
                             seeds_for(settings, POLISH_GAMES), backend, settings.descriptors, fixed)
        _count(search, settings, len(xs))
        at = 0
        for k, f in enumerate(fixed):               # each start, then its flips (fewer where it holds cards)
            block = 1 + len(flips(space, points[k], f))
            seen[k].extend(xs[at:at + block])
            estimates[k].extend(m.fitness[at:at + block])
            at += block
    strategies = climb.strategies(space, moved, SIGMA, settings.batch,
                                  [1 + derive(settings.seed, STRATEGY, k) % (2 ** 31 - 2) for k in range(len(moved))])
    return Polish(points, strategies, seen, estimates, held=held)


def step(settings, search, backend) -> None:
    """One iteration of every start's CMA-ES, all on the same seeds."""
    from hoc.research.atlas import climb

    space, p = settings.space, search.polish
    asked, xs = climb.ask(space, p.strategies, p.starts)
    per_plan = [h for h, batch in zip(p.holds(), asked) for _ in batch]
    xs = np.array([_held(x, space, h) for x, h in zip(xs, per_plan)])     # a start's held gates stay (`starts`)
    m = measure(space, xs, settings.panel, derive(settings.seed, POLISH, 100 + p.iteration),
                seeds_for(settings, POLISH_GAMES), 0, backend, settings.descriptors)
    _count(search, settings, len(xs))
    climb.tell(p.strategies, asked, m.fitness)
    at = 0
    for k, batch in enumerate(asked):
        p.seen[k].extend(xs[at:at + len(batch)])
        p.estimates[k].extend(m.fitness[at:at + len(batch)])
        at += len(batch)
    p.iteration += 1


def choose(settings, search, backend) -> dict:
    """Each start's plan: the start or one of its `CANDIDATES` best by the polish's estimates, the best
    on the choice's seeds; it takes its cell when it beats the cell's elite on the same seeds, or, for
    a start held on one side of a kind mapped by its copies, when the cell's elite measured there owns
    the kind on the other side (a cell wanted by two starts goes to the better). Cell index -> (point,
    fitness there, descriptors).

    Why the second rule: an elite took its cell on one noisy measurement of its copies, and one that
    buys the kind now and then sits among the decks without it; the best deck without a strong kind,
    polished (35.8% to 39.0% against the panel), lost its cell to such an elite (42%, owning 0.64
    copies when measured again), and the head to head then played an unpolished deck without it."""
    space, p, archive = settings.space, search.polish, search.archive
    blocks = []
    for seen, est in zip(p.seen, p.estimates):
        plans, block = set(), []
        for i in [0, *np.argsort(-np.asarray(est), kind="stable")]:    # the start first, then the best distinct plans
            kind, row = space.row(seen[i])
            if (kind, row.tobytes()) not in plans:
                plans.add((kind, row.tobytes()))
                block.append(seen[i])
            if len(block) > CANDIDATES:
                break
        blocks.append(block)
    xs = np.array([x for b in blocks for x in b])
    master, seeds = derive(settings.seed, CHOICE), seeds_for(settings, CHOICE_GAMES)
    m = measure(space, xs, settings.panel, master, seeds, 0, backend, settings.descriptors)
    _count(search, settings, len(xs), CHOICE_GAMES)
    best, start_of, at = [], {}, 0
    for k, b in enumerate(blocks):
        i = at + int(np.argmax(m.fitness[at:at + len(b)]))
        if i != at:                                  # the start itself keeps its cell as it is
            best.append(i)
            start_of[i] = k
        at += len(b)
    if not best:
        return {}
    cells = archive.index_of(m.descriptors[best])
    data = archive.data()
    held = {int(c): np.asarray(s, float) for c, s in zip(data["index"], data["solution"])}
    occupied = sorted({int(c) for c in cells if int(c) in held})
    beat, where = {}, {}
    if occupied:
        o = measure(space, _inside(space, [held[c] for c in occupied]), settings.panel, master, seeds, 0,
                    backend, settings.descriptors)         # the same seeds: the same deals
        _count(search, settings, len(occupied), CHOICE_GAMES)
        beat, where = dict(zip(occupied, o.fitness)), dict(zip(occupied, o.descriptors))
    chosen = {}
    for i, c in zip(best, (int(c) for c in cells)):
        f = float(m.fitness[i])
        side = _side(settings, p.holds()[start_of[i]])
        astray = side is not None and c in where and (where[c][side[0]] >= OWNER) != side[1]
        if (f > beat.get(c, -np.inf) or astray) and f > chosen.get(c, (None, -np.inf))[1]:
            chosen[c] = (xs[i], f, m.descriptors[i])
    return chosen


def _side(settings, held) -> tuple[int, bool] | None:
    """The side a start holds (`starts`): (the index of its kind's `owns:` descriptor, whether it
    holds the kind's gates open, the owners' side), or None for a start that holds nothing."""
    from hoc.agents.plan_space import OWNS
    from hoc.research.atlas.sweep import ON

    if not held:
        return None
    card, value = held[0]
    for d, name in enumerate(settings.descriptors):
        if name.startswith(OWNS) and card in settings.space.slots([name[len(OWNS):]]):
            return d, value == ON
    return None


def run(settings, search, backend, save, progress=print) -> None:
    """Polish the search's archive (or go on with the polish in `search.polish`), saving after every
    step; a search that went on since has dropped its old polish (`search.run`)."""
    import time

    from hoc.research import progress as meter

    if not settings.polish:
        search.polish = None
        return
    t0 = time.perf_counter()
    if search.polish is None:
        progress(f"polishing the best families (a kind mapped by its copies: its best owner and best deck "
                 f"without it; the best elite; the best owning each kind; up to {settings.polish}): each swept "
                 f"card by card, then tuned by CMA-ES for {settings.polish_iterations} iterations")
        meter.stage("polish", expected(settings, len(search.archive)))
        search.polish = begin(settings, search, backend)
        save()
    else:
        meter.stage("polish")
    p = search.polish
    if p.iteration < settings.polish_iterations:
        p.chosen = None                              # more steps: choose again at the end
    began, done_before = time.perf_counter(), p.iteration
    while p.iteration < settings.polish_iterations:
        step(settings, search, backend)
        search.seconds += time.perf_counter() - t0
        t0 = time.perf_counter()
        save()
        if p.iteration % 10 == 0 or p.iteration == settings.polish_iterations:
            per = (time.perf_counter() - began) / (p.iteration - done_before)
            best = max(max(e) for e in p.estimates)
            progress(f"polish iteration {p.iteration}/{settings.polish_iterations} of {len(p.starts)} starts: best "
                     f"{100 * best:.1f}% against the panel (the polish's own games), about "
                     f"{int(per * (settings.polish_iterations - p.iteration))} s left")
    if p.chosen is None:
        p.chosen = choose(settings, search, backend)
        search.seconds += time.perf_counter() - t0
        save()
        progress(f"the polish chose {len(p.chosen)} plan{'s' if len(p.chosen) != 1 else ''} better than "
                 f"{'their cells' if len(p.chosen) != 1 else 'its cell'}' elites on "
                 f"{seeds_for(settings, CHOICE_GAMES)} fresh seeds per panel member")


def _held(x, space, held) -> np.ndarray:
    """Point x with the held (card index, gate value) pairs set."""
    y = np.array(x, float)
    for c, value in held:
        y[c * space.per_card + space.gate] = value
    return y


def _inside(space, xs) -> np.ndarray:
    """Points clipped to the space's bounds (the emitters' are not: the space clips when it decodes,
    so a clipped point is the same plan, and CMA-ES's bounds need it inside)."""
    return np.clip(np.asarray(xs, float), space.lower, space.upper)


def _count(search, settings, plans: int, games: int = POLISH_GAMES) -> None:
    search.evaluations += plans
    search.games += games_of(settings, plans, games)
