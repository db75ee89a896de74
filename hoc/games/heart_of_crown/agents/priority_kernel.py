"""The jitted priority-list policy. Its parameter row (compiled from a TOML file by
`hoc.games.heart_of_crown.agents.priority`) holds: which princesses to back, when to set, which cards to play first, and
an ordered list of buy rules, each a card and up to MAX_CONDS conditions."""
from hoc.games.heart_of_crown.kernel.constants import (
    A_ABILITY, A_BACK, A_BUY, A_CHOOSE, A_COIN, A_DOMAIN_ABILITY, A_DECLARE, A_KEEP, A_NUMBER, A_PASS, A_PLAY, A_SET, CH_MODE,
    CTX_DECLARE, CTX_KEEP, CTX_MAIN, CTX_SECOND, H_CH_GOOD, H_CH_KIND, NUMBER_MAX, F_COST, F_LINKS, F_SP, F_TYPES, H_COINS, H_CTX, H_DECIDER, H_MODE, H_NP, H_REVEALED,
    H_NC, H_OPEN, P_COIN_CTR, P_HANDY_CTR, MODE_BUYING, MODE_SETTING, P_HAND_PLAYABLE, P_HAND_SUCC, P_OWNED_N, P_PRINCESS, P_SP, P_TURNS, TY_ACTION,
    CTX_EFFECT, NCMAX, TY_SUCCESSION, TY_TERRITORY,
)
import numpy as np

from hoc.games.heart_of_crown.kernel.constants import A_RECALL, CH_DISCARD, CH_HAND, CH_NUMBER, CH_PLAY, H_CH_MAX, H_CH_OPT, H_NACTIVE, H_PLAY_MASK, P_DISCARD_MASK, P_KEPT_N
from hoc.engine.jit import entry, kernel
from hoc.games.heart_of_crown.kernel.state import active, card, hand, hand_mask, kept, lowest, market, mask_load, owned, param, pb
from hoc.games.heart_of_crown.kernel.turn import is_legal
from hoc.games.heart_of_crown.kernel.effects import ability_ready, ability_worth, domain_ability_ready
from hoc.games.heart_of_crown.kernel.zones import buy_cost, in_market

from hoc.games.heart_of_crown.agents.row import (  # noqa: E402,F401 (the row's sizes: re-exported)
    LIST_LEN, MAX_CHOOSE, MAX_CONDS, MAX_FIRST, MAX_NEVER, MAX_RULES, PLAN_AT, PLAN_LEN, ROW, RULE_SZ,
)

ONE = np.uint64(1)      # hand masks are uint64: clear the lowest bit with m &= m - ONE

# parameter slots: the row's table (`hoc.games.heart_of_crown.agents.row`), under the names the kernels use
PR_N_BUY = ROW.at("list.n_buy")
PR_SET_MIN_SP = ROW.at("list.set_min_sp")
PR_BACK_MIN_COINS = ROW.at("list.back_min_coins")
PR_KEEP = ROW.at("list.keep")    # bit 1: keep the most expensive Action it can at cleanup; bit 2: recall kept cards
KEEP_BIT = 1
RECALL_BIT = 2
PR_ABILITIES = ROW.at("list.abilities")
PR_BACK_MIN_OWNED = ROW.at("list.back_min_owned")
PR_TERRITORIES_ONLY = ROW.at("list.territories_only")
PR_N_PRINCESS = ROW.at("list.n_princess")
PR_PRINCESS = ROW.at("list.princess")
PR_N_FIRST = ROW.at("list.n_first")
PR_FIRST = ROW.at("list.first")
PR_ACCEPT_MODES = ROW.at("list.accept_modes")
PR_BUY = ROW.at("list.buy")
PR_LEN = LIST_LEN
PLAN_SZ = PLAN_LEN
PR_PLAN = PLAN_AT
PR_N_LOSE = ROW.at("list.n_lose")
PR_LOSE = ROW.at("list.lose")
PR_N_GAIN = ROW.at("list.n_gain")
PR_GAIN = ROW.at("list.gain")
PR_N_NEVER = ROW.at("list.n_never")
PR_NEVER = ROW.at("list.never")

# conditions of a buy rule
C_NONE = 0
C_PRINCESS = 1         # value 1: has backed a princess; 0: has not
C_COINS_AT_LEAST = 2
C_COINS_AT_MOST = 3
C_TURN_AT_LEAST = 4    # the player's own turn number
C_TURN_AT_MOST = 5
C_OWNED_BELOW = 6      # copies of the rule's card owned
C_OWNED_AT_LEAST = 7
C_SP_AT_LEAST = 8      # the player's domain SP
C_SP_BELOW = 9
C_BEHIND_AT_LEAST = 10  # the leader's SP minus the player's
C_PILE_AT_MOST = 11    # copies of the rule's card left in the market
C_OFFERED = 12         # the market offers the card whose id is the value
C_NOT_OFFERED = 13     # the market does not offer the card whose id is the value
C_CARDS_AT_LEAST = 14  # cards the player owns in all (deck, hand, discard, play area, domain)
C_CARDS_BELOW = 15
C_BACKED = 16          # the player backed the princess whose id is the value


@kernel
def condition_holds(s, p, c, kind, v):
    b = pb(s, p)
    if kind == C_PRINCESS:
        return (s[b + P_PRINCESS] >= 0) == (v == 1)
    if kind == C_COINS_AT_LEAST:
        return s[H_COINS] >= v
    if kind == C_COINS_AT_MOST:
        return s[H_COINS] <= v
    if kind == C_TURN_AT_LEAST:
        return s[b + P_TURNS] >= v
    if kind == C_TURN_AT_MOST:
        return s[b + P_TURNS] <= v
    if kind == C_OWNED_BELOW:
        return s[owned(s, p) + c] < v
    if kind == C_OWNED_AT_LEAST:
        return s[owned(s, p) + c] >= v
    if kind == C_SP_AT_LEAST:
        return s[b + P_SP] >= v
    if kind == C_SP_BELOW:
        return s[b + P_SP] < v
    if kind == C_BEHIND_AT_LEAST:
        lead = 0
        for q in range(s[H_NP]):
            if q != p:
                lead = max(lead, s[pb(s, q) + P_SP])
        return lead - s[b + P_SP] >= v
    if kind == C_PILE_AT_MOST:
        return s[market(s) + c] <= v
    if kind == C_OFFERED:
        return in_market(s, v)
    if kind == C_NOT_OFFERED:
        return not in_market(s, v)
    if kind == C_CARDS_AT_LEAST:
        return s[b + P_OWNED_N] >= v
    if kind == C_CARDS_BELOW:
        return s[b + P_OWNED_N] < v
    if kind == C_BACKED:
        return s[b + P_PRINCESS] == v
    return True


@kernel
def rule_applies(s, p, r):
    c = param(s, p, r)
    for k in range(MAX_CONDS):            # conditions are packed: the first C_NONE ends them
        kind = param(s, p, r + 1 + 2 * k)
        if kind == C_NONE:
            return True
        v = param(s, p, r + 2 + 2 * k)
        if kind == C_PRINCESS:            # the most common conditions, inline
            if (s[pb(s, p) + P_PRINCESS] >= 0) != (v == 1):
                return False
        elif kind == C_OWNED_BELOW:
            if s[owned(s, p) + c] >= v:
                return False
        elif not condition_holds(s, p, c, kind, v):
            return False
    return True


@kernel
def never(s, p, c):
    """Card c is on the `never` list of the agent in seat p (banned: not bought, not picked)."""
    for i in range(param(s, p, PR_N_NEVER)):
        if param(s, p, PR_NEVER + i) == c:
            return True
    return False


@kernel
def banned(s, p, a):
    """Action a buys, or picks to gain, a card on p's `never` list (a study's ban)."""
    if A_BUY <= a < A_BUY + NCMAX:
        return never(s, p, a - A_BUY)
    if A_CHOOSE <= a < A_CHOOSE + NCMAX and s[H_CTX] == CTX_EFFECT and s[H_CH_GOOD] != 0:
        return never(s, p, a - A_CHOOSE)
    return False


@kernel
def unbanned(s, p, out, n):
    """The actions out[:n] without the banned ones (see `banned`), unless none would be left."""
    m = 0
    for i in range(n):
        if not banned(s, p, out[i]):
            m += 1
    if m == 0 or m == n:
        return n
    m = 0
    for i in range(n):
        a = out[i]
        if not banned(s, p, a):
            out[m] = a
            m += 1
    return m


@kernel
def can_buy(s, p, c):
    """`is_legal(s, A_BUY + c)` in the Second phase outside the setting mode (where the buy rules
    are asked)."""
    return 0 <= c < s[H_NC] and in_market(s, c) and buy_cost(s, p, c) <= s[H_COINS]


@kernel
def priority_buy(s, p):
    """Called in the Second phase outside the setting mode only. A rule's card is bought from
    wherever the market offers it, a face-up supply card a text revealed included, at what it costs
    there (3 less in the turn of the reveal)."""
    m = market(s)
    face_up = s[H_REVEALED] > 0
    for i in range(param(s, p, PR_N_BUY)):
        r = PR_BUY + i * RULE_SZ
        c = param(s, p, r)
        # the cheapest tests first (all are pure): a pile left or a face-up supply card, the
        # rule, then the market and the price
        if 0 <= c < s[H_NC] and (s[m + c] > 0 or face_up) and rule_applies(s, p, r) and can_buy(s, p, c) \
                and not never(s, p, c):
            return A_BUY + c
    return A_PASS


@kernel
def priority_play(s, p):
    """Links before terminals: first the cards that keep plays open (the named ones in order,
    then other Actions, then Territories), then the terminal Actions (named ones first). Abilities
    before all; coin counters are spent before the Main phase ends. One pass over the named cards
    and one over the hand, which stops once it has seen every playable card in hand; with
    `territories_only`, just the first Territory in hand."""
    h = hand(s, p)
    n_playable = s[pb(s, p) + P_HAND_PLAYABLE]        # Territories and Actions in hand
    if param(s, p, PR_TERRITORIES_ONLY):
        m = hand_mask(s, p)
        while m:
            c = lowest(m)
            m &= m - ONE
            if card(s, c, F_TYPES) & TY_TERRITORY and s[H_OPEN] > 0:      # is_legal(A_PLAY + c)
                return A_PLAY + c
        return A_PASS
    if param(s, p, PR_ABILITIES):          # is_legal of the Main phase, inline
        if ability_ready(s, p) and ability_worth(s, p):
            return A_ABILITY
        if domain_ability_ready(s, p):
            return A_DOMAIN_ABILITY
    if param(s, p, PR_KEEP) & RECALL_BIT and s[H_OPEN] > 0 and s[pb(s, p) + P_KEPT_N] > 0:
        return A_RECALL + first_kept(s, p)     # a kept card back in hand is played (or kept again) in order
    if s[H_OPEN] > 0 and n_playable > 0:  # no play is legal without an open play and a card
        named_terminal = -1
        for i in range(param(s, p, PR_N_FIRST)):
            c = param(s, p, PR_FIRST + i)
            if 0 <= c < s[H_NC] and s[h + c] > 0 and card(s, c, F_TYPES) & (TY_ACTION | TY_TERRITORY) != 0:
                if card(s, c, F_LINKS) != 0:
                    return A_PLAY + c
                if named_terminal < 0:
                    named_terminal = c
        territory = -1
        terminal_action = -1
        terminal_territory = -1
        m = hand_mask(s, p)
        while m:
            c = lowest(m)
            m &= m - ONE
            ty = card(s, c, F_TYPES)
            if ty & (TY_ACTION | TY_TERRITORY) == 0:      # in hand, an open play: legal
                continue
            if card(s, c, F_LINKS) != 0:
                if ty & TY_ACTION:
                    return A_PLAY + c
                if territory < 0:
                    territory = c
            elif ty & TY_ACTION:
                if terminal_action < 0:
                    terminal_action = c
            elif terminal_territory < 0:
                terminal_territory = c
        for c in (territory, named_terminal, terminal_action, terminal_territory):
            if c >= 0:
                return A_PLAY + c
    if s[pb(s, p) + P_COIN_CTR] + s[pb(s, p) + P_HANDY_CTR] > 0:     # is_legal(A_COIN)
        return A_COIN
    return A_PASS


@kernel
def positive_succession(s, p):
    """(SP in hand of positive-SP Succession cards, the first such card or -1)."""
    h = hand(s, p)
    total = 0
    first = -1
    if s[pb(s, p) + P_HAND_SUCC] == 0:
        return total, first
    m = hand_mask(s, p)
    while m:
        c = lowest(m)
        m &= m - ONE
        if card(s, c, F_TYPES) & TY_SUCCESSION and card(s, c, F_SP) > 0:
            total += s[h + c] * card(s, c, F_SP)
            if first < 0:
                first = c
    return total, first


@kernel
def first_kept(s, p):
    """The lowest id among p's kept cards (p has one)."""
    k = kept(s, p)
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        if s[k + c] > 0:
            return c
    return -1


@kernel
def priority_keep(s, p):
    best = -1
    m = hand_mask(s, p)
    while m:
        c = lowest(m)
        m &= m - ONE
        if is_legal(s, A_KEEP + c) and (best < 0 or card(s, c, F_COST) > card(s, best, F_COST)):
            best = c
    return A_KEEP + best if best >= 0 else A_PASS


@kernel
def priority_policy(s):
    """Every decision but the card questions (those get `default_choice`)."""
    ctx = s[H_CTX]
    p = s[H_DECIDER]
    if ctx == CTX_MAIN:
        return priority_play(s, p)
    if ctx == CTX_SECOND:
        mode = s[H_MODE]
        if mode == MODE_BUYING:
            return priority_buy(s, p)
        if mode == MODE_SETTING:
            total, first = positive_succession(s, p)
            return A_SET + first if first >= 0 else A_PASS
        if s[pb(s, p) + P_PRINCESS] < 0:
            if s[H_COINS] >= param(s, p, PR_BACK_MIN_COINS) and s[pb(s, p) + P_OWNED_N] >= param(s, p, PR_BACK_MIN_OWNED):
                for i in range(param(s, p, PR_N_PRINCESS)):
                    k = param(s, p, PR_PRINCESS + i)
                    if is_legal(s, A_BACK + k):
                        return A_BACK + k
        else:
            total, first = positive_succession(s, p)
            if first >= 0 and total >= param(s, p, PR_SET_MIN_SP):
                return A_SET + first
        return priority_buy(s, p)
    if ctx == CTX_KEEP:
        return priority_keep(s, p) if param(s, p, PR_KEEP) & KEEP_BIT else A_PASS
    if ctx == CTX_DECLARE:
        return A_DECLARE
    return A_PASS


@kernel
def priority_question(s):
    """A card question answered from the list: with `accept_modes`, the first mode offered of a
    "choose one" (optional or not); for a card the agent gains (a princess's or a
    card's "gain a card"), the first legal card of its `gain` list; for a card it loses (a discard, an
    exile, optional or not), the first legal card of its `lose` list. -1: left to `default_choice`."""
    p = s[H_DECIDER]
    if s[H_CH_KIND] == CH_MODE:
        if param(s, p, PR_ACCEPT_MODES):
            for n in range(NUMBER_MAX + 1):
                if is_legal(s, A_NUMBER + n):
                    return A_NUMBER + n
        return -1
    n, at = (PR_N_GAIN, PR_GAIN) if s[H_CH_GOOD] != 0 else (PR_N_LOSE, PR_LOSE)
    for i in range(param(s, p, n)):
        c = param(s, p, at + i)
        if is_legal(s, A_CHOOSE + c) and not (n == PR_N_GAIN and never(s, p, c)):
            return A_CHOOSE + c
    return -1


# ---- card questions a policy does not care about (every jitted policy falls back on these; the
# search agent's rollouts too, which is why they live here rather than in policies.py) ----------
@kernel
def better_choice(s, best, a, good, banned_by):
    """best, or card action a when it is legal and better: dearer when good, cheaper when not;
    ties keep the earlier (lower id) card. With `banned_by` a seat (not -1), a card on that seat's
    `never` list is not a candidate."""
    if not is_legal(s, a) or (banned_by >= 0 and never(s, banned_by, a - A_CHOOSE)):
        return best
    if best < 0:
        return a
    cost = card(s, a - A_CHOOSE, F_COST)
    best_cost = card(s, best - A_CHOOSE, F_COST)
    if (good and cost > best_cost) or (not good and cost < best_cost):
        return a
    return best


@entry
def default_choice(s):
    """For card questions a policy does not care about: the most of a number, the first mode
    offered; for a card the chooser gains, the most expensive (accepting when optional); for a
    card the chooser loses (discard, exile), the cheapest, and declining when optional."""
    return card_choice(s, -1)


@kernel
def banned_choice(s):
    """`default_choice` for a priority list with a `never` list: a card it gains is never one of
    those while it may decline or take another; only a forced gain with no other card takes one."""
    a = default_choice(s)
    p = s[H_DECIDER]
    if a < A_CHOOSE or s[H_CH_GOOD] == 0 or not never(s, p, a - A_CHOOSE):
        return a
    b = card_choice(s, p)
    if b != A_PASS or s[H_CH_OPT] != 0:
        return b
    return a


@kernel
def card_choice(s, banned_by):
    """`default_choice`, leaving out the cards on seat `banned_by`'s `never` list (-1: none)."""
    kind = s[H_CH_KIND]
    if kind == CH_NUMBER:
        return A_NUMBER + s[H_CH_MAX]
    good = s[H_CH_GOOD] != 0
    if s[H_CH_OPT] != 0 and not good:
        return A_PASS
    if kind == CH_MODE:                   # the first mode offered
        for n in range(NUMBER_MAX + 1):
            if is_legal(s, A_NUMBER + n):
                return A_NUMBER + n
        return A_PASS
    # otherwise only A_CHOOSE + card can be legal: scan them in the order of `legal_actions`
    # (ascending ids), over the zone's mask when it has one (the masks cover their zones; every
    # card in a zone is in the active list)
    best = -1
    p = s[H_DECIDER]
    if kind == CH_HAND or kind == CH_DISCARD or kind == CH_PLAY:
        if kind == CH_HAND:
            m = hand_mask(s, p)
        elif kind == CH_DISCARD:
            m = mask_load(s, pb(s, p) + P_DISCARD_MASK)
        else:
            m = mask_load(s, H_PLAY_MASK)
        while m:
            c = lowest(m)
            m &= m - ONE
            best = better_choice(s, best, A_CHOOSE + c, good, banned_by)
    else:
        for i in range(s[H_NACTIVE]):
            best = better_choice(s, best, A_CHOOSE + active(s, i), good, banned_by)
    return best if best >= 0 else A_PASS
