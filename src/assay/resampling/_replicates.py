"""Replicate values as the resampling kernels produce them: checks and conventions.

Shared by the interval and p-value modules: a distribution of replicate values is a
non-empty 1-D float64 array, NaN where the metric was undefined in a replicate; infinite
values are refused.  ``TIE_TOLERANCE`` decides when a value equals an estimate or an
observed statistic, ``QUANTILE_METHOD`` how an interval's bounds are read off the
replicates.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from assay._results import ConfidenceInterval

__all__ = [
    "QUANTILE_METHOD",
    "TIE_TOLERANCE",
    "as_1d_float",
    "as_finite_scalar",
    "as_replicates",
    "drop_undefined",
    "quantile_interval",
    "refuse_infinite",
    "tail_level",
]

# Relative tolerance under which a value counts as equal to the observed value (or the
# estimate): 100 machine epsilons, as scipy.stats.permutation_test.  A replicate of a
# metric and its estimate computed by different float sums may differ in the last bits
# although they are equal in exact arithmetic; continuous statistics are not affected.
TIE_TOLERANCE = 100.0 * float(np.finfo(np.float64).eps)

# Hyndman & Fan (1996) type 7: the quantile scipy.stats.bootstrap takes of its replicates.
QUANTILE_METHOD: Final = "linear"


def quantile_interval(values: np.ndarray, levels: Any) -> ConfidenceInterval:
    """The interval between the quantiles of ``values`` at the two ``levels``."""
    low, high = np.quantile(values, levels, method=QUANTILE_METHOD)
    return ConfidenceInterval(float(low), float(high))


def tail_level(confidence_level: float) -> float:
    """The probability in each tail of an equal-tailed interval."""
    return (1.0 - confidence_level) / 2.0


def as_1d_float(values: Any, name: str) -> np.ndarray:
    """``values`` as a non-empty 1-D float64 array (NaN and infinities allowed)."""
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"`{name}` must be 1-D, got an array of shape {array.shape}.")
    if array.shape[0] == 0:
        raise ValueError(f"`{name}` is empty; at least one value is needed.")
    return array


def refuse_infinite(array: np.ndarray, name: str) -> None:
    """Raise if ``array`` holds an infinite value."""
    n_infinite = int(np.count_nonzero(np.isinf(array)))
    if n_infinite:
        raise ValueError(
            f"`{name}` contains {n_infinite} infinite values; replicate values must be "
            "finite (or NaN where the metric is undefined)."
        )


def as_replicates(values: Any, name: str) -> np.ndarray:
    """Finite replicate values as a non-empty 1-D float64 array."""
    array = as_1d_float(values, name)
    n_nan = int(np.count_nonzero(np.isnan(array)))
    if n_nan:
        raise ValueError(
            f"`{name}` contains {n_nan} NaN values; drop the undefined replicates first "
            "(drop_undefined or bootstrap_summary do)."
        )
    refuse_infinite(array, name)
    return array


def as_finite_scalar(value: Any, name: str) -> float:
    """``value`` as a finite Python float."""
    number = float(value)
    if not np.isfinite(number):
        raise ValueError(f"`{name}` must be finite; got {number!r}.")
    return number


def drop_undefined(distribution: Any) -> tuple[np.ndarray, int]:
    """The defined (non-NaN) replicates, in order, and the number of NaN ones removed.

    Parameters
    ----------
    distribution : array-like of shape (n_resamples,)
        Replicate values; NaN marks a replicate in which the metric was undefined.

    Returns
    -------
    defined : numpy.ndarray
        The non-NaN values as float64.
    n_undefined : int
        How many NaN values were removed.

    Raises
    ------
    ValueError
        If ``distribution`` is not 1-D, is empty or contains an infinite value.

    Examples
    --------
    >>> from assay.resampling._replicates import drop_undefined
    >>> drop_undefined([0.5, float("nan"), 0.75])
    (array([0.5 , 0.75]), 1)
    """
    array = as_1d_float(distribution, "distribution")
    refuse_infinite(array, "distribution")
    undefined = np.isnan(array)
    n_undefined = int(np.count_nonzero(undefined))
    return (array[~undefined] if n_undefined else array), n_undefined
