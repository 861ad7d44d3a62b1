"""p-values of permutation tests (the bootstrap p-values, which invert bootstrap
intervals, are in :mod:`assay.resampling._interval_pvalues`).

- Randomized tests: ``(count + 1) / (B + 1)`` (Phipson & Smyth 2010); exact
  enumerations: ``count / B``.
- Two-sided: twice the smaller one-sided p-value, at most 1 (the convention of
  ``scipy.stats.permutation_test``).
- A null value within a relative ``TIE_TOLERANCE`` of the observed value counts as
  equal to it (as in ``scipy.stats.permutation_test``).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from assay._procedure_checks import check_alternative
from assay.exceptions import UndefinedMetricWarning
from assay.resampling._replicates import TIE_TOLERANCE, as_replicates

__all__ = ["permutation_pvalue"]


def _pvalue(null: np.ndarray, observed: float, alternative: str, adjustment: int) -> float:
    """``(count + adjustment) / (B + adjustment)`` of null values as extreme as observed."""
    tolerance = TIE_TOLERANCE * abs(observed)
    denominator = null.shape[0] + adjustment
    greater = (np.count_nonzero(null >= observed - tolerance) + adjustment) / denominator
    less = (np.count_nonzero(null <= observed + tolerance) + adjustment) / denominator
    if alternative == "greater":
        return float(greater)
    if alternative == "less":
        return float(less)
    return float(min(1.0, 2.0 * min(greater, less)))


def _observed_or_nan(observed: float, name: str, stacklevel: int) -> float:
    value = float(observed)
    if np.isnan(value):
        warnings.warn(
            f"`{name}` is NaN (the metric is undefined on the data); the p-value is NaN.",
            UndefinedMetricWarning,
            stacklevel=stacklevel + 1,
        )
    elif np.isinf(value):
        raise ValueError(f"`{name}` must be finite or NaN; got {value!r}.")
    return value


def permutation_pvalue(
    null_distribution: Any,
    observed: float,
    alternative: str,
    *,
    exact: bool = False,
    stacklevel: int = 2,
) -> float:
    """p-value of a permutation test from its null distribution.

    Parameters
    ----------
    null_distribution : array-like of shape (n_resamples,)
        The statistic under each permutation (finite; drop undefined ones first with
        :func:`drop_undefined`).
    observed : float
        The statistic on the original data.
    alternative : {'two-sided', 'less', 'greater'}
        ``'greater'``: count null values ``>= observed``; ``'less'``: ``<= observed``;
        ``'two-sided'``: twice the smaller of the two one-sided p-values, at most 1.
    exact : bool, default=False
        True when ``null_distribution`` enumerates every distinct permutation (the
        identity included): the p-value is then ``count / B``.  False for randomly drawn
        permutations: ``(count + 1) / (B + 1)``, the observed arrangement counted as one
        more permutation.
    stacklevel : int, default=2
        Passed to :func:`warnings.warn`; 2 points at the caller of this function.

    Returns
    -------
    float
        The p-value, in (0, 1] (randomized) or [0, 1] (exact); NaN if ``observed`` is NaN.

    Raises
    ------
    ValueError
        For an unknown ``alternative``, an infinite ``observed``, or a null
        distribution that is empty, not 1-D or holds NaN or infinite values.

    Warns
    -----
    UndefinedMetricWarning
        When ``observed`` is NaN.

    Notes
    -----
    The ``+ 1`` keeps a randomized p-value from being 0 and makes the test exact
    at every level (Phipson & Smyth 2010); the two-sided rule is that of
    ``scipy.stats.permutation_test`` (the convention is not universal: the null
    distribution is kept in the result for other definitions).  A null value within
    ``TIE_TOLERANCE * |observed|`` of ``observed`` counts as equal to it, as in scipy.

    References
    ----------
    B. Phipson and G. K. Smyth, "Permutation p-values should never be zero: calculating
    exact p-values when permutations are randomly drawn", Statistical Applications in
    Genetics and Molecular Biology 9 (2010).

    Examples
    --------
    >>> from assay.resampling._pvalues import permutation_pvalue
    >>> permutation_pvalue([0.1, 0.2, 0.3, 0.4], 0.35, "greater")  # (1 + 1) / (4 + 1)
    0.4
    >>> permutation_pvalue([0.1, 0.2, 0.3, 0.4], 0.3, "greater", exact=True)  # 2 / 4
    0.5
    """
    null = as_replicates(null_distribution, "null_distribution")
    alternative = check_alternative(alternative)
    value = _observed_or_nan(observed, "observed", stacklevel)
    if np.isnan(value):
        return value
    return _pvalue(null, value, alternative, adjustment=0 if exact else 1)
