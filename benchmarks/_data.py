"""The benchmark data, shared by the pytest suites and the memory / compile-time scripts.

Every array is made from a literal seed, so every run measures the same data.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from assay.datasets import binormal_scores

SEED = 20240611
N_CLASSES = 5
MULTICLASS_ACCURACY = 0.7  # share of rows whose 5-class prediction is right
TIE_DECIMALS = 2  # "heavy ties": scores rounded to 2 decimals, at most 101 distinct values


@cache
def binary(n_samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Binormal labels (int64, prevalence 0.2) and scores (float64, AUC 0.85)."""
    return binormal_scores(n_samples, rng=SEED)


@cache
def rounded_scores(n_samples: int) -> np.ndarray:
    """The scores of :func:`binary` rounded to ``TIE_DECIMALS`` decimals."""
    return np.round(binary(n_samples)[1], TIE_DECIMALS)


@cache
def weights(n_samples: int) -> np.ndarray:
    """Random float weights, uniform in [0, 1)."""
    return np.random.default_rng(SEED + 1).random(n_samples)


@cache
def binary_predictions(n_samples: int) -> np.ndarray:
    """The prediction ``score >= 0.5`` for the labels of :func:`binary` (int64)."""
    return (binary(n_samples)[1] >= 0.5).astype(np.int64)


@cache
def multiclass(n_samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Five-class int64 labels (uniform) and predictions (70% right, rest uniform)."""
    generator = np.random.default_rng(SEED + 2)
    y_true = generator.integers(0, N_CLASSES, n_samples)
    wrong = generator.random(n_samples) >= MULTICLASS_ACCURACY
    y_pred = np.where(wrong, generator.integers(0, N_CLASSES, n_samples), y_true)
    return y_true, y_pred


def scores(n_samples: int, ties: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_score)``, the scores rounded when ``ties``."""
    y_true, y_score = binary(n_samples)
    return y_true, rounded_scores(n_samples) if ties else y_score


def labels(n_samples: int, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_pred)`` for 2 or ``N_CLASSES`` classes."""
    if n_classes == 2:
        return binary(n_samples)[0], binary_predictions(n_samples)
    if n_classes == N_CLASSES:
        return multiclass(n_samples)
    raise ValueError(f"only 2 or {N_CLASSES} classes are prepared; got {n_classes}.")
