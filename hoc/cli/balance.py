"""`hoc balance`: the value of a common card under strong play, and what-ifs of card changes (the
study is `hoc.games.heart_of_crown.studies.card_value`, its report `hoc.games.heart_of_crown.studies.balance_report`)."""
from __future__ import annotations

import json
import shlex
from pathlib import Path

from hoc.cli.options import (backend_of, check_writable, edition_option, game_option, worker_options,
                             write_plot)
from hoc.errors import HocError


def _balance_ruleset(args):
    from hoc.games.heart_of_crown.rules import Ruleset

    return Ruleset(edition=args.edition, players=args.players, market="random", overrides=tuple(args.override or ()),
                   turn_cap=args.turn_cap)


def _kinds_of(ruleset, card: str | None) -> list[str]:
    """The kinds `--card` names among those a random market of the game offers (a game without the
    card-value study of Heart of Crown)."""
    from hoc.names import did_you_mean

    _, offered = ruleset.market_piles
    if not card:
        raise HocError("give --card KIND (several comma-separated, or all) to price")
    if card.strip() == "all":
        return list(offered)
    kinds = [k.strip() for k in card.split(",") if k.strip()]
    for k in kinds:
        if k not in offered:
            raise HocError(f"--card {k!r} is not a {ruleset.game.title} {ruleset.game.market_word} card"
                           f"{did_you_mean(k, offered)}; see `hoc cards --game {ruleset.game.name}`")
    if len(set(kinds)) != len(kinds):
        raise HocError(f"--card names a kind twice: {card}")
    return kinds


def _atlas_only(args):
    """A game without Heart of Crown's card-value study (its rule search and re-tunes): each kind's
    archetype value through the strategy atlas, the one way that game prices a card."""
    from hoc.cli.options import ruleset_from_options
    from hoc.games import get

    spec = get(args.game_name)
    if args.strong not in ("rules", ATLAS):
        raise HocError(f"hoc balance --game {spec.name} prices a kind through the strategy atlas (--strong atlas): "
                       f"the rule search, the re-tunes and agent bans (--strong {args.strong}) are another game's card-value "
                       f"study")
    if not 2 <= args.players <= 4:
        raise HocError(f"balance plays 2 to 4 players, got {args.players}")
    for flag, value, low in (("--seeds", args.seeds, 2),):
        if value < low:
            raise HocError(f"{flag} must be at least {low}, got {value}")
    options = {"game_name": spec.name, "players": args.players, "market": "random", "override": args.override,
               "turn_cap": args.turn_cap}
    if args.edition != "2e":
        options["edition"] = args.edition
    ruleset = ruleset_from_options(spec.name, {k: v for k, v in options.items() if v is not None})
    ruleset.vector
    args.strong = ATLAS
    return ruleset, _kinds_of(ruleset, args.card)


def cmd_balance(args) -> int:
    from hoc.games import get

    if "card_value" not in get(args.game_name).studies:
        ruleset, kinds = _atlas_only(args)
        return _archetype_values(args, ruleset, kinds)
    return _card_value(args)


def _card_value(args) -> int:
    from hoc.agents.registry import AGENTS
    from hoc.games.heart_of_crown.studies import balance_report as report
    from hoc.games.heart_of_crown.studies import card_value as cv
    from hoc.research.runs import check_memory
    from hoc.research.simulate import resolve

    if not 2 <= args.players <= 4:
        raise HocError(f"balance plays 2 to 4 players, got {args.players}")
    for flag, value, low in (("--tune-games", args.tune_games, 1), ("--seeds", args.seeds, 2),
                             ("--games", args.games, 1), ("--select-seeds", args.select_seeds, 1),
                             ("--refine-seeds", args.refine_seeds, 0), ("--build-steps", args.build_steps, 0)):
        if value < low:
            raise HocError(f"{flag} must be at least {low}, got {value}")
    if args.plot is not None:
        if Path(args.plot).suffix != ".png" or not Path(args.plot).stem:
            raise HocError(f"--plot must name a .png file, got {args.plot!r}")
        check_writable("--plot", Path(args.plot), folder=False)
    if args.work is not None and Path(args.work).exists() and not Path(args.work).is_dir():
        raise HocError(f"--work must name a folder, got the file {args.work}")
    agents = None
    if args.agents is not None:
        agents = resolve(args.agents)
        if not agents:
            raise HocError("no agents given")
    ruleset = _balance_ruleset(args)
    ruleset.vector                      # bad overrides and player counts fail now, before any game
    check_memory(max(2 * args.games, args.seeds * ruleset.players))
    kinds = cv.kinds_to_price(ruleset, args.card)
    if args.strong == ATLAS:
        return _archetype_values(args, ruleset, kinds)
    start = args.start
    if start is None and ruleset.edition != "2e":       # the edition's own tuned general plan, where there is one
        own = f"tuned_general_{ruleset.edition}_{ruleset.players}p"
        start = own if own in AGENTS else None
    tuning = cv.Tuning(start, tuple(n.strip() for n in (args.opponents or "").split(",") if n.strip()),
                       args.tune_games, args.seed, select_seeds=args.select_seeds, refine_seeds=args.refine_seeds,
                       build_steps=args.build_steps)
    if args.strong in (cv.RULES, cv.TUNED):
        if args.start is None and tuning.start_name(ruleset.players) not in AGENTS:
            raise HocError(f"no {tuning.start_name(ruleset.players)} in the library to start from: name a start "
                           f"plan with --from, e.g. --from tuned_general_2p")
        cv.start_plan(tuning.start_name(ruleset.players))    # a missing start plan fails now
        for n in tuning.opponents:
            resolve(n)
    else:
        strong = resolve(args.strong)
        if len(strong) != 1:
            raise HocError(f"--strong names one agent, got {args.strong!r}")
        cv.ban(strong[0], kinds[0], ruleset)      # an agent that cannot take a ban fails now
    if ruleset.overrides:
        if agents is None:
            agents = cv.what_if_agents(ruleset.players, ruleset.edition)
        if len(agents) < ruleset.players:
            raise HocError(f"{len(agents)} agents cannot fill {ruleset.players} seats")
    head = report.head(args.strong, ruleset, tuning, args.seeds, args.seed, shlex.join(["hoc", *args.argv]))
    backend = backend_of(args)
    try:
        if ruleset.overrides:
            w = cv.what_if(ruleset, kinds[0], agents, args.strong, tuning, args.seeds, args.games, args.seed,
                           args.work, backend)
            result, table = report.what_if_json(head, w), report.what_if_table(w)
        else:
            from hoc.research.progress import bar as progress_bar

            values = []
            bar = progress_bar(len(kinds), "cards", "card", len(kinds) > 1)     # the whole study's ETA
            try:
                for k in kinds:
                    values.append(cv.card_value(ruleset, k, args.strong, tuning, args.seeds, args.seed, args.work,
                                                backend))
                    bar.update(1)
            finally:
                bar.close()
            result, table = report.values_json(head, values), report.values_table(values)
    finally:
        backend.close()
    print(json.dumps(result) if args.json else report.text(result), flush=True)
    if args.plot:
        from hoc.research import plots

        write_plot("--plot", args.plot, lambda: plots.effect_bars(
            table, "label", args.plot, (f"What if {' '.join(ruleset.overrides)}" if ruleset.overrides else
                                        "Card value under strong play") + f", {ruleset.players} players",
            "win-rate change, percentage points", value="value", sort=not ruleset.overrides))
    return 0


ATLAS = "atlas"


def _archetype_values(args, ruleset, kinds) -> int:
    """`--strong atlas`: each kind's archetype value (`hoc.research.atlas.value`): the best deck the atlas
    finds that owns it against the best deck without it, on random markets that always offer it."""
    import dataclasses
    import tempfile

    from hoc.agents.registry import get, split_names
    from hoc.games import DEFAULT
    from hoc.research.atlas.search import Settings
    from hoc.agents.plan_space import space_of
    from hoc.research.atlas.value import archetype_value

    if ruleset.overrides and args.card is None:
        raise HocError("--strong atlas prices kinds as the rules are: give --card (and --override changes the "
                       "rules the atlas plays)")
    if args.atlas_iterations < 1:
        raise HocError(f"--atlas-iterations must be at least 1, got {args.atlas_iterations}")
    if args.supplies < 1:
        raise HocError(f"--supplies must be at least 1, got {args.supplies}")
    game = [*(["--game", ruleset.game.name] if ruleset.game.name != DEFAULT else [])]
    try:                        # plans for random markets, or (Dominion's bots) for one fixed supply each
        space_of(dataclasses.replace(ruleset, market_with=(kinds[0],)))
        fixed = False
    except HocError:
        fixed = True

    def settings_of(rules, kind):
        space = space_of(rules)
        panel = tuple(get(n) for n in split_names(args.opponents or ",".join(space.panel())))
        return Settings(space, panel, (f"owns:{kind}", "action_share"), seed=args.seed,
                        iterations=args.atlas_iterations)

    def command_of(market, kind, folder):
        where = ["--market", ",".join(market)] if market else ["--market", "random", "--with", kind]
        return shlex.join([*game, "--players", str(ruleset.players), *where, "--descriptors",
                           f"owns:{kind},action_share", "--iterations", str(args.atlas_iterations), "--seed",
                           str(args.seed), "--out", str(folder)])

    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="hoc_balance_atlas_"))
    backend = backend_of(args)
    rows = []
    try:
        for kind in kinds:
            if fixed:
                from hoc.research.market.value import over_supplies

                r = over_supplies(ruleset, kind, args.supplies, lambda rules, kind=kind: settings_of(rules, kind),
                                  work / kind, backend, lambda market, folder, kind=kind: command_of(market, kind, folder),
                                  args.seeds, args.seed)
                where = f"{r['owner']} offering it, the mean of each one's value"
            else:
                offered = dataclasses.replace(ruleset, market_with=(kind,))
                r = archetype_value(settings_of(offered, kind), kind, work / kind, backend,
                                    command_of(None, kind, work / kind), seeds=args.seeds, progress=lambda line: None)
                where = f"{work / kind / r['owner']}" if r["owner"] else ""
            rows.append(r)
            print(f"{kind}: " + (f"{100 * r['archetype_value']:+.1f} points [{100 * r['archetype_lo']:+.1f}, "
                                 f"{100 * r['archetype_hi']:+.1f}], the best deck owning it ({r['owner_copies']:.1f} "
                                 f"copies at the end: {where}) against the best without it"
                                 if r["owner"] else f"no value: {r['note']}"), flush=True)
    finally:
        backend.close()
    if args.json:
        print(json.dumps({"strong": ATLAS, "work": str(work), "seeds": args.seeds, "values": rows}))
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("balance", help="value of a common card under strong play, and what-ifs by re-tuning",
                       description="The value of a common kind: on random markets that always offer it, a strong "
                                   "player allowed it against the same player with it banned (same seeds, seats "
                                   "mirrored). With --override: that value printed and changed, and every agent's "
                                   "win-rate change. Typical time on 2 cores: one card at the defaults (--strong "
                                   "rules, 5,000 seeds, --jobs 1) took 74 s on a machine shared with other work "
                                   "(load about 7); --card all prices the 31 common kinds of 2E one after another, "
                                   "about 31 times that (some 40 minutes), with a progress line over the cards. "
                                   "Each card's run has a progress line over its games with the time left (its "
                                   "search's stages sized ahead at their most, each resized once it ends). "
                                   "A game without this card-value study (--game): each kind's archetype value "
                                   "through the strategy atlas (--strong atlas, its default there).")
    game_option(p)
    p.add_argument("--card", help="common kind(s) to price, comma-separated, or all (default with --override: "
                                  "the kind it changes)")
    p.add_argument("--override", action="append", metavar="CARD.FIELD=VALUE",
                   help="a card change to price, e.g. curse_witch.cost=6 (repeatable)")
    p.add_argument("--strong", default="rules",
                   help="the strong player: rules (default: the start plan with its rules for the card searched, "
                        "against the start plan without them), tuned (whole plans re-tuned by hoc tune for each "
                        "condition: noisier), atlas (the archetype value: the best deck the strategy atlas finds "
                        "that owns the card against the best deck without it), or an agent spec, played as given "
                        "and with the card banned")
    p.add_argument("--atlas-iterations", type=int, default=60,
                   help="with --strong atlas: iterations of each kind's atlas (default 60)")
    p.add_argument("--supplies", type=int, default=3,
                   help="with --strong atlas in a game whose plans are made for one supply: the random "
                        "supplies offering the kind that it is priced on (default 3)")
    p.add_argument("--from", dest="start", metavar="PLAN",
                   help="the start plan of rules and tuned (default tuned_general_<players>p; under 1e "
                        "tuned_general_1e_<players>p where the library has it); NAME+plan: that plan with its turn "
                        "planner on")
    p.add_argument("--opponents", help="with --strong tuned: agents the re-tunes play against, comma-separated "
                                       "(default: the start plan)")
    p.add_argument("--tune-games", type=int, default=100_000,
                   help="with --strong tuned: games per re-tune (default 100000)")
    p.add_argument("--select-seeds", type=int, default=1000,
                   help="with --strong rules: seeds per finalist when the rule search picks its plans (default 1000)")
    p.add_argument("--refine-seeds", type=int, default=400,
                   help="with --strong rules: seeds per step of the refinement of its two plans' rules (default "
                        "400; 0: none)")
    p.add_argument("--build-steps", type=int, default=0,
                   help="with --strong rules: steps of the climb over the buyer's whole plan that builds it around "
                        "the card, held against its own deck without the card too (default 0: none)")
    p.add_argument("--seeds", type=int, default=5000,
                   help="game seeds of each head to head, each played in every seat (default 5000)")
    p.add_argument("--games", type=int, default=20_000,
                   help="with --override: games per ruleset of the agents' round robin (default 20000)")
    p.add_argument("--agents", help="with --override: the agents whose win-rate change is reported "
                                    "(default: the archetypes and the tuned plans)")
    edition_option(p)
    p.add_argument("--players", type=int, default=2, help="2 to 4")
    p.add_argument("--turn-cap", type=int, default=100, help="turns per player before a capped draw")
    p.add_argument("--seed", type=int, default=0, help="seed of the games and of the re-tunes (default 0)")
    p.add_argument("--work", help="folder keeping the re-tuned plans (a rerun reuses them; default: temporary)")
    p.add_argument("--plot", help="save the values (or, with --override, the changes) as bars with intervals (PNG)")
    worker_options(p)
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=cmd_balance)
