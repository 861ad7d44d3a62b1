"""Analytic confidence intervals: proportions, error rates, differences, means of folds.

No resampling: each interval is a closed formula (or a beta quantile) of a few counts
or of the mean and standard deviation of a handful of fold scores, so it costs
microseconds whatever the size of the test set.

- :func:`proportion_ci`: a binomial proportion ``k / n`` (Wilson, normal/Wald,
  Agresti-Coull, Clopper-Pearson, Jeffreys, Hoeffding).
- :func:`error_rate_ci`: the error rate of predictions, ``k`` = misclassified rows.
- :func:`~assay.inference._difference_interval.difference_ci` (its own module): the
  difference of two proportions measured on two independent test sets.
- :func:`mean_ci`: the mean of K fold scores (Student t with K - 1 degrees of
  freedom, or normal).

:func:`proportion_ci` takes arrays of counts too (one interval per element, as an
:class:`~assay._results.IntervalArrayResult`).  The user guide ("Analytic confidence
intervals") gives each formula with its source.
"""

from __future__ import annotations

import math
import numbers
import sys
import types
import warnings
from typing import Any

import numpy as np

from assay import _special as special
from assay._procedure_checks import check_confidence_level
from assay._results import ConfidenceInterval, IntervalArrayResult, IntervalResult
from assay._results._interval_arrays import _array_interval
from assay._scaling import mean_and_deviation
from assay._validation import as_finite_array, check_option
from assay.exceptions import DegenerateDataWarning
from assay.inference._proportion_bounds import count_arrays, normal_quantile, proportion_bounds
from assay.metrics._confusion import labelled_confusion

__all__ = [
    "MEAN_METHODS",
    "PROPORTION_METHODS",
    "error_rate_ci",
    "mean_ci",
    "proportion_ci",
]

PROPORTION_METHODS = (
    "wilson",
    "wilson_cc",
    "normal",
    "agresti_coull",
    "clopper_pearson",
    "jeffreys",
    "hoeffding",
)
MEAN_METHODS = ("t", "normal")

# A warning raised in a helper called by a public function points at the user's call.
_USER_CALL_STACKLEVEL = 3
_LARGEST_COUNT = sys.float_info.max  # larger counts do not convert to float64


# --- Input checks ---------------------------------------------------------------------


def _as_count(value: Any, name: str) -> int:
    """``value`` as a non-negative Python int; whole floats such as 22.0 are accepted."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, np.ndarray | list | tuple):
        shape = np.shape(value)
        raise ValueError(
            f"`{name}` must be a single count (a scalar), got an array of shape {shape}; "
            "compute one interval per count, e.g. in a list comprehension."
        )
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"`{name}` must be a whole number (a count); got {value!r}.")
    if isinstance(value, int):
        count = value
    else:
        as_float = float(value)
        if not math.isfinite(as_float) or as_float != math.floor(as_float):
            raise ValueError(f"`{name}` must be a whole number (a count); got {value!r}.")
        count = int(as_float)
    if count < 0:
        raise ValueError(f"`{name}` must be non-negative; got {count}.")
    return count


def _counts(k: Any, n: Any, k_name: str = "k", n_name: str = "n") -> tuple[int, int]:
    """Successes and trials: whole numbers, ``n >= 1`` and ``k <= n``."""
    successes = _as_count(k, k_name)
    trials = _as_count(n, n_name)
    if trials == 0:
        raise ValueError(f"`{n_name}` must be at least 1 (the number of trials); got 0.")
    if trials > _LARGEST_COUNT:
        raise ValueError(
            f"`{n_name}` has {len(str(trials))} digits, beyond the float64 range (about "
            "1.8e308); the interval is computed in floating point."
        )
    if successes > trials:
        raise ValueError(
            f"`{k_name}` = {successes} exceeds `{n_name}` = {trials}; a count of successes "
            "cannot exceed the number of trials."
        )
    return successes, trials


# --- The intervals of one proportion --------------------------------------------------


def _normal_quantile(confidence_level: float) -> float:
    """``z`` with ``P(|Z| <= z) = confidence_level`` for a standard normal ``Z``."""
    return normal_quantile(confidence_level)


def _proportion_bounds(
    k: int, n: int, confidence_level: float, method: str
) -> tuple[float, float]:
    """``(low, high)`` of a checked proportion ``k / n``, clipped to [0, 1].

    The quotients ``k / n``, ``(n - k) / n`` and ``1 / n`` are taken from the Python
    integers (correctly rounded whatever their size); the bounds are those of
    :func:`~assay.inference._proportion_bounds.proportion_bounds` on 0-d arrays.
    """
    low, high = proportion_bounds(
        np.float64(k / n),
        np.float64((n - k) / n),
        np.float64(1 / n),
        np.float64(k),
        np.float64(n),
        np.float64(n - k),
        confidence_level,
        method,
    )
    return float(low), float(high)


def _warn_zero_width_wald(counted: str) -> None:
    """Warn that the Wald interval of ``counted`` (e.g. "`k` = 0 of `n` = 20") is a point."""
    warnings.warn(
        f"{counted}: the normal (Wald) interval has zero width when the proportion is 0 "
        "or 1, although the true proportion may differ; method='wilson' gives a usable "
        "interval.",
        DegenerateDataWarning,
        stacklevel=_USER_CALL_STACKLEVEL,
    )


def _proportion_result(
    k: int, n: int, confidence_level: float, method: str, details: dict[str, Any]
) -> IntervalResult:
    p = k / n
    low, high = _proportion_bounds(k, n, confidence_level, method)
    return IntervalResult(
        estimate=p,
        confidence_interval=ConfidenceInterval(low, high),
        standard_error=math.sqrt(p * (1.0 - p) / n),
        confidence_level=confidence_level,
        method=method,
        n=n,
        details=types.MappingProxyType(details),
    )


def proportion_ci(
    k: Any, n: Any, *, confidence_level: float = 0.95, method: str = "wilson"
) -> IntervalResult | IntervalArrayResult:
    """Confidence interval of a binomial proportion ``k / n`` (e.g. an error rate).

    Parameters
    ----------
    k : int or array-like of ints
        Number of successes (for an error rate: misclassified test examples); whole
        floats such as ``22.0`` are accepted.  An array gives one interval per element.
    n : int or array-like of ints
        Number of trials (test examples), at least 1.  ``k`` and ``n`` broadcast
        together by numpy's rules (e.g. an array of ``k`` and one ``n``); arrays hold
        counts up to 2**53 (a larger count is exact only as a single Python int).
    confidence_level : float, default=0.95
        Nominal coverage, in (0, 1).
    method : {'wilson', 'wilson_cc', 'normal', 'agresti_coull', 'clopper_pearson', \
'jeffreys', 'hoeffding'}, default='wilson'
        ``'wilson'``: score interval (Wilson 1927).  ``'wilson_cc'``: the score
        interval with continuity correction (Newcombe 1998a, method 4).
        ``'normal'``: the Wald interval ``p ± z sqrt(p(1-p)/n)`` of the lecture texts
        ("Estimation of the hypothesis real risk"; Honavar, "Evaluating model
        performance").  ``'agresti_coull'``: the Wald interval around
        ``(k + z²/2) / (n + z²)``.  ``'clopper_pearson'``: exact interval from beta
        quantiles.  ``'jeffreys'``: equal-tailed interval of the Beta(k + 1/2,
        n - k + 1/2) posterior.  ``'hoeffding'``: distribution-free
        ``p ± sqrt(log(2 / α) / (2n))`` from Hoeffding's inequality.

    Returns
    -------
    IntervalResult or IntervalArrayResult
        ``estimate = k / n``; ``confidence_interval = (low, high)`` within [0, 1];
        ``standard_error = sqrt(p (1 - p) / n)`` (the standard error of the estimate,
        whatever the method); ``n``; ``details['k']``.  For arrays of counts an
        :class:`~assay._results.IntervalArrayResult`: the same fields as arrays of the
        broadcast shape of ``k`` and ``n``, element ``i`` (and ``result[i]``) equal to
        ``proportion_ci(k[i], n[i])``.

    Raises
    ------
    ValueError
        ``k`` or ``n`` not a whole number or negative (anywhere in an array); ``n =
        0``; ``k > n``; arrays that do not broadcast together; a count in an array
        above 2**53; ``confidence_level`` outside (0, 1); an unknown ``method``.

    Warns
    -----
    DegenerateDataWarning
        ``method='normal'`` with ``k = 0`` or ``k = n``: the Wald interval is then
        the single point ``p`` (zero width), which is what the formula gives but not a
        statement of certainty (for arrays: one warning, with the number of such
        counts).

    Notes
    -----
    With ``p = k/n`` and ``z`` the ``(1 + confidence_level)/2`` normal quantile:

    - normal (Wald): ``p ± z sqrt(p(1-p)/n)`` ("Estimation of the hypothesis real risk",
      "The estimation by the confidence interval"; Honavar, "Evaluating model
      performance", "Confidence interval for proportions").  Its coverage is poor for
      small ``n`` or ``p`` near 0 or 1 (Brown, Cai & DasGupta 2001); it is the formula of
      those lecture texts, kept for comparison.
    - Wilson: the two roots ``p0`` of ``|p - p0| = z sqrt(p0 (1 - p0) / n)``, i.e.
      ``(p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`` (Wilson 1927).  The
      default, as recommended by Brown, Cai & DasGupta (2001) and Newcombe (1998a).
    - Wilson with continuity correction: the roots of ``|p - p0| - 1/(2n) = z sqrt(p0
      (1 - p0) / n)``, i.e. the lower Wilson root of ``(k - 1/2)/n`` and the upper one
      of ``(k + 1/2)/n``; low = 0 at ``k = 0``, high = 1 at ``k = n`` (Newcombe 1998a,
      method 4; ``scipy.stats.binomtest(k, n).proportion_ci(method='wilsoncc')``).
      Wider than Wilson's, its coverage stays nearer the nominal level from above.
      R's ``prop.test`` shrinks the correction near its null proportion; this one
      does not.
    - Agresti-Coull: ``ñ = n + z²``, ``p̃ = (k + z²/2)/ñ``, ``p̃ ± z sqrt(p̃(1-p̃)/ñ)``
      (Agresti & Coull 1998; Brown, Cai & DasGupta 2001, section 4.1.1).
    - Clopper-Pearson: ``[B(α/2; k, n-k+1), B(1-α/2; k+1, n-k)]`` with ``B(q; a, b)``
      the beta quantile and ``α = 1 - confidence_level``; low = 0 at ``k = 0``, high
      = 1 at ``k = n`` (Clopper & Pearson 1934).  Conservative: coverage at least the
      nominal level for every true proportion.
    - Jeffreys: ``[B(α/2; k+1/2, n-k+1/2), B(1-α/2; k+1/2, n-k+1/2)]`` with low = 0
      at ``k = 0`` and high = 1 at ``k = n``, the definition of Brown, Cai & DasGupta
      (2001, section 4.1.2), which keeps the coverage from falling to 0 as the true
      proportion nears 0 or 1.  ``statsmodels`` (``proportion_confint(method=
      'jeffreys')``) takes the plain beta quantiles at ``k = 0`` and ``k = n`` too,
      so its bounds differ there (by a small amount).
    - Hoeffding: ``p ± sqrt(log(2/α) / (2n))``, the ``eps`` at which Hoeffding's bound
      ``P(|p - π| > eps) <= 2 exp(-2 n eps²)`` equals ``α`` ("Estimation of the
      hypothesis real risk", Theorem 6.5.1 with one hypothesis; Hoeffding 1963; see
      :func:`assay.risk_bound`).  It uses no variance, only that each trial lies in
      [0, 1]: coverage at least the nominal level for every ``n`` and every true
      proportion, at the price of a width that does not shrink near 0 or 1.

    Normal-based bounds are clipped to [0, 1].  The interval treats the ``n`` test
    examples as independent draws; it says nothing about the variation due to the
    training set.  Arrays of counts are computed in one pass of array operations; the
    bounds are written once, for arrays, and a single count is a 0-d array, so each
    element is bit for bit the interval of that count alone.

    References
    ----------
    E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", JASA 22 (1927).  C. J. Clopper and E. S. Pearson, "The use of
    confidence or fiducial limits illustrated in the case of the binomial",
    Biometrika 26 (1934).  A. Agresti and B. A. Coull, "Approximate is better than
    'exact' for interval estimation of binomial proportions", The American
    Statistician 52 (1998).  R. G. Newcombe, "Two-sided confidence intervals for the
    single proportion: comparison of seven methods", Statistics in Medicine 17
    (1998a).  L. D. Brown, T. T. Cai and A. DasGupta, "Interval estimation for a
    binomial proportion", Statistical Science 16 (2001).  W. Hoeffding, "Probability
    inequalities for sums of bounded random variables", JASA 58 (1963).

    Examples
    --------
    Honavar, "Evaluating model performance": an error of 0.1 on 100 test examples; its
    90 % normal interval is
    ``0.1 ± 1.64485 * 0.03``:

    >>> from assay import proportion_ci
    >>> result = proportion_ci(10, 100, confidence_level=0.90, method="normal")
    >>> [round(bound, 4) for bound in result.confidence_interval]
    [0.0507, 0.1493]
    >>> low, high = proportion_ci(10, 100).confidence_interval  # Wilson, 95 %
    >>> round(low, 4), round(high, 4)
    (0.0552, 0.1744)

    Many counts at once (here three error counts on one test set of 100):

    >>> intervals = proportion_ci([5, 10, 20], 100, method="wilson_cc")
    >>> intervals.shape, intervals.confidence_interval.high.round(4).tolist()
    ((3,), [0.1183, 0.1804, 0.2943])
    >>> intervals[1].estimate
    0.1
    """
    if np.ndim(k) or np.ndim(n):
        successes_array, trials_array, successes_float, trials_float = count_arrays(k, n)
        confidence_level = check_confidence_level(confidence_level)
        check_option(method, "method", PROPORTION_METHODS)
        if method == "normal":
            n_point = int(
                np.count_nonzero((successes_float == 0) | (successes_float == trials_float))
            )
            if n_point:
                _warn_zero_width_wald(
                    f"{n_point} of the {successes_float.size} counts have `k` = 0 or `k` = `n`"
                )
        return _proportion_arrays(
            successes_array, trials_array, successes_float, trials_float, confidence_level, method
        )
    successes, trials = _counts(k, n)
    confidence_level = check_confidence_level(confidence_level)
    check_option(method, "method", PROPORTION_METHODS)
    if method == "normal" and successes in (0, trials):
        _warn_zero_width_wald(f"`k` = {successes} of `n` = {trials}")
    return _proportion_result(successes, trials, confidence_level, method, {"k": successes})


def _proportion_arrays(
    successes: np.ndarray,
    trials: np.ndarray,
    successes_float: np.ndarray,
    trials_float: np.ndarray,
    confidence_level: float,
    method: str,
) -> IntervalArrayResult:
    """The intervals of checked arrays of counts (one shape; counts at most 2**53)."""
    p = successes_float / trials_float
    q = (trials_float - successes_float) / trials_float
    low, high = proportion_bounds(
        p,
        q,
        1.0 / trials_float,
        successes_float,
        trials_float,
        trials_float - successes_float,
        confidence_level,
        method,
    )
    return IntervalArrayResult(
        estimate=p,
        confidence_interval=_array_interval(low, high),
        standard_error=np.sqrt(p * (1.0 - p) / trials_float),
        confidence_level=confidence_level,
        method=method,
        n=trials_float.astype(np.int64),
        details=types.MappingProxyType({"k": successes_float.astype(np.int64)}),
    )


# --- Error rate of predictions --------------------------------------------------------


def _frequency_weights(sample_weight: Any) -> Any:
    """Whole-number weights as int64 (exact counts, their sums too); raise for fractional
    ones.  Anything else is returned as it is, for the weight checks to refuse."""
    weights = np.asarray(sample_weight)
    if weights.dtype.kind != "f":
        return sample_weight
    weights = weights.astype(np.float64)  # float16: 2**62 and the sum overflow in it
    fractional = np.isfinite(weights) & (weights != np.round(weights))
    n_fractional = int(np.count_nonzero(fractional))
    if n_fractional:
        example = weights[fractional][0].item()
        raise ValueError(
            f"`sample_weight` contains {n_fractional} non-integer values (e.g. {example!r}); "
            "error_rate_ci reads weights as frequencies (repeat counts), which must be "
            "whole numbers."
        )
    in_range = np.isfinite(weights) & (np.abs(weights) < 2.0**62)
    if weights.size and bool(np.all(in_range)) and float(np.sum(weights)) < 2.0**62:
        return weights.astype(np.int64)  # whole floats are exact integers
    return sample_weight


def error_rate_ci(
    y_true: Any,
    y_pred: Any,
    *,
    confidence_level: float = 0.95,
    method: str = "wilson",
    sample_weight: Any = None,
) -> IntervalResult:
    """Confidence interval of the error rate of predictions on a test set.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (binary or multi-class).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`).
    confidence_level : float, default=0.95
        Nominal coverage, in (0, 1).
    method : {'wilson', 'normal', 'agresti_coull', 'clopper_pearson', 'jeffreys', \
'hoeffding'}, default='wilson'
        The interval of the binomial proportion; see :func:`proportion_ci`.
    sample_weight : array-like of shape (n_samples,), default=None
        **Frequency** weights: whole, non-negative numbers, row ``i`` counting as
        ``sample_weight[i]`` test examples.  Fractional weights are refused (see
        Notes).

    Returns
    -------
    IntervalResult
        As :func:`proportion_ci` with ``k`` the number of misclassified examples and
        ``n`` the number of examples (both weighted by the frequencies);
        ``details['n_errors']`` is ``k``.  The estimate equals
        :func:`assay.error_rate`.

    Raises
    ------
    ValueError
        The label errors of :func:`assay.error_rate` (different lengths, empty,
        continuous or non-finite labels, mixed label types, bad weights);
        non-integer weights; a bad ``confidence_level`` or ``method``.

    Warns
    -----
    DegenerateDataWarning
        ``method='normal'`` with no errors or only errors (zero-width interval).

    Notes
    -----
    ``k = sum_i w_i I(y_i != yhat_i)``, ``n = sum_i w_i`` and the interval of
    :func:`proportion_ci` for ``k / n`` ("Estimation of the hypothesis real risk", "The
    estimation by the confidence interval"; Honavar, "Evaluating model performance",
    "Confidence interval for proportions").  The
    binomial model counts independent test examples, so a weight must be a number of
    examples: a row of weight 3 is three identical examples.  A fractional
    (importance or cost) weight changes the variance of the estimate in a way no
    binomial interval describes; use :func:`assay.bootstrap` for weighted error
    rates.

    Examples
    --------
    >>> from assay import error_rate_ci
    >>> y_true = [0, 1, 1, 0, 1, 0, 0, 1, 1, 0]
    >>> y_pred = [0, 1, 0, 0, 1, 0, 1, 1, 1, 0]
    >>> result = error_rate_ci(y_true, y_pred)
    >>> result.estimate, result.n
    (0.2, 10)
    >>> [round(bound, 4) for bound in result.confidence_interval]
    [0.0567, 0.5098]
    """
    frequencies = None if sample_weight is None else _frequency_weights(sample_weight)
    matrix = labelled_confusion(y_true, y_pred, sample_weight=frequencies).matrix
    confidence_level = check_confidence_level(confidence_level)
    check_option(method, "method", PROPORTION_METHODS)
    if matrix.dtype.kind == "i":  # exact counts, also beyond 2**53
        n, n_errors = int(matrix.sum()), int(matrix.sum() - np.trace(matrix))
    else:  # whole weights too large for int64: float sums
        n = round(float(matrix.sum()))
        n_errors = n - round(float(np.trace(matrix)))
    if method == "normal" and n_errors in (0, n):
        _warn_zero_width_wald(f"{n_errors} misclassified of {n} examples")
    return _proportion_result(n_errors, n, confidence_level, method, {"n_errors": n_errors})


# --- Mean of fold scores -------------------------------------------------------------


def mean_ci(values: Any, *, confidence_level: float = 0.95, method: str = "t") -> IntervalResult:
    """Confidence interval of the mean of a few scores (e.g. one per cross-validation fold).

    Parameters
    ----------
    values : array-like of shape (k,)
        The scores, at least two, all finite (for a comparison of two algorithms on
        the same folds: the per-fold differences).
    confidence_level : float, default=0.95
        Nominal coverage, in (0, 1).
    method : {'t', 'normal'}, default='t'
        Critical value from Student's t distribution with ``k - 1`` degrees of
        freedom, or from the standard normal (a large-``k`` approximation).

    Returns
    -------
    IntervalResult
        ``estimate`` = the mean; ``standard_error = s / sqrt(k)`` with ``s`` the sample
        standard deviation (``ddof=1``); ``n = k``; ``details``: ``critical_value``,
        ``standard_deviation`` and, for ``'t'``, ``df = k - 1``.

    Raises
    ------
    ValueError
        ``values`` not 1-D, not numeric, with NaN or infinite values, or fewer than
        two; a bad ``confidence_level`` or ``method``.

    Warns
    -----
    DegenerateDataWarning
        All values equal: ``s = 0`` and the interval is the single point of the mean
        (zero width).  That is what the formula gives, but it comes from the lack of
        spread in ``k`` scores, not from certainty about the mean.

    Notes
    -----
    ``mean ± c s / sqrt(k)`` with ``s² = sum (x_i - mean)² / (k - 1)`` and ``c`` the
    ``(1 + confidence_level)/2`` quantile of Student's t with ``k - 1`` degrees of
    freedom (Student 1908; Wu, "Evaluation", eqs. 33-35 and Algorithm 2: "the degree of
    freedom is *not* n"; "Estimation of the hypothesis real risk", algorithm 1.1).  The
    latter prints a table of its ``ζ(x, K)`` that holds t quantiles with ``K`` degrees
    of freedom (e.g. ``ζ(95%, 10) = 2.23``,
    while ``t(0.975, 9) = 2.262``); this function uses ``K - 1``, as the derivation
    requires.  With ``method='normal'``, ``c`` is the normal quantile, which is too
    small (the interval too narrow) for the usual 5 or 10 folds.

    The scores of cross-validation folds are not independent (their training sets
    overlap), so the interval is optimistic (Dietterich 1998; Nadeau & Bengio 2003);
    it is the interval of those lecture texts.

    References
    ----------
    Student, "The probable error of a mean", Biometrika 6 (1908) 1-25.
    T. G. Dietterich, "Approximate statistical tests for comparing supervised
    classification learning algorithms", Neural Computation 10 (1998).  C. Nadeau and
    Y. Bengio, "Inference for the generalization error", Machine Learning 52 (2003).

    Examples
    --------
    >>> from assay import mean_ci
    >>> result = mean_ci([0.81, 0.79, 0.84, 0.80, 0.83, 0.78, 0.82])
    >>> round(result.estimate, 4), round(result.details["critical_value"], 4)
    (0.81, 2.4469)
    >>> [round(bound, 5) for bound in result.confidence_interval]
    [0.79002, 0.82998]
    """
    scores = as_finite_array(values, "values", what="values", max_ndim=1)
    confidence_level = check_confidence_level(confidence_level)
    check_option(method, "method", MEAN_METHODS)
    k = scores.shape[0]
    if k < 2:
        raise ValueError(
            "`values` holds 1 value; the interval of a mean needs at least 2 (the sample "
            "standard deviation of one value is undefined)."
        )
    details: dict[str, Any] = {}
    if method == "t":
        critical_value = float(special.stdtrit(k - 1, (1.0 + confidence_level) / 2.0))
        details["df"] = float(k - 1)
    else:
        critical_value = _normal_quantile(confidence_level)
    if np.all(scores == scores[0]):
        warnings.warn(
            f"all {k} values of `values` are equal ({scores[0].item()!r}); their standard "
            "deviation is 0, so the interval has zero width.",
            DegenerateDataWarning,
            stacklevel=2,
        )
        mean, standard_deviation = float(scores[0]), 0.0
    else:
        mean, standard_deviation = mean_and_deviation(scores)  # no overflow near 1e300
    standard_error = standard_deviation / math.sqrt(k)
    half_width = critical_value * standard_error
    details.update(critical_value=critical_value, standard_deviation=standard_deviation)
    return IntervalResult(
        estimate=mean,
        confidence_interval=ConfidenceInterval(mean - half_width, mean + half_width),
        standard_error=standard_error,
        confidence_level=confidence_level,
        method=method,
        n=k,
        details=types.MappingProxyType(details),
    )
