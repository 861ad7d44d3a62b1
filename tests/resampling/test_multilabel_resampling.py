"""Resampling multilabel targets: a replicate draws (or permutes) whole rows.

The replicates are checked against the reference twin evaluated with the very row
counts (or permutations) the kernels draw for the same seed.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import assay
import assay.reference as reference
from assay._kernels import paired, resample

# The public metrics sum float64 cells; the reference computes exactly and rounds once.
FLOAT_RTOL = 1e-12
N_RESAMPLES = 40


def indicators(seed, n=30, n_labels=4):
    rng = np.random.default_rng(seed)
    y_true = (rng.random((n, n_labels)) < 0.4).astype(np.int64)
    flips = rng.random((n, n_labels)) < 0.25
    return y_true, np.where(flips, 1 - y_true, y_true)


def row_counts(seed, n):
    """The row counts of replicates 0.. of the generic path for ``seed``."""
    strata = resample.Strata(np.array([n], dtype=np.int64), np.empty(0, np.int64), 0)
    counts = np.empty((N_RESAMPLES, n), dtype=np.int64)
    draw = resample.Draw(resample.MULTINOMIAL, np.uint64(seed), 0)
    resample.bootstrap_row_counts(strata, draw, counts, 2)
    return counts


def reference_replicates(name, y_true, y_pred, counts, **options):
    values = np.array(
        [getattr(reference, name)(y_true, y_pred, sample_weight=c, **options) for c in counts]
    )
    return values[~np.isnan(values)]


CASES = [
    ("f1_score", {"average": "micro"}),
    ("precision_score", {"average": "samples", "zero_division": np.nan}),
    ("recall_score", {"average": "macro", "zero_division": 1.0}),
    ("jaccard_score", {"average": "weighted", "zero_division": np.nan}),
    ("hamming_loss", {}),
    ("zero_one_loss", {}),
    ("accuracy_score", {"normalize": False}),
]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_bootstrap_resamples_whole_rows(name, options):
    y_true, y_pred = indicators(1)
    result = assay.bootstrap(
        getattr(assay, name), y_true, y_pred, n_resamples=N_RESAMPLES, rng=5, **options
    )
    counts = row_counts(result.rng_seed, y_true.shape[0])
    expected = reference_replicates(name, y_true, y_pred, counts, **options)
    np.testing.assert_allclose(result.bootstrap_distribution, expected, rtol=FLOAT_RTOL)
    assert result.estimate == pytest.approx(
        getattr(reference, name)(y_true, y_pred, **options), rel=FLOAT_RTOL
    )


def test_sparse_indicators_give_the_replicates_of_dense_ones():
    y_true, y_pred = indicators(2)
    dense = assay.bootstrap(assay.f1_score, y_true, y_pred, average="samples", rng=3,
                            zero_division=0.0, n_resamples=N_RESAMPLES)  # fmt: skip
    sparse = assay.bootstrap(
        assay.f1_score,
        sp.csr_matrix(y_true),
        sp.csc_array(y_pred),
        average="samples",
        zero_division=0.0,
        rng=3,
        n_resamples=N_RESAMPLES,
    )
    np.testing.assert_array_equal(sparse.bootstrap_distribution, dense.bootstrap_distribution)


def test_bca_of_multilabel_targets_runs_its_jackknife_over_rows():
    y_true, y_pred = indicators(3, n=60)
    result = assay.bootstrap(
        assay.hamming_loss, sp.csr_matrix(y_true), y_pred, method="bca", n_resamples=200, rng=4
    )
    low, high = result.confidence_interval
    assert low <= result.estimate <= high


def test_a_callable_without_sample_weight_gets_the_resampled_rows():
    y_true, y_pred = indicators(4)

    def exact_match_rate(truth, prediction):
        return float(np.mean(np.all(truth == prediction, axis=1)))

    result = assay.bootstrap(exact_match_rate, y_true, y_pred, n_resamples=N_RESAMPLES, rng=6)
    counts = row_counts(result.rng_seed, y_true.shape[0])
    expected = reference_replicates("accuracy_score", y_true, y_pred, counts)
    np.testing.assert_allclose(result.bootstrap_distribution, expected, rtol=FLOAT_RTOL)


def test_stratify_refuses_multilabel_targets():
    y_true, y_pred = indicators(5)
    with pytest.raises(ValueError, match=r"`stratify`=True needs 1-D class labels"):
        assay.bootstrap(assay.f1_score, y_true, y_pred, average="micro", stratify=True)


def test_compare_pairs_the_two_models_by_row():
    y_true, pred_a = indicators(6)
    _, pred_b = indicators(7)
    options = {"average": "macro", "zero_division": np.nan}
    result = assay.compare(
        assay.f1_score, y_true, pred_a, pred_b, n_resamples=N_RESAMPLES, rng=8,
        interval="percentile", **options,
    )  # fmt: skip
    counts = row_counts(result.rng_seed, y_true.shape[0])
    differences = np.array(
        [
            reference.f1_score(y_true, pred_a, sample_weight=c, **options)
            - reference.f1_score(y_true, pred_b, sample_weight=c, **options)
            for c in counts
        ]
    )
    assert result.difference == pytest.approx(
        reference.f1_score(y_true, pred_a, **options)
        - reference.f1_score(y_true, pred_b, **options),
        rel=FLOAT_RTOL,
    )
    low, high = result.confidence_interval
    tolerance = 1e-12  # the percentile bounds are interpolated between replicate values
    assert differences.min() - tolerance <= low <= high <= differences.max() + tolerance
    # a model compared with itself differs by exactly 0 in every paired replicate
    same = assay.compare(assay.f1_score, y_true, pred_a, sp.csr_matrix(pred_a),
                         n_resamples=N_RESAMPLES, rng=8, **options)  # fmt: skip
    assert tuple(same.confidence_interval) == (0.0, 0.0)


def test_paired_permutation_of_sparse_predictions_equals_dense():
    y_true, pred_a = indicators(9)
    _, pred_b = indicators(10)
    kwargs = dict(method="permutation", n_resamples=N_RESAMPLES, rng=2, average="micro")
    dense = assay.compare(assay.jaccard_score, y_true, pred_a, pred_b, **kwargs)
    sparse = assay.compare(
        assay.jaccard_score, y_true, sp.csr_matrix(pred_a), sp.csr_matrix(pred_b), **kwargs
    )
    assert sparse.pvalue == dense.pvalue
    assert sparse.difference == dense.difference


def test_permutation_test_permutes_whole_rows():
    y_true, y_pred = indicators(11)
    result = assay.permutation_test(
        assay.f1_score, y_true, y_pred, average="micro", n_resamples=N_RESAMPLES, rng=12
    )
    permutations = np.empty((N_RESAMPLES, y_true.shape[0]), dtype=np.int64)
    draw = resample.Draw(resample.PERMUTATION, np.uint64(result.rng_seed), 0)
    paired.permutations(draw, permutations, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [
            reference.f1_score(y_true[order], y_pred, average="micro") for order in permutations
        ]
    np.testing.assert_allclose(result.null_distribution, expected, rtol=FLOAT_RTOL)
