"""Dominion's own side of the shared commands (`GameSpec.commands`): the card sheet of `hoc cards`, the
evolved buy menus of `hoc tune`, and `hoc play`: a game at the terminal. Each decision of a human seat
shows the situation and the legal actions, numbered; the answer is a number or a label (`buy:smithy`),
`? CARD` shows a card's text, `q` quits. The other seats' moves are told as `hoc replay` tells them."""
from __future__ import annotations

from hoc.errors import HocError


def play_at_terminal(ruleset, agents, seed: int, read=None, write=print, save=None) -> int:
    """Game 0 of the run with `seed` at the terminal; `save`: the file the game is saved to at its end
    or on quitting (`hoc replay FILE` tells it)."""
    from hoc.agents.deciders import seating
    from hoc.games.dominion.replay import teller
    from hoc.research.harness import Plan

    read = read or input            # looked up when called: a test (or a front end) may stand in for it
    t = teller(Plan(ruleset, agents, 1, seed), 0, *seating(ruleset, agents))
    _take_turns(t, agents, read, write)
    if save is not None:
        from hoc.games.dominion.replay import result_of
        from hoc.games import saved

        saved.write(save, saved.data(ruleset, seed, 0, [a.name for a in agents], t.actions, result_of(t.game)))
        write(f"saved to {save}")
    return 0


def _take_turns(t, agents, read, write) -> None:
    """The game of teller `t` played to its end, or until a person quits."""
    from hoc.cli.session import is_human

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
                return
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


def play(args, ruleset, agents) -> int:
    """`hoc play --game dominion`: game 0 of --seed at the terminal."""
    return play_at_terminal(ruleset, agents, args.seed, save=args.save)


def cards(args) -> int:
    """`hoc cards --game dominion`: every card's values and text, or the named cards', or the data as JSON."""
    from hoc.games.dominion.cards import CardDB
    from hoc.games.dominion.kingdoms import RECOMMENDED

    if args.edition not in (None, "2e"):
        raise HocError("--edition is a Heart of Crown option; Dominion here is the base set, 2nd edition")
    db = CardDB()
    chosen = [db.lookup(n) for n in args.names] if args.names else list(range(len(db)))
    if args.json:
        print(db.frame.iloc[chosen].to_json(orient="records", force_ascii=False))
        return 0
    if args.names:
        print("\n".join(db.sheet(i) for i in chosen))
        return 0
    print(f"Dominion, base set (2nd edition): {len(db)} cards. `hoc cards --game dominion NAME` shows one card, "
          f"--json gives the data.")
    for kingdom, title in ((False, "Basic cards (in every supply)"), (True, "Kingdom cards (10 of them make a kingdom)")):
        print(f"\n{title}\n")
        print("\n".join(db.sheet(i) for i in chosen if db[i].kingdom == kingdom))
    print("\nRecommended kingdoms (--market NAME): " + ", ".join(RECOMMENDED))
    return 0


def tune(args) -> int:
    """`hoc tune --game dominion`: a buy menu evolved for one kingdom, written as a bot file."""
    from hoc.agents.registry import get, split_names
    from hoc.games.dominion.agents import tuning as dominion
    from hoc.games.dominion.agents.genome import universe
    from hoc.games.dominion.rules import Ruleset

    for flag, given in (("--princess", args.princess), ("--plan", args.plan), ("--second", args.second),
                        ("--from", args.start),
                        ("--ban", args.ban), ("--with", args.market_with), ("--minutes", args.minutes)):
        if given:
            raise HocError(f"{flag} is not an option of tune --game dominion")
    if args.edition != "2e":
        raise HocError("--edition is a Heart of Crown option; Dominion here is the base set, 2nd edition")
    if args.games < 1:
        raise HocError(f"--games must be at least 1, got {args.games}")
    ruleset = Ruleset(players=args.players, market=args.market, overrides=tuple(args.override or ()))
    names = split_names(args.opponents or "dom_smithy_bm,dom_witch_bm")
    if len(set(names)) != len(names):
        raise HocError(f"--opponents names an agent twice: {', '.join(names)}")
    opponents = [get(n) for n in names]
    universe(ruleset)                       # a fixed kingdom, or a one-line error now
    command = " ".join(["--game dominion", "--players", str(args.players), "--market", args.market,
                        *[f"--override {o}" for o in args.override or ()], "--opponents", ",".join(names),
                        "--games", str(args.games), "--seed", str(args.seed), "--population", str(args.population),
                        "--validate-games", str(args.validate_games), "--out", args.out])
    result = dominion.tune(ruleset, opponents, args.games, args.seed, args.out, population=args.population,
                           validate_games=args.validate_games, command=command,
                           progress=lambda line: print(line, flush=True))
    print("\n".join(dominion.report(result)))
    return 0


def import_bots(args) -> int:
    """`hoc import-bots`: other people's Dominion bots as bot files, and the coverage table."""
    from hoc.games.dominion.agents.imports import import_bots as run, table

    result = run(args.source, args.path, args.out, prefix=args.prefix, partial=args.partial, commit=args.commit or "")
    print(table(result))
    example = result.written[0] if result.written else "FILE.toml"
    print(f"{len(result.written)} bot files written to {args.out} (each plays by its path, e.g. "
          f"hoc simulate --game dominion --agents {example},dom_big_money)")
    return 0
