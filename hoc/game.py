"""`Game`: one game as a Python object, for notebooks, people at a terminal, external programs and
learning code. Every choice goes through `legal_actions()` and `apply(action)`; the jitted agents
use the very same kernels."""
from __future__ import annotations

import numpy as np

from hoc.errors import HocError, IllegalActionError
from hoc.kernel import constants as K
from hoc.kernel.setup import game_seed, init_game, new_state
from hoc.kernel.state import load_u64
from hoc.kernel.turn import apply as _apply
from hoc.kernel.turn import is_legal as _is_legal
from hoc.kernel.turn import legal_actions as _legal_actions
from hoc.rules import Ruleset

PHASES = {K.PH_START: "start", K.PH_MAIN: "main", K.PH_SECOND: "second", K.PH_CLEANUP: "cleanup",
          K.PH_KEEP: "keep", K.PH_DRAW: "draw", K.PH_DECLARE: "declare", K.PH_END: "end",
          K.PH_OVER: "over"}
NAMED_ACTIONS = {K.A_DECLARE: "declare coronation", K.A_COIN: "spend coin counter",
                 K.A_ABILITY: "use princess ability", K.A_LILY: "use lily"}
PASS_LABELS = {K.CTX_MAIN: "pass: end the main phase", K.CTX_KEEP: "pass: keep no more",
               K.CTX_DECLARE: "pass: do not declare", K.CTX_EFFECT: "pass: decline"}
SECOND_PHASE_PASS = {K.MODE_NONE: "pass: do nothing this phase", K.MODE_BUYING: "pass: stop buying",
                     K.MODE_SETTING: "pass: stop setting"}
CONTEXTS = {K.CTX_NONE: "none", K.CTX_MAIN: "main phase", K.CTX_SECOND: "second phase",
            K.CTX_KEEP: "keep", K.CTX_DECLARE: "coronation", K.CTX_EFFECT: "card choice"}


class Game:
    """A game fully determined by its ruleset, its seed and the actions taken.

    >>> g = Game(Ruleset(players=2, market="basic"), seed=7)
    >>> while not g.over:
    ...     g.apply(g.legal_actions()[0])
    """

    def __init__(self, ruleset: Ruleset | None = None, seed: int = 0, **rules):
        self.ruleset = ruleset if ruleset is not None else Ruleset(**rules)
        self.T = self.ruleset.cards.table
        self.R = self.ruleset.vector
        if not 0 <= int(seed) < 2 ** 64:
            raise HocError(f"a game seed must be between 0 and 2**64 - 1, got {seed}")
        self.seed = int(seed)
        self.state = new_state(self.T, self.R)
        init_game(self.state, np.uint64(self.seed).view(np.int64))
        self._buf = np.zeros(K.N_ACTIONS, K.DTYPE)

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
        return int(self.state[K.H_DECIDER])

    def legal_actions(self) -> list[int]:
        n = _legal_actions(self.state, self._buf)
        return [int(a) for a in self._buf[:n]]

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(K.N_ACTIONS, bool)
        mask[self.legal_actions()] = True
        return mask

    def is_legal(self, action: int) -> bool:
        return bool(_is_legal(self.state, int(action)))

    def apply(self, action: int | str) -> None:
        """Take a legal action (an id, or its label as `label()` writes it)."""
        if self.over:
            raise IllegalActionError("the game is over; no action is legal")
        if isinstance(action, str):
            action = self.parse(action)
        if not isinstance(action, (int, np.integer)) or not self.is_legal(action):
            legal = ", ".join(self.label(a) for a in self.legal_actions())
            shown = self.label(action) if isinstance(action, (int, np.integer)) and 0 <= action < K.N_ACTIONS else action
            raise IllegalActionError(f"action {action!r} ({shown}) is not legal for seat {self.decider} "
                                     f"in the {CONTEXTS[self.state[K.H_CTX]]}; legal: {legal}")
        _apply(self.state, int(action))

    # ---- labels -------------------------------------------------------------------------------
    def label(self, action: int) -> str:
        """A readable name: 'play city', 'buy duke', 'back laolily', 'number 3', 'pass'."""
        action = int(action)
        if action == K.A_PASS:
            return self._pass_label()
        if action in NAMED_ACTIONS:
            return NAMED_ACTIONS[action]
        if K.A_NUMBER <= action <= K.A_NUMBER + K.NUMBER_MAX:
            n = action - K.A_NUMBER
            s = self.state
            if s[K.H_CTX] == K.CTX_EFFECT and s[K.H_CH_KIND] == K.CH_MODE and s[K.H_DEPTH] > 0:
                effect = int(s[s[K.H_OFF_STACK] + (s[K.H_DEPTH] - 1) * K.STACK_FRAME])
                modes = K.MODES.get(effect, ())
                if n < len(modes):
                    return f"number {n}: {modes[n]}"
            return f"number {n}"
        if K.A_PLAY <= action < K.N_ACTIONS:
            verb = K.A_PLAY + (action - K.A_PLAY) // K.NCMAX * K.NCMAX
            card = action - verb
            name = self.ruleset.cards.name(card) if card < len(self.ruleset.cards) else f"#{card}"
            return f"{K.CARD_VERBS[verb]} {name}"
        return f"action {action}"

    def _pass_label(self) -> str:
        ctx = int(self.state[K.H_CTX])
        if ctx == K.CTX_SECOND:
            return SECOND_PHASE_PASS[int(self.state[K.H_MODE])]
        return PASS_LABELS.get(ctx, "pass")

    def parse(self, text: str) -> int:
        text = text.strip()
        for a in range(K.N_ACTIONS):
            label = self.label(a)
            if label == text or label.split(":")[0] == text:
                return a
        raise IllegalActionError(f"no action is called {text!r}")

    # ---- what the table shows ----------------------------------------------------------------
    def _zone(self, offset: int) -> dict[str, int]:
        nc = len(self.ruleset.cards)
        counts = self.state[offset:offset + nc]
        return {self.ruleset.cards.name(c): int(n) for c, n in enumerate(counts) if n}

    def _pb(self, p: int) -> int:
        return int(self.state[K.H_OFF_PLAYER] + p * K.PSZ)

    def _region(self, header: int, p: int = 0) -> int:
        return int(self.state[header] + p * self.state[K.H_NC])

    def hand(self, p: int) -> dict[str, int]:
        return self._zone(self._region(K.H_OFF_HAND, p))

    def discard_pile(self, p: int) -> dict[str, int]:
        return self._zone(self._region(K.H_OFF_DISCARD, p))

    def domain(self, p: int) -> dict[str, int]:
        return self._zone(self._region(K.H_OFF_DOMAIN, p))

    def kept(self, p: int) -> dict[str, int]:
        return self._zone(self._region(K.H_OFF_KEPT, p))

    def play_area(self) -> dict[str, int]:
        return self._zone(int(self.state[K.H_OFF_PLAY]))

    def market(self) -> dict[str, int]:
        return self._zone(int(self.state[K.H_OFF_MARKET]))

    def supply(self) -> list[str]:
        """The supply deck of the random market, top card first."""
        off = int(self.state[K.H_OFF_SUPPLY])
        n = int(self.state[K.H_SUPPLY_N])
        return [self.ruleset.cards.name(int(x)) for x in self.state[off:off + n][::-1]]

    def face_up(self) -> list[str]:
        """The face-up cards on top of the supply (Buried Treasure), top card first."""
        return self.supply()[:int(self.state[K.H_REVEALED])]

    def deck(self, p: int) -> list[str]:
        """p's draw pile, top card first."""
        off = int(self.state[K.H_OFF_DECK] + p * self.state[K.H_DCAP])
        n = int(self.state[self._pb(p) + K.P_DECK_N])
        return [self.ruleset.cards.name(int(x) & 0xFFFF) for x in self.state[off:off + n][::-1]]

    def princess(self, p: int) -> str | None:
        k = int(self.state[self._pb(p) + K.P_PRINCESS])
        return self.ruleset.cards.name(k) if k >= 0 else None

    def sp(self, p: int) -> int:
        return int(self.state[self._pb(p) + K.P_SP])

    def player(self, p: int, field: int) -> int:
        return int(self.state[self._pb(p) + field])

    @property
    def players(self) -> int:
        return self.ruleset.players

    @property
    def turn_player(self) -> int:
        return int(self.state[K.H_CUR])

    @property
    def turns(self) -> int:
        return int(self.state[K.H_TURNS])

    @property
    def coins(self) -> int:
        return int(self.state[K.H_COINS])

    @property
    def phase(self) -> str:
        return PHASES[int(self.state[K.H_PHASE])]

    @property
    def context(self) -> str:
        return CONTEXTS[int(self.state[K.H_CTX])]

    @property
    def over(self) -> bool:
        return bool(self.state[K.H_END])

    @property
    def end_reason(self) -> str | None:
        return K.END_REASONS.get(int(self.state[K.H_END]))

    @property
    def winner(self) -> int | None:
        """Winning seat, or None for a draw or a game still running."""
        w = int(self.state[K.H_WINNER])
        return w if self.over and w >= 0 else None

    @property
    def game_seed(self) -> int:
        return int(load_u64(self.state, K.H_SEED))

    def arrange(self, p: int, *, hand=None, deck=None, discard=None, domain=None, kept=None,
                princess: str | None | bool = False, coins: int | None = None, market=None,
                supply=None) -> "Game":
        """Rewrite player p's zones for a test or a puzzle position (cards come from nowhere and go
        nowhere: the card totals change). Zones are {card: count}; deck is a list, top card first;
        so is supply, the random market's supply deck, all face down. Only the given zones change.
        The game then advances to its next decision."""
        from hoc.kernel.endgame import domain_changed
        from hoc.kernel.turn import advance

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
        """The action a jitted agent (a registry `Agent`) would take now, in the decider's seat."""
        from hoc.agents.policies import decide
        from hoc.kernel.state import seat_agent

        P = agent.params(self.ruleset) if params is None else params
        seat_agent(self.state, self.decider, agent.id, np.ascontiguousarray(P, K.DTYPE))
        return int(decide(self.state))

    def decide_default(self) -> int:
        """The default answer to the pending card question (see `hoc.agents.policies.default_choice`)."""
        from hoc.agents.policies import default_choice

        return int(default_choice(self.state))

    def owned(self, p: int, card: str) -> int:
        """Copies of card that p owns, wherever they lie."""
        return int(self.state[self._region(K.H_OFF_OWNED, p) + self.ruleset.cards.index(card)])

    def clone(self) -> "Game":
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other._buf = np.zeros(K.N_ACTIONS, K.DTYPE)
        return other

    def __repr__(self) -> str:
        status = (f"over: {self.end_reason}, winner seat {self.winner if self.winner is not None else '-'}"
                  if self.over else f"seat {self.decider} to act ({self.context})")
        return f"<Game seed={self.seed} turns={self.turns} {status}>"


def check_seed(seed) -> int:
    try:
        value = int(seed)
    except (TypeError, ValueError):
        raise HocError(f"seed must be an integer, got {seed!r}") from None
    if value < 0 or value >= 2 ** 63:
        raise HocError(f"seed must be between 0 and 2**63 - 1 (9223372036854775807), got {value}")
    return value
