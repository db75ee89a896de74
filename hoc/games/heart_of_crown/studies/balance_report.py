"""The report of a card-value study (`hoc balance`): its JSON object, its text, and the rows its plot
draws. The study is `hoc.games.heart_of_crown.studies.card_value`; the report is built from the JSON object, so the text
and `--json` say the same."""
from __future__ import annotations

import json

import pandas as pd

from hoc.games.heart_of_crown.studies import card_value as cv


def _records(df: pd.DataFrame) -> list[dict]:
    return json.loads(df.to_json(orient="records"))


def _ci(v) -> dict:
    return {"value": v.value, "lo": v.lo, "hi": v.hi}


def strong_words(strong: str, players: int, tuning: cv.Tuning) -> str:
    """Who the strong player is, in words."""
    start = tuning.start_name(players)
    if strong == cv.RULES:
        return (f"{start} with its rules for the card searched (one rule for a card of the kind, at any place, "
                f"with any of {len(cv.CONDITION_GRID)} sets of conditions, raced against {start} without the card, "
                f"the finalists compared over {tuning.select_seeds:,} seeds of their own, their rules refined over "
                f"{tuning.refine_seeds:,} seeds a step"
                + (f", the buyer's whole plan then built around the card for {tuning.build_steps} steps"
                   if tuning.build_steps else "")
                + f"; seed {tuning.seed}), against {start} with the card banned" + _study_note(start, players))
    if strong != cv.TUNED:
        return f"{strong} as given, and the same agent with the card banned"
    against = ", ".join(tuning.opponents) or tuning.start_name(players)
    return (f"plans re-tuned for each condition from {tuning.start_name(players)} "
            f"(hoc tune, {tuning.games:,} games, seed {tuning.seed}, against {against}), one with the card "
            f"allowed and one with it banned")


STUDY_START = "tuned_plan_c_2p+plan"     # the published 2-player study's strong player (experiments/balance.py)


def _study_note(start: str, players: int) -> str:
    """What sets the default strong player apart from the published study's, when it is not that one."""
    if players != 2 or start == STUDY_START:
        return ""
    return (f". Not the published study's player ({STUDY_START}: the strongest plan of the library with its whole "
            f"turn planner, about 14 times slower a game; --from {STUDY_START} plays it), so small values can "
            f"differ from results/balance")


def head(strong: str, ruleset, tuning: cv.Tuning, seeds: int, seed: int, command: str) -> dict:
    """What every balance result starts with: the study's settings and the command that reruns it."""
    return {"seed": seed, "players": ruleset.players, "edition": ruleset.edition, "seeds": seeds,
            "strong": strong, "strong_player": strong_words(strong, ruleset.players, tuning),
            "tune_games": tuning.games if strong == "tuned" else None,
            "start": tuning.start_name(ruleset.players) if strong in ("tuned", "rules") else None,
            "command": command}


def values_json(head: dict, values: list[cv.Value]) -> dict:
    return {**head, "values": [v.as_dict() for v in values]}


def what_if_json(head: dict, w: cv.WhatIf) -> dict:
    """The card under test first, its own change always reported; then every agent's change, and the
    largest changes: those whose Bonferroni-corrected interval excludes 0."""
    agents = _records(w.agents)
    card = {"name": w.kind, "what": "card value under strong play", "baseline": w.baseline.as_dict(),
            "changed": w.changed.as_dict(), "change": w.change, "lo": w.lo, "hi": w.hi,
            "forced_change": dict(zip(("change", "lo", "hi"), w.forced)) if w.forced else None}
    largest = [{"name": w.kind, "what": "card value", "change": w.change, "lo": w.lo, "hi": w.hi}] + \
        [{"name": r["agent"], "what": "agent win rate", "change": r["change"], "lo": r["change_lo_corrected"],
          "hi": r["change_hi_corrected"]} for r in _records(w.largest())]
    return {**head, "card": w.kind, "overrides": list(w.overrides),
            "card_change": card, "agents": agents, "largest_changes": largest,
            "agent_games": int(w.agents.games.min()) if len(w.agents) else 0}


def values_table(values: list[cv.Value]) -> pd.DataFrame:
    """The plot's bars: one value with its interval per kind priced."""
    return pd.DataFrame([{"label": v.kind, **_ci(v)} for v in values])


def what_if_table(w: cv.WhatIf) -> pd.DataFrame:
    """The plot's bars of a what-if: the card's values and change, then every agent's change."""
    rows = [{"label": f"{w.kind} value, printed", **_ci(w.baseline)},
            {"label": f"{w.kind} value, {' '.join(w.overrides)}", **_ci(w.changed)},
            {"label": f"{w.kind} value: change", "value": w.change, "lo": w.lo, "hi": w.hi}]
    if w.forced:
        rows.append({"label": f"best plan buying {w.kind}: change", **dict(zip(("value", "lo", "hi"), w.forced))})
    rows += [{"label": f"{r.agent}: win-rate change", "value": r.change, "lo": r.change_lo, "hi": r.change_hi}
             for r in w.agents.itertuples()]
    return pd.DataFrame(rows[::-1])          # the plot draws the last row at the top: the card first


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


def text(r: dict) -> str:
    """The report in words, from its JSON object."""
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
