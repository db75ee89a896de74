"""Priority-list agents defined as data: a TOML file compiled to the parameter row that the jitted
`priority_kernel` reads. No Python runs during a game.

    description = "Senators and Dukes"
    key = ["ball"]                          # the common kinds the plan is built on (optional)
    [princess]
    prefer = ["lulunasaika", "klam_klam"]   # backing order (then the rest of the pool)
    min_coins = 6                           # back only with at least this many coins
    min_owned = 22                          # ... and owning at least this many cards (default 0)
    [set]
    min_sp = 2          # set positive-SP Succession cards when those in hand total at least this
    [play]
    first = ["post_horse"]                  # then: Actions that open plays, other Actions, Territories
    keep = true                             # keep the most expensive Action it can at cleanup
    recall = false                          # true: take kept cards back into hand while a play is open, so
                                            # a kept card is played on a later turn (or kept again)
    abilities = true                        # use the princess's ability (and Lily's) when legal
    territories_only = false                # true: play only Territories (no Actions, abilities, coin counters)
    accept_modes = true                     # answer an optional "choose one" (Curse Witch, City Development)
                                            # with its first mode; false: decline it like other optional costs
    [choose]
    gain = ["imperial_estate", "alchemist"] # cards preferred, in order, whenever the agent picks a card it
                                            # gains (Flammaria's deck top, Bergamot's Action, an Adventurer's
                                            # gain); otherwise the most expensive
    lose = ["curse", "apprentice_maid"]     # cards given up first, in order, whenever the agent discards or
                                            # exiles a card of its own, even when it could decline;
                                            # otherwise the cheapest, declining when it may
    never = ["curse_witch"]                 # cards it never buys nor picks to gain (a ban, e.g. for a
                                            # card-value study): a common kind bans all its cards; only a
                                            # gain it cannot decline or redirect still takes one
    [plan]                                  # the turn planner (hoc.games.heart_of_crown.agents.planner): the Main phase and the
    samples = 1                             # card questions of its own turn decided by looking ahead to the
    deck = 100                              # turn's end on determinized copies; these are its settings
    [[buy]]                                 # buy rules in priority order; every buy re-reads them
    card = "duke"
    princess = true
    [[buy]]
    card = "large_city"
    owned_below = 3

[plan] keys (all optional, whole numbers; weights x 100, see hoc.games.heart_of_crown.agents.planner): samples
(determinizations per action, default 1; 0 turns the planner off), potential (SP of Succession cards
outside the domain, 70), deck (a coin of printed cost above par of a card outside the domain, 100),
par (the cost of a card that neither helps nor hurts a deck, 150), backed (having backed a princess,
beyond her price, 800), counter (a coin counter, 80),
hand (a card in an opponent's hand, 40), opponents (weight of the
opponents' standing, 100), margin (the list's own action is kept unless another scores this much
better, 5), nested (1: card questions inside a look-ahead are planned too, default 1), coin (a coin
left for the Second phase, 100), coin_cap (coins worth `coin` each, 8; a quarter beyond), settle (an
SP the list would set from hand where a Main-phase look-ahead stops, scored instead of the coins
when it is worth more; 0, the default, weighs no set; `NAME+plan` sets 200), next (1: a card question
whose answers tie at the end of the turn, a card put on the deck for a later turn, is weighed at the
end of the next turn's Main phase; 0, the default; `NAME+plan` sets 1); and for
the Second phase: second (determinizations per option of its back / set / buy choice, default 0: the
list's thresholds decide it), horizon (the player's own turns played on after this one before the
evaluation scores, 1; -1: no look-ahead, each option scored where this Second phase ends by the
preference network fitted to the look-ahead's choices, `hoc.games.heart_of_crown.agents.preference`), second_margin (log-odds x 1000 another option must beat the list's own by,
0), second_at (1: only where it may back, 2: only where it may set, 3: both, the default). A file with a [plan] section whose samples or second is above 0 is the agent kind `PLANNED`;
otherwise the plain list.

Conditions of a buy rule: princess (true/false), coins_at_least, coins_at_most, turn_at_least,
turn_at_most (own turns), owned_below, owned_at_least (copies of the rule's card), sp_at_least,
sp_below (own domain SP), behind_at_least (leader's SP minus own), pile_at_most (copies left in
the market), offered / not_offered (a card the market must / must not offer now), cards_at_least,
cards_below (all cards the player owns), backed (the princess the player backed).

Editions. A file is read for the edition of the game it plays (`--edition`), and names cards of
either edition. A name the game's edition lacks but another edition has (Flea Market or Margrave
under 1E, Bribery under 2E) is a card that edition's markets never offer, so reading the list for
that edition leaves it out, as a market without the card leaves its rule idle: from `key`,
`prefer`, `first`, `gain`, `lose` and `never` the name alone; a buy rule for such a card, or whose
`offered` or `backed` names one (a condition that never holds), the whole rule; a `not_offered`
naming one (it always holds), that condition alone. The library's 2E plans thus play 1E on what
they have left, without a copy per edition, and a plan written for 1E loads under 2E the same way.
This is silent during a run (it is the format's meaning, not a mistake); `hoc agents --edition 1e`
names what each library plan leaves out, and `PriorityList.for_edition` says it rule by rule.
A name no edition has (a misspelling) is an error, one line naming the file, the line and the
closest name: `plan.toml, line 12: unknown card 'flea_markt' in edition 1e (did you mean
'flea_market'?): no edition has a card of that name`; so is a list whose every buy rule was left out.
"""
from __future__ import annotations

import dataclasses
import difflib
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from hoc.games.heart_of_crown.agents import priority_kernel as PK
from hoc.games.heart_of_crown.agents.planner import DEFAULTS as PLAN_DEFAULTS
from hoc.games.heart_of_crown.agents.planner import SLOTS as PLAN_SLOTS
from hoc.games.heart_of_crown.agents.planner import PL_WEIGHTS, WEIGHT_SCALE
from hoc.games.heart_of_crown.agents.evaluation import N_FEATURES
from hoc.games.heart_of_crown.agents import preference
from hoc.games.heart_of_crown.agents.evaluation import weights as evaluation_weights
from hoc.errors import HocError
from hoc.games.heart_of_crown.cards import EDITIONS, CardDB
from hoc.games.heart_of_crown.kernel.constants import DTYPE, N_PARAMS

CONDITIONS = {"princess": PK.C_PRINCESS, "coins_at_least": PK.C_COINS_AT_LEAST, "coins_at_most": PK.C_COINS_AT_MOST,
              "turn_at_least": PK.C_TURN_AT_LEAST, "turn_at_most": PK.C_TURN_AT_MOST,
              "owned_below": PK.C_OWNED_BELOW, "owned_at_least": PK.C_OWNED_AT_LEAST,
              "sp_at_least": PK.C_SP_AT_LEAST, "sp_below": PK.C_SP_BELOW,
              "behind_at_least": PK.C_BEHIND_AT_LEAST, "pile_at_most": PK.C_PILE_AT_MOST,
              "offered": PK.C_OFFERED, "not_offered": PK.C_NOT_OFFERED, "cards_at_least": PK.C_CARDS_AT_LEAST,
              "cards_below": PK.C_CARDS_BELOW, "backed": PK.C_BACKED}
CARD_VALUED = ("offered", "not_offered", "backed")
SECTIONS = {"description", "key", "princess", "set", "play", "choose", "plan", "buy"}


@dataclass(frozen=True)
class PriorityList:
    """A parsed priority-list agent, not yet bound to an edition's card ids."""

    name: str
    path: str
    text: str
    description: str
    key: tuple[str, ...]
    prefer: tuple[str, ...]
    min_coins: int
    min_owned: int
    set_min_sp: int
    first: tuple[str, ...]
    keep: bool
    abilities: bool
    buy: tuple[dict, ...]
    territories_only: bool = False
    accept_modes: bool = True
    recall: bool = False
    gain: tuple[str, ...] = ()
    lose: tuple[str, ...] = ()
    never: tuple[str, ...] = ()
    plan: tuple[tuple[str, int], ...] | None = None     # the [plan] settings (None: no planner)

    @property
    def planned(self) -> bool:
        """Whether the list plans its turns (a [plan] section with samples > 0)."""
        return self.plan is not None and (dict(self.plan)["samples"] > 0 or dict(self.plan).get("second", 0) > 0)

    def with_plan(self, **settings) -> "PriorityList":
        """The same list with its planner on (the defaults, with `settings` changed)."""
        merged = {**PLAN_DEFAULTS, **dict(self.plan or ()), **settings}
        return dataclasses.replace(self, plan=tuple(merged.items()))

    def error(self, problem: str, needle: str | None = None) -> HocError:
        return _error(self.path, self.text, problem, needle)

    def for_edition(self, edition: str) -> tuple["PriorityList", tuple[str, ...]]:
        """The list as an edition reads it, and what it dropped (one note per name).

        A name the edition lacks but another edition has (Flea Market under 1E, Bribery under 2E)
        asks about a card this edition's markets never offer, so it goes: from `key`, `prefer`,
        `first`, `gain`, `lose` and `never` the name alone; a buy rule for such a card, or with
        `offered` or `backed` naming one (conditions that never hold), the whole rule; a
        `not_offered` naming one (it always holds), the condition alone. A name no edition has is
        left for `params` to reject, in one line."""
        names, commons, princesses = _edition_names(edition)
        notes: list[str] = []

        def lacks(name: str, here: frozenset[str], where: str) -> bool:
            other = _other_edition(name, edition, where)
            if name in here or other is None:
                return False
            notes.append(f"{name} ({other} only): {{}}")
            return True

        def keep(names_: tuple[str, ...], here, where, section) -> tuple[str, ...]:
            out = []
            for n in names_:
                if lacks(n, here, where):
                    notes[-1] = notes[-1].format(f"left out of {section}")
                else:
                    out.append(n)
            return tuple(out)

        buy = []
        for i, rule in enumerate(self.buy, 1):
            if lacks(rule["card"], names, "card"):
                notes[-1] = notes[-1].format(f"buy rule {i} dropped")
                continue
            if any(k in ("offered", "backed") and lacks(v, princesses if k == "backed" else names,
                                                         "princess" if k == "backed" else "card")
                   for k, v in rule.items()):
                notes[-1] = notes[-1].format(f"buy rule {i} ({rule['card']}) dropped: its condition never holds")
                continue
            kept = {}
            for k, v in rule.items():
                if k == "not_offered" and lacks(v, names, "card"):
                    notes[-1] = notes[-1].format(f"buy rule {i} ({rule['card']}) loses not_offered (always true)")
                else:
                    kept[k] = v
            buy.append(kept)
        spec = dataclasses.replace(
            self, key=keep(self.key, commons, "common", "key"),
            prefer=keep(self.prefer, princesses, "princess", "[princess] prefer"),
            first=keep(self.first, names, "card", "[play] first"), gain=keep(self.gain, names, "card", "[choose] gain"),
            lose=keep(self.lose, names, "card", "[choose] lose"),
            never=keep(self.never, names | commons, "any", "[choose] never"), buy=tuple(buy))
        if self.buy and not buy:
            raise self.error(f"every [[buy]] rule names a card edition {edition} lacks; the agent would never buy")
        return spec, tuple(notes)

    def key_for(self, edition: str) -> tuple[str, ...]:
        """The `key` as `edition` reads it (what `for_edition` keeps): a kind only another edition has is
        dropped, since that edition's markets never offer it; a kind no edition has stays, for `params`
        to reject. Studies choosing markets by a plan's key read this (`hoc.agents.registry.Agent.key_for`)."""
        _, commons, _ = _edition_names(edition)
        return tuple(n for n in self.key if n in commons or _other_edition(n, edition, "common") is None)

    def dropped(self, edition: str) -> tuple[str, ...]:
        """The names `for_edition` leaves out under an edition, each once, in the order met."""
        return tuple(dict.fromkeys(note.split(" (")[0] for note in self.for_edition(edition)[1]))

    def params(self, ruleset) -> np.ndarray:
        """The parameter row for a ruleset: card names become that edition's card ids, after the
        names of cards only another edition has are dropped (`for_edition`)."""
        return self.for_edition(ruleset.cards.edition)[0]._params(ruleset)

    def _params(self, ruleset) -> np.ndarray:
        db = ruleset.cards
        P = np.zeros(N_PARAMS, DTYPE)
        every = sorted(set().union(*(_edition_names(e)[0] for e in EDITIONS)))

        def card_id(name: str, kind: str = "card") -> int:
            if name not in db.ids:
                close = difflib.get_close_matches(name, every, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise self.error(f"unknown {kind} {name!r} in edition {db.edition}{hint}: "
                                 f"no edition has a card of that name", f'"{name}"')
            return db.index(name)

        commons = db.pile_ids("common")
        for n in self.key:
            if n not in commons:
                close = difflib.get_close_matches(n, commons, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise self.error(f"key {n!r} is not a common kind of edition {db.edition}{hint}, "
                                 f"nor of any edition", f'"{n}"')
        princesses = db.pile_ids("princess")
        order = list(self.prefer) + [db.name(k) for k in ruleset.pool if db.name(k) not in self.prefer]
        for n in self.prefer:
            if n not in princesses:
                card_id(n, "princess")
                raise self.error(f"{n!r} is not a princess", f'"{n}"')
        P[PK.PR_N_PRINCESS] = len(order)
        P[PK.PR_PRINCESS:PK.PR_PRINCESS + len(order)] = [db.index(n) for n in order]
        P[PK.PR_BACK_MIN_COINS] = self.min_coins
        P[PK.PR_BACK_MIN_OWNED] = self.min_owned
        P[PK.PR_SET_MIN_SP] = self.set_min_sp
        P[PK.PR_KEEP] = PK.KEEP_BIT * int(self.keep) | PK.RECALL_BIT * int(self.recall)
        P[PK.PR_ABILITIES] = int(self.abilities)
        P[PK.PR_TERRITORIES_ONLY] = int(self.territories_only)
        P[PK.PR_ACCEPT_MODES] = int(self.accept_modes)
        for n_at, at, names in ((PK.PR_N_FIRST, PK.PR_FIRST, self.first), (PK.PR_N_GAIN, PK.PR_GAIN, self.gain),
                                (PK.PR_N_LOSE, PK.PR_LOSE, self.lose)):
            P[n_at] = len(names)
            P[at:at + len(names)] = [card_id(n) for n in names]
        banned = [c for n in self.never for c in (db.cards_of_pile(n) if n in commons else [card_id(n)])]
        if len(banned) > PK.MAX_NEVER:
            raise self.error(f"[choose] never bans {len(banned)} cards; at most {PK.MAX_NEVER}", "never")
        P[PK.PR_N_NEVER] = len(banned)
        P[PK.PR_NEVER:PK.PR_NEVER + len(banned)] = banned
        if self.plan is not None:
            for key, value in self.plan:
                P[PLAN_SLOTS[key]] = value
            plan = dict(self.plan)
            if plan.get("second", 0) > 0 and plan.get("horizon", 0) < 0:     # the preference network, by key
                P[PL_WEIGHTS] = preference.key()
            elif plan.get("second", 0) > 0:        # the evaluation the Second phase is weighed by
                P[PL_WEIGHTS:PL_WEIGHTS + 1 + N_FEATURES] = [round(x * WEIGHT_SCALE) for x in evaluation_weights()]
        P[PK.PR_N_BUY] = len(self.buy)
        for i, rule in enumerate(self.buy):
            r = PK.PR_BUY + i * PK.RULE_SZ
            P[r] = card_id(rule["card"])
            for k, (key, value) in enumerate((k, v) for k, v in rule.items() if k != "card"):
                P[r + 1 + 2 * k] = CONDITIONS[key]
                if key == "backed" and value not in princesses:
                    card_id(value, "princess")
                    raise self.error(f"{value!r} is not a princess", f'"{value}"')
                P[r + 2 + 2 * k] = card_id(value) if key in CARD_VALUED else int(value)
        return P


@lru_cache(maxsize=None)
def _edition_names(edition: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """An edition's card names, common kinds and princesses, as printed (overrides add no card)."""
    db = CardDB(edition)
    return frozenset(db.ids), frozenset(db.pile_ids("common")), frozenset(db.pile_ids("princess"))


def _other_edition(name: str, edition: str, where: str) -> str | None:
    """The first edition other than `edition` with `name` as a card ("card"), a common kind
    ("common"), a princess ("princess") or either a card or a common kind ("any"), or None."""
    for other in EDITIONS:
        if other != edition:
            names, commons, princesses = _edition_names(other)
            here = {"card": names, "common": commons, "princess": princesses, "any": names | commons}[where]
            if name in here:
                return other
    return None


def _line_of(text: str, needle: str | None) -> int | None:
    if needle:
        for i, line in enumerate(text.splitlines(), 1):
            if needle in line.split("#")[0]:
                return i
    return None


def _error(path: str, text: str, problem: str, needle: str | None = None) -> HocError:
    line = _line_of(text, needle)
    return HocError(f"{path}{f', line {line}' if line else ''}: {problem}")


# the largest threshold a file may give: beyond any coins, turns, SP or card count a game reaches,
# and well inside the 32-bit parameter row
MAX_VALUE = 1_000_000


def _int(path, text, value, what, needle, low=0):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_VALUE:
        raise _error(path, text, f"{what} must be a whole number from {low} to {MAX_VALUE}, got {value!r}", needle)
    return value


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8-sig")      # -sig: a byte-order mark (Notepad) is fine
    except UnicodeDecodeError as e:
        raise HocError(f"{path}: not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset {e.start}); "
                       f"save the agent file as UTF-8") from None
    except OSError as e:
        raise HocError(f"cannot read agent file {path}: {e.strerror or e}") from None


def _table(path, text, data, name) -> dict:
    """A section such as [play]: absent is empty; anything but a table is an error."""
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise _error(path, text, f"{name} must be a table: write [{name}] on a line of its own, then its keys",
                     name)
    return value


def parse(path: str | Path, text: str | None = None) -> PriorityList:
    """Read and check a priority-list file; errors name the file, the line and the problem."""
    path = str(path)
    if text is None:
        text = _read(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise HocError(f"{path}: not valid TOML: {e}") from None
    for key in data:
        if key not in SECTIONS:
            raise _error(path, text, f"unknown section {key!r}; sections: {', '.join(sorted(SECTIONS))}", key)
    princess = _table(path, text, data, "princess")
    for key in princess:
        if key not in ("prefer", "min_coins", "min_owned"):
            raise _error(path, text, f"unknown key {key!r} in [princess]; keys: prefer, min_coins, min_owned", key)
    prefer = princess.get("prefer", [])
    if not isinstance(prefer, list) or not all(isinstance(x, str) for x in prefer):
        raise _error(path, text, "[princess] prefer must be a list of princess names", "prefer")
    set_ = _table(path, text, data, "set")
    for key in set_:
        if key != "min_sp":
            raise _error(path, text, f"unknown key {key!r} in [set]; keys: min_sp", key)
    play = _table(path, text, data, "play")
    for key in play:
        if key not in ("first", "keep", "recall", "abilities", "territories_only", "accept_modes"):
            raise _error(path, text, f"unknown key {key!r} in [play]; keys: first, keep, recall, abilities, "
                                     "territories_only, accept_modes", key)
    first = play.get("first", [])
    if not isinstance(first, list) or not all(isinstance(x, str) for x in first) or len(first) > PK.MAX_FIRST:
        raise _error(path, text, f"[play] first must be a list of at most {PK.MAX_FIRST} card names", "first")
    keep = play.get("keep", True)
    abilities = play.get("abilities", True)
    territories_only = play.get("territories_only", False)
    accept_modes = play.get("accept_modes", True)
    recall = play.get("recall", False)
    for key, value in (("keep", keep), ("recall", recall), ("abilities", abilities),
                       ("territories_only", territories_only), ("accept_modes", accept_modes)):
        if not isinstance(value, bool):
            raise _error(path, text, f"[play] {key} must be true or false, got {value!r}", key)
    choose = _table(path, text, data, "choose")
    for key in choose:
        if key not in ("gain", "lose", "never"):
            raise _error(path, text, f"unknown key {key!r} in [choose]; keys: gain, lose, never", key)
    gain, lose, never = choose.get("gain", []), choose.get("lose", []), choose.get("never", [])
    for key, value in (("gain", gain), ("lose", lose), ("never", never)):
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value) or len(value) > PK.MAX_CHOOSE:
            raise _error(path, text, f"[choose] {key} must be a list of at most {PK.MAX_CHOOSE} card names", key)
    plan = _plan(path, text, data)
    buy = data.get("buy", [])
    if not isinstance(buy, list):
        raise _error(path, text, "buy rules are written [[buy]] tables", "buy")
    if len(buy) > PK.MAX_RULES:
        raise _error(path, text, f"{len(buy)} buy rules; at most {PK.MAX_RULES}")
    if not buy:
        raise _error(path, text, "no [[buy]] rules: the agent would never buy a card; "
                                 "add at least one [[buy]] table with card = \"name\"")
    for rule in buy:
        if not isinstance(rule, dict):
            raise _error(path, text, "buy rules are written [[buy]] tables", "buy")
        if "card" not in rule or not isinstance(rule["card"], str):
            raise _error(path, text, "a [[buy]] rule needs card = \"name\"", "[[buy]]")
        conditions = [k for k in rule if k != "card"]
        for key in conditions:
            if key not in CONDITIONS:
                close = difflib.get_close_matches(key, CONDITIONS, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise _error(path, text, f"unknown condition {key!r}{hint}; conditions: {', '.join(CONDITIONS)}", key)
            value = rule[key]
            if key == "princess":
                if not isinstance(value, bool):
                    raise _error(path, text, f"princess must be true or false, got {value!r}", key)
            elif key in CARD_VALUED:
                if not isinstance(value, str):
                    raise _error(path, text, f"{key} must be a card name, got {value!r}", key)
            else:
                _int(path, text, value, key, key, low=-100 if key.startswith("sp") or key.startswith("behind") else 0)
        if len(conditions) > PK.MAX_CONDS:
            raise _error(path, text, f"a buy rule has at most {PK.MAX_CONDS} conditions", f'"{rule["card"]}"')
    description = data.get("description", "")
    if not isinstance(description, str):
        raise _error(path, text, "description must be a string", "description")
    key = data.get("key", [])
    if not isinstance(key, list) or not all(isinstance(x, str) for x in key):
        raise _error(path, text, "key must be a list of common kind names", "key")
    return PriorityList(
        name=Path(path).stem, path=path, text=text, description=description, key=tuple(key), prefer=tuple(prefer),
        min_coins=_int(path, text, princess.get("min_coins", 6), "min_coins", "min_coins"),
        min_owned=_int(path, text, princess.get("min_owned", 0), "min_owned", "min_owned"),
        set_min_sp=_int(path, text, set_.get("min_sp", 2), "min_sp", "min_sp", low=-100),
        first=tuple(first), keep=keep, abilities=abilities, buy=tuple(buy), territories_only=territories_only,
        accept_modes=accept_modes, recall=recall, gain=tuple(gain), lose=tuple(lose), never=tuple(never), plan=plan)


def list_id(row) -> int:
    """The agent id a priority-list parameter row plays as: the planning list when its planner is on."""
    from hoc.agents.ids import PLANNED, PRIORITY
    from hoc.games.heart_of_crown.agents.planner import PL_SAMPLES, PL_SECOND

    return PLANNED if int(row[PL_SAMPLES]) > 0 or int(row[PL_SECOND]) > 0 else PRIORITY


PLAN_LIMITS = {"samples": (0, 16), "nested": (0, 1), "margin": (0, 10_000), "potential": (-10_000, 10_000),
               "deck": (-10_000, 10_000), "par": (0, 10_000), "backed": (-10_000, 100_000), "counter": (-10_000, 10_000), "hand": (-10_000, 10_000),
               "opponents": (0, 10_000), "coin": (0, 10_000), "coin_cap": (0, 100), "second": (0, 16),
               "horizon": (-1, 8), "second_margin": (0, 100_000), "second_at": (1, 3), "settle": (0, 10_000),
               "next": (0, 1)}


def _plan(path, text, data) -> tuple[tuple[str, int], ...] | None:
    """The [plan] section's settings over the defaults, or None without the section."""
    if "plan" not in data:
        return None
    section = _table(path, text, data, "plan")
    settings = dict(PLAN_DEFAULTS)
    for key, value in section.items():
        if key not in PLAN_LIMITS:
            close = difflib.get_close_matches(key, PLAN_LIMITS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise _error(path, text, f"unknown key {key!r} in [plan]{hint}; keys: {', '.join(PLAN_LIMITS)}", key)
        low, high = PLAN_LIMITS[key]
        if isinstance(value, bool) and key == "nested":
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _error(path, text, f"[plan] {key} must be a whole number from {low} to {high}, got {value!r}", key)
        settings[key] = value
    return tuple(settings.items())
