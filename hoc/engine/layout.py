"""The part of a game's state, ruleset and result row that every game shares.

A game's state is one flat int32 array. Its first slots, the blocks that carry the game's rules and
its lineup of jitted agents, and the row a finished game leaves in a run's results have the same
meaning in every game, so the loops, the agents' arena, the harness and the environments read them
without knowing the game. Everything else is the game's own (`hoc.games.<game>.kernel.constants`
names it, around these slots).

These are layout constants, not data: numba freezes them at compile time (the cache folder is keyed
by a hash of this file).
"""
import numpy as np

# every array the kernels read or write (state, card table, ruleset, agent parameters, results)
DTYPE = np.int32
DTYPE_NAME = "int32"

MAX_SEATS = 4

# ---- the header's shared slots s[H_*]; a game's own slots fill the others below HEADER ----------
H_NP = 0                # players
H_NC = 1                # cards in the card table
H_LEN = 15              # length of the state (the arena of agents that think ahead starts there)
H_CUR = 18              # turn player
H_CTX = 20              # the game's decision context while a decision is pending (0: none)
H_DECIDER = 21          # the seat that decides next
H_TURNS = 25            # turns played by all players together
H_END = 26              # 0 while the game runs, else the game's code for how it ended
H_WINNER = 27           # seat, or -1
H_WIN_MASK = 28         # bitmask of winning seats (shared ties)
H_SEED = 36             # the game seed (64 bits in 2 slots)
H_STEPS = 38            # decisions taken
H_OFF_STATS = 67        # per card: coverage statistics of the game (ST_*)
HEADER = 96

# ---- the ruleset vector R: its first entries are shared, the game names the rest ----------------
R_PLAYERS = 0
R_NC = 1
R_LEN = 96

# ---- the card table T[card, field]: NCMAX rows of N_FIELDS ints (the game names the fields) ------
NCMAX = 64
N_FIELDS = 18

# a state carries its rules: the ruleset vector and the card table follow the header
RULES = HEADER
CARDS = RULES + R_LEN
# then the lineup: per seat the jitted agent's id and its parameter row
N_PARAMS = 332          # room for the widest agent kind's parameter row (each kind lays its own out)
AGENT_SZ = 1 + N_PARAMS
AGENTS = CARDS + NCMAX * N_FIELDS
# scratch where jitted agents list legal actions
LEGAL = AGENTS + MAX_SEATS * AGENT_SZ
MAX_ACTIONS = 512                   # room for the legal actions of any game's action space
# s[-1] of a state that ends in a tail of learned networks (s[-2]: the tail's length), after any arena
# (hoc.games.heart_of_crown.agents.learned.kernel)
LEARNED_TAIL = 0x1EA12ED
DYNAMIC = LEGAL + MAX_ACTIONS       # the game's own regions start here

# ---- coverage statistics of a game, per card: s[s[H_OFF_STATS] + card * N_STATS + ST_*] ---------
ST_PLAYED = 0
ST_BOUGHT = 1
ST_GAINED = 2           # every gain, buys included
ST_KEPT = 3
ST_EXILED = 4
ST_ATTACKS = 5          # opponents reached by its attack
N_STATS = 6
STATS = ("played", "bought", "gained", "kept", "exiled", "attacks")

# ---- how a game loop ended (a game's invariant checks add their own codes) ----------------------
OK = 0
E_ILLEGAL = 8           # an agent chose an illegal action
E_STEPS = 9             # the game did not end within the step limit
MAX_STEPS = 200_000     # a game that takes more decisions is broken

# ---- the result row of one game (int64); per seat fields follow at RES_SEAT + seat * RES_SEAT_SZ -
RES_GAME = 0
RES_WINNER = 1
RES_END = 2
RES_TURNS = 3
RES_WIN_MASK = 4
RES_STEPS = 5
RES_ERROR = 6
# where the players sat when the game's setup seated them otherwise than in the lineup's order (a seat
# field of the row is the lineup's seat j; its position is its place in turn order, 0 plays first):
# 4 bits per seat j from bit 4j, position + 1; 0 when every player sits at its own number
RES_SEATING = 7
RES_SEAT = 8
RES_SEAT_SZ = 6
RES_SCORE = 0           # the seat's final score (a game names it: SP, VP)
RES_EXTRA = 1           # two fields of the game's own (the game spec names and reads them)
N_EXTRAS = 2
RES_OWN_TURNS = 3       # the seat's own turns
RES_OWNED = 4           # the cards the seat owned at the end: bits of card ids 0-31, then 32-63
MAX_KINDS = 10          # the supply's kinds a result records
RES_MARKET = RES_SEAT + MAX_SEATS * RES_SEAT_SZ   # MAX_KINDS card ids of the supply's kinds, -1 padded
RES_LEN = RES_MARKET + MAX_KINDS
