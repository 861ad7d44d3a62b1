"""p-values and critical values of the normal and Student t reference distributions.

Shared by every analytic test that refers its statistic to N(0, 1) or to Student's t
(DeLong, the t-tests over fold scores, the normal approximations of McNemar, Wilcoxon
and the sign test), so that "two-sided" means the same thing everywhere: twice the
smaller tail, at most 1.  A NaN statistic gives a NaN p-value.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from assay import _special as special

__all__ = ["beta_quantile", "beta_quantiles", "critical_value", "pvalue"]


def pvalue(statistic: float, alternative: str, df: float | None = None) -> float:
    """p-value of ``statistic`` against N(0, 1) (``df=None``) or Student's t with ``df``.

    ``'greater'`` is the upper tail, ``'less'`` the lower tail, ``'two-sided'`` twice
    the smaller tail (at most 1).
    """
    if math.isnan(statistic):
        return math.nan
    if df is None:
        lower, upper = float(special.ndtr(statistic)), float(special.ndtr(-statistic))
    else:
        lower, upper = float(special.stdtr(df, statistic)), float(special.stdtr(df, -statistic))
    if alternative == "greater":
        return upper
    if alternative == "less":
        return lower
    return min(1.0, 2.0 * min(lower, upper))


def critical_value(confidence_level: float, df: float | None = None) -> float:
    """The ``c`` with ``P(|T| <= c) = confidence_level``, T normal or Student's t."""
    tail = 0.5 * (1.0 + confidence_level)
    return float(special.ndtri(tail)) if df is None else float(special.stdtrit(df, tail))


# SciPy's inverse of the regularized incomplete beta function fails silently for some
# large shape parameters (``betaincinv(1000, 1e9, 0.025)`` is twice the quantile,
# ``betaincinv(1000, 1e12, 0.025)`` is 16 times it, and both parameters near 1e13 are
# off by tenths of a standard deviation), while the function itself stays accurate
# there.  Its answer is therefore checked against the function, and replaced by a root
# of ``I_x(a, b) = q`` when the check fails.  Beyond 2**106 a shape parameter is its
# own limit: ``Gamma(b) / b`` has standard deviation ``b**-0.5 <= 2**-53``, below the
# float64 resolution, so ``Beta(a, b)`` is ``G / (G + b)`` with ``G ~ Gamma(a)``.
_BETA_CHECK_TOLERANCE = 1e-9  # |I_x(a, b) - q| / min(q, 1 - q) accepted without solving
_DOUBLE_EPSILON = 2.0**-52
_HUGE_SHAPE = 2.0**106
# scipy's gammaincinv is accurate below this; beyond, the Cornish-Fisher expansion
# a + z sqrt(a) + (z**2 - 1) / 3 errs by about z**3 / (36 sqrt(a)), relatively < 1e-19
_GAMMA_EXPANSION_SHAPE = 1e12


def _gamma_quantile(a: float, q: float) -> float:
    """The ``q`` quantile of Gamma(a, 1)."""
    if a < _GAMMA_EXPANSION_SHAPE:
        return float(special.gammaincinv(a, q))
    z = float(special.ndtri(q))
    return a + z * math.sqrt(a) + (z * z - 1.0) / 3.0


def beta_quantile(a: float, b: float, q: float) -> float:
    """The ``q`` quantile of Beta(a, b) (``a, b > 0``, ``0 < q < 1``), also for huge a, b.

    SciPy's ``betaincinv`` where it solves ``I_x(a, b) = q`` (checked with
    ``betainc``); otherwise Brent's method on ``I_x(a, b) - q`` over [0, 1], to a
    relative precision of a few units in the last place.  A shape parameter beyond
    2**106 is replaced by its limit (see above).
    """
    a, b = float(a), float(b)
    if a >= _HUGE_SHAPE and b >= _HUGE_SHAPE:
        return a / (a + b)  # the standard deviation is below half a unit in the last place
    if b >= _HUGE_SHAPE:
        g = _gamma_quantile(a, q)
        return g / (g + b)
    if a >= _HUGE_SHAPE:
        h = _gamma_quantile(b, 1.0 - q)
        return a / (a + h)
    x = float(special.betaincinv(a, b, q))
    if 0.0 < x < 1.0 and abs(float(special.betainc(a, b, x)) - q) <= _BETA_CHECK_TOLERANCE * min(
        q, 1.0 - q
    ):
        return x
    from scipy.optimize import brentq  # rarely needed, and slow to import

    root = brentq(
        lambda t: float(special.betainc(a, b, t)) - q,
        0.0,
        1.0,
        xtol=1e-300,
        rtol=4.0 * _DOUBLE_EPSILON,
        maxiter=2000,
    )
    return float(root)


def beta_quantiles(a: Any, b: Any, q: float) -> np.ndarray:
    """:func:`beta_quantile` of every pair of shape parameters in ``a`` and ``b``.

    SciPy's ``betaincinv`` on the whole array; the elements whose answer fails the check
    of :func:`beta_quantile`, and those with a shape parameter beyond 2**106, are
    recomputed one by one by :func:`beta_quantile`.  Each element equals
    ``beta_quantile(a[i], b[i], q)``.
    """
    first, second = np.broadcast_arrays(
        np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    )
    result = np.empty(first.shape)
    if result.size == 0:
        return result
    ordinary = (first < _HUGE_SHAPE) & (second < _HUGE_SHAPE)
    x = special.betaincinv(first[ordinary], second[ordinary], q)
    accepted = (0.0 < x) & (x < 1.0)
    accepted &= np.abs(special.betainc(first[ordinary], second[ordinary], x) - q) <= (
        _BETA_CHECK_TOLERANCE * min(q, 1.0 - q)
    )
    solved = np.full(first.shape, False)
    solved[ordinary] = accepted
    result[solved] = x[accepted]
    for index in zip(*np.nonzero(~solved), strict=True):
        result[index] = beta_quantile(float(first[index]), float(second[index]), q)
    return result
