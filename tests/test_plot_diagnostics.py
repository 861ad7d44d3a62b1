"""Threshold, paired-difference and bias-variance displays: the drawn data; one PNG each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import assay
from assay._results import ComparisonResult

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from assay.plot import (  # noqa: E402
    BiasVarianceDisplay,
    CumulativeGainDisplay,
    PairedDifferenceDisplay,
    ThresholdDisplay,
)

MAILING_COST = [[0, 1], [0, -10]]  # a mailing costs 1, a buyer brings 10 (the costs guide)
# the display's mean cost and expected_cost divide the same integer-valued sums in a
# different order: equal up to rounding
COST_RTOL = 1e-12


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def scored(n: int = 500, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    generator = np.random.default_rng(seed)
    y = (generator.random(n) < 0.15).astype(int)
    return y, np.round(generator.normal(size=n) + 1.5 * y, 1)  # ties on purpose


def test_threshold_curves_are_the_rates_at_each_threshold() -> None:
    y, s = scored()
    display = ThresholdDisplay.from_predictions(y, s, cost_matrix=MAILING_COST)
    thresholds = display.lines_["precision"].get_xdata()
    assert np.array_equal(thresholds, np.unique(s)[::-1])
    for name in ("precision", "recall", "f1", "expected_cost"):
        assert np.array_equal(display.lines_[name].get_xdata(), thresholds)
    for i in (0, 5, len(thresholds) // 2, len(thresholds) - 1):
        predicted = (s >= thresholds[i]).astype(int)
        tp = np.sum((predicted == 1) & (y == 1))
        fp = np.sum((predicted == 1) & (y == 0))
        fn = np.sum((predicted == 0) & (y == 1))
        assert display.lines_["precision"].get_ydata()[i] == tp / (tp + fp)
        assert display.lines_["recall"].get_ydata()[i] == tp / (tp + fn)
        assert display.lines_["f1"].get_ydata()[i] == pytest.approx(2 * tp / (2 * tp + fp + fn))
        expected = assay.expected_cost(y, predicted, MAILING_COST, labels=[0, 1])
        assert display.lines_["expected_cost"].get_ydata()[i] == pytest.approx(
            expected, rel=COST_RTOL
        )
    costs = [assay.expected_cost(y, (s >= t).astype(int), MAILING_COST, labels=[0, 1])
             for t in thresholds]  # fmt: skip
    assert display.best_threshold_ == thresholds[int(np.argmin(costs))]
    assert display.cost_ax_ is not None and display.cost_ax_ is not display.ax_
    legend = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    assert legend == ["precision", "recall", "F1", "expected cost"]


def test_threshold_without_cost_and_errors() -> None:
    y, s = scored()
    display = ThresholdDisplay.from_predictions(y, s)
    assert "expected_cost" not in display.lines_ and display.best_threshold_ is None
    # every threshold is a score, so something is predicted positive: precision defined
    assert not np.isnan(display.precision).any()
    with pytest.raises(ValueError, match=r"`cost_matrix` must be a finite 2 x 2 array \(rows"):
        ThresholdDisplay.from_predictions(y, s, cost_matrix=[1, 2, 3])


def comparison() -> ComparisonResult:
    generator = np.random.default_rng(1)
    y = np.repeat([0, 1], 200)
    a, b = generator.normal(size=(2, 400)) + np.array([[1.0], [1.0]]) * y
    return assay.compare(assay.roc_auc_score, y, a, b, n_resamples=600, rng=2)


def test_paired_difference_draws_the_replicates_the_interval_and_zero() -> None:
    result = comparison()
    display = PairedDifferenceDisplay.from_comparison(result, bins=30)
    heights = [bar.get_height() for bar in display.bars_]
    assert len(heights) == 30 and sum(heights) == result.resampled_differences.size
    edges = [bar.get_x() for bar in display.bars_]
    assert edges[0] == pytest.approx(result.resampled_differences.min())
    assert display.zero_line_.get_xdata()[0] == 0.0
    assert display.estimate_line_.get_xdata()[0] == result.difference
    low, high = result.confidence_interval
    span = display.interval_.get_bbox()  # x in data units
    assert (span.x0, span.x1) == pytest.approx((low, high))
    label = display.estimate_line_.get_label()
    assert label == (
        f"A - B = {result.difference:.3f}, 95% CI [{low:.3f}, {high:.3f}], p = {result.pvalue:.3g}"
    )
    assert result.pvalue > 0


def test_a_pvalue_of_zero_is_shown_as_below_the_resolution() -> None:
    generator = np.random.default_rng(0)
    y = np.repeat([0, 1], 300)
    a, b = generator.normal(size=(2, 600)) + np.array([[1.2], [0.6]]) * y
    result = assay.compare(assay.roc_auc_score, y, a, b, n_resamples=2000, rng=1)
    assert result.pvalue == 0
    label = PairedDifferenceDisplay.from_comparison(result).estimate_line_.get_label()
    assert label.endswith(", p < 0.0005")


def test_paired_difference_errors() -> None:
    with pytest.raises(TypeError, match=r"`result` must be the ComparisonResult of assay\.comp"):
        PairedDifferenceDisplay.from_comparison(assay.mcnemar([0, 1, 1], [0, 1, 0], [1, 1, 0]))


def decompositions() -> tuple[list[int], list[object]]:
    generator = np.random.default_rng(3)
    truth = np.sin(np.linspace(0, 3, 20))
    spreads = [0.1, 0.3, 0.6]
    results = [
        assay.decompose(truth + generator.normal(0, s, (30, 20)) + 0.5 / s, None, truth=truth)
        for s in spreads
    ]
    return [1, 2, 3], results


def test_bias_variance_curves_are_the_average_terms() -> None:
    complexity, results = decompositions()
    display = BiasVarianceDisplay.from_results(complexity, results, xlabel="degree")
    for key, field in (
        ("bias", "average_bias"),
        ("variance", "average_variance"),
        ("noise", "average_noise"),
        ("expected loss", "average_expected_loss"),
    ):
        assert list(display.lines_[key].get_xdata()) == complexity
        assert list(display.lines_[key].get_ydata()) == [getattr(r, field) for r in results]
    losses = [r.average_expected_loss for r in results]
    assert display.best_complexity_ == complexity[int(np.argmin(losses))]
    assert display.lines_["bias"].get_label() == "bias²"
    assert display.ax_.get_xlabel() == "degree"


def test_bias_variance_errors() -> None:
    complexity, results = decompositions()
    with pytest.raises(ValueError, match=r"`results` has 3 results but `complexity` has 2 val"):
        BiasVarianceDisplay.from_results(complexity[:2], results)
    with pytest.raises(TypeError, match=r"`results` must hold BiasVarianceResult objects"):
        BiasVarianceDisplay.from_results([1], [0.5])  # type: ignore[list-item]


def test_renders_pngs(tmp_path: Path) -> None:
    y, s = scored()
    complexity, results = decompositions()
    figures = {
        "threshold": ThresholdDisplay.from_predictions(y, s, cost_matrix=MAILING_COST).figure_,
        "paired": PairedDifferenceDisplay.from_comparison(comparison()).figure_,
        "bias_variance": BiasVarianceDisplay.from_results(complexity, results).figure_,
    }
    for name, figure in figures.items():
        path = tmp_path / f"{name}.png"
        figure.savefig(path, dpi=60)
        assert path.stat().st_size > 5000


def test_cumulative_gain_and_lift() -> None:
    # ten rows by decreasing score, positives at ranks 1, 3 and 7: by hand, the top 30%
    # holds 2 of the 3 positives, a lift of (2/3) / 0.3 = 2.22
    y = [1, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    score = np.arange(10.0)[::-1]
    gain = CumulativeGainDisplay.from_predictions(y, score, lift_fraction=0.3, name="m")
    assert gain.line_.get_xdata().tolist() == pytest.approx(np.arange(11) / 10)
    assert gain.line_.get_ydata().tolist() == pytest.approx(
        [0, 1 / 3, 1 / 3, 2 / 3, 2 / 3, 2 / 3, 2 / 3, 1, 1, 1, 1]
    )
    assert gain.line_.get_label() == "m (lift at 30% = 2.22)"
    lift = CumulativeGainDisplay.from_predictions(y, score, kind="lift", lift_fraction=0.3)
    assert lift.line_.get_xdata()[0] == pytest.approx(0.1)
    assert lift.line_.get_ydata()[0] == pytest.approx((1 / 3) / 0.1)
    assert lift.line_.get_ydata()[-1] == pytest.approx(1.0)
    assert [line.get_gid() for line in lift.ax_.lines].count("random") == 1
    with pytest.raises(ValueError, match=r"`kind` must be one of \['gain', 'lift'\]; got 'roc'"):
        CumulativeGainDisplay.from_predictions(y, score, kind="roc")


def test_cumulative_gain_of_several_models_renders(tmp_path: Path) -> None:
    y, s = scored()
    displays = CumulativeGainDisplay.from_predictions(y, {"A": s, "B": -s})
    assert displays[0].ax_ is displays[1].ax_
    path = tmp_path / "gain.png"
    displays[0].figure_.savefig(path, dpi=60)
    assert path.stat().st_size > 5000
