"""Moving cards between zones: drawing with the reshuffle rule, gaining, trashing, discarding.

The reshuffle (rulebook, "+X Cards"): when the number of cards to draw is known and the deck holds
fewer, the discard pile is shuffled first and put *under* the rest of the deck, then the cards are
drawn (`draw`, `reveal`); when the number is not known in advance (draw until ...), cards are drawn
until the deck is empty and only then is the discard pile shuffled to form the new deck (`draw_one`).
A deck holding exactly the number asked for is not reshuffled.
"""
from hoc.engine.jit import kernel
from hoc.games.dominion.kernel.constants import (
    F_VP, F_VP_PER_10, H_NC, H_TRASH_N, P_DECK_N, P_DISCARD_N, P_HAND_N, P_OWNED_N, P_RNG, ST_GAINED, ST_TRASHED,
)
from hoc.games.dominion.kernel.state import card, count, deck, discard, hand, owned, pb, shuffle, supply, trash


@kernel
def shuffle_under(s, p):
    """Shuffle p's discard pile and put it under the rest of p's deck."""
    b = pb(s, p)
    m = s[b + P_DISCARD_N]
    if m == 0:
        return
    k = deck(s, p)
    n = s[b + P_DECK_N]
    for i in range(n - 1, -1, -1):     # the remaining deck moves up, staying on top
        s[k + m + i] = s[k + i]
    d = discard(s, p)
    j = 0
    for c in range(s[H_NC]):
        for _ in range(s[d + c]):
            s[k + j] = c
            j += 1
        s[d + c] = 0
    shuffle(s, b + P_RNG, k, m)
    s[b + P_DECK_N] = n + m
    s[b + P_DISCARD_N] = 0


@kernel
def pop_top(s, p):
    """Take the top card of p's deck (which must not be empty)."""
    b = pb(s, p)
    s[b + P_DECK_N] -= 1
    return s[deck(s, p) + s[b + P_DECK_N]]


@kernel
def to_hand(s, p, c):
    s[hand(s, p) + c] += 1
    s[pb(s, p) + P_HAND_N] += 1


@kernel
def draw(s, p, n):
    """p draws n cards, a known number (shuffling the discard pile under the deck first if the deck
    has fewer); returns how many were drawn (fewer only if deck and discard pile run out)."""
    b = pb(s, p)
    if s[b + P_DECK_N] < n:
        shuffle_under(s, p)
    got = min(n, s[b + P_DECK_N])
    for _ in range(got):
        to_hand(s, p, pop_top(s, p))
    return got


@kernel
def reveal(s, p, n):
    """Make sure the top n cards of p's deck can be taken (a known number: the discard pile is
    shuffled under the deck first if it has fewer); returns how many there are (<= n)."""
    if s[pb(s, p) + P_DECK_N] < n:
        shuffle_under(s, p)
    return min(n, s[pb(s, p) + P_DECK_N])


@kernel
def draw_one(s, p):
    """Take the top card of p's deck when the number to draw is not known in advance: only an empty
    deck is reshuffled. Returns the card, or -1 if deck and discard pile are both empty."""
    if s[pb(s, p) + P_DECK_N] == 0:
        shuffle_under(s, p)
        if s[pb(s, p) + P_DECK_N] == 0:
            return -1
    return pop_top(s, p)


@kernel
def put_on_deck(s, p, c):
    b = pb(s, p)
    s[deck(s, p) + s[b + P_DECK_N]] = c
    s[b + P_DECK_N] += 1


@kernel
def to_discard(s, p, c):
    s[discard(s, p) + c] += 1
    s[pb(s, p) + P_DISCARD_N] += 1


@kernel
def from_hand(s, p, c):
    s[hand(s, p) + c] -= 1
    s[pb(s, p) + P_HAND_N] -= 1


@kernel
def discard_from_hand(s, p, c):
    from_hand(s, p, c)
    to_discard(s, p, c)


@kernel
def trash_owned(s, p, c):
    """c, which p owns and has already taken out of its zone, goes to the trash."""
    s[owned(s, p) + c] -= 1
    s[pb(s, p) + P_OWNED_N] -= 1
    s[trash(s) + c] += 1
    s[H_TRASH_N] += 1
    count(s, c, ST_TRASHED)


@kernel
def trash_from_hand(s, p, c):
    from_hand(s, p, c)
    trash_owned(s, p, c)


WHERE_DISCARD = 0
WHERE_HAND = 1
WHERE_DECK = 2


@kernel
def gain(s, p, c, where):
    """p gains c from the supply (into its discard pile, hand or onto its deck); False if the pile
    is empty."""
    if s[supply(s) + c] <= 0:
        return False
    s[supply(s) + c] -= 1
    s[owned(s, p) + c] += 1
    s[pb(s, p) + P_OWNED_N] += 1
    count(s, c, ST_GAINED)
    if where == WHERE_HAND:
        to_hand(s, p, c)
    elif where == WHERE_DECK:
        put_on_deck(s, p, c)
    else:
        to_discard(s, p, c)
    return True


@kernel
def victory_points(s, p):
    """p's VP: the printed VP of every card it owns, plus VP per 10 cards owned (Gardens)."""
    o = owned(s, p)
    total = s[pb(s, p) + P_OWNED_N]
    vp = 0
    for c in range(s[H_NC]):
        n = s[o + c]
        if n:
            vp += n * (card(s, c, F_VP) + card(s, c, F_VP_PER_10) * (total // 10))
    return vp
