"""Built-in synthetic data: reproducible, shaped as documented, with the promised AUC."""

from __future__ import annotations

import math

import numpy as np
import pytest

import assay
from assay.datasets import binormal_scores


def test_same_seed_same_data_and_default_is_seeded() -> None:
    first = binormal_scores(1000, rng=7)
    second = binormal_scores(1000, rng=np.random.default_rng(7))
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(binormal_scores(50), binormal_scores(50), strict=True):
        np.testing.assert_array_equal(a, b)


def test_types_ranges_and_rounding() -> None:
    y_true, y_score = binormal_scores(2000, decimals=2, rng=1)
    assert y_true.dtype == np.int64 and set(np.unique(y_true)) <= {0, 1}
    assert y_score.dtype == np.float64
    assert np.all((y_score >= 0) & (y_score <= 1))
    np.testing.assert_array_equal(y_score, np.round(y_score, 2))


def hanley_mcneil_standard_error(auc: float, n_positive: int, n_negative: int) -> float:
    """Standard error of an empirical AUC (Hanley & McNeil 1982, eq. 2)."""
    q1 = auc / (2 - auc)
    q2 = 2 * auc**2 / (1 + auc)
    variance = (
        auc * (1 - auc) + (n_positive - 1) * (q1 - auc**2) + (n_negative - 1) * (q2 - auc**2)
    ) / (n_positive * n_negative)
    return math.sqrt(variance)


@pytest.mark.slow
@pytest.mark.parametrize("auc, prevalence, seed", [(0.6, 0.5, 1), (0.85, 0.2, 2), (0.97, 0.05, 3)])
def test_empirical_auc_is_near_the_population_auc(auc, prevalence, seed) -> None:
    # Statistical: the empirical AUC of 400,000 draws lies within 4 standard errors of
    # the population AUC (fails by chance with probability about 6e-5 per case; the
    # seeds are fixed, so the test is deterministic).
    y_true, y_score = binormal_scores(400_000, auc=auc, prevalence=prevalence, rng=seed)
    n_positive = int(y_true.sum())
    standard_error = hanley_mcneil_standard_error(auc, n_positive, y_true.size - n_positive)
    assert abs(assay.roc_auc_score(y_true, y_score) - auc) < 4 * standard_error
    assert abs(y_true.mean() - prevalence) < 4 * math.sqrt(prevalence * (1 - prevalence) / 4e5)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n_samples": 0}, r"`n_samples` must be a positive integer; got 0"),
        ({"n_samples": 2.5}, r"`n_samples` must be a positive integer; got 2\.5"),
        ({"n_samples": 10, "auc": 1.0}, r"`auc` must be in \(0, 1\); got 1\.0"),
        ({"n_samples": 10, "prevalence": 0.0}, r"`prevalence` must be in \(0, 1\); got 0\.0"),
    ],
)
def test_bad_arguments(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        binormal_scores(**kwargs)
