"""One Toy game driven from Python: its state, its decisions by id or label ("pass", "play:lab",
"buy:silver"), its zones as {card: copies}."""
from __future__ import annotations

import numpy as np

from hoc.errors import HocError
from toy_game.kernel import api
from toy_game.kernel import constants as K
from toy_game.rules import Ruleset


def _seed(seed: int):
    return np.array([seed], np.uint64).view(np.int64)[0] if seed >= 2 ** 63 else np.int64(seed)


class Game:
    WINNER = K.H_WINNER

    def __init__(self, ruleset: Ruleset | None = None, seed: int = 0):
        self.ruleset = ruleset or Ruleset()
        self.db = self.ruleset.cards
        self.state = api.new_state(self.db.table, self.ruleset.vector)
        self._legal = np.zeros(K.MAX_ACTIONS, K.DTYPE)
        self.reset(seed)

    def reset(self, seed: int) -> Game:
        self.seed = int(seed)
        api.init_game(self.state, _seed(self.seed))
        return self

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

    def __getitem__(self, slot: int) -> int:
        return int(self.state[slot])

    def _block(self, p: int) -> int:
        return int(self.state[K.H_OFF_PLAYER]) + p * K.PSZ

    def _zone(self, off: int) -> dict[str, int]:
        return {self.db.name(c): int(self.state[off + c]) for c in range(len(self.db)) if self.state[off + c]}

    def hand(self, p: int) -> dict[str, int]:
        return self._zone(int(self.state[K.H_OFF_HAND]) + p * len(self.db))

    def owned(self, p: int) -> dict[str, int]:
        return self._zone(int(self.state[K.H_OFF_OWNED]) + p * len(self.db))

    def supply(self) -> dict[str, int]:
        return self._zone(int(self.state[K.H_OFF_SUPPLY]))

    @property
    def market(self) -> list[str]:
        return [self.db.name(int(self.state[K.H_KINDS + i])) for i in range(int(self.state[K.H_N_KINDS]))]

    def score(self, p: int) -> int:
        """p's VP (its final count once the game is over)."""
        if self.over:
            return int(self.state[self._block(p) + K.P_VP])
        return sum(n * self.db[c].vp for c, n in self.owned(p).items())

    def describe_seat(self, p: int) -> str:
        return f"{self.score(p)} VP, {sum(self.owned(p).values())} cards"

    def __repr__(self) -> str:
        status = f"over ({self.end_reason})" if self.over else f"seat {self.decider} to decide"
        return f"<Toy game seed={self.seed} turns={int(self.state[K.H_TURNS])} {status}>"

    # ---- decisions ----
    def legal_actions(self) -> list[int]:
        n = api.legal_actions(self.state, self._legal)
        return [int(a) for a in self._legal[:n]]

    def legal(self) -> list[str]:
        return [self.label(a) for a in self.legal_actions()]

    def is_legal(self, a: int) -> bool:
        return bool(api.is_legal(self.state, int(a)))

    def label(self, a: int) -> str:
        a = int(a)
        if a == K.A_PASS:
            return "pass"
        for base, word in ((K.A_PLAY, "play"), (K.A_BUY, "buy")):
            if base <= a < base + len(self.db):
                return f"{word}:{self.db.name(a - base)}"
        return str(a)

    def action(self, label) -> int:
        if isinstance(label, (int, np.integer)):
            return int(label)
        for a in self.legal_actions():
            if self.label(a) == label:
                return a
        raise HocError(f"{label!r} is not legal now; legal: {', '.join(self.legal())}")

    def apply(self, *labels) -> Game:
        for label in labels:
            a = self.action(label)
            if not api.apply_if_legal(self.state, a):
                raise HocError(f"{self.label(a)} is not legal now; legal: {', '.join(self.legal())}")
        return self
