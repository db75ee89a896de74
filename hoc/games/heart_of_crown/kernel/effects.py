"""Which routine runs a card's text, and running the effect stack until it needs a decision.

Each card's text is one routine (in `princesses.py` or `commons.py`); the card data names it and
`dispatch` maps the name's id to the routine."""
import numpy as np

from hoc.engine.jit import kernel
from hoc.games.heart_of_crown.kernel.choice import DONE, FR_EFF
from hoc.games.heart_of_crown.kernel.commons import (
    eff_adventurer, eff_ball, eff_bank, eff_bank_1e, eff_buried_treasure_1e, eff_conscription_writ,
    eff_library_1e, eff_purveyor_1e, eff_royal_guard_1e, eff_scout_1e, eff_slash_and_burn,
    eff_stargazing_witch_1e, eff_rampart_1e, eff_hideout_1e, eff_magic_talisman_1e, eff_battering_ram_1e,
    eff_charm_witch_1e, eff_curse_witch_1e, eff_gossip_duchess_1e, eff_moneylender, eff_shinobi, eff_bribery, eff_battering_ram, eff_buried_treasure, eff_city_development,
    eff_curse_witch, eff_domain_raid, eff_donation, eff_draw, eff_hand_attack, eff_handyman,
    eff_hideout, eff_land_reclamation, eff_library, eff_lily, eff_magic_talisman, eff_minnyan, lily_ready,
    eff_rampart, eff_royal_guard, eff_scout, eff_set_on_buy, eff_sharifa, eff_stargazing_witch,
    eff_supply_unit, eff_trading_ship, eff_wishing_well,
)
from hoc.games.heart_of_crown.kernel.constants import (
    EFF_ADVENTURER, EFF_BACK, EFF_BALL, EFF_BANK, EFF_BANK_1E, EFF_CITY_DEVELOPMENT_1E,
    EFF_BURIED_TREASURE_1E, EFF_CONSCRIPTION_WRIT, EFF_LIBRARY_1E, EFF_PURVEYOR_1E, EFF_ROYAL_GUARD_1E,
    EFF_SCOUT_1E, EFF_SLASH_AND_BURN, EFF_STARGAZING_WITCH_1E, EFF_DEFEND, EFF_RAMPART_1E, EFF_HIDEOUT_1E,
    EFF_MAGIC_TALISMAN_1E, EFF_BATTERING_RAM_1E, EFF_CHARM_WITCH_1E, EFF_CURSE_WITCH_1E, EFF_GOSSIP_DUCHESS_1E,
    EFF_MONEYLENDER, EFF_SHINOBI, EFF_BRIBERY, EFF_BUY_FROM_OPPONENTS, EFF_HAND_ELIMINATION, EFF_BATTERING_RAM, EFF_BERGAMOT, EFF_BURIED_TREASURE,
    EFF_CHARM_WITCH, EFF_CITY_DEVELOPMENT, EFF_CURSE_WITCH, EFF_DONATION, EFF_DRAW_1, EFF_DRAW_2,
    EFF_FLAMMARIA, EFF_GOSSIP_DUCHESS, EFF_HANDYMAN, EFF_HIDEOUT, EFF_HUNTED_BEAST,
    EFF_INFANTRY_BATTALION, EFF_LAND_RECLAMATION, EFF_LAOLILY, EFF_LIBRARY, EFF_LILY,
    EFF_MAGIC_TALISMAN, EFF_MINNYAN, EFF_PETIT, EFF_RAMPART, EFF_ROYAL_GUARD, EFF_SCOUT,
    EFF_SET_AT_CLEANUP, EFF_SET_ON_BUY, EFF_SHARIFA, EFF_STARGAZING_WITCH, EFF_SUPPLY_UNIT,
    EFF_TRADING_SHIP, EFF_TWINS, EFF_WISHING_WELL, F_EFFECT, F_TRIGGERS, H_DOMAIN_USED, P_DOMAIN_ABILITIES,
    P_DOMAIN_MASK, P_PRINCESS, TRIG_DOMAIN, TY_ACTION, TY_SUCCESSION, TY_TERRITORY,
)
from hoc.games.heart_of_crown.kernel.buying import eff_buy_from_opponents
from hoc.games.heart_of_crown.kernel.defense import eff_defend
from hoc.games.heart_of_crown.kernel.seating import eff_hand_elimination
from hoc.games.heart_of_crown.kernel.princesses import (
    bergamot_ready, bergamot_worth, eff_back, eff_bergamot, eff_flammaria, eff_laolily, eff_set_at_cleanup,
    eff_twins, twins_ready,
)
from hoc.games.heart_of_crown.kernel.state import card, domain, lowest, mask_load, pb

ONE = np.uint64(1)


@kernel
def ability_ready(s, p):
    """The backed princess's activation ability can be used now (Main phase): her routine's `_ready`
    (princesses.py); False for a princess without one."""
    pr = s[pb(s, p) + P_PRINCESS]
    if pr < 0:
        return False
    eff = card(s, pr, F_EFFECT)
    if eff == EFF_BERGAMOT:
        return bergamot_ready(s, p)
    if eff == EFF_TWINS:
        return twins_ready(s, p)
    return False


@kernel
def ability_worth(s, p):
    """Using p's princess's ability (ready) now does more than pay its cost, as a player who does not
    look ahead judges it: her routine's `_worth` (princesses.py); True for an ability whose effect
    always acts (the Twins' extra turn)."""
    if card(s, s[pb(s, p) + P_PRINCESS], F_EFFECT) == EFF_BERGAMOT:
        return bergamot_worth(s, p)
    return True


@kernel
def domain_ability_card(s, p):
    """The card in p's domain whose ability (TRIG_DOMAIN) A_DOMAIN_ABILITY uses, -1 if none. One action
    serves every such card: an edition has one kind of them (Attendant Maid Lily; 1E Imperial Estate,
    whose text is hers), so the lowest id is the one."""
    d = domain(s, p)
    m = mask_load(s, pb(s, p) + P_DOMAIN_MASK)
    while m:
        c = lowest(m)
        m &= m - ONE
        if s[d + c] > 0 and card(s, c, F_TRIGGERS) & (1 << TRIG_DOMAIN):
            return c
    return -1


@kernel
def domain_ability_ready(s, p):
    """A card in p's domain has an ability p can still use this Main phase (one use a copy), and its
    routine's `_ready` says it can be paid for now."""
    if s[pb(s, p) + P_DOMAIN_ABILITIES] <= s[H_DOMAIN_USED]:
        return False
    if card(s, domain_ability_card(s, p), F_EFFECT) == EFF_LILY:
        return lily_ready(s, p)
    return True


@kernel
def dispatch(s, fr, a):
    """Run the routine of the frame's effect: the 2nd edition's texts and the built-in steps, which
    the 1st edition shares (its own texts: `dispatch_1e`)."""
    e = s[fr + FR_EFF]
    if e == EFF_BACK:
        return eff_back(s, fr, a)
    if e == EFF_SET_AT_CLEANUP:
        return eff_set_at_cleanup(s, fr, a)
    if e == EFF_LAOLILY:
        return eff_laolily(s, fr, a)
    if e == EFF_FLAMMARIA:
        return eff_flammaria(s, fr, a)
    if e == EFF_TWINS:
        return eff_twins(s, fr, a)
    if e == EFF_BERGAMOT:
        return eff_bergamot(s, fr, a)
    if e == EFF_DRAW_1:
        return eff_draw(s, fr, a, 1)
    if e == EFF_DRAW_2:
        return eff_draw(s, fr, a, 2)
    if e == EFF_TRADING_SHIP:
        return eff_trading_ship(s, fr, a)
    if e == EFF_BANK:
        return eff_bank(s, fr, a)
    if e == EFF_LIBRARY:
        return eff_library(s, fr, a)
    if e == EFF_DONATION:
        return eff_donation(s, fr, a)
    if e == EFF_BALL:
        return eff_ball(s, fr, a)
    if e == EFF_WISHING_WELL:
        return eff_wishing_well(s, fr, a)
    if e == EFF_SCOUT:
        return eff_scout(s, fr, a)
    if e == EFF_HIDEOUT:
        return eff_hideout(s, fr, a)
    if e == EFF_RAMPART:
        return eff_rampart(s, fr, a)
    if e == EFF_HANDYMAN:
        return eff_handyman(s, fr, a)
    if e == EFF_CITY_DEVELOPMENT:
        return eff_city_development(s, fr, a)
    if e == EFF_ADVENTURER:
        return eff_adventurer(s, fr, a)
    if e == EFF_MAGIC_TALISMAN:
        return eff_magic_talisman(s, fr, a)
    if e == EFF_STARGAZING_WITCH:
        return eff_stargazing_witch(s, fr, a)
    if e == EFF_SUPPLY_UNIT:
        return eff_supply_unit(s, fr, a)
    if e == EFF_SET_ON_BUY:
        return eff_set_on_buy(s, fr, a)
    if e == EFF_SHARIFA:
        return eff_sharifa(s, fr, a)
    if e == EFF_PETIT:
        return eff_domain_raid(s, fr, a, False)
    if e == EFF_GOSSIP_DUCHESS:
        return eff_domain_raid(s, fr, a, True)
    if e == EFF_MINNYAN:
        return eff_minnyan(s, fr, a)
    if e == EFF_LILY:
        return eff_lily(s, fr, a)
    if e == EFF_INFANTRY_BATTALION:
        return eff_hand_attack(s, fr, a, TY_TERRITORY, 0, False)
    if e == EFF_HUNTED_BEAST:
        return eff_hand_attack(s, fr, a, 0, 5, True)
    if e == EFF_CHARM_WITCH:
        return eff_hand_attack(s, fr, a, TY_ACTION | TY_SUCCESSION, 0, True)
    if e == EFF_ROYAL_GUARD:
        return eff_royal_guard(s, fr, a)
    if e == EFF_LAND_RECLAMATION:
        return eff_land_reclamation(s, fr, a)
    if e == EFF_CURSE_WITCH:
        return eff_curse_witch(s, fr, a)
    if e == EFF_BATTERING_RAM:
        return eff_battering_ram(s, fr, a)
    if e == EFF_BURIED_TREASURE:
        return eff_buried_treasure(s, fr, a)
    return DONE


@kernel
def dispatch_1e(s, fr, a):
    """Run the routine of the frame's effect, one of the 1st edition's own (EFF_* from FIRST_1E on).
    A game of the 2nd edition never reaches these, so its loops do not compile them
    (`hoc.games.heart_of_crown.kernel.turn.edition_rules`)."""
    e = s[fr + FR_EFF]
    if e == EFF_CITY_DEVELOPMENT_1E:
        return eff_city_development(s, fr, a)
    if e == EFF_BANK_1E:
        return eff_bank_1e(s, fr, a)
    if e == EFF_STARGAZING_WITCH_1E:
        return eff_stargazing_witch_1e(s, fr, a)
    if e == EFF_LIBRARY_1E:
        return eff_library_1e(s, fr, a)
    if e == EFF_PURVEYOR_1E:
        return eff_purveyor_1e(s, fr, a)
    if e == EFF_ROYAL_GUARD_1E:
        return eff_royal_guard_1e(s, fr, a)
    if e == EFF_SCOUT_1E:
        return eff_scout_1e(s, fr, a)
    if e == EFF_CONSCRIPTION_WRIT:
        return eff_conscription_writ(s, fr, a)
    if e == EFF_SLASH_AND_BURN:
        return eff_slash_and_burn(s, fr, a)
    if e == EFF_BURIED_TREASURE_1E:
        return eff_buried_treasure_1e(s, fr, a)
    if e == EFF_DEFEND:
        return eff_defend(s, fr, a)
    if e == EFF_RAMPART_1E:
        return eff_rampart_1e(s, fr, a)
    if e == EFF_HIDEOUT_1E:
        return eff_hideout_1e(s, fr, a)
    if e == EFF_MAGIC_TALISMAN_1E:
        return eff_magic_talisman_1e(s, fr, a)
    if e == EFF_BATTERING_RAM_1E:
        return eff_battering_ram_1e(s, fr, a)
    if e == EFF_CHARM_WITCH_1E:
        return eff_charm_witch_1e(s, fr, a)
    if e == EFF_CURSE_WITCH_1E:
        return eff_curse_witch_1e(s, fr, a)
    if e == EFF_GOSSIP_DUCHESS_1E:
        return eff_gossip_duchess_1e(s, fr, a)
    if e == EFF_MONEYLENDER:
        return eff_moneylender(s, fr, a)
    if e == EFF_SHINOBI:
        return eff_shinobi(s, fr, a)
    if e == EFF_BRIBERY:
        return eff_bribery(s, fr, a)
    if e == EFF_BUY_FROM_OPPONENTS:
        return eff_buy_from_opponents(s, fr, a)
    if e == EFF_HAND_ELIMINATION:
        return eff_hand_elimination(s, fr, a)
    return DONE
