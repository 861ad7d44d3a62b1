"""Bootstrap of the multilabel ranking metrics: a row of the indicator (with its scores)
is one resampling unit, and each replicate is the metric of the resampled rows."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import assay
import assay.reference as reference
from assay.exceptions import UndefinedMetricWarning

# a replicate of the public metric against the exact reference on the same draws
FLOAT_RTOL = 1e-12

LABEL_RANKING = (
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
)


def _data(n: int = 40, n_labels: int = 4, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random((n, n_labels)) < 0.4).astype(int)
    y[:, 0] = np.arange(n) % 2  # every label column has both values
    y[:, 1] = 1 - y[:, 0]
    s = np.round(y + rng.normal(scale=0.8, size=(n, n_labels)), 1)
    return y, s


@pytest.mark.parametrize("name", LABEL_RANKING)
def test_replicates_are_the_reference_metric_of_the_resampled_rows(name) -> None:
    y, s = _data()
    ours = assay.bootstrap(getattr(assay, name), y, s, n_resamples=25, rng=11)

    def twin(y_true, y_score, sample_weight=None):
        return getattr(reference, name)(y_true, y_score, sample_weight=sample_weight)

    # an unknown callable takes the generic path: the same row counts from the same seed
    theirs = assay.bootstrap(twin, y, s, n_resamples=25, rng=11)
    assert ours.estimate == pytest.approx(getattr(reference, name)(y, s), rel=FLOAT_RTOL)
    np.testing.assert_allclose(
        ours.bootstrap_distribution, theirs.bootstrap_distribution, rtol=FLOAT_RTOL
    )

    def rows_taken(y_true, y_score):  # no weights: the drawn rows are taken whole
        return getattr(reference, name)(y_true, y_score)

    taken = assay.bootstrap(rows_taken, y, s, n_resamples=25, rng=11)
    np.testing.assert_allclose(
        ours.bootstrap_distribution, taken.bootstrap_distribution, rtol=FLOAT_RTOL
    )


def test_a_row_is_one_unit() -> None:
    # each row's ranking loss is 0 or 1: a replicate is a mean of n row values, so a
    # multiple of 1/n (resampling single labels would give other values)
    n = 10
    y = np.tile([[1, 0, 0]], (n, 1))
    s = np.tile([[0.9, 0.1, 0.2]], (n, 1))
    s[: n // 2] = [0.1, 0.9, 0.8]  # half the rows rank both irrelevant labels first
    result = assay.bootstrap(assay.label_ranking_loss, y, s, n_resamples=50, rng=2)
    scaled = result.bootstrap_distribution * n
    np.testing.assert_allclose(scaled, np.round(scaled), atol=1e-9)
    assert result.estimate == 0.5


@pytest.mark.parametrize(
    ("metric", "options"),
    [
        (assay.roc_auc_score, {"average": "macro"}),
        (assay.roc_auc_score, {"average": "samples"}),
        (assay.average_precision_score, {"average": "micro"}),
        (assay.average_precision_score, {"average": "weighted"}),
    ],
)
def test_multilabel_averages_resample_rows(metric, options) -> None:
    y, s = _data(n=30, n_labels=3, seed=8)
    y[:, 2] = np.arange(30) % 3 == 0
    ours = assay.bootstrap(metric, y, s, n_resamples=20, rng=5, **options)
    name = metric.__name__

    def twin(y_true, y_score, sample_weight=None):
        return getattr(reference, name)(y_true, y_score, sample_weight=sample_weight, **options)

    theirs = assay.bootstrap(twin, y, s, n_resamples=20, rng=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        expected = metric(y, s, **options)
    assert ours.estimate == pytest.approx(expected, rel=FLOAT_RTOL)
    np.testing.assert_allclose(
        ours.bootstrap_distribution, theirs.bootstrap_distribution, rtol=FLOAT_RTOL
    )
