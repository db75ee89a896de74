"""Succession points, coronation, overtime, judgement and the end of the game."""
import numpy as np

from hoc.engine.jit import entry, kernel
from hoc.games.heart_of_crown.kernel.constants import (
    CTX_NONE, END_CORONATION, END_INSTANT_30, END_JUDGEMENT, END_OVERTIME,
    F_SP, F_TRIGGERS, H_CTX, H_END, H_NACTIVE, H_NP, H_OVERTIME, H_PHASE, H_STEPS, H_WINNER,
    H_WIN_MASK, JUDGE_DUKE_ONLY, PH_OVER, P_AT30, P_DECLARED, P_DOMAIN_ABILITIES, P_OUT, P_PRINCESS, P_ROUND,
    P_DOMAIN_MASK, P_SP, P_SUCC_CTR, R_COURT_MAID, R_DUKE, R_INSTANT_30, R_JUDGEMENT, R_OVERTIME_SP, R_SENATOR, R_TIE,
    R_WIN_SP, TIE_SHARED, TRIG_DOMAIN, TRIG_SCORE,
)
from hoc.games.heart_of_crown.kernel.scoring import sp_text
from hoc.games.heart_of_crown.kernel.state import (
    active, card, domain, lowest, market, mask_load, pb, position, rule, sync_masks,
)


@kernel
def finish(s, reason, winner, mask):
    s[H_END] = reason
    s[H_WINNER] = winner
    s[H_WIN_MASK] = mask
    s[H_PHASE] = PH_OVER
    s[H_CTX] = CTX_NONE


@kernel
def domain_sp(s, p):
    """p's SP, counted card by card over the active cards (the invariants check `domain_score` by it)."""
    pr = s[pb(s, p) + P_PRINCESS]
    if pr < 0:
        return 0
    d = domain(s, p)
    total = card(s, pr, F_SP) + s[pb(s, p) + P_SUCC_CTR]
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        n = s[d + c]
        if n:
            total += n * card(s, c, F_SP)
            if card(s, c, F_TRIGGERS) & (1 << TRIG_SCORE):
                total += sp_text(s, p, c, n)
    return total


@kernel
def domain_abilities(s, p):
    """Cards in p's domain with an ability used from there (TRIG_DOMAIN)."""
    d = domain(s, p)
    n = 0
    for i in range(s[H_NACTIVE]):
        c = active(s, i)
        if s[d + c] > 0 and card(s, c, F_TRIGGERS) & (1 << TRIG_DOMAIN):
            n += s[d + c]
    return n


@kernel
def domain_score(s, p):
    """(domain_sp, domain_abilities) in one pass over the domain: each card's printed SP, plus its SP
    text (TRIG_SCORE, scoring.py); the princess's SP and the succession counters."""
    d = domain(s, p)
    total = 0
    abilities = 0
    m = mask_load(s, pb(s, p) + P_DOMAIN_MASK)
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        n = s[d + c]
        if n:
            total += n * card(s, c, F_SP)
            trig = card(s, c, F_TRIGGERS)
            if trig & (1 << TRIG_DOMAIN):
                abilities += n
            if trig & (1 << TRIG_SCORE):
                total += sp_text(s, p, c, n)
    pr = s[pb(s, p) + P_PRINCESS]
    if pr < 0:
        return 0, abilities
    total += card(s, pr, F_SP) + s[pb(s, p) + P_SUCC_CTR]
    return total, abilities


@entry
def domain_changed(s, p):
    """After a Python edit of the zones (`Game.arrange`): re-derive the zone masks from the count
    regions, then re-score p. The kernels call `rescore`."""
    sync_masks(s)
    rescore(s, p)


@kernel
def rescore(s, p):
    """Re-score player p after any change to their domain: cancel a declaration that fell below
    the coronation threshold, and end the game when 30 SP wins at once."""
    b = pb(s, p)
    sp, abilities = domain_score(s, p)
    s[b + P_SP] = sp
    s[b + P_DOMAIN_ABILITIES] = abilities
    if sp < rule(s, R_OVERTIME_SP):
        s[b + P_AT30] = 0
    elif s[b + P_AT30] == 0:
        s[b + P_AT30] = s[H_STEPS] + 1
    if s[H_OVERTIME] == 0:
        if s[b + P_DECLARED] != 0 and sp < rule(s, R_WIN_SP):
            s[b + P_DECLARED] = 0
        if rule(s, R_INSTANT_30) != 0 and sp >= rule(s, R_OVERTIME_SP) and s[H_END] == 0:
            finish(s, END_INSTANT_30, p, 1 << p)
    elif s[b + P_OUT] == 0 and sp >= rule(s, R_OVERTIME_SP) and s[H_END] == 0:
        finish(s, END_OVERTIME, p, 1 << p)


@kernel
def judgement_due(s):
    if s[H_NP] == 1:           # solo measures turns to coronation: only coronation or the turn cap end it
        return False
    m = market(s)
    if rule(s, R_JUDGEMENT) == JUDGE_DUKE_ONLY:
        return s[m + rule(s, R_DUKE)] == 0
    return s[m + rule(s, R_DUKE)] == 0 and s[m + rule(s, R_SENATOR)] == 0 and s[m + rule(s, R_COURT_MAID)] == 0


@kernel
def judge(s):
    """End by judgement: most SP among live players; ties to the later seat (in turn order) or shared."""
    best = -10 ** 6
    mask = 0
    for q in range(s[H_NP]):
        b = pb(s, q)
        if s[b + P_OUT] != 0:
            continue
        sp = s[b + P_SP]
        if sp > best:
            best = sp
            mask = 1 << q
        elif sp == best:
            mask |= 1 << q
    if rule(s, R_TIE) == TIE_SHARED:
        winner = -1
        n = 0
        for q in range(s[H_NP]):
            if mask & (1 << q):
                n += 1
                winner = q
        if n > 1:
            winner = -1
        finish(s, END_JUDGEMENT, winner, mask)
    else:
        winner = -1
        for q in range(s[H_NP]):         # the latest in turn order
            if mask & (1 << q) and (winner < 0 or position(s, q) > position(s, winner)):
                winner = q
        winner = max(winner, 0)
        finish(s, END_JUDGEMENT, winner, 1 << winner)


@kernel
def check_judgement(s):
    if s[H_END] == 0 and judgement_due(s):
        judge(s)


@kernel
def round_complete(s, p):
    """Every other live player has completed a turn since p declared."""
    need = 0
    for q in range(s[H_NP]):
        if q != p and s[pb(s, q) + P_OUT] == 0:
            need |= 1 << q
    return (s[pb(s, p) + P_ROUND] & need) == need


@kernel
def coronation_check(s, p):
    """At the start of p's regular turn: p's coronation succeeds, or overtime begins."""
    b = pb(s, p)
    if s[H_OVERTIME] != 0 or s[b + P_DECLARED] == 0 or not round_complete(s, p):
        return
    valid = 0
    n = 0
    for q in range(s[H_NP]):
        if s[pb(s, q) + P_DECLARED] != 0:
            valid |= 1 << q
            n += 1
    if n == 1:
        finish(s, END_CORONATION, p, 1 << p)
        return
    s[H_OVERTIME] = 1
    first = -1
    for q in range(s[H_NP]):
        bq = pb(s, q)
        if not valid & (1 << q):
            s[bq + P_OUT] = 1
        elif s[bq + P_AT30] > 0 and (first < 0 or s[bq + P_AT30] < s[pb(s, first) + P_AT30]):
            first = q
    # a declarer who already passed the overtime SP before overtime began has reached it first
    if first >= 0:
        finish(s, END_OVERTIME, first, 1 << first)


@kernel
def may_declare(s, p):
    b = pb(s, p)
    return (s[H_OVERTIME] == 0 and s[b + P_DECLARED] == 0 and s[b + P_PRINCESS] >= 0
            and s[b + P_SP] >= rule(s, R_WIN_SP))


@kernel
def declare(s, p):
    b = pb(s, p)
    s[b + P_DECLARED] = 1
    s[b + P_ROUND] = 0


@kernel
def turn_completed(s, p):
    """p finished a turn: it counts toward every other declarer's round."""
    for q in range(s[H_NP]):
        if q != p and s[pb(s, q) + P_DECLARED] != 0:
            s[pb(s, q) + P_ROUND] |= 1 << p
