"""The confidence interval that a t-test inverts: two-sided or one-sided."""

from __future__ import annotations

import math

from assay import _special as special
from assay._distributions import critical_value
from assay._results import ConfidenceInterval

__all__ = ["t_interval"]


def t_interval(
    estimate: float, standard_error: float, df: float, alternative: str, confidence_level: float
) -> ConfidenceInterval:
    """The interval of ``estimate`` that the t-test against ``alternative`` inverts.

    Two-sided: ``estimate -+ t_{df, (1 + level) / 2} standard_error``.  One-sided, as
    ``scipy.stats.ttest_rel(...).confidence_interval()``: ``'greater'`` gives
    ``[estimate - t_{df, level} standard_error, inf)``, ``'less'`` gives
    ``(-inf, estimate + t_{df, level} standard_error]``; 0 lies outside exactly when the
    one-sided p-value is below ``1 - level``.
    """
    if alternative == "two-sided":
        half_width = critical_value(confidence_level, df) * standard_error
        return ConfidenceInterval(estimate - half_width, estimate + half_width)
    half_width = float(special.stdtrit(df, confidence_level)) * standard_error
    if alternative == "greater":
        return ConfidenceInterval(estimate - half_width, math.inf)
    return ConfidenceInterval(-math.inf, estimate + half_width)
