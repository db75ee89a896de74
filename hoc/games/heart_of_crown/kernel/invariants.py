"""State invariants, checked after every step by `--validate` and by the test suite."""
from hoc.engine.jit import entry, kernel
from hoc.engine.layout import E_ILLEGAL, E_STEPS, OK  # the loop's codes, among the checks' own
from hoc.games.heart_of_crown.kernel.constants import (
    H_DEBT, H_SHIELD, H_DEPTH, H_OFF_STACK, H_TURNS, EFF_HAND_ELIMINATION, SEAT_ORDER, SEAT_POS, STACK_FRAME,
    H_COINS, H_CUR, H_PLAY_MASK, H_DCAP, H_NC, H_NP, H_OFF_SUPPLY, H_OPEN, H_REVEALED, H_REVEALED_NEW, H_SCAP,
    H_SUPPLY_N, P_DECK_N, P_DISCARD_N,
    P_DISCARD_MASK, P_DOMAIN_MASK, P_DOMAIN_N, P_HAND_MASK, P_HAND_N, P_KEPT_N, P_DOMAIN_ABILITIES, P_OWNED_N, P_PRINCESS, P_SP,
)
from hoc.games.heart_of_crown.kernel.endgame import domain_abilities, domain_sp
from hoc.games.heart_of_crown.kernel.state import abroad, deck, discard, domain, hand, kept, market, mask_has, owned, pb, play
from hoc.games.heart_of_crown.kernel.zones import FACE_UP

E_CARD_COUNT = 1      # a card was created or lost
E_NEGATIVE = 2        # a pile or zone count below zero
E_SIZE = 3            # a zone's size counter disagrees with its cards
E_BOUNDS = 4          # a zone outgrew its capacity
E_OWNED = 5           # ownership record disagrees with where the cards are
E_SP = 6              # cached SP disagrees with the domain
E_COINS = 7
E_MASK = 10           # a zone mask disagrees with the zone's counts
E_SEATING = 11        # the seating block is not a seating of the players (or a turn begun before the seating)
ERRORS = {E_CARD_COUNT: "a card was created or lost", E_NEGATIVE: "a pile or zone count below zero",
          E_SIZE: "a zone's size counter disagrees with its cards",
          E_BOUNDS: "a zone outgrew its capacity", E_OWNED: "ownership record disagrees with the zones",
          E_SP: "cached succession points disagree with the domain", E_COINS: "negative coins or open plays",
          E_ILLEGAL: "an agent chose an illegal action", E_STEPS: "the game exceeded the step limit",
          E_MASK: "a zone mask disagrees with the zone's cards",
          E_SEATING: "the seating is not one seat per player, or a turn began before the players were seated"}


@kernel
def seating_pending(s):
    """The hand-elimination seating is still on the effect stack."""
    for i in range(s[H_DEPTH]):
        if s[s[H_OFF_STACK] + i * STACK_FRAME] == EFF_HAND_ELIMINATION:
            return True
    return False


@entry
def check(s, totals, work):
    """Return OK or the first broken invariant. totals[c]: copies of c in the game; work: scratch
    of length >= number of cards."""
    nc = s[H_NC]
    if s[H_COINS] < 0 or s[H_OPEN] < 0:
        return E_COINS
    for p in range(s[H_NP]):
        i = s[SEAT_POS + p]
        if not 0 <= i < s[H_NP] or s[SEAT_ORDER + i] != p:
            return E_SEATING
    if s[H_TURNS] > 0 and seating_pending(s):
        return E_SEATING
    for c in range(nc):
        work[c] = s[market(s) + c] + s[abroad(s) + c] + s[play(s) + c]
    sup = s[H_OFF_SUPPLY]
    if s[H_SUPPLY_N] < 0 or s[H_SUPPLY_N] > s[H_SCAP]:
        return E_BOUNDS
    # the face-up cards lie on top of the supply; those revealed last are among them
    if not 0 <= s[H_REVEALED_NEW] <= s[H_REVEALED] <= s[H_SUPPLY_N]:
        return E_BOUNDS
    for i in range(s[H_SUPPLY_N]):
        work[s[sup + i]] += 1
    for p in range(s[H_NP]):
        b = pb(s, p)
        n = s[b + P_DECK_N]
        if n < 0 or n > s[H_DCAP]:
            return E_BOUNDS
        own_n = 0
        for c in range(nc):
            if s[hand(s, p) + c] < 0 or s[discard(s, p) + c] < 0 or s[domain(s, p) + c] < 0 or s[kept(s, p) + c] < 0:
                return E_NEGATIVE
        hn = 0
        dn = 0
        mn = 0
        kn = 0
        for c in range(nc):
            hn += s[hand(s, p) + c]
            dn += s[discard(s, p) + c]
            mn += s[domain(s, p) + c]
            kn += s[kept(s, p) + c]
            own_n += s[owned(s, p) + c]
        if hn != s[b + P_HAND_N] or dn != s[b + P_DISCARD_N] or mn != s[b + P_DOMAIN_N] or kn != s[b + P_KEPT_N]:
            return E_SIZE
        if own_n != s[b + P_OWNED_N]:
            return E_OWNED
        sizes = hn + dn + mn + kn + n
        if p == s[H_CUR]:
            for c in range(nc):
                sizes += s[play(s) + c]
        if sizes != own_n:
            return E_OWNED
        for c in range(nc):
            work[c] += s[hand(s, p) + c] + s[discard(s, p) + c] + s[domain(s, p) + c] + s[kept(s, p) + c]
        k = deck(s, p)
        for i in range(n):
            work[s[k + i] & (FACE_UP - 1)] += 1
        if s[b + P_PRINCESS] >= 0:
            work[s[b + P_PRINCESS]] += 1
        if s[b + P_SP] != domain_sp(s, p) or s[b + P_DOMAIN_ABILITIES] != domain_abilities(s, p):
            return E_SP
        if s[H_DEBT + p] < 0 or s[H_SHIELD + p] < 0:
            return E_NEGATIVE
        for c in range(nc):
            # the hand's mask is exact; the discard pile's and the play area's cover their cards
            if mask_has(s, b + P_HAND_MASK, c) != (s[hand(s, p) + c] > 0):
                return E_MASK
            if s[discard(s, p) + c] > 0 and not mask_has(s, b + P_DISCARD_MASK, c):
                return E_MASK
            if s[domain(s, p) + c] > 0 and not mask_has(s, b + P_DOMAIN_MASK, c):
                return E_MASK
    for c in range(nc):
        if s[market(s) + c] < 0 or s[abroad(s) + c] < 0 or s[play(s) + c] < 0:
            return E_NEGATIVE
        if s[play(s) + c] > 0 and not mask_has(s, H_PLAY_MASK, c):
            return E_MASK
        if work[c] != totals[c]:
            return E_CARD_COUNT
    return OK
