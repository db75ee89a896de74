"""Toy's jitted agents: uniform random over the legal actions, and the priority list (play Actions in
its order, then buy by its first rule that fits). Its row (`toy_game.agents.row`):

- list.n_buy rules at list.buy, BR_SZ slots each, best first: buy the card with at least BR_COINS
  coins while owning fewer than BR_BELOW copies;
- list.n_play cards at list.play: the order Actions are played in (any other Action after them)."""
from hoc.engine.jit import kernel
from hoc.engine.state import below, card, param
from toy_game.agents.row import BR_SZ, ROW
from toy_game.kernel.constants import (
    A_BUY, A_PASS, A_PLAY, CTX_ACTION, CTX_BUY, F_COST, H_COINS, H_CTX, H_DECIDER, H_NC, LEGAL, N_ACTIONS, P_ARNG,
    TY_ACTION,
)
from toy_game.kernel.core import can_buy, hand, is_type, legal_actions, owned, pb

L_N_BUY = ROW.at("list.n_buy")
L_BUY = ROW.at("list.buy")
BR_CARD = 0
BR_COINS = 1
BR_BELOW = 2
L_N_PLAY = ROW.at("list.n_play")
L_PLAY = ROW.at("list.play")


@kernel
def random_policy(s):
    n = legal_actions(s, s[LEGAL:LEGAL + N_ACTIONS])
    return s[LEGAL + below(s, pb(s, s[H_DECIDER]) + P_ARNG, n)]


@kernel
def list_policy(s):
    p = s[H_DECIDER]
    ctx = s[H_CTX]
    if ctx == CTX_ACTION:
        h = hand(s, p)
        for i in range(param(s, p, L_N_PLAY)):
            c = param(s, p, L_PLAY + i)
            if s[h + c] > 0:
                return A_PLAY + c
        for c in range(s[H_NC]):
            if s[h + c] > 0 and is_type(s, c, TY_ACTION):
                return A_PLAY + c
        return A_PASS
    if ctx == CTX_BUY:
        coins = s[H_COINS]
        for i in range(param(s, p, L_N_BUY)):
            r = L_BUY + i * BR_SZ
            c = param(s, p, r + BR_CARD)
            if coins >= param(s, p, r + BR_COINS) and card(s, c, F_COST) <= coins \
                    and s[owned(s, p) + c] < param(s, p, r + BR_BELOW) and can_buy(s, c):
                return A_BUY + c
    return A_PASS
