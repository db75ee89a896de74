"""Toy's side of the shared commands (`GameSpec.commands`): `hoc cards --game toy`, `hoc play --game
toy` (a game at the terminal), `hoc tune --game toy` (the best of a few random buy lists, written as a
list file)."""
from __future__ import annotations

import json

from hoc.errors import HocError


def cards(args) -> int:
    from toy_game.cards import CardDB

    db = CardDB()
    chosen = [db.lookup(n) for n in args.names] if args.names else list(range(len(db)))
    if args.json:
        records = db.records()
        print(json.dumps([records[i] for i in chosen]))
        return 0
    if not args.names:
        print(f"Toy: {len(db)} cards (kingdom cards: {', '.join(db.kingdom)})")
    print("\n".join(db.sheet(i) for i in chosen))
    return 0


def play(args, ruleset, agents, read=None, write=print) -> int:
    """Game 0 of --seed at the terminal: a number or a label per decision, q quits (`read`: the
    prompt's reader, `input` by default)."""
    from hoc.agents.deciders import seating
    from hoc.cli.session import is_human
    from hoc.games import saved
    from hoc.research.harness import Plan
    from toy_game.replay import result_of, teller

    t = teller(Plan(ruleset, agents, 1, args.seed), 0, *seating(ruleset, agents))
    shown = 0
    while not t.game.over:
        if not is_human(agents[t.game.decider]):
            t.step()
            continue
        t.note_turn()
        for line in t.lines[shown:]:
            write(line)
        shown = len(t.lines)
        legal = t.game.legal()
        write("  " + "  ".join(f"[{i}] {label}" for i, label in enumerate(legal)))
        answer = (read or input)("> ").strip()
        if answer in ("q", "quit"):
            write("game left unfinished")
            break
        choice = legal[int(answer)] if answer.isdigit() and int(answer) < len(legal) else answer
        if choice not in legal:
            write(f"not a legal action: {answer!r}")
            continue
        t.step(play=lambda game, c=choice: c)
    if t.game.over:
        t.lines.append(t.ending())
    for line in t.lines[shown:]:
        write(line)
    if getattr(args, "save", None) is not None:
        saved.write(args.save, saved.data(ruleset, args.seed, 0, [a.name for a in agents], t.actions,
                                          result_of(t.game)))
        write(f"saved to {args.save}")
    return 0


def tune(args) -> int:
    """A buy list for Toy: `--population` random lists, each playing `--games` games (seats mirrored)
    against the opponents; the best is written to OUT/best.toml."""
    from pathlib import Path

    import numpy as np

    from hoc.agents.registry import get, split_names
    from hoc.research.harness import Plan
    from hoc.research.rows import play_rows
    from toy_game.agents.bots import Bot
    from toy_game.agents.catalog import bot_agent
    from toy_game.rules import Ruleset

    for flag, given in (("--princess", args.princess), ("--plan", args.plan), ("--second", args.second),
                        ("--ban", args.ban), ("--with", args.market_with), ("--minutes", args.minutes),
                        ("--from", args.start)):
        if given:
            raise HocError(f"{flag} is not an option of tune --game toy")
    ruleset = Ruleset(players=args.players, market=args.market if args.market != "random" else "all",
                      overrides=tuple(args.override or ()))
    opponents = [get(n) for n in split_names(args.opponents or "toy_big_money")]
    rng = np.random.default_rng(args.seed)
    db = ruleset.cards
    best = None
    for k in range(max(1, args.population)):
        buy = [{"card": "duchy", "coins": int(rng.integers(5, 8))}]
        for c in rng.permutation(["silver", *db.kingdom]).tolist():
            buy.append({"card": c, "coins": db[c].cost, "owned_below": int(rng.integers(1, 6))})
        bot = Bot(f"candidate_{k}", "a Toy list tuned by hoc tune --game toy", tuple(buy), tuple(db.kingdom), "(tuned)")
        me = bot_agent(bot)
        score = 0.0
        for opp in opponents:
            p = ruleset.players
            plan = Plan(ruleset, [me] + [opp] * (p - 1), max(p, args.games - args.games % p), seed=args.seed,
                        mirror=True)
            rows, _ = play_rows(plan, 0, plan.games)
            mine = np.argmax(plan.seats(0, plan.games) == 0, axis=1)
            score += float(((rows[:, 4].astype(np.int64) >> mine) & 1).mean())
        score /= len(opponents)
        print(f"candidate {k}: score {score:.3f}", flush=True)
        if best is None or score > best[0]:
            best = (score, buy)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lines = ['game = "toy"', f'description = "tuned by hoc tune --game toy (score {best[0]:.3f})"',
             f"play = {json.dumps(db.kingdom)}", "buy = ["]
    lines += ["  { " + ", ".join(f'{k} = {json.dumps(v)}' for k, v in rule.items()) + " }," for rule in best[1]]
    (out / "best.toml").write_text("\n".join(lines + ["]", ""]), encoding="utf-8")
    print(f"{out / 'best.toml'}: score {best[0]:.3f}")
    return 0
