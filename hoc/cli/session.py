"""`hoc play`: people play at the terminal against any agents, or against each other on one keyboard.

Each person sees what a player in that seat sees and nothing more: their own hand, deck size and the
cards face up on it; every seat's domain, kept cards, SP, counters and discard pile (discard piles are
public, see RULINGS); the other seats' hand and deck sizes only; the market with this player's prices.
What happened since the person's last decision is told by the replay's own `Teller`, from that seat's
point of view (the other seats' drawn cards are counted, not named), so the feed reads like `hoc
replay`. The game is a `Teller` whose human seats ask the terminal instead of an agent."""
from __future__ import annotations

from typing import Callable

from rich import box
from rich.console import Console
from rich.table import Table as RichTable

from hoc.errors import HocError, IllegalActionError
from hoc.games.heart_of_crown.game import Game
from hoc.games.heart_of_crown import view
from hoc.games.heart_of_crown.replay import Teller, save_game

HUMAN = "human"
TABLE_VIEW = view.TABLE_VIEW    # a viewer with no seat: the table as everyone sees it (between hot-seat players)
HELP = ("'?' shows this and the text of the cards the actions name. Type an action's number or its label "
        "(e.g. 'buy duke', 'play Farming Village', 'pass'); "
        "'? CARD' or '? N' shows a card's text (N: an action's number); 't' shows the whole table again; "
        "'log' shows the whole game so far as you saw it; "
        "'save FILE' saves the game for `hoc replay FILE`; 'q' quits.")


class Quit(Exception):
    """The person asked to stop (or the input ended)."""


def _person(game):
    """A human seat's `play`: the session asks the terminal itself, so an agent's call never comes here."""
    raise HocError("a human seat is played through `hoc play`")


def human_agent():
    from hoc.agents.agent import Agent, no_params

    return Agent(HUMAN, -1, "a person at this terminal", no_params, _person)


def is_human(agent) -> bool:
    return agent.play is _person        # not by name: an agent file may be called human.toml


def seats(names: str, players: int | None):
    """The agents by seat, `human` naming a person's seat; the number of players is the number of
    names unless given (then one name fills every seat)."""
    from hoc.research.simulate import resolve

    given = [n.strip() for n in names.split(",") if n.strip()]
    if not given:
        raise HocError("no agents given: name one per seat, e.g. --agents human,basic_rush")
    if players is not None and len(given) == 1:
        given *= players                # one name fills every seat, as in the other commands
    if players is not None and len(given) != players:
        raise HocError(f"{len(given)} agents for {players} players: name one per seat, e.g. human,basic_rush")
    if HUMAN not in given:
        raise HocError("no seat is human: name `human` in --agents, e.g. --agents human,basic_rush "
                       "(`hoc replay` tells a game of agents alone)")
    human = human_agent()
    bots = iter(resolve([n for n in given if n != HUMAN]))
    return [human if n == HUMAN else next(bots) for n in given]


def card_names(game: Game, zone: dict[str, int]) -> str:
    """'3 Farming Villages, Court Maid' ('none' when empty)."""
    return view.card_names(game.cards, zone)


def names(cards: list[dict]) -> str:
    """The same, of a view's card entries."""
    return ", ".join(c["label"] for c in cards) or "none"


class Session(Teller):
    """One game at the terminal: the human seats ask the person, the others their agents."""

    def __init__(self, plan, humans: list[int], console: Console, read: Callable[[str], str],
                 save: str | None = None, offer_save: bool = True):
        viewers = tuple(humans) + ((TABLE_VIEW,) if len(humans) > 1 else ())
        super().__init__(plan, 0, viewers)
        self.humans, self.console, self.read, self.save_path = humans, console, read, save
        self.offers = offer_save        # ask for a file name on quitting and at the end (a person at a terminal)
        self.seen = dict.fromkeys(self.feeds, 0)     # feed lines each viewer has been shown
        self.last_human: int | None = None
        self.shown_turn: dict[int, int] = {}          # the turn of each seat's last full view

    # -- the loop
    def decide(self) -> int:
        p = self.game.decider
        if p not in self.humans:
            return super().decide()
        if len(self.humans) > 1 and p != self.last_human:
            self.hand_over(p)
        self.last_human = p
        self.show(p)
        return self.ask(p)

    def hand_over(self, p: int) -> None:
        """Hot seat: the screen is cleared and the next person confirms before their hand shows."""
        if self.console.is_terminal:
            self.console.clear()
        self.show_feed(TABLE_VIEW)
        self.console.rule(f"Pass the keyboard to seat {p}", style="bold")
        self.prompt(f"Seat {p}: press Enter to see your hand ")

    def prompt(self, text: str) -> str:
        try:
            return self.read(text)
        except EOFError:
            self.console.print("\n(the input ended: the game stops here)", markup=False)
            raise Quit from None

    # -- what a seat sees
    def say_plain(self, text: str = "", **kw) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True, **kw)   # the terminal wraps

    def show_feed(self, viewer: int) -> None:
        feed = self.feeds[viewer]
        new = feed[self.seen[viewer]:]
        self.seen[viewer] = len(feed)
        if new:
            self.console.rule("since your last decision" if viewer != TABLE_VIEW else "at the table", style="dim")
            for line in new:
                self.say_plain(line)

    def show(self, p: int, full: bool | None = None) -> None:
        """The feed, then the table (in full at a seat's first decision of a turn, or when asked), the
        seat's own cards, the question and the numbered actions."""
        g = self.game
        self.show_feed(p)
        if full is None:
            full = self.shown_turn.get(p) != g.turns
        self.shown_turn[p] = g.turns
        self.console.rule(self.title(p), style="bold")
        if full:
            self.show_market(p)
            self.show_seats(p)
        self.show_own(p)
        self.say_plain(self.question())
        for i, a in enumerate(g.legal_actions(), 1):
            self.say_plain(f"  {i:>2}. {self.readable(a)}")

    def title(self, p: int) -> str:
        return view.title(self, p)

    def show_market(self, p: int) -> None:
        """The market's piles two to a row with seat p's price and the cards left; then the princesses
        still to back and the supply."""
        v = view.seat_view(self, p)
        piles = [(m["name"], m["price"], m["left"]) for m in v["market"]]
        market = RichTable(title="Market (price for you, cards left)", box=box.SIMPLE, pad_edge=False,
                           title_justify="left", show_header=False)
        for _ in range(2):
            market.add_column(overflow="fold")
            market.add_column(justify="right")
            market.add_column(justify="right")
        half = (len(piles) + 1) // 2
        for left, right in zip(piles[:half], piles[half:] + [("", "", "")]):
            market.add_row(*(str(x) for x in left + right))
        self.console.print(market)
        if v["princesses"]:
            self.say_plain(f"Princesses to back: {', '.join(c['name'] for c in v['princesses'])}")
        supply = v["supply"]
        if supply["cards"]:
            top = supply["top"]
            self.say_plain(f"Supply: {supply['cards']} cards face down"
                           + (f"; face up on top: {top['name']}" if top else ""))

    def show_seats(self, p: int) -> None:
        """Every seat's public facts in a table (hand and deck by size only), then each seat's domain and
        discard pile (public) by name."""
        t = RichTable(box=box.SIMPLE, pad_edge=False)
        for col in ("seat", "princess", "SP", "hand", "deck", "discard", "counters"):
            t.add_column(col, justify="right" if col in ("SP", "hand", "deck", "discard") else "left",
                         overflow="fold")
        seats = view.seat_view(self, p)["seats"]
        for s in seats:
            top = f" (top: {s['deck_top']['name']})" if s["deck_top"] else ""
            t.add_row(f"{s['seat']} {'you' if s['you'] else s['agent']}",
                      s["princess"]["name"] if s["princess"] else "-",
                      str(s["sp"]) + (" declared" if s["declared"] else "") + (" out" if s["out"] else ""),
                      str(s["hand"]), f"{s['deck']}{top}", str(s["discard"]), s["counters"])
        self.console.print(t)
        for s in seats:
            who = "your" if s["you"] else f"seat {s['seat']}'s"
            self.say_plain(f"{who.capitalize()} domain ({s['sp']} SP): {names(s['domain'])}"
                           + (f"; kept: {names(s['kept'])}" if s["kept"] else "")
                           + f". Discard pile: {names(s['discard_pile'])}")

    def counter_text(self, q: int) -> str:
        return view.counter_text(self.game, q)

    def show_own(self, p: int) -> None:
        v = view.seat_view(self, p)
        me = v["seats"][p]
        if v["turn_player"] == p:
            self.say_plain(f"Play area: {names(v['play_area'])}")
            self.say_plain(f"Coins: {v['coins']}; plays open (links left): {v['open_plays']}; cards played: "
                           f"{v['cards_played']}")
        face_up = me["deck_face_up"]
        self.say_plain(f"Your deck: {me['deck']} cards"
                       + (f" (face up on it: {names(face_up)})" if face_up else ""))
        self.say_plain(f"Your hand: {names(me['hand_cards'])}", style="bold")

    def question(self) -> str:
        return view.question(self)

    def readable(self, a) -> str:
        """An action as the list shows it: the card's printed name and, to buy or back, its price."""
        return view.readable(self, a)

    # -- reading the person's answer
    def ask(self, p: int) -> int:
        while True:
            text = self.prompt(f"seat {p}> ").strip()
            try:
                a = self.answer(p, text)
            except HocError as e:
                self.say_plain(f"{e}")
                continue
            if a is not None:
                return a

    def answer(self, p: int, text: str) -> int | None:
        """The action the text picks, or None after a command (help, card text, save)."""
        g = self.game
        legal = g.legal_actions()
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        if not text:
            raise HocError(f"type a number from 1 to {len(legal)}, an action's label, or ? for help")
        if text in ("q", "quit", "exit"):
            self.offer_save()
            raise Quit
        if word == "help" and not rest:
            self.say_plain(HELP)
            return None
        if text == "?":                 # help, and the text of every card an action names
            self.say_plain(HELP)
            for card in dict.fromkeys(a.card for a in legal if a.card is not None):
                self.say_plain(self.db.sheet(self.db.index(card), width=min(self.console.width, 100)))
            return None
        if word == "?" or text.startswith("?"):
            self.card_text(rest or text[1:].strip(), legal)
            return None
        if text in ("t", "table"):
            self.show(p, full=True)
            return None
        if text == "log":
            for line in self.feeds[p]:
                self.say_plain(line)
            return None
        if word == "save":
            if not rest:
                raise HocError("save needs a file name: save FILE")
            save_game(rest, self)
            self.say_plain(f"saved to {rest}: `hoc replay {rest}` tells the game so far")
            return None
        if text.isdigit():
            if not 1 <= int(text) <= len(legal):
                raise HocError(f"no action {text}: type a number from 1 to {len(legal)}")
            return int(legal[int(text) - 1])
        return self.by_label(text, legal)

    def by_label(self, text: str, legal) -> int:
        g = self.game
        try:
            a = g.parse(text.lower())
        except IllegalActionError:
            verb, _, card = text.partition(" ")
            a = next((int(x) for x in legal if x.verb == verb.lower() and x.card is not None
                      and self._is_card(card, x.card)), None)
        if a is None or a not in legal:
            raise HocError(f"{text!r} is not one of the actions listed: type its number (1 to {len(legal)}), "
                           f"its label, or ? for help")
        return a

    def _is_card(self, text: str, card: str) -> bool:
        try:
            return self.db.name(self.db.lookup(text)) == card
        except HocError:
            return False

    def card_text(self, what: str, legal) -> None:
        db = self.db
        if what.isdigit():
            if not 1 <= int(what) <= len(legal) or legal[int(what) - 1].card is None:
                raise HocError(f"action {what} names no card: ? N takes the number of a card's action")
            what = legal[int(what) - 1].card
        if not what:
            raise HocError("? CARD shows a card's text, e.g. ? duke")
        self.say_plain(db.sheet(db.lookup(what), width=min(self.console.width, 100)))

    def offer_save(self) -> None:
        if self.save_path or not self.offers:
            return                      # saved on the way out, or scripted input (--save names the file)
        try:
            name = self.read("Save the game before quitting? File name (Enter: do not save): ").strip()
        except EOFError:
            return
        if name:
            self.save_path = name

    # -- the end
    def run(self) -> "Session":
        """Play to the end (or until the person quits or the input ends), show the result, save."""
        try:
            self.tell()
        except Quit:
            pass
        except KeyboardInterrupt:       # Ctrl-C: keep the game if a file was named, then stop as any command does
            if self.save_path:
                save_game(self.save_path, self)
                self.say_plain(f"\nsaved to {self.save_path}")
            raise
        if self.game.over and self.save_path is None and self.offers:
            try:
                self.save_path = self.read("Save the game? File name (Enter: do not save): ").strip() or None
            except EOFError:
                pass
        self.finish()
        return self

    def finish(self) -> None:
        g = self.game
        viewer = TABLE_VIEW if len(self.humans) > 1 else self.humans[0]
        if not g.over:
            self.say_plain(f"(the game stopped at turn {g.turns}, before its end"
                           + (")" if self.save_path else "; not saved)"))
        else:
            self.show_feed(viewer)
            self.console.rule("Game over", style="bold")
            t = RichTable(box=box.SIMPLE, pad_edge=False)
            for col in ("seat", "princess", "SP", "domain"):
                t.add_column(col, overflow="fold")
            for q in range(g.players):
                princess = g.princess(q)
                t.add_row(f"{q} {self.agents[q].name}" + (" (winner)" if q in g.winners else ""),
                          self.db.english(self.db.index(princess)) if princess else "-", str(g.sp(q)),
                          card_names(g, g.domain(q)))
            self.console.print(t)
        if self.save_path:
            save_game(self.save_path, self)
            self.say_plain(f"saved to {self.save_path}: `hoc replay {self.save_path}` tells the "
                           + ("whole game" if g.over else "game so far"))


def play(plan, console: Console, read: Callable[[str], str], save: str | None = None,
         offer_save: bool = True) -> "Session":
    """Play the game of `plan` (game 0 of its seed) at the console; returns the session at its end."""
    humans = [q for q, a in enumerate(plan.agents) if is_human(a)]
    return Session(plan, humans, console, read, save, offer_save).run()
