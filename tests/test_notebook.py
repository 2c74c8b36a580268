"""The API in a notebook (issue 38, item 4): results render as an HTML table, the crosstable and
a long per-game-per-entrant frame are DataFrames, two charts are matplotlib Figures, and `load`
of a comparison's folder gives a Comparison with its test."""

from __future__ import annotations

import math

import pytest

from domsim import api


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return api.tourney("block", ["easy", "medium", "hard"], games=36, seed=2, workers=1,
                       out=tmp_path_factory.mktemp("nb") / "run")


def test_results_render_as_an_html_table_strongest_first(results):
    page = results._repr_html_()
    assert page.startswith("<div>") and "<table>" in page and "rating [95% CI]" in page
    rated = results.ratings(samples=50).entrant.tolist()
    assert [page.index(f"<td>{name}</td>") for name in rated] == sorted(
        page.index(f"<td>{name}</td>") for name in rated)


def test_the_crosstable_is_each_pairs_share_of_the_wins(results):
    table = results.crosstable()
    assert list(table.index) == list(table.columns) == ["easy", "medium", "hard"]
    assert all(math.isnan(table.iat[i, i]) for i in range(3))
    pairs = {(pair["a"], pair["b"]): pair["win_rate"]
             for pair in results.statistics(samples=10)["pairs"]}
    for (a, b), rate in pairs.items():
        assert table.loc[a, b] == pytest.approx(rate) and table.loc[b, a] == pytest.approx(1 - rate)


def test_the_long_frame_has_a_row_per_game_and_entrant_that_adds_up_to_the_summary(results):
    frame = results.per_entrant()
    assert len(frame) == 2 * len(results.games)
    summary = results.summary.set_index(["pairing", "entrant"])
    for name, rows in frame.groupby("entrant"):
        line = summary.loc[("all", name)]
        assert rows["share"].sum() == pytest.approx(line["win_rate"] * line["games"])
        assert (rows["share"] == 1).sum() == line["wins"]


def test_the_charts_are_figures(results):
    from matplotlib.figure import Figure

    for figure in (results.plot_ratings(samples=20), results.plot_crosstable()):
        assert isinstance(figure, Figure) and figure.axes


def test_load_of_a_comparisons_folder_is_a_comparison_with_its_test(tmp_path):
    played = api.compare("medium", "easy", "classic", elo0=0, elo1=100, seed=5, workers=1,
                         out=tmp_path / "cmp")
    loaded = api.load(tmp_path / "cmp")
    assert isinstance(loaded, api.Comparison)
    assert (loaded.verdict, loaded.llr, loaded.figures) == (played.verdict, played.llr,
                                                            played.figures)
    page = loaded._repr_html_()
    assert "verdict: H1 accepted" in page
    # issue 48: one estimate for the comparison, the verdict lines' and the table's alike (on
    # 455ac6a "Elo: 381.70 +/- 314.32" sat above "rating +194 [+133, +311]")
    figures = loaded.figures
    assert f"Elo: {figures['elo']:.2f} [{figures['elo_low']:+.2f}, {figures['elo_high']:+.2f}]" \
        in page
    shown = f"{figures['elo']:+.0f} [{figures['elo_low']:+.0f}, {figures['elo_high']:+.0f}]"
    assert f"<td>{shown}</td>" in page
