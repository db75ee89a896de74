"""The hand-elimination seating (a 1st-edition variant, `Ruleset(seating="hand_elimination")`).

Before the first turn each player, in lineup order, picks the 5 cards of their opening hand from their
10 starting cards (their whole deck: a card question about the top 10 cards of the deck, asked once per
card picked, the chosen card going to the hand); the 5 left are shuffled and are the deck. The picks are
secret: no player sees another's hand (the engine asks them one after another; what an agent may see
is the observation, which shows no other player's hand). Then the hands are shown together: the player
showing the most Apprentice Maids (the card the ruleset names in R_APPRENTICE_MAID) sits first and
plays first, the others follow clockwise in descending order of Apprentice Maids shown; ties are
broken by a random order drawn from the game seed (a stream nothing else reads). Players keep their
numbers; the seating block (SEAT_ORDER, SEAT_POS) says where they sit, and turn order, "clockwise"
and the later-seat tie follow it.
"""
import numpy as np

from hoc.engine.jit import kernel
from hoc.games.heart_of_crown.kernel.choice import ANY_COST, DONE, FR_B, FR_C, WAIT, ask, good_for_chooser, narrow
from hoc.games.heart_of_crown.kernel.constants import (
    A_CHOOSE, CH_DECK_TOP, H_CUR, H_NP, H_OFF_SCRATCH, H_SEED, P_DECK_N, P_RNG, R_APPRENTICE_MAID, R_HAND_SIZE,
    SEAT_ORDER, SEAT_POS,
)
from hoc.games.heart_of_crown.kernel.state import deck, hand, load_u64, pb, rule, seed_stream, shuffle
from hoc.games.heart_of_crown.kernel.zones import hand_add, take_from_window

SEATING_STREAM = 0x5EA7   # the seed's stream of the tie-breaking order (the deals' streams are 0..200)


@kernel
def seat_by_maids(s):
    """Seat the players by the Apprentice Maids in their hands, most first; ties in a random order of
    the game seed. Writes the seating block and makes the first seat the turn player."""
    n = s[H_NP]
    am = rule(s, R_APPRENTICE_MAID)
    rng = s[H_OFF_SCRATCH]          # scratch: the stream (2 slots), then the order being sorted
    order = rng + 2
    seed_stream(s, rng, np.int64(load_u64(s, H_SEED)), SEATING_STREAM)   # the setup's (int64) signature: one version
    for p in range(n):
        s[order + p] = p
    shuffle(s, rng, order, n)       # the tie-breaking order
    for i in range(1, n):           # stable insertion sort, most Apprentice Maids first
        p = s[order + i]
        maids = s[hand(s, p) + am]
        j = i
        while j > 0 and s[hand(s, s[order + j - 1]) + am] < maids:
            s[order + j] = s[order + j - 1]
            j -= 1
        s[order + j] = p
    for i in range(n):
        p = s[order + i]
        s[SEAT_ORDER + i] = p
        s[SEAT_POS + p] = i
    s[H_CUR] = s[SEAT_ORDER]


@kernel
def eff_hand_elimination(s, fr, a):
    """Ask each player (FR_B, lineup order) for the cards of their opening hand, one card at a time
    (FR_C: picked so far); then shuffle the rest as their deck; then seat the players."""
    n = s[H_NP]
    size = rule(s, R_HAND_SIZE)
    if a >= A_CHOOSE:
        p = s[fr + FR_B]
        c = a - A_CHOOSE
        take_from_window(s, p, s[pb(s, p) + P_DECK_N], c)
        hand_add(s, p, c, 1)
        s[fr + FR_C] += 1
    while s[fr + FR_B] < n:
        p = s[fr + FR_B]
        left = s[pb(s, p) + P_DECK_N]
        if s[fr + FR_C] < size and left > 0:
            ask(s, p, CH_DECK_TOP, 0, 0, 0, ANY_COST, False)
            narrow(s, 0, -1, -1, left)     # the whole deck: the player's own starting cards
            good_for_chooser(s)            # a card picked goes to the hand (default: the dearest)
            return WAIT
        shuffle(s, pb(s, p) + P_RNG, deck(s, p), left)
        s[fr + FR_B] += 1
        s[fr + FR_C] = 0
    seat_by_maids(s)
    return DONE
