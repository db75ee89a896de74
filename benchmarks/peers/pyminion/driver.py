"""hoc peer benchmark driver for pyminion (runs in the pyminion venv, not hoc's).

    python driver.py MODE N [SECONDS] [--seed S] [--no-last-province-rule]

MODE: mirror (big_money vs big_money), smithy (smithy_bm vs big_money),
solo_bm, solo_smithy (one player alone until it owns 4 Provinces).
Seats alternate: even game index -> bot A moves first (Game(random_order=False)).
Prints {"games", "seconds", "records", ...}; a 2-player record is
[a_first, vpA, vpB, turnsA, turnsB, result], result 0 = A wins, 1 = B wins,
2 = shared, as decided by pyminion's own Game.get_winners(); a solo record is
the turns taken.

The bots are written in pyminion's bot language (a BotDecider whose
buy_priority/action_priority generators are read in order). pyminion has no
last-Province safeguard of its own; by default these bots add one (never buy
the last Province when, after it, the bot would have fewer VP than the
opponent, or equal VP and more turns); --no-last-province-rule drops it,
matching pyminion's bundled example bots.
"""
import argparse
import json
import random
import time

from pyminion.bots.bot import Bot, BotDecider
from pyminion.expansions import base
from pyminion.expansions.base import gold, province, silver, smithy
from pyminion.game import Game

KINGDOM = [base.smithy, base.village, base.market, base.militia, base.moat,
           base.cellar, base.chapel, base.workshop, base.laboratory, base.festival]


def loses_by_taking_last_province(player, game):
    if game.supply.pile_length("Province") != 1:
        return False
    mine = player.get_victory_points() + 6
    for other in game.players:
        if other is player:
            continue
        theirs = other.get_victory_points()
        if mine < theirs or (mine == theirs and player.turns > other.turns):
            return True
    return False


class BigMoneyDecider(BotDecider):
    def __init__(self, last_province_rule=True):
        self.last_province_rule = last_province_rule

    def action_priority(self, player, game):
        return iter(())

    def may_take_province(self, player, game):
        return not (self.last_province_rule and loses_by_taking_last_province(player, game))

    def buy_priority(self, player, game):
        money = player.state.money
        if money >= 8 and self.may_take_province(player, game):
            yield province
        if money >= 6:
            yield gold
        if money >= 3:
            yield silver


class SmithyBMDecider(BigMoneyDecider):
    def action_priority(self, player, game):
        yield smithy

    def buy_priority(self, player, game):
        money = player.state.money
        if money >= 8 and self.may_take_province(player, game):
            yield province
        if money >= 6:
            yield gold
        if money >= 4 and player.get_card_count(smithy) == 0:
            yield smithy
        if money >= 3:
            yield silver


def make(kind, name, lpr):
    decider = SmithyBMDecider(lpr) if kind == "smithy_bm" else BigMoneyDecider(lpr)
    return Bot(decider=decider, player_id=name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["mirror", "smithy", "solo_bm", "solo_smithy"])
    ap.add_argument("n", type=int)
    ap.add_argument("seconds", type=float, nargs="?", default=0.0)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--no-last-province-rule", action="store_true")
    args = ap.parse_args()
    if args.seed is not None:
        random.seed(args.seed)
    lpr = not args.no_last_province_rule
    records = []
    t0 = time.perf_counter()
    if args.mode in ("mirror", "smithy"):
        a = make("big_money" if args.mode == "mirror" else "smithy_bm", "A", lpr)
        b = make("big_money", "B", lpr)
        for g in range(args.n):
            if args.seconds > 0 and time.perf_counter() - t0 >= args.seconds:
                break
            a_first = g % 2 == 0
            order = [a, b] if a_first else [b, a]
            game = Game(players=order, expansions=[base.base_set], kingdom_cards=KINGDOM,
                        random_order=False, log_stdout=False)
            result = game.play()
            winners = result.winners
            res = 2 if len(winners) > 1 else (0 if winners[0] is a else 1)
            records.append([1 if a_first else 0, a.get_victory_points(), b.get_victory_points(),
                            a.turns, b.turns, res])
    else:
        a = make("big_money" if args.mode == "solo_bm" else "smithy_bm", "A", lpr)
        for g in range(args.n):
            if args.seconds > 0 and time.perf_counter() - t0 >= args.seconds:
                break
            game = Game(players=[a], expansions=[base.base_set], kingdom_cards=KINGDOM,
                        random_order=False, log_stdout=False)
            game.start()
            while a.get_card_count(province) < 4:
                a.take_turn(game)
                if a.turns > 200:
                    raise RuntimeError("solo game did not reach 4 Provinces")
            records.append(a.turns)
    secs = time.perf_counter() - t0
    print(json.dumps({"games": len(records), "seconds": secs, "records": records,
                      "last_province_rule": lpr, "seed": args.seed}))


if __name__ == "__main__":
    main()
