"""ROC, precision-recall and DET displays: the drawn data, the band, the legend; one PNG each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

import assay

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from assay.plot import DetCurveDisplay, PrecisionRecallDisplay, RocCurveDisplay  # noqa: E402

# np.interp of the drawn polyline and the band's kernel read the same segments with a
# different float expression: equal up to rounding.
CURVE_ATOL = 1e-12


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def two_models(n: int = 400, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    generator = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    return y, generator.normal(size=n) + 1.2 * y, generator.normal(size=n) + 0.5 * y


def test_roc_line_is_the_curve_and_the_band_contains_it() -> None:
    y, a, _ = two_models()
    display = RocCurveDisplay.from_predictions(y, a, name="A", rng=1, n_resamples=300)
    fpr, tpr, _ = assay.roc_curve(y, a)
    np.testing.assert_array_equal(display.line_.get_xdata(), fpr)
    np.testing.assert_array_equal(display.line_.get_ydata(), tpr)
    band = display.band
    assert band.kind == "pointwise" and band.n_resamples == 300
    # the band's estimate is the drawn curve at the grid (continuous scores: no vertical
    # segment sits exactly on a grid point), and the band holds it
    np.testing.assert_allclose(band.estimate, np.interp(band.grid, fpr, tpr), atol=CURVE_ATOL)
    assert np.all((band.lower <= band.estimate) & (band.estimate <= band.upper))
    # the filled polygon is the band: its vertices are (grid, lower) and (grid, upper)
    vertices = display.band_.get_paths()[0].vertices
    for x, low, high in zip(band.grid, band.lower, band.upper, strict=True):
        ys = vertices[np.isclose(vertices[:, 0], x), 1]
        assert ys.min() == pytest.approx(low) and ys.max() == pytest.approx(high)
    assert display.ax_ is display.line_.axes and display.figure_ is display.ax_.figure


def test_roc_legend_carries_the_auc_and_its_delong_interval() -> None:
    y, a, _ = two_models()
    display = RocCurveDisplay.from_predictions(y, a, name="A", band=None, confidence_level=0.9)
    result = assay.auc_ci(y, a, confidence_level=0.9)
    low, high = result.confidence_interval
    expected = f"A (AUC = {assay.roc_auc_score(y, a):.3f}, 90% CI [{low:.3f}, {high:.3f}])"
    assert [t.get_text() for t in display.ax_.get_legend().get_texts()] == [expected]
    assert display.band_ is None and display.band is None
    bare = RocCurveDisplay.from_predictions(y, a, band=None, interval=False)
    assert bare.line_.get_label() == f"AUC = {assay.roc_auc_score(y, a):.3f}"


def test_several_models_on_one_axes() -> None:
    y, a, b = two_models()
    displays = RocCurveDisplay.from_predictions(
        y, {"A": a, "B": b}, band="simultaneous", n_resamples=200, rng=2
    )
    assert [d.name for d in displays] == ["A", "B"]
    ax = displays[0].ax_
    assert displays[1].ax_ is ax
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0].startswith("A (AUC = ") and labels[1].startswith("B (AUC = ")
    assert len(ax.collections) == 2  # two bands
    assert sum(line.get_gid() == "chance" for line in ax.lines) == 1
    assert all(d.band.kind == "simultaneous" for d in displays)
    # one more, by passing the axes
    third = RocCurveDisplay.from_predictions(y, -b, name="C", ax=ax, band=None)
    assert third.ax_ is ax and len(ax.get_legend().get_texts()) == 3


def test_precision_recall_display() -> None:
    y, a, _ = two_models()
    display = PrecisionRecallDisplay.from_predictions(y, a, name="A", n_resamples=300, rng=3)
    precision, recall, _ = assay.precision_recall_curve(y, a)
    np.testing.assert_array_equal(display.line_.get_xdata(), recall)
    np.testing.assert_array_equal(display.line_.get_ydata(), precision)
    assert display.line_.get_drawstyle() == "steps-post"
    band = display.band
    assert band.curve == "precision_recall"
    assert np.all((band.lower <= band.estimate) & (band.estimate <= band.upper))
    ap = assay.bootstrap(assay.average_precision_score, y, a, n_resamples=300, rng=3)
    low, high = ap.confidence_interval
    assert display.line_.get_label() == (
        f"A (AP = {ap.estimate:.3f}, 95% CI [{low:.3f}, {high:.3f}])"
    )
    assert display.prevalence == 0.5


def test_poisson_bands_and_interval() -> None:
    # resampling="poisson": the band is roc_band's / precision_recall_band's Poisson band,
    # the interval of the average precision the Poisson bootstrap's
    y, a, _ = two_models()
    common = {"n_resamples": 200, "rng": 4, "resampling": "poisson"}
    roc = RocCurveDisplay.from_predictions(y, a, band="simultaneous", **common)
    expected = assay.roc_band(y, a, kind="simultaneous", **common)
    assert roc.band.resampling == "poisson"
    assert roc.band.to_dict() == expected.to_dict()
    pr = PrecisionRecallDisplay.from_predictions(y, a, name="A", **common)
    assert pr.band.to_dict() == assay.precision_recall_band(y, a, **common).to_dict()
    ap = assay.bootstrap(assay.average_precision_score, y, a, **common)
    low, high = ap.confidence_interval
    assert pr.line_.get_label() == f"A (AP = {ap.estimate:.3f}, 95% CI [{low:.3f}, {high:.3f}])"
    with pytest.raises(ValueError, match=r"`resampling` must be one of \['multinomial', 'poi"):
        RocCurveDisplay.from_predictions(y, a, resampling="stratified")


def test_det_display_on_normal_deviate_axes() -> None:
    y, a, _ = two_models()
    display = DetCurveDisplay.from_predictions(y, a, name="A")
    fpr, fnr, _ = assay.det_curve(y, a)
    inside = (fpr > 0) & (fpr < 1) & (fnr > 0) & (fnr < 1)
    np.testing.assert_allclose(display.line_.get_xdata(), norm.ppf(fpr[inside]), rtol=1e-12)
    np.testing.assert_allclose(display.line_.get_ydata(), norm.ppf(fnr[inside]), rtol=1e-12)
    assert display.line_.get_label() == f"A (EER = {assay.equal_error_rate(y, a):.3f})"
    ticks = [t.get_text() for t in display.ax_.get_xticklabels()]
    assert ticks[:3] == ["0.1%", "1%", "5%"]
    assert display.ax_.get_xticks()[4] == pytest.approx(0.0)  # 50% at the origin


def test_from_estimator_uses_the_positive_columns_scores() -> None:
    y, a, _ = two_models()

    class Model:
        classes_ = np.array([0, 1])

        def predict_proba(self, X: np.ndarray) -> np.ndarray:
            p = 1 / (1 + np.exp(-X[:, 0]))
            return np.column_stack([1 - p, p])

    display = RocCurveDisplay.from_estimator(Model(), a[:, None], y, band=None)
    assert display.name == "Model"
    assert display.roc_auc == pytest.approx(assay.roc_auc_score(y, a))


def test_errors() -> None:
    y, a, _ = two_models()
    with pytest.raises(ValueError, match=r"`band` must be one of \[None, 'pointwise', 'simul"):
        RocCurveDisplay.from_predictions(y, a, band="both")
    with pytest.raises(ValueError, match=r"`name` must be None when `y_score` maps names to"):
        RocCurveDisplay.from_predictions(y, {"A": a}, name="A")
    with pytest.raises(ValueError, match=r"`response_method` must be one of \['auto', 'pre"):
        RocCurveDisplay.from_estimator(object(), a[:, None], y, response_method="predict")
    with pytest.raises(ValueError, match=r"`estimator` \(object\) has no predict_proba or dec"):
        RocCurveDisplay.from_estimator(object(), a[:, None], y)


@pytest.mark.parametrize("display", [RocCurveDisplay, PrecisionRecallDisplay, DetCurveDisplay])
def test_renders_a_png(display: type, tmp_path: Path) -> None:
    y, a, b = two_models()
    shown = display.from_predictions(y, {"A": a, "B": b}, n_resamples=100, rng=0)
    path = tmp_path / f"{display.__name__}.png"
    shown[0].figure_.savefig(path, dpi=60)
    assert path.stat().st_size > 5000
