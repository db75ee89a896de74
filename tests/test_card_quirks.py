"""A card's quirks live in its data row and its routine (issue 45): the turn loop, the end of the game, the
priority-list agent, the turn planner and the replay's telling know no card's routine by its id.

What they need of cards goes through a general hook instead: the card data's moments (`F_TRIGGERS`:
TRIG_DOMAIN for an ability used from the domain, TRIG_SCORE for an SP text), its `on_buy` routine
(`F_ON_BUY`), a princess routine's `_ready` and `_worth` (mapped by `effects.py` as `dispatch` maps
routines), the buying step (`buying.py`), and the replay's table of how routines are told (`TELLING`).
The modules are parsed with `ast`; `ALLOWED` lists the ids a module may still name, each with its reason.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hoc.games.heart_of_crown.cards import CardDB
from hoc.games.heart_of_crown.kernel import constants as K

GAME = Path(__file__).resolve().parent.parent / "hoc" / "games" / "heart_of_crown"

# module: the routine ids it may name, and why
ALLOWED = {
    "kernel/turn.py": {
        "EFF_BACK",             # backing a princess is a step of the Second phase, not a card's text
        "EFF_SET_AT_CLEANUP",   # the engine's fixed order of the Cleanup's texts: mandatory sets first
    },
    "kernel/endgame.py": set(),
    "agents/priority_kernel.py": set(),
    "agents/planner.py": set(),
}


def names_used(path: Path) -> set[str]:
    """Every name (or attribute of the constants module) the module's code uses."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.alias):
            found.add(node.asname or node.name)
    return found


@pytest.mark.parametrize("module", sorted(ALLOWED))
def test_turn_loop_scoring_and_agents_name_no_card_routine(module):
    routines = {n for n in names_used(GAME / module) if n.startswith("EFF_")}
    assert routines <= ALLOWED[module], f"{module} names card routines {sorted(routines - ALLOWED[module])}"
    quirks = {n for n in names_used(GAME / module) if n in {
        "A_LILY", "H_LILY_USED", "P_LILIES", "TF_BRIBERY", "FL_SET_ON_BUY", "bribe_sources", "lily_ready",
        "ability_helps"}}
    assert not quirks, f"{module} names {sorted(quirks)}"


def test_the_replay_names_routines_only_in_its_telling_table():
    """replay.py tells a routine's questions from TELLING (data), not by if-chains on its id."""
    tree = ast.parse((GAME / "replay.py").read_text(encoding="utf-8"))
    table = next(node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "TELLING" for t in node.targets))
    inside = {id(n) for n in ast.walk(table)}
    outside = sorted({n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr.startswith("EFF_")
                      and id(n) not in inside})
    assert outside == [], f"replay.py names routines outside TELLING: {outside}"


@pytest.mark.parametrize("edition", ["2e", "1e"])
def test_card_data_holds_the_hooks(edition):
    """The quirks moved out of the engine are card data: the domain ability (Lily; 1E Imperial Estate, the
    same routine), Honoka's SP text, the Attendant Maids' set on buy; no other card has them."""
    db = CardDB(edition)
    T = db.table
    domain = {db.name(c) for c in range(len(db)) if T[c, K.F_TRIGGERS] & 1 << K.TRIG_DOMAIN}
    score = {db.name(c) for c in range(len(db)) if T[c, K.F_TRIGGERS] & 1 << K.TRIG_SCORE}
    on_buy = {db.name(c): int(T[c, K.F_ON_BUY]) for c in range(len(db)) if T[c, K.F_ON_BUY]}
    if edition == "2e":
        assert domain == {"lily"} and score == {"honoka"}
        assert on_buy == {m: K.EFF_SET_ON_BUY for m in ("sharifa", "petit", "honoka", "minnyan", "lily")}
    else:
        assert domain == {"imperial_estate"} and score == set() and on_buy == {}


M2B = ["attendant_maid", "margrave", "imperial_estate", "infantry_battalion", "hunted_beast", "charm_witch",
       "buried_treasure", "donation", "gossip_loving_duchess", "stargazing_witch"]
M1B = ["bribery", "imperial_estate", "shinobi", "moneylender", "slash_and_burn_farming", "purveyor", "hideout",
       "rampart", "magic_talisman", "curse_witch"]


@pytest.mark.parametrize("options, agents, seed, index, told", [
    (dict(market=M2B), "court_politics,bergamot_engine", 8, 1,
     ("uses Attendant Maid Lily", "(just bought)", "at the start of the Cleanup phase",
      "uses the ability of Scholar Princess Bergamotte")),
    (dict(edition="1e", players=3, market=M1B), "random", 4, 1,
     ("uses Imperial Estate", "(Bribery: from where it lies, next)", "does not reveal a Defense card",
      "(Defense against ", "exiles a Curse Witch from the hand: every opponent gains a Curse")),
])
def test_the_replay_tells_the_moved_quirks_from_data(options, agents, seed, index, told):
    """Games where the domain abilities (Lily; 1E Imperial Estate), the set on buy, the Cleanup's sets, a
    princess's ability, a buy from an opponent, a Defense and a from-hand ability are told: the card is
    named from the card data (the one the kernel finds), the wording from TELLING."""
    from hoc.games.heart_of_crown.rules import Ruleset
    from hoc.research.replays import replay
    from hoc.research.simulate import lineup

    ruleset = Ruleset(**options)
    text = "\n".join(replay(ruleset, lineup(agents, ruleset.players), seed, index))
    for words in told:
        assert words in text, words
