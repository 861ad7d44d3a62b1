"""DeLong's tests of two AUCs: paired (one test set) and unpaired (two test sets).

Built on the placements and variances of :mod:`assay.inference._delong` (DeLong,
DeLong & Clarke-Pearson 1988; Sun & Xu 2014); the unpaired test follows pROC's
``roc.test(..., method="delong", paired=FALSE)``.  The statistic, p-value and interval
of a difference of AUCs (:func:`_difference_test`) serve both tests.  The two modules are
cut by topic (estimates and intervals there, tests here): merged, they would be about
900 lines, well over the house limit of about 600.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import numpy as np

from assay._distributions import critical_value
from assay._distributions import pvalue as pvalue_of
from assay._procedure_checks import check_alternative, check_confidence_level
from assay._results import ConfidenceInterval, TestResult
from assay.exceptions import DegenerateDataWarning, UndefinedMetricWarning
from assay.inference._delong import (
    _NAN,
    _count,
    _one_class_message,
    _paired_inputs,
    _Placements,
    _single_auc_variance,
    _too_few_message,
    _warn,
)

__all__ = ["delong_test", "delong_test_unpaired", "paired_test_result"]

_PAIRED_METHOD = "DeLong's test for two correlated ROC curves"
_UNPAIRED_METHOD = "DeLong's test for two ROC curves"


def _difference_test(
    difference: float,
    variance: float,
    alternative: str,
    confidence_level: float,
    df: float | None,
    stacklevel: int,
) -> tuple[float, float, tuple[float, float], float]:
    """``(statistic, pvalue, interval, standard_error)`` of a difference of AUCs.

    A zero variance gives statistic 0 when the difference is 0 too (pROC's convention
    for identical curves: p-value 1, or 1/2 for a one-sided alternative), NaN otherwise;
    both warn.
    """
    if math.isnan(variance):
        return _NAN, _NAN, (_NAN, _NAN), _NAN
    standard_error = math.sqrt(variance)
    if standard_error == 0.0:
        if difference == 0.0:
            _warn(
                "The variance of the difference of the AUCs is 0 and so is the difference "
                "(the two models rank the positives and negatives identically): statistic 0 "
                "returned.",
                DegenerateDataWarning,
                stacklevel + 1,
            )
            return 0.0, pvalue_of(0.0, alternative), (0.0, 0.0), 0.0
        _warn(
            f"The variance of the difference of the AUCs is 0 but the difference is "
            f"{difference:g}; the statistic is undefined (NaN returned).",
            DegenerateDataWarning,
            stacklevel + 1,
        )
        return _NAN, _NAN, (_NAN, _NAN), 0.0
    statistic = difference / standard_error
    half_width = critical_value(confidence_level, df) * standard_error
    interval = (max(-1.0, difference - half_width), min(1.0, difference + half_width))
    return statistic, pvalue_of(statistic, alternative, df), interval, standard_error


def _nan_test(
    method: str,
    alternative: str,
    confidence_level: float,
    df: float | None,
    estimate: float = _NAN,
    **details: Any,
) -> TestResult:
    """An undefined test: NaN statistic, p-value and interval (``estimate`` may be known)."""
    return TestResult(
        statistic=_NAN,
        pvalue=_NAN,
        df=df,
        alternative=alternative,
        method=method,
        estimate=estimate,
        confidence_interval=ConfidenceInterval(_NAN, _NAN),
        confidence_level=confidence_level,
        standard_error=_NAN,
        details=MappingProxyType(details),
    )


def paired_test_result(
    aucs: tuple[float, float],
    totals: tuple[float, float, bool],
    defined_estimable: tuple[bool, bool],
    components: Callable[[], tuple[np.ndarray, float]],
    *,
    alternative: str,
    confidence_level: float,
    stacklevel: int,
) -> TestResult:
    """The result of :func:`delong_test` from the two AUCs, the class totals (positive,
    negative, weighted), whether the test is defined (both classes) and estimable (more
    than one of each), and ``components()`` giving DeLong's 2 x 2 covariance and the
    variance of the difference (called only when estimable); also used by
    :mod:`assay.dask`.  ``stacklevel`` is what the caller would pass to
    ``warnings.warn`` for its warnings."""
    auc_a, auc_b = aucs
    n_positive, n_negative, weighted = totals
    defined, estimable = defined_estimable
    counts = {
        "n_positive": _count(n_positive, weighted),
        "n_negative": _count(n_negative, weighted),
    }
    if not defined:
        _warn(_one_class_message("the test"), UndefinedMetricWarning, stacklevel + 1)
        return _nan_test(
            _PAIRED_METHOD, alternative, confidence_level, None, auc_a=_NAN, auc_b=_NAN, **counts
        )
    if not estimable:
        message = _too_few_message(n_positive, n_negative)
        _warn(message, DegenerateDataWarning, stacklevel + 1)
        return _nan_test(
            _PAIRED_METHOD, alternative, confidence_level, None, auc_a - auc_b,
            auc_a=auc_a, auc_b=auc_b, **counts,
        )  # fmt: skip
    covariance, difference_variance = components()
    difference = auc_a - auc_b
    statistic, pvalue, interval, standard_error = _difference_test(
        difference, difference_variance, alternative, confidence_level, None, stacklevel + 1
    )
    return TestResult(
        statistic=statistic,
        pvalue=pvalue,
        df=None,
        alternative=alternative,
        method=_PAIRED_METHOD,
        estimate=difference,
        confidence_interval=ConfidenceInterval(*interval),
        confidence_level=confidence_level,
        standard_error=standard_error,
        details=MappingProxyType(
            {
                "auc_a": auc_a,
                "auc_b": auc_b,
                "variance_a": float(covariance[0, 0]),
                "variance_b": float(covariance[1, 1]),
                "covariance": float(covariance[0, 1]),
                **counts,
            }
        ),
    )


def delong_test(
    y_true: Any,
    score_a: Any,
    score_b: Any,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    sample_weight: Any = None,
    pos_label: Any = None,
) -> TestResult:
    """DeLong's test comparing the AUCs of two models scored on the same rows (paired).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary targets of the test set.
    score_a, score_b : array-like of shape (n_samples,)
        Scores of models A and B for the same rows (higher means more likely positive).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        The alternative about ``AUC_A - AUC_B``: different from 0, larger, smaller.
    confidence_level : float, default=0.95
        Coverage of the (two-sided) interval of ``AUC_A - AUC_B``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights (see :func:`delong_covariance`).
    pos_label : int, float, bool or str, default=None
        The positive class (inferred for labels {0, 1}, {-1, 1} and booleans).

    Returns
    -------
    TestResult
        ``statistic`` (z), ``pvalue``, ``df=None`` (normal reference), ``estimate``
        (``AUC_A - AUC_B``), its ``confidence_interval`` and ``standard_error``;
        ``details`` holds ``auc_a``, ``auc_b``, ``variance_a``, ``variance_b``,
        ``covariance``, ``n_positive`` and ``n_negative``.

    Raises
    ------
    ValueError
        On invalid targets, scores, weights or options.

    Warns
    -----
    UndefinedMetricWarning
        A single class in ``y_true``: everything is NaN.
    DegenerateDataWarning
        One positive or one negative only (NaN results), or a variance of the
        difference of 0: statistic 0 (p-value 1, or 1/2 one-sided) when the AUCs are
        equal (pROC's
        convention for identical curves), NaN otherwise.

    Notes
    -----
    ``z = (A_A - A_B) / sqrt(Var A_A + Var A_B - 2 Cov(A_A, A_B))`` with DeLong's
    covariance (:func:`delong_covariance`; DeLong et al. 1988, section 3), referred
    to the standard normal distribution; ``greater`` tests ``AUC_A > AUC_B``.  The
    variance of the difference is computed from the differences of the two models'
    placements, so it is never negative by rounding.  The interval is
    ``(A_A - A_B) -/+ z_{(1 + confidence_level) / 2} SE`` (two-sided for every
    ``alternative``, as pROC's ``roc.test``), clipped to [-1, 1].

    This reproduces pROC's ``roc.test(roc1, roc2, method = "delong", paired = TRUE)``
    (statistic ``Z``, p-value and ``conf.int``).  The test compares areas, not curves:
    two different ROC curves can have equal AUCs.

    References
    ----------
    E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the areas under
    two or more correlated receiver operating characteristic curves: a nonparametric
    approach", Biometrics 44(3), 837-845 (1988).
    X. Sun and W. Xu, IEEE Signal Processing Letters 21(11), 1389-1393 (2014).

    Examples
    --------
    >>> import assay
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> a = [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.5, 0.7]
    >>> b = [0.2, 0.3, 0.6, 0.7, 0.1, 0.4, 0.8, 0.3]
    >>> result = assay.delong_test(y, a, b)
    >>> round(result.estimate, 4), round(result.statistic, 4), round(result.pvalue, 4)
    (0.1562, 0.6419, 0.5209)
    """
    alternative = check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    positive, arrays, weights = _paired_inputs(
        y_true, (score_a, score_b), ["score_a", "score_b"], sample_weight, pos_label
    )
    data = _Placements(positive, arrays, weights)
    return paired_test_result(
        (float(data.aucs[0]), float(data.aucs[1])),
        (data.n_positive, data.n_negative, data.weighted),
        (data.defined, data.estimable),
        data.components,
        alternative=alternative,
        confidence_level=confidence_level,
        stacklevel=2,
    )


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
) -> TestResult:
    """DeLong's test comparing the AUCs of two models on two independent test sets.

    Parameters
    ----------
    y_true_a : array-like of shape (n_samples_a,)
        Binary targets of model A's test set.
    score_a : array-like of shape (n_samples_a,)
        Model A's scores on its test set.
    y_true_b : array-like of shape (n_samples_b,)
        Binary targets of model B's test set (other rows than A's).
    score_b : array-like of shape (n_samples_b,)
        Model B's scores on its test set.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        The alternative about ``AUC_A - AUC_B``.
    confidence_level : float, default=0.95
        Coverage of the (two-sided) interval of ``AUC_A - AUC_B``.
    sample_weight_a, sample_weight_b : array-like, default=None
        Non-negative frequency weights of each test set.
    pos_label : int, float, bool or str, default=None
        The positive class of both targets.

    Returns
    -------
    TestResult
        ``statistic`` (pROC's ``D``), ``pvalue``, ``df`` (see Notes), ``estimate``
        (``AUC_A - AUC_B``), ``confidence_interval``, ``standard_error``; ``details``
        holds ``auc_a``, ``auc_b``, ``variance_a``, ``variance_b`` and the class sizes
        ``n_positive_a``, ``n_negative_a``, ``n_positive_b``, ``n_negative_b``.

    Raises
    ------
    ValueError
        On invalid targets, scores, weights or options.

    Warns
    -----
    UndefinedMetricWarning
        A single class in either target: everything is NaN.
    DegenerateDataWarning
        One positive or one negative in a test set (NaN results), or both variances
        0 (statistic 0 and p-value 1, or 1/2 one-sided, when the AUCs are equal; NaN
        otherwise).

    Notes
    -----
    The AUCs of independent test sets are independent, so
    ``D = (A_A - A_B) / sqrt(V_A + V_B)`` with each ``V`` DeLong's variance of one AUC
    (:func:`auc_ci`).  Following pROC's ``roc.test(..., method = "delong",
    paired = FALSE)``, ``D`` is referred to a Student t distribution with the
    Welch-Satterthwaite-like degrees of freedom

        df = (V_A + V_B)^2 / (V_A^2 / (N_A - 1) + V_B^2 / (N_B - 1)),

    where ``N`` is the number of rows of a test set (total weight when weighted).
    This small-sample refinement is pROC's, not DeLong's; for large test sets it is
    the normal test.  The interval ``(A_A - A_B) -/+ t_{df} SE`` (clipped to [-1, 1])
    is assay's addition: pROC reports none for unpaired curves.

    References
    ----------
    E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, Biometrics 44(3), 837-845
    (1988).
    X. Robin et al., "pROC: an open-source package for R and S+ to analyze and
    compare ROC curves", BMC Bioinformatics 12, 77 (2011).

    Examples
    --------
    >>> import assay
    >>> result = assay.delong_test_unpaired(
    ...     [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9],
    ...     [0, 1, 0, 1, 0, 1, 1], [0.3, 0.2, 0.5, 0.6, 0.1, 0.9, 0.4])
    >>> round(result.estimate, 4), round(result.statistic, 4), round(result.df, 2)
    (0.1389, 0.5213, 10.52)
    """
    alternative = check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    auc_a, variance_a, positive_a, negative_a, _, weighted_a = _single_auc_variance(
        y_true_a, score_a, sample_weight_a, pos_label, ("y_true_a", "score_a", "sample_weight_a")
    )
    auc_b, variance_b, positive_b, negative_b, _, weighted_b = _single_auc_variance(
        y_true_b, score_b, sample_weight_b, pos_label, ("y_true_b", "score_b", "sample_weight_b")
    )
    details: dict[str, Any] = {
        "auc_a": auc_a,
        "auc_b": auc_b,
        "variance_a": variance_a,
        "variance_b": variance_b,
        "n_positive_a": _count(positive_a, weighted_a),
        "n_negative_a": _count(negative_a, weighted_a),
        "n_positive_b": _count(positive_b, weighted_b),
        "n_negative_b": _count(negative_b, weighted_b),
    }
    if math.isnan(auc_a) or math.isnan(auc_b):
        _warn(_one_class_message("the test"), UndefinedMetricWarning, 2)
        return _nan_test(_UNPAIRED_METHOD, alternative, confidence_level, _NAN, **details)
    difference = auc_a - auc_b
    if math.isnan(variance_a) or math.isnan(variance_b):
        _warn(
            _too_few_message(min(positive_a, positive_b), min(negative_a, negative_b)),
            DegenerateDataWarning,
            2,
        )
        return _nan_test(
            _UNPAIRED_METHOD, alternative, confidence_level, _NAN, difference, **details
        )
    variance = variance_a + variance_b
    rows_a = positive_a + negative_a
    rows_b = positive_b + negative_b
    df = _NAN
    if variance > 0.0:
        df = variance**2 / (variance_a**2 / (rows_a - 1.0) + variance_b**2 / (rows_b - 1.0))
    statistic, pvalue, interval, standard_error = _difference_test(
        difference, variance, alternative, confidence_level, df, 2
    )
    return TestResult(
        statistic=statistic,
        pvalue=pvalue,
        df=df,
        alternative=alternative,
        method=_UNPAIRED_METHOD,
        estimate=difference,
        confidence_interval=ConfidenceInterval(*interval),
        confidence_level=confidence_level,
        standard_error=standard_error,
        details=MappingProxyType(details),
    )
