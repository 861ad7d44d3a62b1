"""critical_difference_diagram: draws on the Agg backend, the right labels and bars."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import numpy as np
import pytest

from assay import bonferroni_dunn, friedman, nemenyi

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from assay.plot import critical_difference_diagram  # noqa: E402

NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
# Demsar (2006), Table 6, with voting's tie broken as the paper's ranks (see
# tests/inference/test_ranks.py).
SCORES = np.array(
    [
        [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
        [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
        [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
        [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
        [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
        [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
        [0.972, 0.981, 0.97501, 0.975], [0.957, 0.978, 0.946, 0.970],
    ]
)  # fmt: skip
THICK = 2.5  # the bars are drawn 3 points wide, every other line at most 1


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def _texts(ax: object) -> list[str]:
    return [text.get_text() for text in ax.texts]  # type: ignore[attr-defined]


def _bars(ax: object) -> list[tuple[float, float]]:
    """(low, high) x extent of every thick line."""
    return sorted(
        (float(min(line.get_xdata())), float(max(line.get_xdata())))
        for line in ax.lines  # type: ignore[attr-defined]
        if line.get_linewidth() > THICK
    )


def test_nemenyi_diagram_of_demsar_figure_1a() -> None:
    result = nemenyi(SCORES, alpha=0.10, model_names=NAMES)
    ax = critical_difference_diagram(result).ax_
    assert isinstance(ax, matplotlib.axes.Axes)
    assert isinstance(ax.figure, matplotlib.figure.Figure)
    texts = _texts(ax)
    for name, rank in zip(NAMES, result.average_ranks, strict=True):
        assert texts.count(f"{name} ({rank:.2f})") == 1
    assert texts.count("CD") == 1
    assert [str(tick) for tick in range(1, 5)] == [t for t in texts if t.isdigit()]
    # two bars, as in Figure 1(a): {C4.5+m+cf, C4.5+m, C4.5+cf} and {C4.5+cf, C4.5}
    assert result.cliques == ((3, 1, 2), (2, 0))
    bars = _bars(ax)
    assert len(bars) == 2
    ranks = result.average_ranks
    assert bars[0] == pytest.approx((ranks[3] - 0.03, ranks[2] + 0.03))
    assert bars[1] == pytest.approx((ranks[2] - 0.03, ranks[0] + 0.03))
    low, high = ax.get_xlim()
    assert low > high  # best rank on the right


def test_bonferroni_dunn_diagram_marks_the_cd_around_the_control() -> None:
    result = bonferroni_dunn(SCORES, control="C4.5", model_names=NAMES)
    ax = critical_difference_diagram(result).ax_
    assert "CD" not in _texts(ax)
    control_rank = result.average_ranks[0]
    expected = (control_rank - result.critical_difference, min(4.0, control_rank + 1.168))
    assert _bars(ax) == [pytest.approx(expected, abs=1e-3)]
    bold = [text.get_text() for text in ax.texts if text.get_fontweight() == "bold"]
    assert bold == ["C4.5 (3.14)"]


def test_draws_on_a_given_axes_with_other_names() -> None:
    _, axes = plt.subplots(1, 2)
    result = nemenyi(SCORES)
    display = critical_difference_diagram(result, ax=axes[1], names=list("ABCD"), show_ranks=False)
    ax = display.ax_
    assert ax is axes[1]
    assert sorted(t for t in _texts(ax) if t.isalpha() and t != "CD") == ["A", "B", "C", "D"]
    assert not axes[0].texts
    assert len(_bars(ax)) == len(result.cliques) == 1


@pytest.mark.parametrize("k", [2, 3, 7, 12])
def test_any_number_of_models(k: int) -> None:
    rng = np.random.default_rng(k)
    scores = rng.normal(size=(20, k)) + np.linspace(0, 2, k)
    result = nemenyi(scores)
    ax = critical_difference_diagram(result).ax_
    labels = [t for t in _texts(ax) if t.startswith("model ")]
    assert len(labels) == k
    assert len(_bars(ax)) == len(result.cliques)


def test_errors() -> None:
    with pytest.raises(TypeError, match=r"`result` must be the PosthocResult of nemenyi\(\) or "):
        critical_difference_diagram(friedman(SCORES))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"`names` has 2 names but the result has 4 models\."):
        critical_difference_diagram(nemenyi(SCORES), names=["a", "b"])


def test_missing_matplotlib_is_a_clear_import_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"needs matplotlib; install it with `pip install"):
        critical_difference_diagram(nemenyi(SCORES))


# --- The display and the rank_models result. ---


def test_display_follows_scikit_learn_conventions() -> None:
    from assay.plot import CriticalDifferenceDisplay, critical_difference_layout

    result = nemenyi(SCORES, alpha=0.10, model_names=NAMES)
    display = critical_difference_diagram(result)
    assert isinstance(display, CriticalDifferenceDisplay)
    assert display.figure_ is display.ax_.figure
    layout = critical_difference_layout(result)
    assert display.layout == layout
    # the drawn bars and labels are the layout's
    drawn = [
        (min(bar.get_xdata()), max(bar.get_xdata()), bar.get_ydata()[0]) for bar in display.bars_
    ]
    assert drawn == [(bar.low, bar.high, bar.y) for bar in layout.cliques]
    assert [text.get_text() for text in display.labels_] == [label.text for label in layout.labels]
    assert [text.get_position() for text in display.labels_] == [
        (label.x_end + (-0.05 if label.on_right else 0.05), label.y) for label in layout.labels
    ]
    # plot() draws a layout again on another axes and returns the display
    _, other = plt.subplots()
    assert CriticalDifferenceDisplay(layout).plot(ax=other).ax_ is other


def test_a_rank_models_result_is_drawn_directly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from assay import rank_models

    ranking = rank_models(SCORES, model_names=NAMES, alpha=0.10)
    display = critical_difference_diagram(ranking)
    assert len(display.bars_) == len(ranking.cliques) == 2
    assert display.labels_[0].get_text() == "C4.5+m+cf (1.96)"
    against = critical_difference_diagram(rank_models(SCORES, model_names=NAMES, control="C4.5"))
    bold = [text.get_text() for text in against.labels_ if text.get_fontweight() == "bold"]
    assert bold == ["C4.5 (3.14)"] and len(against.bars_) == 1
    against.figure_.savefig(tmp_path / "cd.png")  # a smoke test of rendering
    assert (tmp_path / "cd.png").read_bytes()[:4] == b"\x89PNG"
