"""Resampling at the edges: extreme weights and values, degenerate clusters, metrics
undefined everywhere or returning no number, and warnings that point at the caller.

Each case once gave a wrong or unhelpful result silently (NaN, a zero-width interval, an
error about an internal name, a bare ``float()`` error, a warning pointing into assay).
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import assay
from assay.exceptions import DegenerateDataWarning, UndefinedMetricWarning

N_RESAMPLES = 200
# A weighted (fractional) AUC is a ratio of float sums: a few ulps of 1.
FLOAT_SUM_ROUNDING = 1e-15


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(31)
    y_true = rng.integers(0, 2, 120)
    y_score = y_true + rng.normal(size=120)
    return y_true, y_score


def test_bootstrap_of_tiny_fractional_weights_equals_that_of_the_same_weights_scaled_up(
    binary,
):
    # weights k/8 * 2**-1060 are exact subnormals: the replicates (rates, free of the
    # weights' scale) must equal those of k/8, bit for bit; the power-of-two rescale of
    # 1e-310 once overflowed to inf and every replicate was NaN
    y_true, y_score = binary
    eighths = np.random.default_rng(3).integers(1, 40, y_true.shape[0]) / 8.0
    results = [
        assay.bootstrap(
            assay.roc_auc_score,
            y_true,
            y_score,
            sample_weight=eighths * scale,
            n_resamples=N_RESAMPLES,
            rng=5,
        )
        for scale in (2.0**-1060, 1.0)
    ]
    np.testing.assert_array_equal(
        results[0].bootstrap_distribution, results[1].bootstrap_distribution
    )
    assert results[0].estimate == results[1].estimate
    tiny = assay.bootstrap(
        assay.roc_auc_score,
        [0, 1, 0, 1] * 5,
        [0.1, 0.4, 0.35, 0.8] * 5,
        sample_weight=[1e-310] * 20,
        n_resamples=N_RESAMPLES,
        rng=0,
    )
    # every replicate separates the classes: AUC 1 up to the rounding of a weighted sum
    assert tiny.estimate == 1.0
    assert tiny.confidence_interval == pytest.approx((1.0, 1.0), abs=FLOAT_SUM_ROUNDING)


def _replicates(procedure, metric, y_true, y_score, weights):
    """The replicates of one resampling path of a ranking metric with these weights."""
    other = -y_score + np.random.default_rng(6).normal(size=y_score.shape[0])
    clusters = np.arange(y_true.shape[0]) % 17
    options = {"sample_weight": weights, "n_resamples": N_RESAMPLES, "rng": 5}
    if procedure == "permutation_test":
        return assay.permutation_test(metric, y_true, y_score, **options).null_distribution
    if procedure.startswith("compare"):
        method = "permutation" if "permutation" in procedure else "bootstrap"
        groups = clusters if "clusters" in procedure else None
        return assay.compare(
            metric, y_true, y_score, other, method=method, groups=groups, **options
        ).resampled_differences
    if procedure == "bootstrap clusters":
        options["groups"] = clusters
    else:
        options["resampling"] = "poisson"
    return assay.bootstrap(metric, y_true, y_score, **options).bootstrap_distribution


@pytest.mark.parametrize("power", [-1060, -1000, 1000])
@pytest.mark.parametrize(
    "procedure",
    [
        "permutation_test",
        "compare",
        "compare permutation",
        "compare clusters",
        "bootstrap clusters",
        "bootstrap poisson",
    ],
)
def test_resampled_ranking_metrics_of_extreme_weights_equal_those_of_ordinary_ones(
    binary, procedure, power
):
    # the ranking kernels of these paths took the weights as they were: their products
    # of class totals underflowed (2**-1000) or overflowed (2**1000), and every replicate
    # was NaN ("undefined in all replicates"); the weights are now divided by a power of
    # two first, which changes no bit of a metric free of their scale
    y_true, y_score = binary
    rng = np.random.default_rng(3)
    eighths = rng.integers(1, 40, y_true.shape[0]) / 8.0  # counts: the exact path
    fractional = rng.random(y_true.shape[0]) + 0.01  # the floating-point path
    # (times 2**-1060 fractional weights would lose bits: only exact subnormals there)
    for weights in (eighths,) if power < -1022 else (eighths, fractional):
        for metric in (assay.roc_auc_score, assay.average_precision_score):
            extreme = _replicates(procedure, metric, y_true, y_score, weights * 2.0**power)
            ordinary = _replicates(procedure, metric, y_true, y_score, weights)
            assert not np.any(np.isnan(ordinary))
            np.testing.assert_array_equal(extreme, ordinary)


def test_bootstrap_of_huge_values_scales_exactly(binary):
    # replicates near 1e160 square beyond float64 in the standard error
    _, y_score = binary
    truth, prediction = y_score, y_score * 0.8 + 0.1
    factor = 2.0**540
    ordinary, scaled = (
        assay.bootstrap(
            assay.root_mean_squared_error,
            truth * scale,
            prediction * scale,
            n_resamples=N_RESAMPLES,
            rng=2,
        )
        for scale in (1.0, factor)
    )
    assert scaled.standard_error == ordinary.standard_error * factor
    assert scaled.bias == ordinary.bias * factor
    assert scaled.confidence_interval.high == ordinary.confidence_interval.high * factor


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_a_single_cluster_warns_that_the_interval_is_meaningless(binary, method):
    y_true, y_score = binary
    with pytest.warns(DegenerateDataWarning) as record:
        result = assay.bootstrap(
            assay.roc_auc_score,
            y_true,
            y_score,
            groups=["p1"] * y_true.shape[0],
            n_resamples=N_RESAMPLES,
            rng=0,
            method=method,
        )
    single = r"^`groups` holds a single cluster \('p1'\): every bootstrap replicate resamples"
    assert re.search(single, str(record[0].message))
    if method == "bca":  # and BCa, whose jackknife leaves the one cluster out, falls back
        assert "The BCa interval is undefined" in str(record[1].message)
    low, high = result.confidence_interval
    assert low == high == result.estimate  # what the procedure gives; the warning says why
    with pytest.warns(DegenerateDataWarning) as record:
        assay.bootstrap(
            assay.f1_score,
            y_true,
            (y_score > 0.5).astype(int),
            groups=np.zeros(y_true.shape[0]),
            sample_weight=np.ones(y_true.shape[0]),
            n_resamples=N_RESAMPLES,
            rng=0,
            method=method,
        )
    assert "says nothing about the uncertainty" in str(record[0].message)
    with pytest.warns(DegenerateDataWarning, match="single cluster"):
        assay.compare(
            assay.roc_auc_score,
            y_true,
            y_score,
            -y_score,
            groups=["p1"] * y_true.shape[0],
            n_resamples=N_RESAMPLES,
            rng=0,
        )


def test_two_clusters_do_not_warn(binary):
    y_true, y_score = binary
    groups = np.arange(y_true.shape[0]) % 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assay.bootstrap(
            assay.roc_auc_score, y_true, y_score, groups=groups, n_resamples=N_RESAMPLES, rng=0
        )


def test_permutation_test_of_a_metric_undefined_on_every_permutation_is_nan(binary):
    _, y_score = binary
    one_class = np.zeros(y_score.shape[0], dtype=int)
    with pytest.warns(UndefinedMetricWarning) as record:
        result = assay.permutation_test(
            assay.roc_auc_score, one_class, y_score, n_resamples=N_RESAMPLES, rng=0
        )
    messages = [str(item.message) for item in record]
    assert f"The metric is undefined on all {N_RESAMPLES} permutations; the p-value is NaN." in (
        messages
    )
    assert np.isnan(result.statistic) and np.isnan(result.pvalue)
    assert result.null_distribution.shape == (0,)
    # the same for the exact enumeration and the confusion-matrix path, as bootstrap does
    with pytest.warns(UndefinedMetricWarning) as record:  # precision warns first, as it does
        exact = assay.permutation_test(assay.precision_score, [0, 1, 0, 1], [0, 0, 0, 0])
    assert str(record[-1].message) == (
        "The metric is undefined on all 6 permutations; the p-value is NaN."
    )
    assert exact.exact and np.isnan(exact.pvalue)
    with pytest.warns(UndefinedMetricWarning) as record:
        cells = assay.permutation_test(
            assay.f1_score, [0] * 30, [0] * 30, n_resamples=N_RESAMPLES, rng=0
        )
    assert f"undefined on all {N_RESAMPLES} permutations" in str(record[-1].message)
    assert np.isnan(cells.pvalue)
    with pytest.warns(UndefinedMetricWarning) as record:
        bootstrap = assay.bootstrap(
            assay.roc_auc_score, one_class, y_score, n_resamples=N_RESAMPLES, rng=0
        )
    assert f"undefined in all {N_RESAMPLES} bootstrap replicates" in str(record[-1].message)
    assert np.isnan(bootstrap.confidence_interval.low)


@pytest.mark.parametrize("metric", ["fast", "python"])
def test_paired_permutation_of_a_difference_undefined_everywhere_is_nan(binary, metric):
    # once "`null_distribution` is empty" (an internal name), now NaN with a warning
    _, y_score = binary
    one_class = np.zeros(y_score.shape[0], dtype=int)
    function = assay.roc_auc_score
    if metric == "python":

        def function(y_true, y_score):
            return assay.roc_auc_score(y_true, y_score)

    message = (
        rf"^The difference is undefined in every permutation replicate \({N_RESAMPLES}\); "
        r"the p-value is NaN\.$"
    )
    with pytest.warns(UndefinedMetricWarning) as record:  # the metric's own warnings first
        result = assay.compare(
            function,
            one_class,
            y_score,
            -y_score,
            method="permutation",
            n_resamples=N_RESAMPLES,
            rng=0,
        )
    assert re.search(message, str(record[-1].message))
    assert np.isnan(result.pvalue)
    assert result.resampled_differences.shape == (0,)
    # the exact enumeration (no differing rows: one arrangement) likewise
    with pytest.warns(UndefinedMetricWarning) as record:
        exact = assay.compare(
            assay.f1_score, one_class, one_class, one_class, method="permutation", rng=0
        )
    assert re.search(r"every permutation replicate \(1\)", str(record[-1].message))
    assert np.isnan(exact.pvalue)


@pytest.mark.parametrize(
    ("returned", "shown"), [(None, "None of type NoneType"), ("0.5", "'0.5' of type str")]
)
@pytest.mark.parametrize("procedure", ["bootstrap", "permutation_test", "compare"])
def test_a_metric_returning_no_number_is_named(binary, procedure, returned, shown):
    y_true, y_score = binary

    def metric(y_true, y_pred):
        return returned

    arguments = (y_true, y_score, -y_score) if procedure == "compare" else (y_true, y_score)
    message = rf"^`metric` \(metric\) returned {shown}; a metric must return a number"
    with pytest.raises(TypeError, match=message):
        getattr(assay, procedure)(metric, *arguments, n_resamples=N_RESAMPLES, rng=0)


@pytest.mark.parametrize(
    "call",
    [
        lambda y, s: assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=20, rng=0),
        lambda y, s: assay.compare(assay.roc_auc_score, y, s, -s, n_resamples=20, rng=0),
        lambda y, s: assay.permutation_test(assay.roc_auc_score, y, s, n_resamples=20, rng=0),
        lambda y, s: assay.bootstrap(
            assay.f1_score, y, y, sample_weight=np.ones(y.shape[0]), n_resamples=20, rng=0
        ),
        lambda y, s: assay.bootstrap(assay.r2_score, y + 1.0, s, n_resamples=20, rng=0),
    ],
    ids=["bootstrap", "compare", "permutation_test", "weighted f1", "r2"],
)
def test_a_metric_warning_points_at_the_callers_line(binary, call):
    # the metric's own "undefined" warning once pointed into resampling/_plans.py
    _, y_score = binary
    one_class = np.zeros(y_score.shape[0], dtype=int)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        call(one_class, y_score)
    assert record, "the degenerate input should warn"
    assert {item.filename for item in record} == {__file__}


@pytest.mark.parametrize("procedure", ["bootstrap", "permutation_test", "compare"])
def test_a_metric_value_beyond_float64_is_named(procedure):
    # the MAE of errors near 3.4e308 is beyond float64 (inf): once an error about
    # `distribution` (an internal name) or a bare "invalid value" RuntimeWarning
    rng = np.random.default_rng(9)
    y_true = rng.choice([-1.7e308, 1.7e308], 40)
    y_pred = -y_true
    arguments = (y_true, y_pred, y_pred * 0.5) if procedure == "compare" else (y_true, y_pred)
    message = (
        r"^`metric` \(mean_absolute_error\) returned inf: its value lies beyond the "
        r"float64 range \(about 1\.8e308\)"
    )
    with pytest.raises(ValueError, match=message):
        getattr(assay, procedure)(
            assay.mean_absolute_error, *arguments, n_resamples=N_RESAMPLES, rng=0
        )
