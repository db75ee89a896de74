"""Dominion's named offsets and codes, shared by its kernels, its Python API and its agents.

The slots every game shares (the header's first meanings, the rules and lineup blocks, the result
row) are `hoc.engine.layout`'s, re-exported here; the rest of the state is this game's. These are
layout constants, not data: numba freezes them at compile time (the cache folder is keyed by a hash
of this file).
"""
from hoc.engine.layout import (  # noqa: F401 (the shared slots: re-exported for the game's kernels)
    AGENTS, AGENT_SZ, CARDS, DTYPE, DYNAMIC, E_ILLEGAL, E_STEPS, HEADER, H_CTX, H_CUR, H_DECIDER, H_END,
    H_LEN, H_NC, H_NP, H_OFF_STATS, H_SEED, H_STEPS, H_TURNS, H_WINNER, H_WIN_MASK, LEGAL, MAX_ACTIONS,
    MAX_KINDS, MAX_SEATS, MAX_STEPS, NCMAX, N_FIELDS, N_PARAMS, N_STATS, OK, RES_END, RES_ERROR, RES_EXTRA,
    RES_GAME, RES_LEN, RES_MARKET, RES_OWNED, RES_OWN_TURNS, RES_SCORE, RES_SEAT, RES_SEAT_SZ, RES_STEPS,
    RES_TURNS, RES_WINNER, RES_WIN_MASK, RULES, R_LEN, R_NC, R_PLAYERS, ST_ATTACKS, ST_BOUGHT, ST_EXILED,
    ST_GAINED, ST_PLAYED,
)

ST_TRASHED = ST_EXILED  # the coverage statistic of cards leaving the game: trashed, in Dominion

# ---- card table T[card, field] ---------------------------------------------------------------
F_COST = 0
F_TYPES = 1         # bitmask of TY_*
F_COINS = 2         # a Treasure's coins, or an Action's "+N coins"
F_VP = 3            # printed VP (Curse: -1)
F_VP_PER_10 = 4     # VP per 10 cards the owner has (Gardens)
F_CARDS = 5         # "+N Cards"
F_ACTIONS = 6       # "+N Actions"
F_BUYS = 7          # "+N Buys"
F_EFFECT = 8        # EFF_* routine for the rest of the card's text, 0 for none
F_PILE = 9          # PILE_* rule for the supply pile's size
F_COPIES = 10       # the pile's printed size (PILE_* reads it)
F_START = 11        # copies in each starting deck
F_KINGDOM = 12      # 1 for a kingdom card (a random kingdom draws from these)
F_REACTION = 13     # REACT_* (Moat: revealed from hand when another player plays an Attack)

OVERRIDABLE = {"cost": F_COST, "coins": F_COINS, "vp": F_VP, "cards": F_CARDS, "actions": F_ACTIONS,
               "buys": F_BUYS, "copies": F_COPIES, "start": F_START}

TY_TREASURE = 1
TY_VICTORY = 2
TY_CURSE = 4
TY_ACTION = 8
TY_ATTACK = 16
TY_REACTION = 32
TYPE_BITS = {"treasure": TY_TREASURE, "victory": TY_VICTORY, "curse": TY_CURSE, "action": TY_ACTION,
             "attack": TY_ATTACK, "reaction": TY_REACTION}

PILE_FIXED = 0          # F_COPIES cards
PILE_VICTORY = 1        # 8 cards with 1-2 players, 12 with 3-4 (Estate, Duchy, Province, Gardens)
PILE_PER_OPPONENT = 2   # F_COPIES per other player (Curse: 10, 20, 30)
PILE_LESS_START = 3     # F_COPIES less the copies dealt into the starting decks (Copper: 60 - 7 per player)
PILES = {"fixed": PILE_FIXED, "victory": PILE_VICTORY, "per_opponent": PILE_PER_OPPONENT,
         "less_start": PILE_LESS_START}

REACT_NONE = 0
REACT_ATTACK = 1        # may be revealed from hand when another player plays an Attack: unaffected by it
REACTIONS = {"": REACT_NONE, "attack": REACT_ATTACK}

# ---- effect routines (F_EFFECT); the card data names them, effects.py implements them ---------
EFF_NONE = 0
EFF_CELLAR = 1
EFF_CHAPEL = 2
EFF_HARBINGER = 3
EFF_MERCHANT = 4
EFF_VASSAL = 5
EFF_WORKSHOP = 6
EFF_BUREAUCRAT = 7
EFF_MILITIA = 8
EFF_MONEYLENDER = 9
EFF_POACHER = 10
EFF_REMODEL = 11
EFF_THRONE_ROOM = 12
EFF_BANDIT = 13
EFF_COUNCIL_ROOM = 14
EFF_LIBRARY = 15
EFF_MINE = 16
EFF_SENTRY = 17
EFF_WITCH = 18
EFF_ARTISAN = 19
EFFECT_IDS = {"cellar": EFF_CELLAR, "chapel": EFF_CHAPEL, "harbinger": EFF_HARBINGER, "merchant": EFF_MERCHANT,
              "vassal": EFF_VASSAL, "workshop": EFF_WORKSHOP, "bureaucrat": EFF_BUREAUCRAT,
              "militia": EFF_MILITIA, "moneylender": EFF_MONEYLENDER, "poacher": EFF_POACHER,
              "remodel": EFF_REMODEL, "throne_room": EFF_THRONE_ROOM, "bandit": EFF_BANDIT,
              "council_room": EFF_COUNCIL_ROOM, "library": EFF_LIBRARY, "mine": EFF_MINE,
              "sentry": EFF_SENTRY, "witch": EFF_WITCH, "artisan": EFF_ARTISAN}
# effects that play an Action card from the hand (Throne Room: twice): a bot plays such a card before
# the Action it would play, which played first would spend the turn's last Action on its own
PLAYS_AN_ACTION = frozenset({EFF_THRONE_ROOM})

# ---- the ruleset vector R (R_PLAYERS, R_NC: hoc.engine.layout) --------------------------------
R_KINGDOM_MODE = 2      # KINGDOM_*
R_TURN_CAP = 3          # turns per player before the game stops unfinished
R_SOLO_PROVINCES = 4    # solo mode: the game ends when the player has bought this many Provinces (0: off)
R_HAND_SIZE = 5         # cards drawn in Cleanup (5)
R_LAST_PROVINCE_GUARD = 6   # 1: bots never buy a last Province that leaves them losing (an agents' option)
R_COPPER = 8
R_SILVER = 9
R_GOLD = 10
R_ESTATE = 11
R_PROVINCE = 12
R_CURSE = 13
R_N_PILES = 15          # kingdom cards listed at R_PILES (a fixed kingdom, or a random one's candidates)
R_N_ALWAYS = 16         # random kingdom: the first R_N_ALWAYS candidates are always in it
R_PILES = 20            # up to NCMAX card ids
KINGDOM_RANDOM = 0      # 10 kingdom cards drawn from the candidates
KINGDOM_FIXED = 1       # the 10 listed

# ---- state header s[H_*] (the shared slots: hoc.engine.layout) --------------------------------
H_DCAP = 2              # deck capacity per player (every card of the game could end in one deck)
H_OFF_PLAYER = 3
H_OFF_HAND = 4          # per player, per card: copies in hand
H_OFF_DISCARD = 5       # per player, per card: copies in the discard pile
H_OFF_OWNED = 6         # per player, per card: copies owned (hand, deck, discard, play, set aside)
H_OFF_DECK = 7          # per player: the deck, bottom first (its top is s[deck + P_DECK_N - 1])
H_OFF_PLAY = 8          # per card: copies in play (the turn player's)
H_OFF_SUPPLY = 9        # per card: copies in the supply (0 for a card not in this game)
H_OFF_TRASH = 10
H_OFF_ASIDE = 11        # per card: copies set aside (the turn player's, while a card resolves)
H_OFF_STACK = 12        # the effect stack: STACK_DEPTH frames of FRAME slots
H_OFF_SCRATCH = 13      # NCMAX ints of scratch for kernels (they never allocate)
H_RNG = 16              # kingdom random stream (2 slots)
H_PHASE = 19            # PH_*
H_ACTIONS = 22
H_BUYS = 23
H_COINS = 24
H_BOUGHT = 29           # a card was bought this turn (no more Treasures may be played)
H_MERCHANTS = 30        # Merchants played this turn (their coin comes with the first Silver)
H_SILVERS = 31          # Silvers played this turn
H_DEPTH = 32            # effect stack depth
H_ANSWER = 33           # the answer to the question asked (read by the routine that asked)
H_Q = 34                # the pending question: Q_*
H_Q_CARD = 35           # the card whose text asks
H_Q_TYPES = 39          # Q_HAND / Q_SUPPLY: the chosen card must have one of these types (0: any)
H_Q_MAX = 40            # Q_SUPPLY: cost limit
H_Q_OPT = 41            # 1 if A_PASS (choose nothing) is legal
H_Q_MODES = 42          # Q_MODE: bitmask of the modes offered
H_Q_ABOUT = 43          # the card the question is about (Q_YES_NO, Q_MODE), -1 none
H_Q_SEAT = 44           # the seat whose zone a question reads (the decider)
H_N_KINDS = 45          # kingdom cards in this game's supply
H_KINDS = 46            # MAX_KINDS slots: their card ids
H_IN_SUPPLY = 56        # 2 slots: bit c set for every card with a pile in this game's supply
H_TRASH_N = 58          # cards in the trash
H_ASIDE_N = 59          # cards set aside
H_ASIDE_SEAT = 60       # the player who owns the cards set aside
H_Q_FATE = 61           # what becomes of the card chosen (FATE_*): what an agent reads to choose well
H_Q_OTHER = 62          # Q_MODE between two cards: the second (H_Q_ABOUT is the first)

# per-player block s[off_player + p * PSZ + P_*]
P_DECK_N = 0
P_HAND_N = 1
P_DISCARD_N = 2
P_OWNED_N = 3
P_TURNS = 4             # own turns started
P_VP = 5                # VP at the end of the game (set by the final count)
P_PROVINCES_BOUGHT = 6
P_RNG = 8               # the seat's shuffle stream (2 slots)
P_ARNG = 10             # the seat's agent stream (2 slots): random choices of its jitted agent
PSZ = 12

# effect stack frames s[off_stack + depth * FRAME + FR_*]
FR_CARD = 0
FR_STEP = 1
FR_I = 2                # an attack's victim counter (1 .. players-1 after the turn player)
FR_X = 3                # routine scratch: a card, a count
FR_Y = 4
FR_N = 5
FRAME = 6
STACK_DEPTH = 64        # Throne Rooms chain one frame each: deeper than any hand

# results of a routine step
GO = 0                  # keep resolving (the frame stays, or pushed another on top)
ASK = 1                 # a question is pending
DONE = 2                # the frame is finished

# steps every routine shares: 0 runs the card's plain bonuses, 1 starts its own text; attack steps
ST_BONUS = 0
ST_TEXT = 1
AT_NEXT = 90            # an attack: on to the next other player
AT_MOAT = 91            # an attack: the victim answered whether it reveals a Reaction
AT_HIT = 92             # an attack: its effect on the victim s[frame + FR_I] players after the turn player

# ---- phases and decision contexts -------------------------------------------------------------
PH_ACTION = 1
PH_BUY = 2
PH_CLEANUP = 3

CTX_NONE = 0
CTX_ACTION = 1          # the turn player may play an Action card or go to the Buy phase
CTX_BUY = 2             # the turn player may play Treasures, buy a card or end the turn
CTX_EFFECT = 3          # a card's text asks a player (H_Q)

# questions (H_Q) and what they are answered with
Q_HAND = 1              # a card from the decider's hand (H_Q_TYPES), A_CHOOSE + card; A_PASS if optional
Q_SUPPLY = 2            # a card from the supply costing up to H_Q_MAX (H_Q_TYPES), A_CHOOSE + card
Q_DISCARD = 3           # a card from the decider's discard pile, A_CHOOSE + card; A_PASS if optional
Q_YES_NO = 4            # A_YES or A_PASS (no), about card H_Q_ABOUT
Q_MODE = 5              # A_MODE + m for a mode m of H_Q_MODES, about card H_Q_ABOUT
M_TRASH = 0             # Sentry: trash it / discard it / put it back
M_DISCARD = 1
M_KEEP = 2
# the fate of the chosen card (H_Q_FATE): the question's meaning for the chooser, whatever card asks
FATE_DISCARD = 1        # it is discarded from hand
FATE_TRASH = 2          # it is trashed (a yes/no: trash the card asked about)
FATE_PLAY = 3           # it is played (Throne Room: twice; a yes/no: play the card asked about)
FATE_UPGRADE = 4        # it is trashed for a card costing up to H_Q_MAX more (of type H_Q_TYPES)
FATE_TOPDECK = 5        # it goes onto the deck (Q_MODE: the one chosen goes on top)
FATE_GAIN = 6           # it is gained
FATE_REVEAL = 7         # a yes/no: reveal the Reaction asked about against an Attack
FATE_SKIP = 8           # a yes/no: set aside the Action card asked about instead of drawing it
FATE_SIFT = 9           # Q_MODE M_TRASH / M_DISCARD / M_KEEP for the card asked about
M_FIRST = 0             # which of two cards (H_Q_ABOUT, H_Q_OTHER): the first (Sentry: on top; Bandit: trashed)
M_SECOND = 1

# ---- end of the game ---------------------------------------------------------------------------
END_NONE = 0
END_PROVINCES = 1       # the Province pile is empty
END_PILES = 2           # three supply piles are empty
END_SOLO = 3            # solo mode: the player bought its Provinces
END_TURN_CAP = 4        # stopped at the turn cap (no winner)
END_REASONS = {END_PROVINCES: "provinces", END_PILES: "three_piles", END_SOLO: "solo_provinces",
               END_TURN_CAP: "turn_cap"}

# ---- actions -----------------------------------------------------------------------------------
A_PASS = 0              # end the phase; choose nothing; answer no
A_ALL_TREASURES = 1     # play every Treasure in hand
A_YES = 2
A_MODE = 4              # A_MODE + m, m < N_MODES
N_MODES = 8
A_PLAY = 16             # A_PLAY + card: play it from hand (an Action in the Action phase, a Treasure in the Buy phase)
A_BUY = A_PLAY + NCMAX
A_CHOOSE = A_BUY + NCMAX
N_ACTIONS = A_CHOOSE + NCMAX
