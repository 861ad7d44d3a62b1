"""The reliability diagram: the drawn points are the calibration curve, the diagonal is
drawn once per axes; one PNG."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import assay

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from assay.plot import CalibrationDisplay  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def overconfident(n: int = 2000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Forecasts p of events whose probability is 0.25 + p / 2 (over-confident)."""
    generator = np.random.default_rng(seed)
    p = generator.random(n)
    return (generator.random(n) < 0.25 + p / 2).astype(int), p


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_the_drawn_points_are_the_calibration_curve(strategy) -> None:
    y, p = overconfident()
    display = CalibrationDisplay.from_predictions(y, p, n_bins=8, strategy=strategy, name="m")
    prob_true, prob_pred = assay.calibration_curve(y, p, n_bins=8, strategy=strategy)
    np.testing.assert_array_equal(display.line_.get_xdata(), prob_pred)
    np.testing.assert_array_equal(display.line_.get_ydata(), prob_true)
    ece = assay.expected_calibration_error(y, p, n_bins=8, strategy=strategy)
    assert display.expected_calibration_error == pytest.approx(ece, rel=1e-12)
    assert display.line_.get_label() == f"m (ECE = {ece:.3f})"
    assert display.bin_weight.sum() == y.shape[0]
    np.testing.assert_array_equal(display.diagonal_.get_xydata(), [[0.0, 0.0], [1.0, 1.0]])
    assert display.ax_ is display.line_.axes and display.figure_ is display.ax_.figure


def test_the_diagonal_is_drawn_once_per_axes_and_can_be_left_out() -> None:
    y, p = overconfident()
    first = CalibrationDisplay.from_predictions(y, p, name="a")
    second = CalibrationDisplay.from_predictions(y, p**2, name="b", ax=first.ax_)
    assert second.diagonal_ is None
    labels = [line.get_label() for line in first.ax_.get_lines()]
    assert labels.count("perfectly calibrated") == 1 and len(labels) == 3
    alone = CalibrationDisplay.from_predictions(y, p, ref_line=False)
    assert alone.diagonal_ is None and len(alone.ax_.get_lines()) == 1


def test_from_estimator_uses_the_positive_class_column() -> None:
    from sklearn.linear_model import LogisticRegression

    generator = np.random.default_rng(3)
    X = generator.normal(size=(300, 2))
    y = (X[:, 0] + generator.normal(size=300) > 0).astype(int)
    model = LogisticRegression().fit(X, y)
    display = CalibrationDisplay.from_estimator(model, X, y, n_bins=4)
    prob_true, prob_pred = assay.calibration_curve(y, model.predict_proba(X)[:, 1], n_bins=4)
    np.testing.assert_array_equal(display.line_.get_ydata(), prob_true)
    np.testing.assert_array_equal(display.line_.get_xdata(), prob_pred)
    assert display.line_.get_label().startswith("LogisticRegression (ECE = ")


def test_bad_options_are_refused_before_drawing() -> None:
    with pytest.raises(ValueError, match=r"`n_bins` must be an integer >= 1; got 0"):
        CalibrationDisplay.from_predictions([0, 1], [0.2, 0.7], n_bins=0)


def test_renders_a_png(tmp_path: Path) -> None:
    y, p = overconfident()
    display = CalibrationDisplay.from_predictions(y, p, n_bins=10, name="over-confident")
    CalibrationDisplay.from_predictions(
        y, 0.25 + p / 2, n_bins=10, name="calibrated", ax=display.ax_
    )
    path = tmp_path / "reliability.png"
    display.figure_.savefig(path, dpi=60)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
