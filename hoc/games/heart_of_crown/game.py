"""`Game`: one game as a Python object, for notebooks, people at a terminal, external programs and
learning code. Every choice goes through `legal_actions()` and `apply(action)`; the jitted agents
use the very same kernels. Everything a player could see is read through its accessors (zones,
supply, counters, flags, prices), never through raw state offsets.

Python agents call it at every decision, so the hot paths (`legal_actions`, `apply`, `label`,
`context`, `hand`) read the state through a memoryview (a slot as a Python int, without numpy's
per-item overhead) and name actions from tables built once per card set."""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from hoc.games.heart_of_crown.cards import CardDB
from hoc.errors import HocError, IllegalActionError
from hoc.games.heart_of_crown.kernel import constants as K
from hoc.engine.seeds import check_seed  # noqa: F401 (re-exported: where the Game API checks a seed)
from hoc.games.heart_of_crown.kernel.setup import game_seed, init_game, new_state
from hoc.games.heart_of_crown.kernel.state import load_u64
from hoc.games.heart_of_crown.kernel.turn import apply_if_legal as _apply_if_legal
from hoc.games.heart_of_crown.kernel.turn import is_legal as _is_legal
from hoc.games.heart_of_crown.kernel.turn import legal_actions as _legal_actions
from hoc.games.heart_of_crown.kernel.zones import FACE_UP
from hoc.games.heart_of_crown.kernel.zones import buy_cost as _buy_cost
from hoc.games.heart_of_crown.rules import Ruleset

PHASES = {K.PH_START: "start", K.PH_MAIN: "main", K.PH_SECOND: "second", K.PH_CLEANUP: "cleanup",
          K.PH_KEEP: "keep", K.PH_DRAW: "draw", K.PH_DECLARE: "declare", K.PH_END: "end",
          K.PH_OVER: "over"}
NAMED_ACTIONS = {K.A_DECLARE: "declare coronation", K.A_COIN: "spend coin counter",
                 K.A_ABILITY: "use princess ability", K.A_DOMAIN_ABILITY: "use lily",
                 K.A_HAND_ABILITY: "exile from hand"}
PASS_LABELS = {K.CTX_MAIN: "pass: end the main phase", K.CTX_KEEP: "pass: keep no more",
               K.CTX_DECLARE: "pass: do not declare", K.CTX_EFFECT: "pass: decline"}
SECOND_PHASE_PASS = {K.MODE_NONE: "pass: do nothing this phase", K.MODE_BUYING: "pass: stop buying",
                     K.MODE_SETTING: "pass: stop setting"}
CONTEXTS = {K.CTX_NONE: "none", K.CTX_MAIN: "main phase", K.CTX_SECOND: "second phase",
            K.CTX_KEEP: "keep", K.CTX_DECLARE: "coronation", K.CTX_EFFECT: "card choice"}
SECOND_PHASE = {K.MODE_NONE: "open", K.MODE_BUYING: "buying", K.MODE_SETTING: "setting"}
VERBS = {K.A_PASS: "pass", K.A_DECLARE: "declare", K.A_COIN: "coin", K.A_ABILITY: "ability", K.A_DOMAIN_ABILITY: "lily",
         K.A_HAND_ABILITY: "hand"}


class Action(int):
    """An action id of the fixed action space, with its reading. It is that int wherever an id is
    expected (`apply`, comparisons, numpy indexing, JSON). Read-only: one table serves every game.

    verb: "play", "recall", "buy", "back", "set", "keep" or "choose" (a card action: `card` names the
    card), "number" (`number` is n), or "pass", "declare", "coin", "ability", "lily" ("unused" for
    the few ids no action has).
    """

    verb: str
    card: str | None
    number: int | None

    def __new__(cls, a: int, verb: str, card: str | None = None, number: int | None = None) -> "Action":
        action = super().__new__(cls, a)
        action.__dict__.update(verb=verb, card=card, number=number)
        return action

    def __setattr__(self, name, value):
        raise AttributeError("an Action is read-only (it is shared by every game of its card set)")

    __str__ = int.__repr__      # str() and f-strings still give the id

    def __repr__(self) -> str:
        what = self.card if self.card is not None else self.number
        return f"<Action {int(self)}: {self.verb}{'' if what is None else f' {what}'}>"

    def __reduce__(self):       # pickles (and deep-copies) as the plain id
        return int, (int(self),)


class Actions(NamedTuple):
    """Every action id read once for a card set (names are fixed for a ruleset)."""

    by_id: tuple[Action, ...]
    labels: tuple[str, ...]             # labels without context: "pass", "number 3", "play city"
    by_label: dict[str, int]            # the labels that do not depend on the position


@lru_cache(maxsize=16)
def actions(cards: CardDB) -> Actions:
    """The action table of a card set."""
    by_id, labels = [], []
    for a in range(K.N_ACTIONS):
        if a >= K.A_PLAY:
            verb = K.A_PLAY + (a - K.A_PLAY) // K.NCMAX * K.NCMAX
            c = a - verb
            action = Action(a, K.CARD_VERBS[verb], cards.name(c) if c < len(cards) else None)
            label = f"{action.verb} {action.card or f'#{c}'}"
        elif K.A_NUMBER <= a <= K.A_NUMBER + K.NUMBER_MAX:
            action = Action(a, "number", number=a - K.A_NUMBER)
            label = f"number {action.number}"
        elif a in VERBS:
            action = Action(a, VERBS[a])
            label = NAMED_ACTIONS.get(a, action.verb)
            if a == K.A_DOMAIN_ABILITY and "lily" not in cards.ids:
                label = "use imperial estate"       # 1E: Imperial Estate's ability is Lily's (R66)
            if a == K.A_HAND_ABILITY and "curse_witch" in cards.ids:
                label = "exile curse witch"
        else:
            action, label = Action(a, "unused"), f"action {a}"       # never legal
        by_id.append(action)
        labels.append(label)
    return Actions(tuple(by_id), tuple(labels), {label: a for a, label in enumerate(labels)})


class Counters(NamedTuple):
    """A player's counters."""

    coin: int               # coin counters (Minnyan's and others'): each spent for 1 coin in the Main phase
    handyman_coin: int      # coin counters from Handyman, kept apart: that effect holds at most 2
    twins: int              # Twins counters: each buys an extra turn
    succession: int         # succession counters on the backed princess: +1 SP each (Lily)
    debt: int = 0           # 1E Moneylender: debt counters in the Moneylender area; coins the player would
                            # gain remove that many instead
    debt_due: int = 0       # debt counters the Moneylenders the player played this turn add at its end

    def parts(self) -> list[tuple[int, str]]:
        """(how many, what) of each kind a person reads, the two kinds of coin counter together."""
        return [(self.coin + self.handyman_coin, "coin"), (self.twins, "twins"), (self.succession, "succession"),
                (self.debt, "debt"), (self.debt_due, "debt due at the end of the turn")]


class Game:
    """A game fully determined by its ruleset, its seed and the actions taken.

    >>> g = Game(Ruleset(players=2, market="basic"), seed=7)
    >>> while not g.over:
    ...     g.apply(g.legal_actions()[0])

    Deciding: `decider`, `context` ("main phase", "second phase", "keep", "coronation", "card
    choice"), `second_phase` ("open", "buying", "setting"), `legal_actions()` (`Action`s: `a.verb`,
    `a.card`), `apply(action or label)`, `label(a)`. Card facts: `cards["duke"].sp`, `.cost`,
    `.types`. Reading the table, all read-only Python values, seats from 0: `hand(p)`,
    `discard_pile(p)`, `domain(p)`, `kept(p)`, `deck_face_up(p)`, `play_area()`, `market()`,
    `supply()`, `supply_top()`, `exiled()`, `princess(p)`, `princesses_available()`, `sp(p)`,
    `counters(p)`, `declared(p)`, `knocked_out(p)`, `owned(p, card)`, `cards_owned(p)`,
    `turns_taken(p)`, `price(card, p)`, `coins`, `open_plays`, `cards_played`, `turn_player`,
    `seat_order`, `position(p)` (turn order: the seats' numbers unless the hand-elimination seating moved them),
    `turns`, `extra_turn`, `overtime`, `over`, `winner`, `winners`, `end_reason`. Hidden
    information too, for tests and analysis: `deck(p)`.
    """

    def __init__(self, ruleset: Ruleset | None = None, seed: int = 0, **rules):
        self.ruleset = ruleset if ruleset is not None else Ruleset(**rules)
        self.T = self.ruleset.cards.table
        self.R = self.ruleset.vector
        self.cards = self.ruleset.cards
        self._names = tuple(self.cards.ids)
        self._actions = actions(self.cards)
        self._buf = np.zeros(K.N_ACTIONS, K.DTYPE)
        self.state = new_state(self.T, self.R)
        self.reset(seed)

    def reset(self, seed: int) -> "Game":
        """Start the game of this seed afresh in the same state array (same ruleset)."""
        if not 0 <= int(seed) < 2 ** 64:
            raise HocError(f"a game seed must be between 0 and 2**64 - 1, got {seed}")
        self.seed = int(seed)
        init_game(self._s, np.uint64(self.seed).view(np.int64))
        return self

    @property
    def state(self) -> np.ndarray:
        """The flat int32 state (layout: `hoc.games.heart_of_crown.kernel.constants`)."""
        return self._s

    @state.setter
    def state(self, value: np.ndarray) -> None:
        self._s = value
        self._v = memoryview(value)     # one slot as a Python int, far cheaper than numpy indexing

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_v"}    # a memoryview does not pickle

    def __setstate__(self, d: dict) -> None:
        self.__dict__.update(d)
        self.state = d["_s"]

    @classmethod
    def of_run(cls, ruleset: Ruleset, master_seed: int, index: int) -> "Game":
        """Game `index` of a simulation run with seed `master_seed`."""
        if index < 0:
            raise HocError(f"game index must be 0 or more, got {index}")
        return cls(ruleset, int(np.int64(game_seed(np.int64(check_seed(master_seed)), index)).view(np.uint64)))

    # ---- the decision interface -------------------------------------------------------------
    @property
    def decider(self) -> int:
        """The seat that must act now."""
        return self._v[K.H_DECIDER]

    def legal_actions(self) -> list[Action]:
        """The legal actions in ascending id order, as `Action`s (ints that name verb and card)."""
        n = _legal_actions(self._s, self._buf)
        return list(map(self._actions.by_id.__getitem__, self._buf[:n].tolist()))

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(K.N_ACTIONS, bool)
        mask[self._buf[:_legal_actions(self._s, self._buf)]] = True
        return mask

    def is_legal(self, action: int) -> bool:
        a = int(action)
        return 0 <= a < K.N_ACTIONS and bool(_is_legal(self._s, a))

    def apply(self, action: int | str) -> None:
        """Take a legal action (an id, or its label as `label()` writes it)."""
        if isinstance(action, str):
            action = self.parse(action)
        if isinstance(action, (int, np.integer)) and 0 <= action < K.N_ACTIONS \
                and _apply_if_legal(self._s, int(action)):
            return
        self._refuse(action)

    def _refuse(self, action) -> None:
        if self.over:
            raise IllegalActionError("the game is over; no action is legal")
        legal = ", ".join(self.label(a) for a in self.legal_actions())
        shown = self.label(action) if isinstance(action, (int, np.integer)) and 0 <= action < K.N_ACTIONS else action
        raise IllegalActionError(f"action {action!r} ({shown}) is not legal for seat {self.decider} "
                                 f"in the {self.context}; legal: {legal}")

    # ---- labels -------------------------------------------------------------------------------
    def label(self, action: int) -> str:
        """A readable name: 'play city', 'buy duke', 'back laolily', 'number 3', 'pass'."""
        a = int(action)
        if a == K.A_PASS:
            return self._pass_label()
        if K.A_NUMBER <= a <= K.A_NUMBER + K.NUMBER_MAX:
            return self._number_label(a - K.A_NUMBER)
        return self._actions.labels[a] if 0 <= a < K.N_ACTIONS else f"action {a}"

    def _number_label(self, n: int) -> str:
        v = self._v
        if v[K.H_CTX] == K.CTX_EFFECT and v[K.H_CH_KIND] == K.CH_MODE and v[K.H_DEPTH] > 0:
            modes = K.MODES.get(v[v[K.H_OFF_STACK] + (v[K.H_DEPTH] - 1) * K.STACK_FRAME], ())
            if n < len(modes):
                return f"number {n}: {modes[n]}"
        return f"number {n}"

    def _pass_label(self) -> str:
        ctx = self._v[K.H_CTX]
        if ctx == K.CTX_SECOND:
            return SECOND_PHASE_PASS[self._v[K.H_MODE]]
        return PASS_LABELS.get(ctx, "pass")

    def parse(self, text: str) -> int:
        """The action a label names: the label as `label()` writes it, or its part before ':'."""
        text = text.strip()
        a = self._actions.by_label.get(text)
        if a is not None:
            return a
        for a in (K.A_PASS, *range(K.A_NUMBER, K.A_NUMBER + K.NUMBER_MAX + 1)):
            label = self.label(a)       # these labels depend on the position
            if label == text or label.split(":")[0] == text:
                return a
        raise IllegalActionError(f"no action is called {text!r}")

    # ---- what the table shows ----------------------------------------------------------------
    def _seat(self, p: int) -> int:
        if not 0 <= p < self.ruleset.players:
            raise HocError(f"seat {p!r} does not exist: seats are 0 to {self.ruleset.players - 1}")
        return p

    def _zone(self, offset: int) -> dict[str, int]:
        names = self._names
        return {names[c]: n for c, n in enumerate(self._s[offset:offset + len(names)].tolist()) if n}

    def _pb(self, p: int) -> int:
        return self._v[K.H_OFF_PLAYER] + self._seat(p) * K.PSZ

    def _region(self, header: int, p: int = 0) -> int:
        return self._v[header] + self._seat(p) * self._v[K.H_NC]

    def hand(self, p: int) -> dict[str, int]:
        """p's hand: {card: copies}, in card id order."""
        return self._zone(self._region(K.H_OFF_HAND, p))

    def discard_pile(self, p: int) -> dict[str, int]:
        return self._zone(self._region(K.H_OFF_DISCARD, p))

    def domain(self, p: int) -> dict[str, int]:
        return self._zone(self._region(K.H_OFF_DOMAIN, p))

    def kept(self, p: int) -> dict[str, int]:
        """The Actions p keeps on the Territories of the domain."""
        return self._zone(self._region(K.H_OFF_KEPT, p))

    def play_area(self) -> dict[str, int]:
        return self._zone(self._v[K.H_OFF_PLAY])

    def market(self) -> dict[str, int]:
        """Every card that can be bought or backed: the basic piles, the random market's showing cards,
        the princesses not yet backed."""
        return self._zone(self._v[K.H_OFF_MARKET])

    def exiled(self) -> dict[str, int]:
        """The exile zone ("abroad"), shared by all players: cards out of the game."""
        return self._zone(self._v[K.H_OFF_ABROAD])

    def supply(self) -> dict[str, int]:
        """The face-down supply deck by kind: {kind: cards of it left}, kinds in card id order. Public:
        everyone knows the kinds dealt into it and sees every card that leaves it. Its order is not."""
        v = self._v
        start = v[K.H_OFF_SUPPLY]
        counts = np.bincount(self._s[start:start + v[K.H_SUPPLY_N]], minlength=len(self._names))
        piles: dict[str, int] = {}
        for c in np.flatnonzero(counts).tolist():
            pile = self.cards[c].pile
            piles[pile] = piles.get(pile, 0) + int(counts[c])
        return piles

    def supply_deck(self) -> list[str]:
        """The supply deck of the random market, top card first (hidden information below the face-up
        cards: for tests and analysis)."""
        v = self._v
        start = v[K.H_OFF_SUPPLY]
        return [self._names[c] for c in self._s[start:start + v[K.H_SUPPLY_N]][::-1].tolist()]

    def face_up(self) -> list[str]:
        """The cards Buried Treasure turned face up on top of the supply, top card first. The top one is in
        the market, and so is every one revealed this turn (3 cheaper to buy in that turn)."""
        return self.supply_deck()[:self._v[K.H_REVEALED]]

    def supply_top(self) -> str | None:
        """The card lying face up on top of the supply, or None when the top card is face down or the
        supply is empty."""
        face = self.face_up()
        return face[0] if face else None

    def deck(self, p: int) -> list[str]:
        """p's draw pile, top card first (hidden information: for tests and analysis)."""
        return [self._names[x & (FACE_UP - 1)] for x in self._deck_entries(p)]

    def deck_face_up(self, p: int) -> list[str | None]:
        """p's draw pile as the table sees it, top card first: the cards put face up on it by name
        (Curses from Sharifa, Farming Villages from Land Reclamation Decree, cards returned by Supply
        Unit or Hideout), None for each face-down card."""
        return [self._names[x & (FACE_UP - 1)] if x & FACE_UP else None for x in self._deck_entries(p)]

    def _deck_entries(self, p: int) -> list[int]:
        v = self._v
        off = v[K.H_OFF_DECK] + self._seat(p) * v[K.H_DCAP]
        return self._s[off:off + v[self._pb(p) + K.P_DECK_N]][::-1].tolist()

    def princess(self, p: int) -> str | None:
        """The princess p backed, or None."""
        k = self._v[self._pb(p) + K.P_PRINCESS]
        return self._names[k] if k >= 0 else None

    def princesses_available(self) -> list[str]:
        """The princesses nobody has backed yet, in the ruleset's pool order."""
        m = self._v[K.H_OFF_MARKET]
        return [self._names[k] for k in self.ruleset.pool if self._v[m + k] > 0]

    def score(self, p: int) -> int:
        """p's score: its SP (what every game's `score` is)."""
        return self.sp(p)

    def describe_seat(self, p: int) -> str:
        return f"{self.sp(p)} SP, princess {self.princess(p)}, domain {self.domain(p)}"

    def sp(self, p: int) -> int:
        """p's succession points: princess, domain and succession counters."""
        return self._v[self._pb(p) + K.P_SP]

    def counters(self, p: int) -> Counters:
        b = self._pb(p)
        v = self._v
        p = self._seat(p)
        due = v[K.H_DEBT_NEW] if p == v[K.H_CUR] and not self.over else 0
        return Counters(v[b + K.P_COIN_CTR], v[b + K.P_HANDY_CTR], v[b + K.P_TWIN_CTR], v[b + K.P_SUCC_CTR],
                        v[K.H_DEBT + p], due)

    def declared(self, p: int) -> bool:
        """p has declared a coronation that still stands (a declarer who falls below 20 SP is cancelled)."""
        return self._v[self._pb(p) + K.P_DECLARED] != 0

    def knocked_out(self, p: int) -> bool:
        """p takes no more turns: another player declared in the same round and overtime left p out."""
        return self._v[self._pb(p) + K.P_OUT] != 0

    def turns_taken(self, p: int) -> int:
        """Turns p has started, extra turns included."""
        return self._v[self._pb(p) + K.P_TURNS]

    def cards_owned(self, p: int) -> int:
        """Cards in p's field: deck, hand, discard pile, play area, domain and kept (not the princess)."""
        return self._v[self._pb(p) + K.P_OWNED_N]

    def price(self, card: str, player: int | None = None) -> int:
        """What `player` (default: the decider) pays to buy `card` now, every reduction in force
        (Klam Klam, Ball, Charm Witch; for a card face up on the supply, its 3 less in the turn
        Buried Treasure revealed it). Backing a princess always costs her printed cost."""
        c = self.cards.index(card)
        p = self.decider if player is None else self._seat(player)
        return int(_buy_cost(self._s, p, c))

    def player(self, p: int, field: int) -> int:
        """A raw per-player slot (K.P_*); prefer the named accessors."""
        return self._v[self._pb(p) + field]

    @property
    def players(self) -> int:
        return self.ruleset.players

    def position(self, p: int) -> int:
        """p's place in turn order (0 plays first): p itself unless a seating rule (hand elimination)
        seated the players otherwise."""
        return self._v[K.SEAT_POS + self._seat(p)]

    @property
    def seat_order(self) -> list[int]:
        """The players in turn order, the first player first (clockwise around the table)."""
        return [self._v[K.SEAT_ORDER + i] for i in range(self.players)]

    @property
    def turn_player(self) -> int:
        return self._v[K.H_CUR]

    @property
    def turns(self) -> int:
        """Turns started by all players together."""
        return self._v[K.H_TURNS]

    @property
    def steps(self) -> int:
        """Decisions taken so far."""
        return self._v[K.H_STEPS]

    @property
    def coins(self) -> int:
        """The turn player's coins to spend this turn."""
        return self._v[K.H_COINS]

    @property
    def open_plays(self) -> int:
        """How many more cards the turn player may play: 1 + the links of the cards played - their number."""
        return self._v[K.H_OPEN]

    @property
    def cards_played(self) -> int:
        """Cards the turn player has played this turn."""
        return self._v[K.H_PLAYED]

    @property
    def extra_turn(self) -> bool:
        """The current turn is an extra turn (Twins)."""
        return self._v[K.H_IN_EXTRA] != 0

    @property
    def extra_turns_pending(self) -> int:
        """Extra turns (Twins) the turn player takes after this turn, one after another."""
        return int(self._v[K.H_EXTRA_PENDING])

    @property
    def overtime(self) -> bool:
        """Two players declared in one round: only declarers play on, the first to 30 SP wins."""
        return self._v[K.H_OVERTIME] != 0

    @property
    def phase(self) -> str:
        return PHASES[self._v[K.H_PHASE]]

    @property
    def context(self) -> str:
        """What the decider is asked: "main phase", "second phase", "keep", "coronation" or "card choice"
        ("none" once the game is over)."""
        return CONTEXTS[self._v[K.H_CTX]]

    @property
    def second_phase(self) -> str | None:
        """In the Second phase, what the turn player has started: "open" (nothing yet: may buy, back a
        princess or set), "buying" or "setting"; None at any other decision."""
        return SECOND_PHASE[self._v[K.H_MODE]] if self._v[K.H_CTX] == K.CTX_SECOND else None

    @property
    def over(self) -> bool:
        return self._v[K.H_END] != 0

    @property
    def end_reason(self) -> str | None:
        return K.END_REASONS.get(self._v[K.H_END])

    @property
    def winner(self) -> int | None:
        """Winning seat, or None for a draw, a shared win or a game still running."""
        w = self._v[K.H_WINNER]
        return w if self.over and w >= 0 else None

    @property
    def winners(self) -> list[int]:
        """Every winning seat (several when a tie is shared); empty for a draw or a game still running."""
        mask = self._v[K.H_WIN_MASK]
        return [p for p in range(self.players) if mask >> p & 1] if self.over else []

    @property
    def game_seed(self) -> int:
        return int(load_u64(self._s, K.H_SEED))

    def arrange(self, p: int, *, hand=None, deck=None, discard=None, domain=None, kept=None,
                princess: str | None | bool = False, coins: int | None = None, market=None,
                supply=None) -> "Game":
        """Rewrite player p's zones for a test or a puzzle position (cards come from nowhere and go
        nowhere: the card totals change). Zones are {card: count}; deck is a list, top card first;
        so is supply, the random market's supply deck, all face down. Only the given zones change.
        The game then advances to its next decision."""
        from hoc.games.heart_of_crown.kernel.endgame import domain_changed
        from hoc.games.heart_of_crown.kernel.turn import advance

        db = self.ruleset.cards
        s = self.state
        b = self._pb(p)

        def fill(header, zone, size_field):
            off = self._region(header, p)
            for c in range(len(db)):
                s[self._region(K.H_OFF_OWNED, p) + c] -= s[off + c]
                s[b + K.P_OWNED_N] -= s[off + c]
                s[off + c] = 0
            s[b + size_field] = 0
            for name, n in zone.items():
                c = db.index(name)
                s[off + c] += n
                s[self._region(K.H_OFF_OWNED, p) + c] += n
                s[b + K.P_OWNED_N] += n
                s[b + size_field] += n

        if hand is not None:
            fill(K.H_OFF_HAND, hand, K.P_HAND_N)
            h = self._region(K.H_OFF_HAND, p)
            T = self.T
            s[b + K.P_HAND_PLAYABLE] = sum(int(s[h + c]) for c in range(len(db)) if T[c, K.F_TYPES] & (K.TY_TERRITORY | K.TY_ACTION))
            s[b + K.P_HAND_SUCC] = sum(int(s[h + c]) for c in range(len(db)) if T[c, K.F_TYPES] & K.TY_SUCCESSION)
            s[b + K.P_HAND_ACTION] = sum(int(s[h + c]) for c in range(len(db)) if T[c, K.F_TYPES] & K.TY_ACTION)
        if discard is not None:
            fill(K.H_OFF_DISCARD, discard, K.P_DISCARD_N)
        if domain is not None:
            fill(K.H_OFF_DOMAIN, domain, K.P_DOMAIN_N)
        if kept is not None:
            fill(K.H_OFF_KEPT, kept, K.P_KEPT_N)
        if deck is not None:
            off = int(s[K.H_OFF_DECK] + p * s[K.H_DCAP])
            for x in s[off:off + s[b + K.P_DECK_N]]:
                s[self._region(K.H_OFF_OWNED, p) + (x & 0xFFFF)] -= 1
                s[b + K.P_OWNED_N] -= 1
            for i, name in enumerate(reversed(deck)):
                c = db.index(name)
                s[off + i] = c
                s[self._region(K.H_OFF_OWNED, p) + c] += 1
                s[b + K.P_OWNED_N] += 1
            s[b + K.P_DECK_N] = len(deck)
        if market is not None:
            m = int(s[K.H_OFF_MARKET])
            for name, n in market.items():
                s[m + db.index(name)] = n
        if supply is not None:
            off = int(s[K.H_OFF_SUPPLY])
            if len(supply) > s[K.H_SCAP]:
                raise HocError(f"a supply of {len(supply)} cards; this game holds at most {int(s[K.H_SCAP])}")
            s[off:off + len(supply)] = [db.index(name) for name in reversed(supply)]
            s[K.H_SUPPLY_N] = len(supply)
            s[K.H_REVEALED] = 0
            s[K.H_REVEALED_NEW] = 0
        if princess is not False:
            s[b + K.P_PRINCESS] = db.index(princess) if princess else -1
        if coins is not None:
            s[K.H_COINS] = coins
        self._register_active()
        domain_changed(s, p)
        if s[K.H_CTX] != K.CTX_NONE and not self.over:
            s[K.H_CTX] = K.CTX_NONE
            advance(s)
        return self

    def _register_active(self):
        """Cards placed by `arrange` join the list of cards present in the game."""
        s = self.state
        present = set(int(x) for x in s[s[K.H_OFF_ACTIVE]:s[K.H_OFF_ACTIVE] + s[K.H_NACTIVE]])
        nc = len(self.ruleset.cards)
        for region in (K.H_OFF_HAND, K.H_OFF_DISCARD, K.H_OFF_DOMAIN, K.H_OFF_KEPT, K.H_OFF_OWNED):
            for p in range(self.players):
                off = self._region(region, p)
                present |= {c for c in range(nc) if s[off + c] > 0}
        m = int(s[K.H_OFF_MARKET])
        present |= {c for c in range(nc) if s[m + c] > 0}
        present |= {int(c) for c in s[s[K.H_OFF_SUPPLY]:s[K.H_OFF_SUPPLY] + s[K.H_SUPPLY_N]]}
        ordered = sorted(present)
        s[s[K.H_OFF_ACTIVE]:s[K.H_OFF_ACTIVE] + len(ordered)] = ordered
        s[K.H_NACTIVE] = len(ordered)

    def decide(self, agent, params=None) -> int:
        """The action a jitted agent (a registry `Agent`) would take now, in the decider's seat. The
        agent knows how to seat itself and decide (`hoc.agents.in_game`): the Game names no agent."""
        return agent.decide(self, params)

    def owned(self, p: int, card: str) -> int:
        """Copies of card that p owns, wherever they lie."""
        return self._v[self._region(K.H_OFF_OWNED, p) + self.cards.index(card)]

    def clone(self) -> "Game":
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.state = self._s.copy()
        other._buf = np.zeros(K.N_ACTIONS, K.DTYPE)
        return other

    def __repr__(self) -> str:
        status = (f"over: {self.end_reason}, winner seat {self.winner if self.winner is not None else '-'}"
                  if self.over else f"seat {self.decider} to act ({self.context})")
        return f"<Game seed={self.seed} turns={self.turns} {status}>"


