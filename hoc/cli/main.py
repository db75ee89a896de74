"""The `hoc` command line. Bad input prints one line naming the problem and exits with code 2,
before any game is played; Ctrl-C prints one line saying what was saved and exits with code 130."""
from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
from pathlib import Path

from hoc.cli.options import (
    GAME_OPTIONS, backend_of, check_games, check_outputs, check_writable, game_options, ruleset_of, run_options,
    write_plot,
)
from hoc.errors import HocError, InvariantError


def cmd_simulate(args) -> int:
    from hoc.research.harness import Plan, chunk_size
    from hoc.research.runs import LengthTally, execute
    from hoc.research.simulate import Summary, lineup, report, resumed_games

    check_outputs(args)
    ruleset = ruleset_of(args)
    agents = lineup(args.agents, ruleset.players)
    plan = Plan(ruleset, agents, args.games, args.seed, args.rotate_seats, args.mirror, args.validate,
                chunk=chunk_size(args.games))
    backend = backend_of(args)
    summary = Summary(ruleset, agents, plan.seed, plan.rotate)
    lengths = LengthTally()           # counts per length and end reason: flat memory however many games
    consumers = [summary.add] + ([lengths.add] if args.plot else [])
    resumed = resumed_games(plan, args.out)
    try:
        timing = execute(plan, backend, args.out, consumers)
    finally:
        backend.close()
    result = summary.result(timing, played=plan.games - resumed)
    print(json.dumps(result) if args.json else report(result), flush=True)
    if args.plot:
        from hoc.research import plots

        write_plot("--plot", args.plot, lambda: plots.length_histogram(
            lengths.frame(), args.plot, title=f"Game length ({plan.games:,} games)", count="games"))
    if args.sp_curves:
        from hoc.research import plots
        from hoc.research.curves import sp_by_turn

        curves = sp_by_turn(plan, 200)
        write_plot("--sp-curves", args.sp_curves, lambda: plots.sp_curves(
            curves, args.sp_curves, title=f"Succession points by own turn (first {min(200, plan.games)} games)"))
    return 0


def _pct(rate, lo, hi) -> str:
    return f"{100 * rate:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]"


def _records(df) -> list[dict]:
    return json.loads(df.to_json(orient="records"))


def _study_start(args):
    from hoc.research.simulate import lineup  # noqa: F401  (loads the agent registry before timing)

    check_outputs(args)
    return ruleset_of(args)


def cmd_tournament(args) -> int:
    from hoc.research.simulate import resolve
    from hoc.research.studies import tournament

    ruleset = _study_start(args)
    agents = resolve(args.agents)
    if args.games_per_pairing < 1:
        raise HocError(f"--games-per-pairing must be at least 1, got {args.games_per_pairing}")
    sprt = _sprt(args.sprt)
    backend = backend_of(args)
    try:
        t = tournament(ruleset, agents, args.games_per_pairing, args.seed, backend, args.out, args.mirror, sprt,
                       progress=True)
    finally:
        backend.close()
    if args.json:
        print(json.dumps({"games": len(t.games), "seed": args.seed, "players": ruleset.players,
                          "agents": _records(t.rates), "ratings": _records(t.ratings), "seats": _records(t.seats),
                          "pairwise": _records(t.pairwise.long) if t.pairwise is not None else None,
                          "sprt": {k: v.as_dict() for k, v in t.sprt.items()}}), flush=True)
    else:
        _tournament_report(args, ruleset, t)
    if args.plot:
        write_plot("--plot", args.plot, lambda: _tournament_plot(args.plot, ruleset, t))
    return 0


def _sprt(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        sprt = tuple(float(x) for x in text.split(","))
    except ValueError:
        sprt = ()
    if len(sprt) != 2 or not 0 < sprt[0] < sprt[1] < 1:
        raise HocError(f"--sprt takes P0,P1 with 0 < P0 < P1 < 1, got {text!r}")
    return sprt


def _tournament_plot(path: str, ruleset, t) -> None:
    """The head-to-head table with 2 players; with more, each agent's win rate against an even share."""
    from hoc.research import plots

    if t.pairwise is not None:
        plots.winrate_heatmap(t.pairwise.long, path, title=f"Head-to-head win rate ({len(t.games):,} games)")
        return
    even = 1 / ruleset.players
    shifted = t.rates.assign(diff=t.rates.rate - even, lo=t.rates.lo - even, hi=t.rates.hi - even)
    plots.effect_bars(shifted, "agent", path, f"Win rate by agent, {ruleset.players} players "
                      f"({len(t.games):,} games)", f"win rate per seat played minus an even share "
                      f"({100 * even:.0f}%), percentage points")


def _tournament_report(args, ruleset, t) -> None:
    print(f"round robin: {len(t.games):,} games, {ruleset.players} players, market {args.market}, seed {args.seed}, "
          f"seats rotated{', mirrored' if args.mirror else ''}")
    if t.pairwise is not None:
        print("\nwin rate of the row agent against the column agent (95% interval):")
        names = list(t.pairwise.wide.index)
        width = max(len(n) for n in names)
        long = t.pairwise.long.set_index(["agent", "opponent"])
        print(" " * width + "".join(f"  {n[:20]:>20}" for n in names))
        for a in names:
            cells = [f"{'':>20}" if a == b or (a, b) not in long.index else
                     f"{_pct(*long.loc[(a, b), ['rate', 'lo', 'hi']]):>20}" for b in names]
            print(f"{a:<{width}}" + "".join(f"  {c}" for c in cells))
    print("\nwin rate by agent (per seat played):")
    for r in t.rates.itertuples():
        print(f"  {r.agent:<22} {_pct(r.rate, r.lo, r.hi)}  of {r.games:,}")
    print("\nratings (OpenSkill Plackett-Luce; ordinal = mu - 3 sigma):")
    for r in t.ratings.itertuples():
        print(f"  {r.agent:<22} mu {r.mu:6.2f}  sigma {r.sigma:5.2f}  ordinal {r.ordinal:6.2f}")
    print("\nwin rate by seat (seat 0 plays first): " + ", ".join(f"seat {int(r.seat)} {_pct(r.rate, r.lo, r.hi)}"
                                                                for r in t.seats.itertuples()))
    if t.sprt:
        every = next(iter(t.sprt.values())).every
        print(f"\nsequential test (Wald's SPRT, 5% error rates, applied after every "
              f"{'game' if every == 1 else f'{every} mirrored games'}):")
    for k, v in t.sprt.items():
        print(f"  {k}: {v.words()}")
    sys.stdout.flush()


def cmd_princesses(args) -> int:
    from hoc.research import plots
    from hoc.research import princess_study as ps

    ruleset = _study_start(args)
    if args.agents is not None:
        raise HocError("hoc princesses plays each princess by her own plan: replace one with --plans PRINCESS=AGENT, "
                       "not --agents")
    if args.rotate_seats:
        raise HocError("hoc princesses draws each seat's princess at random in every game: --rotate-seats does not "
                       "apply")
    plans = ps.best_plans(ruleset, ps.parse_plans(args.plans, ruleset))
    check_games(args)
    if args.games_per_pair < 0:
        raise HocError(f"--games-per-pair must be 0 or more, got {args.games_per_pair}")
    backend = backend_of(args)
    try:
        result = ps.princess_strength(ruleset, plans, args.games, args.seed, backend, args.out, progress=True,
                                      games_per_pair=args.games_per_pair, mirror=args.mirror)
    finally:
        backend.close()
    if args.json:
        print(json.dumps(ps.as_json(result, args.seed)), flush=True)
    else:
        print("\n".join(ps.report(result, args.market, args.seed)), flush=True)
    if args.plot:
        write_plot("--plot", args.plot, lambda: plots.princess_bars(
            result.strength.rename(columns={"seats": "backed"}), args.plot, even=1 / ruleset.players,
            title=f"Win rate when backed by her best plan ({len(result.games):,} games, {ruleset.players} players)"))
    return 0


def _balance_ruleset(args):
    from hoc.rules import Ruleset

    return Ruleset(edition=args.edition, players=args.players, market="random", overrides=tuple(args.override or ()),
                   turn_cap=args.turn_cap)


def _balance_kinds(args, ruleset) -> list[str]:
    """The kinds to price: --card (a list, or `all`), else the kind the first --override changes."""
    from hoc.research.card_value import check_kind, kind_of_override

    if args.card:
        if args.card.strip() == "all":
            _, kinds = dataclasses.replace(ruleset, overrides=()).market_piles
            return list(kinds)
        kinds = [k.strip() for k in args.card.split(",") if k.strip()]
        for k in kinds:
            check_kind(ruleset, k)
        if len(set(kinds)) != len(kinds):
            raise HocError(f"--card names a kind twice: {args.card}")
        if ruleset.overrides and len(kinds) != 1:
            raise HocError("with --override, --card names the one kind to price")
        return kinds
    if ruleset.overrides:
        return [kind_of_override(ruleset, ruleset.overrides[0])]
    raise HocError("give --card KIND (a common kind, several comma-separated, or all) to price, "
                   "or --override CARD.FIELD=VALUE for a what-if")


def cmd_balance(args) -> int:
    from hoc.agents.registry import AGENTS, archetypes
    from hoc.research import card_value as cv
    from hoc.research.runs import check_memory
    from hoc.research.simulate import resolve

    if not 2 <= args.players <= 4:
        raise HocError(f"balance plays 2 to 4 players, got {args.players}")
    for flag, value, low in (("--tune-games", args.tune_games, 1), ("--seeds", args.seeds, 2),
                             ("--games", args.games, 1)):
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
    kinds = _balance_kinds(args, ruleset)
    tuning = cv.Tuning(args.start, tuple(n.strip() for n in (args.opponents or "").split(",") if n.strip()),
                       args.tune_games, args.seed)
    if args.strong in (cv.RULES, cv.TUNED):
        if args.start is None and tuning.start_name(ruleset.players) not in AGENTS:
            raise HocError(f"no {tuning.start_name(ruleset.players)} in the library to start from: name a start "
                           f"plan with --from, e.g. --from tuned_general_2p")
        cv.plan_file(tuning.start_name(ruleset.players))     # a missing start plan fails now
        for n in tuning.opponents:
            resolve(n)
    else:
        strong = resolve(args.strong)
        if len(strong) != 1:
            raise HocError(f"--strong names one agent, got {args.strong!r}")
        cv.ban(strong[0], kinds[0], ruleset)      # an agent that cannot take a ban fails now
    if ruleset.overrides:
        if agents is None:          # the hand-written plans and the tuned ones for this player count
            agents = archetypes() + [a for n, a in AGENTS.items()
                                     if n.startswith("tuned_") and n.endswith(f"_{ruleset.players}p")]
        if len(agents) < ruleset.players:
            raise HocError(f"{len(agents)} agents cannot fill {ruleset.players} seats")
    backend = backend_of(args)
    try:
        if ruleset.overrides:
            w = cv.what_if(ruleset, kinds[0], agents, args.strong, tuning, args.seeds, args.games, args.seed,
                           args.work, backend)
            result = _what_if_json(args, ruleset, tuning, w)
            rows = [{"label": f"{w.kind} value, printed", **_ci(w.baseline)},
                    {"label": f"{w.kind} value, {' '.join(w.overrides)}", **_ci(w.changed)},
                    {"label": f"{w.kind} value: change", "value": w.change, "lo": w.lo, "hi": w.hi}]
            if w.forced:
                rows.append({"label": f"best plan buying {w.kind}: change", **dict(zip(("value", "lo", "hi"), w.forced))})
            rows += [{"label": f"{r.agent}: win-rate change", "value": r.change, "lo": r.change_lo, "hi": r.change_hi}
                     for r in w.agents.itertuples()]
            table = pd_frame(rows[::-1])          # the plot draws the last row at the top: the card first
        else:
            values = [cv.card_value(ruleset, k, args.strong, tuning, args.seeds, args.seed, args.work, backend)
                      for k in kinds]
            result = _values_json(args, ruleset, tuning, values)
            table = pd_frame([{"label": v.kind, **_ci(v)} for v in values])
    finally:
        backend.close()
    print(json.dumps(result) if args.json else _balance_text(result), flush=True)
    if args.plot:
        from hoc.research import plots

        write_plot("--plot", args.plot, lambda: plots.effect_bars(
            table, "label", args.plot, (f"What if {' '.join(ruleset.overrides)}" if ruleset.overrides else
                                        "Card value under strong play") + f", {ruleset.players} players",
            "win-rate change, percentage points", value="value", sort=not ruleset.overrides))
    return 0


def pd_frame(rows):
    import pandas as pd

    return pd.DataFrame(rows)


def _ci(v) -> dict:
    return {"value": v.value, "lo": v.lo, "hi": v.hi}


def _strong_words(args, ruleset, tuning) -> str:
    from hoc.research import card_value as cv

    start = tuning.start_name(ruleset.players)
    if args.strong == cv.RULES:
        return (f"{start} with its rules for the card searched (one rule for a card of the kind, at any place, "
                f"with any of {len(cv.CONDITION_GRID)} sets of conditions, raced against {start} without the card; "
                f"seed {tuning.seed}), against {start} with the card banned")
    if args.strong != cv.TUNED:
        return f"{args.strong} as given, and the same agent with the card banned"
    against = ", ".join(tuning.opponents) or tuning.start_name(ruleset.players)
    return (f"plans re-tuned for each condition from {tuning.start_name(ruleset.players)} "
            f"(hoc tune, {tuning.games:,} games, seed {tuning.seed}, against {against}), one with the card "
            f"allowed and one with it banned")


def _balance_head(args, ruleset, tuning) -> dict:
    return {"seed": args.seed, "players": ruleset.players, "edition": ruleset.edition, "seeds": args.seeds,
            "strong": args.strong, "strong_player": _strong_words(args, ruleset, tuning),
            "tune_games": tuning.games if args.strong == "tuned" else None,
            "start": tuning.start_name(ruleset.players) if args.strong in ("tuned", "rules") else None,
            "command": shlex.join(["hoc", *args.argv])}


def _values_json(args, ruleset, tuning, values) -> dict:
    return {**_balance_head(args, ruleset, tuning), "values": [v.as_dict() for v in values]}


def _what_if_json(args, ruleset, tuning, w) -> dict:
    """The card under test first, its own change always reported; then every agent's change, and the
    largest changes: those whose Bonferroni-corrected interval excludes 0."""
    agents = _records(w.agents)
    card = {"name": w.kind, "what": "card value under strong play", "baseline": w.baseline.as_dict(),
            "changed": w.changed.as_dict(), "change": w.change, "lo": w.lo, "hi": w.hi,
            "forced_change": dict(zip(("change", "lo", "hi"), w.forced)) if w.forced else None}
    largest = [{"name": w.kind, "what": "card value", "change": w.change, "lo": w.lo, "hi": w.hi}] + \
        [{"name": r["agent"], "what": "agent win rate", "change": r["change"], "lo": r["change_lo_corrected"],
          "hi": r["change_hi_corrected"]} for r in _records(w.largest())]
    return {**_balance_head(args, ruleset, tuning), "card": w.kind, "overrides": list(w.overrides),
            "card_change": card, "agents": agents, "largest_changes": largest,
            "agent_games": int(w.agents.games.min()) if len(w.agents) else 0}


def _points(d, lo, hi) -> str:
    return f"{100 * d:+5.1f} points [{100 * lo:+5.1f}, {100 * hi:+5.1f}]"


def _value_line(v: dict) -> str:
    line = (f"{_points(v['value'], v['lo'], v['hi'])}  ({v['allowed']} wins {100 * v['rate']:.1f}% against "
            f"{v['banned']}; {v['seeds']:,} seeds, {v['games']:,} games; the kind ends in "
            f"{100 * v['bought']:.0f}% of its seats)")
    f = v.get("forced")
    if f and f["allowed"] != v["allowed"] and v["bought"] < 0.25:
        line += (f"; no rule for it beat the plan without it: the best that buys it, {f['allowed']}, "
                 f"{_points(f['value'], f['lo'], f['hi'])}")
    return line


def _balance_text(r: dict) -> str:
    even = 100 / r["players"]
    lines = [f"balance: {r['players']} players, edition {r['edition']}, random markets that always offer the card "
             f"under test, seed {r['seed']}",
             f"strong player: {r['strong_player']}",
             f"value of a card: the win rate of the strong player allowed it against the same player with it banned, "
             f"same seeds and markets, seats mirrored, minus an even {even:.0f}% (95% interval over seeds)"]
    if "values" in r:
        width = max(len(v["kind"]) for v in r["values"])
        lines.append("")
        lines += [f"  {v['kind']:<{width}}  {_value_line(v)}" for v in r["values"]]
        return "\n".join(lines)
    c = r["card_change"]
    lines += ["", f"{r['card']} (the card under test), {' '.join(r['overrides'])}:",
              f"  printed  {_value_line(c['baseline'])}",
              f"  changed  {_value_line(c['changed'])}",
              f"  change   {_points(c['change'], c['lo'], c['hi'])}  (changed minus printed, paired over the same seeds)"]
    f = c.get("forced_change")
    if f:
        b, n = c["baseline"]["forced"], c["changed"]["forced"]
        lines.append(f"  the best plans found that buy it: printed {_points(b['value'], b['lo'], b['hi'])}, changed "
                     f"{_points(n['value'], n['lo'], n['hi'])}, change {_points(f['change'], f['lo'], f['hi'])}")
    lines += ["", f"every agent's win rate per seat, printed -> changed, on the same seeds "
                  f"({r['agent_games']:,}+ seats each; 95% interval, and corrected for {len(r['agents'])} agents):"]
    width = max(len(a["agent"]) for a in r["agents"])
    for a in r["agents"]:
        lines.append(f"  {a['agent']:<{width}}  {100 * a['rate_baseline']:5.1f}% -> {100 * a['rate_changed']:5.1f}%  "
                     f"{_points(a['change'], a['change_lo'], a['change_hi'])}  corrected "
                     f"[{100 * a['change_lo_corrected']:+5.1f}, {100 * a['change_hi_corrected']:+5.1f}]")
    lines += ["", "largest changes (the card under test always; agents whose corrected interval excludes 0):"]
    for x in r["largest_changes"]:
        lines.append(f"  {x['name']:<{width}}  {x['what']:<15} {_points(x['change'], x['lo'], x['hi'])}")
    if len(r["largest_changes"]) == 1:
        lines.append("  (no agent's change is clear of noise)")
    return "\n".join(lines)


def cmd_replay(args) -> int:
    from hoc.research.replays import replay, replay_run
    from hoc.research.simulate import lineup

    if not 0 <= args.game < 2 ** 63:
        raise HocError(f"--game must be 0 to 2**63 - 1, got {args.game}")
    given = [f"--{k.replace('_', '-')}" for k in GAME_OPTIONS if getattr(args, k) is not None and k != "agents"]
    if args.file:
        from hoc.research.replays import replay_saved

        if given or args.from_run or args.agents is not None:
            drop = given + (["--from"] if args.from_run else []) + (["--agents"] if args.agents is not None else [])
            raise HocError(f"a saved game replays with the rules and seats it recorded: drop {', '.join(drop)}")
        print("\n".join(replay_saved(args.file).lines))
        return 0
    if args.from_run:
        if given:
            raise HocError(f"--from replays the run with the options it recorded: drop {', '.join(given)}")
        print("\n".join(replay_run(args.from_run, args.game, args.agents).lines))
        return 0
    for k, v in GAME_OPTIONS.items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    ruleset = ruleset_of(args)
    print("\n".join(replay(ruleset, lineup(args.agents, ruleset.players), args.seed, args.game,
                           rotate=args.rotate_seats)))
    return 0


CARD_SECTIONS = (("princess", "Princesses"), ("basic", "Basic cards (the basic market and the starting decks)"),
                 ("rare", "Rare cards (one copy each, shuffled into the supply)"),
                 ("common", "Supply kinds (10 of them make a game's supply)"))


def cmd_cards(args) -> int:
    from hoc.cards import CardDB

    db = CardDB(args.edition)
    chosen = [db.lookup(n) for n in args.names] if args.names else list(range(len(db)))
    if args.json:
        cols = ["id", "pile", "category", "types", "subtypes", "cost", "links", "coins", "sp", "copies",
                "effect", "implemented", "name_en", "name_ja", "text_en"]
        print(db.frame.iloc[chosen][cols].to_json(orient="records", force_ascii=False))
        return 0
    if args.names:
        print("\n\n".join(db.sheet(i) for i in chosen))
        return 0
    edition = {"2e": "2nd edition", "1e": "1st edition"}[db.edition]
    print(f"{edition}: {len(db)} cards. `hoc cards NAME` shows one card, --json gives the data.")
    for category, title in CARD_SECTIONS:
        cards = [i for i in chosen if db.frame.category.iat[i] == category]
        if cards:
            print(f"\n{title}\n")
            print("\n".join(db.sheet(i) for i in cards))
    return 0


def cmd_play(args) -> int:
    from hoc.cli.play import cmd_play as play

    return play(args)


def cmd_agents(args) -> int:
    from hoc.agents.registry import AGENTS

    width = max(len(n) for n in AGENTS)
    for name, agent in AGENTS.items():
        print(f"{name:<{width}}  {agent.description}")
    return 0


# ---- hoc meta (issue 14): the meta-game of a population of plans ----------------------------------

def _meta_command(args) -> str:
    """The command that reproduces the run, every option that decides it spelled out."""
    if args.matrix:
        argv = ["--matrix", args.matrix] + (["--agents", args.agents] if args.agents else [])
    else:
        argv = ["--edition", args.edition, "--players", str(args.players), "--market", args.market,
                "--agents", args.agents or ",".join(a.name for a in _meta_population(args)),
                "--games-per-pairing", str(args.games_per_pairing), "--seed", str(args.seed)]
    if args.alpha is not None:
        argv += ["--alpha", f"{args.alpha:g}"]
    return shlex.join(["hoc", "meta", *argv, "--bootstrap", str(args.bootstrap)])


def _meta_population(args):
    """The agents given, or every hand-written and tuned plan this edition can play."""
    from hoc.research.meta import population
    from hoc.research.simulate import resolve
    from hoc.rules import Ruleset

    if args.agents is not None:
        return resolve(args.agents)
    return population(Ruleset(edition=args.edition, players=args.players, market=args.market))


def cmd_meta(args) -> int:
    from hoc.research import meta
    from hoc.rules import Ruleset

    check_outputs(args)
    if args.bootstrap < 0:
        raise HocError(f"--bootstrap must be 0 or more, got {args.bootstrap}")
    if args.alpha is not None and not args.alpha > 0:
        raise HocError(f"--alpha must be positive, got {args.alpha:g}")
    if args.save_matrix is not None:
        if Path(args.save_matrix).suffix != ".csv":
            raise HocError(f"--save-matrix must name a .csv file, got {args.save_matrix!r}")
        check_writable("--save-matrix", Path(args.save_matrix), folder=False)
    if args.matrix:
        # a saved matrix carries its own players, market and games: options that would change them do not apply
        played = {"--edition": args.edition != "2e", "--players": args.players != 2, "--market": args.market != "random",
                  "--games-per-pairing": args.games_per_pairing != 400, "--save-matrix": args.save_matrix is not None}
        clash = [k for k, given in played.items() if given]
        if clash:
            raise HocError(f"--matrix analyses saved games and plays none: {', '.join(clash)} cannot apply "
                           f"(the matrix records its own players, market and games)")
        results = meta.load(args.matrix)
        if args.agents:
            results = meta.subset(results, [a.strip() for a in args.agents.split(",") if a.strip()])
        market = results.market
    else:
        if not 2 <= args.players <= 4:
            raise HocError(f"a meta-game is played by 2 to 4 players, got {args.players}")
        ruleset = Ruleset(edition=args.edition, players=args.players, market=args.market)
        agents = _meta_population(args)
        if len(agents) < 2:
            raise HocError(f"a meta-game needs at least 2 agents, got {len(agents)}")
        if args.games_per_pairing < 1:
            raise HocError(f"--games-per-pairing must be at least 1, got {args.games_per_pairing}")
        for a in agents:
            a.params(ruleset)               # an agent this edition cannot play fails now, by name
        market = args.market
        backend = backend_of(args)
        try:
            results = meta.play(ruleset, agents, args.games_per_pairing, args.seed, backend, progress=True)
        finally:
            backend.close()
        if args.save_matrix:
            results.save(args.save_matrix)
    m = meta.analyse(results, args.alpha, args.bootstrap, args.seed)
    command = _meta_command(args)
    print(json.dumps(meta.as_dict(m, command, market)) if args.json else meta.report(m, command, market), flush=True)
    if args.plot:
        from hoc.research import plots

        games = int(results.table.drop_duplicates("lineup")["games"].sum())
        write_plot("--plot", args.plot, lambda: plots.meta_game(
            m, args.plot, title=f"Meta-game, {results.players} players, market {market} ({games:,} games)"))
    return 0


def _meta_parser(sub) -> None:
    p = sub.add_parser("meta", help="the meta-game of a population of plans: Nash equilibrium and α-Rank")
    p.add_argument("--agents", help="the population, comma-separated (default: every hand-written and tuned plan "
                                    "the edition can play)")
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")
    p.add_argument("--players", type=int, default=2, help="2 (default) to 4")
    p.add_argument("--market", default="random",
                   help="random (default), basic, a preset name, or 10 comma-separated common kinds")
    p.add_argument("--games-per-pairing", type=int, default=400,
                   help="games per lineup (default 400), rounded up to a multiple of the players: each seed is played "
                        "once from every seat")
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0): the same seeds for every lineup")
    p.add_argument("--alpha", type=float, help="α-Rank's selection intensity (default: the smallest of 0.5, 1, 2, "
                                               "... at which the masses settle)")
    p.add_argument("--bootstrap", type=int, default=200,
                   help="tables resampled from the games to test the equilibrium's support and α-Rank's "
                        "masses (default 200; 0 skips)")
    p.add_argument("--matrix", metavar="FILE.csv", help="analyse a matrix saved by --save-matrix instead of playing "
                                                         "(with --agents: the sub-game of those agents)")
    p.add_argument("--save-matrix", metavar="FILE.csv", help="save the results table to reuse with --matrix")
    p.add_argument("--plot", help="save the matrix and the weights (2 players) or the α-Rank masses as a PNG")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", default="loky", help="loky (local processes, default) or dask")
    p.add_argument("--scheduler", help="Dask scheduler address for --backend dask, e.g. tcp://10.0.0.5:8786")
    p.set_defaults(func=cmd_meta)


# ---- hoc tune (issue 12): strong priority-list plans found by search -----------------------------

def _tune_command(args) -> list[str]:
    """The options that determine the plan, spelled out (defaults included), to print as the
    command that reproduces the run."""
    argv = ["--edition", args.edition, "--players", str(args.players), "--market", args.market]
    for flag, values in (("--with", args.market_with), ("--override", args.override), ("--ban", args.ban)):
        for value in values or ():
            argv += [flag, value]
    for flag, value in (("--princess", args.princess), ("--opponents", args.opponents), ("--from", args.start)):
        if value:
            argv += [flag, value]
    argv += ["--games", str(args.games)] if args.games is not None else ["--minutes", f"{args.minutes:g}"]
    argv += ["--seed", str(args.seed), "--population", str(args.population), "--out", args.out]
    return argv


def _binds(agent, ruleset) -> bool:
    try:
        agent.params(ruleset)
        return True
    except HocError:
        return False


def cmd_tune(args) -> int:
    from hoc.agents.registry import archetypes, get
    from hoc.agents.tune.genome import load
    from hoc.agents.tune.search import Budget, Settings, tune
    from hoc.rules import Ruleset

    if not 2 <= args.players <= 4:
        raise HocError(f"tune plays 2 to 4 players, got {args.players}")
    budget = Budget(args.games, args.minutes)
    ruleset = Ruleset(edition=args.edition, players=args.players, market=args.market,
                      overrides=tuple(args.override or ()), market_with=tuple(args.market_with or ()))
    if args.opponents is not None:
        from hoc.agents.registry import split_names
        names = split_names(args.opponents)
        if len(set(names)) != len(names):
            raise HocError(f"--opponents names an agent twice: {', '.join(names)}")
    else:                           # every archetype the edition can play (1e lacks some cards)
        names = [a.name for a in archetypes() if _binds(a, ruleset)]
    start = args.start
    if start and not Path(start).exists():      # a plan of the library by name, e.g. tuned_general_2p
        from hoc.research.card_value import plan_file

        start = plan_file(start)
    settings = Settings(ruleset, tuple(get(n) for n in names), args.seed, args.princess,
                        load(start) if start else None, population=args.population,
                        ban=tuple(args.ban or ()))
    backend = backend_of(args)
    try:
        result = tune(settings, budget, args.out, backend, args.validate_games, _tune_command(args))
    finally:
        backend.close()
    v = result.validation
    print(f"{result.out / 'best.toml'}: {result.state.generation} generations, {result.state.games:,} games; "
          f"validation on fresh seeds, {int(v.games.iat[0]):,} games per opponent (95% interval):")
    for r in v.itertuples():
        print(f"  {r.opponent:<22} {_pct(r.rate, r.lo, r.hi)}{'  beaten' if r.beats else ''}")
    print(f"beats {int(v.beats.sum())} of {len(v)} opponents; summary: {result.out / 'summary.md'}")
    return 0


def _tune_parser(sub) -> None:
    p = sub.add_parser("tune", help="search for a strong priority-list plan; writes an agent file")
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")
    p.add_argument("--players", type=int, default=2, help="2 to 4")
    p.add_argument("--market", default="random",
                   help="random (default: a plan for random markets), a preset name, or 10 comma-separated kinds")
    p.add_argument("--with", dest="market_with", action="append", metavar="KIND",
                   help="random markets always offer this common kind, the rest drawn (repeatable)")
    p.add_argument("--override", action="append", metavar="CARD.FIELD=VALUE",
                   help="change a card value for the search, e.g. curse_witch.cost=6 (repeatable)")
    p.add_argument("--ban", action="append", metavar="KIND",
                   help="the plan never buys nor picks to gain this card or common kind (repeatable); "
                        "its rules for it are dropped from --from")
    p.add_argument("--princess", help="the princess the plan must back first")
    p.add_argument("--opponents", help="agents to beat, comma-separated (default: every archetype and basic_rush "
                                       "that the edition can play); "
                                       "the search's own hall of fame always joins them")
    p.add_argument("--from", dest="start", metavar="PLAN", help="start from this plan: a .toml file or a plan of the "
                                                             "library by name (default: from nothing)")
    budget = p.add_mutually_exclusive_group(required=True)
    budget.add_argument("--games", type=int, help="budget in games (the same seed gives the same plan)")
    budget.add_argument("--minutes", type=float, help="budget in minutes of search")
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument("--population", type=int, default=24, help="plans per generation (default 24)")
    p.add_argument("--validate-games", type=int, default=2000,
                   help="games per opponent in the final validation on fresh seeds (default 2000)")
    p.add_argument("--out", required=True, help="folder for best.toml, history, curve and summary; "
                                                "rerun the same command to resume")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", default="loky", help="loky (local processes, default) or dask")
    p.add_argument("--scheduler", help="Dask scheduler address for --backend dask, e.g. tcp://10.0.0.5:8786")
    p.set_defaults(func=cmd_tune)


def _balance_parser(sub) -> None:
    p = sub.add_parser("balance", help="value of a common card under strong play, and what-ifs by re-tuning",
                       description="The value of a common kind: on random markets that always offer it, a strong "
                                   "player allowed it against the same player with it banned (same seeds, seats "
                                   "mirrored). With --override: that value printed and changed, and every agent's "
                                   "win-rate change.")
    p.add_argument("--card", help="common kind(s) to price, comma-separated, or all (default with --override: "
                                  "the kind it changes)")
    p.add_argument("--override", action="append", metavar="CARD.FIELD=VALUE",
                   help="a card change to price, e.g. curse_witch.cost=6 (repeatable)")
    p.add_argument("--strong", default="rules",
                   help="the strong player: rules (default: the start plan with its rules for the card searched, "
                        "against the start plan without them), tuned (whole plans re-tuned by hoc tune for each "
                        "condition: noisier), or an agent spec, played as given and with the card banned")
    p.add_argument("--from", dest="start", metavar="PLAN",
                   help="the start plan of rules and tuned (default tuned_general_<players>p)")
    p.add_argument("--opponents", help="with --strong tuned: agents the re-tunes play against, comma-separated "
                                       "(default: the start plan)")
    p.add_argument("--tune-games", type=int, default=100_000,
                   help="with --strong tuned: games per re-tune (default 100000)")
    p.add_argument("--seeds", type=int, default=5000,
                   help="game seeds of each head to head, each played in every seat (default 5000)")
    p.add_argument("--games", type=int, default=20_000,
                   help="with --override: games per ruleset of the agents' round robin (default 20000)")
    p.add_argument("--agents", help="with --override: the agents whose win-rate change is reported "
                                    "(default: the archetypes and the tuned plans)")
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")
    p.add_argument("--players", type=int, default=2, help="2 to 4")
    p.add_argument("--turn-cap", type=int, default=100, help="turns per player before a capped draw")
    p.add_argument("--seed", type=int, default=0, help="seed of the games and of the re-tunes (default 0)")
    p.add_argument("--work", help="folder keeping the re-tuned plans (a rerun reuses them; default: temporary)")
    p.add_argument("--plot", help="save the values (or, with --override, the changes) as bars with intervals (PNG)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", default="loky", help="loky (local processes, default) or dask")
    p.add_argument("--scheduler", help="Dask scheduler address for --backend dask, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=cmd_balance)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in the same single line as every other bad input."""

    def error(self, message):
        self.exit(2, f"hoc: error: {message} (see `{self.prog} --help`)\n")


def parser() -> argparse.ArgumentParser:
    from hoc import __version__

    top = _Parser(prog="hoc", description="Heart of Crown simulator")
    top.add_argument("--version", action="version", version=f"hoc {__version__}")
    sub = top.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("simulate", help="play many games and summarise them")
    game_options(p, 10_000)
    p.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
    p.add_argument("--validate", action="store_true", help="check the invariants after every step")
    p.add_argument("--plot", help="save a histogram of game length (PNG)")
    p.add_argument("--sp-curves", help="save mean SP per own turn by agent, over the first 200 games (PNG)")
    run_options(p)
    p.set_defaults(func=cmd_simulate)
    p = sub.add_parser("tournament", help="round robin of agents: win-rate table with intervals, ratings")
    game_options(p, None)
    p.set_defaults(agents="senator_duke,curse_witch,basic_rush", rotate_seats=True)
    p.add_argument("--games-per-pairing", type=int, default=2000, help="games per set of agents (default 2000)")
    p.add_argument("--sprt", metavar="P0,P1", help="2 players: stop a pairing once Wald's test decides "
                                                   "between win rates P0 and P1 of its first agent, e.g. 0.5,0.55")
    p.add_argument("--plot", help="save the win-rate table as a heatmap PNG")
    run_options(p)
    p.set_defaults(func=cmd_tournament)
    p = sub.add_parser("princesses", help="each princess's win rate when backed by her best plan, princess "
                                          "against princess, and the market kinds that move her most")
    game_options(p, None)
    p.set_defaults(agents=None)
    p.add_argument("--games", type=int, default=12_000,
                   help="games with each seat's princess drawn at random (default 12000)")
    p.add_argument("--plans", action="append", metavar="PRINCESS=AGENT,...",
                   help="the agent playing a princess instead of her tuned plan tuned_PRINCESS_2p, e.g. "
                        "twins=my_twins.toml (repeatable)")
    p.add_argument("--games-per-pair", type=int, default=2000,
                   help="2 players: mirrored games of each pair of princesses' plans for the matrix (default 2000; "
                        "0: none)")
    p.add_argument("--plot", help="save the princess win rates as a bar chart PNG")
    run_options(p)
    p.set_defaults(func=cmd_princesses)
    _balance_parser(sub)
    p = sub.add_parser("replay", help="print a turn-by-turn log of one game of a run")
    game_options(p, None)
    p.set_defaults(**dict.fromkeys(GAME_OPTIONS))       # None: not given (--from takes the run's own)
    p.add_argument("file", nargs="?", metavar="FILE.json", help="a game saved by `hoc play` (its own rules and seats)")
    p.add_argument("--game", type=int, default=0, help="game index within the run (default 0)")
    p.add_argument("--from", dest="from_run", metavar="RUN.parquet",
                   help="replay game --game of a run saved with --out, with the options it recorded "
                        "(--agents only to name agent files the run's names do not find)")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("play", help="play a game at the terminal against agents, or hot seat with several people",
                       description="Play game 0 of --seed at the terminal. --agents names one agent per seat "
                                   "(seat 0 plays first), `human` for a person: e.g. human,basic_rush; "
                                   "human,human is hot seat (default players: one per name). Type an action's "
                                   "number or label; ? CARD shows a card's text; save FILE; q quits.")
    game_options(p, None)
    p.set_defaults(agents="human,basic_rush", players=None)
    p.add_argument("--save", metavar="FILE.json",
                   help="save the game here at its end or on quitting, for `hoc replay FILE.json`")
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("cards", help="every card's values and text (or the named cards')")
    p.add_argument("names", nargs="*", metavar="NAME", help="a card's id or English name, e.g. duke or 'Court Maid'")
    p.add_argument("--edition", default="2e", help="2e (default) or 1e")
    p.add_argument("--json", action="store_true", help="the card data as JSON records")
    p.set_defaults(func=cmd_cards)
    p = sub.add_parser("agents", help="list the available agents")
    p.set_defaults(func=cmd_agents)
    _tune_parser(sub)
    _meta_parser(sub)
    return top


def _interrupted(args, argv: list[str]) -> str:
    """What a Ctrl-C leaves behind, and the command that carries on from there."""
    command = shlex.join(["hoc", *argv])
    if not hasattr(args, "out"):
        return "interrupted"
    if args.out is None:
        return "interrupted; nothing was saved (no --out given: add --out NAME.parquet to keep the games of a run)"
    from hoc.research.store import saved

    parts, games = saved(args.out) if Path(args.out).is_dir() else (0, 0)
    if not parts:
        return f"interrupted before any game was saved in {args.out}; start again with: {command}"
    return (f"interrupted; {games:,} games in {parts:,} parts are saved in {args.out}; "
            f"resume with the same command: {command}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser().parse_args(argv)
    args.argv = argv
    try:
        return args.func(args)
    except HocError as e:
        print(f"hoc: error: {e}", file=sys.stderr)
        return 2
    except InvariantError as e:
        print(f"hoc: invariant broken: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print(f"hoc: {_interrupted(args, argv)}", file=sys.stderr)
        return 130                      # 128 + SIGINT, as shells report an interrupted command


if __name__ == "__main__":
    sys.exit(main())
