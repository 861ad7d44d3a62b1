"""The peers of ``assay.bootstrap``: how a user bootstraps ROC AUC without assay.

Each peer computes a 95% percentile interval of ROC AUC from ``n_resamples`` replicates,
the way its documentation shows, and returns a :class:`PeerResult`:

``scikit-learn loop``
    numpy draws the resampled row indices, ``sklearn.metrics.roc_auc_score`` scores
    each resample; the point estimate is computed once on the data.
``scipy``
    ``scipy.stats.bootstrap((y_true, y_score), statistic, paired=True,
    vectorized=True, batch=...)`` with a vectorized AUC statistic (the Mann-Whitney
    form: average ranks of the scores along the last axis, ties counted one half, equal
    to scikit-learn's AUC).  ``batch`` is :func:`scipy_batch`.  scipy computes no point
    estimate for a percentile interval.
``mlxtend``
    ``mlxtend.evaluate.bootstrap`` on the rows ``(y_true, y_score)`` stacked into one
    array, with ``roc_auc_score`` of the two columns as the statistic; it evaluates the
    statistic once on the data before resampling.

``FIXED_EVALUATIONS`` records how many evaluations of the statistic on the full data a
peer makes besides its replicates: a run of ``k`` replicates costs about
``k + FIXED_EVALUATIONS`` evaluations, which is how a partial run is extrapolated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

CONFIDENCE_LEVEL = 0.95
# scipy's resampled arrays and the ranks of one batch take about 67 bytes per element
# (measured: peak resident memory of a batch); 2**21 elements is about 130 MiB, and was the
# fastest of the batch sizes tried here (1 to 64 resamples at n = 1e5 and 1e6).
SCIPY_BATCH_ELEMENTS = 2**21
SCIPY_BYTES_PER_ELEMENT = 67


class PeerResult(NamedTuple):
    """A peer's answer, in one shape for every peer (missing parts are None)."""

    estimate: float | None
    low: float
    high: float
    standard_error: float
    replicates: np.ndarray | None


def _quantiles(replicates: np.ndarray) -> tuple[float, float]:
    tail = (1.0 - CONFIDENCE_LEVEL) / 2.0
    low, high = np.quantile(replicates, [tail, 1.0 - tail])
    return float(low), float(high)


def sklearn_loop(
    y_true: np.ndarray, y_score: np.ndarray, n_resamples: int, seed: int
) -> PeerResult:
    """A Python loop of ``sklearn.metrics.roc_auc_score`` over numpy-resampled rows."""
    from sklearn.metrics import roc_auc_score

    generator = np.random.default_rng(seed)
    n = y_true.shape[0]
    estimate = float(roc_auc_score(y_true, y_score))
    replicates = np.empty(n_resamples)
    for b in range(n_resamples):
        rows = generator.integers(0, n, n)
        replicates[b] = roc_auc_score(y_true[rows], y_score[rows])
    low, high = _quantiles(replicates)
    return PeerResult(estimate, low, high, float(np.std(replicates, ddof=1)), replicates)


def auc_statistic(y_true: np.ndarray, y_score: np.ndarray, axis: int = -1) -> np.ndarray:
    """ROC AUC along ``axis`` (vectorized for ``scipy.stats.bootstrap``), from average ranks."""
    from scipy.stats import rankdata

    ranks = rankdata(y_score, axis=axis)
    n_positive = y_true.sum(axis=axis)
    n_negative = y_true.shape[axis] - n_positive
    rank_sum = (ranks * y_true).sum(axis=axis)
    return (rank_sum - n_positive * (n_positive + 1) / 2.0) / (n_positive * n_negative)


def scipy_batch(n_samples: int) -> int:
    """Resamples per vectorized call: about ``SCIPY_BATCH_ELEMENTS`` elements, at least one."""
    return max(1, SCIPY_BATCH_ELEMENTS // n_samples)


def scipy_unbatched_jackknife_bytes(n_samples: int) -> int:
    """What ``scipy.stats.bootstrap(method='BCa')`` allocates at once without ``batch``.

    Its jackknife builds every leave-one-out resample together: an ``(n, n)`` boolean
    mask and the ``(n, n - 1)`` int64 row indices it selects (paired data are resampled
    through one array of indices), before gathering the data.
    """
    return n_samples * n_samples + 8 * n_samples * (n_samples - 1)


def scipy_bootstrap(
    y_true: np.ndarray,
    y_score: np.ndarray,
    n_resamples: int,
    seed: int,
    method: str = "percentile",
) -> PeerResult:
    """``scipy.stats.bootstrap``, paired and vectorized, with a memory-bounded batch."""
    from scipy.stats import bootstrap

    result = bootstrap(
        (y_true, y_score),
        auc_statistic,
        n_resamples=n_resamples,
        batch=scipy_batch(y_true.shape[0]),
        vectorized=True,
        paired=True,
        confidence_level=CONFIDENCE_LEVEL,
        method=method,
        rng=seed,
    )
    return PeerResult(
        None,
        float(result.confidence_interval.low),
        float(result.confidence_interval.high),
        float(result.standard_error),
        np.asarray(result.bootstrap_distribution),
    )


def mlxtend_bootstrap(
    y_true: np.ndarray, y_score: np.ndarray, n_resamples: int, seed: int
) -> PeerResult:
    """``mlxtend.evaluate.bootstrap`` over the stacked rows ``(y_true, y_score)``."""
    from mlxtend.evaluate import bootstrap
    from sklearn.metrics import roc_auc_score

    def statistic(rows: np.ndarray) -> float:
        return float(roc_auc_score(rows[:, 0], rows[:, 1]))

    rows = np.column_stack([y_true, y_score])
    estimate, standard_error, (low, high) = bootstrap(
        rows, func=statistic, num_rounds=n_resamples, ci=CONFIDENCE_LEVEL, seed=seed
    )
    return PeerResult(float(estimate), float(low), float(high), float(standard_error), None)


def _version(module: str) -> str:
    from importlib.metadata import version

    return version(module)


# name: (function(y_true, y_score, n_resamples, seed), distribution of its version)
PEERS: dict[str, tuple[Callable[..., PeerResult], str]] = {
    "scikit-learn loop": (sklearn_loop, "scikit-learn"),
    "scipy": (scipy_bootstrap, "scipy"),
    "mlxtend": (mlxtend_bootstrap, "mlxtend"),
}
FIXED_EVALUATIONS = {"scikit-learn loop": 1, "scipy": 0, "mlxtend": 1}


def peer_version(name: str) -> str:
    return _version(PEERS[name][1])


def describe_peer_call(name: str, n_samples: int) -> dict[str, Any]:
    """Settings of a peer worth recording next to its timings."""
    if name == "scipy":
        batch = scipy_batch(n_samples)
        return {"batch": batch, "batch_bytes": batch * n_samples * SCIPY_BYTES_PER_ELEMENT}
    return {}
