"""What one seat sees at the table, as plain data: the view `hoc play` prints at the terminal and the
web table (`hoc serve`) draws in the browser, built once here so the two show the same.

A seat sees its own hand, deck size and the cards face up on it; every seat's domain, kept cards, SP,
counters and discard pile (discard piles are public, see RULINGS); the other seats' hand and deck
sizes only; the market with this seat's prices; the play area, coins and open plays of the turn;
and, when it decides, the question and its legal actions in the play's words. A replay's viewer
(`viewer=None`) sees every hand. Cards are given by id (`card`), printed name (`name`) and count
(`n`), so a front end can show a card's text without naming cards itself.
"""
from __future__ import annotations

from hoc.games.heart_of_crown.kernel import constants as K
from hoc.games.heart_of_crown.replay import CHOICE_ZONES, Decision

TABLE_VIEW = -1         # a viewer with no seat: the table as everyone sees it (between hot-seat players)


def card_names(db, zone: dict[str, int]) -> str:
    """'3 Farming Villages, Court Maid' ('none' when empty)."""
    return ", ".join(c["label"] for c in entries(db, zone)) or "none"


def entries(db, zone: dict[str, int]) -> list[dict]:
    """A zone's cards as [{card, name, n, label}] in the zone's order; label: 'Court Maid', '3 Farming
    Villages', as `card_names` lists them."""
    return [{"card": c, "name": db.english(db.index(c)), "n": int(n),
             "label": db.english(db.index(c)) if n == 1 else db.count(db.index(c), n)} for c, n in zone.items()]


def _card(db, card: str | None) -> dict | None:
    return None if not card else {"card": card, "name": db.english(db.index(card))}


def title(teller, p: int) -> str:
    g = teller.game
    flags = (", extra turn" if g.extra_turn else "") + (", overtime" if g.overtime else "")
    whose = "your turn" if g.turn_player == p else f"seat {g.turn_player}'s turn"
    return f"Turn {g.turns}, {whose}{flags}: seat {p} ({teller.agents[p].name}) decides, {g.phase} phase"


def counter_text(game, q: int) -> str:
    parts = [f"{n} {what}" for n, what in game.counters(q).parts() if n]
    return ", ".join(parts) or "-"


def question(teller) -> str:
    """The pending question in the play's words."""
    g, db = teller.game, teller.db
    if g.context == "card choice":
        d = Decision(g, K.A_PASS)
        if d.effect[0] == K.EFF_HAND_ELIMINATION:
            picked = sum(g.hand(g.decider).values())
            return (f"Before the first turn (hand elimination): pick card {picked + 1} of the 5 of your opening "
                    f"hand from your starting cards; the rest are your deck. The hands are then shown: the most "
                    f"Apprentice Maids plays first, the others follow in descending order")
        what = ("choose one" if d.choice == K.CH_MODE else
                f"choose a card {CHOICE_ZONES[d.choice]}" if d.choice in CHOICE_ZONES else "choose a number")
        text = db.text(d.effect[1]) if d.effect[1] >= 0 else ""
        return f"Card choice ({teller.cause(*d.effect)}): {what}" + (f"\n  ({text})" if text else "")
    if g.context == "second phase":
        return f"Second phase ({g.second_phase}): buy, back a princess or set"
    return {"main phase": "Main phase: play cards", "keep": "Cleanup: keep Action cards on your Territories",
            "coronation": "Declare coronation?"}.get(g.context, g.context)


def readable(teller, a) -> str:
    """An action as the list shows it: the card's printed name and, to buy or back, its price."""
    g, db = teller.game, teller.db
    if a.card is None:
        return g.label(a)
    name = db.english(db.index(a.card))
    if a.verb == "buy":
        return f"buy {name} ({teller.coins(g.price(a.card))})"
    if a.verb == "back":
        return f"back {name} ({teller.coins(db[a.card].cost)})"
    if a.verb == "choose":
        zone = CHOICE_ZONES.get(Decision(g, a).choice, "")
        return f"choose {name} {zone}".rstrip()
    return f"{a.verb} {name}"


def actions(teller) -> list[dict]:
    """The legal actions of the pending decision: id, label (what `Game.parse` reads), the list's text
    and the card named (or None)."""
    return [{"action": int(a), "label": teller.game.label(a), "text": readable(teller, a), "verb": a.verb,
             "card": a.card} for a in teller.game.legal_actions()]


def seat_view(teller, viewer: int | None) -> dict:
    """The table as `viewer` sees it (a seat; `TABLE_VIEW` for no seat; None for a replay, which sees
    every hand). The question and actions are given when the viewer decides now (or is None)."""
    g, db = teller.game, teller.db
    price_for = viewer if viewer is not None and viewer >= 0 else g.turn_player
    market = [{"card": c, "name": db.english(db.index(c)), "price": int(g.price(c, price_for)), "left": int(n)}
              for c, n in g.market().items() if db[c].category != "princess"]
    supply = g.supply()
    seats = []
    for q in range(g.players):
        deck = g.deck_face_up(q)
        sees = viewer is None or viewer == q
        seats.append({
            "seat": q, "agent": teller.agents[q].name, "you": viewer == q, "princess": _card(db, g.princess(q)),
            "sp": int(g.sp(q)), "declared": bool(g.declared(q)), "out": bool(g.knocked_out(q)),
            "hand": int(sum(g.hand(q).values())), "deck": len(deck), "deck_top": _card(db, deck[0] if deck else None),
            "deck_face_up": entries(db, dict.fromkeys([c for c in deck if c], 1)) if sees else None,
            "discard": int(sum(g.discard_pile(q).values())), "counters": counter_text(g, q),
            "domain": entries(db, g.domain(q)), "kept": entries(db, g.kept(q)),
            "discard_pile": entries(db, g.discard_pile(q)),
            "hand_cards": entries(db, g.hand(q)) if sees else None,
        })
    top = g.supply_top() if supply else None
    deciding = not g.over and (viewer is None or viewer == g.decider)
    return {
        "turn": int(g.turns), "turn_player": int(g.turn_player), "decider": None if g.over else int(g.decider),
        "phase": g.phase, "context": g.context, "extra_turn": bool(g.extra_turn), "overtime": bool(g.overtime),
        "over": bool(g.over), "viewer": viewer,
        "title": title(teller, viewer) if viewer is not None and viewer >= 0 and not g.over else None,
        "market": market, "princesses": [_card(db, c) for c in g.princesses_available()],
        "supply": {"cards": int(sum(supply.values())), "top": _card(db, top)},
        "play_area": entries(db, g.play_area()), "coins": int(g.coins), "open_plays": int(g.open_plays),
        "cards_played": int(g.cards_played),
        "seats": seats,
        "question": question(teller) if deciding else None,
        "actions": actions(teller) if deciding else [],
    }
