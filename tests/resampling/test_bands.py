"""Confidence bands of ROC and precision-recall curves (roc_band, precision_recall_band).

The replicates' curves are checked against ``assay.reference`` (the curve of the
resampled rows from its definition, read at the grid, in exact fractions), and the
public bands against the reference band of the same replicates; the draws against
the stratified streaming bootstrap; the bands' coverage by simulation under the
binormal model, whose true ROC curve is known.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import assay
from assay import reference
from assay._kernels import bands, resample, streaming
from assay._kernels.atoms import merge_atoms
from assay._kernels.scans.roc_auc import RocAuc
from assay.metrics._sorted import sort_scores
from assay.resampling._bands import curve_bands, sup_t_critical_value
from tests.strategies import curve_band_data, curve_grid

# The kernel interpolates in float64, the reference in exact fractions rounded once:
# a few units in the last place of a value in [0, 1].
CURVE_ATOL = 1e-12


def reference_roc_at(y, s, counts, grid):
    return reference.tpr_at_fpr(y, s, grid, sample_weight=counts)


def reference_precision_at(y, s, counts, grid):
    return reference.precision_at_recall(y, s, grid, sample_weight=counts)


ROC_GRID = np.linspace(0.0, 1.0, 41)
RECALL_GRID = np.linspace(0.025, 1.0, 40)
GRIDS = bands.Grids(ROC_GRID, RECALL_GRID)
NO_GRID = np.empty(0)


def merged_rows(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's atoms, and the row of the data each atom stands for."""
    data = sort_scores(y == 1, s, None, group_ties=False)
    is_positive, continues, _ = merge_atoms(*data.kernel_arguments)
    order = np.lexsort((~(y == 1), -s))  # decreasing score; within a tie, positives first
    return is_positive, continues, order


def data(n: int, ties: bool, seed: int) -> tuple[np.ndarray, np.ndarray]:
    generator = np.random.default_rng(seed)
    y = generator.integers(0, 2, n)
    s = generator.normal(size=n) + y
    return y, (np.round(s, 1) if ties else s)


def check_replicates_against_the_reference(y, s, grids, seed, n_resamples):
    """Every replicate's curves (both kernels) against the reference on its counts."""
    is_positive, continues, order = merged_rows(y, s)
    assert np.array_equal(is_positive, y[order] == 1)
    roc = np.empty((n_resamples, grids.roc.shape[0]))
    precision = np.empty((n_resamples, grids.precision_recall.shape[0]))
    bands.band_replicates(is_positive, continues, grids, np.uint64(seed), 0, roc, precision, 2)
    for r in range(n_resamples):
        roc_r, precision_r, trace = bands.traced_band_replicate(
            is_positive, continues, grids, np.uint64(seed), r
        )
        assert np.array_equal(roc_r, roc[r]) and np.array_equal(precision_r, precision[r])
        counts = np.empty(y.shape[0], dtype=np.int64)
        counts[order] = trace  # back to the rows of the data
        np.testing.assert_allclose(
            roc[r], reference_roc_at(y, s, counts, grids.roc), rtol=0, atol=CURVE_ATOL
        )
        np.testing.assert_allclose(
            precision[r],
            reference_precision_at(y, s, counts, grids.precision_recall),
            rtol=0,
            atol=CURVE_ATOL,
        )
    # the data's own curves: every count one
    roc_estimate, precision_estimate = bands.curves_at_grids(
        is_positive, continues, np.ones(y.shape[0], np.int64), (y == 1).sum(), (y == 0).sum(),
        grids,
    )  # fmt: skip
    ones = np.ones(y.shape[0])
    np.testing.assert_allclose(
        roc_estimate, reference_roc_at(y, s, ones, grids.roc), rtol=0, atol=CURVE_ATOL
    )
    np.testing.assert_allclose(
        precision_estimate,
        reference_precision_at(y, s, ones, grids.precision_recall),
        rtol=0,
        atol=CURVE_ATOL,
    )


@pytest.mark.parametrize(("n", "ties"), [(60, True), (300, False), (9000, True)])
def test_replicate_curves_equal_the_naive_twin_on_the_same_counts(n, ties):
    y, s = data(n, ties, seed=n)
    check_replicates_against_the_reference(y, s, GRIDS, seed=7, n_resamples=3)


# a grid value that is the float nearest a vertex's rate (2/3, just below the rational
# 2/3) reads that vertex: the top of the vertical segment there, TPR 0.5 in replicate 0
ON_A_VERTEX = (
    np.array([0, 1, 1] + [0] * 10 + [1, 1] + [0] * 10),
    np.array([0.0, -1.0, -2.0] + [0.0] * 10 + [-2.0] * 12),
)


@given(
    data=curve_band_data(),
    roc_grid=curve_grid(recall=False),
    recall_grid=curve_grid(recall=True),
    seed=st.integers(0, 2**32),
)
@example(data=ON_A_VERTEX, roc_grid=np.array([2 / 3]), recall_grid=np.array([1.0]), seed=58)
def test_replicate_curves_equal_the_reference_on_any_data(data, roc_grid, recall_grid, seed):
    # ties, constant scores, two rows, grid points on the curves' vertices
    y, s = data
    check_replicates_against_the_reference(y, s, bands.Grids(roc_grid, recall_grid), seed, 3)


def test_one_curve_alone_is_the_same_as_both_together():
    y, s = data(5000, ties=True, seed=8)
    is_positive, continues, _ = merged_rows(y, s)
    both = [np.empty((6, 41)), np.empty((6, 40))]
    bands.band_replicates(is_positive, continues, GRIDS, np.uint64(4), 0, *both, 2)
    roc_alone = [np.empty((6, 41)), np.empty((6, 0))]
    bands.band_replicates(is_positive, continues, bands.Grids(ROC_GRID, NO_GRID), np.uint64(4),
                          0, *roc_alone, 2)  # fmt: skip
    recall_alone = [np.empty((6, 0)), np.empty((6, 40))]
    bands.band_replicates(is_positive, continues, bands.Grids(NO_GRID, RECALL_GRID),
                          np.uint64(4), 0, *recall_alone, 2)  # fmt: skip
    assert np.array_equal(both[0], roc_alone[0])
    assert np.array_equal(both[1], recall_alone[1])


def replicate_counts(y, s, seed, n_resamples, grids):
    """Every replicate's count of each row of the data, from the traced kernel."""
    is_positive, continues, order = merged_rows(y, s)
    counts = np.empty((n_resamples, y.shape[0]), dtype=np.int64)
    for r in range(n_resamples):
        *_, trace = bands.traced_band_replicate(is_positive, continues, grids, np.uint64(seed), r)
        counts[r, order] = trace
    return counts


@pytest.mark.parametrize("kind", ["pointwise", "simultaneous"])
@pytest.mark.parametrize(("n", "ties", "seed"), [(40, True, 3), (120, False, 4), (200, True, 5)])
def test_public_bands_equal_the_reference_band_of_the_same_replicates(kind, n, ties, seed):
    y, s = data(n, ties, seed=seed)
    cases = [
        (assay.roc_band, reference.roc_band, bands.Grids(np.linspace(0.0, 1.0, 11), NO_GRID)),
        (assay.precision_recall_band, reference.precision_recall_band,
         bands.Grids(NO_GRID, np.linspace(0.1, 1.0, 10))),
    ]  # fmt: skip
    for public, twin, grids in cases:
        grid = grids.roc if public is assay.roc_band else grids.precision_recall
        band = public(y, s, grid=grid, n_resamples=25, confidence_level=0.9, kind=kind, rng=seed)
        counts = replicate_counts(y, s, band.rng_seed, 25, grids)
        expected = twin(y, s, counts, grid=grid, confidence_level=0.9, kind=kind)
        np.testing.assert_allclose(band.bootstrap_curves, expected.curves, rtol=0, atol=CURVE_ATOL)
        for field in ("estimate", "lower", "upper", "standard_error"):
            np.testing.assert_allclose(
                getattr(band, field), getattr(expected, field), rtol=0, atol=1e-9, err_msg=field
            )
        if kind == "simultaneous":
            assert band.critical_value == pytest.approx(expected.critical_value, rel=1e-9)


@given(
    data=curve_band_data(),
    roc_grid=curve_grid(recall=False),
    recall_grid=curve_grid(recall=True),
    kind=st.sampled_from(["pointwise", "simultaneous"]),
    confidence_level=st.sampled_from([0.5, 0.9, 0.95]),
    seed=st.integers(0, 2**32),
)
def test_public_bands_equal_the_reference_bands_on_any_data(
    data, roc_grid, recall_grid, kind, confidence_level, seed
):
    y, s = data
    common = {"n_resamples": 6, "confidence_level": confidence_level, "kind": kind, "rng": seed}
    together = curve_bands(y, s, roc_grid=roc_grid, recall_grid=recall_grid, **common)
    separate = (
        assay.roc_band(y, s, grid=roc_grid, **common),
        assay.precision_recall_band(y, s, grid=recall_grid, **common),
    )
    counts = replicate_counts(y, s, together[0].rng_seed, 6, bands.Grids(roc_grid, recall_grid))
    twins = (reference.roc_band, reference.precision_recall_band)
    for band, alone, twin, grid in zip(together, separate, twins, (roc_grid, recall_grid),
                                       strict=True):  # fmt: skip
        assert np.array_equal(band.bootstrap_curves, alone.bootstrap_curves)
        assert np.array_equal(band.lower, alone.lower) and np.array_equal(band.upper, alone.upper)
        expected = twin(y, s, counts, grid=grid, confidence_level=confidence_level, kind=kind)
        np.testing.assert_allclose(band.bootstrap_curves, expected.curves, rtol=0, atol=CURVE_ATOL)
        for field in ("estimate", "lower", "upper", "standard_error"):
            np.testing.assert_allclose(
                getattr(band, field), getattr(expected, field), rtol=0, atol=1e-9, err_msg=field
            )


@pytest.mark.parametrize("n", [50, 9000])
def test_the_draws_are_the_stratified_streaming_bootstraps(n):
    y, s = data(n, ties=False, seed=1)
    is_positive, continues, _ = merged_rows(y, s)
    for r in (0, 5):
        *_, trace = bands.traced_band_replicate(is_positive, continues, GRIDS, np.uint64(99), r)
        atoms = streaming.RowAtoms(
            is_positive, continues, np.empty(0), False, False, np.empty(0, np.uint64),
            np.empty(0, np.bool_),
        )  # fmt: skip
        _, expected = streaming.traced_replicate(
            atoms, streaming.Clusters(np.empty(0, np.int64), 0), RocAuc(),
            resample.Draw(resample.STRATIFIED, np.uint64(99), r),
        )  # fmt: skip
        assert np.array_equal(trace, expected)
        assert trace[is_positive].sum() == is_positive.sum()  # class sizes kept


def test_replicates_do_not_depend_on_threads_or_chunks():
    y, s = data(5000, ties=True, seed=2)
    first = assay.roc_band(y, s, n_resamples=40, rng=3).bootstrap_curves
    is_positive, continues, _ = merged_rows(y, s)
    grids = bands.Grids(np.linspace(0, 1, 101), np.linspace(0.01, 1, 100))
    roc, precision = np.empty((40, 101)), np.empty((40, 100))
    bands.band_replicates(is_positive, continues, grids, np.uint64(3), 0, roc[:17],
                          precision[:17], 1)  # fmt: skip
    bands.band_replicates(is_positive, continues, grids, np.uint64(3), 17, roc[17:],
                          precision[17:], 2)  # fmt: skip
    assert np.array_equal(first, roc)


@pytest.mark.parametrize("kind", ["pointwise", "simultaneous"])
def test_curve_bands_equal_the_two_separate_calls(kind):
    y, s = data(7000, ties=True, seed=9)
    common = {"n_resamples": 30, "confidence_level": 0.8, "kind": kind, "rng": 6}
    roc_grid, recall_grid = np.linspace(0.0, 1.0, 21), np.linspace(0.05, 1.0, 20)
    roc, precision = curve_bands(y, s, roc_grid=roc_grid, recall_grid=recall_grid, **common)
    separate = (
        assay.roc_band(y, s, grid=roc_grid, **common),
        assay.precision_recall_band(y, s, grid=recall_grid, **common),
    )
    for together, alone in zip((roc, precision), separate, strict=True):
        assert together.curve == alone.curve
        for field in ("grid", "estimate", "lower", "upper", "standard_error", "bootstrap_curves"):
            assert np.array_equal(getattr(together, field), getattr(alone, field)), field
        assert together.to_dict() == alone.to_dict()


def test_hand_worked_curve_with_ties():
    # scores 0.9 (+), 0.5 (+, -), 0.1 (-): vertices (0, 0), (0, 1/2), (1/2, 1), (1, 1)
    y = [1, 1, 0, 0]
    s = [0.9, 0.5, 0.5, 0.1]
    roc = assay.roc_band(y, s, grid=[0.0, 0.25, 0.5, 0.75, 1.0], n_resamples=10, rng=0)
    assert roc.estimate.tolist() == [0.5, 0.75, 1.0, 1.0, 1.0]
    pr = assay.precision_recall_band(y, s, grid=[0.5, 0.75, 1.0], n_resamples=10, rng=0)
    # recall 3/4: halfway along the tied group, 1.5 true and 0.5 false positives
    assert pr.estimate.tolist() == [1.0, 0.75, 2 / 3]


def test_bands_contain_the_estimate_and_hold_the_replicates():
    y, s = data(2000, ties=False, seed=5)
    for function in (assay.roc_band, assay.precision_recall_band):
        pointwise = function(y, s, n_resamples=300, rng=1)
        simultaneous = function(y, s, n_resamples=300, rng=1, kind="simultaneous")
        for band in (pointwise, simultaneous):
            assert np.all(band.lower <= band.estimate + CURVE_ATOL)
            assert np.all(band.estimate <= band.upper + CURVE_ATOL)
            assert np.all((band.lower >= 0) & (band.upper <= 1))
        # the same replicates; the simultaneous band is the wider
        assert np.array_equal(pointwise.bootstrap_curves, simultaneous.bootstrap_curves)
        assert np.mean(simultaneous.upper - simultaneous.lower) > np.mean(
            pointwise.upper - pointwise.lower
        )
        low, high = np.quantile(pointwise.bootstrap_curves, [0.025, 0.975], axis=0)
        np.testing.assert_allclose(pointwise.lower, np.clip(low, 0, 1), rtol=0, atol=CURVE_ATOL)
        np.testing.assert_allclose(pointwise.upper, np.clip(high, 0, 1), rtol=0, atol=CURVE_ATOL)
        assert pointwise.to_dict()["kind"] == "pointwise"
        grid, estimate, lower, upper = simultaneous
        assert grid is simultaneous.grid and estimate is simultaneous.estimate
        assert lower is simultaneous.lower and upper is simultaneous.upper


def test_sup_t_critical_value_by_hand():
    curves = np.array([[0.0, 1.0, 5.0], [2.0, 1.0, 5.0], [1.0, 1.0, 5.0], [4.0, 1.0, 5.0]])
    estimate = np.array([1.0, 1.0, 5.0])
    standard_error = np.array([2.0, 0.0, 0.0])  # points that never vary are left out
    # deviations of the first point: 0.5, 0.5, 0, 1.5; their median is 0.5
    assert sup_t_critical_value(curves, estimate, standard_error, 0.5) == 0.5
    assert sup_t_critical_value(curves[:, 1:], estimate[1:], standard_error[1:], 0.9) == 0.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"grid": [0.5, 0.2]}, r"`grid` must be strictly increasing\."),
        ({"grid": [-0.1, 0.5]}, r"`grid` must lie in \[0, 1\]; got values from -0\.1 to 0\.5\."),
        ({"grid": []}, r"`grid` must hold at least one finite value; got \[\]\."),
        ({"kind": "joint"}, r"`kind` must be one of \['pointwise', 'simultaneous'\]; got 'joint'"),
        ({"n_resamples": 0}, r"`n_resamples` must be an integer >= 1; got 0\."),
        ({"confidence_level": 95}, r"`confidence_level` must be in \(0, 1\); got 95\."),
    ],
)
def test_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        assay.roc_band([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], **kwargs)


def test_errors_of_the_data_and_the_recall_grid():
    with pytest.raises(ValueError, match=r"`y_true` must hold both classes to draw a curve; "):
        assay.roc_band([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"`grid` must lie in \(0, 1\] \(precision is undef"):
        assay.precision_recall_band([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], grid=[0.0, 1.0])


# --- coverage under the binormal model -----------------------------------------------

BINORMAL_A, BINORMAL_B = 1.0, 1.0  # positives ~ N(a / b, 1 / b), negatives ~ N(0, 1)
COVERAGE_GRID = np.linspace(0.1, 0.7, 13)


def true_roc(fpr: np.ndarray) -> np.ndarray:
    normal = NormalDist()
    return np.array([normal.cdf(BINORMAL_A + BINORMAL_B * normal.inv_cdf(f)) for f in fpr])


def coverage(
    n_simulations: int,
    n_per_class: int,
    n_resamples: int,
    seed: int,
    resampling: str = "multinomial",
) -> tuple:
    """Share of simulated data sets whose band covers the true curve (per point, whole),
    the bands' replicates drawn as ``resampling`` says."""
    generator = np.random.default_rng(seed)
    truth = true_roc(COVERAGE_GRID)
    y = np.repeat([0, 1], n_per_class)
    pointwise_hits = np.zeros(COVERAGE_GRID.shape[0])
    simultaneous_hits = 0
    for simulation in range(n_simulations):
        s = np.concatenate(
            [
                generator.normal(size=n_per_class),
                generator.normal(BINORMAL_A / BINORMAL_B, 1 / BINORMAL_B, size=n_per_class),
            ]
        )
        common = {"grid": COVERAGE_GRID, "n_resamples": n_resamples, "rng": simulation,
                  "resampling": resampling}  # fmt: skip
        pointwise = assay.roc_band(y, s, **common)
        pointwise_hits += (pointwise.lower <= truth) & (truth <= pointwise.upper)
        joint = assay.roc_band(y, s, kind="simultaneous", **common)
        simultaneous_hits += bool(np.all((joint.lower <= truth) & (truth <= joint.upper)))
    return pointwise_hits / n_simulations, simultaneous_hits / n_simulations


def test_coverage_short():
    # 100 data sets: a coverage of 95% is seen within 0.95 +- 0.07 (3.2 standard errors)
    pointwise, simultaneous = coverage(100, 200, 300, seed=11)
    assert np.all(np.abs(pointwise - 0.95) < 0.07 + 0.03)  # + 0.03: the grid's worst point
    assert abs(simultaneous - 0.95) < 0.07


@pytest.mark.slow
def test_coverage():
    # 1000 data sets of 200 + 200 rows, 1000 replicates: standard error of a 95% coverage
    # 0.007; the percentile band of an empirical ROC undercovers by a point or two at
    # small n, hence 0.03 for each point and for the whole curve
    pointwise, simultaneous = coverage(1000, 200, 1000, seed=12)
    assert np.all(np.abs(pointwise - 0.95) < 0.03)
    assert abs(simultaneous - 0.95) < 0.03
