"""Built-in synthetic data with known properties, for demos, tests and benchmarks."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from assay import _special as special

__all__ = ["binormal_scores"]


def binormal_scores(
    n_samples: int,
    *,
    auc: float = 0.85,
    prevalence: float = 0.2,
    decimals: int | None = None,
    rng: Any = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Scored predictions from the equal-variance binormal model, with a known AUC.

    Labels are Bernoulli(``prevalence``); a negative's latent score is N(0, 1) and a
    positive's is N(d, 1) with ``d = sqrt(2) * Phi^{-1}(auc)``, so that the population
    ROC AUC is exactly ``auc`` (P(X_pos > X_neg) = Phi(d / sqrt(2))). The returned
    score is the logistic transform of the latent score (a probability-like value in
    (0, 1); the transform is monotone, so the AUC is unchanged).

    Parameters
    ----------
    n_samples : int
        Number of predictions (at least 1).
    auc : float, default=0.85
        Population ROC AUC, in (0, 1).
    prevalence : float, default=0.2
        Probability that a label is positive, in (0, 1).
    decimals : int, optional
        Round the scores to this many decimals, creating heavy ties (as with
        scores reported to two decimals). Rounding changes the population AUC.
    rng : int, numpy.random.Generator or None, default=0
        Seed or generator; the default gives the same data every time.

    Returns
    -------
    y_true : ndarray of shape (n_samples,), int64
        Labels in {0, 1}.
    y_score : ndarray of shape (n_samples,), float64
        Scores in (0, 1).

    Examples
    --------
    >>> from assay.datasets import binormal_scores
    >>> y_true, y_score = binormal_scores(5, rng=1)
    >>> y_true.shape, y_score.dtype
    ((5,), dtype('float64'))
    """
    if not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise ValueError(f"`n_samples` must be a positive integer; got {n_samples!r}.")
    if not 0.0 < auc < 1.0:
        raise ValueError(f"`auc` must be in (0, 1); got {auc!r}.")
    if not 0.0 < prevalence < 1.0:
        raise ValueError(f"`prevalence` must be in (0, 1); got {prevalence!r}.")
    generator = np.random.default_rng(rng)
    separation = math.sqrt(2.0) * float(special.ndtri(auc))
    y_true = (generator.random(n_samples) < prevalence).astype(np.int64)
    latent = generator.standard_normal(n_samples) + separation * y_true
    y_score = 1.0 / (1.0 + np.exp(-latent))
    if decimals is not None:
        y_score = np.round(y_score, decimals)
    return y_true, y_score
