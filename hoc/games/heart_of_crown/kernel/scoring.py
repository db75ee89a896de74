"""Card texts that change what a card in the domain is worth (Attendant Maid Honoka).

Each is a pure function of the domain, named after the card's routine, whose triggers include
TRIG_SCORE; `endgame.domain_score` adds what it returns to the printed SP whenever a domain is scored.
They live apart from commons.py because scoring sits below the zones and the routines (every change
of a domain re-scores it), and `sp_text` maps the routine's id to its function as `effects.dispatch`
maps it to the routine."""
import numpy as np

from hoc.engine.jit import kernel
from hoc.games.heart_of_crown.kernel.constants import EFF_HONOKA, F_EFFECT, F_SUB, P_DOMAIN_MASK, SUB_MAID
from hoc.games.heart_of_crown.kernel.state import card, domain, lowest, mask_load, pb

ONE = np.uint64(1)


@kernel
def honoka_sp(s, p, n):
    """Attendant Maid Honoka: 4 SP instead of 2 while she is the only Maid (Apprentice, Court or
    Attendant) in the domain, so 2 more than printed; two Honokas are each other's other Maid."""
    if n != 1:
        return 0
    d = domain(s, p)
    maids = 0
    m = mask_load(s, pb(s, p) + P_DOMAIN_MASK)
    while m:
        c = lowest(m)
        m &= m - ONE
        if card(s, c, F_SUB) & SUB_MAID:
            maids += s[d + c]
    return 2 if maids == 1 else 0


@kernel
def sp_text(s, p, c, n):
    """The SP that the n copies of card c in p's domain add to their printed SP, by c's routine."""
    if card(s, c, F_EFFECT) == EFF_HONOKA:
        return honoka_sp(s, p, n)
    return 0
