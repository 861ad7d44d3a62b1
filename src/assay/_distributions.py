"""p-values and critical values of the normal and Student t reference distributions.

Shared by every analytic test that refers its statistic to N(0, 1) or to Student's t
(DeLong, the t-tests over fold scores, the normal approximations of McNemar, Wilcoxon
and the sign test), so that "two-sided" means the same thing everywhere: twice the
smaller tail, at most 1.  A NaN statistic gives a NaN p-value.
"""

from __future__ import annotations

import math

from scipy.special import ndtr, ndtri, stdtr, stdtrit

__all__ = ["critical_value", "pvalue"]


def pvalue(statistic: float, alternative: str, df: float | None = None) -> float:
    """p-value of ``statistic`` against N(0, 1) (``df=None``) or Student's t with ``df``.

    ``'greater'`` is the upper tail, ``'less'`` the lower tail, ``'two-sided'`` twice
    the smaller tail (at most 1).
    """
    if math.isnan(statistic):
        return math.nan
    if df is None:
        lower, upper = float(ndtr(statistic)), float(ndtr(-statistic))
    else:
        lower, upper = float(stdtr(df, statistic)), float(stdtr(df, -statistic))
    if alternative == "greater":
        return upper
    if alternative == "less":
        return lower
    return min(1.0, 2.0 * min(lower, upper))


def critical_value(confidence_level: float, df: float | None = None) -> float:
    """The ``c`` with ``P(|T| <= c) = confidence_level``, T normal or Student's t."""
    tail = 0.5 * (1.0 + confidence_level)
    return float(ndtri(tail)) if df is None else float(stdtrit(df, tail))
