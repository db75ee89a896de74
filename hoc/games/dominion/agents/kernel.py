"""The jitted Dominion bots: a buy menu with conditions, a play order, and answers to every card
question read from what the question does to the chosen card (its fate, H_Q_FATE) and the cards'
data, never from which card asks.

A bot's parameter row (made by `hoc.games.dominion.agents.bots` from a TOML file):

- B_N_BUY buy rules at B_BUY, BR_SZ slots each, best first: buy the card if the coins available are
  within [BR_MIN_COINS, BR_MAX_COINS], the bot owns fewer than BR_OWNED_BELOW copies, the Province
  pile holds between BR_PROVINCES_MIN and BR_PROVINCES_MAX cards, and (BR_VS >= 0) it owns fewer
  copies than of card BR_VS plus BR_VS_ADD;
- B_N_PLAY cards at B_PLAY: the order in which Action cards are played (every Action card of the
  table is listed: the plan's own order first);
- B_N_WHEN conditions at B_WHEN, WR_SZ slots each (`when` in a bot file): a buy rule also needs
  every condition naming it to hold, `lm * left  OP  rm * right + k` over quantities of the game
  (W_*: copies owned, in the supply, in hand or in play of a card; cards or money owned of a class of
  cards; own VP, the best opponent's VP, gains needed to end the game, turns, coins, buys, empty piles);
  a bot without conditions reads none;
- B_TRASH_COPPER: trash Coppers (Chapel, Sentry) while the bot keeps at least this much money in
  its deck besides them (0: never); B_TRASH_VICTORY_MIN_PROVINCES: trash Victory cards of 1 VP
  while more than this many Provinces are left.

The last-Province guard (ruleset R_LAST_PROVINCE_GUARD) keeps every bot from buying a Province that
would end the game with the bot not among the winners.
"""
from hoc.engine.jit import kernel
from hoc.games.dominion.kernel.constants import (
    F_ACTIONS, H_BUYS, H_IN_SUPPLY,
    A_ALL_TREASURES, A_BUY, A_CHOOSE, A_MODE, A_PASS, A_PLAY, A_YES, CTX_ACTION, CTX_BUY, CTX_EFFECT,
    FATE_DISCARD, FATE_PLAY, FATE_SIFT, FATE_SKIP, FATE_TOPDECK, FATE_TRASH,
    FATE_UPGRADE, F_COINS, F_COST, F_TYPES, F_VP, H_ACTIONS, H_BOUGHT, H_COINS, H_CTX, H_CUR, H_DECIDER, H_NC,
    H_NP, H_Q, H_Q_ABOUT, H_Q_FATE, H_Q_OTHER, H_Q_MAX, H_Q_OPT, H_Q_TYPES, LEGAL, M_DISCARD, M_FIRST,
    M_KEEP, M_SECOND, M_TRASH, N_ACTIONS, P_ARNG, P_TURNS, Q_DISCARD, Q_MODE, Q_SUPPLY, Q_YES_NO,
    R_COPPER, R_LAST_PROVINCE_GUARD, R_PROVINCE, TY_ACTION, TY_CURSE, TY_TREASURE, TY_VICTORY,
)
from hoc.games.dominion.kernel.stack import hand_has, matches
from hoc.games.dominion.kernel.effects import empty_piles
from hoc.games.dominion.kernel.state import below, card, discard, hand, mask_has, owned, param, pb, play, rule, supply
from hoc.games.dominion.kernel.turn import can_buy, legal_actions
from hoc.games.dominion.kernel.zones import victory_points

# ---- the parameter row: the row's table (`hoc.games.dominion.agents.row`) under the names the kernels use
from hoc.games.dominion.agents.row import (  # noqa: E402,F401 (re-exported)
    BOT_LEN, BR_SZ, MAX_BUY, MAX_PLAY, MAX_WHEN, ROW, WR_SZ,
)

B_N_BUY = ROW.at("bot.n_buy")
B_BUY = ROW.at("bot.buy")
BR_CARD = 0
BR_MIN_COINS = 1
BR_MAX_COINS = 2
BR_OWNED_BELOW = 3
BR_PROVINCES_MIN = 4
BR_PROVINCES_MAX = 5
BR_VS = 6
BR_VS_ADD = 7
B_N_PLAY = ROW.at("bot.n_play")
B_PLAY = ROW.at("bot.play")
B_TRASH_COPPER = ROW.at("bot.trash_copper")
B_TRASH_VICTORY_MIN_PROVINCES = ROW.at("bot.trash_victory_min_provinces")
B_LEN = BOT_LEN
B_N_WHEN = ROW.at("bot.n_when")
B_WHEN = ROW.at("bot.when")
# a condition: WR_RULE = rule + OPS * op; WR_LEFT, WR_RIGHT = term; WR_K = the constant. A term packs a
# quantity W_*, its argument (a card id, or a class of cards CL_*) and a multiplier:
# quantity + W_SPAN * (argument + ARG_SPAN * multiplier)
WR_RULE = 0
WR_LEFT = 1
WR_RIGHT = 2
WR_K = 3
OPS = 32
OP_LT, OP_LE, OP_EQ, OP_GE, OP_GT, OP_NE = 0, 1, 2, 3, 4, 5
W_SPAN = 32
ARG_SPAN = 1024
W_CONST = 0             # 0 (the condition's constant carries the number)
W_OWNED = 1             # copies of a card the bot owns
W_SUPPLY = 2            # copies of a card in the supply
W_OWNED_OF = 3          # cards of a class the bot owns
W_MONEY = 4             # coins of the cards of a class the bot owns ("+N coins" of Actions included)
W_VP = 5                # the bot's VP
W_MAX_OPPONENT_VP = 6   # the most VP of any other player
W_GAINS_TO_END = 7      # fewest gains that end the game: Provinces left, or the three smallest piles
W_TURNS = 8             # the bot's turns, this one included
W_COINS = 9             # coins to spend (a card that gains: its cost limit)
W_BUYS = 10             # Buys left
W_IN_HAND = 11          # copies of a card in the bot's hand
W_IN_PLAY = 12          # copies of a card in play
W_ACTION_PHASE = 13     # 1 while a card's text gains (not the Buy phase), else 0
W_EMPTY_PILES = 14      # empty supply piles
# classes of cards: any of the types' bits (TY_*), or of the kinds of Action; 0 is every card
CL_TERMINAL = 64        # an Action giving no +Actions
CL_VILLAGE = 128        # an Action giving +2 Actions or more
CL_NONTERMINAL = 256    # an Action giving +1 Action or more


@kernel
def random_policy(s):
    n = legal_actions(s, s[LEGAL:LEGAL + N_ACTIONS])
    return s[LEGAL + below(s, pb(s, s[H_DECIDER]) + P_ARNG, n)]


# ---- what a card is worth keeping, from its data ----
@kernel
def keep_value(s, c):
    """How much a bot wants c in its deck: Curses least, then cards that are only Victory cards,
    then by cost and coins (Copper lowest of the rest)."""
    t = card(s, c, F_TYPES)
    if t & TY_CURSE:
        return -100
    if t & TY_VICTORY and t & (TY_ACTION | TY_TREASURE) == 0:
        return -50 + card(s, c, F_VP)
    return 2 * card(s, c, F_COST) + card(s, c, F_COINS)


@kernel
def money(s, p):
    """Coins in p's deck: its Treasures' values."""
    o = owned(s, p)
    m = 0
    for c in range(s[H_NC]):
        if s[o + c] > 0 and card(s, c, F_TYPES) & TY_TREASURE:
            m += s[o + c] * card(s, c, F_COINS)
    return m


@kernel
def wants_trashed(s, p, c):
    """The bot would rather not own c: a Curse, a 1-VP Victory card early on, a Copper while its
    other money suffices (parameters B_TRASH_*)."""
    t = card(s, c, F_TYPES)
    if t & TY_CURSE:
        return True
    if t & TY_VICTORY and t & (TY_ACTION | TY_TREASURE) == 0:
        return card(s, c, F_VP) <= 1 and s[supply(s) + rule(s, R_PROVINCE)] > param(s, p, B_TRASH_VICTORY_MIN_PROVINCES)
    if c == rule(s, R_COPPER):
        keep = param(s, p, B_TRASH_COPPER)
        return keep > 0 and money(s, p) - card(s, c, F_COINS) >= keep
    return False


# ---- buying and gaining ----
@kernel
def loses_by(s, p, c):
    """Gaining c now would empty the Province pile and end the game with p not among the winners."""
    province = rule(s, R_PROVINCE)
    if c != province or s[supply(s) + province] != 1:
        return False
    o = owned(s, p)
    s[o + c] += 1
    s[pb(s, p) + 3] += 1            # P_OWNED_N: Gardens count the card too
    mine = victory_points(s, p)
    s[o + c] -= 1
    s[pb(s, p) + 3] -= 1
    for q in range(s[H_NP]):
        if q == p:
            continue
        theirs = victory_points(s, q)
        # a tie goes to the player with fewer turns: a later seat has had one turn fewer this round
        if theirs > mine or (theirs == mine and s[pb(s, q) + P_TURNS] < s[pb(s, p) + P_TURNS]):
            return True
    return False


# ---- `when` conditions ----
@kernel
def in_class(s, c, cls):
    """Card c belongs to the class of cards cls (0: every card)."""
    if cls == 0:
        return True
    t = card(s, c, F_TYPES)
    if t & cls & 63:
        return True
    if t & TY_ACTION:
        a = card(s, c, F_ACTIONS)
        if (cls & CL_TERMINAL and a == 0) or (cls & CL_VILLAGE and a >= 2) or (cls & CL_NONTERMINAL and a >= 1):
            return True
    return False


@kernel
def gains_to_end(s):
    """The fewest gains that end the game: the Provinces left, or the three smallest piles together."""
    a = b = c = 1 << 20
    sup = supply(s)
    for d in range(s[H_NC]):
        if mask_has(s, H_IN_SUPPLY, d):
            n = s[sup + d]
            if n < a:
                a, b, c = n, a, b
            elif n < b:
                b, c = n, b
            elif n < c:
                c = n
    return min(s[sup + rule(s, R_PROVINCE)], a + b + c)


@kernel
def quantity(s, p, term, coins):
    """The value of a condition's term (its multiplier applied) for bot p."""
    q = term % W_SPAN
    arg = (term // W_SPAN) % ARG_SPAN
    mult = term // (W_SPAN * ARG_SPAN)
    v = 0
    if q == W_OWNED:
        v = s[owned(s, p) + arg]
    elif q == W_SUPPLY:
        v = s[supply(s) + arg]
    elif q == W_OWNED_OF or q == W_MONEY:
        o = owned(s, p)
        for c in range(s[H_NC]):
            if s[o + c] > 0 and in_class(s, c, arg):
                v += s[o + c] * (1 if q == W_OWNED_OF else card(s, c, F_COINS))
    elif q == W_VP:
        v = victory_points(s, p)
    elif q == W_MAX_OPPONENT_VP:
        v = -(1 << 20)
        for r in range(s[H_NP]):
            if r != p:
                v = max(v, victory_points(s, r))
    elif q == W_GAINS_TO_END:
        v = gains_to_end(s)
    elif q == W_TURNS:
        v = s[pb(s, p) + P_TURNS]
    elif q == W_COINS:
        v = coins
    elif q == W_BUYS:
        v = s[H_BUYS]
    elif q == W_IN_HAND:
        v = s[hand(s, p) + arg]
    elif q == W_IN_PLAY:
        v = s[play(s) + arg] if s[H_CUR] == p else 0
    elif q == W_ACTION_PHASE:
        v = 0 if s[H_CTX] == CTX_BUY else 1
    elif q == W_EMPTY_PILES:
        v = empty_piles(s)
    return v * mult


@kernel
def when_holds(s, p, i, coins):
    """Every `when` condition of p's buy rule i holds."""
    for j in range(param(s, p, B_N_WHEN)):
        w = B_WHEN + j * WR_SZ
        head = param(s, p, w + WR_RULE)
        if head % OPS != i:
            continue
        op = head // OPS
        left = quantity(s, p, param(s, p, w + WR_LEFT), coins)
        right = quantity(s, p, param(s, p, w + WR_RIGHT), coins) + param(s, p, w + WR_K)
        if op == OP_LT:
            ok = left < right
        elif op == OP_LE:
            ok = left <= right
        elif op == OP_EQ:
            ok = left == right
        elif op == OP_GE:
            ok = left >= right
        elif op == OP_GT:
            ok = left > right
        else:
            ok = left != right
        if not ok:
            return False
    return True


@kernel
def rule_fits(s, p, i, coins):
    """Buy rule i of p's menu allows its card with this many coins (stock and cost not checked)."""
    r = B_BUY + i * BR_SZ
    c = param(s, p, r + BR_CARD)
    if coins < param(s, p, r + BR_MIN_COINS) or coins > param(s, p, r + BR_MAX_COINS):
        return False
    have = s[owned(s, p) + c]
    if have >= param(s, p, r + BR_OWNED_BELOW):
        return False
    left = s[supply(s) + rule(s, R_PROVINCE)]
    if left < param(s, p, r + BR_PROVINCES_MIN) or left > param(s, p, r + BR_PROVINCES_MAX):
        return False
    vs = param(s, p, r + BR_VS)
    if vs >= 0 and have >= s[owned(s, p) + vs] + param(s, p, r + BR_VS_ADD):
        return False
    if param(s, p, B_N_WHEN) > 0 and not when_holds(s, p, i, coins):
        return False
    return True


@kernel
def menu_choice(s, p, coins, cap, types):
    """The first card of p's buy menu it would take with `coins` (cost up to cap, of the types, in
    stock, not a losing last Province), or -1."""
    guard = rule(s, R_LAST_PROVINCE_GUARD) == 1
    for i in range(param(s, p, B_N_BUY)):
        c = param(s, p, B_BUY + i * BR_SZ + BR_CARD)
        if card(s, c, F_COST) > cap or s[supply(s) + c] <= 0 or not matches(s, c, types):
            continue
        if rule_fits(s, p, i, coins) and not (guard and loses_by(s, p, c)):
            return c
    return -1


@kernel
def gain_choice(s, p, cap, types):
    """The card p gains when a card lets it gain one costing up to cap: what its menu would buy with
    that much, else the dearest card it does not mind owning, else the dearest (-1: none)."""
    c = menu_choice(s, p, cap, cap, types)
    if c >= 0:
        return c
    best = -1
    worst = -1
    for d in range(s[H_NC]):
        if s[supply(s) + d] <= 0 or card(s, d, F_COST) > cap or not matches(s, d, types):
            continue
        if not wants_trashed(s, p, d) and keep_value(s, d) > -50 and (best < 0 or card(s, d, F_COST) > card(s, best, F_COST)):
            best = d
        if worst < 0 or keep_value(s, d) > keep_value(s, worst):
            worst = d
    return best if best >= 0 else worst


# ---- the questions ----
@kernel
def lowest_in_hand(s, p, types):
    """p's card of the types it values least, or -1."""
    h = hand(s, p)
    best = -1
    for c in range(s[H_NC]):
        if s[h + c] > 0 and matches(s, c, types) and (best < 0 or keep_value(s, c) < keep_value(s, best)):
            best = c
    return best


@kernel
def play_order_first(s, p, types):
    """The first card of p's play order in its hand (of the types), or -1."""
    h = hand(s, p)
    for i in range(param(s, p, B_N_PLAY)):
        c = param(s, p, B_PLAY + i)
        if s[h + c] > 0 and matches(s, c, types):
            return c
    return -1


@kernel
def menu_rank(s, p, c):
    """Where c stands in p's buy menu (the first rule that would buy it at its cost now; lower is
    better), or MAX_BUY if no rule would."""
    for i in range(param(s, p, B_N_BUY)):
        if param(s, p, B_BUY + i * BR_SZ + BR_CARD) == c and rule_fits(s, p, i, card(s, c, F_COST)):
            return i
    return MAX_BUY


@kernel
def upgrade_choice(s, p, bonus, types):
    """The card of p's hand to trash for a card costing up to `bonus` more: the least valued one
    whose replacement stands higher in its buy menu (or that it would rather not own); (card, True),
    or, if none improves, (the least valued, False)."""
    h = hand(s, p)
    best = -1
    for c in range(s[H_NC]):
        if s[h + c] <= 0 or not matches(s, c, types):
            continue
        g = gain_choice(s, p, card(s, c, F_COST) + bonus, types)
        if g >= 0 and (wants_trashed(s, p, c) or menu_rank(s, p, g) < menu_rank(s, p, c)) \
                and (best < 0 or keep_value(s, c) < keep_value(s, best)):
            best = c
    if best >= 0:
        return best, True
    return lowest_in_hand(s, p, types), False


@kernel
def answer(s):
    """The bot's answer to the pending card question."""
    p = s[H_DECIDER]
    q = s[H_Q]
    fate = s[H_Q_FATE]
    about = s[H_Q_ABOUT]
    optional = s[H_Q_OPT] == 1
    if q == Q_YES_NO:
        if fate == FATE_SKIP:       # set an Action aside rather than draw it when it cannot be played
            return A_YES if s[H_ACTIONS] == 0 else A_PASS
        return A_YES                # reveal a Reaction, play the Action, trash a Copper for coins
    if q == Q_MODE:
        if fate == FATE_SIFT:
            if wants_trashed(s, p, about):
                return A_MODE + M_TRASH
            if keep_value(s, about) < 0 or about == rule(s, R_COPPER):
                return A_MODE + M_DISCARD
            return A_MODE + M_KEEP
        first = keep_value(s, about) >= keep_value(s, s[H_Q_OTHER])
        if fate == FATE_TOPDECK:    # the better of the two goes on top
            return A_MODE + (M_FIRST if first else M_SECOND)
        return A_MODE + (M_SECOND if first else M_FIRST)    # the worse of the two is lost
    if q == Q_SUPPLY:
        c = gain_choice(s, p, s[H_Q_MAX], s[H_Q_TYPES])
        return A_CHOOSE + c if c >= 0 else A_PASS
    if q == Q_DISCARD:              # a card from the discard pile onto the deck: the best one
        d = discard(s, p)
        best = -1
        for c in range(s[H_NC]):
            if s[d + c] > 0 and (best < 0 or keep_value(s, c) > keep_value(s, best)):
                best = c
        return A_CHOOSE + best if best >= 0 and keep_value(s, best) > 1 else A_PASS
    # Q_HAND
    types = s[H_Q_TYPES]
    if fate == FATE_PLAY:
        c = play_order_first(s, p, types)
        return A_CHOOSE + c if c >= 0 else A_PASS
    if fate == FATE_UPGRADE:
        c, better = upgrade_choice(s, p, s[H_Q_MAX], types)
        return A_CHOOSE + c if better or not optional else A_PASS
    if fate == FATE_TOPDECK:
        if s[H_CUR] == p and s[H_ACTIONS] == 0:    # an Action it cannot play now, for next turn
            c = play_order_first(s, p, TY_ACTION)
            if c >= 0 and matches(s, c, types):
                return A_CHOOSE + c
        return A_CHOOSE + lowest_in_hand(s, p, types)
    c = lowest_in_hand(s, p, types)
    if not optional:
        return A_CHOOSE + c
    if fate == FATE_TRASH:
        return A_CHOOSE + c if wants_trashed(s, p, c) else A_PASS
    if fate == FATE_DISCARD:        # discard to draw anew: the cards that do nothing in hand
        return A_CHOOSE + c if keep_value(s, c) < 0 else A_PASS
    return A_PASS


@kernel
def bot_policy(s):
    """The bot's action at any decision: play its Actions in its order, then all Treasures, then buy
    from its menu; card questions by `answer`."""
    ctx = s[H_CTX]
    p = s[H_DECIDER]
    if ctx == CTX_EFFECT:
        return answer(s)
    if ctx == CTX_ACTION:
        c = play_order_first(s, p, TY_ACTION)
        return A_PLAY + c if c >= 0 else A_PASS
    if ctx == CTX_BUY:
        if s[H_BOUGHT] == 0 and hand_has(s, p, TY_TREASURE):
            return A_ALL_TREASURES
        coins = s[H_COINS]
        c = menu_choice(s, p, coins, coins, 0)
        if c >= 0 and can_buy(s, c):
            return A_BUY + c
    return A_PASS

