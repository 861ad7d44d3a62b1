"""Confidence interval of the difference of two independent proportions.

For example the error rates of two classifiers, each measured on its own test set:
normal (Wald) or Newcombe's hybrid score interval, built from the Wilson intervals of
:mod:`assay.inference._analytic_intervals`.  The user guide ("Analytic confidence
intervals") gives each formula with its source.
"""

from __future__ import annotations

import math
import types
import warnings
from typing import Any

from assay._procedure_checks import check_confidence_level
from assay._results import ConfidenceInterval, IntervalResult
from assay._validation import check_option
from assay.exceptions import DegenerateDataWarning
from assay.inference._analytic_intervals import _counts, _normal_quantile, _proportion_bounds

__all__ = ["DIFFERENCE_METHODS", "difference_ci"]

DIFFERENCE_METHODS = ("newcombe", "normal")


def difference_ci(
    k1: Any,
    n1: Any,
    k2: Any,
    n2: Any,
    *,
    confidence_level: float = 0.95,
    method: str = "newcombe",
) -> IntervalResult:
    """Confidence interval of ``k1/n1 - k2/n2`` for two independent samples.

    For example the error rates of two classifiers, each measured on its own test
    set.  (Two classifiers on the **same** test set are paired; use McNemar's test or
    :func:`assay.compare` instead.)

    Parameters
    ----------
    k1, n1 : int
        Successes (e.g. errors) and trials of the first sample; ``0 <= k1 <= n1``,
        ``n1 >= 1``.
    k2, n2 : int
        The same for the second sample.
    confidence_level : float, default=0.95
        Nominal coverage, in (0, 1).
    method : {'newcombe', 'normal'}, default='newcombe'
        ``'newcombe'``: hybrid score interval from the two Wilson intervals
        (Newcombe 1998b, method 10).  ``'normal'``: the Wald interval of the source
        texts.

    Returns
    -------
    IntervalResult
        ``estimate = p1 - p2``; ``confidence_interval`` within [-1, 1];
        ``standard_error = sqrt(p1(1-p1)/n1 + p2(1-p2)/n2)``; ``n = n1 + n2``;
        ``details``: ``estimate_1``, ``estimate_2``, ``n1``, ``n2``.

    Raises
    ------
    ValueError
        Counts that are not whole non-negative scalars; ``n1`` or ``n2`` = 0;
        ``k1 > n1`` or ``k2 > n2``; a bad ``confidence_level`` or ``method``.

    Warns
    -----
    DegenerateDataWarning
        ``method='normal'`` when both proportions are 0 or 1 (zero-width interval).

    Notes
    -----
    With ``d = p1 - p2`` and ``z`` the ``(1 + confidence_level)/2`` normal quantile:

    - normal: ``d ± z sqrt(p1(1-p1)/n1 + p2(1-p2)/n2)`` ("Estimation of the hypothesis
      real risk", "Comparison of two hypotheses produced by the same algorithm on two
      different test samples").
    - newcombe: with ``(l1, u1)``, ``(l2, u2)`` the Wilson intervals of ``p1`` and
      ``p2`` at the same level, ``low = d - sqrt((p1 - l1)² + (u2 - p2)²)`` and
      ``high = d + sqrt((u1 - p1)² + (p2 - l2)²)`` (Newcombe 1998b, method 10).  It
      is never degenerate and stays within [-1, 1]; the normal interval collapses to
      a point when both proportions are 0 or 1 and has poor coverage for small
      samples (Newcombe 1998b).

    Bounds are clipped to [-1, 1].

    References
    ----------
    R. G. Newcombe, "Interval estimation for the difference between independent
    proportions: comparison of eleven methods", Statistics in Medicine 17 (1998b),
    873-890.

    Examples
    --------
    Newcombe (1998b), example (a): 56/70 against 48/80:

    >>> from assay import difference_ci
    >>> result = difference_ci(56, 70, 48, 80)
    >>> round(result.estimate, 4)
    0.2
    >>> [round(bound, 4) for bound in result.confidence_interval]
    [0.0524, 0.3339]
    """
    successes_1, trials_1 = _counts(k1, n1, "k1", "n1")
    successes_2, trials_2 = _counts(k2, n2, "k2", "n2")
    confidence_level = check_confidence_level(confidence_level)
    check_option(method, "method", DIFFERENCE_METHODS)
    p1, p2 = successes_1 / trials_1, successes_2 / trials_2
    difference = p1 - p2
    standard_error = math.sqrt(p1 * (1.0 - p1) / trials_1 + p2 * (1.0 - p2) / trials_2)
    if method == "normal":
        if standard_error == 0.0:
            warnings.warn(
                f"both proportions are 0 or 1 (`k1`/`n1` = {successes_1}/{trials_1}, "
                f"`k2`/`n2` = {successes_2}/{trials_2}): the normal (Wald) interval has "
                "zero width; method='newcombe' gives a usable interval.",
                DegenerateDataWarning,
                stacklevel=2,
            )
        half_width = _normal_quantile(confidence_level) * standard_error
        low, high = difference - half_width, difference + half_width
    else:
        low_1, high_1 = _proportion_bounds(successes_1, trials_1, confidence_level, "wilson")
        low_2, high_2 = _proportion_bounds(successes_2, trials_2, confidence_level, "wilson")
        low = difference - math.hypot(p1 - low_1, high_2 - p2)
        high = difference + math.hypot(high_1 - p1, p2 - low_2)
    return IntervalResult(
        estimate=difference,
        confidence_interval=ConfidenceInterval(
            min(max(low, -1.0), 1.0), min(max(high, -1.0), 1.0)
        ),
        standard_error=standard_error,
        confidence_level=confidence_level,
        method=method,
        n=trials_1 + trials_2,
        details=types.MappingProxyType(
            {"estimate_1": p1, "estimate_2": p2, "n1": trials_1, "n2": trials_2}
        ),
    )
