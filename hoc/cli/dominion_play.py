"""`hoc play --game dominion`: a Dominion game at the terminal. Each decision of a human seat shows
the situation and the legal actions, numbered; the answer is a number or a label (`buy:smithy`),
`? CARD` shows a card's text, `q` quits. The other seats' moves are told as `hoc replay` tells them."""
from __future__ import annotations

from hoc.errors import HocError


def play(ruleset, agents, seed: int, read=input, write=print) -> int:
    from hoc.agents.deciders import seating
    from hoc.cli.session import is_human
    from hoc.games.dominion.replay import Teller

    t = Teller(ruleset, agents, seed, *seating(ruleset, agents))
    shown = 0

    def flush():
        nonlocal shown
        for line in t.lines[shown:]:
            write(line)
        shown = len(t.lines)

    while not t.game.over:
        seat = t.game.decider
        if not is_human(agents[seat]):
            t.step()
            continue
        t.note_turn()
        flush()
        legal = t.game.legal()
        write(f"seat {seat}, {t.ask()}")
        write("  " + "  ".join(f"[{i}] {label}" for i, label in enumerate(legal)))
        while True:
            try:
                answer = read("> ").strip()
            except EOFError:
                answer = "q"
            if answer in ("q", "quit"):
                write("game left unfinished")
                return 0
            if answer.startswith("?"):
                name = answer[1:].strip()
                try:
                    write(t.game.db.sheet(t.game.db.lookup(name)))
                except HocError as e:
                    write(str(e))
                continue
            choice = legal[int(answer)] if answer.isdigit() and int(answer) < len(legal) else answer
            if choice in legal:
                t.step(play=lambda game, c=choice: c)
                break
            write(f"not a legal action: {answer!r} (a number 0-{len(legal) - 1} or a label)")
    t.lines.append(t.ending())
    flush()
    return 0
