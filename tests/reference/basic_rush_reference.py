"""Slow, obvious reference implementation of a small part of Heart of Crown (2nd edition).

Purpose: cross-check the fast engine. Written only from the rule texts
(/work/shared/RULINGS.md, /work/shared/reference/hoc-cards.md §2.2-2.4, §3, §4 and the 2E rulebook seed 000).
Standard library only; clarity over speed.

Scope
-----
* 1, 2 or 3 players, basic market only (no supply, no random market, no Curses are ever gained).
* Cards: Farming Village, Orchard (starting decks only), City, Large City, Apprentice Maid (starting decks
  only), Court Maid, Senator, Duke.
* Princess pool, in this order: Lulunasaika, Laolily, Klam Klam.
* Every seat is played by the agent ``basic_rush`` (class BasicRushAgent below).

Readings where the brief / rule texts leave a point open (the same list is in ``READINGS`` below):
1. The turn cap is checked before the coronation check: a player who has already taken 100 turns ends the
   game as a ``turn_cap`` draw even if a coronation check would be due at that turn start.
2. Setting succession cards is one atomic action: all chosen cards move to the domain, then SP is checked
   (cancellation below 20, overtime win at 30). Final SP can therefore exceed 30 by a whole set.
3. When overtime starts and one or more overtime players already have 30 SP or more, the one who reached
   30 first (earliest in time) wins at once, end reason ``overtime``; the turn at whose start the check
   happened is not played and does not count.
4. In overtime, skipped (eliminated) players are not checked against the turn cap (they start no turns).
5. Backing: "the 3 highest-cost Territories" -- with the cards in this scope equal cost means the same card
   kind, so the tie choice never matters.
6. Laolily's Court Maids are gained one at a time, after the princess and the Territories are in the domain;
   the judgement check runs after each gain.
7. ``sd_turns`` is the sample standard deviation (n - 1 in the denominator); 0.0 with fewer than 2 games.
"""

import argparse
import json
import math
import random

# ---------------------------------------------------------------------------------------------------------
# Constants from the rules
# ---------------------------------------------------------------------------------------------------------

HAND_SIZE = 5                # draw 5 at setup and at Cleanup
PRINCESS_COST = 6            # every princess costs 6 (never reduced by Klam Klam, RULINGS #13)
CORONATION_SP = 20           # declare with 20 SP or more
OVERTIME_WIN_SP = 30         # in overtime, the first declarer to reach 30 SP wins at once
TURN_CAP = 100               # turns per player (RULINGS #21)

TERRITORY = "territory"
SUCCESSION = "succession"

END_REASONS = ("coronation", "overtime", "judgement", "turn_cap")

READINGS = [
    "Turn cap is checked before the coronation check at the start of a turn.",
    "Setting succession cards is one atomic action; SP is checked after all chosen cards are set.",
    "If an overtime player already has >= 30 SP when overtime starts, the one who reached 30 first wins "
    "at once (end reason overtime); that turn is not played.",
    "Skipped (eliminated) overtime players are not checked against the turn cap.",
    "Backing ties (equal cost) never matter here: equal cost means the same card kind.",
    "Laolily gains Court Maids one at a time after backing; judgement is checked after each gain.",
    "sd_turns is the sample standard deviation.",
]


class CardType:
    """One kind of card. Cards in zones are references to these objects (one object per kind)."""

    def __init__(self, name, kind, cost, coins, links, sp):
        self.name = name
        self.kind = kind      # TERRITORY (can be played) or SUCCESSION (cannot be played)
        self.cost = cost
        self.coins = coins
        self.links = links
        self.sp = sp

    def __repr__(self):
        return self.name


# hoc-cards.md §2.3 (2E values; Court Maid cost 3 per RULINGS #3; Orchard per RULINGS #3)
FARMING_VILLAGE = CardType("farming_village", TERRITORY, cost=1, coins=1, links=1, sp=-2)
ORCHARD = CardType("orchard", TERRITORY, cost=2, coins=1, links=1, sp=0)
CITY = CardType("city", TERRITORY, cost=3, coins=2, links=1, sp=0)
LARGE_CITY = CardType("large_city", TERRITORY, cost=6, coins=3, links=1, sp=0)
APPRENTICE_MAID = CardType("apprentice_maid", SUCCESSION, cost=2, coins=0, links=0, sp=-2)
COURT_MAID = CardType("court_maid", SUCCESSION, cost=3, coins=0, links=0, sp=2)
SENATOR = CardType("senator", SUCCESSION, cost=5, coins=0, links=0, sp=3)
DUKE = CardType("duke", SUCCESSION, cost=8, coins=0, links=0, sp=6)

# Basic market pile sizes (2E; fixed for every player count, RULINGS #6)
MARKET_PILES = [
    (CITY, 30),
    (LARGE_CITY, 20),
    (FARMING_VILLAGE, 16),
    (COURT_MAID, 12),
    (SENATOR, 12),
    (DUKE, 12),
]

# Judgement: the game ends the moment these three piles are all empty (RULINGS #20)
JUDGEMENT_PILES = (DUKE, SENATOR, COURT_MAID)


def starting_deck(seat):
    """2E starting deck by seat (0-based): 3 Apprentice Maids + (7 - seat) FV + seat Orchards."""
    farming_villages = 7 - seat
    orchards = seat
    return [APPRENTICE_MAID] * 3 + [FARMING_VILLAGE] * farming_villages + [ORCHARD] * orchards


class Princess:
    def __init__(self, pid, sp):
        self.pid = pid
        self.cost = PRINCESS_COST
        self.sp = sp

    def __repr__(self):
        return self.pid


LULUNASAIKA = Princess("lulunasaika", sp=6)   # no text
LAOLILY = Princess("laolily", sp=0)           # when backed: may gain up to 5 Court Maids (market -> discard)
KLAM_KLAM = Princess("klam_klam", sp=0)       # cards she buys cost 1 less, never below 1

PRINCESS_POOL_ORDER = [LULUNASAIKA, LAOLILY, KLAM_KLAM]
LAOLILY_MAX_GAIN = 5


# ---------------------------------------------------------------------------------------------------------
# Game state
# ---------------------------------------------------------------------------------------------------------

class GameOver(Exception):
    """Raised the moment the game ends (possibly mid-turn). The Game object holds the result."""


class Declaration:
    """A coronation declaration. `completed_by` = seats of other players who completed a turn since."""

    def __init__(self, declarer_seat):
        self.declarer_seat = declarer_seat
        self.completed_by = set()


class Player:
    def __init__(self, seat):
        self.seat = seat
        self.deck = []          # draw pile; the top card is the LAST element
        self.hand = []
        self.discard = []
        self.play_area = []
        self.princess = None
        self.domain_cards = []  # Territories moved at backing + set Succession cards
        self.coins = 0
        self.turns_taken = 0
        self.declaration = None          # a valid Declaration, or None
        self.eliminated = False          # skipped in overtime
        self.reached_30_at = None        # global turn number at which domain SP first became >= 30

    def has_domain(self):
        return self.princess is not None

    def domain_sp(self):
        """Princess SP + SP of the domain cards; a player without a princess has 0 SP."""
        if self.princess is None:
            return 0
        total = self.princess.sp
        for card in self.domain_cards:
            total += card.sp
        return total

    def all_owned_cards(self):
        return self.deck + self.hand + self.discard + self.play_area + self.domain_cards

    def count_owned(self, card_type):
        return sum(1 for card in self.all_owned_cards() if card is card_type)

    def draw_one(self, rng):
        """Draw 1 card. If the deck is empty, shuffle the discard pile to form the new deck first.
        With both empty, nothing is drawn. Returns True if a card was drawn."""
        if not self.deck:
            if not self.discard:
                return False
            self.deck = self.discard
            self.discard = []
            rng.shuffle(self.deck)
        self.hand.append(self.deck.pop())
        return True

    def draw(self, n, rng):
        for _ in range(n):
            if not self.draw_one(rng):
                break


# ---------------------------------------------------------------------------------------------------------
# The agent: basic_rush
# ---------------------------------------------------------------------------------------------------------

class BasicRushAgent:
    """basic_rush, exactly as the brief states.

    Main phase: play every Territory in hand.
    Second phase with C coins, the first that applies:
      (a) no princess and C >= 6: back the first still-available princess in pool order;
      (b) has a princess and the positive-SP Succession cards in hand total >= 2 SP: set all of them;
      (c) otherwise buy repeatedly the first affordable card (effective cost, pile not empty) of:
          Duke (if princess), Large City (while owning fewer than 3), Senator (if princess), City,
          Court Maid (if princess); never Farming Villages; stop when none is affordable.
    Laolily: take as many Court Maids as allowed. Declare coronation whenever eligible.
    """

    name = "basic_rush"

    def choose_card_to_play(self, game, player):
        for card in player.hand:
            if card.kind == TERRITORY:
                return card
        return None

    def choose_second_phase(self, game, player):
        """Returns ("back", princess), ("set", [cards]) or ("buy", None)."""
        # (a)
        if player.princess is None and player.coins >= PRINCESS_COST:
            for princess in PRINCESS_POOL_ORDER:
                if princess in game.available_princesses:
                    return ("back", princess)
        # (b)
        if player.princess is not None:
            positive = [card for card in player.hand if card.kind == SUCCESSION and card.sp > 0]
            if sum(card.sp for card in positive) >= 2:
                return ("set", positive)
        # (c)
        return ("buy", None)

    def choose_buy(self, game, player):
        """Next card to buy, or None to stop buying."""
        has_princess = player.princess is not None
        wishlist = []
        if has_princess:
            wishlist.append(DUKE)
        if player.count_owned(LARGE_CITY) < 3:
            wishlist.append(LARGE_CITY)
        if has_princess:
            wishlist.append(SENATOR)
        wishlist.append(CITY)
        if has_princess:
            wishlist.append(COURT_MAID)
        for card in wishlist:
            if game.market[card] > 0 and game.buy_cost(player, card) <= player.coins:
                return card
        return None

    def choose_laolily_gains(self, game, player):
        return min(LAOLILY_MAX_GAIN, game.market[COURT_MAID])

    def wants_to_declare(self, game, player):
        return True


# ---------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------

class Game:
    def __init__(self, n_players, rng, agents=None):
        if n_players not in (1, 2, 3):
            raise ValueError("this reference supports 1, 2 or 3 players")
        self.rng = rng
        self.n_players = n_players
        self.players = [Player(seat) for seat in range(n_players)]
        self.agents = agents if agents is not None else [BasicRushAgent() for _ in range(n_players)]
        self.market = {}
        for card, size in MARKET_PILES:
            self.market[card] = size
        self.available_princesses = list(PRINCESS_POOL_ORDER)
        self.overtime = False
        self.total_turns = 0
        self.winner = None
        self.end_reason = None
        # Setup: each player shuffles the starting deck and draws 5.
        for player in self.players:
            player.deck = starting_deck(player.seat)
            self.rng.shuffle(player.deck)
            player.draw(HAND_SIZE, self.rng)

    # ----- end of game -----------------------------------------------------------------------------------

    def end_game(self, winner_seat, reason):
        assert reason in END_REASONS
        self.winner = winner_seat
        self.end_reason = reason
        raise GameOver()

    def check_judgement(self):
        """Called after every removal from a market pile (buy or gain)."""
        if all(self.market[card] == 0 for card in JUDGEMENT_PILES):
            if self.overtime:
                ranked = [p for p in self.players if not p.eliminated]
            else:
                ranked = list(self.players)
            best = None
            for player in ranked:  # seat order; ">=" lets a later seat win a tie
                if best is None or player.domain_sp() >= best.domain_sp():
                    best = player
            self.end_game(best.seat, "judgement")

    def after_sp_change(self, player):
        """Called after every change of a player's domain SP."""
        sp = player.domain_sp()
        if sp >= OVERTIME_WIN_SP and player.reached_30_at is None:
            player.reached_30_at = self.total_turns
        if player.declaration is not None and sp < CORONATION_SP:
            player.declaration = None  # cancelled (cannot happen with these cards)
        if self.overtime and not player.eliminated and sp >= OVERTIME_WIN_SP:
            self.end_game(player.seat, "overtime")

    # ----- costs ------------------------------------------------------------------------------------------

    def buy_cost(self, player, card):
        """Effective cost of buying `card` for `player` (Klam Klam: -1, never below 1)."""
        if player.princess is KLAM_KLAM:
            return max(card.cost - 1, 1)
        return card.cost

    # ----- the main loop ----------------------------------------------------------------------------------

    def run(self):
        try:
            seat = 0  # seat 1 starts
            while True:
                player = self.players[seat]
                if self.overtime and player.eliminated:
                    seat = (seat + 1) % self.n_players
                    continue
                if player.turns_taken >= TURN_CAP:
                    self.end_game(None, "turn_cap")
                if not self.overtime and player.declaration is not None:
                    self.coronation_check(player)   # may end the game or start overtime
                # The turn starts now and counts.
                player.turns_taken += 1
                self.total_turns += 1
                self.play_turn(player)
                seat = (seat + 1) % self.n_players
        except GameOver:
            pass
        return self.result()

    def coronation_check(self, player):
        """At the start of the declarer's next regular turn, before acting."""
        if player.domain_sp() < CORONATION_SP:
            player.declaration = None
            return
        others_live = [p for p in self.players if p is not player and not p.eliminated]
        for other in others_live:
            if other.seat not in player.declaration.completed_by:
                return  # the round is not complete yet
        valid_declarers = [p for p in self.players
                           if p.declaration is not None and p.domain_sp() >= CORONATION_SP]
        if len(valid_declarers) == 1:
            self.end_game(player.seat, "coronation")
        # Two or more valid declarations: overtime among the valid declarers only.
        self.overtime = True
        for p in self.players:
            if p not in valid_declarers:
                p.eliminated = True
        already_30 = [p for p in valid_declarers if p.domain_sp() >= OVERTIME_WIN_SP]
        if already_30:
            first = min(already_30, key=lambda p: p.reached_30_at)
            self.end_game(first.seat, "overtime")

    def play_turn(self, player):
        agent = self.agents[player.seat]
        self.main_phase(player, agent)
        self.second_phase(player, agent)
        self.cleanup(player)
        self.end_of_turn(player, agent)

    # ----- phases -----------------------------------------------------------------------------------------

    def main_phase(self, player, agent):
        played = 0
        links = 0
        while True:
            open_plays = 1 + links - played
            if open_plays <= 0:
                break
            card = agent.choose_card_to_play(self, player)
            if card is None:
                break
            assert card.kind == TERRITORY and card in player.hand
            player.hand.remove(card)
            player.play_area.append(card)
            player.coins += card.coins
            links += card.links
            played += 1

    def second_phase(self, player, agent):
        action, arg = agent.choose_second_phase(self, player)
        if action == "back":
            self.back_princess(player, arg, agent)
        elif action == "set":
            self.set_succession(player, arg)
        elif action == "buy":
            while True:
                card = agent.choose_buy(self, player)
                if card is None:
                    break
                self.buy(player, card)
        else:
            raise ValueError(action)

    def back_princess(self, player, princess, agent):
        assert player.princess is None
        assert princess in self.available_princesses
        assert player.coins >= princess.cost
        player.coins -= princess.cost
        self.available_princesses.remove(princess)
        player.princess = princess
        # The 3 highest-cost Territories in the play area move to the domain (mandatory).
        territories = [card for card in player.play_area if card.kind == TERRITORY]
        territories.sort(key=lambda card: card.cost, reverse=True)
        for card in territories[:3]:
            player.play_area.remove(card)
            player.domain_cards.append(card)
        player.coins = 0  # coins left are lost
        self.after_sp_change(player)
        if princess is LAOLILY:
            n = agent.choose_laolily_gains(self, player)
            assert 0 <= n <= LAOLILY_MAX_GAIN
            for _ in range(n):
                if self.market[COURT_MAID] == 0:
                    break
                self.market[COURT_MAID] -= 1
                player.discard.append(COURT_MAID)
                self.check_judgement()

    def set_succession(self, player, cards):
        assert player.princess is not None
        for card in cards:
            assert card.kind == SUCCESSION
            player.hand.remove(card)
            player.domain_cards.append(card)
        self.after_sp_change(player)

    def buy(self, player, card):
        cost = self.buy_cost(player, card)
        assert self.market[card] > 0
        assert player.coins >= cost
        player.coins -= cost
        self.market[card] -= 1
        player.discard.append(card)
        self.check_judgement()

    def cleanup(self, player):
        player.discard.extend(player.play_area)
        player.play_area = []
        player.discard.extend(player.hand)
        player.hand = []
        player.coins = 0
        player.draw(HAND_SIZE, self.rng)

    def end_of_turn(self, player, agent):
        # This player has completed a turn: record it for the other players' declarations.
        for other in self.players:
            if other is not player and other.declaration is not None:
                other.declaration.completed_by.add(player.seat)
        # Declare a coronation when eligible and not already holding a valid declaration.
        if (player.declaration is None and player.domain_sp() >= CORONATION_SP
                and agent.wants_to_declare(self, player)):
            player.declaration = Declaration(player.seat)

    # ----- result -----------------------------------------------------------------------------------------

    def result(self):
        return {
            "winner": self.winner,
            "end_reason": self.end_reason,
            "turns": self.total_turns,
            "final_sp": [p.domain_sp() for p in self.players],
            "princess": [p.princess.pid if p.princess is not None else None for p in self.players],
        }


# ---------------------------------------------------------------------------------------------------------
# API
# ---------------------------------------------------------------------------------------------------------

def simulate(players, games, seed):
    """Play `games` games of `players` basic_rush agents. Returns one result dict per game."""
    master = random.Random(seed)
    results = []
    for _ in range(games):
        game_rng = random.Random(master.getrandbits(64))
        results.append(Game(players, game_rng).run())
    return results


def summarize(results):
    n = len(results)
    seats = len(results[0]["final_sp"]) if results else 0
    wins_by_seat = [0] * seats
    draws = 0
    end_reasons = {reason: 0 for reason in END_REASONS}
    sp_sums = [0.0] * seats
    turns = []
    for r in results:
        if r["winner"] is None:
            draws += 1
        else:
            wins_by_seat[r["winner"]] += 1
        end_reasons[r["end_reason"]] += 1
        for seat in range(seats):
            sp_sums[seat] += r["final_sp"][seat]
        turns.append(r["turns"])
    mean_turns = sum(turns) / n if n else 0.0
    if n >= 2:
        sd_turns = math.sqrt(sum((t - mean_turns) ** 2 for t in turns) / (n - 1))
    else:
        sd_turns = 0.0
    return {
        "games": n,
        "wins_by_seat": wins_by_seat,
        "draws": draws,
        "end_reasons": end_reasons,
        "mean_turns": mean_turns,
        "sd_turns": sd_turns,
        "mean_final_sp_by_seat": [s / n if n else 0.0 for s in sp_sums],
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description="basic_rush reference simulation (Heart of Crown 2E, basic market)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(json.dumps(summarize(simulate(args.players, args.games, args.seed)), indent=2))


if __name__ == "__main__":
    main()
