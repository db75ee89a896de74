"""hoc.research.plots writes valid PNG files of a readable size from small hand-built inputs."""
from __future__ import annotations

import struct

import numpy as np
import pandas as pd
import pytest

from hoc.research import plots as P

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def head_to_head() -> pd.DataFrame:
    """A `pairwise(...).long` of three agents, 100 games per pair."""
    rows = []
    for a, b, wins in [("A", "B", 70), ("A", "C", 90), ("B", "C", 55)]:
        for x, y, w in [(a, b, wins), (b, a, 100 - wins)]:
            rows.append({"agent": x, "opponent": y, "wins": w, "losses": 100 - w, "draws": 0, "games": 100,
                         "first": 50, "rate": w / 100, "lo": w / 100 - 0.09, "hi": w / 100 + 0.08})
    return pd.DataFrame(rows)


def games(turns, reasons) -> pd.DataFrame:
    return pd.DataFrame({"game": np.arange(len(turns)), "turns": turns,
                         "end_reason": pd.Categorical(reasons, categories=["coronation", "overtime", "judgement"])})


def png_size(path) -> tuple[int, int]:
    """Width and height of a PNG file, checking its signature and IHDR chunk."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, "not a PNG file"
    assert data[12:16] == b"IHDR"
    assert data[-8:-4] == b"IEND"
    return struct.unpack(">II", data[16:24])


def assert_sensible_png(path, min_bytes=8_000):
    assert path.exists()
    w, h = png_size(path)
    assert 400 <= w <= 4000 and 300 <= h <= 4000, (w, h)
    assert path.stat().st_size > min_bytes       # more than a blank canvas


def test_winrate_heatmap_writes_png_from_pairwise_long(tmp_path):
    out = P.winrate_heatmap(head_to_head(), tmp_path / "h2h.png")
    assert out == tmp_path / "h2h.png"
    assert_sensible_png(out)


def test_winrate_heatmap_accepts_the_pairwise_result_and_creates_directories(tmp_path):
    from hoc.research.stats import Pairwise

    long = head_to_head()
    wide = long.pivot(index="agent", columns="opponent", values="rate")
    out = P.winrate_heatmap(Pairwise(long, wide), tmp_path / "deep" / "dir" / "h2h.png")
    assert_sensible_png(out)


def test_winrate_heatmap_refuses_empty_results(tmp_path):
    with pytest.raises(ValueError):
        P.winrate_heatmap(head_to_head().iloc[:0], tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


def test_princess_bars_writes_png(tmp_path):
    table = pd.DataFrame({"princess": ["laolily", "twins", "bergamot", "none"], "backed": [300, 250, 120, 30],
                          "wins": [170, 120, 40, 10], "rate": [0.567, 0.48, 0.333, 0.333],
                          "lo": [0.51, 0.42, 0.25, 0.19], "hi": [0.62, 0.54, 0.42, 0.51],
                          "mean_turn": [4.2, 5.1, 6.0, np.nan], "median_turn": [4, 5, 6, np.nan]})
    out = P.princess_bars(table, tmp_path / "princess.png")
    assert_sensible_png(out)


def test_length_histogram_by_end_reason_and_plain_write_png(tmp_path):
    rng = np.random.default_rng(0)
    turns = rng.normal(40, 5, 200).round().astype(int)
    df = games(turns, np.where(turns > 45, "overtime", "coronation"))
    assert_sensible_png(P.length_histogram(df, tmp_path / "by_reason.png"))
    assert_sensible_png(P.length_histogram(df, tmp_path / "plain.png", by_end_reason=False))


def test_sp_curves_with_and_without_interval_band_write_png(tmp_path):
    turn = np.arange(1, 16)
    curves = pd.concat([pd.DataFrame({"agent": a, "turn": turn, "sp": k * turn, "lo": k * turn - 1, "hi": k * turn + 1})
                        for a, k in [("basic_rush", 1.5), ("senator_duke", 1.2)]], ignore_index=True)
    assert_sensible_png(P.sp_curves(curves, tmp_path / "band.png"))
    assert_sensible_png(P.sp_curves(curves[["agent", "turn", "sp"]], tmp_path / "lines.png"))


def test_sp_curves_refuse_empty_input(tmp_path):
    with pytest.raises(ValueError):
        P.sp_curves(pd.DataFrame(columns=["agent", "turn", "sp"]), tmp_path / "x.png")


def drawn(monkeypatch):
    """The figures the plots make, drawn (their artists placed), captured as they are saved."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figs = []
    save = P._save

    def keep(fig, path):
        figs.append(fig)
        return save(fig, path)
    monkeypatch.setattr(P, "_save", keep)

    def draw():
        fig = figs[-1]
        FigureCanvasAgg(fig).draw()
        return fig, fig.canvas.get_renderer()
    return draw


def inside(inner, outer, slack=1.0) -> bool:
    return (inner.x0 >= outer.x0 - slack and inner.x1 <= outer.x1 + slack and inner.y0 >= outer.y0 - slack
            and inner.y1 <= outer.y1 + slack)


def test_a_long_card_value_title_is_wrapped_inside_the_figure(tmp_path, monkeypatch):
    draw = drawn(monkeypatch)
    table = pd.DataFrame({"label": ["margrave", "land_reclamation_decree", "purveyor"], "value": [0.17, 0.05, -0.01],
                          "lo": [0.16, 0.04, -0.02], "hi": [0.18, 0.06, 0.0]})
    title = ("Card value: tuned_plan_c_2p+plan with its rules for the kind searched, against it banned, "
             "2 players, random markets")
    P.effect_bars(table, "label", tmp_path / "values.png", title, "win rate minus 50%, percentage points",
                  value="value")
    fig, renderer = draw()
    assert "\n" in fig.get_suptitle()
    assert inside(fig._suptitle.get_window_extent(renderer), fig.bbox)


def meta_results():
    from hoc.research.meta import COLUMNS, Results

    agents = ["senator_duke", "tuned_general_2p", "tuned_laolily_2p", "curse_witch", "basic_rush"]
    rows = []
    for i, a in enumerate(agents):
        for j in range(i + 1, len(agents)):
            b = agents[j]
            wins = 60 + 5 * (j - i)                     # earlier plans beat later ones
            rows += [{"lineup": f"{a}+{b}", "agent": a, "count": 1, "seats": 100, "wins": wins, "games": 100},
                     {"lineup": f"{a}+{b}", "agent": b, "count": 1, "seats": 100, "wins": 100 - wins, "games": 100}]
    return Results(2, agents, pd.DataFrame(rows, columns=COLUMNS))


def test_the_meta_plots_legend_covers_no_bar_and_no_plan_name(tmp_path, monkeypatch):
    from hoc.research.meta import analyse

    draw = drawn(monkeypatch)
    P.meta_game(analyse(meta_results(), reps=0), tmp_path / "meta.png", title="Meta-game of five plans")
    fig, renderer = draw()
    right = fig.axes[1]
    legend = right.get_legend().get_window_extent(renderer)
    assert inside(legend, fig.bbox)
    for bar in right.patches:
        assert not legend.overlaps(bar.get_window_extent(renderer))
    for label in right.get_yticklabels():
        assert not legend.overlaps(label.get_window_extent(renderer))
