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
