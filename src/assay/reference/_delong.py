"""Reference DeLong inference: the original O(n_pos * n_neg) formulas, exact.

DeLong, DeLong & Clarke-Pearson (1988), section 3, written from the pairs: the kernel
``psi(x, y) = 1`` if ``x > y``, ``1/2`` if ``x = y``, ``0`` otherwise, is evaluated for
every (positive, negative) pair of every model.  Weights (frequency weights: a row of
weight ``c`` counts as ``c`` identical rows, see :func:`assay.delong_covariance`) and
all the sums are exact :class:`fractions.Fraction`; the variances are rounded to float
once.  Square roots, the normal distribution (``math.erfc``) and the Student t
distribution (a continued fraction for the incomplete beta function) are computed in
floating point at the end, and their quantiles by bisection.

Return values are plain: ``delong_covariance`` returns ``(aucs, covariance)`` arrays,
``auc_ci`` returns ``(estimate, (low, high), standard_error)``, the tests return a
dict with the fields of :class:`assay._results.TestResult` that they compute.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ._exact import NAN, binary_target, values_of

__all__ = ["auc_ci", "delong_covariance", "delong_test", "delong_test_unpaired"]

_HALF = Fraction(1, 2)
_BISECTION_STEPS = 200


# --------------------------------------------------------------------------- placements


def _weights(sample_weight: Any, n: int) -> list[Fraction]:
    if sample_weight is None:
        return [Fraction(1)] * n
    return [Fraction(w) for w in values_of(sample_weight)]


def _psi(x: Any, y: Any) -> Fraction:
    if x > y:
        return Fraction(1)
    if x == y:
        return _HALF
    return Fraction(0)


def _model(positives: list[tuple[Any, Fraction]], negatives: list[tuple[Any, Fraction]]):
    """``(auc, v10, v01)`` of one model: exact placements from all pairs.

    ``positives`` / ``negatives`` are ``(score, weight)`` rows of positive weight.
    """
    total_positive = sum(weight for _, weight in positives)
    total_negative = sum(weight for _, weight in negatives)
    v10 = [sum(w * _psi(x, y) for y, w in negatives) / total_negative for x, _ in positives]
    v01 = [sum(u * _psi(x, y) for x, u in positives) / total_positive for y, _ in negatives]
    auc = sum(u * v for (_, u), v in zip(positives, v10, strict=True)) / total_positive
    return auc, v10, v01


def _covariance_parts(y_true: Any, scores: tuple[Any, ...], sample_weight: Any, pos_label: Any):
    """``(aucs, S10, S01, U, W)`` exactly; ``aucs`` is None when a class is empty."""
    positive = binary_target(y_true, pos_label)
    weights = _weights(sample_weight, len(positive))
    columns = [values_of(score) for score in scores]
    positive_rows = [i for i, p in enumerate(positive) if p and weights[i] > 0]
    negative_rows = [i for i, p in enumerate(positive) if not p and weights[i] > 0]
    total_positive = sum((weights[i] for i in positive_rows), Fraction(0))
    total_negative = sum((weights[i] for i in negative_rows), Fraction(0))
    if not positive_rows or not negative_rows:
        return None, None, None, total_positive, total_negative
    models = [
        _model(
            [(column[i], weights[i]) for i in positive_rows],
            [(column[j], weights[j]) for j in negative_rows],
        )
        for column in columns
    ]
    k = len(models)
    aucs = [auc for auc, _, _ in models]
    s10 = [[Fraction(0)] * k for _ in range(k)]
    s01 = [[Fraction(0)] * k for _ in range(k)]
    for r in range(k):
        for s in range(k):
            s10[r][s] = sum(
                weights[i] * (models[r][1][a] - aucs[r]) * (models[s][1][a] - aucs[s])
                for a, i in enumerate(positive_rows)
            )
            s01[r][s] = sum(
                weights[j] * (models[r][2][b] - aucs[r]) * (models[s][2][b] - aucs[s])
                for b, j in enumerate(negative_rows)
            )
    return aucs, s10, s01, total_positive, total_negative


def _covariance(s10, s01, total_positive: Fraction, total_negative: Fraction, r: int, s: int):
    """``S10[r][s] / ((U - 1) U) + S01[r][s] / ((W - 1) W)``; NaN when U or W <= 1."""
    if total_positive <= 1 or total_negative <= 1:
        return NAN
    return s10[r][s] / ((total_positive - 1) * total_positive) + s01[r][s] / (
        (total_negative - 1) * total_negative
    )


def delong_covariance(
    y_true: Any, *scores: Any, sample_weight: Any = None, pos_label: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """AUCs of k models on one test set and DeLong's covariance matrix, from all pairs.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    *scores : array-like of shape (n_samples,)
        One score vector per model.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights; zero-weight rows are dropped.
    pos_label : scalar, default=None
        The positive class (inferred for {0, 1}, {-1, 1}, booleans).

    Returns
    -------
    aucs : ndarray of shape (k,)
        NaN when a class is missing.
    covariance : ndarray of shape (k, k)
        NaN when a class is missing or has total weight 1 or less.

    Notes
    -----
    DeLong et al. (1988), section 3: ``V10_i = sum_j w_j psi(x_i, y_j) / W`` and
    ``V01_j = sum_i u_i psi(x_i, y_j) / U`` from every pair, ``A = sum_i u_i V10_i / U``,
    ``S10 = sum_i u_i (V10_i - A)(V10_i - A)' / (U - 1)`` (``S01`` likewise) and
    ``Cov = S10 / U + S01 / W``, all in exact fractions.
    """
    aucs, s10, s01, total_positive, total_negative = _covariance_parts(
        y_true, scores, sample_weight, pos_label
    )
    k = len(scores)
    if aucs is None:
        return np.full(k, NAN), np.full((k, k), NAN)
    covariance = np.array(
        [
            [float(_covariance(s10, s01, total_positive, total_negative, r, s)) for s in range(k)]
            for r in range(k)
        ]
    )
    return np.array([float(a) for a in aucs]), covariance


# --------------------------------------------------------------------------- distributions


def _normal_cdf(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 10_000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-16:
            break
    return result


def _regularized_beta(a: float, b: float, x: float) -> float:
    """``I_x(a, b)``."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(a * math.log(x) + b * math.log1p(-x) - _log_beta(a, b))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1.0 - front * _beta_continued_fraction(b, a, 1.0 - x) / b


def _student_cdf(t: float, df: float) -> float:
    tail = 0.5 * _regularized_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def _quantile(cdf: Any, probability: float) -> float:
    """The ``x`` with ``cdf(x) = probability``, by bisection."""
    low, high = -100.0, 100.0
    for _ in range(_BISECTION_STEPS):
        middle = 0.5 * (low + high)
        if cdf(middle) < probability:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def _pvalue(statistic: float, alternative: str, cdf: Any) -> float:
    if alternative == "greater":
        return cdf(-statistic)  # P(Z >= z), by the symmetry of both distributions
    if alternative == "less":
        return cdf(statistic)
    return min(1.0, 2.0 * cdf(-abs(statistic)))


# --------------------------------------------------------------------------- public twins


def _logistic(t: float) -> float:
    """``1 / (1 + e^-t)`` without overflow for large ``|t|``."""
    if t >= 0:
        return 1.0 / (1.0 + math.exp(-t))
    small = math.exp(t)
    return small / (1.0 + small)


def auc_ci(
    y_true: Any,
    y_score: Any,
    *,
    confidence_level: float = 0.95,
    method: str = "delong",
    interval: str = "logit",
    sample_weight: Any = None,
    pos_label: Any = None,
) -> tuple[float, tuple[float, float], float]:
    """Confidence interval of the AUC with DeLong's or Hanley & McNeil's SE, normal on
    the logit scale or on the AUC scale.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
        Binary labels and scores.
    confidence_level : float, default=0.95
        Nominal coverage.
    method : {'delong', 'hanley_mcneil'}, default='delong'
        The standard error.
    interval : {'logit', 'normal'}, default='logit'
        The scale of the normal interval.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    pos_label : scalar, default=None
        The positive class.

    Returns
    -------
    tuple
        ``(auc, (low, high), standard_error)``; NaN when undefined.

    Notes
    -----
    ``'normal'``: ``A -/+ z SE`` clipped to [0, 1]; ``'logit'``: the bounds ``p`` with
    ``log(p / (1 - p)) = log(A / (1 - A)) -/+ z SE / (A (1 - A))`` (the point ``A`` at
    ``A`` = 0 or 1).  DeLong: ``SE^2 = S10 / U + S01 / W``; Hanley &
    McNeil (1982): ``SE^2 = (A(1 - A) + (U - 1)(Q1 - A^2) + (W - 1)(Q2 - A^2)) / (U W)``
    with ``Q1 = A / (2 - A)`` and ``Q2 = 2 A^2 / (1 + A)``, exact until the square root.
    """
    aucs, s10, s01, total_positive, total_negative = _covariance_parts(
        y_true, (y_score,), sample_weight, pos_label
    )
    if aucs is None:
        return NAN, (NAN, NAN), NAN
    auc = aucs[0]
    if method == "hanley_mcneil":
        q1 = auc / (2 - auc)
        q2 = 2 * auc * auc / (1 + auc)
        variance = (
            auc * (1 - auc)
            + (total_positive - 1) * (q1 - auc * auc)
            + (total_negative - 1) * (q2 - auc * auc)
        ) / (total_positive * total_negative)
    else:
        variance = _covariance(s10, s01, total_positive, total_negative, 0, 0)
    standard_error = math.sqrt(float(variance))
    z = _quantile(_normal_cdf, 0.5 * (1.0 + confidence_level))
    area = float(auc)
    if math.isnan(standard_error):
        low = high = NAN
    elif interval == "logit" and 0 < auc < 1:
        log_odds = math.log(area / (1.0 - area))
        step = z * standard_error / (area * (1.0 - area))
        low, high = _logistic(log_odds - step), _logistic(log_odds + step)
    else:
        low = max(0.0, area - z * standard_error)
        high = min(1.0, area + z * standard_error)
    return area, (low, high), standard_error


def _difference_result(
    difference: Fraction, variance: Any, alternative: str, confidence_level: float, cdf: Any
) -> dict[str, Any]:
    if isinstance(variance, float) and math.isnan(variance):
        return {
            "statistic": NAN,
            "pvalue": NAN,
            "confidence_interval": (NAN, NAN),
            "standard_error": NAN,
        }
    if variance == 0 or math.sqrt(float(variance)) == 0.0:  # 0, or below float range
        if difference == 0:
            return {
                "statistic": 0.0,
                "pvalue": 1.0 if alternative == "two-sided" else 0.5,
                "confidence_interval": (0.0, 0.0),
                "standard_error": 0.0,
            }
        return {
            "statistic": NAN,
            "pvalue": NAN,
            "confidence_interval": (NAN, NAN),
            "standard_error": 0.0,
        }
    standard_error = math.sqrt(float(variance))
    statistic = float(difference) / standard_error
    critical = _quantile(cdf, 0.5 * (1.0 + confidence_level))
    return {
        "statistic": statistic,
        "pvalue": _pvalue(statistic, alternative, cdf),
        "confidence_interval": (
            max(-1.0, float(difference) - critical * standard_error),
            min(1.0, float(difference) + critical * standard_error),
        ),
        "standard_error": standard_error,
    }


def delong_test(
    y_true: Any,
    score_a: Any,
    score_b: Any,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    sample_weight: Any = None,
    pos_label: Any = None,
) -> dict[str, Any]:
    """Paired DeLong test of ``AUC_A - AUC_B`` on one test set.

    Parameters
    ----------
    y_true, score_a, score_b : array-like of shape (n_samples,)
        Labels and the two models' scores.
    alternative : {'two-sided', 'greater', 'less'}, default='two-sided'
        The alternative about ``AUC_A - AUC_B``.
    confidence_level : float, default=0.95
        Coverage of the two-sided interval of the difference.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    pos_label : scalar, default=None
        The positive class.

    Returns
    -------
    dict
        ``statistic``, ``pvalue``, ``df`` (None), ``estimate``,
        ``confidence_interval``, ``standard_error``.

    Notes
    -----
    ``z = (A - B) / sqrt(Var A + Var B - 2 Cov(A, B))`` with the exact covariance of
    :func:`delong_covariance`, normal reference; a zero variance gives z = 0 (p = 1, or
    1/2 one-sided) when ``A = B`` (pROC's convention), NaN otherwise.
    """
    aucs, s10, s01, total_positive, total_negative = _covariance_parts(
        y_true, (score_a, score_b), sample_weight, pos_label
    )
    if aucs is None:
        return {
            "statistic": NAN,
            "pvalue": NAN,
            "df": None,
            "estimate": NAN,
            "confidence_interval": (NAN, NAN),
            "standard_error": NAN,
        }
    parts = [
        _covariance(s10, s01, total_positive, total_negative, r, s)
        for r, s in ((0, 0), (1, 1), (0, 1))
    ]
    variance = (
        NAN if any(isinstance(p, float) for p in parts) else parts[0] + parts[1] - 2 * parts[2]
    )
    difference = aucs[0] - aucs[1]
    result = _difference_result(difference, variance, alternative, confidence_level, _normal_cdf)
    return {**result, "df": None, "estimate": float(difference)}


def delong_test_unpaired(
    y_true_a: Any,
    score_a: Any,
    y_true_b: Any,
    score_b: Any,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    sample_weight_a: Any = None,
    sample_weight_b: Any = None,
    pos_label: Any = None,
) -> dict[str, Any]:
    """Unpaired DeLong test of ``AUC_A - AUC_B`` on two independent test sets.

    Parameters
    ----------
    y_true_a, score_a : array-like
        Labels and scores of model A's test set.
    y_true_b, score_b : array-like
        Labels and scores of model B's test set.
    alternative : {'two-sided', 'greater', 'less'}, default='two-sided'
        The alternative about ``AUC_A - AUC_B``.
    confidence_level : float, default=0.95
        Coverage of the two-sided interval of the difference.
    sample_weight_a, sample_weight_b : array-like, default=None
        Non-negative frequency weights of each test set.
    pos_label : scalar, default=None
        The positive class.

    Returns
    -------
    dict
        ``statistic``, ``pvalue``, ``df``, ``estimate``, ``confidence_interval``,
        ``standard_error``.

    Notes
    -----
    ``D = (A - B) / sqrt(V_A + V_B)`` referred to Student's t with pROC's
    ``df = (V_A + V_B)^2 / (V_A^2 / (N_A - 1) + V_B^2 / (N_B - 1))``, ``N`` the rows
    (total weight) of a test set; the t distribution from the incomplete beta function.
    """
    sides = []
    for y_true, score, weights in (
        (y_true_a, score_a, sample_weight_a),
        (y_true_b, score_b, sample_weight_b),
    ):
        aucs, s10, s01, total_positive, total_negative = _covariance_parts(
            y_true, (score,), weights, pos_label
        )
        if aucs is None:
            return {
                "statistic": NAN,
                "pvalue": NAN,
                "df": NAN,
                "estimate": NAN,
                "confidence_interval": (NAN, NAN),
                "standard_error": NAN,
            }
        variance = _covariance(s10, s01, total_positive, total_negative, 0, 0)
        sides.append((aucs[0], variance, total_positive + total_negative))
    (auc_a, variance_a, rows_a), (auc_b, variance_b, rows_b) = sides
    difference = auc_a - auc_b
    if isinstance(variance_a, float) or isinstance(variance_b, float):
        result = _difference_result(difference, NAN, alternative, confidence_level, None)
        return {**result, "df": NAN, "estimate": float(difference)}
    variance = variance_a + variance_b
    df = NAN
    if variance > 0:
        df = float(variance**2 / (variance_a**2 / (rows_a - 1) + variance_b**2 / (rows_b - 1)))

    def cdf(t: float) -> float:
        return _student_cdf(t, df)

    result = _difference_result(difference, variance, alternative, confidence_level, cdf)
    return {**result, "df": df, "estimate": float(difference)}
