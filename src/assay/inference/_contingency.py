"""Tests on paired correct/incorrect outcomes: McNemar's test (two models), Cochran's Q (k).

Both tests look only at the examples on which the models disagree: an example that
every model gets right, or every model gets wrong, says nothing about which model is
better.  Their p-values are analytic (binomial or chi-squared); nothing is resampled.
"""

from __future__ import annotations

import math
import warnings
from types import MappingProxyType
from typing import Any

import numpy as np

from assay import _special as special
from assay._distributions import pvalue as pvalue_of
from assay._procedure_checks import check_alternative
from assay._results import TestResult
from assay._validation import as_label_pair, as_labels, check_option, format_values
from assay.exceptions import DegenerateDataWarning

__all__ = ["binomial_pvalue", "cochrans_q", "mcnemar"]

MCNEMAR_METHODS = ("exact", "midp", "asymptotic")

_METHOD_NAMES = {
    "exact": "McNemar, exact (binomial)",
    "midp": "McNemar, mid-p (binomial)",
}


def binomial_pvalue(k: int, n: int, alternative: str, *, mid: bool = False) -> float:
    """p-value of ``k`` successes in ``n`` fair coin flips (``Bin(n, 1/2)``).

    ``'greater'`` is ``P(X >= k)``, ``'less'`` is ``P(X <= k)``, ``'two-sided'`` is
    ``min(1, 2 P(X <= min(k, n - k)))`` (the distribution is symmetric).  With
    ``mid=True`` the probability of the observed value counts one half (the mid-p
    value).  ``n = 0`` gives 1.
    """
    if n == 0:
        return 1.0
    from scipy import stats  # imported on use: scipy.stats is slow to import

    half = 0.5 * float(stats.binom.pmf(k, n, 0.5)) if mid else 0.0
    if alternative == "greater":
        tail = float(stats.binom.sf(k - 1, n, 0.5)) - half
    elif alternative == "less":
        tail = float(stats.binom.cdf(k, n, 0.5)) - half
    else:
        smaller = min(k, n - k)
        half = 0.5 * float(stats.binom.pmf(smaller, n, 0.5)) if mid else 0.0
        tail = 2.0 * (float(stats.binom.cdf(smaller, n, 0.5)) - half)
    return min(1.0, tail)


def _table_counts(table: Any) -> tuple[int, int, int, int]:
    """The cells ``n11, n10, n01, n00`` of a 2x2 table of non-negative integer counts."""
    array = np.asarray(table)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"`table` must be numeric; got dtype {array.dtype}.")
    if array.shape != (2, 2):
        raise ValueError(f"`table` must be a 2x2 table of counts; got shape {array.shape}.")
    values = array.astype(np.float64)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"`table` must hold finite counts; got {format_values(values.ravel())}.")
    if np.any(values < 0) or np.any(values != np.round(values)):
        raise ValueError(
            f"`table` must hold non-negative integer counts; got {format_values(array.ravel())}."
        )
    n11, n10, n01, n00 = (int(value) for value in values.ravel())
    if n11 + n10 + n01 + n00 == 0:
        raise ValueError("`table` is all zeros; at least one example is needed.")
    return n11, n10, n01, n00


def _correct(y_true: Any, prediction: Any, name: str) -> np.ndarray:
    """Whether each predicted label equals the true one (predictions must be labels)."""
    truth, predicted = as_label_pair(y_true, prediction, names=("y_true", name))
    return np.asarray(predicted == truth, dtype=bool)


def _labels_counts(y_true: Any, pred_a: Any, pred_b: Any) -> tuple[int, int, int, int]:
    truth = as_labels(y_true, "y_true")
    correct_a = _correct(truth, pred_a, "pred_a")
    correct_b = _correct(truth, pred_b, "pred_b")
    n10 = int(np.count_nonzero(correct_a & ~correct_b))
    n01 = int(np.count_nonzero(~correct_a & correct_b))
    n11 = int(np.count_nonzero(correct_a & correct_b))
    return n11, n10, n01, truth.shape[0] - n11 - n10 - n01


def mcnemar(
    y_true: Any = None,
    pred_a: Any = None,
    pred_b: Any = None,
    *,
    table: Any = None,
    method: str = "exact",
    correction: bool = True,
    alternative: str = "two-sided",
) -> TestResult:
    """McNemar's test: do two models, scored on the same examples, differ in accuracy?

    Give either the labels and both models' predictions, or the 2x2 ``table`` of
    paired outcomes.  Only the discordant examples count: ``b = n10`` (A right, B
    wrong) and ``c = n01`` (A wrong, B right).  Under the null hypothesis of equal
    accuracy each discordant example is equally likely to favour either model, so
    ``b ~ Bin(b + c, 1/2)`` given ``b + c``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), optional
        True labels (any labels; a prediction is correct when it equals the label).
    pred_a, pred_b : array-like of shape (n_samples,), optional
        Predicted labels of model A and model B, of the same kind as ``y_true``; not
        scores or probabilities (threshold them first, e.g. ``score >= 0.5``; the
        rules are those of :func:`assay.confusion_matrix`).
    table : array-like of shape (2, 2), optional
        Counts ``[[n11, n10], [n01, n00]]``: rows are model A correct / incorrect,
        columns are model B correct / incorrect (so ``table[0][1]`` counts the
        examples A gets right and B gets wrong).  The same layout as
        ``statsmodels.stats.contingency_tables.mcnemar``, which uses the
        off-diagonal cells ``table[0, 1]`` and ``table[1, 0]``.  Give either
        ``table`` or the three arrays, not both.
    method : {"exact", "midp", "asymptotic"}, default="exact"
        ``'exact'``: the binomial test of ``b`` against ``Bin(b + c, 1/2)``.
        ``'midp'``: its mid-p value (the observed value counts one half), closer to
        the nominal level and recommended by Fagerland, Lydersen & Laake (2013).
        ``'asymptotic'``: McNemar's chi-squared statistic with 1 degree of freedom
        (a normal z for a one-sided alternative).
    correction : bool, default=True
        Continuity correction (Edwards 1948) of the asymptotic statistic.  Used only
        by ``method='asymptotic'``; the binomial methods need none.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``'greater'``: model A is more accurate than B (``b`` large); ``'less'``: A is
        less accurate.

    Returns
    -------
    TestResult
        ``statistic`` is ``b`` for the binomial methods; the chi-squared statistic
        (two-sided) or z (one-sided) for the asymptotic one.  ``df`` is 1 for the
        chi-squared statistic, else None.  ``estimate`` is the difference in accuracy
        ``(b - c) / n``.  ``details`` holds the four cells ``n11, n10, n01, n00``,
        ``n_discordant = b + c`` and ``z_source = |n01 - n10| / sqrt(n01 + n10)``,
        the uncorrected z of "Estimation of the hypothesis real risk" (its "paired test
        of McNemar or Gillick"; Gillick & Cox 1989).

    Raises
    ------
    ValueError
        Neither or both of ``table`` and the arrays; arrays of different lengths;
        predictions that are not labels (continuous values, float values that are not
        labels of ``y_true``, strings against numbers); a table that is not 2x2
        non-negative integer counts or is all zeros; a bad ``method`` or
        ``alternative``.

    Warns
    -----
    DegenerateDataWarning
        No discordant examples (``b = c = 0``): the models agree on every example, which
        is no evidence of a difference, so the p-value is 1 (the asymptotic statistic
        is 0/0 and reported as NaN).

    Notes
    -----
    With ``k = min(b, c)`` and ``X ~ Bin(b + c, 1/2)``, the two-sided exact p-value is
    ``min(1, 2 P(X <= k))`` and the mid-p value ``2 (P(X <= k) - P(X = k) / 2)``.
    One-sided: ``P(X >= b)`` (greater) or ``P(X <= b)`` (less), less half of
    ``P(X = b)`` for mid-p.  The asymptotic statistic is
    ``chi2 = max(|b - c| - 1, 0)^2 / (b + c)`` with the correction and
    ``(b - c)^2 / (b + c)`` without (McNemar 1947); the one-sided z is
    ``(b - c -+ 1) / sqrt(b + c)``.  The notes "Estimation of the hypothesis real risk"
    (section "Comparison of two algorithms on the same test set", after Dietterich
    1998) reject equal error
    rates when ``z = |n01 - n10| / sqrt(n01 + n10)`` exceeds the normal quantile; its
    ``n01`` (wrong by the first model only) and ``n10`` (wrong by the second only)
    are the cells of the same names here; ``z^2`` is the uncorrected statistic.

    The maximum in the corrected statistic matters when ``b = c``: the formula
    ``(|b - c| - 1)^2 / (b + c)`` used by ``statsmodels`` (0.15) and ``mlxtend`` then
    gives ``1 / (b + c) > 0`` instead of 0 (``b = c = 2``: p = 0.617 instead of 1).
    With ``b = c = 0`` their asymptotic test returns statistic ``inf`` and p-value 0
    with the correction, NaN and NaN without; their exact test returns p = 1.

    References
    ----------
    Q. McNemar, "Note on the sampling error of the difference between correlated
    proportions or percentages", Psychometrika 12 (1947).
    L. Gillick and S. J. Cox, "Some statistical issues in the comparison of speech
    recognition algorithms", Proceedings of ICASSP (1989).
    T. G. Dietterich, "Approximate statistical tests for comparing supervised
    classification learning algorithms", Neural Computation 10 (1998).
    M. W. Fagerland, S. Lydersen and P. Laake, "The McNemar test for binary
    matched-pairs data: mid-p and asymptotic are better than exact conditional",
    BMC Medical Research Methodology 13 (2013).

    Examples
    --------
    >>> import assay
    >>> result = assay.mcnemar(table=[[1, 1], [7, 12]])
    >>> round(result.pvalue, 4)
    0.0703
    >>> round(assay.mcnemar(table=[[1, 1], [7, 12]], method="midp").pvalue, 4)
    0.0391
    >>> y_true = [0, 1, 1, 0, 1, 0, 1, 1]
    >>> result = assay.mcnemar(y_true, [0, 1, 1, 0, 1, 0, 1, 0], [1, 0, 1, 0, 0, 1, 1, 0])
    >>> result.details["n10"], result.details["n01"]
    (4, 0)
    """
    method = check_option(method, "method", MCNEMAR_METHODS)
    alternative = check_alternative(alternative)
    arrays_given = [value is not None for value in (y_true, pred_a, pred_b)]
    if table is not None:
        if any(arrays_given):
            raise ValueError("Give either `table` or `y_true`, `pred_a` and `pred_b`, not both.")
        n11, n10, n01, n00 = _table_counts(table)
    elif all(arrays_given):
        n11, n10, n01, n00 = _labels_counts(y_true, pred_a, pred_b)
    else:
        raise ValueError("Give either `table` or all three of `y_true`, `pred_a` and `pred_b`.")
    b, c = n10, n01
    discordant = b + c
    details = {
        "n11": n11,
        "n10": n10,
        "n01": n01,
        "n00": n00,
        "n_discordant": discordant,
        "z_source": abs(b - c) / math.sqrt(discordant) if discordant else math.nan,
    }
    estimate = (b - c) / (n11 + n10 + n01 + n00)
    if discordant == 0:
        warnings.warn(
            "The two models are right and wrong on the same examples (no discordant "
            "pairs, b = c = 0): there is no evidence of a difference; the p-value is 1.",
            DegenerateDataWarning,
            stacklevel=2,
        )
    if method in ("exact", "midp"):
        pvalue = binomial_pvalue(b, discordant, alternative, mid=method == "midp")
        return TestResult(
            statistic=float(b),
            pvalue=pvalue,
            df=None,
            alternative=alternative,
            method=_METHOD_NAMES[method],
            estimate=estimate,
            details=MappingProxyType(details),
        )
    shift = 1.0 if correction else 0.0
    corrected = " with continuity correction" if correction else ""
    if discordant == 0:
        statistic, pvalue = math.nan, 1.0
    elif alternative == "two-sided":
        statistic = max(abs(b - c) - shift, 0.0) ** 2 / discordant
        pvalue = float(special.chdtrc(1, statistic))
    else:
        shift = shift if alternative == "greater" else -shift
        statistic = (b - c - shift) / math.sqrt(discordant)
        pvalue = pvalue_of(statistic, alternative)
    two_sided = alternative == "two-sided"
    return TestResult(
        statistic=statistic,
        pvalue=pvalue,
        df=1.0 if two_sided else None,
        alternative=alternative,
        method=f"McNemar, asymptotic ({'chi-squared' if two_sided else 'normal z'}{corrected})",
        estimate=estimate,
        details=MappingProxyType(details),
    )


def _success_matrix(y_true: Any, predictions: tuple[Any, ...], successes: Any) -> np.ndarray:
    """The (n, k) boolean matrix of successes, from labels and predictions or given."""
    if successes is not None:
        if y_true is not None or predictions:
            raise ValueError("Give either `successes` or `y_true` and the predictions, not both.")
        matrix = np.asarray(successes)
        if matrix.ndim != 2:
            raise ValueError(
                "`successes` must be 2-D (n_examples, n_models); got an array of shape "
                f"{matrix.shape}."
            )
        if matrix.dtype.kind not in "biuf":
            raise ValueError(f"`successes` must be numeric; got dtype {matrix.dtype}.")
        outside = (matrix != 0) & (matrix != 1)
        if np.any(outside):
            raise ValueError(
                f"`successes` must hold only 0 and 1 (or booleans); got "
                f"{format_values(np.unique(matrix[outside]))}."
            )
        matrix = matrix.astype(bool)
    else:
        if y_true is None:
            raise ValueError("Give either `successes` or `y_true` and the predictions.")
        truth = as_labels(y_true, "y_true")
        columns = []
        for index, prediction in enumerate(predictions):
            columns.append(_correct(truth, prediction, f"predictions[{index}]"))
        matrix = np.column_stack(columns) if columns else np.empty((truth.shape[0], 0), bool)
    if matrix.shape[1] < 2:
        raise ValueError(f"Cochran's Q compares at least 2 models; got {matrix.shape[1]}.")
    if matrix.shape[0] == 0:
        raise ValueError("`successes` is empty; at least one example is needed.")
    return matrix


def cochrans_q(y_true: Any = None, *predictions: Any, successes: Any = None) -> TestResult:
    """Cochran's Q test: do k models, scored on the same examples, differ in accuracy?

    Call it as ``cochrans_q(y_true, pred_1, pred_2, ..., pred_k)`` (a prediction is a
    success when it equals the label) or as ``cochrans_q(successes=matrix)`` with an
    ``(n_examples, k)`` matrix of 0/1 successes.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), optional
        True labels.
    *predictions : array-like of shape (n_samples,)
        The predicted labels of each model (at least two); not scores (the rules of
        :func:`assay.mcnemar`).
    successes : array-like of shape (n_samples, k), optional
        0/1 (or boolean) success of each model on each example, instead of labels and
        predictions.

    Returns
    -------
    TestResult
        ``statistic`` is Q, ``df`` is ``k - 1``, ``pvalue`` is the chi-squared upper
        tail.  ``details`` holds ``successes_per_model`` (the column totals), ``n``
        and ``n_informative`` (examples on which the models do not all agree).

    Raises
    ------
    ValueError
        Both or neither input forms; fewer than two models; arrays of different
        lengths; predictions that are not labels of ``y_true``; a success matrix that
        is not 2-D 0/1.

    Warns
    -----
    DegenerateDataWarning
        Every example is solved by all models or by none (``Q = 0/0``): no evidence of
        a difference; the statistic is NaN and the p-value 1 (the exact conditional
        distribution, which permutes each row's successes among the models, is then
        a single point).

    Notes
    -----
    With ``C_j`` the successes of model j, ``R_i`` those on example i and
    ``N = sum C_j`` (Cochran 1950),

    ``Q = (k - 1) (k sum_j C_j^2 - N^2) / (k N - sum_i R_i^2)``,

    approximately chi-squared with ``k - 1`` degrees of freedom under the null
    hypothesis that all models have the same success probability.  For k = 2, Q is
    McNemar's uncorrected chi-squared statistic ``(b - c)^2 / (b + c)``.  The
    statistic is computed in exact integer arithmetic.  It agrees with
    ``statsmodels.stats.contingency_tables.cochrans_q``, which returns NaN for the
    degenerate case.

    References
    ----------
    W. G. Cochran, "The comparison of percentages in matched samples", Biometrika 37
    (1950).

    Examples
    --------
    >>> import assay
    >>> successes = [[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 0, 1], [1, 1, 0], [1, 0, 0]]
    >>> result = assay.cochrans_q(successes=successes)
    >>> round(result.statistic, 4), result.df
    (2.8, 2.0)
    """
    matrix = _success_matrix(y_true, predictions, successes)
    n, k = matrix.shape
    per_model = [int(total) for total in np.count_nonzero(matrix, axis=0)]
    per_example = np.count_nonzero(matrix, axis=1)
    total = sum(per_model)
    numerator = (k - 1) * (k * sum(count * count for count in per_model) - total * total)
    denominator = k * total - int(np.dot(per_example.astype(np.int64), per_example))
    informative = int(np.count_nonzero((per_example > 0) & (per_example < k)))
    details = {
        "successes_per_model": np.array(per_model, dtype=np.int64),
        "n": n,
        "n_informative": informative,
    }
    if denominator == 0:
        warnings.warn(
            "Every example is solved by all models or by none: there is no evidence of "
            "a difference; Q is undefined (NaN) and the p-value is 1.",
            DegenerateDataWarning,
            stacklevel=2,
        )
        statistic, pvalue = math.nan, 1.0
    else:
        statistic = numerator / denominator
        pvalue = float(special.chdtrc(k - 1, statistic))
    return TestResult(
        statistic=statistic,
        pvalue=pvalue,
        df=float(k - 1),
        alternative="two-sided",
        method="Cochran's Q",
        details=MappingProxyType(details),
    )
