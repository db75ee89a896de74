"""A position's worth to a player, read from its cards' printed data: the features of a learned
evaluation (`hoc.games.heart_of_crown.agents.value`) that weighs the Second phase's choice of back,
set or buy.

The features describe each player's standing at the end of a turn by what every later turn is drawn
from: the SP in the domain, the SP still to set, whether a princess is backed, the cards that cycle
(everything owned outside the domain) and what they carry on average (coins, links, cards with a
text, Calamities), and coin counters; the player's own turn number and a few products with it, since
what a backed princess or a rich deck is worth depends on how long the game has to go. No hand, no
deck order: two ends of a turn that differ only by the draw score the same, so the choice between
backing and buying is weighed without determinizing anything. No card is named: every term reads
printed card data and zones.
"""
import tomllib
from pathlib import Path

from hoc.engine.jit import entry, kernel
from hoc.games.heart_of_crown.kernel.constants import (
    F_COINS, F_EFFECT, F_LINKS, F_SP, F_TRIGGERS, F_TYPES, H_NACTIVE, H_NP, P_COIN_CTR, P_HANDY_CTR,
    P_OUT, P_PRINCESS, P_SP, P_TURNS, TRIG_PLAY, TY_CALAMITY, TY_SUCCESSION,
)
from hoc.games.heart_of_crown.kernel.state import active, card, domain, owned, pb

SEAT_TERMS = 9          # per player, see `seat_terms`
NAMES = ("sp", "to_set", "backed", "cycling", "coins_per_card", "links_per_card", "text_share",
         "calamities", "counters")
N_FEATURES = 2 * SEAT_TERMS + 5
FEATURE_NAMES = tuple(f"own_{n}" for n in NAMES) + tuple(f"rival_{n}" for n in NAMES) + (
    "turn", "turn_x_backed", "turn_x_coins_per_card", "turn_x_sp_lead", "turn_x_to_set")


@kernel
def seat_terms(w, q):
    """Player q's terms (names in NAMES), as a tuple."""
    own = owned(w, q)
    dom = domain(w, q)
    b = pb(w, q)
    cycling = 0
    coins = 0
    links = 0
    text = 0
    calamities = 0
    to_set = 0
    for i in range(w[H_NACTIVE]):
        c = active(w, i)
        n = w[own + c] - w[dom + c]
        if n <= 0:
            continue
        ty = card(w, c, F_TYPES)
        cycling += n
        coins += n * card(w, c, F_COINS)
        links += n * card(w, c, F_LINKS)
        if card(w, c, F_EFFECT) != 0 and card(w, c, F_TRIGGERS) & (1 << TRIG_PLAY):
            text += n
        if ty & TY_CALAMITY:
            calamities += n
        if ty & TY_SUCCESSION:
            to_set += n * card(w, c, F_SP)
    per = 1.0 / max(1, cycling)
    return (w[b + P_SP] + 0.0, to_set + 0.0, 1.0 if w[b + P_PRINCESS] >= 0 else 0.0, cycling + 0.0, coins * per,
            links * per, text * per, calamities + 0.0, w[b + P_COIN_CTR] + w[b + P_HANDY_CTR] + 0.0)


@kernel
def rival_terms(w, p):
    """The mean of the other live players' terms."""
    n = 0
    t0 = t1 = t2 = t3 = t4 = t5 = t6 = t7 = t8 = 0.0
    for q in range(w[H_NP]):
        if q != p and w[pb(w, q) + P_OUT] == 0:
            x = seat_terms(w, q)
            t0 += x[0]
            t1 += x[1]
            t2 += x[2]
            t3 += x[3]
            t4 += x[4]
            t5 += x[5]
            t6 += x[6]
            t7 += x[7]
            t8 += x[8]
            n += 1
    k = 1.0 / max(1, n)
    return (t0 * k, t1 * k, t2 * k, t3 * k, t4 * k, t5 * k, t6 * k, t7 * k, t8 * k)


@kernel
def feature(w, p, own, rival, i):
    """Feature i of FEATURE_NAMES, from p's terms and its rivals'."""
    if i < SEAT_TERMS:
        return own[i]
    if i < 2 * SEAT_TERMS:
        return rival[i - SEAT_TERMS]
    t = w[pb(w, p) + P_TURNS] / 10.0
    k = i - 2 * SEAT_TERMS
    if k == 0:
        return t
    if k == 1:
        return t * own[2]
    if k == 2:
        return t * own[4]
    if k == 3:
        return t * (own[0] - rival[0])
    return t * own[1]


@kernel
def weighed(w, p, row, at, scale):
    """The evaluation's log-odds for p in w: the constant row[at] plus each feature times its weight
    row[at + 1 + i], all weights x scale (p's parameter row of the real state `row`)."""
    own = seat_terms(w, p)
    rival = rival_terms(w, p)
    v = row[at] + 0.0
    for i in range(N_FEATURES):
        v += row[at + 1 + i] * feature(w, p, own, rival, i)
    return v / scale


@entry
def position_features(w, p, out):
    """p's features (FEATURE_NAMES) into out[:N_FEATURES] (for fitting the evaluation, and tests)."""
    own = seat_terms(w, p)
    rival = rival_terms(w, p)
    for i in range(N_FEATURES):
        out[i] = feature(w, p, own, rival, i)


WEIGHTS = Path(__file__).parent / "data" / "evaluation.toml"


def weights(path: Path = WEIGHTS) -> list[float]:
    """The shipped evaluation: the constant, then a weight per feature (FEATURE_NAMES order)."""
    data = tomllib.loads(path.read_text())["weights"]
    missing = [n for n in ("const",) + FEATURE_NAMES if n not in data]
    if missing:
        raise ValueError(f"{path}: no weight for {', '.join(missing)}")
    return [float(data["const"])] + [float(data[n]) for n in FEATURE_NAMES]
