"""Toy's named offsets and codes. The shared slots are `hoc.engine.layout`'s, re-exported here; the rest
of the state is Toy's own. Layout constants: numba freezes them at compile time."""
from hoc.engine.layout import (  # noqa: F401 (the shared slots, re-exported for the game's kernels)
    AGENTS, AGENT_SZ, CARDS, DTYPE, DYNAMIC, E_ILLEGAL, E_STEPS, HEADER, H_CTX, H_CUR, H_DECIDER, H_END, H_LEN,
    H_NC, H_NP, H_OFF_STATS, H_SEED, H_STEPS, H_TURNS, H_WINNER, H_WIN_MASK, LEGAL, MAX_ACTIONS, MAX_KINDS,
    MAX_SEATS, MAX_STEPS, NCMAX, N_FIELDS, N_PARAMS, N_STATS, OK, RES_END, RES_EXTRA, RES_LEN, RES_MARKET,
    RES_OWNED, RES_OWN_TURNS, RES_SCORE, RES_SEAT, RES_SEAT_SZ, RES_STEPS, RES_TURNS, RES_WINNER, RES_WIN_MASK,
    RULES, R_LEN, R_NC, R_PLAYERS, ST_BOUGHT, ST_GAINED, ST_PLAYED,
)

MAX_CARDS = 8           # Toy's card table never holds more: its action space stays small

# ---- card table T[card, field] -------------------------------------------------------------------
F_COST = 0
F_TYPES = 1             # TY_* bits
F_COINS = 2             # a Treasure's coins, or an Action's +coins
F_VP = 3
F_DRAW = 4              # an Action's +cards
F_ACTIONS = 5           # an Action's +actions
F_COPIES = 6            # supply pile: this many ...
F_PER_PLAYER = 7        # ... plus this many per player
F_START = 8             # copies in each starting deck
F_KINGDOM = 9           # 1: a kingdom card (a game's market offers some of them)

TY_TREASURE = 1
TY_VICTORY = 2
TY_ACTION = 4
TYPE_BITS = {"treasure": TY_TREASURE, "victory": TY_VICTORY, "action": TY_ACTION}

# ---- the ruleset vector (R_PLAYERS, R_NC: shared) ------------------------------------------------
R_TURN_CAP = 2          # turns per player before the game stops
R_HAND_SIZE = 3
R_DUCHY = 4             # the Duchy's card id (the game ends when its pile is empty)
R_MARKET_DRAW = 5       # kingdom cards a game's market draws from the candidates (0: all of them)
R_N_CANDIDATES = 6
R_CANDIDATES = 8        # up to MAX_CARDS kingdom card ids

# ---- the header's own slots (the shared ones are hoc.engine.layout's) ----------------------------
H_DCAP = 2              # deck room per player
H_OFF_PLAYER = 3
H_OFF_HAND = 4          # per player, per card: copies in hand
H_OFF_DISCARD = 5       # per player, per card: copies in the discard pile
H_OFF_OWNED = 6         # per player, per card: copies owned
H_OFF_DECK = 7          # per player: the deck as card ids, bottom first
H_OFF_PLAY = 8          # per card: copies in play (the turn player's)
H_OFF_SUPPLY = 9        # per card: copies in the supply
H_OFF_SCRATCH = 10      # MAX_CARDS ints of scratch
H_RNG = 11              # the market's random stream (2 slots)
H_PHASE = 19
H_ACTIONS = 22
H_BUYS = 23
H_COINS = 24
H_N_KINDS = 40          # kingdom cards in this game's market
H_KINDS = 41            # MAX_KINDS slots: their ids

# the player block s[off_player + p * PSZ + P_*]
P_DECK_N = 0
P_HAND_N = 1
P_DISCARD_N = 2
P_OWNED_N = 3
P_TURNS = 4
P_VP = 5
P_RNG = 6               # the seat's shuffle stream (2 slots)
P_ARNG = 8              # the seat's agent stream (2 slots)
PSZ = 10

PH_ACTION = 1
PH_BUY = 2
PH_CLEANUP = 3

CTX_NONE = 0
CTX_ACTION = 1          # play an Action card, or pass to the buy
CTX_BUY = 2             # buy a card, or pass (end the turn)

END_DUCHIES = 1         # the Duchy pile is empty
END_TURN_CAP = 2        # the turn cap was reached (the VP still decide)
END_REASONS = {END_DUCHIES: "duchies", END_TURN_CAP: "turn_cap"}

# ---- actions -------------------------------------------------------------------------------------
A_PASS = 0
A_PLAY = 1              # A_PLAY + card
A_BUY = A_PLAY + MAX_CARDS
N_ACTIONS = A_BUY + MAX_CARDS

# ---- invariant errors ----------------------------------------------------------------------------
E_CARD_COUNT = 1
E_NEGATIVE = 2
E_SIZE = 3
E_OWNED = 4
E_BOUNDS = 5
ERRORS = {E_CARD_COUNT: "a card was created or lost", E_NEGATIVE: "a zone count below zero",
          E_SIZE: "a zone's size counter disagrees with its cards", E_OWNED: "ownership disagrees with the zones",
          E_BOUNDS: "a deck outgrew its room", E_ILLEGAL: "an agent chose an illegal action",
          E_STEPS: "the game exceeded the step limit"}
