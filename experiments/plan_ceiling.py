"""A ceiling for what look-ahead at one kind of decision can add to a priority list: an agent that
plays the list (planner off) but at each decision of that kind tries every legal action on a copy of
the true game and plays the copy to the end by the list (both seats), keeping the action that wins
(ties: the list's own action, then the larger SP lead). The copy keeps the game's future random
numbers, so this agent sees its own future draws: a clairvoyant bound, above any honest planner at
those decisions. With `--samples N` each action is tried on N copies in which what the player
cannot see is shuffled (its own face-down deck; the opponent's hand and deck together, but not
during a card question), wins and SP
leads summed: a Monte Carlo planner to the game's end, nearly honest (the copies keep the game's
random stream for later reshuffles). It plays the list's own buy rules.

    python -m experiments.plan_ceiling --plan tuned_plan_2p --decisions main --games 100 [--samples 4]

decisions: main (the Main-phase decisions the turn planner weighs: a card with a text, Lily, an
ability or a kept card at hand), question (own-turn card questions), second (the Second phase's
choice of back, set or buy when nothing is started: every back and set, and the list's own buy),
main+question.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time

import numpy as np


def main(argv=None) -> None:
    from hoc.games.heart_of_crown.agents import priority
    from hoc.games.heart_of_crown.agents.catalog import from_list, list_file
    from hoc.games.heart_of_crown.game import Game
    from hoc.games.heart_of_crown.kernel import constants as K
    from hoc.research.stats import wilson
    from hoc.games.heart_of_crown.rules import Ruleset
    from experiments.common import redeal

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--plan", default="tuned_plan_2p")
    p.add_argument("--decisions", default="main")
    p.add_argument("--games", type=int, default=100, help="game seeds, each played with the agent in both seats")
    p.add_argument("--seed", type=int, default=4242)
    p.add_argument("--samples", type=int, default=0,
                   help="0: the true game (clairvoyant); N: N copies per action, each with the player's own deck "
                        "and the opponent's hand and deck shuffled (what it cannot see), summed")
    a = p.parse_args(argv)
    spec = priority.parse(list_file(a.plan))
    plain = from_list(dataclasses.replace(spec, plan=None), "plain")
    # its buy in the open Second phase: the same list that never backs nor sets
    buyer = from_list(dataclasses.replace(spec, plan=None, set_min_sp=10 ** 6, min_coins=10 ** 6), "buyer")
    rs = Ruleset(players=2, market="random")
    kinds = set(a.decisions.split("+"))
    T = None

    def weighed(g, me):
        if g.decider != me or g.turn_player != me:
            return False
        ctx = g.context
        if ctx == "card choice":
            return "question" in kinds
        if ctx == "second phase":
            return "second" in kinds and g.second_phase == "open"
        if ctx != "main phase" or "main" not in kinds:
            return False
        if any(g.label(x).startswith(("use", "ability")) for x in g.legal_actions()) or g.kept(me):
            return True
        if g.open_plays <= 0:
            return False
        for c in g.hand(me):
            i = rs.cards.index(c)
            if T[i, K.F_TYPES] & (K.TY_ACTION | K.TY_TERRITORY) and T[i, K.F_TRIGGERS] & (1 << K.TRIG_PLAY) \
                    and T[i, K.F_EFFECT] != 0:
                return True
        return False

    rng = np.random.default_rng(a.seed)

    def outcome(g, me):
        while not g.over:
            g.apply(g.decide(plain))
        return (1 if g.winner == me else 0, g.sp(me) - g.sp(1 - me))

    wins = n = changed = probed = 0
    t = time.time()
    for i in range(a.games):
        for me in (0, 1):
            g = Game.of_run(rs, a.seed, i)
            T = g.T
            while not g.over:
                own = g.decide(plain)
                act = own
                if weighed(g, me):
                    legal = g.legal_actions()
                    if g.context == "second phase":     # back, set, or the list's own buy: never another buy
                        legal = [x for x in legal if g.label(x).startswith(("back", "set"))] + [g.decide(buyer)]
                    if len(legal) > 1:
                        probed += 1
                        best = None
                        for x in [own] + [int(y) for y in legal if int(y) != own]:
                            v = (0, 0)
                            for k in range(max(1, a.samples)):
                                c = g.clone()
                                if a.samples:
                                    redeal(c, me, rng)
                                c.apply(x)
                                w, m = outcome(c, me)
                                v = (v[0] + w, v[1] + m)
                            if best is None or v > best[0]:
                                best = (v, x)
                        act = best[1]
                        changed += act != own
                g.apply(act)
            wins += g.winner == me
            n += 1
    lo, hi = wilson(wins, n)
    cmd = "python -m experiments.plan_ceiling " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"`{cmd}`: {100 * wins / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] over {n} games against {a.plan} "
          f"(planner off); {probed / n:.1f} decisions probed a game, {changed / n:.2f} changed "
          f"({time.time() - t:.0f} s)")


if __name__ == "__main__":
    main()
