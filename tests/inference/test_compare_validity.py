"""Type-I error of the paired permutation test under the null (slow, statistical).

Issue requirement: over 1000 simulated data sets where the two models are exchangeable, the
paired permutation test at alpha = 0.05 rejects in 3.5%-6.5% of them, for ROC AUC and for
accuracy. With 1000 data sets the binomial standard error of a 5% rate is 0.69%, so the
band is about +-2.2 standard errors; the seeds are fixed, so the test is deterministic.
"""

from __future__ import annotations

import numpy as np
import pytest

import assay

N_DATASETS = 1000
N_ROWS = 300
N_RESAMPLES = 999
ALPHA = 0.05

pytestmark = pytest.mark.slow


def exchangeable_scores(rng: np.random.Generator):
    """Labels and two models whose scores are i.i.d. given the row: exchangeable."""
    y = (rng.random(N_ROWS) < 0.3).astype(int)
    latent = 1.2 * y + rng.normal(size=N_ROWS)
    return y, latent + rng.normal(size=N_ROWS), latent + rng.normal(size=N_ROWS)


def exchangeable_predictions(rng: np.random.Generator):
    """Labels and two classifiers each right with probability 0.8, independently."""
    y = rng.integers(0, 2, N_ROWS)
    right_a = rng.random(N_ROWS) < 0.8
    right_b = rng.random(N_ROWS) < 0.8
    return y, np.where(right_a, y, 1 - y), np.where(right_b, y, 1 - y)


@pytest.mark.parametrize(
    "metric, simulate, seed",
    [
        (assay.roc_auc_score, exchangeable_scores, 2026),
        (assay.accuracy_score, exchangeable_predictions, 2027),
    ],
)
def test_paired_permutation_test_holds_its_level(metric, simulate, seed):
    rng = np.random.default_rng(seed)
    rejections = 0
    for dataset in range(N_DATASETS):
        y, a, b = simulate(rng)
        result = assay.compare(
            metric, y, a, b, method="permutation", n_resamples=N_RESAMPLES, rng=dataset
        )
        rejections += result.pvalue <= ALPHA
    rate = rejections / N_DATASETS
    assert 0.035 <= rate <= 0.065, f"type-I error rate {rate:.3f}"
