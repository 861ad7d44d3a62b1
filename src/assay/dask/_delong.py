"""DeLong's interval of an AUC and DeLong's paired test of two AUCs, of dask collections.

The placements are computed where the rows are, from the range-partitioned scan
(:mod:`assay.dask._placements`); the sums of squares of the buckets are added in score
order and the result is built by the same rules as :func:`assay.auc_ci` and
:func:`assay.delong_test`.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from dask.delayed import Delayed, delayed

from assay._procedure_checks import check_alternative, check_confidence_level
from assay._results import IntervalResult, TestResult
from assay._validation import check_option
from assay.dask import _buckets as buckets
from assay.dask import _placements as placements
from assay.dask._graph import (
    RankingJob,
    deliver_result,
    frames_of,
    plan_graph,
    ranking_job,
    scanned,
    shuffle_job,
)
from assay.dask._partitions import packed_partitions
from assay.inference._delong import (
    _NAN,
    auc_ci_result,
)
from assay.inference._delong_tests import paired_test_result
from assay.metrics._ranking import roc_auc_options

__all__ = ["auc_ci", "delong_test"]

_AREA = roc_auc_options()


class Totals(NamedTuple):
    """The class totals in the data's units, and whether the rows were weighted."""

    positive: float
    negative: float
    weighted: bool

    @property
    def defined(self) -> bool:
        return self.positive > 0.0 and self.negative > 0.0

    @property
    def estimable(self) -> bool:
        return self.positive > 1.0 and self.negative > 1.0


def _totals(prefix: buckets.Prefix, plan: Any, weighted: bool) -> Totals:
    context = prefix.context
    scale = plan.weight_scale
    return Totals(context.total_positive / scale, context.total_negative / scale, weighted)


def _area(job: RankingJob) -> Delayed:
    """The lazy AUC (NaN for a single class)."""
    states = [
        delayed(buckets.bucket_states, pure=True)(a, job.prefix, None, _AREA) for a in scanned(job)
    ]
    return delayed(_finished_area, pure=True)(states, job.prefix)


def _finished_area(states: list[dict[int, Any]], prefix: buckets.Prefix) -> float:
    context = prefix.context
    if context.total_positive == 0.0 or context.total_negative == 0.0:
        return _NAN
    return buckets.finish_states(states, prefix, _AREA)


# ---------------------------------------------------------------------------- auc_ci


class AucNumbers(NamedTuple):
    auc: float
    variance: float
    """DeLong's variance (NaN when a class weighs 1 or less)."""
    totals: Totals
    n_rows: int


def _auc_numbers(
    auc: float,
    spreads: list[tuple[placements.Spread, placements.Spread]],
    prefix: buckets.Prefix,
    plan: Any,
    weighted: bool,
    row_counts: list[int],
) -> AucNumbers:
    """The variance ``S10 / U + S01 / W`` (as :func:`assay.auc_ci` computes it)."""
    totals = _totals(prefix, plan, weighted)
    n_rows = sum(row_counts)
    if math.isnan(auc) or not totals.estimable:
        return AucNumbers(auc, _NAN, totals, n_rows)
    squares = []
    for side in (0, 1):
        summed, constant = placements.combine_spreads([s[side] for s in spreads])
        squares.append(0.0 if constant[0] else float(summed[0]))
    u, w = totals.positive, totals.negative
    scale = plan.weight_scale
    variance = (squares[0] / scale) / (u - 1.0) / u + (squares[1] / scale) / (w - 1.0) / w
    return AucNumbers(auc, variance, totals, n_rows)


def _auc_ci_result(
    numbers: AucNumbers, confidence_level: float, method: str, interval: str, stacklevel: int
) -> IntervalResult:
    """The result of :func:`assay.auc_ci` from its numbers (the same rules)."""
    auc, variance, totals, n_rows = numbers
    return auc_ci_result(
        auc,
        variance,
        totals.positive,
        totals.negative,
        n_rows,
        totals.weighted,
        confidence_level=confidence_level,
        method=method,
        interval=interval,
        stacklevel=stacklevel,
    )


def auc_ci(
    y_true: Any,
    y_score: Any,
    *,
    confidence_level: float = 0.95,
    method: str = "delong",
    interval: str = "logit",
    sample_weight: Any = None,
    pos_label: Any = None,
    compute: bool = True,
) -> Any:
    """Confidence interval of the ROC AUC of dask collections (DeLong or Hanley & McNeil).

    Parameters
    ----------
    y_true : dask Series or 1-D dask array
        Binary targets.
    y_score : dask Series or 1-D dask array
        Scores, partitioned like ``y_true``.
    confidence_level : float, default=0.95
        Nominal coverage of the interval, in (0, 1).
    method : {"delong", "hanley_mcneil"}, default="delong"
        The standard error, as in :func:`assay.auc_ci`.
    interval : {"logit", "normal"}, default="logit"
        The interval, as in :func:`assay.auc_ci`.
    sample_weight : dask Series or 1-D dask array, default=None
        Non-negative frequency weights, partitioned like ``y_true``.
    pos_label : int, float, bool or str, default=None
        The positive class.
    compute : bool, default=True
        Compute now; False returns a ``dask.delayed`` object of the result (computed
        later, it gives no warnings).

    Returns
    -------
    IntervalResult or dask.delayed.Delayed
        As :func:`assay.auc_ci` on the same rows: the AUC bit for bit without weights
        or with integer weights, the variance (a sum of squares added in another order)
        to rounding, 1e-12 relative.

    Raises
    ------
    ValueError
        The single-machine errors; an error found in one partition names it.

    Warns
    -----
    UndefinedMetricWarning
        A single class: everything is NaN.
    DegenerateDataWarning
        As :func:`assay.auc_ci` (a class of weight 1 or less, a standard error of 0).

    Notes
    -----
    A row's placement depends on it only through its tie group, so the variance needs
    no row order: the rows are range-partitioned by score as for
    :func:`roc_auc_score` (one shuffle), each bucket sums ``p (V10 - A)^2`` and
    ``q (V01 - A)^2`` over its tie groups, from the weight above it and the AUC, and
    the buckets' sums are added.  Cost: that of :func:`roc_auc_score` plus one pass
    over the buckets' groups.  Formulas and references: :func:`assay.auc_ci`.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> import assay.dask
    >>> frame = dd.from_pandas(pd.DataFrame({
    ...     "y": [0, 0, 1, 1, 0, 1, 0, 1],
    ...     "score": [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.5, 0.7]}), npartitions=3)
    >>> result = assay.dask.auc_ci(frame["y"], frame["score"])
    >>> round(result.estimate, 4), round(result.standard_error, 4)
    (0.875, 0.1443)
    """
    confidence_level = check_confidence_level(confidence_level)
    check_option(method, "method", ("delong", "hanley_mcneil"))
    check_option(interval, "interval", ("logit", "normal"))
    job = ranking_job(y_true, y_score, sample_weight, pos_label, located=compute)
    auc = _area(job)
    spreads = [
        delayed(placements.bucket_squares, pure=True)(a, job.prefix, auc) for a in job.atoms
    ]
    ordered = delayed(placements.in_order, pure=True)(spreads, job.prefix)
    numbers = delayed(_auc_numbers, pure=True)(
        auc, ordered, job.prefix, job.plan, sample_weight is not None, job.row_counts
    )
    return deliver_result(numbers, _auc_ci_result, compute, confidence_level, method, interval)


# ----------------------------------------------------------------------- delong_test


class PairedNumbers(NamedTuple):
    aucs: tuple[float, float]
    totals: Totals
    covariance: np.ndarray
    """DeLong's 2 x 2 covariance (NaN unless both classes weigh more than 1)."""
    difference_variance: float


def _covariance(squares: np.ndarray, constant: np.ndarray) -> tuple[np.ndarray, float]:
    """The 2 x 2 cross products and the difference's sum of squares, those of constant
    placements exactly 0 (as :func:`assay._kernels.delong.weighted_cross_products`)."""
    s00, s01, s11, difference = squares
    if constant[0]:
        s00 = s01 = 0.0
    if constant[1]:
        s11 = s01 = 0.0
    if constant[2]:
        difference = 0.0
    return np.array([[s00, s01], [s01, s11]]), float(difference)


def _paired_numbers(
    auc_a: float,
    auc_b: float,
    sums: list[tuple[placements.Spread, placements.Spread]],
    prefix: buckets.Prefix,
    plan: Any,
    weighted: bool,
) -> PairedNumbers:
    totals = _totals(prefix, plan, weighted)
    covariance = np.full((2, 2), np.nan)
    if not totals.estimable:
        return PairedNumbers((auc_a, auc_b), totals, covariance, _NAN)
    u, w = totals.positive, totals.negative
    u_scaled, w_scaled = prefix.context.total_positive, prefix.context.total_negative
    s10, d10 = _covariance(*placements.combine_spreads([s[0] for s in sums]))
    s01, d01 = _covariance(*placements.combine_spreads([s[1] for s in sums]))
    covariance = s10 / u_scaled / (u - 1.0) + s01 / w_scaled / (w - 1.0)
    difference = d10 / u_scaled / (u - 1.0) + d01 / w_scaled / (w - 1.0)
    return PairedNumbers((auc_a, auc_b), totals, covariance, difference)


def _delong_test_result(
    numbers: PairedNumbers, alternative: str, confidence_level: float, stacklevel: int
) -> TestResult:
    """The result of :func:`assay.delong_test` from its numbers (the same rules)."""
    aucs, totals, covariance, difference_variance = numbers
    return paired_test_result(
        aucs,
        (totals.positive, totals.negative, totals.weighted),
        (totals.defined, totals.estimable),
        lambda: (covariance, difference_variance),
        alternative=alternative,
        confidence_level=confidence_level,
        stacklevel=stacklevel,
    )


class PairedJobs(NamedTuple):
    """The ranking jobs of two models scored on the same rows, the second's rows
    carrying their placements in the first."""

    a: RankingJob
    b: RankingJob


def paired_jobs(
    y_true: Any,
    score_a: Any,
    score_b: Any,
    sample_weight: Any,
    pos_label: Any,
    names: tuple[str, str] = ("score_a", "score_b"),
    carry: str = "placement",
    positions: bool = False,
) -> PairedJobs:
    """Both models' jobs: the rows shuffled to A's buckets (B's score carried), then,
    with their A placement (``carry="placement"``) or A score (``"other"``), to B's
    buckets; ``names`` name the scores in errors; ``positions``: the rows carry their
    positions in the input (the keys of weighted rows' Poisson counts)."""
    # the four columns of each partition read together (y_true, A, B, weights)
    packed, n = packed_partitions(
        y_true=y_true, **{names[0]: score_a, names[1]: score_b}, sample_weight=sample_weight
    )
    use_weights = sample_weight is not None
    plan_a = plan_graph(packed, (0, 1, 3), pos_label, "", use_weights, names[0])
    plan_b = plan_graph(packed, (0, 2, 3), pos_label, "", use_weights, names[1])
    rows_a = [
        delayed(_rows_for_a, pure=True)(i, n, columns, plan_a, names, positions)
        for i, columns in enumerate(packed)
    ]
    job_a = shuffle_job(rows_a, plan_a, buckets.rows_meta(use_weights, ("other",), positions))
    rows_b = [
        delayed(placements.rows_for_b, pure=True)(frame, atoms, job_a.prefix, plan_b, carry)
        for frame, atoms in zip(frames_of(job_a), job_a.atoms, strict=True)
    ]
    job_b = shuffle_job(rows_b, plan_b, buckets.rows_meta(use_weights, (carry,), positions))
    return PairedJobs(job_a, job_b)


def _rows_for_a(
    index: int,
    n_partitions: int,
    columns: tuple[Any, ...],
    plan: Any,
    names: tuple[str, str],
    positions: bool,
) -> Any:
    """One packed partition's rows in A's buckets, B's score carried."""
    y_true, score_a, score_b, weights = columns
    return buckets.bucket_rows(
        index, n_partitions, y_true, score_a, weights, plan, names[0], (names[1], score_b),
        positions,
    )  # fmt: skip


def delong_test(
    y_true: Any,
    score_a: Any,
    score_b: Any,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    sample_weight: Any = None,
    pos_label: Any = None,
    compute: bool = True,
) -> Any:
    """DeLong's paired test of the AUCs of two models scored on the same rows, on Dask.

    Parameters
    ----------
    y_true : dask Series or 1-D dask array
        Binary targets.
    score_a, score_b : dask Series or 1-D dask array
        Scores of models A and B for the same rows, partitioned like ``y_true``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        The alternative about ``AUC_A - AUC_B``.
    confidence_level : float, default=0.95
        Coverage of the (two-sided) interval of ``AUC_A - AUC_B``.
    sample_weight : dask Series or 1-D dask array, default=None
        Non-negative frequency weights, partitioned like ``y_true``.
    pos_label : int, float, bool or str, default=None
        The positive class.
    compute : bool, default=True
        Compute now; False returns a ``dask.delayed`` object of the result (computed
        later, it gives no warnings).

    Returns
    -------
    TestResult or dask.delayed.Delayed
        As :func:`assay.delong_test` on the same rows: the AUCs (and so ``estimate``)
        bit for bit without weights or with integer weights; the variances and
        covariance, sums of the same terms added in another order, to rounding (1e-12
        relative), and with them the statistic, p-value and interval.

    Raises
    ------
    ValueError
        The single-machine errors; an error found in one partition names it.

    Warns
    -----
    UndefinedMetricWarning
        A single class: everything is NaN.
    DegenerateDataWarning
        As :func:`assay.delong_test`.

    Notes
    -----
    The covariance pairs each row's placement under model A with its placement under
    model B.  The rows are shuffled to model A's score buckets carrying B's score;
    there each row gets its A placement (its bucket's prefix plus the weight of the
    bucket's groups above its own, looked up in the bucket's sorted groups); the rows
    are then shuffled to B's buckets carrying that placement, get their B placement
    the same way, and each partition sums the weighted cross products of the centred
    placements.  Cost: two shuffles of the rows (the first with one extra float
    column, the second with two), a checking pass over each score column, and no
    join on a row identifier.  Formulas and references: :func:`assay.delong_test`.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> import assay.dask
    >>> frame = dd.from_pandas(pd.DataFrame({
    ...     "y": [0, 0, 1, 1, 0, 1, 0, 1],
    ...     "a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.5, 0.7],
    ...     "b": [0.2, 0.3, 0.6, 0.7, 0.1, 0.4, 0.8, 0.3]}), npartitions=3)
    >>> result = assay.dask.delong_test(frame["y"], frame["a"], frame["b"])
    >>> round(result.estimate, 4), round(result.statistic, 4), round(result.pvalue, 4)
    (0.1562, 0.6419, 0.5209)
    """
    alternative = check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    jobs = paired_jobs(y_true, score_a, score_b, sample_weight, pos_label)
    auc_a = _area(jobs.a)
    auc_b = _area(jobs.b)
    sums = [
        delayed(placements.paired_sums, pure=True)(frame, atoms, jobs.b.prefix, auc_a, auc_b)
        for frame, atoms in zip(frames_of(jobs.b), jobs.b.atoms, strict=True)
    ]
    numbers = delayed(_paired_numbers, pure=True)(
        auc_a, auc_b, sums, jobs.b.prefix, jobs.b.plan, sample_weight is not None
    )
    return deliver_result(numbers, _delong_test_result, compute, alternative, confidence_level)
