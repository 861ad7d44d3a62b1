"""Tests that compare two models through their scores (or errors) on folds or data sets.

Each function takes the paired per-fold scores of model A and model B (the same folds,
in the same order) and tests whether their mean (t-tests) or median (Wilcoxon, sign)
difference is zero.  Everything is analytic: t and F distributions, or the exact null
distribution of a rank statistic; nothing is resampled.
"""

from __future__ import annotations

import math
import warnings
from types import MappingProxyType
from typing import Any

import numpy as np

from assay import _special as special
from assay._distributions import pvalue as pvalue_of
from assay._procedure_checks import check_alternative, check_confidence_level
from assay._results import ConfidenceInterval, TestResult
from assay._scaling import mean_and_deviation, scale_if_extreme
from assay._validation import as_finite_array, check_same_length
from assay.exceptions import DegenerateDataWarning
from assay.inference._t_intervals import t_interval

__all__ = [
    "corrected_resampled_ttest",
    "ftest_5x2cv",
    "paired_ttest",
    "ttest_5x2cv",
    "welch_ttest",
]

_NAN_INTERVAL = ConfidenceInterval(math.nan, math.nan)


def _scores(values: Any, name: str) -> np.ndarray:
    return as_finite_array(values, name, what="scores", max_ndim=1)


def _common_scale(*arrays: np.ndarray) -> float:
    """One power of two for extreme scores (1.0 in the ordinary range): tests and
    intervals are computed on the scaled scores, estimates divided by it afterwards."""
    return scale_if_extreme(max(float(np.max(np.abs(array))) for array in arrays))


def _paired_scores(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two finite 1-D arrays of the same length, at least 2."""
    first, second = _scores(a, "a"), _scores(b, "b")
    n = check_same_length(a=first, b=second)
    if n < 2:
        raise ValueError(f"`a` and `b` hold {n} paired value; at least 2 are needed.")
    return first, second


def _paired_differences(a: Any, b: Any) -> np.ndarray:
    """``a - b`` for two finite 1-D arrays of the same length, at least 2 (for the sign
    tests: only the signs and the order of the differences matter).

    Where a difference overflows (scores beyond 2**1023 of opposite signs), every
    difference is taken as ``a/2 - b/2`` instead: the same signs and order, as halving
    is exact above the subnormals.
    """
    first, second = _paired_scores(a, b)
    with np.errstate(over="ignore"):
        differences = first - second
    if np.all(np.isfinite(differences)):
        return differences
    return first * 0.5 - second * 0.5


def _scaled_differences(a: Any, b: Any) -> tuple[np.ndarray, float]:
    """``a - b`` times a power of two (1 in the ordinary range), and that power of two:
    differences of scores near 1e308 do not overflow, and neither do their squares."""
    first, second = _paired_scores(a, b)
    scale = _common_scale(first, second)
    return first * scale - second * scale, scale


def _warn_constant(what: str, identical: bool, stacklevel: int) -> None:
    """Warn about a zero scale; ``stacklevel`` points at the user's call."""
    if identical:
        message = (
            f"{what}: the two models' scores are identical, which is no evidence of a "
            "difference; the statistic is undefined (NaN) and the p-value is 1."
        )
    else:
        message = (
            f"{what}: the differences have zero variance but are not all zero; the "
            "statistic and p-value are undefined (NaN)."
        )
    warnings.warn(message, DegenerateDataWarning, stacklevel=stacklevel)


def _t_result(
    estimate: float,
    standard_error: float,
    df: float,
    *,
    degenerate: bool,
    identical: bool,
    alternative: str,
    confidence_level: float | None,
    method: str,
    details: dict[str, Any] | None = None,
) -> TestResult:
    """A t-test result: ``t = estimate / standard_error`` against Student's t with ``df``.

    ``degenerate`` (the scale is exactly zero) gives NaN, or p = 1 when the scores are
    ``identical``; the standard error is then 0 and the interval NaN.
    """
    if degenerate:
        _warn_constant(method, identical, stacklevel=4)
        statistic = math.nan
        pvalue = 1.0 if identical else math.nan
        standard_error = 0.0
        interval = _NAN_INTERVAL if confidence_level is not None else None
    else:
        statistic = estimate / standard_error
        pvalue = pvalue_of(statistic, alternative, df)
        interval = None
        if confidence_level is not None:
            interval = t_interval(estimate, standard_error, df, alternative, confidence_level)
    return TestResult(
        statistic=statistic,
        pvalue=pvalue,
        df=df,
        alternative=alternative,
        method=method,
        estimate=estimate,
        confidence_interval=interval,
        confidence_level=confidence_level,
        standard_error=standard_error,
        details=MappingProxyType(details or {}),
    )


def _all_equal(values: np.ndarray) -> bool:
    return bool(np.all(values == values.flat[0]))


def paired_ttest(
    a: Any, b: Any, *, alternative: str = "two-sided", confidence_level: float = 0.95
) -> TestResult:
    """Paired t-test of the mean difference of two models' scores on the same folds.

    Parameters
    ----------
    a, b : array-like of shape (n,)
        Scores (or errors) of model A and model B on the same n folds or data sets,
        in the same order; ``n >= 2``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``'greater'``: the mean of ``a - b`` is positive.
    confidence_level : float, default=0.95
        Level of the interval of the mean difference (one-sided for a one-sided
        ``alternative``).

    Returns
    -------
    TestResult
        ``statistic`` t, ``df = n - 1``, ``estimate`` the mean difference
        ``mean(a - b)``, its ``standard_error`` ``s / sqrt(n)`` and
        ``confidence_interval``: ``estimate -+ t_{n-1, (1+level)/2} * standard_error``
        for ``alternative='two-sided'``; for ``'greater'`` the one-sided
        ``[estimate - t_{n-1, level} * standard_error, inf)``, for ``'less'``
        ``(-inf, estimate + t_{n-1, level} * standard_error]``, as
        ``scipy.stats.ttest_rel(...).confidence_interval()``.  The interval excludes 0
        exactly when ``pvalue < 1 - confidence_level``.

    Raises
    ------
    ValueError
        ``a`` and ``b`` of different lengths, fewer than 2 values, non-finite values,
        a bad ``alternative`` or ``confidence_level``.

    Warns
    -----
    DegenerateDataWarning
        All differences are equal, so ``s = 0`` and t is undefined: the statistic,
        p-value and interval are NaN; if the differences are all exactly 0 (identical
        scores) the p-value is 1 instead, whatever the alternative (no evidence of a
        difference in any direction; the exact sign-flip test gives the same).

    Notes
    -----
    With ``x_j = a_j - b_j``, ``x_bar`` their mean and ``s`` their standard deviation
    (``ddof = 1``), ``t = x_bar / (s / sqrt(n))`` follows Student's t with ``n - 1``
    degrees of freedom when the differences are independent and normal (Wu,
    "Evaluation", section 5.3, Algorithm 2: two-tailed test, critical value
    ``c_{n-1, alpha/2}``, and its one-tailed variants).  Folds of one cross-validation
    share training data, so their differences are not independent and this test is
    too liberal on them; prefer :func:`corrected_resampled_ttest` or the 5x2cv tests
    there.  Agrees with ``scipy.stats.ttest_rel``.

    References
    ----------
    Student, "The probable error of a mean", Biometrika 6 (1908).

    Examples
    --------
    >>> import assay
    >>> a = [82, 87, 90, 82, 91, 83, 80, 89, 77, 88]
    >>> b = [80, 84, 89, 78, 90, 81, 80, 88, 76, 86]
    >>> result = assay.paired_ttest(a, b)
    >>> round(result.statistic, 4), result.df, round(result.pvalue, 6)
    (4.6364, 9.0, 0.001226)
    """
    alternative = check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    differences, scale = _scaled_differences(a, b)
    n = differences.shape[0]
    # mean and standard deviation without overflow (the variance of scores near 1e300
    # is not a float64), accurate for nearly constant values
    mean, deviation = mean_and_deviation(differences)
    return _t_result(
        mean / scale,
        deviation / math.sqrt(n) / scale,
        float(n - 1),
        degenerate=_all_equal(differences),
        identical=not np.any(differences),
        alternative=alternative,
        confidence_level=confidence_level,
        method="paired t-test",
        details={"n": n},
    )


def welch_ttest(
    a: Any, b: Any, *, alternative: str = "two-sided", confidence_level: float = 0.95
) -> TestResult:
    """Welch's t-test of the difference of the mean scores of two independent samples.

    Use it when the scores are not paired (different folds, test sets or data sets);
    the samples may differ in size and in variance.

    Parameters
    ----------
    a, b : array-like of shape (n_a,) and (n_b,)
        Scores of model A and model B, each with at least 2 values.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``'greater'``: the mean of ``a`` is larger.
    confidence_level : float, default=0.95
        Level of the interval of ``mean(a) - mean(b)`` (one-sided for a one-sided
        ``alternative``).

    Returns
    -------
    TestResult
        ``statistic`` t, ``df`` the Welch-Satterthwaite degrees of freedom (a float),
        ``estimate = mean(a) - mean(b)``, ``standard_error`` and
        ``confidence_interval`` (for ``'greater'`` ``[low, inf)``, for ``'less'``
        ``(-inf, high]``, as in :func:`paired_ttest`; as
        ``scipy.stats.ttest_ind(a, b, equal_var=False, ...).confidence_interval()``).

    Raises
    ------
    ValueError
        Fewer than 2 values in ``a`` or ``b``, non-finite values, a bad option.

    Warns
    -----
    DegenerateDataWarning
        Both samples are constant (standard error 0): NaN statistic, p-value and
        interval, or p = 1 if the two constants are equal.

    Notes
    -----
    With sample variances ``s_a^2``, ``s_b^2`` (``ddof = 1``) and ``v_a = s_a^2 / n_a``,
    ``v_b = s_b^2 / n_b``: ``t = (mean(a) - mean(b)) / sqrt(v_a + v_b)`` and
    ``df = (v_a + v_b)^2 / (v_a^2 / (n_a - 1) + v_b^2 / (n_b - 1))``
    (Welch 1947; Satterthwaite 1946).  Gama, "Evaluation of classification and
    regression algorithms" ("Conducting t-test in R"), shows R's ``t.test(a, b)``, which
    is this test.  Agrees with
    ``scipy.stats.ttest_ind(a, b, equal_var=False)``.

    References
    ----------
    B. L. Welch, "The generalization of 'Student's' problem when several different
    population variances are involved", Biometrika 34 (1947).

    Examples
    --------
    >>> import assay
    >>> a = [0.100, 0.094, 0.109, 0.091, 0.096, 0.104, 0.102, 0.089, 0.091, 0.106]
    >>> b = [0.104, 0.113, 0.107, 0.106, 0.123, 0.108, 0.104, 0.119, 0.095, 0.114]
    >>> result = assay.welch_ttest(a, b)
    >>> round(result.statistic, 4), round(result.df, 3), round(result.pvalue, 6)
    (-3.2721, 17.598, 0.004333)
    """
    alternative = check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    first, second = _scores(a, "a"), _scores(b, "b")
    for name, sample in (("a", first), ("b", second)):
        if sample.shape[0] < 2:
            raise ValueError(f"`{name}` holds {sample.shape[0]} value; at least 2 are needed.")
    n_a, n_b = first.shape[0], second.shape[0]
    scale = _common_scale(first, second)
    first, second = first * scale, second * scale
    mean_a, deviation_a = mean_and_deviation(first)
    mean_b, deviation_b = mean_and_deviation(second)
    error_a, error_b = deviation_a / math.sqrt(n_a), deviation_b / math.sqrt(n_b)
    largest = max(error_a, error_b)  # the shares relative to it cannot overflow
    degenerate = _all_equal(first) and _all_equal(second)
    if degenerate:
        df = math.nan
        estimate = float(first[0] - second[0])
    else:
        share_a, share_b = (error_a / largest) ** 2, (error_b / largest) ** 2
        df = (share_a + share_b) ** 2 / (share_a**2 / (n_a - 1) + share_b**2 / (n_b - 1))
        estimate = mean_a - mean_b
    return _t_result(
        estimate / scale,
        math.hypot(error_a, error_b) / scale,
        df,
        degenerate=degenerate,
        identical=degenerate and estimate == 0.0,
        alternative=alternative,
        confidence_level=confidence_level,
        method="Welch t-test",
        details={"n_a": n_a, "n_b": n_b},
    )


def corrected_resampled_ttest(
    a: Any,
    b: Any,
    n_train: float,
    n_test: float,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
) -> TestResult:
    """Corrected resampled t-test (Nadeau & Bengio 2003) for repeated train/test splits.

    The J splits (random subsamples, or the k * r folds of r-times repeated k-fold
    cross-validation) share training examples, so the differences are positively
    correlated and the plain paired t-test's variance ``s^2 / J`` is too small.  The
    correction inflates it to ``(1 / J + n_test / n_train) s^2``.

    Parameters
    ----------
    a, b : array-like of shape (J,)
        Scores of model A and model B on the same J splits; ``J >= 2``.
    n_train, n_test : float
        Number of training and test examples of one split (positive; averages when
        splits differ slightly).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``'greater'``: the mean of ``a - b`` is positive.
    confidence_level : float, default=0.95
        Level of the interval of the mean difference (one-sided for a one-sided
        ``alternative``).

    Returns
    -------
    TestResult
        ``statistic`` t, ``df = J - 1``, ``estimate`` the mean difference, the
        corrected ``standard_error`` and ``confidence_interval``: the interval the
        test inverts, ``estimate -+ t_{J-1, (1+level)/2} * standard_error``, or for
        ``'greater'`` ``[estimate - t_{J-1, level} * standard_error, inf)`` and for
        ``'less'`` ``(-inf, estimate + t_{J-1, level} * standard_error]``, derived as
        :func:`paired_ttest`'s with the corrected standard error.

    Raises
    ------
    ValueError
        Different lengths, fewer than 2 splits, non-finite scores, ``n_train`` or
        ``n_test`` not a positive finite number, a bad option.

    Warns
    -----
    DegenerateDataWarning
        All differences equal: as in :func:`paired_ttest`.

    Notes
    -----
    ``t = x_bar / sqrt((1 / J + n_test / n_train) s^2)`` with J - 1 degrees of freedom
    (Nadeau & Bengio 2003, section 5, "corrected resampled t-test"; Bouckaert & Frank
    2004 use it for repeated k-fold cross-validation with ``J = k r`` and
    ``n_test / n_train = 1 / (k - 1)``).

    References
    ----------
    C. Nadeau and Y. Bengio, "Inference for the generalization error", Machine
    Learning 52 (2003).
    R. R. Bouckaert and E. Frank, "Evaluating the replicability of significance tests
    for comparing learning algorithms", PAKDD (2004).

    Examples
    --------
    >>> import assay
    >>> a = [0.81, 0.84, 0.80, 0.83, 0.82, 0.85, 0.79, 0.83, 0.84, 0.81]
    >>> b = [0.80, 0.82, 0.80, 0.81, 0.80, 0.84, 0.79, 0.81, 0.83, 0.80]
    >>> result = assay.corrected_resampled_ttest(a, b, n_train=900, n_test=100)
    >>> round(result.statistic, 3), result.df
    (3.311, 9.0)
    """
    alternative = check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    sizes = []
    for name, value in (("n_train", n_train), ("n_test", n_test)):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float | np.integer | np.floating)
            or not math.isfinite(float(value))
            or float(value) <= 0.0
        ):
            raise ValueError(f"`{name}` must be a positive number; got {value!r}.")
        sizes.append(float(value))
    train_size, test_size = sizes
    differences, scale = _scaled_differences(a, b)
    n = differences.shape[0]
    factor = 1.0 / n + test_size / train_size
    mean, deviation = mean_and_deviation(differences)
    return _t_result(
        mean / scale,
        math.sqrt(factor) * deviation / scale,
        float(n - 1),
        degenerate=_all_equal(differences),
        identical=not np.any(differences),
        alternative=alternative,
        confidence_level=confidence_level,
        method="corrected resampled t-test",
        details={"n": n, "variance_factor": factor},
    )


def _five_by_two(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray, float]:
    """Differences ``p`` of shape (5, 2), the per-replication variances ``s^2`` (both of
    the scores times a power of two when they are extreme) and that power of two."""
    first = as_finite_array(a, "a", what="scores")
    second = as_finite_array(b, "b", what="scores")
    for name, array in (("a", first), ("b", second)):
        if array.shape != (5, 2):
            raise ValueError(
                f"`{name}` must have shape (5, 2) (5 replications of 2-fold "
                f"cross-validation); got shape {array.shape}."
            )
    scale = _common_scale(first, second)
    differences = first * scale - second * scale
    # (p1 - m)^2 + (p2 - m)^2 with m = (p1 + p2) / 2 is (p1 - p2)^2 / 2
    variances = (differences[:, 0] - differences[:, 1]) ** 2 / 2.0
    return differences, variances, scale


def _unscaled_variances(variances: np.ndarray, scale: float) -> np.ndarray:
    """The ``s_i^2`` in the units of the scores (infinite only beyond float64)."""
    if scale == 1.0:
        return variances
    with np.errstate(over="ignore"):
        return (variances / scale) / scale


def ttest_5x2cv(a: Any, b: Any, *, alternative: str = "two-sided") -> TestResult:
    """Dietterich's 5x2cv paired t-test.

    Five replications of 2-fold cross-validation; each replication uses a new random
    halving of the data, and both models are trained and tested on the same halves.

    Parameters
    ----------
    a, b : array-like of shape (5, 2)
        Scores (or errors) of model A and model B: ``a[i, j]`` on fold j of
        replication i.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``'greater'``: model A scores higher.

    Returns
    -------
    TestResult
        ``statistic`` t with ``df = 5``; ``estimate`` is the first difference
        ``p_1^(1) = a[0, 0] - b[0, 0]`` (the numerator of t) and
        ``standard_error = sqrt(sum_i s_i^2 / 5)``.  ``details`` holds the mean of all
        ten differences and the variances ``s_i^2``.

    Raises
    ------
    ValueError
        ``a`` or ``b`` not of shape (5, 2), non-finite values, a bad ``alternative``.

    Warns
    -----
    DegenerateDataWarning
        Every ``s_i^2`` is 0: NaN, or p = 1 when all ten differences are 0.

    Notes
    -----
    With ``p_i^(j) = a[i, j] - b[i, j]``, ``p_bar_i = (p_i^(1) + p_i^(2)) / 2`` and
    ``s_i^2 = (p_i^(1) - p_bar_i)^2 + (p_i^(2) - p_bar_i)^2``,

    ``t = p_1^(1) / sqrt(sum_{i=1}^5 s_i^2 / 5)``, Student's t with 5 degrees of
    freedom (Dietterich 1998, section 3.5).  Only the first difference enters the
    numerator, so the result depends on the order of the replications;
    :func:`ftest_5x2cv` uses all ten differences and is more robust.

    References
    ----------
    T. G. Dietterich, "Approximate statistical tests for comparing supervised
    classification learning algorithms", Neural Computation 10 (1998).

    Examples
    --------
    >>> import assay
    >>> a = [[0.90, 0.88], [0.91, 0.89], [0.87, 0.90], [0.92, 0.88], [0.89, 0.90]]
    >>> b = [[0.87, 0.86], [0.88, 0.88], [0.86, 0.87], [0.89, 0.88], [0.87, 0.88]]
    >>> result = assay.ttest_5x2cv(a, b)
    >>> round(result.statistic, 4), result.df
    (2.2361, 5.0)
    """
    alternative = check_alternative(alternative)
    differences, variances, scale = _five_by_two(a, b)
    return _t_result(
        float(differences[0, 0]) / scale,
        math.sqrt(float(variances.sum()) / 5.0) / scale,
        5.0,
        degenerate=bool(np.all(differences[:, 0] == differences[:, 1])),
        identical=not np.any(differences),
        alternative=alternative,
        confidence_level=None,
        method="5x2cv paired t-test",
        details={
            "mean_difference": float(differences.mean()) / scale,
            "variances": _unscaled_variances(variances, scale),
        },
    )


def ftest_5x2cv(a: Any, b: Any) -> TestResult:
    """Alpaydin's combined 5x2cv F-test.

    Uses all ten differences of Dietterich's 5x2cv design; it is more robust than
    :func:`ttest_5x2cv` (lower type-I error, higher power; Alpaydin 1999).

    Parameters
    ----------
    a, b : array-like of shape (5, 2)
        Scores (or errors) of model A and model B: ``a[i, j]`` on fold j of
        replication i.

    Returns
    -------
    TestResult
        ``statistic`` F, ``df = (10, 5)``, ``pvalue`` the F upper tail; the test is
        two-sided by nature (any difference raises F).  ``estimate`` is the mean of
        the ten differences.

    Raises
    ------
    ValueError
        ``a`` or ``b`` not of shape (5, 2), or non-finite values.

    Warns
    -----
    DegenerateDataWarning
        Every ``s_i^2`` is 0: F is undefined (NaN), and the p-value NaN, or 1 when all
        ten differences are 0.

    Notes
    -----
    ``F = sum_{i=1}^5 sum_{j=1}^2 (p_i^(j))^2 / (2 sum_{i=1}^5 s_i^2)``, approximately
    F with (10, 5) degrees of freedom (Alpaydin 1999), with ``p`` and ``s_i^2`` as in
    :func:`ttest_5x2cv`.

    References
    ----------
    E. Alpaydin, "Combined 5 x 2 cv F test for comparing supervised classification
    learning algorithms", Neural Computation 11 (1999).

    Examples
    --------
    >>> import assay
    >>> a = [[0.90, 0.88], [0.91, 0.89], [0.87, 0.90], [0.92, 0.88], [0.89, 0.90]]
    >>> b = [[0.87, 0.86], [0.88, 0.88], [0.86, 0.87], [0.89, 0.88], [0.87, 0.88]]
    >>> result = assay.ftest_5x2cv(a, b)
    >>> round(result.statistic, 4), result.df
    (2.7778, (10.0, 5.0))
    """
    differences, variances, scale = _five_by_two(a, b)
    denominator = 2.0 * float(variances.sum())  # F is a ratio: computed on scaled scores
    estimate = float(differences.mean()) / scale
    details = {"variances": _unscaled_variances(variances, scale)}
    if denominator == 0.0:
        identical = not np.any(differences != 0.0)
        _warn_constant("5x2cv F-test", identical, stacklevel=3)
        statistic, pvalue = math.nan, (1.0 if identical else math.nan)
    else:
        statistic = float(np.sum(differences**2)) / denominator
        pvalue = float(special.fdtrc(10, 5, statistic))  # F(10, 5) upper tail
    return TestResult(
        statistic=statistic,
        pvalue=pvalue,
        df=(10.0, 5.0),
        alternative="two-sided",
        method="5x2cv combined F-test",
        estimate=estimate,
        details=MappingProxyType(details),
    )
