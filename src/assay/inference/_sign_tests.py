"""Distribution-free tests of paired scores: Wilcoxon's signed-rank test and the sign test.

Both test whether the differences ``a - b`` of two models' scores on the same folds or
data sets are centred on zero without assuming they are normal.  Their null
distributions come from the signs alone: under the null hypothesis each non-zero
difference is as likely to be positive as negative, independently.
"""

from __future__ import annotations

import math
import warnings
from types import MappingProxyType
from typing import Any

import numpy as np

from assay._distributions import pvalue as pvalue_of
from assay._procedure_checks import check_alternative
from assay._results import TestResult
from assay._ties import average_ranks
from assay._validation import check_option
from assay.exceptions import DegenerateDataWarning
from assay.inference._contingency import binomial_pvalue
from assay.inference._fold_tests import _paired_differences

__all__ = ["sign_test", "signed_rank_distribution", "wilcoxon_signed_rank"]

ZERO_METHODS = ("wilcox", "pratt", "zsplit")
WILCOXON_METHODS = ("auto", "exact", "asymptotic")

# Above this many non-zero differences, method='auto' uses the normal approximation
# (scipy's threshold); the exact distribution itself is computed for any n.
WILCOXON_EXACT_LIMIT = 50


def signed_rank_distribution(doubled_ranks: np.ndarray) -> np.ndarray:
    """Null distribution of twice the sum of the ranks that carry a + sign.

    ``doubled_ranks`` are twice the (mid)ranks of the non-zero differences, so they
    are integers even with ties.  Each one is added with probability 1/2,
    independently; entry ``s`` of the result is ``P(2 R+ = s)``.  The recursion
    ``P_k(s) = (P_{k-1}(s) + P_{k-1}(s - r_k)) / 2`` adds one rank at a time; every
    probability is a multiple of ``2^-n``, so it is exact in float64 for n <= 53.
    """
    doubled = [int(rank) for rank in doubled_ranks]
    distribution = np.zeros(sum(doubled) + 1)
    distribution[0] = 1.0
    top = 0
    for rank in doubled:
        shifted = distribution[: top + 1].copy()
        distribution *= 0.5
        distribution[rank : rank + top + 1] += 0.5 * shifted
        top += rank
    return distribution


def _exact_pvalue(doubled_ranks: np.ndarray, observed: int, alternative: str) -> float:
    distribution = signed_rank_distribution(doubled_ranks)
    at_most = float(distribution[: observed + 1].sum())
    at_least = float(distribution[observed:].sum())
    if alternative == "less":
        return min(1.0, at_most)
    if alternative == "greater":
        return min(1.0, at_least)
    return min(1.0, 2.0 * min(at_most, at_least))


def _warn_no_difference(what: str) -> None:
    warnings.warn(
        f"{what}: every difference is zero, which is no evidence of a difference; the "
        "p-value is 1.",
        DegenerateDataWarning,
        stacklevel=3,
    )


def wilcoxon_signed_rank(
    a: Any,
    b: Any,
    *,
    zero_method: str = "wilcox",
    method: str = "auto",
    alternative: str = "two-sided",
    correction: bool = False,
) -> TestResult:
    """Wilcoxon's signed-rank test of paired scores; exact even with ties and zeros.

    Parameters
    ----------
    a, b : array-like of shape (n,)
        Scores (or errors) of model A and model B on the same n folds or data sets;
        ``n >= 2``.
    zero_method : {"wilcox", "pratt", "zsplit"}, default="wilcox"
        Zero differences: ``'wilcox'`` drops them before ranking; ``'pratt'`` ranks
        them with the others, then leaves their ranks out of both sums (Pratt 1959);
        ``'zsplit'`` ranks them and adds half of their ranks to each sum (Demšar 2006,
        section 3.1.3).
    method : {"auto", "exact", "asymptotic"}, default="auto"
        ``'exact'``: the exact null distribution of the statistic given the observed
        (mid)ranks (see Notes).  ``'asymptotic'``: its normal approximation.
        ``'auto'``: exact when at most 50 differences are non-zero.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``'greater'``: the differences ``a - b`` tend to be positive.
    correction : bool, default=False
        Continuity correction of 1/2 of the normal approximation (asymptotic only).

    Returns
    -------
    TestResult
        ``statistic`` is ``R+``, the sum of the ranks of the positive differences
        (R's ``V``; scipy reports ``min(R+, R-)`` for the two-sided test), ``df`` is
        None.  ``details`` holds ``r_plus``, ``r_minus``, ``n_nonzero``, ``n_zero``
        and, for the asymptotic method, ``z``.

    Raises
    ------
    ValueError
        Different lengths, fewer than 2 pairs, non-finite scores, a bad option.

    Warns
    -----
    DegenerateDataWarning
        Every difference is zero: p = 1.

    Notes
    -----
    The absolute differences are ranked (tied values get the mean of their ranks)
    and ``R+`` (``R-``) sums the ranks of the positive (negative) differences
    (Wilcoxon 1945; Gama, "Evaluation of classification and regression algorithms",
    "Wilcoxon signed-rank tests").  Under the null
    hypothesis of a distribution symmetric about 0, each non-zero difference's rank
    carries a + or a - sign with probability 1/2, independently, given the ranks.

    ``method='exact'`` computes that conditional distribution exactly, ties and
    zeros included: twice the midranks are integers, and the distribution of twice
    ``R+`` follows from a recursion over them (a dynamic programme, O(n^3) for n
    differences).  scipy's ``method='exact'`` instead uses the table of the untied
    statistic and rounds a tied statistic conservatively; its ``'auto'`` switches to
    an exact permutation test for n <= 13 with ties or zeros (which agrees with this
    one) and to the normal approximation above.  The two-sided p-value is
    ``min(1, 2 min(P(R+ <= r), P(R+ >= r)))``; the distribution is symmetric.

    The normal approximation uses the conditional mean ``sum(r_i) / 2`` and variance
    ``sum(r_i^2) / 4`` over the ranks ``r_i`` of the non-zero differences (the tie
    correction is built in), plus the fixed half of the zeros' ranks for
    ``'zsplit'``.  For ``'wilcox'`` and ``'pratt'`` this is scipy's
    approximation; for ``'zsplit'`` scipy also counts the zeros' ranks in the
    variance, although their contribution to ``R+`` is fixed.  With
    ``correction=True`` the two-sided ``|R+ - mean|`` is reduced by 1/2 but not
    below 0.

    References
    ----------
    F. Wilcoxon, "Individual comparisons by ranking methods", Biometrics Bulletin 1
    (1945).
    J. W. Pratt, "Remarks on zeros and ties in the Wilcoxon signed rank procedures",
    JASA 54 (1959).
    J. Demšar, "Statistical comparisons of classifiers over multiple data sets",
    JMLR 7 (2006).

    Examples
    --------
    >>> import assay
    >>> a = [0.86, 0.78, 0.91, 0.70, 0.82, 0.88, 0.75, 0.93]
    >>> b = [0.84, 0.78, 0.88, 0.72, 0.77, 0.85, 0.74, 0.89]
    >>> result = assay.wilcoxon_signed_rank(a, b)
    >>> result.statistic, round(result.pvalue, 4)
    (25.5, 0.0625)
    """
    zero_method = check_option(zero_method, "zero_method", ZERO_METHODS)
    method = check_option(method, "method", WILCOXON_METHODS)
    alternative = check_alternative(alternative)
    differences = _paired_differences(a, b)
    zero = differences == 0.0
    n_zero = int(np.count_nonzero(zero))
    if zero_method == "wilcox":
        differences = differences[~zero]
        zero = zero[~zero]
    ranks = average_ranks(np.abs(differences)[np.newaxis])[0]
    positive, negative = differences > 0.0, differences < 0.0
    split = 0.5 * float(ranks[zero].sum()) if zero_method == "zsplit" else 0.0
    r_plus = float(ranks[positive].sum()) + split
    r_minus = float(ranks[negative].sum()) + split
    nonzero_ranks = ranks[~zero]
    n_nonzero = nonzero_ranks.shape[0]
    details: dict[str, Any] = {
        "r_plus": r_plus,
        "r_minus": r_minus,
        "n_nonzero": n_nonzero,
        "n_zero": n_zero,
    }
    if method == "auto":
        method = "exact" if n_nonzero <= WILCOXON_EXACT_LIMIT else "asymptotic"
    name = f"Wilcoxon signed-rank, {method}"
    if n_nonzero == 0:
        _warn_no_difference("Wilcoxon signed-rank test")
        pvalue = 1.0
        if method == "asymptotic":
            details["z"] = math.nan
    elif method == "exact":
        doubled = np.rint(2.0 * nonzero_ranks).astype(np.int64)
        observed = int(np.rint(2.0 * ranks[positive].sum()))
        pvalue = _exact_pvalue(doubled, observed, alternative)
    else:
        mean = 0.5 * float(nonzero_ranks.sum()) + split
        deviation = r_plus - mean
        standard_deviation = math.sqrt(float(np.dot(nonzero_ranks, nonzero_ranks)) / 4.0)
        shift = 0.5 if correction else 0.0
        if alternative == "two-sided":
            z = math.copysign(max(abs(deviation) - shift, 0.0), deviation)
        elif alternative == "greater":
            z = deviation - shift
        else:
            z = deviation + shift
        z /= standard_deviation
        details["z"] = z
        pvalue = pvalue_of(z, alternative)
    return TestResult(
        statistic=r_plus,
        pvalue=pvalue,
        df=None,
        alternative=alternative,
        method=name,
        details=MappingProxyType(details),
    )


def sign_test(a: Any, b: Any, *, alternative: str = "two-sided") -> TestResult:
    """Sign test of paired scores: how often does model A beat model B?

    Parameters
    ----------
    a, b : array-like of shape (n,)
        Scores (or errors) of model A and model B on the same n folds or data sets;
        ``n >= 2``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``'greater'``: ``a > b`` more often than ``a < b``.

    Returns
    -------
    TestResult
        ``statistic`` is the number of positive differences (wins of A), ``df`` None.
        ``details`` holds ``n_positive``, ``n_negative`` and ``n_zero``.

    Raises
    ------
    ValueError
        Different lengths, fewer than 2 pairs, non-finite scores, a bad
        ``alternative``.

    Warns
    -----
    DegenerateDataWarning
        Every difference is zero: p = 1.

    Notes
    -----
    Zero differences (ties) are dropped; among the ``m`` others the number of wins
    of A is ``Bin(m, 1/2)`` under the null hypothesis of a zero median difference,
    and the p-value is the exact binomial one: ``P(X >= wins)`` (greater),
    ``P(X <= wins)`` (less) or ``min(1, 2 P(X <= min(wins, losses)))``.  Demšar (2006,
    section 3.1.3) suggests splitting the ties evenly instead; dropping them is the
    conditional test, exact at any n.  It needs only the signs, so it is robust but
    less powerful than the signed-rank test.

    References
    ----------
    W. J. Dixon and A. M. Mood, "The statistical sign test", JASA 41 (1946).

    Examples
    --------
    >>> import assay
    >>> result = assay.sign_test([3, 5, 4, 6, 7, 5, 8, 6], [2, 4, 4, 5, 5, 6, 7, 5])
    >>> result.statistic, round(result.pvalue, 4)
    (6.0, 0.125)
    """
    alternative = check_alternative(alternative)
    differences = _paired_differences(a, b)
    wins = int(np.count_nonzero(differences > 0.0))
    losses = int(np.count_nonzero(differences < 0.0))
    if wins + losses == 0:
        _warn_no_difference("Sign test")
    return TestResult(
        statistic=float(wins),
        pvalue=binomial_pvalue(wins, wins + losses, alternative),
        df=None,
        alternative=alternative,
        method="sign test, exact (binomial)",
        details=MappingProxyType(
            {
                "n_positive": wins,
                "n_negative": losses,
                "n_zero": differences.shape[0] - wins - losses,
            }
        ),
    )
