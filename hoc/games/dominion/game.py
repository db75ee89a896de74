"""One Dominion game driven from Python: its state, its decisions by id or by name, and the zones
read as {card: copies} (for tests, scripts and people; the harness plays games in jitted code).

    game = Game(Ruleset(market="first_game"), seed=3)
    game.legal()                      # ['pass', 'play:village', ...] in the current decision
    game.apply("play:smithy")
    game.arrange(0, hand=["witch", "copper"], deck=["gold", "estate"])   # a position to test a card
"""
from __future__ import annotations

import numpy as np

from hoc.errors import HocError
from hoc.games.dominion.kernel import api
from hoc.games.dominion.kernel import constants as K
from hoc.games.dominion.rules import Ruleset

QUESTIONS = {K.Q_HAND: "hand", K.Q_SUPPLY: "supply", K.Q_DISCARD: "discard", K.Q_YES_NO: "yes/no", K.Q_MODE: "mode"}
MODES = {K.M_TRASH: "trash", K.M_DISCARD: "discard", K.M_KEEP: "keep"}


class Game:
    WINNER = K.H_WINNER

    def __init__(self, ruleset: Ruleset | None = None, seed: int = 0):
        self.ruleset = ruleset or Ruleset()
        self.seed = int(seed)
        self.db = self.ruleset.cards
        self.state = api.new_state(self.db.table, self.ruleset.vector)
        self._legal = np.zeros(K.MAX_ACTIONS, K.DTYPE)
        # a game seed as the harness draws it (int64), or as a games frame shows it (its uint64 view)
        api.init_game(self.state, np.array([seed], np.uint64).view(np.int64)[0] if seed >= 2 ** 63 else np.int64(seed))

    def reset(self, seed: int) -> Game:
        """Start the game of this seed afresh in the same state array (same ruleset)."""
        self.seed = int(seed)
        api.init_game(self.state, np.array([seed], np.uint64).view(np.int64)[0] if seed >= 2 ** 63
                      else np.int64(seed))
        return self

    # ---- reading ----
    def __getitem__(self, slot: int) -> int:
        return int(self.state[slot])

    @property
    def over(self) -> bool:
        return bool(self.state[K.H_END] != 0)

    @property
    def decider(self) -> int:
        return int(self.state[K.H_DECIDER])

    @property
    def players(self) -> int:
        return self.ruleset.players

    @property
    def winners(self) -> list[int]:
        mask = int(self.state[K.H_WIN_MASK])
        return [p for p in range(self.players) if mask >> p & 1]

    @property
    def end_reason(self) -> str | None:
        return K.END_REASONS.get(int(self.state[K.H_END])) if self.over else None

    def score(self, p: int) -> int:
        """p's VP (its final count once the game is over, else its VP now)."""
        if self.over:
            return self.vp(p)
        from hoc.games.dominion.observation import TABLE_SLOTS, observe, size

        out = np.zeros(size(self.players), np.float32)
        observe(self.state, p, out)
        return int(out[TABLE_SLOTS])

    def is_legal(self, a: int) -> bool:
        return bool(api.is_legal(self.state, int(a)))

    def legal_actions(self) -> list[int]:
        return self.legal_ids()

    def __repr__(self) -> str:
        status = f"over ({self.end_reason})" if self.over else f"seat {self.decider} to decide"
        return f"<Dominion game seed={self.seed} turns={int(self.state[K.H_TURNS])} {status}>"

    def describe_seat(self, p: int) -> str:
        return f"{self.score(p)} VP, {sum(self.owned(p).values())} cards"

    def _zone(self, off: int) -> dict[str, int]:
        return {self.db.name(c): int(self.state[off + c]) for c in range(len(self.db)) if self.state[off + c]}

    def _block(self, p: int) -> int:
        return int(self.state[K.H_OFF_PLAYER]) + p * K.PSZ

    def hand(self, p: int) -> dict[str, int]:
        return self._zone(int(self.state[K.H_OFF_HAND]) + p * len(self.db))

    def discard(self, p: int) -> dict[str, int]:
        return self._zone(int(self.state[K.H_OFF_DISCARD]) + p * len(self.db))

    def owned(self, p: int) -> dict[str, int]:
        return self._zone(int(self.state[K.H_OFF_OWNED]) + p * len(self.db))

    def deck(self, p: int) -> list[str]:
        """p's deck, top card first."""
        k = int(self.state[K.H_OFF_DECK]) + p * int(self.state[K.H_DCAP])
        n = int(self.state[self._block(p) + K.P_DECK_N])
        return [self.db.name(int(self.state[k + i])) for i in range(n - 1, -1, -1)]

    def play_area(self) -> dict[str, int]:
        return self._zone(int(self.state[K.H_OFF_PLAY]))

    def supply(self) -> dict[str, int]:
        return self._zone(int(self.state[K.H_OFF_SUPPLY]))

    def trash(self) -> dict[str, int]:
        return self._zone(int(self.state[K.H_OFF_TRASH]))

    def vp(self, p: int) -> int:
        return int(self.state[self._block(p) + K.P_VP])

    @property
    def kingdom(self) -> list[str]:
        return [self.db.name(int(self.state[K.H_KINDS + i])) for i in range(int(self.state[K.H_N_KINDS]))]

    def question(self) -> dict | None:
        """The pending card question, or None."""
        s = self.state
        if s[K.H_CTX] != K.CTX_EFFECT:
            return None
        about = int(s[K.H_Q_ABOUT])
        return {"kind": QUESTIONS[int(s[K.H_Q])], "card": self.db.name(int(s[K.H_Q_CARD])), "seat": int(s[K.H_Q_SEAT]),
                "about": self.db.name(about) if about >= 0 else None, "optional": bool(s[K.H_Q_OPT]),
                "cap": int(s[K.H_Q_MAX])}

    # ---- actions by name ----
    def label(self, a: int) -> str:
        a = int(a)
        nc = len(self.db)
        if a == K.A_PASS:
            return "pass"
        if a == K.A_ALL_TREASURES:
            return "treasures"
        if a == K.A_YES:
            return "yes"
        if K.A_MODE <= a < K.A_MODE + K.N_MODES:
            m = a - K.A_MODE
            if self.state[K.H_Q_MODES] == (1 << K.M_FIRST) | (1 << K.M_SECOND):
                return "first" if m == K.M_FIRST else "second"
            return MODES[m]
        for base, word in ((K.A_PLAY, "play"), (K.A_BUY, "buy"), (K.A_CHOOSE, "choose")):
            if base <= a < base + nc:
                return f"{word}:{self.db.name(a - base)}"
        return str(a)

    def action(self, label: str | int) -> int:
        if isinstance(label, (int, np.integer)):
            return int(label)
        for a in self.legal_ids():
            if self.label(a) == label:
                return a
        raise HocError(f"{label!r} is not legal now; legal: {', '.join(self.legal())}")

    def legal_ids(self) -> list[int]:
        n = api.legal_actions(self.state, self._legal)
        return [int(a) for a in self._legal[:n]]

    def legal(self) -> list[str]:
        return [self.label(a) for a in self.legal_ids()]

    def apply(self, *labels: str | int) -> Game:
        for label in labels:
            a = self.action(label)
            if not api.apply_if_legal(self.state, a):
                raise HocError(f"{self.label(a)} is not legal now; legal: {', '.join(self.legal())}")
        return self

    # ---- positions ----
    def arrange(self, p: int, hand=None, deck=None, discard=None, play=None) -> Game:
        """Give p exactly these cards (lists of card names; a deck top card first) in the zones named
        (the others unchanged), owned accordingly, and run on to the next decision. Arranging the
        turn player's cards starts its turn afresh (Action phase, 1 Action, 1 Buy, no coins)."""
        s, nc = self.state, len(self.db)
        if p == int(s[K.H_CUR]) and s[K.H_DEPTH] == 0:
            s[K.H_PHASE], s[K.H_ACTIONS], s[K.H_BUYS] = K.PH_ACTION, 1, 1
            for slot in (K.H_COINS, K.H_BOUGHT, K.H_MERCHANTS, K.H_SILVERS):
                s[slot] = 0
        b = self._block(p)
        if hand is not None:
            h = int(s[K.H_OFF_HAND]) + p * nc
            s[h:h + nc] = np.bincount([self.db.index(c) for c in hand], minlength=nc)
            s[b + K.P_HAND_N] = len(hand)
        if discard is not None:
            d = int(s[K.H_OFF_DISCARD]) + p * nc
            s[d:d + nc] = np.bincount([self.db.index(c) for c in discard], minlength=nc)
            s[b + K.P_DISCARD_N] = len(discard)
        if deck is not None:
            k = int(s[K.H_OFF_DECK]) + p * int(s[K.H_DCAP])
            for i, c in enumerate(reversed(deck)):
                s[k + i] = self.db.index(c)
            s[b + K.P_DECK_N] = len(deck)
        if play is not None:
            pl = int(s[K.H_OFF_PLAY])
            s[pl:pl + nc] = np.bincount([self.db.index(c) for c in play], minlength=nc)
        owned = np.zeros(nc, np.int64)
        owned += s[int(s[K.H_OFF_HAND]) + p * nc:][:nc]
        owned += s[int(s[K.H_OFF_DISCARD]) + p * nc:][:nc]
        owned += np.bincount(self.deck_ids(p), minlength=nc)
        if p == int(s[K.H_CUR]):
            owned += s[int(s[K.H_OFF_PLAY]):][:nc]
        o = int(s[K.H_OFF_OWNED]) + p * nc
        s[o:o + nc] = owned
        s[b + K.P_OWNED_N] = int(owned.sum())
        api.resume(s)
        return self

    def deck_ids(self, p: int) -> list[int]:
        k = int(self.state[K.H_OFF_DECK]) + p * int(self.state[K.H_DCAP])
        return [int(x) for x in self.state[k:k + int(self.state[self._block(p) + K.P_DECK_N])]]

    def set(self, slot: int, value: int) -> Game:
        self.state[slot] = value
        return self
