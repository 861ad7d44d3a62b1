"""A replicate that draws no weight is undefined, in every procedure alike.

``assay.bootstrap`` gives a replicate of zero total weight (a handful of rows, some of
weight zero, none of positive weight drawn) NaN and counts it in ``n_undefined``;
``assay.compare`` once called the metric on it, which refused the weights, and raised a
RuntimeError on the same data.  Both now follow one rule
(:func:`assay.resampling._plans.replicate_weight`): model A's paired replicates are
exactly the replicates ``assay.bootstrap`` draws for model A with the same seed on the
generic (weighted, multilabel or callable) path, NaN where it has NaN.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay._kernels import resample
from assay.exceptions import DegenerateDataWarning, UndefinedMetricWarning
from assay.resampling._compare import paired_comparison
from assay.resampling._plans import rows_plan
from tests.strategies import tiny_weighted_pairs

SCHEMES = {"multinomial": resample.MULTINOMIAL, "poisson": resample.POISSON}
# The case that raised: five rows, three of weight zero (seed 0 draws replicates in
# which only those rows come up, under either scheme).
Y_TRUE = np.array([0, 1, 1, 0, 1])
PRED_A = np.array([0, 1, 0, 0, 1])
PRED_B = np.array([1, 1, 1, 0, 0])
WEIGHT = np.array([0.0, 1.0, 0.0, 0.0, 2.0])


def _quietly(call, *arguments, **keywords):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return call(*arguments, **keywords)


def _drawn_nothing(y_true, weight, resampling, seed, n_resamples):
    """Which replicates draw no row of positive weight (the generic path's row counts,
    drawn again from the same streams)."""
    n = y_true.shape[0]
    counts = np.empty((n_resamples, n), dtype=np.int64)
    draw = resample.Draw(SCHEMES[resampling], np.uint64(seed), 0)
    resample.bootstrap_row_counts(rows_plan(y_true, n, False, None).strata, draw, counts, 1)
    drawn = counts if weight is None else counts * weight
    return ~np.any(drawn > 0, axis=1)


def _assert_compare_follows_bootstrap(metric, y_true, pred_a, pred_b, weight, resampling,
                                      n_resamples, seed):  # fmt: skip
    keywords = {"n_resamples": n_resamples, "rng": seed, "resampling": resampling}
    result, replicates = _quietly(
        paired_comparison, metric, y_true, pred_a, pred_b, sample_weight=weight, **keywords
    )
    for prediction, values in ((pred_a, replicates.values_a), (pred_b, replicates.values_b)):
        alone = _quietly(assay.bootstrap, metric, y_true, prediction, sample_weight=weight,
                         **keywords)  # fmt: skip
        undefined = np.isnan(values)
        assert int(np.count_nonzero(undefined)) == alone.n_undefined
        assert np.array_equal(values[~undefined], alone.bootstrap_distribution)
    nothing = _drawn_nothing(y_true, weight, resampling, result.rng_seed, n_resamples)
    assert np.all(np.isnan(replicates.values_a[nothing]))
    assert np.all(np.isnan(replicates.values_b[nothing]))
    differences = replicates.values_a - replicates.values_b
    assert result.n_undefined == int(np.count_nonzero(np.isnan(differences)))
    return result, nothing


@pytest.mark.parametrize("resampling", ["multinomial", "poisson"])
@pytest.mark.parametrize("metric", [assay.f1_score, assay.precision_score])
def test_compare_of_a_replicate_without_weight_is_undefined_as_in_the_bootstrap(
    metric, resampling
):
    # this raised "`metric` raised ValueError on replicate 12 (3 with Poisson):
    # `sample_weight` sums to zero"
    result, nothing = _assert_compare_follows_bootstrap(
        metric, Y_TRUE, PRED_A, PRED_B, WEIGHT, resampling, n_resamples=200, seed=0
    )
    assert nothing.any() and result.n_undefined >= int(np.count_nonzero(nothing))
    assert result.resampled_differences.shape[0] == 200 - result.n_undefined


@pytest.mark.parametrize("resampling", ["multinomial", "poisson"])
def test_the_warning_of_compare_counts_them_as_the_bootstrap_does(resampling):
    keywords = {"sample_weight": WEIGHT, "n_resamples": 200, "rng": 0, "resampling": resampling}
    with pytest.warns(UndefinedMetricWarning) as compared:
        result = assay.compare(assay.f1_score, Y_TRUE, PRED_A, PRED_B, **keywords)
    with pytest.warns(UndefinedMetricWarning) as alone:
        assay.bootstrap(assay.f1_score, Y_TRUE, PRED_A, **keywords)
    (warning,) = compared
    assert str(warning.message) == (
        f"The metric is undefined in {result.n_undefined} of 200 bootstrap replicates; they "
        "are left out, so the interval, standard error and bias are conditional on the "
        "metric being defined."
    )
    assert str(alone[0].message).split(" in ")[0] == str(warning.message).split(" in ")[0]
    assert warning.filename == __file__  # at the user's line


@pytest.mark.parametrize("resampling", ["multinomial", "poisson"])
@pytest.mark.parametrize("interval", ["percentile", "basic", "bca"])
def test_every_interval_of_compare_takes_the_same_rule(interval, resampling):
    # one row holds all the weight: its leave-one-out of the jackknife (BCa) has none,
    # NaN as in the bootstrap's jackknife, and BCa falls back to the percentile interval
    weight = np.array([0.0, 3.0, 0.0, 0.0])
    y_true, pred_a, pred_b = Y_TRUE[:4], PRED_A[:4], PRED_B[:4]
    keywords = {"n_resamples": 100, "rng": 4, "resampling": resampling}
    result, replicates = _quietly(
        paired_comparison, assay.f1_score, y_true, pred_a, pred_b, sample_weight=weight,
        interval=interval, **keywords,
    )  # fmt: skip
    alone = _quietly(assay.bootstrap, assay.f1_score, y_true, pred_a, sample_weight=weight,
                     method=interval, **keywords)  # fmt: skip
    nothing = _drawn_nothing(y_true, weight, resampling, result.rng_seed, 100)
    assert result.n_undefined == alone.n_undefined == int(np.count_nonzero(nothing)) > 0
    assert result.interval == alone.method == ("percentile" if interval == "bca" else interval)
    if interval == "bca":
        assert replicates.jackknife is not None
        # the group of row 1 alone (the rows' groups are a random permutation)
        assert int(np.count_nonzero(np.isnan(replicates.jackknife[0]))) == 1
        with (
            pytest.warns(DegenerateDataWarning, match=r"The BCa interval is undefined"),
            pytest.warns(UndefinedMetricWarning, match=r"undefined in \d+ of 100 bootstrap"),
        ):
            assay.compare(assay.f1_score, y_true, pred_a, pred_b, sample_weight=weight,
                          interval="bca", **keywords)  # fmt: skip


@pytest.mark.parametrize("resampling", ["multinomial", "poisson"])
def test_a_callable_is_not_called_on_a_replicate_without_rows(resampling):
    # a callable without sample_weight gets the drawn rows; a Poisson replicate of one
    # row may draw none, undefined by the same rule (it once raised an IndexError here)
    def first_row_agrees(y_true, y_pred):
        return float(y_true[0] == y_pred[0])

    y_true, pred_a, pred_b = np.array([1]), np.array([1]), np.array([0])
    keywords = {"n_resamples": 50, "rng": 2, "resampling": resampling}
    result, nothing = _assert_compare_follows_bootstrap(
        first_row_agrees, y_true, pred_a, pred_b, None, resampling, 50, 2
    )
    assert result.n_undefined == int(np.count_nonzero(nothing))
    assert (result.n_undefined > 0) == (resampling == "poisson")
    compared = _quietly(assay.compare, first_row_agrees, y_true, pred_a, pred_b, **keywords)
    assert compared.difference == 1.0


@pytest.mark.parametrize("average", ["macro", "samples"])
def test_multilabel_rows_without_weight_are_undefined_in_compare(average):
    # multilabel rows are resampled whole (the generic path); a Poisson replicate of two
    # rows often draws neither
    y_true = np.array([[1, 0], [0, 1]])
    pred_a = np.array([[1, 1], [0, 1]])
    pred_b = np.array([[0, 0], [1, 1]])
    metric = functools.partial(assay.f1_score, average=average)
    _, nothing = _assert_compare_follows_bootstrap(
        metric, y_true, pred_a, pred_b, None, "poisson", n_resamples=60, seed=1
    )
    assert nothing.any()


def test_permutations_keep_the_total_weight():
    # the paired permutation and the permutation test move labels or predictions, never
    # the weights: every replicate keeps all of it, so none is undefined for want of it
    keywords = {"sample_weight": WEIGHT, "rng": 0}
    paired = assay.compare(assay.accuracy_score, Y_TRUE, PRED_A, PRED_B, method="permutation",
                           n_resamples=2, **keywords)  # fmt: skip
    tested = assay.permutation_test(assay.accuracy_score, Y_TRUE, PRED_A, n_resamples=50,
                                    **keywords)  # fmt: skip
    assert paired.n_undefined == 0 and np.isfinite(paired.pvalue)
    assert np.isfinite(tested.pvalue)


@settings(max_examples=40, deadline=None)
@given(
    data=tiny_weighted_pairs(),
    resampling=st.sampled_from(["multinomial", "poisson"]),
    metric=st.sampled_from(
        [assay.f1_score, assay.precision_score, assay.accuracy_score, assay.matthews_corrcoef]
    ),
    seed=st.integers(0, 2**32 - 1),
)
def test_compare_undefined_replicates_follow_the_bootstrap_rule(data, resampling, metric, seed):
    y_true, pred_a, pred_b, weight = data
    _assert_compare_follows_bootstrap(metric, y_true, pred_a, pred_b, weight, resampling,
                                      n_resamples=20, seed=seed)  # fmt: skip


def test_the_fallback_warning_names_the_value_as_a_number():
    # numpy 2 writes repr(np.float64(1.0)) as "np.float64(1.0)": not for a user's eyes
    weight = np.array([0.0, 3.0, 0.0, 0.0])
    with (
        pytest.warns(DegenerateDataWarning, match=r"bootstrap replicates are equal \(1\.0\);"),
        pytest.warns(UndefinedMetricWarning),
    ):
        assay.bootstrap(assay.f1_score, Y_TRUE[:4], PRED_A[:4], sample_weight=weight,
                        method="bca", n_resamples=50, rng=4)  # fmt: skip


@pytest.mark.parametrize("resampling", ["multinomial", "poisson"])
def test_compare_to_baseline_takes_the_same_rule(resampling):
    # the paired bootstrap against the majority class is compare's: it raised as well
    keywords = {"sample_weight": WEIGHT, "n_resamples": 200, "rng": 0, "resampling": resampling}
    tested = _quietly(assay.compare_to_baseline, assay.f1_score, Y_TRUE, PRED_A, **keywords)
    baseline = np.ones_like(PRED_A)  # the weighted majority class of Y_TRUE is 1
    compared = _quietly(assay.compare, assay.f1_score, Y_TRUE, PRED_A, baseline, **keywords)
    assert tested.n_undefined == compared.n_undefined > 0
    assert np.array_equal(tested.resampled_differences, compared.resampled_differences)
