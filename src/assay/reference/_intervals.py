"""Reference analytic confidence intervals, each written as its textbook formula.

Every function returns the tuple ``(estimate, low, high)`` of plain floats.  The
quantiles of the normal, Student t and beta distributions come from
``scipy.stats`` (the distributions themselves); everything else is ``math`` and
exact :class:`fractions.Fraction` arithmetic.  No input checks, no warnings.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from scipy import stats

__all__ = ["difference_ci", "error_rate_ci", "mean_ci", "proportion_ci"]


def _z(confidence_level: float) -> float:
    """Two-sided normal critical value: ``Phi^-1((1 + confidence_level) / 2)``."""
    return float(stats.norm.ppf(0.5 + confidence_level / 2.0))


def _clip(value: float, low: float, high: float) -> float:
    return min(max(value, low), high)


def proportion_ci(
    k: int, n: int, *, confidence_level: float = 0.95, method: str = "wilson"
) -> tuple[float, float, float]:
    """``(k/n, low, high)`` for a binomial proportion.

    Parameters
    ----------
    k, n : int
        Successes and trials, ``0 <= k <= n``, ``n >= 1``.
    confidence_level : float
        Nominal coverage.
    method : str
        'wilson', 'wilson_cc', 'normal', 'agresti_coull', 'clopper_pearson',
        'jeffreys' or 'hoeffding'.

    Returns
    -------
    tuple of three floats

    Notes
    -----
    ``p = k/n``, ``z`` the two-sided normal critical value, ``alpha = 1 - level``:

    - normal: ``p -+ z sqrt(p(1-p)/n)`` ("Estimation of the hypothesis real risk";
      Honavar, "Evaluating model performance").
    - wilson: ``(p + z^2/(2n) -+ z sqrt(p(1-p)/n + z^2/(4n^2))) / (1 + z^2/n)``
      (Wilson 1927).
    - wilson_cc: Newcombe's closed form of the continuity-corrected score interval
      (Newcombe 1998a, method 4).
    - agresti_coull: ``n' = n + z^2``, ``p' = (k + z^2/2)/n'``,
      ``p' -+ z sqrt(p'(1-p')/n')`` (Agresti & Coull 1998).
    - clopper_pearson: ``Beta(alpha/2; k, n-k+1)``, ``Beta(1-alpha/2; k+1, n-k)``,
      0 at ``k = 0`` and 1 at ``k = n`` (Clopper & Pearson 1934).
    - jeffreys: the ``alpha/2`` and ``1 - alpha/2`` quantiles of
      ``Beta(k+1/2, n-k+1/2)``, 0 at ``k = 0`` and 1 at ``k = n`` (Brown, Cai &
      DasGupta 2001, section 4.1.2).
    - hoeffding: ``p -+ eps`` with ``2 exp(-2 n eps^2) = alpha`` (Hoeffding 1963;
      "Estimation of the hypothesis real risk", Theorem 6.5.1 with one hypothesis).

    Every bound is clipped to [0, 1].

    Examples
    --------
    >>> _, low, high = proportion_ci(10, 100, confidence_level=0.9, method="normal")
    >>> round(low, 4), round(high, 4)
    (0.0507, 0.1493)
    """
    p = k / n
    alpha = 1.0 - confidence_level
    if method == "normal":
        z = _z(confidence_level)
        half = z * math.sqrt(p * (1 - p) / n)
        low, high = p - half, p + half
    elif method == "wilson":
        z = _z(confidence_level)
        centre = p + z * z / (2 * n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        scale = 1 + z * z / n
        low, high = (centre - half) / scale, (centre + half) / scale
    elif method == "wilson_cc":
        # Newcombe (1998a), method 4, as printed: with x = k successes,
        # L = (2x + z^2 - 1 - z sqrt(z^2 - 2 - 1/n + 4p(n(1-p) + 1))) / (2(n + z^2)),
        # U = (2x + z^2 + 1 + z sqrt(z^2 + 2 - 1/n + 4p(n(1-p) - 1))) / (2(n + z^2));
        # L = 0 at k = 0, U = 1 at k = n.
        z = _z(confidence_level)
        denominator = 2 * (n + z * z)
        if k == 0:
            low = 0.0
        else:
            root = math.sqrt(z * z - 2 - 1 / n + 4 * p * (n * (1 - p) + 1))
            low = (2 * k + z * z - 1 - z * root) / denominator
        if k == n:
            high = 1.0
        else:
            root = math.sqrt(z * z + 2 - 1 / n + 4 * p * (n * (1 - p) - 1))
            high = (2 * k + z * z + 1 + z * root) / denominator
    elif method == "agresti_coull":
        z = _z(confidence_level)
        n_adjusted = n + z * z
        p_adjusted = (k + z * z / 2) / n_adjusted
        half = z * math.sqrt(p_adjusted * (1 - p_adjusted) / n_adjusted)
        low, high = p_adjusted - half, p_adjusted + half
    elif method == "clopper_pearson":
        low = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
        high = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    elif method == "jeffreys":
        posterior = stats.beta(k + 0.5, n - k + 0.5)
        low = 0.0 if k == 0 else float(posterior.ppf(alpha / 2))
        high = 1.0 if k == n else float(posterior.ppf(1 - alpha / 2))
    elif method == "hoeffding":
        epsilon = math.sqrt(-math.log(alpha / 2) / (2 * n))
        low, high = p - epsilon, p + epsilon
    else:
        raise ValueError(f"unknown method {method!r}")
    return p, _clip(low, 0.0, 1.0), _clip(high, 0.0, 1.0)


def error_rate_ci(
    y_true: Any,
    y_pred: Any,
    *,
    confidence_level: float = 0.95,
    method: str = "wilson",
    sample_weight: Any = None,
) -> tuple[float, float, float]:
    """``(error rate, low, high)``: :func:`proportion_ci` of the misclassified rows.

    Parameters
    ----------
    y_true, y_pred : sequences of labels
    confidence_level, method
        As in :func:`proportion_ci`.
    sample_weight : sequence of whole numbers or None
        Frequencies: row ``i`` counts ``sample_weight[i]`` times.

    Returns
    -------
    tuple of three floats

    Notes
    -----
    ``k = sum_i w_i [y_i != yhat_i]``, ``n = sum_i w_i`` ("Estimation of the hypothesis
    real risk", "The estimation by the confidence interval"), counted row by row.

    Examples
    --------
    >>> error_rate_ci([0, 1, 1, 0], [0, 1, 0, 0], method="normal")[0]
    0.25
    """
    truth, predicted = list(y_true), list(y_pred)
    weights = [1] * len(truth) if sample_weight is None else list(sample_weight)
    k = n = 0
    for t, p, w in zip(truth, predicted, weights, strict=True):
        copies = int(w)
        n += copies
        if t != p:
            k += copies
    return proportion_ci(k, n, confidence_level=confidence_level, method=method)


def difference_ci(
    k1: int,
    n1: int,
    k2: int,
    n2: int,
    *,
    confidence_level: float = 0.95,
    method: str = "newcombe",
) -> tuple[float, float, float]:
    """``(p1 - p2, low, high)`` for two independent proportions.

    Parameters
    ----------
    k1, n1, k2, n2 : int
        Successes and trials of the two samples.
    confidence_level : float
    method : str
        'newcombe' or 'normal'.

    Returns
    -------
    tuple of three floats

    Notes
    -----
    normal: ``d -+ z sqrt(p1(1-p1)/n1 + p2(1-p2)/n2)`` ("Estimation of the hypothesis
    real risk", "Comparison of two hypotheses ... on two different test samples").
    newcombe (Newcombe 1998, method
    10): with the Wilson intervals ``(l1, u1)`` and ``(l2, u2)``,
    ``d - sqrt((p1-l1)^2 + (u2-p2)^2)`` and ``d + sqrt((u1-p1)^2 + (p2-l2)^2)``.
    Clipped to [-1, 1].

    Examples
    --------
    >>> _, low, high = difference_ci(56, 70, 48, 80)
    >>> round(low, 4), round(high, 4)
    (0.0524, 0.3339)
    """
    p1, p2 = k1 / n1, k2 / n2
    d = p1 - p2
    if method == "normal":
        half = _z(confidence_level) * math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
        low, high = d - half, d + half
    elif method == "newcombe":
        _, l1, u1 = proportion_ci(k1, n1, confidence_level=confidence_level)
        _, l2, u2 = proportion_ci(k2, n2, confidence_level=confidence_level)
        low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
        high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    else:
        raise ValueError(f"unknown method {method!r}")
    return d, _clip(low, -1.0, 1.0), _clip(high, -1.0, 1.0)


def mean_ci(
    values: Any, *, confidence_level: float = 0.95, method: str = "t"
) -> tuple[float, float, float]:
    """``(mean, low, high)``: ``mean -+ c s / sqrt(k)`` for ``k`` values.

    Parameters
    ----------
    values : sequence of floats, at least two
    confidence_level : float
    method : str
        't' (Student t, ``k - 1`` degrees of freedom) or 'normal'.

    Returns
    -------
    tuple of three floats

    Notes
    -----
    Mean and ``s^2 = sum (x - mean)^2 / (k - 1)`` are summed exactly as fractions
    (Wu, "Evaluation", eqs. 33-34); ``c`` is the ``(1 + level)/2`` quantile of
    ``t(k - 1)`` (Wu, "Evaluation", Algorithm 2) or of the standard normal.

    Examples
    --------
    >>> _, low, high = mean_ci([1.0, 2.0, 3.0])
    >>> round(low, 4), round(high, 4)
    (-0.4841, 4.4841)
    """
    exact = [Fraction(float(v)) for v in values]
    k = len(exact)
    mean = sum(exact, Fraction(0)) / k
    variance = sum(((v - mean) ** 2 for v in exact), Fraction(0)) / (k - 1)
    s = math.sqrt(variance)
    if method == "t":
        c = float(stats.t.ppf(0.5 + confidence_level / 2.0, k - 1))
    elif method == "normal":
        c = _z(confidence_level)
    else:
        raise ValueError(f"unknown method {method!r}")
    half = c * s / math.sqrt(k)
    centre = float(mean)
    return centre, centre - half, centre + half
