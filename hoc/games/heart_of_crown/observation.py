"""The observation: what one seat may see of a game, written by a jitted kernel into a flat vector.

`FIELDS` is the single description of the vector: each row names a field, what it holds and where
the kernel reads it. `observe` walks the table `TABLE` built from `FIELDS` (it writes nothing the
table does not name, in the table's order), and `reference()` writes the documentation table from
the same rows, so the two cannot drift.

The vector has three blocks:

- the table (global): the turn, the pending question, the market, the supply, the play area and the
  exile zone, with the prices the observing seat would pay;
- one block per seat, the observing seat first, then the seats in turn order after it: what the
  whole table sees of each seat (princess, SP, counters, pile sizes, discard pile, domain, kept
  cards, cards owned, cards lying face up on the deck);
- the observing seat's own block: its hand, its deck's contents as counts (never their order), and
  the cards it looks at when a card asks it to choose from the top of its deck.

Never in it: the order of any deck or of the supply, another seat's hand, the cards in a deck of
another seat (beyond their number and the face-up ones), the random streams. Card fields have one
slot per card id (`NCMAX` slots; ids past the card set's size stay 0): `hoc.games.heart_of_crown.cards.CardDB.name(c)`
names card c.
"""
from __future__ import annotations

import numpy as np

from hoc.games.heart_of_crown.kernel.choice import FR_A, FR_EFF
from hoc.games.heart_of_crown.kernel.constants import (
    CTX_EFFECT, CH_DECK_TOP, H_ACTION_BONUS, H_DEBT, H_DEBT_NEW, H_CH_CARD, H_CH_OWNER, H_CH_EXCEPT, H_CH_FLAGS, H_CH_GOOD, H_CH_KIND,
    H_CH_MAX, H_CH_MIN, H_CH_N, H_CH_NOT, H_CH_OPT, H_CH_TYPES, H_COINS, H_CTX, H_CUR, H_DECIDER,
    H_DEPTH, H_END, H_EXTRA_PENDING, H_IN_EXTRA, H_DOMAIN_USED, H_MODE, H_NACTIVE, H_NC, H_NP, H_OFF_ABROAD,
    H_OFF_DISCARD, H_OFF_DOMAIN, H_OFF_HAND, H_OFF_KEPT, H_OFF_MARKET, H_OFF_OWNED, H_OFF_PLAY,
    H_OFF_STACK, H_OFF_SUPPLY, H_OPEN, H_OVERTIME, H_PHASE, H_PLAYED, H_REVEALED, H_REVEALED_NEW,
    H_SUCC_RED, H_SUPPLY_N, H_TURNS, H_USED, LEGAL, NCMAX, N_ACTIONS, P_BACK_TURN, P_COIN_CTR,
    P_DECK_N, P_DECLARED, P_DISCARD_N, P_DOMAIN_N, P_HANDY_CTR, P_HAND_N, P_KEPT_N, P_DOMAIN_ABILITIES, P_OUT,
    P_OWNED_N, P_PRINCESS, P_SP, P_SUCC_CTR, P_TURNS, P_TWIN_CTR, STACK_FRAME,
)
from hoc.engine.jit import entry, kernel
from hoc.games.heart_of_crown.kernel.state import active, after, deck, pb, position
from hoc.games.heart_of_crown.kernel.turn import legal_actions
from hoc.games.heart_of_crown.kernel.zones import FACE_UP, buy_cost, in_market

# blocks
TABLE_BLOCK = 0
SEAT_BLOCK = 1
OWN_BLOCK = 2
BLOCKS = {TABLE_BLOCK: "table", SEAT_BLOCK: "seat", OWN_BLOCK: "own"}

# how a field is read (the kernel's cases); src is a header slot, a player slot or a region header
HEADER = 0          # s[src]
FLAG = 1            # 1 if s[src] != 0
SEAT_OF = 2         # a seat held in s[src], counted from the observing seat in turn order
QUESTION = 3        # s[src] while a card asks a question (else 0), capped at CAP
QUESTION_CARD = 4   # card id + 1 held in s[src] while a card asks (0: none)
ASKING_EFFECT = 5   # the effect routine (K.EFF_*) that asks the pending question (0: none)
ASKING_CARD = 6     # card id + 1 whose text asks the pending question (0: none)
PLAYER = 7          # s[seat block + src]
PLAYER_CARD = 8     # card id + 1 held in the seat block at src (0: none)
PLAYER_FLAG = 9     # 1 if the seat block's src is not 0
SEAT_CARDS = 10     # per card: the seat's row of the region whose offset is s[src]
CARDS = 11          # per card: the shared region whose offset is s[src]
PRICE = 12          # per card: what the observing seat pays to buy it now (0 if it is not for sale)
FOR_SALE = 13       # per card: 1 if it can be bought or gained from the market now
SUPPLY = 14         # per card: copies in the supply deck (face down or up)
SUPPLY_FACE_UP = 15  # per card: copies lying face up on top of the supply (Buried Treasure)
DECK_FACE_UP = 16   # per card: copies lying face up in the seat's deck
DECK_TOP = 17       # card id + 1 of the seat's top deck card when it lies face up (0: face down or none)
DECK = 18           # per card: copies in the observing seat's own deck
DECK_WINDOW = 19    # per card: the top cards of its deck the observing seat chooses from now
PLAYERS = 20        # the number of seats
SEAT = 21           # the observing seat's own number (0 plays first)
MINE = 22           # 1 if the observing seat must decide now
SEAT_SLOT = 23      # s[src + seat]: a header slot per seat
PER_CARD = {SEAT_CARDS, CARDS, PRICE, FOR_SALE, SUPPLY, SUPPLY_FACE_UP, DECK_FACE_UP, DECK, DECK_WINDOW}
CAP = 100           # question limits are capped here (a cost limit of "any" reads 100)

# (name, block, kind, src, meaning): the only description of the observation vector
FIELDS = (
    ("players", TABLE_BLOCK, PLAYERS, 0, "number of seats"),
    ("seat", TABLE_BLOCK, SEAT, 0, "the observing seat's place in turn order (0 plays first; its number unless a "
                                    "seating variant seated the players)"),
    ("to_decide", TABLE_BLOCK, MINE, 0, "1 if the observing seat must decide now"),
    ("over", TABLE_BLOCK, FLAG, H_END, "1 once the game is over"),
    ("turns", TABLE_BLOCK, HEADER, H_TURNS, "turns begun by all seats together"),
    ("turn_player", TABLE_BLOCK, SEAT_OF, H_CUR, "the turn player, counted from the observing seat (0: itself)"),
    ("decider", TABLE_BLOCK, SEAT_OF, H_DECIDER, "the seat that must decide, counted from the observing seat"),
    ("phase", TABLE_BLOCK, HEADER, H_PHASE, "phase of the turn (K.PH_*: 1 Main, 2 Second, 4 Keep, 6 Declare)"),
    ("context", TABLE_BLOCK, HEADER, H_CTX,
     "what is asked (K.CTX_*: 1 Main phase, 2 Second phase, 3 keep, 4 coronation, 5 card choice)"),
    ("second_phase", TABLE_BLOCK, HEADER, H_MODE, "Second phase begun as (K.MODE_*: 0 open, 1 buying, 2 setting)"),
    ("coins", TABLE_BLOCK, HEADER, H_COINS, "the turn player's coins to spend"),
    ("open_plays", TABLE_BLOCK, HEADER, H_OPEN, "cards the turn player may still play"),
    ("cards_played", TABLE_BLOCK, HEADER, H_PLAYED, "cards the turn player played this turn"),
    ("ability_used", TABLE_BLOCK, HEADER, H_USED, "once-per-turn abilities used this turn (bitmask)"),
    ("lilies_used", TABLE_BLOCK, HEADER, H_DOMAIN_USED, "abilities of domain cards used this Main phase (Attendant Maid Lily, 1E Imperial Estate)"),
    ("action_bonus", TABLE_BLOCK, HEADER, H_ACTION_BONUS, "extra coins per Action played this turn (Library)"),
    ("succession_discount", TABLE_BLOCK, HEADER, H_SUCC_RED, "Succession cards cost this much less this turn (Ball)"),
    ("extra_turn", TABLE_BLOCK, FLAG, H_IN_EXTRA, "1 in an extra turn (Twins)"),
    ("extra_turn_next", TABLE_BLOCK, FLAG, H_EXTRA_PENDING, "1 if an extra turn follows this one"),
    ("overtime", TABLE_BLOCK, FLAG, H_OVERTIME, "1 in overtime (two declarations in one round)"),
    ("question", TABLE_BLOCK, QUESTION, H_CH_KIND,
     "card choice asked (K.CH_*: 1 hand, 2 discard pile, 3 market, 4 number, 5 play area, 6 mode, "
     "7 top of deck, 8 kept); 0 when no card asks"),
    ("question_effect", TABLE_BLOCK, ASKING_EFFECT, 0, "effect routine asking (K.EFF_*), 0 when no card asks"),
    ("question_card", TABLE_BLOCK, ASKING_CARD, 0, "card id + 1 whose text asks (0: none)"),
    ("question_types", TABLE_BLOCK, QUESTION, H_CH_TYPES, "the chosen card must have one of these types (K.TY_* bits; 0: any)"),
    ("question_not_types", TABLE_BLOCK, QUESTION, H_CH_NOT, "the chosen card must have none of these types"),
    ("question_min", TABLE_BLOCK, QUESTION, H_CH_MIN, "least printed cost (or least number) allowed"),
    ("question_max", TABLE_BLOCK, QUESTION, H_CH_MAX, f"greatest printed cost (or number) allowed, {CAP} for any"),
    ("question_optional", TABLE_BLOCK, QUESTION, H_CH_OPT, "1 if declining (pass) is allowed"),
    ("question_only_card", TABLE_BLOCK, QUESTION_CARD, H_CH_CARD, "card id + 1 of the only card allowed (0: any)"),
    ("question_except_card", TABLE_BLOCK, QUESTION_CARD, H_CH_EXCEPT, "card id + 1 of a card not allowed (0: none)"),
    ("question_flags", TABLE_BLOCK, QUESTION, H_CH_FLAGS, "card flags the chosen card must have (K.FL_* bits)"),
    ("question_n", TABLE_BLOCK, QUESTION, H_CH_N, "modes offered (bitmask) or cards of the deck top looked at"),
    ("question_gains", TABLE_BLOCK, QUESTION, H_CH_GOOD, "1 if the chooser gains the card chosen (0: loses it)"),
    ("supply_size", TABLE_BLOCK, HEADER, H_SUPPLY_N, "cards in the supply deck"),
    ("supply_face_up_n", TABLE_BLOCK, HEADER, H_REVEALED, "cards lying face up on top of the supply"),
    ("supply_revealed_now", TABLE_BLOCK, HEADER, H_REVEALED_NEW, "of those, revealed in the turn of the latest reveal"),
    ("market", TABLE_BLOCK, CARDS, H_OFF_MARKET, "per card: copies in the market piles (princesses: 1 if not yet backed)"),
    ("for_sale", TABLE_BLOCK, FOR_SALE, 0, "per card: 1 if it can be bought or gained from the market now"),
    ("price", TABLE_BLOCK, PRICE, 0, "per card: coins the observing seat pays to buy it now (0 if not for sale)"),
    ("supply", TABLE_BLOCK, SUPPLY, 0, "per card: copies left in the supply deck (its order is hidden)"),
    ("supply_face_up", TABLE_BLOCK, SUPPLY_FACE_UP, 0, "per card: copies face up on top of the supply"),
    ("play_area", TABLE_BLOCK, CARDS, H_OFF_PLAY, "per card: copies in the play area"),
    ("exiled", TABLE_BLOCK, CARDS, H_OFF_ABROAD, "per card: copies exiled"),
    ("debt_due", TABLE_BLOCK, HEADER, H_DEBT_NEW,
     "debt counters the turn player's Moneylenders played this turn add at its end (1E)"),
    ("princess", SEAT_BLOCK, PLAYER_CARD, P_PRINCESS, "card id + 1 of the princess backed (0: none yet)"),
    ("sp", SEAT_BLOCK, PLAYER, P_SP, "succession points"),
    ("hand_size", SEAT_BLOCK, PLAYER, P_HAND_N, "cards in hand"),
    ("deck_size", SEAT_BLOCK, PLAYER, P_DECK_N, "cards in the deck"),
    ("discard_size", SEAT_BLOCK, PLAYER, P_DISCARD_N, "cards in the discard pile"),
    ("domain_size", SEAT_BLOCK, PLAYER, P_DOMAIN_N, "cards in the domain"),
    ("kept_size", SEAT_BLOCK, PLAYER, P_KEPT_N, "Actions kept on the domain"),
    ("cards_owned", SEAT_BLOCK, PLAYER, P_OWNED_N, "cards owned, wherever they lie"),
    ("own_turns", SEAT_BLOCK, PLAYER, P_TURNS, "turns begun"),
    ("declared", SEAT_BLOCK, PLAYER_FLAG, P_DECLARED, "1 if a coronation declaration stands"),
    ("knocked_out", SEAT_BLOCK, PLAYER_FLAG, P_OUT, "1 if left out by overtime"),
    ("backed_on_turn", SEAT_BLOCK, PLAYER, P_BACK_TURN, "turn the princess was backed (0: not yet)"),
    ("coin_counters", SEAT_BLOCK, PLAYER, P_COIN_CTR, "coin counters"),
    ("handyman_counters", SEAT_BLOCK, PLAYER, P_HANDY_CTR, "Handyman's coin counters"),
    ("twins_counters", SEAT_BLOCK, PLAYER, P_TWIN_CTR, "Twins counters"),
    ("succession_counters", SEAT_BLOCK, PLAYER, P_SUCC_CTR, "succession counters (Lily)"),
    ("lilies", SEAT_BLOCK, PLAYER, P_DOMAIN_ABILITIES, "cards in the domain with an ability used from there (Attendant Maid Lily, 1E Imperial Estate)"),
    ("deck_top_face_up", SEAT_BLOCK, DECK_TOP, 0, "card id + 1 of the top deck card when it lies face up (0: face down)"),
    ("discard_pile", SEAT_BLOCK, SEAT_CARDS, H_OFF_DISCARD, "per card: copies in the discard pile"),
    ("domain", SEAT_BLOCK, SEAT_CARDS, H_OFF_DOMAIN, "per card: copies in the domain"),
    ("kept", SEAT_BLOCK, SEAT_CARDS, H_OFF_KEPT, "per card: Actions kept on the domain"),
    ("owned", SEAT_BLOCK, SEAT_CARDS, H_OFF_OWNED, "per card: copies owned (every gain and exile is seen)"),
    ("deck_face_up", SEAT_BLOCK, DECK_FACE_UP, 0, "per card: copies lying face up in the deck"),
    ("debt_counters", SEAT_BLOCK, SEAT_SLOT, H_DEBT,
     "debt counters in the Moneylender area (1E): coins it would gain remove that many instead"),
    ("hand", OWN_BLOCK, SEAT_CARDS, H_OFF_HAND, "per card: copies in the observing seat's hand"),
    ("deck", OWN_BLOCK, DECK, 0, "per card: copies in its deck (their order is hidden)"),
    ("deck_window", OWN_BLOCK, DECK_WINDOW, 0, "per card: the deck's top cards it chooses from now, its own or the one a 1E Scout or Royal Guard reveals to it (else 0)"),
)



def width(kind: int) -> int:
    return NCMAX if kind in PER_CARD else 1


# the kernel's copy of FIELDS: block, kind, source, slots (numba freezes it into the compiled code)
TABLE = np.array([(block, kind, src, width(kind)) for _, block, kind, src, _ in FIELDS], np.int64)


def block_size(block: int) -> int:
    return sum(width(kind) for _, b, kind, _, _ in FIELDS if b == block)


def size(players: int) -> int:
    """Length of the observation vector of a game of `players` seats."""
    return block_size(TABLE_BLOCK) + players * block_size(SEAT_BLOCK) + block_size(OWN_BLOCK)


def layout(players: int) -> dict[str, slice]:
    """Where each field lies: "coins", "sp/0" (the observing seat), "sp/1" (the next seat), ..."""
    out, i = {}, 0
    for block, seats in ((TABLE_BLOCK, [None]), (SEAT_BLOCK, range(players)), (OWN_BLOCK, [None])):
        for r in seats:
            for name, b, kind, _, _ in FIELDS:
                if b == block:
                    key = name if r is None else f"{name}/{r}"
                    out[key] = slice(i, i + width(kind))
                    i += width(kind)
    return out


def reference() -> str:
    """The field-by-field reference of the observation vector (Markdown), from `FIELDS`."""
    lines = ["| block | offset | field | slots | meaning |", "|---|---|---|---|---|"]
    offsets = {TABLE_BLOCK: 0, SEAT_BLOCK: 0, OWN_BLOCK: 0}
    for name, block, kind, _, meaning in FIELDS:
        w = width(kind)
        lines.append(f"| {BLOCKS[block]} | {offsets[block]} | `{name}` | {w} | {meaning} |")
        offsets[block] += w
    t, s, o = (block_size(b) for b in (TABLE_BLOCK, SEAT_BLOCK, OWN_BLOCK))
    lines += ["", f"The table block ({t} slots) comes first; then one seat block ({s} slots) per seat, the observing "
              f"seat's first and then the others in turn order; then the own block ({o} slots). Offsets are "
              f"within their block. Length: {t} + players x {s} + {o} ({size(2)} for 2 players, {size(3)} for 3, "
              f"{size(4)} for 4)."]
    return "\n".join(lines)


# ---- the kernel -----------------------------------------------------------------------------

@kernel
def write_cards(s, kind, src, seat, p, out, i):
    """Write per-card field `kind`, seen by `seat`, of seat p's block into out[i:i + NCMAX]. One loop
    per kind (the branch outside it); piles are counted in one pass."""
    nc = s[H_NC]
    if kind == SEAT_CARDS or kind == CARDS:
        off = s[src] + (p * nc if kind == SEAT_CARDS else 0)
        for c in range(nc):
            out[i + c] = s[off + c]
        for c in range(nc, NCMAX):
            out[i + c] = 0
        return
    for c in range(NCMAX):
        out[i + c] = 0
    if kind == FOR_SALE:
        for j in range(s[H_NACTIVE]):      # only the cards present in the game can be in the market
            c = active(s, j)
            if in_market(s, c):
                out[i + c] = 1
    elif kind == PRICE:
        for j in range(s[H_NACTIVE]):
            c = active(s, j)
            if in_market(s, c):
                out[i + c] = buy_cost(s, seat, c)
    elif kind == SUPPLY or kind == SUPPLY_FACE_UP:
        top = s[H_OFF_SUPPLY] + s[H_SUPPLY_N]
        for x in range(s[H_OFF_SUPPLY] if kind == SUPPLY else top - s[H_REVEALED], top):
            out[i + s[x]] += 1
    else:
        k = deck(s, p)
        top = s[pb(s, p) + P_DECK_N]
        if kind == DECK_WINDOW:
            if s[H_END] == 0 and s[H_CTX] == CTX_EFFECT and s[H_CH_KIND] == CH_DECK_TOP and s[H_DECIDER] == seat:
                # the deck the question reads: the seat's own, or the opponent's a 1E Scout or Royal
                # Guard reveals to it (H_CH_OWNER)
                k = deck(s, s[H_CH_OWNER])
                top = s[pb(s, s[H_CH_OWNER]) + P_DECK_N]
                for x in range(k + max(0, top - s[H_CH_N]), k + top):
                    out[i + (s[x] & (FACE_UP - 1))] += 1
        elif kind == DECK_FACE_UP:
            for x in range(k, k + top):
                if s[x] & FACE_UP:
                    out[i + (s[x] & (FACE_UP - 1))] += 1
        else:
            for x in range(k, k + top):
                out[i + (s[x] & (FACE_UP - 1))] += 1


@kernel
def asking(s):
    """Whether a card's question is pending (the question slots hold its filters only then)."""
    return s[H_END] == 0 and s[H_CTX] == CTX_EFFECT and s[H_DEPTH] > 0


@kernel
def scalar_value(s, kind, src, seat, p):
    """Scalar field `kind`, seen by `seat`, of seat p's block."""
    np_ = s[H_NP]
    if kind == HEADER:
        return s[src]
    if kind == FLAG:
        return 1 if s[src] != 0 else 0
    if kind == SEAT_OF:
        return (position(s, s[src]) - position(s, seat) + np_) % np_
    if kind == QUESTION:
        return min(s[src], CAP) if asking(s) else 0
    if kind == QUESTION_CARD:
        return s[src] + 1 if asking(s) and s[src] >= 0 else 0
    if kind == ASKING_EFFECT or kind == ASKING_CARD:
        if not asking(s):
            return 0
        fr = s[H_OFF_STACK] + (s[H_DEPTH] - 1) * STACK_FRAME
        if kind == ASKING_EFFECT:
            return s[fr + FR_EFF]
        return s[fr + FR_A] + 1 if s[fr + FR_A] >= 0 else 0
    if kind == PLAYER:
        return s[pb(s, p) + src]
    if kind == PLAYER_CARD:
        return s[pb(s, p) + src] + 1 if s[pb(s, p) + src] >= 0 else 0
    if kind == PLAYER_FLAG:
        return 1 if s[pb(s, p) + src] != 0 else 0
    if kind == DECK_TOP:
        n = s[pb(s, p) + P_DECK_N]
        if n == 0:
            return 0
        x = s[deck(s, p) + n - 1]
        return (x & (FACE_UP - 1)) + 1 if x & FACE_UP else 0
    if kind == SEAT_SLOT:
        return s[src + p]
    if kind == PLAYERS:
        return np_
    if kind == SEAT:
        return position(s, seat)
    if kind == MINE:
        return 1 if s[H_END] == 0 and s[H_DECIDER] == seat else 0
    return 0


@kernel
def write_block(s, block, seat, p, out, i):
    """Write the fields of `block` for seat p as `seat` sees them from out[i]; return the next i."""
    for r in range(TABLE.shape[0]):
        if TABLE[r, 0] != block:
            continue
        kind = TABLE[r, 1]
        src = TABLE[r, 2]
        if TABLE[r, 3] > 1:
            write_cards(s, kind, src, seat, p, out, i)
            i += NCMAX
        else:
            out[i] = scalar_value(s, kind, src, seat, p)
            i += 1
    return i


@entry
def observe(s, seat, out):
    """Write what `seat` may see of the game in s into out (length `size(players)`); return the length."""
    np_ = s[H_NP]
    i = write_block(s, TABLE_BLOCK, seat, seat, out, 0)
    for r in range(np_):
        i = write_block(s, SEAT_BLOCK, seat, after(s, seat, r), out, i)
    return write_block(s, OWN_BLOCK, seat, seat, out, i)


@entry
def legal_mask(s, seat, mask):
    """mask[a] = 1 for each legal action a of `seat` (all 0 when another seat decides or the game is over)."""
    for a in range(N_ACTIONS):
        mask[a] = 0
    if s[H_END] != 0 or s[H_DECIDER] != seat:
        return 0
    n = legal_actions(s, s[LEGAL:LEGAL + N_ACTIONS])
    for k in range(n):
        mask[s[LEGAL + k]] = 1
    return n

