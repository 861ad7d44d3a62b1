"""Reference twins of the rank-based comparison of many models and of p-value adjustment.

Ranks are counted pair by pair, statistics are exact fractions of the rank sums,
adjusted p-values come from running each procedure's accept/reject rule at every
level where its decisions can change, critical values come from bisection on a
plain Simpson integral of the distribution function, and cliques from enumerating
every subset of models.  Nothing here is fast; everything is for small inputs.

The chi-squared and F p-values are not reproduced (they need special functions
outside the standard library): tests take the reference statistic and compare the
public p-value with ``scipy.stats`` directly.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np

from ._exact import NAN

__all__ = ["adjust_pvalues", "bonferroni_dunn", "friedman", "nemenyi"]


def _rows(scores: Any) -> list[list[Fraction]]:
    return [[Fraction(value) for value in row] for row in np.asarray(scores).tolist()]


def _midranks(row: list[Fraction], higher_is_better: bool) -> list[Fraction]:
    """Rank 1 = best: one plus the number of better values plus half the number of equal ones."""
    ranks: list[Fraction] = []
    for i, value in enumerate(row):
        better = sum(1 for other in row if (other > value if higher_is_better else other < value))
        equal = sum(1 for j, other in enumerate(row) if j != i and other == value)
        ranks.append(1 + better + Fraction(equal, 2))
    return ranks


def _average_ranks(
    scores: Any, higher_is_better: bool
) -> tuple[list[list[Fraction]], list[Fraction]]:
    ranks = [_midranks(row, higher_is_better) for row in _rows(scores)]
    n = len(ranks)
    return ranks, [sum((row[j] for row in ranks), Fraction(0)) / n for j in range(len(ranks[0]))]


def friedman(
    scores: Any, *, higher_is_better: bool = True, tie_correction: bool = False
) -> dict[str, Any]:
    """Friedman's chi^2_F and the Iman-Davenport F_F from their textbook formulas.

    Notes
    -----
    ``chi^2_F = 12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4]`` and
    ``F_F = (N - 1) chi^2_F / (N (k - 1) - chi^2_F)`` (Demsar 2006, section 3.2.2),
    in exact fractions; with ``tie_correction`` chi^2_F is divided by
    ``1 - sum (t^3 - t) / (N (k^3 - k))``.  An undefined value (a zero denominator)
    is NaN.  Returns a dict with ``ranks``, ``average_ranks``, ``statistic``,
    ``iman_davenport_statistic``, ``df`` and ``iman_davenport_df``.
    """
    ranks, average = _average_ranks(scores, higher_is_better)
    n, k = len(ranks), len(average)
    chi2: Fraction | float = Fraction(12 * n, k * (k + 1)) * (
        sum(r * r for r in average) - Fraction(k * (k + 1) ** 2, 4)
    )
    if tie_correction:
        ties = 0
        for row in _rows(scores):
            for value in set(row):
                t = row.count(value)
                ties += t**3 - t
        correction = 1 - Fraction(ties, n * (k**3 - k))
        chi2 = chi2 / correction if correction != 0 else NAN
    if isinstance(chi2, float):
        f_f: Fraction | float = NAN
    else:
        denominator = n * (k - 1) - chi2
        f_f = (n - 1) * chi2 / denominator if denominator != 0 else NAN
    return {
        "ranks": [[float(r) for r in row] for row in ranks],
        "average_ranks": [float(r) for r in average],
        "statistic": float(chi2),
        "iman_davenport_statistic": float(f_f),
        "df": k - 1,
        "iman_davenport_df": (k - 1, (k - 1) * (n - 1)),
    }


# --- Adjusted p-values from the accept/reject rules. ---


def _stage_one_rejections(p: list[Fraction], alpha: Fraction) -> int:
    """How many hypotheses the Benjamini-Hochberg step-up rule rejects at level ``alpha``."""
    ordered = sorted(p)
    m = len(p)
    return max((i for i in range(1, m + 1) if ordered[i - 1] * m <= alpha * i), default=0)


def _rejected(p: list[Fraction], alpha: Fraction, method: str, scale: Fraction) -> list[bool]:
    """Which hypotheses ``method`` rejects at family level ``alpha`` (p in input order).

    ``scale`` is ``m_0 / m`` of the two-stage procedure (1 for the others): its second
    stage is the Benjamini-Hochberg rule at level ``alpha / scale``.
    """
    m = len(p)
    if method == "bonferroni":
        return [m * value <= alpha for value in p]
    if method == "sidak":
        return [1 - (1 - value) ** m <= alpha for value in p]
    order = sorted(range(m), key=lambda i: p[i])
    reject = [False] * m
    if method in ("holm", "holm-sidak"):  # step-down: stop at the first acceptance
        for position, i in enumerate(order, start=1):
            remaining = m - position + 1
            if method == "holm":
                passes = p[i] * remaining <= alpha
            else:
                passes = 1 - (1 - p[i]) ** remaining <= alpha
            if not passes:
                break
            reject[i] = True
        return reject
    harmonic = sum(Fraction(1, i) for i in range(1, m + 1)) if method == "by" else Fraction(1)
    largest = 0  # step-up: the largest position whose p passes; all before it are rejected
    for position, i in enumerate(order, start=1):
        if method == "hochberg":
            passes = p[i] * (m - position + 1) <= alpha
        else:  # 'bh' / 'by' / 'tsbh'
            passes = p[i] * m * harmonic * scale <= alpha * position
        if passes:
            largest = position
    for i in order[:largest]:
        reject[i] = True
    return reject


def _critical_levels(p: list[Fraction], method: str, scale: Fraction) -> list[Fraction]:
    """Every level at which the decisions of ``method`` can change."""
    m = len(p)
    if method == "sidak":
        return [1 - (1 - value) ** m for value in p]
    if method == "holm-sidak":
        return [1 - (1 - value) ** k for value in p for k in range(1, m + 1)]
    harmonic = sum(Fraction(1, i) for i in range(1, m + 1))
    levels = []
    for value in p:
        for position in range(1, m + 1):
            levels += [value * m, value * (m - position + 1), value * m * scale / position]
            levels.append(value * m * harmonic / position)
    return levels


def _simes(p: list[Fraction]) -> Fraction:
    """Simes' p-value of the intersection of the hypotheses of ``p``: ``min_j |I| p_(j) / j``."""
    ordered = sorted(p)
    return min(Fraction(1), min(len(p) * value / j for j, value in enumerate(ordered, start=1)))


def _hommel(p: list[Fraction]) -> list[Fraction]:
    """Closed testing with Simes tests: the largest Simes p-value of any subset holding i.

    Every one of the ``2^m - 1`` subsets is enumerated (fine for the small families of
    the tests).
    """
    m = len(p)
    adjusted = [Fraction(0)] * m
    for size in range(1, m + 1):
        for subset in itertools.combinations(range(m), size):
            value = _simes([p[i] for i in subset])
            for i in subset:
                adjusted[i] = max(adjusted[i], value)
    return adjusted


def adjust_pvalues(pvalues: Any, *, method: str = "holm", alpha: float = 0.05) -> list[float]:
    """Adjusted p-values: the smallest family level at which each hypothesis is rejected.

    Notes
    -----
    For every candidate level ``alpha`` (the products of each p-value with each
    multiplier the procedure uses, and 1) the procedure's rule is run in exact
    fractions: Bonferroni ``m p <= alpha``; Sidak ``1 - (1 - p)^m <= alpha``; Holm
    step-down ``p_(i) (m - i + 1) <= alpha`` until the first failure; Holm-Sidak the
    same with ``1 - (1 - p_(i))^(m - i + 1) <= alpha``; Hochberg step-up (the Holm
    bound, rejecting everything below the largest passing ``i``);
    Benjamini-Hochberg ``p_(i) m / i <= alpha`` step-up; Benjamini-Yekutieli the same
    times ``sum_{i<=m} 1/i``.  The adjusted p-value is the smallest candidate at which
    the hypothesis is rejected, at most 1.

    Hommel's procedure is the closed test of Simes tests: the adjusted p-value of
    ``H_i`` is the largest Simes p-value ``min_j |I| p_(j:I) / j`` over every subset
    ``I`` of hypotheses containing ``i``, all subsets enumerated.

    The two-stage Benjamini-Hochberg procedure ('tsbh', at false discovery rate
    ``alpha``): its first stage, the BH rule at ``alpha``, rejects ``r`` hypotheses;
    if ``0 < r < m`` the second stage is the BH rule at ``alpha m / (m - r)``, so the
    adjusted p-value is the smallest level ``gamma`` at which the BH rule at ``gamma m /
    (m - r)`` rejects the hypothesis; otherwise the BH value.

    NaN p-values stay NaN and are not counted in ``m``.
    """
    values = [float(value) for value in np.asarray(pvalues, dtype=float).ravel().tolist()]
    defined = [i for i, value in enumerate(values) if not math.isnan(value)]
    p = [Fraction(values[i]) for i in defined]
    adjusted = [NAN] * len(values)
    scale = Fraction(1)
    if method == "tsbh":
        rejected = _stage_one_rejections(p, Fraction(alpha))
        if 0 < rejected < len(p):
            scale = Fraction(len(p) - rejected, len(p))
    if method == "hommel":
        found_values: list[Fraction | None] = list(_hommel(p))
    else:
        levels = {level for level in _critical_levels(p, method, scale) if level <= 1}
        candidates = sorted(levels | {Fraction(1)})
        found_values = [None] * len(p)
        for level in candidates:
            for i, rejected_here in enumerate(_rejected(p, level, method, scale)):
                if rejected_here and found_values[i] is None:
                    found_values[i] = level
    for position, i in enumerate(defined):
        found = found_values[position]
        adjusted[i] = 1.0 if found is None else float(found)
    return adjusted


# --- Post-hoc tests. ---


def _normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _range_cdf(q: float, k: int, step: float = 0.01) -> float:
    """``P(range of k iid N(0, 1) <= q)`` by Simpson's rule on [-10, 10]."""
    steps = round(20.0 / step)
    total = 0.0
    for i in range(steps + 1):
        x = -10.0 + i * step
        weight = 1 if i in (0, steps) else (4 if i % 2 else 2)
        density = math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
        total += weight * density * (_normal_cdf(x) - _normal_cdf(x - q)) ** (k - 1)
    return k * total * step / 3.0


def _bisect(function: Any, low: float, high: float) -> float:
    """The root of an increasing ``function`` in [low, high], to about 1e-12."""
    for _ in range(60):
        middle = 0.5 * (low + high)
        if function(middle) < 0:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def _standard_error(k: int, n: int) -> float:
    return math.sqrt(k * (k + 1) / (6.0 * n))


def nemenyi(scores: Any, *, alpha: float = 0.05, higher_is_better: bool = True) -> dict[str, Any]:
    """Nemenyi critical difference, z statistics, significant pairs and cliques.

    Notes
    -----
    ``q_alpha`` is found by bisection on a Simpson integral of the range distribution
    of k standard normals, ``k int phi(x) (Phi(x) - Phi(x - q))^(k-1) dx``, divided by
    ``sqrt(2)``; ``CD = q_alpha sqrt(k (k + 1) / (6 N))`` (Demsar 2006).  A pair is
    significant when its average ranks differ by at least CD; cliques are found by
    enumerating every subset of two or more models with no significant pair and
    keeping the maximal ones.
    """
    ranks, average = _average_ranks(scores, higher_is_better)
    n, k = len(ranks), len(average)
    q = _bisect(lambda value: _range_cdf(value, k) - (1 - alpha), 0.0, 12.0)
    critical_value = q / math.sqrt(2.0)
    standard_error = _standard_error(k, n)
    critical_difference = critical_value * standard_error
    ranked = [float(r) for r in average]

    def significant(i: int, j: int) -> bool:
        return abs(ranked[i] - ranked[j]) >= critical_difference

    pairs = [(i, j) for i in range(k) for j in range(i + 1, k) if significant(i, j)]
    groups = [
        set(subset)
        for size in range(2, k + 1)
        for subset in itertools.combinations(range(k), size)
        if not any(significant(i, j) for i, j in itertools.combinations(subset, 2))
    ]
    maximal = [group for group in groups if not any(group < other for other in groups)]
    return {
        "average_ranks": ranked,
        "critical_value": critical_value,
        "critical_difference": critical_difference,
        "z_statistic": [
            [float(average[i] - average[j]) / standard_error for j in range(k)] for i in range(k)
        ],
        "significant_pairs": pairs,
        "cliques": maximal,
    }


def bonferroni_dunn(
    scores: Any, *, control: int, alpha: float = 0.05, higher_is_better: bool = True
) -> dict[str, Any]:
    """Bonferroni-Dunn comparisons with a control, and Holm's step-down on the same p-values.

    Notes
    -----
    ``z_j = (R_control - R_j) / sqrt(k (k + 1) / (6 N))``, two-sided normal p-values
    from ``math.erfc``, ``q_alpha = z_{1 - alpha / (2 (k - 1))}`` by bisection on the
    normal distribution function (Demsar 2006, section 3.2.2).  The control's own
    entries are NaN.
    """
    ranks, average = _average_ranks(scores, higher_is_better)
    n, k = len(ranks), len(average)
    target = 1 - alpha / (2 * (k - 1))
    critical_value = _bisect(lambda value: _normal_cdf(value) - target, 0.0, 40.0)
    standard_error = _standard_error(k, n)
    z = [
        NAN if j == control else float(average[control] - average[j]) / standard_error
        for j in range(k)
    ]
    pvalues = [NAN if math.isnan(value) else math.erfc(abs(value) / math.sqrt(2.0)) for value in z]
    critical_difference = critical_value * standard_error
    return {
        "average_ranks": [float(r) for r in average],
        "critical_value": critical_value,
        "critical_difference": critical_difference,
        "z_statistic": z,
        "pvalues": pvalues,
        "adjusted_pvalues": adjust_pvalues(pvalues, method="bonferroni"),
        "holm_adjusted_pvalues": adjust_pvalues(pvalues, method="holm"),
        "significant_pairs": [
            (min(control, j), max(control, j))
            for j in range(k)
            if j != control and abs(float(average[control] - average[j])) >= critical_difference
        ],
    }
