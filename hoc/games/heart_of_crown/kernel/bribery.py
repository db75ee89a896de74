"""1st-edition Bribery: this turn, when buying, Action cards in opponents' discard piles, face up on top
of their decks, or kept in their domains can be bought too, for the card's cost + 1. When a card is
offered by an opponent, the buy asks where it comes from (a "choose one" whose modes are the market
and each opponent's zone holding it)."""
from hoc.engine.jit import kernel
from hoc.games.heart_of_crown.kernel.choice import DONE, FR_A, FR_P, FR_STEP, WAIT, ask_mode
from hoc.games.heart_of_crown.kernel.constants import (
    A_NUMBER, F_TYPES, H_COINS, H_NP, H_TURN_FLAGS, P_DECK_N, P_KEPT_N, P_OUT, ST_BOUGHT, ST_GAINED,
    TF_BRIBERY, TF_BUYS_TO_DECK_BOTTOM, TY_ACTION,
)
from hoc.games.heart_of_crown.kernel.state import after, card, count, deck, discard, kept, pb
from hoc.games.heart_of_crown.kernel.zones import (
    FACE_UP, buy_cost, discard_add, gain, gain_to_deck_bottom, in_market, own, pop_deck, push_deck_bottom,
)


@kernel
def bribe_sources(s, p, c):
    """Where p could buy c now, as a mode mask: bit 0 the market; bit 1 + 3 (j - 1) + z the zone z
    (0 discard pile, 1 face-up deck top, 2 kept cards) of the player j seats after p. Opponents out of
    overtime are left alone (an Attack does not reach them)."""
    price = buy_cost(s, p, c)
    m = 0
    if in_market(s, c) and price <= s[H_COINS]:
        m = 1
    if s[H_TURN_FLAGS] & TF_BRIBERY == 0 or card(s, c, F_TYPES) & TY_ACTION == 0 or price + 1 > s[H_COINS]:
        return m
    n = s[H_NP]
    for j in range(1, n):
        q = after(s, p, j)
        if s[pb(s, q) + P_OUT] != 0:
            continue
        bit = 1 << (1 + 3 * (j - 1))
        if s[discard(s, q) + c] > 0:
            m |= bit
        k = s[pb(s, q) + P_DECK_N]
        if k > 0:
            top = s[deck(s, q) + k - 1]
            if top & FACE_UP and top & (FACE_UP - 1) == c:
                m |= bit << 1
        if s[kept(s, q) + c] > 0:
            m |= bit << 2
    return m


@kernel
def buy_from(s, p, c, mode):
    """p buys c from the source `mode` (see `bribe_sources`), paying for it."""
    count(s, c, ST_BOUGHT)
    if mode == 0:
        s[H_COINS] -= buy_cost(s, p, c)
        if s[H_TURN_FLAGS] & TF_BUYS_TO_DECK_BOTTOM:
            gain_to_deck_bottom(s, p, c)
        else:
            gain(s, p, c)
        return
    s[H_COINS] -= buy_cost(s, p, c) + 1
    j = (mode - 1) // 3 + 1
    z = (mode - 1) % 3
    q = after(s, p, j)
    if z == 0:
        discard_add(s, q, c, -1)
    elif z == 1:
        pop_deck(s, q)
    else:
        s[kept(s, q) + c] -= 1
        s[pb(s, q) + P_KEPT_N] -= 1
    own(s, q, c, -1)
    own(s, p, c, 1)
    count(s, c, ST_GAINED)
    if s[H_TURN_FLAGS] & TF_BUYS_TO_DECK_BOTTOM:
        push_deck_bottom(s, p, c, True)
    else:
        discard_add(s, p, c, 1)


@kernel
def eff_buy_from_opponents(s, fr, a):
    """The buy of card FR_A under Bribery: ask where it comes from, then buy it there."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        s[fr + FR_STEP] = 1
        ask_mode(s, p, bribe_sources(s, p, s[fr + FR_A]), False)
        return WAIT
    buy_from(s, p, s[fr + FR_A], a - A_NUMBER)
    return DONE
