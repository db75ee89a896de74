"""The strategy atlas (`hoc atlas`): descriptors measured from real games, the re-measurement that
catches a lucky elite, a resumed search equal to an uninterrupted one, the outputs every command
reads, and bad options refused in one line."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hoc.agents.registry import get
from hoc.cli.main import main
from hoc.games.dominion.rules import Ruleset as DominionRules
from hoc.research.atlas import search
from hoc.research.atlas.measure import measure
from hoc.research.atlas.search import Settings
from hoc.agents.plan_space import space_of
from hoc.research.harness import Backend

SERIAL = Backend(1)
KINGDOM = "first_game"      # Cellar, Market, Merchant, Militia, Mine, Moat, Remodel, Smithy, Village, Workshop


@pytest.fixture(scope="module")
def dominion():
    space = space_of(DominionRules(players=2, market=KINGDOM))
    return space, (get("dom_big_money"),)


def _settings(space, panel, **kw):
    base = dict(descriptors=("action_share", "deck_size"), seed=3, iterations=2, emitters=1, batch=4, seeds=2,
                resolution=4, remeasure_seeds=4, polish=2, polish_iterations=2)
    base.update(kw)
    return Settings(space, panel, **base)


def test_descriptors_are_measured_from_the_plans_own_games(dominion):
    from hoc.games.dominion.agents.bots import library

    space, panel = dominion
    bm, smithy = (space.point(library()[n]) for n in ("dom_big_money", "dom_smithy_bm"))
    m = measure(space, np.stack([bm, smithy]), panel, 11, 40, 0, SERIAL, ("action_share", "deck_size"))
    assert m.descriptors[0, 0] == 0.0                       # Big Money buys no Action
    assert 0.0 < m.descriptors[1, 0] < 0.15                 # one Smithy (sometimes two) in a deck of 20-odd cards
    assert 15 < m.descriptors[0, 1] < 40 and 15 < m.descriptors[1, 1] < 40
    smithy_id = space.ruleset.cards.lookup("smithy")
    assert m.copies[0, smithy_id] == 0 and 0.9 <= m.copies[1, smithy_id] <= 1.5
    # the same plan against itself wins half of the mirrored games, shared wins split
    assert abs(m.fitness[0] - 0.5) < 0.1


def test_the_remeasurement_catches_a_planted_lucky_elite(dominion):
    from hoc.games.dominion.agents.bots import library

    space, panel = dominion
    settings = _settings(space, panel, remeasure_seeds=60)
    from hoc.games.dominion.agents.atlas import GATE, PER_CARD

    s = search.start(settings, SERIAL)
    s.archive.clear()                                       # only the two planted elites
    weak = space.point(library()["dom_big_money"])
    weak[:len(space.cards) * PER_CARD].reshape(-1, PER_CARD)[:, GATE] = 0.0   # every gate shut: buys Silver only
    good = space.point(library()["dom_smithy_bm"])
    s.archive.add(np.stack([weak, good]), np.array([0.95, 0.40]), np.array([[0.05, 10.0], [0.05, 30.0]]))
    data, m = search.remeasure(settings, s, SERIAL)
    lucky = int(np.argmax(data["objective"]))
    assert data["objective"][lucky] == pytest.approx(0.95)
    assert m.interval(lucky)[1] < 0.3                       # fresh seeds show what it is
    assert m.fitness[1 - lucky] > m.fitness[lucky]          # and the table ranks the other first


def test_the_archive_starts_with_a_swept_rush_of_every_kind(dominion):
    """Before the emitters, each kind of the market bought first and uncapped, then swept card by
    card (every card's gate flipped in turn, the best kept, twice): those plans seed the archive."""
    from ribs.archives import GridArchive

    space, panel = dominion
    settings = _settings(space, panel, seeds=4)
    archive = GridArchive(solution_dim=len(space.lower), dims=(4, 4), ranges=[(0.0, 0.6), (5.0, 60.0)])
    found = search.Search(None)
    kinds = space.ruleset.market_piles[1]
    rushes = search.rushes(settings, archive, SERIAL, found)
    assert len(rushes) == len(kinds) == 10
    assert found.evaluations == len(kinds) * search.SWEEPS * len(space.cards)     # each kind keeps its gate
    firsts = {space.entries(x)[0][0]["card"] for x in rushes}
    assert len(firsts & set(kinds)) >= 5                    # most rushes still open with their kind
    assert len(archive) > 1


def test_a_resumed_atlas_equals_an_uninterrupted_one(dominion, tmp_path):
    space, panel = dominion
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    whole.mkdir()
    parts.mkdir()
    a = search.run(_settings(space, panel, iterations=3), whole, SERIAL, progress=lambda line: None)
    search.run(_settings(space, panel, iterations=1), parts, SERIAL, progress=lambda line: None)
    b = search.run(_settings(space, panel, iterations=3), parts, SERIAL, progress=lambda line: None)
    da, db = a.archive.data(), b.archive.data()
    order_a, order_b = np.argsort(da["index"]), np.argsort(db["index"])
    assert (da["index"][order_a] == db["index"][order_b]).all()
    assert np.array_equal(da["solution"][order_a], db["solution"][order_b])
    assert np.array_equal(da["objective"][order_a], db["objective"][order_b])
    with pytest.raises(Exception, match="other settings"):
        search.run(_settings(space, panel, iterations=3, seed=4), parts, SERIAL, progress=lambda line: None)


def _planted(settings, *points, objective=None):
    """A search whose archive holds only the planted points (descriptors as measured)."""
    s = search.start(settings, SERIAL)
    s.archive.clear()
    xs = np.stack(points)
    m = measure(settings.space, xs, settings.panel, 5, 4, 0, SERIAL, settings.descriptors)
    s.archive.add(xs, m.fitness if objective is None else np.asarray(objective), m.descriptors)
    return s


def _no_province(space):
    """Big Money that never buys a Province: it wins no game against Big Money."""
    from hoc.games.dominion.agents.atlas import GATE, PER_CARD
    from hoc.games.dominion.agents.bots import library

    weak = space.point(library()["dom_big_money"])
    weak[space.cards.index("province") * PER_CARD + GATE] = 0.0
    return weak


def test_the_polish_starts_from_the_best_elite_and_the_best_owner_of_each_kind(dominion):
    """Money without Provinces owns no kind and is not the best: no start; Militia money (the best) and Village
    with Smithy (the only owner of either) are, best first; `--polish 1` keeps the best alone."""
    from hoc.games.dominion.agents.bots import library
    from hoc.research.atlas.polish import starts

    space, panel = dominion
    militia, engine = (space.point(library()[n]) for n in ("dom_militia_bm", "dom_village_smithy"))
    settings = _settings(space, panel, seeds=16, resolution=10)
    s = _planted(settings, _no_province(space), militia, engine)
    assert len(s.archive) == 3
    row = lambda x: space.row(x)[1].tobytes()       # noqa: E731
    points, held = starts(settings, s, SERIAL)
    assert [row(x) for x in points] == [row(militia), row(engine)] and held == [(), ()]
    points, _ = starts(_settings(space, panel, seeds=16, resolution=10, polish=1), s, SERIAL)
    assert [row(x) for x in points] == [row(militia)]


def test_an_atlas_mapping_a_kind_by_its_copies_polishes_its_best_owner_and_its_best_deck_without_it_each_held(dominion):
    """A kind's archetype value plays the best deck owning it against the best without it, so an atlas
    over `owns:militia` polishes both first: Militia money holding Militia's gate open, Big Money (the
    best without Militia, which an atlas over other measures never starts from) holding it shut; every
    plan the polish measures from Big Money leaves Militia out, sweep and CMA-ES alike, so the deck
    without stays one (free, its plan moved to an owner's cell and left that side unpolished)."""
    from hoc.games.dominion.agents.bots import library
    from hoc.research.atlas import polish
    from hoc.research.atlas.sweep import OFF, ON

    space, panel = dominion
    militia, money = (space.point(library()[n]) for n in ("dom_militia_bm", "dom_big_money"))
    row = lambda x: space.row(x)[1].tobytes()       # noqa: E731
    slot = space.slots(["militia"])[0]
    mapped = _settings(space, panel, descriptors=("owns:militia", "action_share"), seeds=16, resolution=10,
                       polish=2, polish_iterations=2, batch=6)
    s = _planted(mapped, militia, money)
    points, held = polish.starts(mapped, s, SERIAL)
    assert [row(x) for x in points] == [row(militia), row(money)]
    assert held == [((slot, ON),), ((slot, OFF),)]
    polish.run(mapped, s, SERIAL, lambda: None, progress=lambda line: None)
    gate = lambda x: x[slot * space.per_card + space.gate]      # noqa: E731
    assert all(gate(x) == OFF for x in s.polish.seen[1]) and all(gate(x) == ON for x in s.polish.seen[0])
    # the start; each sweep's start and its flips but Militia's; two CMA-ES batches
    assert len(s.polish.seen[1]) == 1 + polish.SWEEPS * (1 + len(space.cards) - 1) + 2 * 6
    # an atlas over other measures starts from Militia money alone (Big Money owns no kind), holding nothing
    plain = _settings(space, panel, seeds=16, resolution=10)
    points, held = polish.starts(plain, _planted(plain, militia, money), SERIAL)
    assert [row(x) for x in points] == [row(militia)] and held == [()]
    assert mapped.identity()["format"] == search.MAPPED_FORMAT != search.FORMAT


def test_a_polished_deck_held_without_a_kind_takes_its_cell_from_an_elite_there_that_owns_the_kind(dominion):
    """An elite takes its cell on one noisy measurement of its copies: Militia money planted in the
    cell of decks without Militia. Big Money, polished from a start held without Militia, is weaker
    but belongs there: it takes the cell, so the best deck without the kind is the polished one; a
    start that holds nothing leaves the stronger elite its cell."""
    from hoc.games.dominion.agents.bots import library
    from hoc.research.atlas import polish
    from hoc.research.atlas.sweep import OFF

    space, panel = dominion
    militia, money = (space.point(library()[n]) for n in ("dom_militia_bm", "dom_big_money"))
    shut = ((space.slots(["militia"])[0], OFF),)
    mapped = _settings(space, panel, descriptors=("owns:militia", "action_share"), seeds=16, resolution=10)
    s = search.start(mapped, SERIAL)
    s.archive.clear()
    s.archive.add(militia[None], [1.0], [[0.0, 0.0]])
    start, polished = (polish._held(x, space, shut) for x in (_no_province(space), money))
    s.polish = polish.Polish([start], [], [[start, polished]], [[-np.inf, 1.0]], held=[shut])
    (c, (x, f, d)), = polish.choose(mapped, s, SERIAL).items()
    assert c == int(s.archive.index_of(np.array([[0.0, 0.0]]))[0]) and d[0] < 0.5
    assert space.row(x)[1].tobytes() == space.row(money)[1].tobytes()
    s.polish.held = [()]
    assert polish.choose(mapped, s, SERIAL) == {}


def test_a_polished_plan_takes_its_cell_only_when_it_beats_the_cells_elite_on_the_choice_seeds(dominion):
    """From money that never buys a Province, the polish (card sweep, then CMA-ES) finds a better deck,
    and the elites the re-measurement reads carry it, marked polished, in the cell it measured in;
    a planted elite the polish cannot beat keeps its cell."""
    from hoc.research.atlas import polish

    space, panel = dominion
    settings = _settings(space, panel, seeds=8, resolution=10, polish=1, polish_iterations=2, batch=6)
    s = _planted(settings, _no_province(space))
    polish.run(settings, s, SERIAL, lambda: None, progress=lambda line: None)
    data, polished = search.elites(s)
    assert polished.sum() == 1
    (c, (x, f, d)), = s.polish.chosen.items()
    assert c == int(s.archive.index_of(d[None])[0]) and f > 0.25     # the start wins nothing
    assert np.array_equal(data["solution"][polished][0], x) and data["index"][polished][0] == c
    mine = data["index"][~polished]
    assert list(mine) == [i for i in s.archive.data()["index"] if i != c]    # the other cells as the search left them


def test_a_polished_plan_takes_an_occupied_cell_only_when_strictly_better_on_the_same_seeds(dominion):
    """The choice plays a candidate and its cell's elite on the same deals: Big Money does not take
    Big Money's cell (equal, not better), and takes the cell of money that never buys Gold."""
    from hoc.games.dominion.agents.atlas import GATE, PER_CARD
    from hoc.games.dominion.agents.bots import library
    from hoc.research.atlas import polish

    space, panel = dominion
    settings = _settings(space, panel, resolution=2, polish=1)       # both money decks in one cell
    bm, weak = space.point(library()["dom_big_money"]), _no_province(space)
    no_gold = bm.copy()
    no_gold[space.cards.index("gold") * PER_CARD + GATE] = 0.0
    for occupant, taken in ((bm, False), (no_gold, True)):
        s = _planted(settings, occupant)
        s.polish = polish.Polish([weak], [], [[weak, bm]], [[-np.inf, 0.5]], iteration=1)
        chosen = polish.choose(settings, s, SERIAL)
        assert bool(chosen) == taken
        if taken:
            (c, (x, f, _)), = chosen.items()
            assert c == int(s.archive.data()["index"][0]) and np.array_equal(x, bm) and f > 0.3


def test_a_polish_resumed_equals_an_uninterrupted_one_and_a_longer_search_polishes_again(dominion, tmp_path):
    from hoc.research.atlas import polish

    space, panel = dominion
    short = _settings(space, panel, polish=2, polish_iterations=1)
    full = _settings(space, panel, polish=2, polish_iterations=2)
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    whole.mkdir()
    parts.mkdir()
    a = search.run(full, whole, SERIAL, progress=lambda line: None)
    polish.run(full, a, SERIAL, lambda: None, progress=lambda line: None)
    b = search.run(short, parts, SERIAL, progress=lambda line: None)
    polish.run(short, b, SERIAL, lambda: search.save(parts, short, b), progress=lambda line: None)
    b = search.load(parts, full)                        # the same settings: only the budget grew
    polish.run(full, b, SERIAL, lambda: None, progress=lambda line: None)
    assert b.polish.iteration == a.polish.iteration == 2
    assert a.polish.chosen and sorted(a.polish.chosen) == sorted(b.polish.chosen)
    assert [e[-8:] for e in a.polish.estimates] == [e[-8:] for e in b.polish.estimates]   # the same last step
    for c in a.polish.chosen:
        assert np.array_equal(a.polish.chosen[c][0], b.polish.chosen[c][0])
    more = search.run(_settings(space, panel, polish=2, polish_iterations=2, iterations=3), parts, SERIAL,
                      progress=lambda line: None)
    assert more.polish is None                          # the archive went on: its old polish is dropped


def test_an_atlas_counts_every_game_once_on_one_progress_line_its_search_sized_ahead(dominion, tmp_path):
    """The seeding, the search and the remeasure on one progress line (`hoc.research.progress`): every
    game counted once; the search's stage played what it was sized at before it began."""
    from hoc.research import progress
    from hoc.research.atlas import atlas

    space, panel = dominion
    settings = _settings(space, panel)
    told = []
    with progress.metered("atlas", show=told.append) as meter:
        frame = atlas(settings, tmp_path, SERIAL, "(test)", progress=lambda line: None)
    found = search.load(tmp_path, settings)
    per = len(panel) * settings.seeds * space.ruleset.players
    assert sum(told) == found.games + len(frame) * len(panel) * settings.remeasure_seeds * space.ruleset.players
    assert meter.played["search"] == settings.iterations * settings.emitters * settings.batch * per
    assert 0 < meter.played["seeding"] and meter.total() == sum(told)


def test_hoc_atlas_writes_elites_that_every_command_plays_by_path(capsys, tmp_path):
    out = tmp_path / "atlas"
    code = main(["atlas", "--game", "dominion", "--market", KINGDOM, "--panel", "dom_big_money", "--iterations", "2",
                 "--emitters", "1", "--batch", "4", "--seeds", "2", "--resolution", "4", "--remeasure-seeds", "4",
                 "--polish-iterations", "2", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    frame = pd.read_parquet(out / "elites.parquet")
    for column in ("plan", "action_share", "deck_size", "fitness", "lo", "hi", "search_fitness", "owns_smithy",
                   "owns_village", "viable"):
        assert column in frame.columns
    assert (frame["lo"] <= frame["fitness"]).all() and (frame["fitness"] <= frame["hi"]).all()
    assert frame["fitness"].is_monotonic_decreasing
    assert (out / "atlas.png").stat().st_size > 1000
    summary = (out / "summary.md").read_text()
    assert "Reproduce: `hoc atlas --game dominion --players 2" in summary and "the search never used" in summary
    best = out / frame["plan"].iloc[0]
    assert best.read_text().startswith("# An elite of the strategy atlas")
    assert main(["simulate", "--game", "dominion", "--market", KINGDOM, "--agents", f"{best},dom_big_money",
                 "--games", "20"]) == 0


@pytest.mark.parametrize("argv, message", [
    (["--descriptors", "action_share,luck"], "'luck' is not a measure of Dominion"),
    (["--descriptors", "owns:witch,deck_size"], "'witch' is not a kind of these markets"),
    (["--descriptors", "deck_size"], "--descriptors names two different measures"),
    (["--iterations", "0"], "--iterations must be at least 1"),
    (["--players", "1"], "--players must be 2 to 4"),
    (["--panel", "no_such_bot"], "no_such_bot"),
    (["--market", "random"], "give --market a recommended kingdom"),
])
def test_bad_atlas_options_are_one_line_and_exit_code_2(capsys, tmp_path, argv, message):
    base = ["atlas", "--game", "dominion", "--market", KINGDOM, "--out", str(tmp_path / "a")]
    code = main(base + argv)
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_an_out_that_is_a_file_is_refused_before_any_game(capsys, tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["atlas", "--game", "dominion", "--market", KINGDOM, "--out", str(f)]) == 2
    assert "exists and is not a folder" in capsys.readouterr().err


def test_the_heart_of_crown_space_decodes_every_point_into_a_plan_the_engine_reads():
    from hoc.games.heart_of_crown.agents.catalog import TUNED
    from hoc.games.heart_of_crown.agents.genome import load
    from hoc.games.heart_of_crown.rules import Ruleset

    space = space_of(Ruleset(players=2, market="random"))       # every card of every kind: lists at their longest
    rng = np.random.default_rng(0)
    for x in [rng.uniform(space.lower, space.upper) for _ in range(20)] + space.starts() + [space.upper]:
        kind, row = space.row(x)
        assert row.ndim == 1 and kind >= 0
    plan = load(TUNED / "tuned_general_2p.toml")
    again = space.plan(space.point(plan))
    on_market = [r.card for r in plan.buy if r.card in space.cards]
    assert [r.card for r in again.buy] == list(dict.fromkeys(on_market))      # each card's first rule, in order
    assert again.prefer[:1] == plan.prefer[:1] and again.min_coins == plan.min_coins


def test_a_heart_of_crown_plan_plays_first_the_actions_its_genes_say_and_a_rush_plays_its_kinds_first():
    """Library pays a coin for every Action played after it: a deck built around it must be able to
    play it first, so the space has a play-first gene per card, read back from a plan's `first`."""
    from hoc.games.heart_of_crown.agents.atlas import FIRST, PER_CARD
    from hoc.games.heart_of_crown.agents.catalog import TUNED
    from hoc.games.heart_of_crown.agents.genome import load
    from hoc.games.heart_of_crown.rules import Ruleset

    market = ("library", "post_horse", "alchemist", "trading_ship", "supply_unit", "stargazing_witch", "donation",
              "bank", "hideout", "scout")
    rs = Ruleset(players=2, market=market)
    space = space_of(rs)
    base = space.point(load(TUNED / "tuned_general_2p.toml"))
    assert space.plan(base).first == ()
    rush = space.rushing(base, ["library", "post_horse"])
    plan = space.plan(rush)
    assert plan.first == ("library", "post_horse")               # the kinds first, in their priority order
    assert space.plan(space.point(plan)).first == plan.first       # read back
    x = np.array(base)
    x[space.cards.index("city") * PER_CARD + FIRST] = 1.0          # a Territory is never in `first`
    assert "city" not in space.plan(x).first
    assert plan.params(rs).any()


def test_a_kinds_archetype_value_plays_the_best_owner_against_the_best_deck_without_it(dominion, tmp_path):
    from hoc.research.atlas.value import OWNER, WITHOUT, archetype_value

    space, panel = dominion
    settings = _settings(space, panel, descriptors=("owns:militia", "action_share"), iterations=3, batch=8)
    v = archetype_value(settings, "militia", tmp_path, SERIAL, "(test)", seeds=40, progress=lambda line: None)
    frame = pd.read_parquet(tmp_path / "elites.parquet")
    owner = frame[frame["plan"] == v["owner"]].iloc[0]
    without = frame[frame["plan"] == v["without"]].iloc[0]
    assert owner["owns_militia"] >= OWNER and without["owns_militia"] < WITHOUT
    # the best of each side: no owner (no deck without) ranks above the one chosen
    assert not (frame[frame["owns_militia"] >= OWNER]["fitness"] > owner["fitness"]).any()
    assert not (frame[frame["owns_militia"] < WITHOUT]["fitness"] > without["fitness"]).any()
    assert v["archetype_lo"] <= v["archetype_value"] <= v["archetype_hi"]


def test_balance_by_the_atlas_refuses_a_bad_budget_in_one_line(capsys):
    assert main(["balance", "--card", "scout", "--strong", "atlas", "--atlas-iterations", "0"]) == 2
    assert "--atlas-iterations must be at least 1" in capsys.readouterr().err


FIRST_GAME_ATLAS = Path(__file__).parent.parent / "results" / "atlas" / "dominion_first_game"


def test_an_atlas_folder_names_its_viable_elites_best_first_wherever_agents_are_listed(capsys):
    from hoc.agents.registry import split_names

    frame = pd.read_parquet(FIRST_GAME_ATLAS / "elites.parquet")
    viable = [str(FIRST_GAME_ATLAS / p) for p in frame[frame.viable].sort_values("fitness", ascending=False).plan]
    assert 1 < len(viable) < len(frame)                     # the viable ones only, not every elite
    assert split_names(f"{FIRST_GAME_ATLAS},dom_big_money") == viable + ["dom_big_money"]
    assert split_names(str(FIRST_GAME_ATLAS), archives=False) == [str(FIRST_GAME_ATLAS)]   # a web request's list
    assert main(["tournament", "--game", "dominion", "--market", "first_game", "--agents",
                 f"{FIRST_GAME_ATLAS},dom_big_money", "--games-per-pairing", "4"]) == 0
    assert "elite_000" in capsys.readouterr().out


def test_an_atlas_folder_without_its_plan_files_is_refused_in_one_line(capsys, tmp_path):
    import shutil

    shutil.copy(FIRST_GAME_ATLAS / "elites.parquet", tmp_path / "elites.parquet")
    assert main(["tournament", "--game", "dominion", "--market", "first_game", "--agents",
                 f"{tmp_path},dom_big_money", "--games-per-pairing", "4"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "viable elites' plan files" in err[0]
