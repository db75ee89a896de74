"""Heart of Crown's named offsets and codes, shared by its kernels, its Python API and the agents.

The slots every game shares (the header's first meanings, the rules and lineup blocks, the result
row) are `hoc.engine.layout`'s, re-exported here; the rest of the state is this game's. These are layout constants, not data: numba freezes them at compile time, and the cache folder is
keyed by a hash of this file, so changing one recompiles everything.
"""

from hoc.engine.layout import (  # noqa: F401 (the shared slots: re-exported for the game's kernels)
    AGENTS, AGENT_SZ, CARDS, DTYPE, DTYPE_NAME, DYNAMIC, E_ILLEGAL, E_STEPS,
    HEADER, H_CTX, H_CUR, H_DECIDER, H_END, H_LEN, H_NC, H_NP,
    H_OFF_STATS, H_SEED, H_STEPS, H_TURNS, H_WINNER, H_WIN_MASK, LEGAL, MAX_ACTIONS,
    MAX_KINDS, MAX_SEATS, MAX_STEPS, NCMAX, N_EXTRAS, N_FIELDS, N_PARAMS, N_STATS,
    OK, RES_END, RES_ERROR, RES_EXTRA, RES_GAME, RES_SEATING, RES_LEN, RES_MARKET, RES_OWNED,
    RES_OWN_TURNS, RES_SCORE, RES_SEAT, RES_SEAT_SZ, RES_STEPS, RES_TURNS, RES_WINNER, RES_WIN_MASK,
    RULES, R_LEN, R_NC, R_PLAYERS, STATS, ST_ATTACKS, ST_BOUGHT, ST_EXILED,
    ST_GAINED, ST_KEPT, ST_PLAYED,
)

# ---- card table T[card, field] -------------------------------------------------------------
F_COST = 0
F_LINKS = 1
F_COINS = 2
F_SP = 3
F_TYPES = 4      # bitmask of TY_*
F_SUB = 5        # bitmask of SUB_*
F_PILE = 6       # pile index (the market kind; the five Attendant Maids share one)
F_CAT = 7        # CAT_*
F_EFFECT = 8     # EFF_* routine of the card's text, 0 for none
F_FLAGS = 9      # bitmask of FL_*
F_COPIES = 10
F_PER_PLAYER = 11
F_START = 12     # F_START + seat (0..3): copies in that seat's starting deck
F_TRIGGERS = 16  # bitmask of the moments (1 << TRIG_*) at which the card's routine acts
F_ON_BUY = 17    # EFF_* routine run when the card is bought (TRIG_BUY), 0 for none: the Attendant Maids' set

# numeric fields a user may override, by CSV column name
OVERRIDABLE = {
    "cost": F_COST, "links": F_LINKS, "coins": F_COINS, "sp": F_SP, "copies": F_COPIES,
    "start1": F_START, "start2": F_START + 1, "start3": F_START + 2, "start4": F_START + 3,
}

TY_PRINCESS = 1
TY_TERRITORY = 2
TY_ACTION = 4
TY_ATTACK = 8
TY_SUCCESSION = 16
TY_CALAMITY = 32
TY_DEFENSE = 64
TYPE_BITS = {"princess": TY_PRINCESS, "territory": TY_TERRITORY, "action": TY_ACTION,
             "attack": TY_ATTACK, "succession": TY_SUCCESSION, "calamity": TY_CALAMITY,
             "defense": TY_DEFENSE}
SUB_MAID = 1
SUB_MILITARY = 2
SUBTYPE_BITS = {"maid": SUB_MAID, "military": 2, "magic": 4, "scheme": 8, "merchant": 16}

CAT_PRINCESS = 0
CAT_BASIC = 1
CAT_RARE = 2
CAT_COMMON = 3
CATEGORIES = {"princess": CAT_PRINCESS, "basic": CAT_BASIC, "rare": CAT_RARE, "common": CAT_COMMON}

FL_CANNOT_KEEP = 1
FL_NAMED_FARMING_VILLAGE = 2
FL_NAMED_CURSE = 4
FL_NOT_IN_MARKET = 16
FL_BACK_WITHOUT_FARMING_VILLAGES = 32   # 1E Flammaria: Farming Villages do not move to the domain
FL_COURT_TITLE = 64     # 1E Court Maid, Senator, Duke: the cards the 1E Gossip-Loving Duchess may take
FL_EXILE_FROM_HAND = 128    # 1E Curse Witch: "[from hand] exile this card: ..." (the A_HAND_ABILITY action)
# what an Attack reaches and what a Defense card guards (1E): the Defense question is marked as one where
# revealing helps (H_CH_GOOD, so default answers reveal) when the card guards what the Attack reaches
FL_HAND_ATTACK = 256    # reaches hands of 5 or more cards (Infantry Battalion, Hunted Beast)
FL_DECK_ATTACK = 512    # reaches the draw pile (Royal Guard, Charm Witch, Curse Witch)
FL_GUARDS_MILITARY = 1024   # Rampart: Military Attacks
FL_GUARDS_HAND = 2048       # Hideout, Magic Talisman: leave a hand below 5 cards
FL_GUARDS_DECK = 4096       # Magic Talisman: a face-up Curse on top of the deck
FLAG_BITS = {"cannot_keep": FL_CANNOT_KEEP, "named_farming_village": FL_NAMED_FARMING_VILLAGE,
             "named_curse": FL_NAMED_CURSE,
             "not_in_market": FL_NOT_IN_MARKET,
             "back_without_farming_villages": FL_BACK_WITHOUT_FARMING_VILLAGES,
             "court_title": FL_COURT_TITLE, "exile_from_hand": FL_EXILE_FROM_HAND,
             "hand_attack": FL_HAND_ATTACK, "deck_attack": FL_DECK_ATTACK, "guards_military": FL_GUARDS_MILITARY,
             "guards_hand": FL_GUARDS_HAND, "guards_deck": FL_GUARDS_DECK}

# ---- effect routines (F_EFFECT); the card data names them, effects.py implements them -------
EFF_NONE = 0
EFF_BACK = 1            # built-in: backing a princess (moves territories, then her own effect)
EFF_SET_AT_CLEANUP = 2  # Karikuma, Imperial Estate, Margrave
EFF_LAOLILY = 3
EFF_KLAM_KLAM = 4
EFF_BERGAMOT = 5
EFF_FLAMMARIA = 6
EFF_TWINS = 7
EFF_DRAW_1 = 8          # Post Horse, Flea Market: "Draw 1 card."
EFF_DRAW_2 = 9          # Alchemist: "Draw 2 cards."
EFF_TRADING_SHIP = 10
EFF_BANK = 11
EFF_LIBRARY = 12
EFF_DONATION = 13
EFF_BALL = 14
EFF_WISHING_WELL = 15
EFF_SCOUT = 16
EFF_HIDEOUT = 17
EFF_RAMPART = 18
EFF_HANDYMAN = 19
EFF_CITY_DEVELOPMENT = 20
EFF_ADVENTURER = 21
EFF_MAGIC_TALISMAN = 22
EFF_STARGAZING_WITCH = 23
EFF_SUPPLY_UNIT = 24
EFF_SET_ON_BUY = 25     # "when you buy this, if you have a domain, you may set it" (the Attendant Maids' on_buy)
EFF_SHARIFA = 26
EFF_PETIT = 27
EFF_HONOKA = 28
EFF_MINNYAN = 29
EFF_LILY = 30
EFF_GOSSIP_DUCHESS = 31
EFF_INFANTRY_BATTALION = 32
EFF_HUNTED_BEAST = 33
EFF_CHARM_WITCH = 34
EFF_ROYAL_GUARD = 35
EFF_LAND_RECLAMATION = 36
EFF_CURSE_WITCH = 37
EFF_BATTERING_RAM = 38
EFF_BURIED_TREASURE = 39
# 1st-edition texts that differ from the 2nd edition's (a small difference is a parameter of the shared
# routine instead, read from the edition: Donation, Adventurer, City Development, Supply Unit), and the
# 1st edition's own built-in steps: every id from FIRST_1E on (a 2nd-edition game never runs them)
FIRST_1E = 40
EFF_BANK_1E = 40
EFF_STARGAZING_WITCH_1E = 41
EFF_LIBRARY_1E = 42
EFF_PURVEYOR_1E = 43
EFF_ROYAL_GUARD_1E = 44
EFF_SCOUT_1E = 45
EFF_CONSCRIPTION_WRIT = 46
EFF_SLASH_AND_BURN = 47
EFF_BURIED_TREASURE_1E = 48
EFF_DEFEND = 49         # built-in: the Defense window before an Attack resolves (1E)
EFF_RAMPART_1E = 50
EFF_HIDEOUT_1E = 51
EFF_MAGIC_TALISMAN_1E = 52
EFF_CITY_DEVELOPMENT_1E = 53   # the 2E routine; City -> Large City costs 2 coins
EFF_BATTERING_RAM_1E = 54
EFF_CHARM_WITCH_1E = 55
EFF_CURSE_WITCH_1E = 56
EFF_GOSSIP_DUCHESS_1E = 57
EFF_MONEYLENDER = 58
EFF_SHINOBI = 59
EFF_BRIBERY = 60
EFF_BUY_FROM_OPPONENTS = 61    # built-in: under 1E Bribery, where a card bought comes from
EFF_HAND_ELIMINATION = 62      # built-in: the hand-elimination seating, before the first turn (1E variant)
EFFECT_IDS = {"set_at_cleanup": EFF_SET_AT_CLEANUP, "laolily": EFF_LAOLILY,
              "klam_klam": EFF_KLAM_KLAM, "bergamot": EFF_BERGAMOT, "flammaria": EFF_FLAMMARIA,
              "twins": EFF_TWINS, "post_horse": EFF_DRAW_1, "flea_market": EFF_DRAW_1,
              "alchemist": EFF_DRAW_2, "trading_ship": EFF_TRADING_SHIP, "bank": EFF_BANK,
              "library": EFF_LIBRARY, "donation": EFF_DONATION, "ball": EFF_BALL,
              "wishing_well": EFF_WISHING_WELL, "scout": EFF_SCOUT, "hideout": EFF_HIDEOUT,
              "rampart": EFF_RAMPART, "handyman": EFF_HANDYMAN, "city_development": EFF_CITY_DEVELOPMENT,
              "adventurer": EFF_ADVENTURER, "magic_talisman": EFF_MAGIC_TALISMAN,
              "stargazing_witch": EFF_STARGAZING_WITCH, "supply_unit": EFF_SUPPLY_UNIT,
              "sharifa": EFF_SHARIFA, "petit": EFF_PETIT, "honoka": EFF_HONOKA, "minnyan": EFF_MINNYAN,
              "lily": EFF_LILY, "gossip_loving_duchess": EFF_GOSSIP_DUCHESS,
              "infantry_battalion": EFF_INFANTRY_BATTALION, "hunted_beast": EFF_HUNTED_BEAST,
              "charm_witch": EFF_CHARM_WITCH, "royal_guard": EFF_ROYAL_GUARD,
              "land_reclamation_decree": EFF_LAND_RECLAMATION, "curse_witch": EFF_CURSE_WITCH,
              "battering_ram": EFF_BATTERING_RAM, "buried_treasure": EFF_BURIED_TREASURE,
              # 1E princess texts: the same routines, which read the edition where the texts differ
              "twins_1e": EFF_TWINS, "bergamot_1e": EFF_BERGAMOT, "flammaria_1e": EFF_FLAMMARIA,
              # 1E commons: shared routines with an edition parameter, then their own routines
              "donation_1e": EFF_DONATION, "adventurer_1e": EFF_ADVENTURER,
              "city_development_1e": EFF_CITY_DEVELOPMENT_1E, "supply_unit_1e": EFF_SUPPLY_UNIT,
              "bank_1e": EFF_BANK_1E, "stargazing_witch_1e": EFF_STARGAZING_WITCH_1E,
              "library_1e": EFF_LIBRARY_1E, "purveyor_1e": EFF_PURVEYOR_1E,
              "royal_guard_1e": EFF_ROYAL_GUARD_1E, "scout_1e": EFF_SCOUT_1E,
              "conscription_writ": EFF_CONSCRIPTION_WRIT, "slash_and_burn_farming": EFF_SLASH_AND_BURN,
              "buried_treasure_1e": EFF_BURIED_TREASURE_1E, "rampart_1e": EFF_RAMPART_1E,
              "hideout_1e": EFF_HIDEOUT_1E, "magic_talisman_1e": EFF_MAGIC_TALISMAN_1E,
              "battering_ram_1e": EFF_BATTERING_RAM_1E, "charm_witch_1e": EFF_CHARM_WITCH_1E,
              "curse_witch_1e": EFF_CURSE_WITCH_1E, "gossip_loving_duchess_1e": EFF_GOSSIP_DUCHESS_1E,
              # 1E Imperial Estate's "pay 3 coins: a +1 succession counter, once per turn" while in the
              # domain is Lily's ability (its counters count the same wherever they lie)
              "imperial_estate_1e": EFF_LILY, "moneylender": EFF_MONEYLENDER, "shinobi": EFF_SHINOBI,
              "bribery": EFF_BRIBERY,
              # routines a card runs when bought (its on_buy column), beside its own text
              "set_on_buy": EFF_SET_ON_BUY}
# moments at which a card's text acts (frame trigger; F_TRIGGERS holds 1 << TRIG_*)
TRIG_PLAY = 0
TRIG_BACK = 1
TRIG_ABILITY = 2
TRIG_CLEANUP = 3
TRIG_SET = 4
TRIG_DEFENSE = 5        # 1E: a Defense card revealed against an opponent's Attack (FR_P: the defender)
TRIG_DOMAIN = 6         # its ability, used from the domain in the Main phase (A_DOMAIN_ABILITY), once per Main
                        # phase a copy; its routine's `_ready` says when it can be (Lily: 3 coins to pay)
TRIG_SCORE = 7          # not a moment of the stack: in the domain, the card is worth its printed SP plus what
                        # its routine's SP text says (scoring.py: Honoka), whenever the domain is scored
TRIG_BUY = 8            # the card was just bought: its on_buy routine (F_ON_BUY), not its own text
# routines acting at other moments than when the card is played
EFFECT_TRIGGERS = {
    EFF_SET_AT_CLEANUP: 1 << TRIG_CLEANUP, EFF_LAOLILY: 1 << TRIG_BACK, EFF_KLAM_KLAM: 0,
    EFF_BERGAMOT: 1 << TRIG_ABILITY, EFF_FLAMMARIA: 1 << TRIG_BACK,
    EFF_TWINS: 1 << TRIG_BACK | 1 << TRIG_ABILITY, EFF_SUPPLY_UNIT: 1 << TRIG_PLAY | 1 << TRIG_CLEANUP,
    EFF_SHARIFA: 1 << TRIG_SET, EFF_PETIT: 1 << TRIG_SET, EFF_HONOKA: 1 << TRIG_SCORE, EFF_MINNYAN: 1 << TRIG_SET,
    EFF_LILY: 1 << TRIG_DOMAIN, EFF_GOSSIP_DUCHESS: 1 << TRIG_SET,
    EFF_RAMPART_1E: 1 << TRIG_DEFENSE, EFF_HIDEOUT_1E: 1 << TRIG_PLAY | 1 << TRIG_DEFENSE,
    EFF_MAGIC_TALISMAN_1E: 1 << TRIG_PLAY | 1 << TRIG_DEFENSE, EFF_GOSSIP_DUCHESS_1E: 1 << TRIG_SET,
    EFF_CURSE_WITCH_1E: 1 << TRIG_PLAY | 1 << TRIG_ABILITY,
}

# names of the NUMBER choices of cards that say "choose one" (for readable labels)
MODES = {EFF_TRADING_SHIP: ("draw 2 cards", "gain 2 coins"),
         EFF_BALL: ("gain 1 coin", "Succession cards cost 1 less this turn"),
         EFF_HANDYMAN: ("exile a card from hand", "gain a coin counter"),
         EFF_CITY_DEVELOPMENT: ("pay 1: Farming Village -> City", "pay 1: City -> Large City"),
         EFF_CITY_DEVELOPMENT_1E: ("pay 1: Farming Village -> City", "pay 2: City -> Large City"),
         EFF_MAGIC_TALISMAN: ("exile a Calamity from hand", "exile a Calamity from the discard pile",
                              "Action/Succession from the discard pile to hand"),
         EFF_LIBRARY_1E: ("2 non-Succession cards from the discard pile to the deck bottom", "draw 1 card"),
         EFF_SLASH_AND_BURN: ("gain a Curse: Farming Villages yield 2 coins this turn",),
         EFF_BURIED_TREASURE_1E: ("gain the supply's bottom card (else it leaves the game)",),
         EFF_HIDEOUT_1E: ("the face-up cards on top of the deck to the hand",),
         EFF_BUY_FROM_OPPONENTS: ("from the market",) + tuple(
             f"{where} of the player {j} seat{'s' if j > 1 else ''} after you (cost + 1)" for j in (1, 2, 3)
             for where in ("from the discard pile", "from the face-up deck top", "kept in the domain")),
         EFF_CURSE_WITCH: ("pay 1 coin", "exile an Action/Succession card from hand",
                           "every opponent gains a Curse", "draw 2 cards")}

# ---- ruleset vector R -----------------------------------------------------------------------
R_EDITION = 2           # 2 or 1
R_JUDGEMENT = 3         # JUDGE_*
R_TIE = 4               # TIE_*
R_KEEP_TIMING = 5       # KEEP_*
R_INSTANT_30 = 6
R_TURN_CAP = 7
R_MARKET_MODE = 8       # MARKET_*
R_MARKET_SIZE = 9       # kinds showing in the random market (8)
R_SUPPLY_KINDS = 10     # common kinds drawn into the supply (10)
R_WIN_SP = 11           # 20
R_OVERTIME_SP = 12      # 30
R_DUKE = 13             # card ids of the judgement piles (-1 where unused)
R_SENATOR = 14
R_COURT_MAID = 15
R_CURSE = 16
R_HAND_SIZE = 17        # 5
R_N_POOL = 18           # princesses in the pool
R_N_PILES = 19          # candidate common piles (random) or chosen piles (fixed)
R_FARMING_VILLAGE = 20
R_CITY = 21
R_LARGE_CITY = 22
R_MARKET_ALWAYS = 23    # random market: the first so many candidate piles are always drawn (--with)
R_SEATING = 24          # SEATING_*: how the players come to their seats
R_APPRENTICE_MAID = 25  # card id of the Apprentice Maid (the hand-elimination variant counts them)
R_POOL = 32             # R_POOL + i: princess card ids, pool order
R_PILES = 48            # R_PILES + i: a representative card id of each candidate common pile

JUDGE_THREE_PILES = 0
JUDGE_DUKE_ONLY = 1
TIE_LATER_SEAT = 0
TIE_SHARED = 1
KEEP_CLEANUP = 0
KEEP_MAIN = 1
MARKET_BASIC = 0
MARKET_RANDOM = 1
MARKET_FIXED = 2
SEATING_LINEUP = 0              # the players sit in the lineup's order (every game's default)
SEATING_HAND_ELIMINATION = 1    # 1E variant: each picks 5 of the 10 starting cards as the opening hand,
                                # the most Apprentice Maids shown goes first (EFF_HAND_ELIMINATION)
SEATINGS = {"lineup": SEATING_LINEUP, "hand_elimination": SEATING_HAND_ELIMINATION}

# ---- state header s[H_*] --------------------------------------------------------------------
# (H_NP, H_NC, H_LEN, H_CUR, H_CTX, H_DECIDER, H_TURNS, H_END, H_WINNER, H_WIN_MASK, H_SEED, H_STEPS
# and H_OFF_STATS are the slots every game shares: hoc.engine.layout)
H_DCAP = 2
H_SCAP = 3
H_OFF_PLAYER = 4
H_OFF_HAND = 5
H_OFF_DISCARD = 6
H_OFF_DOMAIN = 7
H_OFF_KEPT = 8
H_OFF_DECK = 9
H_OFF_PLAY = 10
H_OFF_MARKET = 11
H_OFF_ABROAD = 12
H_OFF_SUPPLY = 13
H_OFF_STACK = 14
H_RNG = 16              # market / supply random stream (64 bits in 2 slots)
H_PHASE = 19
H_COINS = 22
H_OPEN = 23             # open plays
H_PLAYED = 24           # cards played this turn
H_OVERTIME = 29
H_EXTRA_PENDING = 30    # extra turns to take after this one (Twins; 2E: at most 1)
H_IN_EXTRA = 31
H_DEPTH = 32            # effect stack depth
H_MODE = 33             # second phase: MODE_*
H_SUPPLY_N = 34
H_USED = 35             # once-per-turn abilities used (bitmask)
H_MARKET_DIRTY = 39
H_CH_KIND = 40          # pending effect choice: CH_*
H_CH_TYPES = 41         # type filter (bitmask, 0 = any)
H_CH_MAX = 42           # cost limit or number limit
H_CH_OPT = 43           # 1 if PASS (decline) is legal
H_CH_MIN = 44
H_DOMAIN_USED = 45      # abilities of domain cards (TRIG_DOMAIN) used this Main phase: one use per copy
H_OFF_OWNED = 46        # per player, per card: copies owned (changes only by gain and exile)
H_OFF_SCRATCH = 47      # NCMAX ints of scratch space for kernels (they never allocate)
H_OFF_ACTIVE = 48       # the cards that exist in this game, in id order (hot loops visit only these)
H_NACTIVE = 49
H_ACTION_BONUS = 50      # this turn: extra coins for each Action played (Library)
H_SUCC_RED = 51          # this turn: cost reduction of Succession cards (Ball; floor 2)
H_CH_NOT = 52            # pending choice: types the chosen card must not have
H_CH_FLAGS = 53          # pending choice: card flags the chosen card must have (0: none)
H_CH_CARD = 54           # pending choice: the only card allowed (-1: any)
H_CH_EXCEPT = 55         # pending choice: a card not allowed (-1: none)
H_CH_N = 56              # pending choice: CH_MODE bitmask of available modes; CH_DECK_TOP window
H_WITCH_N = 57           # this turn: Charm Witches resolved (their type masks follow)
H_WITCH = 58             # up to MAX_WITCHES masks: types | subtypes << 8 of the cards they made discard
MAX_WITCHES = 6
H_REVEALED = 64          # face-up cards on top of the supply (Buried Treasure), the topmost last revealed
H_REVEALED_AT = 65       # the turn (H_TURNS) of the latest reveal
H_CH_GOOD = 66           # pending choice: 1 if the chosen card is one the chooser gains (else loses)
H_N_KINDS = 68           # common kinds in this game's supply (0 for the basic market)
H_KINDS = 69             # MAX_KINDS slots: a representative card id of each of those kinds
H_PLAY_MASK = 79         # 2 slots: bit c set for every card c put into the play area this turn (a
                         # superset of the cards there: cleanup and the move to the discard pile walk it)
H_CLEANUP_CARDS = 81     # 2 slots: bit c set for every card of the table whose text acts at the start
                         # of the Cleanup phase (1 << TRIG_CLEANUP in F_TRIGGERS)
H_REVEALED_NEW = 83      # how many of the face-up supply cards were revealed in turn H_REVEALED_AT: the
                         # topmost ones; in that turn they are in the market and cost 3 less
H_FREE_CARDS = 84        # 1 if a card that can be in the market is printed at cost 0 (only by an override)
H_TURN_FLAGS = 85        # this turn: TF_* bits set by cards played (1E Purveyor, Slash-and-Burn Farming)
H_SHIELD = 86            # 4 slots, by seat: Ramparts revealed against the Attack being resolved (1E Defense)
H_CH_OWNER = 90          # pending choice: the seat whose zone the question reads (the decider unless an
                         # effect asks about another player's deck top or kept cards)
H_DEBT = 91              # 4 slots, by seat: debt counters in the player's Moneylender area (1E)
H_DEBT_NEW = 95          # this turn: debt counters the turn player's Moneylenders put there at the turn's end
# (the ruleset vector, the card table, the lineup and the legal-action scratch follow the header:
# hoc.engine.layout)

# the seating block, the first of the game's own regions (at DYNAMIC, before the player blocks): where
# each player sits. A player keeps its number (its lineup slot) all game; its position is its place in
# turn order around the table (0 plays first, then clockwise). Under the lineup seating the position is
# the player's number; the hand-elimination variant sets them before the first turn.
SEAT_ORDER = DYNAMIC            # MAX_SEATS slots: the player at each position
SEAT_POS = DYNAMIC + MAX_SEATS  # MAX_SEATS slots: each player's position
SEATING_LEN = 2 * MAX_SEATS

# per-player block s[off_player + p * PSZ + P_*]
P_PRINCESS = 0
P_DECK_N = 1
P_HAND_N = 2
P_DISCARD_N = 3
P_SP = 4
P_TURNS = 5
P_DECLARED = 6
P_ROUND = 7             # bitmask of other seats that completed a turn since the declaration
P_COIN_CTR = 8
P_HANDY_CTR = 9
P_TWIN_CTR = 10
P_SUCC_CTR = 11
P_OUT = 12              # eliminated in overtime
P_BACK_TURN = 13
P_RNG = 14              # deck shuffles (64 bits in 2 slots)
P_ARNG = 16             # the agent's own randomness (64 bits in 2 slots)
P_HAND_PLAYABLE = 18
P_HAND_SUCC = 19
P_HAND_ACTION = 20
P_DOMAIN_N = 21
P_KEPT_N = 22
P_OWNED_N = 23
P_AT30 = 24             # step at which the player last reached the overtime SP (0: below it)
P_DOMAIN_ABILITIES = 25 # cards in the domain with an ability (TRIG_DOMAIN: Attendant Maid Lily), kept with the SP
# zone masks (2 slots each, card ids 0..31 then 32..63), so zone-wide moves visit only the cards there:
P_HAND_MASK = 26        # bit c set exactly when the hand holds c
P_DISCARD_MASK = 28     # bit c set at least when the discard pile holds c (cleared by a reshuffle)
P_DOMAIN_MASK = 30      # bit c set at least when the domain holds c (scoring walks it)
PSZ = 32

STACK_FRAME = 8         # effect, trigger, step, a, b, player, c, d

STACK_DEPTH = 8           # cleanup alone can stack 4 frames (three set-at-cleanup kinds and Supply Unit)

# phases
PH_START = 0
PH_MAIN = 1
PH_SECOND = 2
PH_CLEANUP = 3
PH_KEEP = 4
PH_DRAW = 5
PH_DECLARE = 6
PH_END = 7
PH_OVER = 8

# decision contexts
CTX_NONE = 0
CTX_MAIN = 1
CTX_SECOND = 2
CTX_KEEP = 3
CTX_DECLARE = 4
CTX_EFFECT = 5

MODE_NONE = 0
MODE_BUYING = 1
MODE_SETTING = 2

# effect choice kinds
# A card choice takes a card of the named zone that has one of the types H_CH_TYPES (0: any),
# none of the types H_CH_NOT, and a printed cost between H_CH_MIN and H_CH_MAX.
CH_HAND = 1             # a card in the decider's hand
CH_DISCARD = 2          # a card in the decider's discard pile
CH_MARKET = 3           # a card in the market
CH_NUMBER = 4           # NUMBER n with H_CH_MIN <= n <= H_CH_MAX
CH_PLAY = 5             # a card in the play area
CH_MODE = 6             # "choose one": NUMBER n picks mode n, for n in the bitmask H_CH_N (see MODES)
CH_DECK_TOP = 7         # one of the top H_CH_N cards of the decider's deck
CH_KEPT = 8             # a card kept in the decider's domain
CH_DOMAIN = 9           # a card in the domain of seat H_CH_OWNER (1E Gossip-Loving Duchess)

END_NONE = 0
END_CORONATION = 1
END_OVERTIME = 2
END_JUDGEMENT = 3
END_TURN_CAP = 4
END_INSTANT_30 = 5      # only with the instant_win_at_30 option: 30 SP outside overtime
END_REASONS = {END_CORONATION: "coronation", END_OVERTIME: "overtime",
               END_JUDGEMENT: "judgement", END_TURN_CAP: "turn_cap", END_INSTANT_30: "instant_30"}

USED_PRINCESS = 1
TF_BUYS_TO_DECK_BOTTOM = 1   # 1E Purveyor: cards bought this turn go face up to the bottom of the deck
TF_VILLAGES_YIELD_2 = 2      # 1E Slash-and-Burn Farming: Farming Villages yield 2 coins this turn
TF_BUY_FROM_OPPONENTS = 4    # Action cards of opponents' discard piles, face-up deck tops and kept cards can be
                             # bought this turn, for their cost + 1 (buying.py; set by 1E Bribery)

# ---- the action space (fixed; NCMAX card slots per verb) ------------------------------------
A_PASS = 0
A_DECLARE = 1
A_COIN = 2              # spend one coin counter
A_ABILITY = 3           # the backed princess's activation ability
A_DOMAIN_ABILITY = 4    # the ability of a card in the domain (TRIG_DOMAIN: Attendant Maid Lily; 1E Imperial Estate)
A_HAND_ABILITY = 5      # 1E Curse Witch: exile a card with FL_EXILE_FROM_HAND from hand for its text
A_NUMBER = 8            # A_NUMBER + n, n = 0..NUMBER_MAX
NUMBER_MAX = 15
A_PLAY = 32
A_RECALL = A_PLAY + NCMAX
A_BUY = A_RECALL + NCMAX
A_BACK = A_BUY + NCMAX
A_SET = A_BACK + NCMAX
A_KEEP = A_SET + NCMAX
A_CHOOSE = A_KEEP + NCMAX
N_ACTIONS = A_CHOOSE + NCMAX
CARD_VERBS = {A_PLAY: "play", A_RECALL: "recall", A_BUY: "buy", A_BACK: "back", A_SET: "set",
              A_KEEP: "keep", A_CHOOSE: "choose"}

assert N_ACTIONS <= MAX_ACTIONS

# the result row is hoc.engine.layout's: a seat's score (RES_SCORE) is its SP, and its two extras
# (RES_EXTRA) the princess it backed (card id, -1: none) and the turn it backed her (0: never)
RES_PRINCESS = RES_EXTRA
RES_BACK_TURN = RES_EXTRA + 1
