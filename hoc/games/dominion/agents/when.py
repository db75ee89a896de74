"""A buy entry's `when` conditions: comparisons of quantities of the game, written as text in a bot
file and packed into the bot's parameter row for the jitted bot (`hoc.games.dominion.agents.kernel`,
W_*). Each condition reads `LEFT OP RIGHT`; a side is a number, or a quantity times an optional
whole multiplier plus or minus a number:

    when = ["money > 18", "gains_to_end <= 4", "11 * owned(smithy) < owned(treasure)",
            "vp <= max_opponent_vp - 20", "owned(gold) > 0"]

Quantities: `owned(X)` (copies of card X the bot owns, or cards of a class X it owns), `supply(CARD)`,
`in_hand(CARD)`, `in_play(CARD)`, `money` / `money(CLASS)` (coins of the cards it owns: Treasures'
values and Actions' "+N coins"), `vp`, `max_opponent_vp`, `gains_to_end` (the Provinces left or the
three smallest supply piles together, whichever is fewer), `turns` (this one included), `coins`,
`buys`, `action_phase` (1 while a card's text gains, 0 in the Buy phase), `empty_piles`. Classes:
treasure, victory, curse, action, attack, reaction, terminal (Actions without +Actions), village
(+2 Actions or more), nonterminal (+1 Action or more), all; several joined by `|`.
Operators: < <= == >= > !=."""
from __future__ import annotations

import re

from hoc.errors import HocError
from hoc.games.dominion.agents import kernel as BK
from hoc.games.dominion.kernel import constants as K

OPS = {"<": BK.OP_LT, "<=": BK.OP_LE, "==": BK.OP_EQ, ">=": BK.OP_GE, ">": BK.OP_GT, "!=": BK.OP_NE}
FLIP = {"<": ">", "<=": ">=", "==": "==", ">=": "<=", ">": "<", "!=": "!="}
PLAIN = {"vp": BK.W_VP, "max_opponent_vp": BK.W_MAX_OPPONENT_VP, "gains_to_end": BK.W_GAINS_TO_END,
         "turns": BK.W_TURNS, "coins": BK.W_COINS, "buys": BK.W_BUYS, "action_phase": BK.W_ACTION_PHASE,
         "empty_piles": BK.W_EMPTY_PILES}
OF_CARD = {"supply": BK.W_SUPPLY, "in_hand": BK.W_IN_HAND, "in_play": BK.W_IN_PLAY}
CLASSES = {"treasure": K.TY_TREASURE, "victory": K.TY_VICTORY, "curse": K.TY_CURSE, "action": K.TY_ACTION,
           "attack": K.TY_ATTACK, "reaction": K.TY_REACTION, "terminal": BK.CL_TERMINAL,
           "village": BK.CL_VILLAGE, "nonterminal": BK.CL_NONTERMINAL, "all": 0}
QUANTITIES = ("owned(X)", "supply(CARD)", "in_hand(CARD)", "in_play(CARD)", "money", "money(CLASS)", *PLAIN)
_TOKEN = re.compile(r"\s*(?:(\d+)|([a-z_][a-z_0-9]*(?:\([a-z_0-9| ]*\))?)|(<=|>=|==|!=|<|>|\*|\+|-))")


def tokens(text: str, pattern: re.Pattern = _TOKEN, error: type[Exception] = ValueError, shown: int | None = None
           ) -> list[str]:
    """`text` cut into the tokens `pattern` matches one after another; the first place no token starts
    is named in `error` (its next `shown` characters, default all)."""
    out, i = [], 0
    text = text.strip()
    while i < len(text):
        m = pattern.match(text, i)
        if not m or m.end() == i:
            raise error(f"cannot read {text[i:i + shown] if shown else text[i:]!r}")
        out.append(m.group(0).strip())
        i = m.end()
    return out


def _term(name: str, db) -> int:
    """A quantity's term without its multiplier: quantity + W_SPAN * argument."""
    head, _, rest = name.partition("(")
    arg = rest.rstrip(")").strip()
    if not rest:
        if head == "money":
            return BK.W_MONEY
        if head in PLAIN:
            return PLAIN[head]
    elif head in OF_CARD:
        return OF_CARD[head] + BK.W_SPAN * db.lookup(arg)
    elif head in ("owned", "money"):
        if head == "owned" and "|" not in arg:
            try:
                return BK.W_OWNED + BK.W_SPAN * db.lookup(arg)
            except HocError:
                pass
        bits = 0
        for part in (p.strip() for p in arg.split("|")):
            if part not in CLASSES:
                raise ValueError(f"{part!r} is neither a card nor a class of cards ({', '.join(CLASSES)})")
            bits |= CLASSES[part]
        return (BK.W_OWNED_OF if head == "owned" else BK.W_MONEY) + BK.W_SPAN * bits
    raise ValueError(f"unknown quantity {name!r}; quantities: {', '.join(QUANTITIES)}")


def _side(tokens: list[str], db) -> tuple[int, int]:
    """(term with its multiplier, or -1 for none; constant) of one side: numbers and at most one
    quantity (`N * QUANTITY` or `QUANTITY`), added or subtracted."""
    items, sign, cur = [], 1, []
    for t in tokens:
        if t in ("+", "-"):
            if cur:
                items.append((sign, cur))
            elif items or t == "+":
                raise ValueError("two signs in a row")
            sign, cur = (1 if t == "+" else -1), []
        else:
            cur.append(t)
    if not cur:
        raise ValueError("a side is empty or ends with a sign")
    items.append((sign, cur))
    term, k = -1, 0
    for sign, item in items:
        if len(item) == 1 and item[0].isdigit():
            k += sign * int(item[0])
            continue
        if len(item) == 3 and item[0].isdigit() and item[1] == "*":
            mult, name = int(item[0]), item[2]
        elif len(item) == 1:
            mult, name = 1, item[0]
        else:
            raise ValueError(f"cannot read {' '.join(item)!r}")
        if term >= 0 or sign < 0:
            raise ValueError("a side holds at most one quantity, added")
        if not 1 <= mult < 2 ** 10:
            raise ValueError(f"multiplier {mult} is not 1 to 1023")
        term = _term(name, db) + BK.W_SPAN * BK.ARG_SPAN * mult
    return term, k


def compile_when(text: str, db) -> tuple[int, int, int, int]:
    """(op, left term, right term, constant) of a condition: lm * left OP rm * right + constant."""
    if not isinstance(text, str):
        raise ValueError(f"a condition is text like \"money > 18\", got {text!r}")
    words = tokens(text)
    ops = [i for i, t in enumerate(words) if t in OPS]
    if len(ops) != 1:
        raise ValueError(f"{text!r} must compare two sides with one of {' '.join(OPS)}")
    at = ops[0]
    op = words[at]
    (lt, lk), (rt, rk) = _side(words[:at], db), _side(words[at + 1:], db)
    if lt < 0 and rt < 0:
        raise ValueError(f"{text!r} compares two numbers")
    if lt < 0:                      # a number on the left: swap the sides
        lt, lk, rt, rk, op = rt, rk, lt, lk, FLIP[op]
    right = rt if rt >= 0 else BK.W_CONST + BK.W_SPAN * BK.ARG_SPAN
    return OPS[op], lt, right, rk - lk
