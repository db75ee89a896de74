"""One game of a run told the way a player would tell it: who did what, with the cards' printed
names and counts, which card or princess asked each question, the coins, and how the game ended.

The log is built from the decisions alone: before and after each decision the table is read (every
zone of every seat, the market, the counters), and the difference is told as moves a player knows
(draws, discards, gains, exiles, sets, ...). The game is played by the same agents and kernels as
`simulate`, so a replay ends exactly as the run's recorded game did. Seats are numbered from 0 (seat
0 plays first), as in the result columns. A game is told from a plan (`hoc.research.harness.Plan`:
seed, seats, rules); rebuilding the plan of a run, a saved run or a saved game is
`hoc.research.replays`'s, so this module knows games, not runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hoc.errors import HocError
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.kernel.choice import FR_A, FR_EFF
from hoc.games.heart_of_crown.rules import Ruleset

EDITIONS = {"2e": "2nd edition", "1e": "1st edition"}
DECK_CARD = 0xFFFF           # a deck entry is the card id, plus a face-up bit above it


# ---- reading the table ---------------------------------------------------------------------------

@dataclass
class Table:
    """What the table shows at one moment, as counts per card (rows: seats)."""

    hand: np.ndarray
    discard: np.ndarray
    domain: np.ndarray
    kept: np.ndarray
    owned: np.ndarray
    deck: np.ndarray
    discard_mask: list[int]
    deck_rng: list[tuple[int, int]]
    sp: list[int]
    turns: list[int]            # own turns begun
    counters: dict[str, list[int]]
    play: np.ndarray
    market: np.ndarray
    supply_n: int
    coins: int
    open: int
    extra_pending: int
    face_up: tuple[int, ...]    # face-up cards on top of the supply (Buried Treasure), top first

    @classmethod
    def read(cls, game: Game) -> "Table":
        s = game.state
        nc, np_ = int(s[K.H_NC]), game.players

        def region(header):
            return np.stack([s[s[header] + p * nc: s[header] + (p + 1) * nc] for p in range(np_)]).astype(np.int64)

        def pb(p):
            return int(s[K.H_OFF_PLAYER] + p * K.PSZ)

        deck = np.zeros((np_, nc), np.int64)
        for p in range(np_):
            off = int(s[K.H_OFF_DECK] + p * s[K.H_DCAP])
            n = int(s[pb(p) + K.P_DECK_N])
            deck[p] = np.bincount(s[off:off + n] & DECK_CARD, minlength=nc)[:nc]
        return cls(
            hand=region(K.H_OFF_HAND), discard=region(K.H_OFF_DISCARD), domain=region(K.H_OFF_DOMAIN),
            kept=region(K.H_OFF_KEPT), owned=region(K.H_OFF_OWNED), deck=deck,
            discard_mask=[(int(s[pb(p) + K.P_DISCARD_MASK]) & 0xFFFFFFFF) | (int(s[pb(p) + K.P_DISCARD_MASK + 1]) << 32)
                          for p in range(np_)],
            deck_rng=[(int(s[pb(p) + K.P_RNG]), int(s[pb(p) + K.P_RNG + 1])) for p in range(np_)],
            sp=[int(s[pb(p) + K.P_SP]) for p in range(np_)],
            turns=[int(s[pb(p) + K.P_TURNS]) for p in range(np_)],
            counters={name: [int(s[pb(p) + f]) for p in range(np_)] for name, f in
                      (("coin", K.P_COIN_CTR), ("handyman", K.P_HANDY_CTR), ("twin", K.P_TWIN_CTR),
                       ("succession", K.P_SUCC_CTR))},
            play=s[s[K.H_OFF_PLAY]: s[K.H_OFF_PLAY] + nc].astype(np.int64),
            market=s[s[K.H_OFF_MARKET]: s[K.H_OFF_MARKET] + nc].astype(np.int64),
            supply_n=int(s[K.H_SUPPLY_N]), coins=int(s[K.H_COINS]), open=int(s[K.H_OPEN]),
            extra_pending=int(s[K.H_EXTRA_PENDING]),
            face_up=tuple(int(c) for c in s[s[K.H_OFF_SUPPLY]:s[K.H_OFF_SUPPLY] + s[K.H_SUPPLY_N]][::-1]
                          [:s[K.H_REVEALED]]),
        )


# ---- telling moves in words ----------------------------------------------------------------------

# how each kind of move reads; {cards} is a list such as "a City and 2 Farming Villages"
MOVES = {
    "exile": "exiles {cards}", "exile_discard": "exiles {cards} from the discard pile",
    "exile_play": "exiles {cards} from the play area", "exile_kept": "exiles {cards} kept in the domain",
    "exile_deck": "exiles {cards} from the deck", "exile_domain": "exiles {cards} from the domain",
    "discard": "discards {cards}", "mill": "discards {cards} from the top of the deck",
    "domain_discard": "discards {cards} from the domain", "kept_discard": "discards {cards} kept in the domain",
    "gain": "gains {cards}", "gain_hand": "gains {cards} into the hand",
    "gain_deck": "gains {cards} on top of the deck",
    "set": "sets {cards}", "set_discard": "sets {cards} from the discard pile",
    "to_domain": "moves {cards} to the domain",
    "keep": "keeps {cards}", "recall": "recalls {cards}",
    "play_deck": "puts {cards} from the play area on top of the deck",
    "discard_hand": "takes {cards} from the discard pile into the hand",
    "discard_deck": "puts {cards} from the discard pile on top of the deck",
    "hand_deck": "puts {cards} from the hand on top of the deck",
    "shuffle": "shuffles the discard pile into the deck",
    "draw": "draws {cards}",
    "played": "plays {cards}",
}

# moves whose cards only their owner sees (drawn cards go from the face-down deck into the hand): told to
# the other seats by number alone
HIDDEN_MOVES = {"draw": "draws {cards}"}
HIDDEN_ZONES = ("hand", "deck")


# the move each decision verb makes itself: its kind and how it changes the zones (a buy is a gain)
KNOWN = {K.A_PLAY: ("played", {"hand": -1, "play": 1}), K.A_SET: ("set", {"hand": -1, "domain": 1}),
         K.A_KEEP: ("keep", {"hand": -1, "kept": 1}), K.A_RECALL: ("recall", {"kept": -1, "hand": 1}),
         K.A_BUY: ("gain", {"owned": 1, "discard": 1})}


def card_list(db, cards: dict[int, int]) -> str:
    """'a City', 'a City and 2 Farming Villages', 'a Duke, a City and an Alchemist'."""
    parts = [db.count(c, n) for c, n in cards.items() if n > 0]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1] if parts else "nothing"


def zone_list(db, zone: np.ndarray) -> str:
    """A zone's cards by count: '3 Farming Villages, 2 Apprentice Maids' ('nothing' when empty)."""
    return ", ".join(db.count(c, int(n)).removeprefix("a ").removeprefix("an ") if n == 1 else db.count(c, int(n))
                     for c, n in enumerate(zone) if n) or "nothing"


@dataclass
class Moves:
    """One seat's moves between two readings of the table, as {kind: {card: count}} in the order told."""

    kinds: dict[str, dict[int, int]] = field(default_factory=dict)
    extra: list[str] = field(default_factory=list)     # counters, SP, extra turns
    left: list[tuple[str, int, int]] = field(default_factory=list)   # (zone, change, card) not told as a move

    def add(self, kind: str, card: int, n: int) -> None:
        if n > 0:
            cards = self.kinds.setdefault(kind, {})
            cards[card] = cards.get(card, 0) + n

    def take(self, card: int, kinds=None) -> str | None:
        """Remove one move of `card` (of one of `kinds`, any kind if None) and return its kind."""
        for kind, cards in self.kinds.items():
            if (kinds is None or kind in kinds) and cards.get(card, 0) > 0:
                cards[card] -= 1
                return kind
        return None

    def words(self, db, hidden: bool = False) -> list[str]:
        """The moves in words; `hidden`: as a player other than this seat sees them (cards drawn are
        counted, not named)."""
        order = list(MOVES)
        told = [move(db, k, cards, hidden) for k, cards in
                sorted(self.kinds.items(), key=lambda kv: order.index(kv[0])) if any(cards.values()) or k == "shuffle"]
        if self.left:               # a move this module does not know how to tell
            named = [f"{z} {n:+d} {'cards' if hidden and z in HIDDEN_ZONES else db.english(c)}" for z, n, c in self.left]
            told.append(f"(also: {', '.join(named)})")
        return told + self.extra


def move(db, kind: str, cards: dict[int, int], hidden: bool = False) -> str:
    """One kind of move in words: 'draws a City and 2 Farming Villages' ('draws 3 cards' when hidden)."""
    if hidden and kind in HIDDEN_MOVES:
        n = sum(cards.values())
        return HIDDEN_MOVES[kind].format(cards="a card" if n == 1 else f"{n} cards")
    return MOVES[kind].format(cards=card_list(db, cards))


def moves(db, before: Table, after: Table, p: int, turn_ended: bool, owns_play: bool,
          known: tuple = ()) -> Moves:
    """Seat p's moves between the two readings. When p's turn ended in between, the Cleanup's own
    moves (hand and play area to the discard pile, the new hand) are not told: the next turn's
    header shows the new hand. `owns_play`: p is the seat whose turn it was (the play area is theirs).
    `known`: (kind, card, {zone: change}) moves that the decision itself made: they are counted first,
    so that a card that also moved otherwise in the same step (a second copy drawn) is told right."""
    m = Moves()
    d = {z: getattr(after, z)[p] - getattr(before, z)[p]
         for z in ("hand", "discard", "domain", "kept", "owned", "deck")}
    d["play"] = after.play - before.play if owns_play else np.zeros(len(db), np.int64)
    for kind, c, change in known:
        m.add(kind, c, 1)
        for zone, n in change.items():
            d[zone][c] -= n

    def flow(kind, src, dst, c, limit=None):
        """Move up to `limit` copies of c out of zone src (its count fell) into zone dst (it rose)."""
        n = min(-d[src][c] if src else limit, d[dst][c] if dst else limit)
        if limit is not None:
            n = min(n, limit)
        if n > 0:
            m.add(kind, c, n)
            if src:
                d[src][c] += n
            if dst:
                d[dst][c] -= n
        return max(n, 0)

    # only the cards some zone of p's changed for can move (a card with no change makes no move): the
    # loops below run over them alone, in id order, as they would over every card
    changed = [int(c) for c in np.flatnonzero(np.any(np.stack(list(d.values())) != 0, axis=0))]
    if turn_ended:
        # only the zones the Cleanup leaves alone tell what happened: what p owns, domain, kept cards
        for c in changed:
            m.add("gain", c, int(d["owned"][c]))
            m.add("exile", c, -int(d["owned"][c]))
            m.add("to_domain" if before.play[c] > 0 else "set", c, int(d["domain"][c]))
            m.add("domain_discard", c, -int(d["domain"][c]))
            m.add("keep", c, int(d["kept"][c]))
            m.add("kept_discard", c, -int(d["kept"][c]))
        return m
    for c in changed:
        g = int(d["owned"][c])
        if g > 0:                                  # gains: from the market into a zone
            d["owned"][c] = 0
            g -= flow("gain_hand", None, "hand", c, g)
            g -= flow("gain_deck", None, "deck", c, g)
            g -= flow("gain", None, "discard", c, g)
            m.add("gain", c, g)                    # (gained and moved on in the same step)
        elif g < 0:                                # exiles: out of a zone, out of the game
            d["owned"][c] = 0
            for kind, src in (("exile", "hand"), ("exile_discard", "discard"), ("exile_play", "play"),
                              ("exile_kept", "kept"), ("exile_deck", "deck"), ("exile_domain", "domain")):
                g += flow(kind, src, None, c, -g)
            m.add("exile", c, -g)
    for c in changed:
        flow("played", "hand", "play", c)
        flow("set", "hand", "domain", c)
        flow("to_domain", "play", "domain", c)
        flow("set_discard", "discard", "domain", c)
        flow("domain_discard", "domain", "discard", c)
        flow("keep", "hand", "kept", c)
        flow("recall", "kept", "hand", c)
        flow("kept_discard", "kept", "discard", c)
        flow("play_deck", "play", "deck", c)
    reshuffled = before.deck_rng[p] != after.deck_rng[p] or before.discard_mask[p] & ~after.discard_mask[p]
    if reshuffled:
        # told as the step's first move: the whole discard pile went under the deck, then cards were
        # drawn or discarded from the deck
        m.kinds["shuffle"] = {}
        d["discard"] += before.discard[p]
        d["deck"] -= before.discard[p]
        changed = sorted(set(changed) | {int(c) for c in np.flatnonzero(before.discard[p])})
    for c in changed:
        flow("discard", "hand", "discard", c)
        flow("mill", "deck", "discard", c)
        flow("hand_deck", "hand", "deck", c)
        flow("discard_hand", "discard", "hand", c)
        flow("discard_deck", "discard", "deck", c)
        flow("draw", "deck", "hand", c)
    m.left = [(z, int(v[c]), c) for z, v in d.items() for c in changed if v[c]]
    return m


def counter_words(before: Table, after: Table, p: int) -> list[str]:
    out = []
    coin = lambda t: t.counters["coin"][p] + t.counters["handyman"][p]   # noqa: E731
    for what, b, a in (("coin counter", coin(before), coin(after)),
                       ("Twin counter", before.counters["twin"][p], after.counters["twin"][p]),
                       ("succession counter", before.counters["succession"][p], after.counters["succession"][p])):
        if a > b:
            out.append(f"gains {'a' if a - b == 1 else a - b} {what}{'s' if a - b > 1 else ''}, {a} in all")
        elif a < b:
            out.append(f"removes {'a' if b - a == 1 else b - a} {what}{'s' if b - a > 1 else ''}, {a} left")
    return out


# ---- the log ---------------------------------------------------------------------------------------

@dataclass
class Replay:
    """A replayed game: the log lines, the decisions taken and the game at its end."""

    lines: list[str]
    actions: list[int]
    game: Game
    seats: list[str]            # agent name by seat


# How the log tells the questions of an effect routine, and the decisions about them, where the generic
# telling would not do. Most routines need no entry: the card whose text asks is the cause, and the
# move of the card chosen says what the choice meant. An entry's keys:
#   cause    the cause after the decider's line ({card}: the card the routine's frame names)
#   others   the cause on the other seats' lines (default: `cause`)
#   secret   the whole line of a decision the other seats do not see ({seat}; {what}: the card picked)
#   pass     what declining says ({whose}: "its" or "seat N's", whose zone the question reads)
#   choose   what a card chosen says, whatever moved ({one}: the card; {where}: " kept in the domain")
#   unseen   what a card chosen says when no move of it shows ({one})
#   buy      what a buy says when the routine then asks where the card bought comes from ({one})
#   hand     (a card's own routine) what using its from-hand ability (A_HAND_ABILITY) says
#   cleanup  (a card's own routine) its card moved from the play area to the domain in the Cleanup
#            phase was set by its text at the start of the phase
TELLING = {
    K.EFF_BACK: {"cause": "backing {card}"},
    K.EFF_SET_ON_BUY: {"cause": "just bought", "others": "{card}"},
    K.EFF_DEFEND: {"cause": "Defense against {card}", "others": "{card}", "pass": "does not reveal a Defense card",
                   "choose": "reveals {one}{where}"},       # its Defense text's moves follow as the seat's own
    K.EFF_HAND_ELIMINATION: {"cause": "the opening hand, by hand elimination",
                             "secret": "seat {seat} picks {what} for its opening hand (hand elimination)"},
    K.EFF_SCOUT_1E: {"pass": "leaves {whose} top card, face up"},
    K.EFF_SUPPLY_UNIT: {"unseen": "puts {one} from the play area on top of the deck"},  # drawn again by the Cleanup
    K.EFF_BUY_FROM_OPPONENTS: {"buy": "buys {one} (Bribery: from where it lies, next)"},
    K.EFF_CURSE_WITCH_1E: {"hand": "exiles a Curse Witch from the hand: every opponent gains a Curse"},
    K.EFF_SET_AT_CLEANUP: {"cleanup": True},
}


def telling(effect: int | None) -> dict:
    """How the log tells routine `effect` (TELLING's entry; {} for the generic telling)."""
    return TELLING.get(effect, {}) if effect is not None else {}


CHOICE_ZONES = {K.CH_HAND: "in the hand", K.CH_DISCARD: "in the discard pile", K.CH_MARKET: "in the market",
                K.CH_PLAY: "in the play area", K.CH_DECK_TOP: "on top of the deck", K.CH_KEPT: "kept in the domain",
                K.CH_DOMAIN: "in an opponent's domain"}


class Decision:
    """A decision about to be taken: who decides, in which context, and the question's cause."""

    def __init__(self, game: Game, action: int):
        s = game.state
        self.action, self.seat, self.turn, self.turn_player = action, game.decider, game.turns, game.turn_player
        self.ctx, self.mode, self.choice = int(s[K.H_CTX]), int(s[K.H_MODE]), int(s[K.H_CH_KIND])
        self.verb = K.A_PLAY + (action - K.A_PLAY) // K.NCMAX * K.NCMAX if action >= K.A_PLAY else -1
        self.card = action - self.verb if self.verb >= 0 else -1
        self.effect = None
        self.owner = int(s[K.H_CH_OWNER]) if self.ctx == K.CTX_EFFECT else self.seat   # whose zone it reads
        if self.ctx == K.CTX_EFFECT:          # the top frame of the effect stack asks: (routine, card)
            fr = int(s[K.H_OFF_STACK] + (s[K.H_DEPTH] - 1) * K.STACK_FRAME)
            self.effect = (int(s[fr + FR_EFF]), int(s[fr + FR_A]))


class Teller:
    """Plays one game with its agents and writes what happens.

    `viewers`: whose log to write. None sees everything (the replay); a seat sees what a player in that
    seat sees: the other seats' hands and drawn cards are counted, not named. `feeds[viewer]` holds each
    log; `lines` is the first one."""

    def __init__(self, plan, index: int, viewers: tuple[int | None, ...] = (None,)):
        self.plan, self.index = plan, index
        self.ruleset: Ruleset = plan.ruleset
        self.db = self.ruleset.cards
        self.game = Game.of_run(self.ruleset, plan.seed, plan.seed_index(index))
        self.order = plan.seat_lineup(index)
        self.agents = [plan.agents[k] for k in self.order]
        self.feeds: dict[int | None, list[str]] = {v: [] for v in viewers}
        self.actions: list[int] = []

    @property
    def lines(self) -> list[str]:
        return next(iter(self.feeds.values()))

    def say(self, line: str) -> None:
        """A line every viewer reads alike."""
        for feed in self.feeds.values():
            feed.append(line)

    @staticmethod
    def hides(viewer: int | None, seat: int) -> bool:
        """The viewer does not see this seat's hidden cards."""
        return viewer is not None and viewer != seat

    # -- names
    def who(self, p: int, turn_player: int) -> str:
        """Lines of the seat whose turn it is start with the verb; other seats are named."""
        return "" if p == turn_player else f"seat {p} "

    def name(self, c: int) -> str:
        return self.db.english(c)

    @staticmethod
    def coins(n: int) -> str:
        return f"{n} coin{'s' if n != 1 else ''}"

    def cause(self, eff: int, c: int) -> str:
        """What asked the question of routine `eff` on card c (-1: none)."""
        if "cause" in (told := telling(eff)):
            return told["cause"].format(card=self.name(c) if c >= 0 else "")
        return self.name(c) if c >= 0 else "a card's text"

    def card_with(self, zone: np.ndarray, field: int, bits: int) -> int:
        """The lowest card id held in `zone` (a seat's counts) whose card-table `field` has one of `bits`
        (-1: none): the card an action without a card argument uses."""
        return next((c for c in range(len(self.db)) if zone[c] > 0 and self.db.table[c, field] & bits), -1)

    # -- the header
    def header(self) -> None:
        rs, g, d = self.ruleset, self.game, self.ruleset.describe()
        options = [f"turn cap {rs.turn_cap} turns each"] if rs.turn_cap != 100 else []
        options += ["30 SP wins at once"] if rs.instant_win_at_30 else []
        options += [f"overrides {' '.join(rs.overrides)}"] if rs.overrides else []
        self.say(f"Game {self.index} of run seed {self.plan.seed} (game seed {g.seed}): "
                 f"{EDITIONS[rs.edition]}, {rs.players} player{'s' if rs.players > 1 else ''}"
                 + "".join(f", {o}" for o in options))
        first = ("the most Apprentice Maids in the opening hand plays first" if rs.reseats else "seat 0 plays first")
        self.say(f"Seats ({first}): " + ", ".join(f"seat {j} {a.name}" for j, a in enumerate(self.agents)))
        self.say("Princesses (the pool, in order): " + ", ".join(
            self.name(self.db.index(p)) for p in d["princesses"]))
        self.say(self.market_line())

    def market_line(self) -> str:
        from hoc.games.heart_of_crown.presets import RECOMMENDED

        rs, s, db = self.ruleset, self.game.state, self.db
        mode, kinds = rs.market_piles
        if mode == K.MARKET_BASIC:
            return "Market: the basic market only (no supply)"
        drawn = [db.frame.pile.iat[int(s[K.H_KINDS + i])] for i in range(int(s[K.H_N_KINDS]))]
        names = ", ".join(self.name(db.cards_of_pile(k)[0]) if k != "attendant_maid" else "Attendant Maids"
                          for k in drawn)
        preset = None
        if mode == K.MARKET_FIXED:          # a preset, also when given as its ten kinds
            preset = rs.market if isinstance(rs.market, str) and rs.market in RECOMMENDED else next(
                (n for n, ks in RECOMMENDED.items() if sorted(ks) == sorted(kinds)), None)
        what = f"preset {preset}" if preset else "random" if mode == K.MARKET_RANDOM else "chosen kinds"
        showing = self.game.market()
        face_up = {db.index(c): n for c, n in showing.items()
                   if db.frame.category.iat[db.index(c)] in ("common", "rare")}
        return f"Market: {what}: {names}. It shows {card_list(db, face_up)}"

    # -- one decision
    def turn_header(self) -> None:
        g = self.game
        p = g.turn_player
        extra = ", extra turn" if g.state[K.H_IN_EXTRA] else ""
        hand = Table.read(g).hand[p]
        for viewer, feed in self.feeds.items():
            shown = (f"{int(hand.sum())} card{'s' if hand.sum() != 1 else ''}" if self.hides(viewer, p)
                     else zone_list(self.db, hand))
            feed.append(f"Turn {g.turns}, seat {p} ({self.agents[p].name}){extra}: {g.sp(p)} SP. Hand: {shown}")

    def decide(self) -> int:
        g = self.game
        p = g.decider
        agent = self.agents[p]
        a = agent.play(g) if agent.play is not None else g.decide(agent, self.plan.params[self.order[p]])
        return g.parse(a) if isinstance(a, str) else int(a)

    def step(self) -> None:
        """Take one decision and write its line, then the lines of what it did to the other seats,
        the Cleanup's own sets and the market."""
        g = self.game
        a = self.decide()
        d = Decision(g, a)
        before = Table.read(g)
        g.apply(a)
        self.actions.append(a)
        after = Table.read(g)
        cur = d.turn_player
        ended = g.over or g.turns != d.turn or g.turn_player != cur
        # a seat's Cleanup happened in this step if its turn ended or reached the declaration, or if it had a
        # whole turn without a decision
        cleaned = [(q == cur and (ended or (g.state[K.H_PHASE] in (K.PH_DECLARE, K.PH_END) and d.ctx != K.CTX_DECLARE)))
                   or after.turns[q] - before.turns[q] >= (2 if q == g.turn_player else 1) for q in range(g.players)]
        for viewer, feed in self.feeds.items():
            feed += self.step_lines(d, before, after, cleaned, viewer)
        self.market_news(before, after)

    def step_lines(self, d: "Decision", before: Table, after: Table, cleaned: list[bool],
                   viewer: int | None) -> list[str]:
        """The lines of one decision as `viewer` reads them."""
        g, db = self.game, self.db
        cur, p = d.turn_player, d.seat
        asked = telling(d.effect[0] if d.effect else None)
        if "secret" in asked:           # (hand elimination, before the first turn)
            what = "a card" if self.hides(viewer, p) else db.count(d.card, 1)
            return ["  " + asked["secret"].format(seat=p, what=what)]
        lines = []
        known = {q: () for q in range(g.players)}
        if d.verb in KNOWN:
            kind, change = KNOWN[d.verb]
            known[p] = ((kind, d.card, change),)
        told = {q: moves(db, before, after, q, cleaned[q], q == cur, known[q]) for q in range(g.players)}
        for q in range(g.players):
            told[q].extra += counter_words(before, after, q)
        if after.extra_pending > before.extra_pending:
            n = after.extra_pending
            told[cur].extra.append("will take an extra turn after this one" if n == 1
                                   else f"will take {n} extra turns after this one")
        what, cause = self.decision(d, before, after, told[p], self.hides(viewer, p))
        cleanup = Moves()
        if cleaned[cur]:       # cards whose own text sets them at the start of the Cleanup phase
            moved = told[cur].kinds.get("to_domain", {})
            for c in list(moved):
                if telling(int(db.table[c, K.F_EFFECT])).get("cleanup"):
                    cleanup.add("set", c, moved.pop(c))
        if cleanup.kinds and d.verb == K.A_SET:
            what = what.rsplit(" (", 1)[0]        # the SP shown is the Cleanup's, below
        line = f"{what}{f' ({cause})' if cause else ''}"
        if rest := told[p].words(db, self.hides(viewer, p)):
            line += ": " + "; ".join(rest)
        if p == cur and not cleaned[cur]:
            line += self.coins_now(d, before, after)
        lines.append(f"  {self.who(p, cur)}{line}")
        because = asked["others"].format(card=self.name(d.effect[1])) if "others" in asked else cause
        if not because and d.verb in (K.A_PLAY, K.A_BACK, K.A_SET):
            because = self.name(d.card)
        for q in range(g.players):
            if q != p and (words := told[q].words(db, self.hides(viewer, q))):
                lines.append(f"  {self.who(q, cur)}{'; '.join(words)}" + (f" ({because})" if because else ""))
        if cleanup.kinds:
            lines.append(f"  {self.who(cur, cur)}{'; '.join(cleanup.words(db))} at the start of the Cleanup "
                         f"phase ({after.sp[cur]} SP)")
        return lines

    @staticmethod
    def coins_now(d: "Decision", before: Table, after: Table) -> str:
        """The coins (and open plays) after a play, a coin counter or a card's choice that changed them."""
        if d.ctx == K.CTX_MAIN and (d.verb == K.A_PLAY or d.action in (K.A_COIN, K.A_DOMAIN_ABILITY)):
            plays = ", no plays left" if after.open == 0 else f", {after.open} plays open" if after.open > 1 else ""
            return f" (coins {after.coins}{plays})"
        if d.ctx == K.CTX_EFFECT and after.coins != before.coins:
            return f" (coins {after.coins})"
        return ""

    def market_news(self, before: Table, after: Table) -> None:
        db = self.db
        grown = {c: int(n) for c, n in enumerate(after.market - before.market) if n > 0 and
                 db.frame.category.iat[c] in ("common", "rare")}
        if grown:
            self.say(f"  the market reveals {card_list(db, grown)} ({after.supply_n} left in the supply)")
        if len(after.face_up) > len(before.face_up):
            self.say(f"  the supply's bottom card is turned face up on top: {self.name(after.face_up[0])}")

    def decision(self, d: "Decision", before: Table, after: Table, mine: Moves,
                 hidden: bool = False) -> tuple[str, str]:
        """What the deciding seat did, in words, and what caused the question (a card or princess, or '').
        The decision's own move is taken out of `mine`, the seat's moves, which tell the rest. `hidden`:
        told to another seat, which does not see the cards drawn or chosen in the hand or the deck."""
        db, p, a, c = self.db, d.seat, d.action, d.card
        asked = telling(d.effect[0] if d.effect else None)
        if a == K.A_PASS:
            if "pass" in asked:
                whose = "its" if d.owner == d.seat else f"seat {d.owner}'s"
                return asked["pass"].format(whose=whose), self.cause(*d.effect)
            return self.passing(d, before), (self.cause(*d.effect) if d.effect else "")
        if a == K.A_DECLARE:
            return f"declares coronation with {after.sp[p]} SP", ""
        if a == K.A_COIN:
            return "spends a coin counter", ""
        if a == K.A_ABILITY:
            return f"uses the ability of {self.name(self.game.player(p, K.P_PRINCESS))}", ""
        if a == K.A_DOMAIN_ABILITY:         # the card in the domain whose ability it is (as the kernel finds it)
            return f"uses {self.name(self.card_with(before.domain[p], K.F_TRIGGERS, 1 << K.TRIG_DOMAIN))}", ""
        if a == K.A_HAND_ABILITY:           # the card in hand whose ability it is
            c = self.card_with(before.hand[p], K.F_FLAGS, K.FL_EXILE_FROM_HAND)
            return telling(int(db.table[c, K.F_EFFECT])).get("hand", f"exiles {db.count(c, 1)} from the hand"), ""
        paid = f"for {self.coins(before.coins - after.coins)} ({after.coins} left)"
        if K.A_NUMBER <= a <= K.A_NUMBER + K.NUMBER_MAX:
            n = a - K.A_NUMBER
            modes = K.MODES.get(d.effect[0], ()) if d.choice == K.CH_MODE else ()
            if n < len(modes):
                return f'chooses "{modes[n]}"', self.cause(*d.effect)
            if any(any(v.values()) for v in mine.kinds.values()):     # "gains 3 Court Maids" says the number
                what = "; ".join(mine.words(db, hidden)[:len(mine.kinds)])
                mine.kinds.clear()
                return what, self.cause(*d.effect)
            return f"chooses {n}", self.cause(*d.effect)
        if d.verb in KNOWN:
            mine.take(c, (KNOWN[d.verb][0],))
        one = db.count(c, 1)
        if d.verb == K.A_PLAY:
            return f"plays {self.name(c)}", ""
        if d.verb in (K.A_RECALL, K.A_KEEP):
            return f"{'recalls' if d.verb == K.A_RECALL else 'keeps'} {one}", ""
        if d.verb == K.A_BUY:
            g = self.game
            if g.context == "card choice" and g.decider == p and int(g.state[K.H_DEPTH]) > 0 and "buy" in (
                    then := telling(int(g.state[g.state[K.H_OFF_STACK] + (g.state[K.H_DEPTH] - 1) * K.STACK_FRAME]))):
                return then["buy"].format(one=one), ""
            return f"buys {one} {paid}", ""
        if d.verb == K.A_SET:
            return f"sets {one} ({after.sp[p]} SP)", ""
        if d.verb == K.A_BACK:
            moved = mine.kinds.pop("to_domain", {})
            return (f"backs {self.name(c)} with {self.coins(before.coins)}; {card_list(db, moved)} "
                    f"move{'s' if sum(moved.values()) == 1 else ''} to the domain ({after.sp[p]} SP)"), ""
        # a card chosen for a card's text: what happened to it says what the choice meant
        cause = self.cause(*d.effect)
        if "choose" in asked:
            return asked["choose"].format(one=one, where=" kept in the domain" if d.choice == K.CH_KEPT else ""), cause
        if (took := mine.take(c)) is not None:
            return move(db, took, {c: 1}, hidden), cause
        if "unseen" in asked:
            return asked["unseen"].format(one=one), cause
        if d.owner != p:                # 1E: a card of another seat's deck top, kept cards or domain
            where = {K.CH_DECK_TOP: f"on top of seat {d.owner}'s deck", K.CH_KEPT: f"kept by seat {d.owner}",
                     K.CH_DOMAIN: f"in seat {d.owner}'s domain"}.get(d.choice, "")
            return f"chooses {one} {where}".rstrip(), cause
        if hidden and d.choice in (K.CH_HAND, K.CH_DECK_TOP):
            one = "a card"
        return f"chooses {one} {CHOICE_ZONES.get(d.choice, '')}".rstrip(), cause

    def passing(self, d: "Decision", before: Table) -> str:
        if d.ctx == K.CTX_MAIN:
            return f"ends the Main phase with {self.coins(before.coins)}"
        if d.ctx == K.CTX_SECOND:
            unused = f" ({self.coins(before.coins)} unused)" if before.coins else ""
            return {K.MODE_NONE: f"buys nothing{unused}", K.MODE_BUYING: f"stops buying{unused}",
                    K.MODE_SETTING: "stops setting"}[d.mode]
        if d.ctx == K.CTX_KEEP:
            return "keeps nothing more"
        if d.ctx == K.CTX_DECLARE:
            return f"does not declare coronation ({before.sp[d.seat]} SP)"
        return "passes"

    def end(self) -> None:
        g, rs = self.game, self.ruleset
        reason = g.end_reason
        three = (rs.judgement or ("three_piles" if rs.second_edition else "duke_only")) == "three_piles"
        words = {"coronation": "coronation",
                 "overtime": "overtime: a declarer reached 30 SP",
                 "judgement": ("judgement: the Duke, Senator and Court Maid piles are empty" if three
                               else "judgement: the Duke pile is empty"),
                 "turn_cap": f"the turn cap ({rs.turn_cap} turns each)",
                 "instant_30": "30 SP"}[reason]
        mask = int(g.state[K.H_WIN_MASK])
        winners = [j for j in range(g.players) if mask >> j & 1]
        if len(winners) == 1:
            result = f"seat {winners[0]} ({self.agents[winners[0]].name}) wins"
        elif winners:
            result = "seats " + " and ".join(map(str, winners)) + " share the win"
        else:
            result = "no winner"
        self.say(f"End after {g.turns} turns by {words}: {result}.")
        self.say("Final SP: " + ", ".join(
            f"seat {j} {g.sp(j)} ({self.name(self.db.index(g.princess(j))) if g.princess(j) else 'no princess'})"
            for j in range(g.players)))

    def more(self) -> bool:
        """Whether to go on with the game (a saved game that stopped before its end does not)."""
        return True

    def seating_line(self) -> None:
        """The opening hands shown together, and where the players sit (hand elimination)."""
        g = self.game
        maid = self.db.index("apprentice_maid")
        shown = ", ".join(f"seat {p} {g.hand(p).get(self.db.name(maid), 0)}" for p in range(g.players))
        self.say(f"The opening hands are shown: Apprentice Maids {shown}; turn order "
                 + ", ".join(f"seat {p}" for p in g.seat_order))

    def begin(self) -> None:
        """Start telling the game: its header. Then `ready` and `step` in turn, and `close` (what
        `tell` does in one go; a caller that waits between decisions, such as the web table, calls
        them itself)."""
        self.header()
        self._shown = 0             # the turn whose header was written last

    def ready(self) -> bool:
        """Whether a decision is due (the game goes on and `more` says to); the header of a turn begun
        since the last decision is written first."""
        g = self.game
        if g.over or not self.more():
            return False
        if g.turns != self._shown:
            shown = self._shown
            if g.turns > shown + 1:
                first, last = shown + 1, g.turns - 1
                self.say(f"(turn{'s' if last > first else ''} {first}{f'-{last}' if last > first else ''}:"
                         f" nothing to decide)")
            if shown == 0 and self.ruleset.reseats:
                self.seating_line()
            self._shown = g.turns
            self.turn_header()
        return True

    def close(self) -> Replay:
        """The end of the telling: how the game ended (if it did) and the replay."""
        if self.game.over:
            self.end()
        return Replay(self.lines, self.actions, self.game, [a.name for a in self.agents])

    def tell(self) -> Replay:
        self.begin()
        while self.ready():
            self.step()
        return self.close()


def replay_game(plan, index: int) -> Replay:
    """Replay game `index` of a run's plan (`hoc.research.harness.Plan`): same seed, seats, rules."""
    if index < 0:
        raise HocError(f"game index must be 0 or more, got {index}")
    return Teller(plan, index).tell()


# ---- a game saved by `hoc play` (the file's format is `hoc.games.saved`) ---------------------------

SAVED_RULES = {"edition": "name", "players": "count", "market": "name", "princesses": "names",
               "overrides": "names", "turn_cap": "count", "instant_win_at_30": "flag"}
OPTIONAL_RULES = {"judgement": "name", "tie": "name", "keep_timing": "name", "seating": "name"}  # saved when given
RESULT_KEYS = ("over", "end_reason", "winners", "turns", "sp")


def tell(plan, index: int, decide=None, room=None) -> tuple[Replay, int, list[int]]:
    """Game `index` of a run's plan told (`GameSpec.replay`): the telling, the winner (-1: none) and
    each seat's SP. (`decide`, `room`: the lineup's seating, which a Heart of Crown game finds itself.)"""
    r = replay_game(plan, index)
    winner = r.game.winner if r.game.winner is not None else -1
    return r, winner, [r.game.sp(j) for j in range(plan.ruleset.players)]


def ruleset_of(p: dict) -> Ruleset:
    """The ruleset a run's manifest recorded (its `plan`), as `Plan.describe` wrote it."""
    return Ruleset(edition=p["edition"], players=p["players"], market=p["market"],
                   princesses=tuple(p["princesses"]), overrides=tuple(p["overrides"]),
                   turn_cap=p["turn_cap"], instant_win_at_30=p["instant_win_at_30"],
                   market_with=tuple(p.get("market_with", ())),
                   **{k: p[k] for k in OPTIONAL_RULES if k in p})


def result_of(game: Game) -> dict:
    """What a saved game's replay must end with."""
    return {"over": game.over, "end_reason": game.end_reason, "winners": game.winners, "turns": game.turns,
            "sp": [game.sp(j) for j in range(game.players)]}


def saved_data(teller: Teller) -> dict:
    """The game a `Teller` has played so far as a saved game (`hoc.games.saved.data`)."""
    from hoc.games import saved

    plan = teller.plan
    return saved.data(plan.ruleset, plan.seed, teller.index, [a.name for a in teller.agents], teller.actions,
                      result_of(teller.game))


def save_game(path: str | Path, teller: Teller) -> None:
    """Write the game a `Teller` has played so far: its rules, seed, seats and every decision taken.
    `hoc replay FILE` plays the decisions again (whoever took them, a person or an agent)."""
    from hoc.games import saved

    saved.write(path, saved_data(teller))


class Script(Teller):
    """Tells a saved game by taking its recorded decisions again."""

    def __init__(self, plan, index: int, actions: list[int]):
        super().__init__(plan, index)
        self.script = list(actions)

    def more(self) -> bool:
        return len(self.actions) < len(self.script)

    def close(self) -> Replay:
        left = len(self.script) - len(self.actions)
        if self.game.over and left > 0:
            raise HocError(f"the saved game goes on for {left} decision{'s' if left > 1 else ''} after its end "
                           f"(decision {len(self.actions)}): it was not saved by this engine, or was changed since")
        return super().close()

    def decide(self) -> int:
        g = self.game
        a = self.script[len(self.actions)]
        if not g.is_legal(a):
            raise HocError(f"decision {len(self.actions) + 1} of the saved game, action {a} ({g.label(a)}), is not "
                           f"legal for seat {g.decider} here: the rules or the engine changed since it was saved")
        return a


def retell(plan, index: int, actions: list[int]) -> Replay:
    """A saved game told again from its recorded decisions (`hoc.games.saved`); a game saved before
    its end says who was to act."""
    r = Script(plan, index, actions).tell()
    if not r.game.over:
        r.lines.append(f"(saved before the end, after {len(actions)} decisions; seat {r.game.decider} was to act "
                       f"in the {r.game.context})")
    return r
