"""Type-I error of the paired permutation test under the null (slow, statistical).

Over 1000 simulated data sets of 300 rows where the two models are exchangeable, the
paired permutation test at alpha = 0.05 must reject in 2.9%-7.1% of them: the binomial
standard error of a 5% rate over 1000 data sets is 0.69%, and the band is 5% +- 3 of
them (an exactly valid test falls outside it with probability 0.3% per configuration;
the seeds are fixed, so the test is deterministic).

Configurations: ROC AUC with both models on one scale, accuracy, and ranking metrics
with model B's scores passed through a strictly increasing map onto another scale
(``exp`` or a steep logistic), also with ties and with weights. The null hypothesis holds
in all of them: the models' latent scores are exchangeable correlated binormal scores, and
the map changes no ranking. Swapping the raw scores (the test before it swapped each
model's midranks) rejected in 0.0% (exp, 1000 data sets; tied exp; AP with exp; weighted
exp) and 1.9% (steep logistic) of these data sets: far below the level, with the power
lost accordingly.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

import assay

N_DATASETS = 1000
N_ROWS = 300
N_RESAMPLES = 999
ALPHA = 0.05
LEVEL_BAND = (0.029, 0.071)  # 5% +- 3 binomial standard errors (0.69% each)

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


def binormal_scores(rng: np.random.Generator, correlation: float):
    """Labels and exchangeable binormal scores: unit variances, the same class means."""
    y = (rng.random(N_ROWS) < 0.3).astype(int)
    noise = rng.normal(size=(N_ROWS, 2))
    a = 1.2 * y + noise[:, 0]
    b = 1.2 * y + correlation * noise[:, 0] + np.sqrt(1 - correlation**2) * noise[:, 1]
    return y, a, b


def b_on_exp_scale(rng: np.random.Generator):
    y, a, b = binormal_scores(rng, 0.9)
    return y, a, np.exp(3.0 * b)


def b_on_steep_logistic_scale(rng: np.random.Generator):
    y, a, b = binormal_scores(rng, 0.5)
    return y, a, expit(8.0 * b)


def tied_b_on_exp_scale(rng: np.random.Generator):
    """Both latent scores rounded to halves (the same ties in distribution), then B's
    through ``exp``."""
    y, a, b = binormal_scores(rng, 0.9)
    return y, np.round(2.0 * a) / 2.0, np.exp(3.0 * np.round(2.0 * b) / 2.0)


def weighted_b_on_exp_scale(rng: np.random.Generator):
    """Weights 1, 2 or 3 drawn independently of everything else."""
    y, a, b = b_on_exp_scale(rng)
    return y, a, b, rng.integers(1, 4, N_ROWS).astype(np.float64)


@pytest.mark.parametrize(
    "metric, simulate, seed",
    [
        (assay.roc_auc_score, exchangeable_scores, 2026),
        (assay.accuracy_score, exchangeable_predictions, 2027),
        (assay.roc_auc_score, b_on_exp_scale, 2028),
        (assay.roc_auc_score, b_on_steep_logistic_scale, 2029),
        (assay.roc_auc_score, tied_b_on_exp_scale, 2030),
        (assay.average_precision_score, b_on_exp_scale, 2031),
        (assay.roc_auc_score, weighted_b_on_exp_scale, 2032),
    ],
)
def test_paired_permutation_test_holds_its_level(metric, simulate, seed):
    rng = np.random.default_rng(seed)
    rejections = 0
    for dataset in range(N_DATASETS):
        y, a, b, *weights = simulate(rng)
        result = assay.compare(
            metric,
            y,
            a,
            b,
            method="permutation",
            n_resamples=N_RESAMPLES,
            sample_weight=weights[0] if weights else None,
            rng=dataset,
        )
        rejections += result.pvalue <= ALPHA
    rate = rejections / N_DATASETS
    assert LEVEL_BAND[0] <= rate <= LEVEL_BAND[1], f"type-I error rate {rate:.3f}"
