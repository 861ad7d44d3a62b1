"""Reference tests comparing two models (and Cochran's Q for k), from their definitions.

Every function returns a plain dict with at least ``statistic``, ``pvalue`` and ``df``.
Counts are Python ints, means and variances exact :class:`fractions.Fraction`; the
binomial and signed-rank null distributions are summed exactly (``math.comb``, or all
``2^n`` sign patterns); only the Student t, F and chi-squared distribution functions
come from ``scipy.stats`` (the distributions themselves).  No input checks, no
warnings: an undefined statistic is NaN; identical models give p = 1.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

from scipy import stats

from ._exact import values_of

__all__ = [
    "cochrans_q",
    "corrected_resampled_ttest",
    "ftest_5x2cv",
    "mcnemar",
    "paired_ttest",
    "sign_test",
    "ttest_5x2cv",
    "welch_ttest",
    "wilcoxon_signed_rank",
]

NAN = float("nan")

# The exact signed-rank p-value enumerates 2^n sign patterns; beyond this n it is NaN.
MAX_ENUMERATED = 16


def _fractions(values: Any) -> list[Fraction]:
    return [Fraction(value) for value in values_of(values)]


def _differences(a: Any, b: Any) -> list[Fraction]:
    """The paired differences ``a_j - b_j`` as the float subtraction gives them, exactly.

    The tests are defined on the differences; taking them as the floats a user (or
    numpy) computes keeps ties and zeros the same as in the data.  Everything after
    the subtraction is exact.
    """
    return [Fraction(float(p) - float(q)) for p, q in zip(values_of(a), values_of(b), strict=True)]


def _binomial_pvalue(k: int, n: int, alternative: str, mid: bool = False) -> float:
    """Exact ``Bin(n, 1/2)`` p-value by summing ``C(n, i) / 2^n``."""
    if n == 0:
        return 1.0

    def probability(i: int) -> Fraction:
        return Fraction(math.comb(n, i), 2**n)

    def at_most(j: int) -> Fraction:
        return sum((probability(i) for i in range(j + 1)), Fraction(0))

    if alternative == "greater":
        tail = 1 - at_most(k - 1)
        observed = k
    elif alternative == "less":
        tail = at_most(k)
        observed = k
    else:
        observed = min(k, n - k)
        tail = 2 * at_most(observed)
    if mid:
        tail -= (2 if alternative == "two-sided" else 1) * probability(observed) / 2
    return float(min(Fraction(1), tail))


def _normal_sf(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def mcnemar(
    y_true: Any = None,
    pred_a: Any = None,
    pred_b: Any = None,
    *,
    table: Any = None,
    method: str = "exact",
    correction: bool = True,
    alternative: str = "two-sided",
) -> dict[str, Any]:
    """McNemar's test from the table ``[[n11, n10], [n01, n00]]`` (or labels).

    Notes
    -----
    ``b = n10`` (A right, B wrong), ``c = n01``; exact: ``Bin(b + c, 1/2)`` tail sums;
    mid-p: less half the probability of the observed value; asymptotic:
    ``max(|b - c| - 1, 0)^2 / (b + c)`` (or without the 1) against chi-squared(1),
    whose upper tail is ``erfc(sqrt(x / 2))``; one-sided z ``(b - c -+ 1) / sqrt(b + c)``.
    """
    if table is not None:
        cells = [int(value) for value in values_of(table)]
        n11, n10, n01, n00 = cells
    else:
        n11 = n10 = n01 = n00 = 0
        for truth, a, b in zip(
            values_of(y_true), values_of(pred_a), values_of(pred_b), strict=True
        ):
            right_a, right_b = a == truth, b == truth
            if right_a and right_b:
                n11 += 1
            elif right_a:
                n10 += 1
            elif right_b:
                n01 += 1
            else:
                n00 += 1
    b, c = n10, n01
    m = b + c
    result: dict[str, Any] = {
        "n11": n11,
        "n10": n10,
        "n01": n01,
        "n00": n00,
        "estimate": (b - c) / (n11 + n10 + n01 + n00),
        "z_source": abs(n01 - n10) / math.sqrt(m) if m else NAN,
    }
    if method in ("exact", "midp"):
        result.update(
            statistic=float(b),
            pvalue=_binomial_pvalue(b, m, alternative, mid=method == "midp"),
            df=None,
        )
        return result
    shift = 1 if correction else 0
    if m == 0:
        statistic, pvalue = NAN, 1.0
    elif alternative == "two-sided":
        statistic = float(Fraction(max(abs(b - c) - shift, 0) ** 2, m))
        pvalue = math.erfc(math.sqrt(statistic / 2.0))
    elif alternative == "greater":
        statistic = (b - c - shift) / math.sqrt(m)
        pvalue = _normal_sf(statistic)
    else:
        statistic = (b - c + shift) / math.sqrt(m)
        pvalue = _normal_sf(-statistic)
    result.update(
        statistic=statistic,
        pvalue=pvalue,
        df=1.0 if alternative == "two-sided" else None,
    )
    return result


def cochrans_q(y_true: Any = None, *predictions: Any, successes: Any = None) -> dict[str, Any]:
    """Cochran's Q from the 0/1 success matrix (or labels and predictions).

    Notes
    -----
    ``Q = (k - 1) (k sum_j C_j^2 - N^2) / (k N - sum_i R_i^2)`` in integers (Cochran
    1950); chi-squared with ``k - 1`` degrees of freedom.  All rows constant: NaN, p = 1.
    """
    if successes is not None:
        rows = [[int(value) for value in row] for row in successes]
    else:
        truth = values_of(y_true)
        columns = [values_of(prediction) for prediction in predictions]
        rows = [[int(column[i] == truth[i]) for column in columns] for i in range(len(truth))]
    k = len(rows[0])
    column_totals = [sum(row[j] for row in rows) for j in range(k)]
    row_totals = [sum(row) for row in rows]
    total = sum(row_totals)
    numerator = (k - 1) * (k * sum(c * c for c in column_totals) - total * total)
    denominator = k * total - sum(r * r for r in row_totals)
    if denominator == 0:
        return {"statistic": NAN, "pvalue": 1.0, "df": float(k - 1)}
    statistic = float(Fraction(numerator, denominator))
    return {
        "statistic": statistic,
        "pvalue": float(stats.chi2.sf(statistic, k - 1)),
        "df": float(k - 1),
    }


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values)


def _variance(values: list[Fraction]) -> Fraction:
    """Sample variance (``n - 1`` in the denominator), exact."""
    mean = _mean(values)
    return sum(((value - mean) ** 2 for value in values), Fraction(0)) / (len(values) - 1)


def _t_test(
    estimate: Fraction,
    variance_of_estimate: Fraction,
    df: float,
    identical: bool,
    alternative: str,
    confidence_level: float | None,
) -> dict[str, Any]:
    """``t = estimate / sqrt(variance_of_estimate)`` against Student's t with ``df``.

    The interval is the set of differences the test does not reject: two-sided
    ``estimate -+ t_{df, (1 + level) / 2} se``; one-sided ``[estimate - t_{df, level}
    se, inf)`` for 'greater' and ``(-inf, estimate + t_{df, level} se]`` for 'less'.
    """
    if variance_of_estimate == 0:
        return {
            "statistic": NAN,
            "pvalue": 1.0 if identical else NAN,
            "df": df,
            "estimate": float(estimate),
            "standard_error": 0.0,
            "confidence_interval": (NAN, NAN),
        }
    # t squared is an exact fraction; one rounding in the square root.
    magnitude = math.sqrt(float(estimate * estimate / variance_of_estimate))
    statistic = math.copysign(magnitude, float(estimate)) if estimate else 0.0
    if alternative == "greater":
        pvalue = float(stats.t.sf(statistic, df))
    elif alternative == "less":
        pvalue = float(stats.t.cdf(statistic, df))
    else:
        pvalue = min(1.0, 2.0 * float(stats.t.sf(abs(statistic), df)))
    standard_error = math.sqrt(float(variance_of_estimate))
    interval = (NAN, NAN)
    if confidence_level is not None and alternative == "two-sided":
        critical = float(stats.t.ppf((1.0 + confidence_level) / 2.0, df))
        interval = (
            float(estimate) - critical * standard_error,
            float(estimate) + critical * standard_error,
        )
    elif confidence_level is not None:
        # one-sided: every difference d the one-sided test at 1 - level does not reject,
        # P(T > (estimate - d) / se) >= 1 - level for 'greater'
        critical = float(stats.t.ppf(confidence_level, df))
        if alternative == "greater":
            interval = (float(estimate) - critical * standard_error, math.inf)
        else:
            interval = (-math.inf, float(estimate) + critical * standard_error)
    return {
        "statistic": statistic,
        "pvalue": pvalue,
        "df": df,
        "estimate": float(estimate),
        "standard_error": standard_error,
        "confidence_interval": interval,
    }


def paired_ttest(
    a: Any, b: Any, *, alternative: str = "two-sided", confidence_level: float = 0.95
) -> dict[str, Any]:
    """Paired t-test: ``t = mean(x) / (s / sqrt(n))`` with ``x = a - b``, n - 1 df.

    Notes
    -----
    Wu, "Evaluation", Algorithm 2; mean and ``s^2`` exact.
    """
    x = _differences(a, b)
    n = len(x)
    identical = all(value == 0 for value in x)
    return _t_test(
        _mean(x), _variance(x) / n, float(n - 1), identical, alternative, confidence_level
    )


def welch_ttest(
    a: Any, b: Any, *, alternative: str = "two-sided", confidence_level: float = 0.95
) -> dict[str, Any]:
    """Welch's t-test with the Welch-Satterthwaite degrees of freedom.

    Notes
    -----
    ``v = s_a^2 / n_a + s_b^2 / n_b``, ``t = (mean(a) - mean(b)) / sqrt(v)``,
    ``df = v^2 / ((s_a^2 / n_a)^2 / (n_a - 1) + (s_b^2 / n_b)^2 / (n_b - 1))``.
    """
    first, second = _fractions(a), _fractions(b)
    share_a = _variance(first) / len(first)
    share_b = _variance(second) / len(second)
    total = share_a + share_b
    estimate = _mean(first) - _mean(second)
    if total == 0:
        df = NAN
    else:
        df = float(total**2 / (share_a**2 / (len(first) - 1) + share_b**2 / (len(second) - 1)))
    return _t_test(estimate, total, df, estimate == 0, alternative, confidence_level)


def corrected_resampled_ttest(
    a: Any,
    b: Any,
    n_train: float,
    n_test: float,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
) -> dict[str, Any]:
    """Nadeau & Bengio's corrected resampled t-test.

    Notes
    -----
    ``t = mean(x) / sqrt((1 / J + n_test / n_train) s^2)``, ``J - 1`` df.
    """
    x = _differences(a, b)
    factor = Fraction(1, len(x)) + Fraction(n_test) / Fraction(n_train)
    identical = all(value == 0 for value in x)
    return _t_test(
        _mean(x),
        factor * _variance(x),
        float(len(x) - 1),
        identical,
        alternative,
        confidence_level,
    )


def _five_by_two(a: Any, b: Any) -> tuple[list[list[Fraction]], list[Fraction]]:
    p = [_differences(row_a, row_b) for row_a, row_b in zip(a, b, strict=True)]
    variances = []
    for first, second in p:
        mean = (first + second) / 2
        variances.append((first - mean) ** 2 + (second - mean) ** 2)
    return p, variances


def ttest_5x2cv(a: Any, b: Any, *, alternative: str = "two-sided") -> dict[str, Any]:
    """Dietterich's 5x2cv t: ``p_1^(1) / sqrt(sum_i s_i^2 / 5)``, 5 df.

    Notes
    -----
    Dietterich (1998), section 3.5.
    """
    p, variances = _five_by_two(a, b)
    identical = all(value == 0 for row in p for value in row)
    return _t_test(p[0][0], sum(variances, Fraction(0)) / 5, 5.0, identical, alternative, None)


def ftest_5x2cv(a: Any, b: Any) -> dict[str, Any]:
    """Alpaydin's combined 5x2cv F: ``sum p^2 / (2 sum s_i^2)``, df (10, 5).

    Notes
    -----
    Alpaydin (1999).
    """
    p, variances = _five_by_two(a, b)
    squares = sum((value * value for row in p for value in row), Fraction(0))
    denominator = 2 * sum(variances, Fraction(0))
    if denominator == 0:
        return {"statistic": NAN, "pvalue": 1.0 if squares == 0 else NAN, "df": (10.0, 5.0)}
    statistic = float(squares / denominator)
    return {
        "statistic": statistic,
        "pvalue": float(stats.f.sf(statistic, 10, 5)),
        "df": (10.0, 5.0),
    }


def _midranks(values: list[Fraction]) -> list[Fraction]:
    """Rank of each value: ``#smaller + (#equal + 1) / 2``."""
    return [
        sum(1 for other in values if other < value)
        + Fraction(sum(1 for other in values if other == value) + 1, 2)
        for value in values
    ]


def wilcoxon_signed_rank(
    a: Any,
    b: Any,
    *,
    zero_method: str = "wilcox",
    method: str = "auto",
    alternative: str = "two-sided",
    correction: bool = False,
) -> dict[str, Any]:
    """Wilcoxon's signed-rank test; the exact null by enumerating every sign pattern.

    Notes
    -----
    Midranks of ``|a - b|`` (zeros dropped for ``'wilcox'``, ranked for ``'pratt'`` and
    ``'zsplit'``).  ``R+`` sums the ranks of positive differences (plus half the zeros'
    ranks for ``'zsplit'``).  Exact: all ``2^m`` sign assignments of the ``m`` non-zero
    differences' ranks, each of probability ``2^-m`` (NaN when ``m > 16``);
    ``'auto'`` means exact when ``m <= 50``.  Asymptotic: mean ``sum(r) / 2`` and
    variance ``sum(r^2) / 4`` over the non-zero ranks, normal tails via ``erfc``.
    """
    d = _differences(a, b)
    if zero_method == "wilcox":
        d = [value for value in d if value != 0]
    ranks = _midranks([abs(value) for value in d])
    split = sum((r for r, v in zip(ranks, d, strict=True) if v == 0), Fraction(0)) / 2
    if zero_method != "zsplit":
        split = Fraction(0)
    r_plus = sum((r for r, v in zip(ranks, d, strict=True) if v > 0), Fraction(0)) + split
    nonzero = [r for r, v in zip(ranks, d, strict=True) if v != 0]
    m = len(nonzero)
    if method == "auto":
        method = "exact" if m <= 50 else "asymptotic"
    result: dict[str, Any] = {"statistic": float(r_plus), "df": None}
    if m == 0:
        result["pvalue"] = 1.0
        return result
    if method == "exact":
        if m > MAX_ENUMERATED:
            result["pvalue"] = NAN
            return result
        at_most = at_least = 0
        for signs in itertools.product((0, 1), repeat=m):
            value = sum((r for r, s in zip(nonzero, signs, strict=True) if s), Fraction(0)) + split
            at_most += value <= r_plus
            at_least += value >= r_plus
        low, high = Fraction(at_most, 2**m), Fraction(at_least, 2**m)
        tail = {"less": low, "greater": high}.get(alternative, 2 * min(low, high))
        result["pvalue"] = float(min(Fraction(1), tail))
        return result
    mean = sum(nonzero, Fraction(0)) / 2 + split
    deviation = r_plus - mean
    shift = Fraction(1, 2) if correction else Fraction(0)
    if alternative == "two-sided":  # signed, shrunk towards 0 by the correction
        numerator = max(abs(deviation) - shift, Fraction(0)) * (1 if deviation >= 0 else -1)
    elif alternative == "greater":
        numerator = deviation - shift
    else:
        numerator = deviation + shift
    z = float(numerator) / math.sqrt(float(sum((r * r for r in nonzero), Fraction(0)) / 4))
    if alternative == "two-sided":
        pvalue = min(1.0, 2.0 * _normal_sf(abs(z)))
    elif alternative == "greater":
        pvalue = _normal_sf(z)
    else:
        pvalue = _normal_sf(-z)
    result.update(pvalue=pvalue, z=z)
    return result


def sign_test(a: Any, b: Any, *, alternative: str = "two-sided") -> dict[str, Any]:
    """Sign test: wins of A against ``Bin(wins + losses, 1/2)``; ties dropped.

    Notes
    -----
    Exact binomial tails by ``math.comb``.
    """
    d = _differences(a, b)
    wins = sum(1 for value in d if value > 0)
    losses = sum(1 for value in d if value < 0)
    return {
        "statistic": float(wins),
        "pvalue": _binomial_pvalue(wins, wins + losses, alternative),
        "df": None,
    }
