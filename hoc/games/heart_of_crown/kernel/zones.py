"""Moving cards between zones. Every move keeps the per-player size counters and the zone masks in
step, so the invariant checker can compare them with the count regions."""
import numpy as np

from hoc.engine.jit import entry, kernel
from hoc.games.heart_of_crown.kernel.constants import (
    H_COINS, H_DEBT, CAT_COMMON, CAT_PRINCESS, CAT_RARE, EFF_KLAM_KLAM, FL_NOT_IN_MARKET, F_CAT, F_COST, F_EFFECT,
    F_FLAGS, F_SUB, F_TYPES, H_FREE_CARDS, H_MARKET_DIRTY, H_NACTIVE, H_OFF_SUPPLY, H_PLAY_MASK, H_REVEALED,
    H_SUCC_RED, H_SUPPLY_N,
    H_WITCH, H_WITCH_N, P_DECK_N, P_DISCARD_MASK, P_DISCARD_N, P_DOMAIN_MASK, P_HAND_MASK, P_DOMAIN_N, P_HAND_ACTION, P_HAND_N, P_HAND_PLAYABLE, P_HAND_SUCC,
    P_KEPT_N, P_OWNED_N, P_PRINCESS, P_RNG, R_COURT_MAID, R_CURSE, R_DUKE, R_SENATOR, ST_EXILED,
    ST_GAINED, TY_ACTION, TY_SUCCESSION, TY_TERRITORY,
)
from hoc.games.heart_of_crown.kernel.endgame import check_judgement, rescore
from hoc.games.heart_of_crown.kernel.market import face_up_depth, face_up_offered, revealed_this_turn, take_face_up
from hoc.games.heart_of_crown.kernel.state import (
    abroad, active, card, count, deck, discard, domain, hand, kept, lowest, market, mask_clear, mask_load,
    mask_set, owned, pb, play, rule, shuffle,
)

ONE = np.uint64(1)
FACE_UP = 1 << 16   # deck entries carry this bit when the card lies face up


@kernel
def gain_coins(s, p, n):
    """p would gain n coins: while p has debt counters (1E Moneylender), that many are removed
    instead, and only the rest are gained."""
    d = s[H_DEBT + p]
    if d > 0:
        r = min(d, n)
        s[H_DEBT + p] = d - r
        n -= r
    s[H_COINS] += n


@kernel
def hand_add(s, p, c, n):
    h = hand(s, p) + c
    k = s[h] + n
    s[h] = k
    b = pb(s, p)
    if k > 0:
        mask_set(s, b + P_HAND_MASK, c)
    else:
        mask_clear(s, b + P_HAND_MASK, c)
    s[b + P_HAND_N] += n
    # without branches: the types of the cards drawn are as good as random
    ty = card(s, c, F_TYPES)
    s[b + P_HAND_PLAYABLE] += n * (ty & (TY_TERRITORY | TY_ACTION) != 0)
    s[b + P_HAND_SUCC] += n * (ty & TY_SUCCESSION != 0)
    s[b + P_HAND_ACTION] += n * (ty & TY_ACTION != 0)


@kernel
def discard_add(s, p, c, n):
    s[discard(s, p) + c] += n
    b = pb(s, p)
    s[b + P_DISCARD_N] += n
    if n > 0:
        mask_set(s, b + P_DISCARD_MASK, c)


@kernel
def to_abroad(s, p, c):
    """Exile: p's card (already taken from its zone) leaves the game for the shared "abroad"."""
    count(s, c, ST_EXILED)
    s[abroad(s) + c] += 1
    own(s, p, c, -1)


@kernel
def exile_from_discard(s, p, c):
    discard_add(s, p, c, -1)
    to_abroad(s, p, c)


@kernel
def give_curse(s, q, on_deck_top):
    """q gains a Curse from the curse pile (to the discard pile, or face up on top of the deck).
    Returns False, giving nothing, once the pile is empty: later players get none (FAQ)."""
    curse = rule(s, R_CURSE)
    if s[market(s) + curse] == 0:
        return False
    s[market(s) + curse] -= 1
    count(s, curse, ST_GAINED)
    own(s, q, curse, 1)
    if on_deck_top:
        push_deck(s, q, curse, True)
    else:
        discard_add(s, q, curse, 1)
    return True


@kernel
def market_to_hand(s, p, c):
    """Put c from the market into p's hand (City Development)."""
    hand_add(s, p, c, 1)
    own(s, p, c, 1)
    take_from_market(s, c)


@kernel
def domain_to_discard(s, p, c):
    s[domain(s, p) + c] -= 1
    s[pb(s, p) + P_DOMAIN_N] -= 1
    discard_add(s, p, c, 1)
    rescore(s, p)


@kernel
def kept_to_discard(s, p, c):
    s[kept(s, p) + c] -= 1
    s[pb(s, p) + P_KEPT_N] -= 1
    discard_add(s, p, c, 1)


@kernel
def own(s, p, c, n):
    """p comes to own n more copies of c (negative: fewer), wherever they lie in p's field."""
    s[owned(s, p) + c] += n
    s[pb(s, p) + P_OWNED_N] += n


@kernel
def exile_from_hand(s, p, c):
    hand_add(s, p, c, -1)
    to_abroad(s, p, c)


@kernel
def hand_to_discard_all(s, p):
    h = hand(s, p)
    d = discard(s, p)
    b = pb(s, p)
    m = mask_load(s, b + P_HAND_MASK)
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        s[d + c] += s[h + c]
        s[h + c] = 0
    for w in range(2):
        s[b + P_DISCARD_MASK + w] |= s[b + P_HAND_MASK + w]
        s[b + P_HAND_MASK + w] = 0
    s[b + P_DISCARD_N] += s[b + P_HAND_N]
    s[b + P_HAND_N] = 0
    s[b + P_HAND_PLAYABLE] = 0
    s[b + P_HAND_SUCC] = 0
    s[b + P_HAND_ACTION] = 0


@kernel
def play_to_discard_all(s, p):
    pa = play(s)
    d = discard(s, p)
    b = pb(s, p)
    n = 0
    m = mask_load(s, H_PLAY_MASK)
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        n += s[pa + c]
        s[d + c] += s[pa + c]
        s[pa + c] = 0
    for w in range(2):
        s[b + P_DISCARD_MASK + w] |= s[H_PLAY_MASK + w]
        s[H_PLAY_MASK + w] = 0
    s[b + P_DISCARD_N] += n


@kernel
def reshuffle_under(s, p):
    """Shuffle the discard pile and put it under the remaining deck."""
    b = pb(s, p)
    m = s[b + P_DISCARD_N]
    if m == 0:
        return
    k = deck(s, p)
    n = s[b + P_DECK_N]
    for i in range(n - 1, -1, -1):
        s[k + m + i] = s[k + i]
    d = discard(s, p)
    i = 0
    bits = mask_load(s, b + P_DISCARD_MASK)    # id order, as the active list
    while bits:
        c = lowest(bits)
        bits &= bits - np.uint64(1)
        for _ in range(s[d + c]):
            s[k + i] = c
            i += 1
        s[d + c] = 0
    s[b + P_DISCARD_MASK] = 0
    s[b + P_DISCARD_MASK + 1] = 0
    shuffle(s, b + P_RNG, k, m)
    s[b + P_DISCARD_N] = 0
    s[b + P_DECK_N] = n + m


@kernel
def ensure_deck(s, p, n):
    """Make the deck hold at least n cards if the discard pile allows; returns what it holds."""
    b = pb(s, p)
    if s[b + P_DECK_N] < n:
        reshuffle_under(s, p)
    return s[b + P_DECK_N]


@kernel
def pop_deck(s, p):
    b = pb(s, p)
    n = s[b + P_DECK_N] - 1
    s[b + P_DECK_N] = n
    return s[deck(s, p) + n] & (FACE_UP - 1)


@kernel
def push_deck(s, p, c, face_up):
    b = pb(s, p)
    n = s[b + P_DECK_N]
    s[deck(s, p) + n] = c | (FACE_UP if face_up else 0)
    s[b + P_DECK_N] = n + 1


@kernel
def push_deck_bottom(s, p, c, face_up):
    """Put c under p's deck (1E Purveyor and Library)."""
    b = pb(s, p)
    n = s[b + P_DECK_N]
    k = deck(s, p)
    for i in range(n, 0, -1):
        s[k + i] = s[k + i - 1]
    s[k] = c | (FACE_UP if face_up else 0)
    s[b + P_DECK_N] = n + 1


@kernel
def deck_window_has(s, p, n, c):
    """c is among the top n cards of p's deck."""
    k = deck(s, p)
    top = s[pb(s, p) + P_DECK_N]
    for i in range(max(0, top - n), top):
        if s[k + i] & (FACE_UP - 1) == c:
            return True
    return False


@kernel
def take_from_window(s, p, n, c):
    """Remove the topmost c from the top n cards of p's deck (the cards above it close up)."""
    k = deck(s, p)
    top = s[pb(s, p) + P_DECK_N]
    for i in range(top - 1, max(0, top - n) - 1, -1):
        if s[k + i] & (FACE_UP - 1) == c:
            for j in range(i, top - 1):
                s[k + j] = s[k + j + 1]
            s[pb(s, p) + P_DECK_N] = top - 1
            return


@kernel
def draw(s, p, n):
    """Draw up to n cards, reshuffling the discard pile under the deck when it runs out."""
    b = pb(s, p)
    got = 0
    while got < n:
        top = s[b + P_DECK_N]
        if top == 0:
            reshuffle_under(s, p)
            top = s[b + P_DECK_N]
            if top == 0:
                break
        take = min(n - got, top)
        k = deck(s, p) + top - 1
        s[b + P_DECK_N] = top - take
        for i in range(take):
            hand_add(s, p, s[k - i] & (FACE_UP - 1), 1)
        got += take
    return got


@kernel
def in_market(s, c):
    """Card c can be bought or gained from the market (basic or random market, or face up on the
    supply: Buried Treasure) right now."""
    if s[market(s) + c] > 0:
        return card(s, c, F_CAT) != CAT_PRINCESS and (card(s, c, F_FLAGS) & FL_NOT_IN_MARKET) == 0
    return s[H_REVEALED] > 0 and face_up_depth(s, c) >= 0


@kernel
def take_from_market(s, c):
    """Remove one c from the market; may end the game by judgement. A face-up copy on the supply
    goes first: it is the copy the buyer paid for (it is never dearer than the pile's), and for a
    gain the two copies are the same card. Reading: the engine picks the copy, the player does not."""
    if s[H_REVEALED] > 0:
        d = face_up_depth(s, c)
        if d >= 0:
            take_face_up(s, d)
            return
    s[market(s) + c] -= 1
    cat = card(s, c, F_CAT)
    if cat == CAT_COMMON or cat == CAT_RARE:
        s[H_MARKET_DIRTY] = 1
    if c == rule(s, R_DUKE) or c == rule(s, R_SENATOR) or c == rule(s, R_COURT_MAID):
        check_judgement(s)


@kernel
def gain(s, p, c):
    """Gain c from the market to p's discard pile (every buy is a gain)."""
    count(s, c, ST_GAINED)
    discard_add(s, p, c, 1)
    own(s, p, c, 1)
    take_from_market(s, c)


@kernel
def gain_to_deck_bottom(s, p, c):
    """A gain that goes face up under p's deck (cards bought under 1E Purveyor)."""
    count(s, c, ST_GAINED)
    push_deck_bottom(s, p, c, True)
    own(s, p, c, 1)
    take_from_market(s, c)


@kernel
def gain_to_deck_top(s, p, c):
    push_deck(s, p, c, False)
    own(s, p, c, 1)
    take_from_market(s, c)


@entry
def buy_cost(s, p, c):
    """What p pays now to buy c from the market: a card Buried Treasure revealed this turn costs 3
    less (not below 0), added to the reductions in force (RULINGS 13)."""
    if s[H_REVEALED] > 0:
        d = face_up_depth(s, c)
        if d >= 0 and revealed_this_turn(s, d):
            return reduced_cost(s, p, c, 3, 0)
    if not reductions_in_force(s, p):
        return card(s, c, F_COST)
    return reduced_cost(s, p, c, 0, 0)


@kernel
def reductions_in_force(s, p):
    """A cost reduction applies to p's buys now (Ball's, Charm Witch's, Klam-Klam's), not counting a
    card Buried Treasure revealed (see `discounts_this_turn`)."""
    pr = s[pb(s, p) + P_PRINCESS]
    return s[H_SUCC_RED] != 0 or s[H_WITCH_N] != 0 or (pr >= 0 and card(s, pr, F_EFFECT) == EFF_KLAM_KLAM)


@kernel
def discounts_this_turn(s, p):
    """p may buy something below its printed cost now: a reduction in force, or a face-up supply card
    revealed this turn."""
    return reductions_in_force(s, p) or (s[H_REVEALED] > 0 and revealed_this_turn(s, 0))


@kernel
def reduced_cost(s, p, c, red, floor):
    """What p pays to buy c with an extra reduction red (floor `floor`) and those in force:
    reductions add up, the result is the highest floor among them at the least, and a reduction
    never raises a cost above the printed one (RULINGS 13)."""
    base = card(s, c, F_COST)
    pr = s[pb(s, p) + P_PRINCESS]
    if pr >= 0 and card(s, pr, F_EFFECT) == EFF_KLAM_KLAM:
        red += 1
        floor = max(floor, 1)
    if s[H_SUCC_RED] > 0 and card(s, c, F_TYPES) & TY_SUCCESSION:
        red += s[H_SUCC_RED]
        floor = max(floor, 2)
    if s[H_WITCH_N] > 0:
        types = card(s, c, F_TYPES) | (card(s, c, F_SUB) << 8)
        for i in range(s[H_WITCH_N]):
            if types & s[H_WITCH + i]:
                red += 1
                floor = max(floor, 2)
    if red == 0:
        return base
    return min(base, max(base - red, floor))


@kernel
def to_domain_from_play(s, p, c, n):
    s[play(s) + c] -= n
    s[domain(s, p) + c] += n
    s[pb(s, p) + P_DOMAIN_N] += n
    mask_set(s, pb(s, p) + P_DOMAIN_MASK, c)
    rescore(s, p)


@kernel
def set_from_hand(s, p, c):
    hand_add(s, p, c, -1)
    s[domain(s, p) + c] += 1
    s[pb(s, p) + P_DOMAIN_N] += 1
    mask_set(s, pb(s, p) + P_DOMAIN_MASK, c)
    rescore(s, p)


# ---- what a zone holds ------------------------------------------------------------------
@kernel
def hand_has(s, p, not_types):
    """p holds a card without any of not_types."""
    m = mask_load(s, pb(s, p) + P_HAND_MASK)
    while m:
        c = lowest(m)
        m &= m - ONE
        if card(s, c, F_TYPES) & not_types == 0:
            return True
    return False


@kernel
def market_choice_exists(s, max_cost):
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        if in_market(s, c) and card(s, c, F_COST) <= max_cost:
            return True
    return False


@kernel
def free_buy_exists(s, p):
    """Some card in the market costs p nothing now: one that Buried Treasure brought down to 0 (the
    only reduction with floor 0), or, after an override, one printed at 0."""
    if s[H_FREE_CARDS]:
        for i in range(s[H_NACTIVE]):
            c = active(s, i)
            if in_market(s, c) and buy_cost(s, p, c) == 0:
                return True
        return False
    top = s[H_OFF_SUPPLY] + s[H_SUPPLY_N] - 1
    for d in range(face_up_offered(s)):
        if buy_cost(s, p, s[top - d]) == 0:
            return True
    return False


@kernel
def discard_has(s, p, types, not_types, lo, hi):
    d = discard(s, p)
    m = mask_load(s, pb(s, p) + P_DISCARD_MASK)       # a superset: check the counts
    while m:
        c = lowest(m)
        m &= m - ONE
        if (s[d + c] > 0 and (types == 0 or card(s, c, F_TYPES) & types) and card(s, c, F_TYPES) & not_types == 0
                and lo <= card(s, c, F_COST) <= hi):
            return True
    return False


@kernel
def hand_has_card(s, p, types, min_cost):
    """p holds a card with one of types (0: any) costing min_cost or more."""
    m = mask_load(s, pb(s, p) + P_HAND_MASK)
    while m:
        c = lowest(m)
        m &= m - ONE
        if (types == 0 or card(s, c, F_TYPES) & types) and card(s, c, F_COST) >= min_cost:
            return True
    return False


@kernel
def hand_has_type(s, p, types):
    return hand_has_card(s, p, types, 0)


@kernel
def hand_has_flag(s, p, flags):
    return hand_card_with_flag(s, p, flags) >= 0


@kernel
def hand_card_with_flag(s, p, flags):
    """The first card (in id order) in p's hand with the flags, -1 if none."""
    m = mask_load(s, pb(s, p) + P_HAND_MASK)
    while m:
        c = lowest(m)
        m &= m - ONE
        if card(s, c, F_FLAGS) & flags == flags:
            return c
    return -1


@kernel
def play_has(s, types, excluded):
    """The play area holds a card with one of types other than `excluded`."""
    pa = play(s)
    m = mask_load(s, H_PLAY_MASK)                      # a superset: check the counts
    while m:
        c = lowest(m)
        m &= m - ONE
        if s[pa + c] > 0 and card(s, c, F_TYPES) & types and c != excluded:
            return True
    return False


@kernel
def kept_lowest_cost(s, p):
    """The lowest cost among the cards kept in p's domain, -1 if none."""
    k = kept(s, p)
    low = -1
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        if s[k + c] > 0 and (low < 0 or card(s, c, F_COST) < low):
            low = card(s, c, F_COST)
    return low


@kernel
def set_from_discard(s, p, c):
    discard_add(s, p, c, -1)
    s[domain(s, p) + c] += 1
    s[pb(s, p) + P_DOMAIN_N] += 1
    mask_set(s, pb(s, p) + P_DOMAIN_MASK, c)
    rescore(s, p)
