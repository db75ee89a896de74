"""Buying a card in the Second phase: what can be bought, where from, and what a card does when bought.

A card is bought from the market, paying its cost (reductions included; 1E Purveyor's turn flag puts it
under the deck), and then its on_buy routine runs (F_ON_BUY: the Attendant Maids' set). A card's text
may open other sources for the turn: under TF_BUY_FROM_OPPONENTS (set by 1E Bribery, the only such
text) Action cards in opponents' discard piles, face up on top of their decks, or kept in their domains
can be bought too, for the card's cost + 1; when a card bought is offered by an opponent, the buy asks
where it comes from first (a "choose one" whose modes are the market and each opponent's zone holding it:
EFF_BUY_FROM_OPPONENTS)."""
from hoc.engine.jit import kernel
from hoc.games.heart_of_crown.kernel.choice import DONE, FR_A, FR_P, FR_STEP, WAIT, ask_mode, push
from hoc.games.heart_of_crown.kernel.constants import (
    A_NUMBER, EFF_BUY_FROM_OPPONENTS, F_ON_BUY, F_TYPES, H_COINS, H_NP, H_TURN_FLAGS, P_DECK_N, P_KEPT_N, P_OUT,
    ST_BOUGHT, ST_GAINED, TF_BUY_FROM_OPPONENTS, TF_BUYS_TO_DECK_BOTTOM, TRIG_BUY, TRIG_PLAY, TY_ACTION,
)
from hoc.games.heart_of_crown.kernel.state import after, card, count, deck, discard, kept, pb
from hoc.games.heart_of_crown.kernel.zones import (
    FACE_UP, buy_cost, discard_add, gain, gain_to_deck_bottom, in_market, own, pop_deck, push_deck_bottom,
)


@kernel
def buyable(s, p, c):
    """p can buy c now: from the market for its cost, or from a source a text opened this turn."""
    if in_market(s, c) and buy_cost(s, p, c) <= s[H_COINS]:
        return True
    return s[H_TURN_FLAGS] & TF_BUY_FROM_OPPONENTS != 0 and buy_sources(s, p, c) != 0


@kernel
def buy(s, p, c):
    """p buys c (`buyable`). Where it may come from elsewhere than the market, the buy first asks
    where (EFF_BUY_FROM_OPPONENTS); else it comes from the market, and its on_buy routine runs."""
    if s[H_TURN_FLAGS] & TF_BUY_FROM_OPPONENTS and buy_sources(s, p, c) > 1:
        push(s, EFF_BUY_FROM_OPPONENTS, TRIG_PLAY, p, c)
        return
    buy_from(s, p, c, 0)
    if card(s, c, F_ON_BUY) != 0:
        push(s, card(s, c, F_ON_BUY), TRIG_BUY, p, c)


@kernel
def buy_sources(s, p, c):
    """Where p could buy c now, as a mode mask: bit 0 the market; bit 1 + 3 (j - 1) + z the zone z
    (0 discard pile, 1 face-up deck top, 2 kept cards) of the player j seats after p. Opponents out of
    overtime are left alone (an Attack does not reach them)."""
    price = buy_cost(s, p, c)
    m = 0
    if in_market(s, c) and price <= s[H_COINS]:
        m = 1
    if s[H_TURN_FLAGS] & TF_BUY_FROM_OPPONENTS == 0 or card(s, c, F_TYPES) & TY_ACTION == 0 or price + 1 > s[H_COINS]:
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
    """p buys c from the source `mode` (see `buy_sources`), paying for it."""
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
    """The buy of card FR_A that an opponent offers too: ask where it comes from, then buy it there."""
    p = s[fr + FR_P]
    if s[fr + FR_STEP] == 0:
        s[fr + FR_STEP] = 1
        ask_mode(s, p, buy_sources(s, p, s[fr + FR_A]), False)
        return WAIT
    buy_from(s, p, s[fr + FR_A], a - A_NUMBER)
    return DONE
