"""Card value under strong play and what-ifs (issue 14): random markets that always offer a kind,
bans for priority lists and tuned plans, `hoc tune --override/--with/--ban`, and `hoc balance`."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from hoc.games.heart_of_crown.agents import priority
from hoc.agents.registry import Agent, get
from hoc.games.heart_of_crown.agents.policies import PRIORITY
from hoc.cli import main
from hoc.games.heart_of_crown.studies import card_value as cv
from hoc.research.harness import Backend, Plan
from hoc.research.studies import _play, owns
from hoc.games.heart_of_crown.rules import Ruleset

TINY = ["--tune-games", "300", "--seeds", "20", "--games", "40", "--select-seeds", "20", "--refine-seeds", "10"]


def games_of(rs, agents, n, seed=0, rotate=True):
    return _play([("run", Plan(rs, agents, n, seed, rotate=rotate))], ["game", "seed", "win_mask", "agent", "owned",
                                                                        "market"], Backend(), None, False)


def plan_agent(text: str, name: str) -> Agent:
    spec = priority.parse(f"{name}.toml", text)
    return Agent(name, PRIORITY, name, spec.params)


MARGRAVE_FIRST = """
[[buy]]
card = "margrave"
[[buy]]
card = "city"
"""


def test_markets_with_a_kind_always_offer_it_and_draw_the_rest(warm_kernels):
    rs = Ruleset(players=2, market_with=("margrave",))
    df = games_of(rs, [get("senator_duke")] * 2, 200, seed=3)
    markets = [set(m.split(",")) for m in df.market.astype(str)]
    assert all("margrave" in m and len(m) == 10 for m in markets)
    others = set().union(*markets) - {"margrave"}
    assert len(others) > 20                      # the other nine are drawn, not fixed
    again = games_of(rs, [get("senator_duke")] * 2, 200, seed=3)
    assert (again.market.astype(str).values == df.market.astype(str).values).all()


def test_markets_without_the_option_are_drawn_as_before(warm_kernels):
    """The option changes nothing when absent: the same seeds deal markets that often lack the kind."""
    df = games_of(Ruleset(players=2), [get("senator_duke")] * 2, 200, seed=3)
    offered = np.mean(["margrave" in m.split(",") for m in df.market.astype(str)])
    assert 0.1 < offered < 0.7


@pytest.mark.parametrize("kwargs,named", [
    ({"market_with": ("nosuch",)}, "nosuch"),
    ({"market_with": ("margrave",), "market": "basic"}, "basic market"),
    ({"market_with": ("margrave",), "market": "festival"}, "not random"),
    ({"market_with": ("margrave", "margrave")}, "twice"),
])
def test_bad_market_with_is_refused_naming_the_problem(kwargs, named):
    from hoc.errors import HocError

    with pytest.raises(HocError, match=named):
        Ruleset(players=2, **kwargs)


def test_a_never_list_stops_a_priority_list_buying_the_kind(warm_kernels):
    rs = Ruleset(players=2, market_with=("margrave",))
    keen = plan_agent(MARGRAVE_FIRST, "keen")
    banned = plan_agent(MARGRAVE_FIRST + '[choose]\nnever = ["margrave"]\n', "banned")
    df = games_of(rs, [keen, banned], 200, seed=1)
    seat_of = {j: (df[f"agent_{j}"].astype(str) == "banned").to_numpy() for j in range(2)}
    keen_owned = np.concatenate([owns(df, j, "margrave", rs.cards)[~seat_of[j]] for j in range(2)])
    banned_owned = np.concatenate([owns(df, j, "margrave", rs.cards)[seat_of[j]] for j in range(2)])
    assert keen_owned.mean() > 0.5 and not banned_owned.any()


def test_a_ban_given_to_a_library_plan_keeps_it_from_the_card(warm_kernels):
    rs = Ruleset(players=2, market_with=("margrave",))
    plan = get("tuned_general_2p")
    banned = cv.ban(plan, "margrave", rs)
    assert banned.name == "tuned_general_2p-no-margrave"
    df = games_of(rs, [plan, banned], 200, seed=2)
    mine = {j: (df[f"agent_{j}"].astype(str) == banned.name).to_numpy() for j in range(2)}
    assert not np.concatenate([owns(df, j, "margrave", rs.cards)[mine[j]] for j in range(2)]).any()
    assert np.concatenate([owns(df, j, "margrave", rs.cards)[~mine[j]] for j in range(2)]).mean() > 0.3


def test_an_agent_kind_without_a_ban_is_refused_naming_the_extension_point():
    from hoc.errors import HocError

    with pytest.raises(HocError, match="BANS"):
        cv.ban(get("random"), "margrave", Ruleset(players=2))


def tune(tmp_path, *extra, start="agents/heart_of_crown/tuned/tuned_general_2p.toml") -> tuple[int, str]:
    out = tmp_path / "t"
    code = main(["tune", "--from", start, "--opponents", "basic_rush",
                 "--games", "200", "--population", "6", "--validate-games", "10", "--out", str(out), *extra])
    return code, str(out)


def test_tune_with_an_override_plays_the_changed_card(tmp_path, warm_kernels, capsys):
    code, out = tune(tmp_path, "--override", "duke.cost=3")
    assert code == 0, capsys.readouterr().err
    from hoc.agents.registry import from_file
    from hoc.research.replays import replay

    text = open(f"{out}/best.toml").read()
    assert "--override duke.cost=3" in text and "card changes duke.cost=3" in open(f"{out}/summary.md").read()
    changed = Ruleset(players=2, overrides=("duke.cost=3",))
    log = "\n".join(line for i in range(4) for line in replay(changed, [from_file(f"{out}/best.toml")] * 2, 0, i))
    assert re.search(r"buys a Duke for [0-3] coins", log)      # a Duke at its changed price
    printed = "\n".join(line for i in range(4) for line in replay(Ruleset(players=2), [get("tuned_general_2p")] * 2,
                                                                  0, i))
    assert not re.search(r"buys a Duke for [0-3] coins", printed)


def test_a_banned_card_is_never_bought_by_the_tuned_plan(tmp_path, warm_kernels, capsys):
    code, out = tune(tmp_path, "--with", "margrave", "--ban", "margrave", start="tuned_general_2p")   # by name
    assert code == 0, capsys.readouterr().err
    from hoc.agents.registry import from_file

    text = open(f"{out}/best.toml").read()
    assert 'never = ["margrave"]' in text and 'card = "margrave"' not in text
    assert 'card = "margrave"' in open("agents/heart_of_crown/tuned/tuned_general_2p.toml").read()   # the start buys it
    rs = Ruleset(players=2, market_with=("margrave",))
    tuned = from_file(f"{out}/best.toml")
    df = games_of(rs, [tuned, get("tuned_general_2p")], 200)
    mine = {j: (df[f"agent_{j}"].astype(str) == tuned.name).to_numpy() for j in range(2)}
    assert not np.concatenate([owns(df, j, "margrave", rs.cards)[mine[j]] for j in range(2)]).any()


def test_tune_refuses_an_unknown_ban_in_one_line(tmp_path, capsys):
    code, _ = tune(tmp_path, "--ban", "nosuchkind")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "nosuchkind" in err[0]


@pytest.fixture(scope="module")
def what_if_runs(tmp_path_factory, warm_kernels):
    """The tiny what-if, twice with the same seed (fresh work folders), as console text and JSON."""
    import contextlib
    import io

    runs = []
    for form in ("--json", "--json", None):
        work = tmp_path_factory.mktemp("work")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["balance", "--override", "curse_witch.cost=6", *TINY, "--agents",
                         "curse_witch,senator_duke,tuned_general_2p", "--work", str(work)] + ([form] if form else []))
        assert code == 0
        runs.append(out.getvalue())
    return runs


@pytest.mark.slow   # a what-if study end to end: its plans tuned twice (~3 min)
def test_balance_override_reports_the_card_under_test_with_an_interval(what_if_runs):
    r = json.loads(what_if_runs[0])
    assert r["card"] == "curse_witch" and r["overrides"] == ["curse_witch.cost=6"]
    c = r["card_change"]
    for v in (c["baseline"], c["changed"]):
        assert v["kind"] == "curse_witch" and v["lo"] <= v["value"] <= v["hi"] and v["seeds"] == 20
        f = v["forced"]             # the best raced plan that buys it, priced against the same banned plan
        assert f["banned"] == v["banned"] and f["lo"] <= f["value"] <= f["hi"]
    assert c["lo"] <= c["change"] <= c["hi"]
    assert r["largest_changes"][0]["name"] == "curse_witch"        # the card under test first, always
    assert {a["agent"] for a in r["agents"]} == {"curse_witch", "senator_duke", "tuned_general_2p"}
    for a in r["agents"]:
        assert a["change_lo_corrected"] <= a["change_lo"] <= a["change"] <= a["change_hi"] <= a["change_hi_corrected"]
    text = what_if_runs[2]
    assert "curse_witch (the card under test)" in text
    assert re.search(r"change\s+[+-]\s*\d+\.\d points \[", text)
    for name in ("curse_witch", "senator_duke", "tuned_general_2p"):
        assert re.search(rf"{name}\s+\d+\.\d% ->", text)


@pytest.mark.slow   # shares the what-if study's runs
def test_balance_is_determined_by_its_seed(what_if_runs):
    first, second = (json.loads(r) for r in what_if_runs[:2])
    assert first.pop("command").replace("work0", "work1") == second.pop("command")     # only --work differs
    assert first == second


@pytest.mark.slow   # shares the what-if study's runs
def test_the_plans_of_a_what_if_are_searched_under_the_change(what_if_runs, tmp_path_factory):
    """Each condition has its own pair of plans, named for it; the searched plans differ from their
    banned twins in their rules for the card only."""
    from hoc.games.heart_of_crown.agents.genome import load

    r = json.loads(what_if_runs[0])
    c = r["card_change"]
    assert c["baseline"]["allowed"] == "curse_witch-allowed" and c["changed"]["allowed"] == "curse_witch-override-allowed"
    assert r["start"] == "tuned_general_2p" and r["strong"] == "rules"
    work = tmp_path_factory.getbasetemp() / "work0"
    for tag in ("curse_witch", "curse_witch-override"):
        allowed, banned = load(work / f"{tag}-allowed.toml"), load(work / f"{tag}-banned.toml")
        assert banned.never == ("curse_witch",) and allowed.never == ()
        assert [x for x in allowed.buy if x.card != "curse_witch"] == list(banned.buy)
    assert "curse_witch.cost=6" in (work / "curse_witch-override-allowed.toml").read_text()


def test_a_rule_search_with_a_build_plays_against_the_banned_plan_or_the_built_deck_without_it(capsys, tmp_path,
                                                                                                warm_kernels):
    """With --build-steps the allowed plan may differ from the banned one in any rule; the banned
    player is then the start plan without the kind or the built deck without it, never another."""
    from hoc.games.heart_of_crown.agents.genome import load

    argv = ["balance", "--card", "margrave", "--from", "tuned_general_2p", *TINY, "--build-steps", "1", "--json",
            "--work", str(tmp_path)]
    assert main(argv) == 0
    r = json.loads(capsys.readouterr().out)
    v = r["values"][0]
    assert v["lo"] <= v["value"] <= v["hi"] and v["forced"]["banned"] == v["banned"]
    assert "built around the card for 1 steps" in r["strong_player"]
    allowed, banned = load(tmp_path / "margrave-allowed.toml"), load(tmp_path / "margrave-banned.toml")
    rs = Ruleset(players=2, market="random", market_with=("margrave",))
    start_banned = cv.rule_plans(rs, "margrave", cv.Tuning(start="tuned_general_2p"))[1]
    assert banned in (start_banned, cv.twin(allowed, "margrave", ["margrave"]))


def test_a_single_card_run_off_a_terminal_prints_progress_lines_with_the_eta_of_all_its_stages(capsys, monkeypatch,
                                                                                               warm_kernels):
    """One progress line over the card's whole run (the rule search's stages, then the value's head to
    heads), its size and time left on every line, the stage it is in named."""
    from hoc.research import progress

    monkeypatch.setattr(progress, "EVERY", 0.05)        # a line every 0.05 s instead of every 15
    assert main(["balance", "--card", "margrave", *TINY, "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("margrave:")]
    shape = re.compile(r"margrave:\s+\d+%\|[#0-9 ]+\| ([\d.]+)(k?)/([\d.]+)(k?) \[\d\d:\d\d<\d\d:\d\d, [^,]+, ([a-z -]+)\]$")
    matched = [shape.match(line) for line in lines]
    assert len(lines) > 5 and all(matched), lines
    stages = list(dict.fromkeys(m.group(5) for m in matched))
    assert stages[0] in ("strong players", "race") and "race" in stages and "buyers" in stages
    assert stages.index("race") < stages.index("buyers")
    for m in matched:                                   # never more games played than the line's total
        done, total = (float(m.group(i)) * (1000 if m.group(i + 1) else 1) for i in (1, 3))
        assert done <= total
    assert "hoc balance: margrave: racing" in err and "hoc balance: margrave: 20 seeds x 2 seats" in err


def test_card_value_with_whole_plans_re_tuned_per_condition(capsys, tmp_path, warm_kernels):
    argv = ["balance", "--card", "margrave", "--strong", "tuned", "--tune-games", "300", "--seeds", "20", "--json",
            "--work", str(tmp_path)]
    assert main(argv) == 0
    r = json.loads(capsys.readouterr().out)
    v = r["values"][0]
    assert (v["allowed"], v["banned"]) == ("margrave-allowed", "margrave-banned") and v["banned_owned"] == 0
    assert r["tune_games"] == 300 and v["lo"] <= v["value"] <= v["hi"]
    assert 'never = ["margrave"]' in (tmp_path / "margrave.base.banned" / "best.toml").read_text()


def test_card_value_of_a_fixed_agent_against_itself_banned(capsys, tmp_path, warm_kernels):
    png = tmp_path / "values.png"
    assert main(["balance", "--card", "margrave", "--strong", "tuned_general_2p", "--seeds", "200", "--json",
                 "--plot", str(png)]) == 0
    assert png.stat().st_size > 5000
    v = json.loads(capsys.readouterr().out)["values"][0]
    assert v["banned"] == "tuned_general_2p-no-margrave" and v["games"] == 400
    assert v["banned_owned"] == 0 and v["bought"] > 0.3
    assert v["value"] > 0 and v["lo"] > 0                         # Margraves are worth a lot to this plan


@pytest.mark.parametrize("argv,named", [
    (["--card", "nosuch"], "nosuch"),
    ([], "--card"),
    (["--override", "duke.cost=7"], "--card"),
    (["--card", "margrave", "--strong", "random"], "BANS"),
    (["--card", "margrave", "--players", "5"], "2 to 4"),
    (["--card", "margrave", "--seeds", "1"], "--seeds"),
    (["--card", "margrave", "--select-seeds", "0"], "--select-seeds"),
    (["--card", "margrave", "--refine-seeds", "-1"], "--refine-seeds"),
    (["--card", "margrave", "--build-steps", "-1"], "--build-steps"),
    (["--card", "margrave", "--from", "nosuch_plan"], "nosuch_plan"),
    (["--override", "curse_witch.cost=6", "--agents", "senator_duke"], "cannot fill"),
    (["--card", "margrave,curse_witch", "--override", "curse_witch.cost=6"], "one kind"),
])
def test_balance_bad_input_is_one_line_and_exit_2(capsys, argv, named, monkeypatch):
    from hoc.research import harness

    monkeypatch.setattr(harness, "play_rows", lambda *a: (_ for _ in ()).throw(AssertionError("a game was played")))
    assert main(["balance", *argv]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and out == ""


@pytest.mark.parametrize("name", ["tuned_plan_c_2p+plan", "tuned_general_2p+plan"])
def test_a_start_plan_named_with_plus_plan_is_the_player_the_registry_plays(name):
    """The rule search starts from the very player `NAME+plan` names: its file's own planner
    settings (tuned_plan_c_2p plans its Second phase two turns ahead), not the planner's defaults."""
    rs = Ruleset(players=2)
    plan = cv.start_plan(name)
    assert (plan.params(rs) == get(name).params(rs)).all()
    assert dict(plan.plan)["samples"] >= 1 and dict(plan.plan)["second"] > 0


def test_the_rule_search_selection_keeps_a_finalist_worth_more_than_ignoring_the_kind(warm_kernels):
    """The finalists are compared against the banned plan on seeds of their own: a plan whose rule for
    the kind wins games is picked over the plan without it, a plan whose rule never fires ties with
    that plan and loses the tie, and only a plan that ends with the kind counts as one that buys it."""
    from dataclasses import replace

    from hoc.games.heart_of_crown.agents.genome import Rule

    rs = Ruleset(players=2, market="random", market_with=("margrave",))
    start = cv.start_plan("tuned_general_2p")
    without = replace(start, buy=tuple(r for r in start.buy if r.card != "margrave"))
    banned = replace(without, never=("margrave",))
    never_fires = replace(without, buy=without.buy + (Rule("margrave", (("coins_at_most", 0),)),))
    buys_it = replace(without, buy=(Rule("margrave", ()),) + without.buy)
    best, forced, games = cv._select(rs, "margrave", [without, never_fires], [buys_it], banned, 5, Backend())
    assert best == buys_it and forced == buys_it and games == 3 * cv.SELECT_SEEDS * 2
    best, forced, _ = cv._select(rs, "margrave", [without, never_fires], [], banned, 5, Backend())
    assert best == without and forced is None
    *_, games = cv._select(rs, "margrave", [without], [buys_it], banned, 5, Backend(), seeds=30)
    assert games == 2 * 30 * 2                # the selection's seeds are the Tuning's (--select-seeds), not fixed
    assert cv.Tuning(select_seeds=30).select_seeds == 30 and cv.Tuning().select_seeds == cv.SELECT_SEEDS


def test_a_rerun_with_more_value_seeds_reuses_the_plans_its_rule_search_found(tmp_path, monkeypatch, warm_kernels):
    """The rule search never plays the value's seeds: a rerun of the study that changes only them
    reads its plans back, while one that changes the search (its selection seeds) searches again."""
    from experiments import balance
    from experiments.common import Study
    from hoc.agents.tune import evaluate

    args = balance.arguments(["--games", "10", "--select-seeds", "10", "--refine-seeds", "10",
                              "--start", "tuned_general_2p", "--jobs", "1",
                              "--out", str(tmp_path)])
    study = Study("balance", "test", args, [])
    first = balance.value_of("margrave", cv.RULES, 0, args, study)
    plans = {p.name: p.read_text() for p in (tmp_path / "plans" / "rules").glob("*.toml")}

    def searched(*a, **k):
        raise AssertionError("the rule search ran again")
    monkeypatch.setattr(evaluate, "race", searched)
    args.games = 30
    again = balance.value_of("margrave", cv.RULES, 0, args, study)
    assert again["seeds"] == 30 and first["seeds"] == 10 and again["allowed"] == first["allowed"]
    assert {p.name: p.read_text() for p in (tmp_path / "plans" / "rules").glob("*.toml")} == plans
    assert balance.value_of("margrave", cv.RULES, 0, args, study) == again          # now saved as it is
    args.select_seeds = 11
    with pytest.raises(AssertionError, match="ran again"):
        balance.value_of("margrave", cv.RULES, 0, args, study)


def test_the_default_strong_player_says_plainly_how_it_differs_from_the_published_studys():
    from hoc.games.heart_of_crown.studies import card_value as cv
    from hoc.games.heart_of_crown.studies.balance_report import STUDY_START, strong_words

    default = strong_words(cv.RULES, 2, cv.Tuning())
    assert "tuned_general_2p" in default and f"Not the published study's player ({STUDY_START}" in default
    assert "Not the published" not in strong_words(cv.RULES, 2, cv.Tuning(start=STUDY_START))
