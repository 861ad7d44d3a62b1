"""Results of the inference functions (bootstrap, comparisons, tests, intervals, DeLong)."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Iterator
from typing import Any

import numpy as np

from assay._results import _summary
from assay._results._base import (
    ConfidenceInterval,
    _format_field,
    _optional_float,
    _read_only_details,
    _ResultMixin,
)


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class BootstrapResult(_ResultMixin):
    """Bootstrap estimate, standard error, bias and confidence interval of a metric.

    Attributes
    ----------
    estimate : float
        The metric on the original data.
    confidence_interval : ConfidenceInterval
        ``(low, high)`` at ``confidence_level``, by ``method``.
    standard_error : float
        Standard deviation (``ddof=1``) of the defined bootstrap replicates.
    bias : float
        Mean of the defined bootstrap replicates minus ``estimate``
        (Efron & Tibshirani 1993, ch. 10).
    bootstrap_distribution : numpy.ndarray of shape (n_resamples - n_undefined,)
        The replicate values of the metric, **defined replicates only**: replicates in
        which the metric was undefined (for example a resample without positives) are
        left out and counted in ``n_undefined``.  Read-only.
    method : str
        How the interval was computed: ``'percentile'``, ``'basic'`` or ``'bca'``
        (``'percentile'`` when a BCa interval was degenerate and fell back, with a
        warning).
    confidence_level : float
        Nominal coverage of the interval, in (0, 1).
    n_resamples : int
        Number of bootstrap replicates drawn, defined or not.
    n_undefined : int
        Number of replicates in which the metric was undefined (NaN).
    rng_seed : int or None
        The seed the replicates were drawn from; the same seed reproduces them.
    metric : str
        Name of the metric.

    Notes
    -----
    Frozen: fields cannot be reassigned and the array is read-only.  Results compare
    by identity (``==`` is ``is``), since they hold arrays.

    References
    ----------
    B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap*, Chapman & Hall
    (1993).

    Examples
    --------
    >>> from assay._results import BootstrapResult
    >>> result = BootstrapResult(
    ...     estimate=0.75, confidence_interval=(0.6, 0.9), standard_error=0.08, bias=0.01,
    ...     bootstrap_distribution=[0.7, 0.8, 0.76], method="percentile",
    ...     confidence_level=0.95, n_resamples=4, n_undefined=1, rng_seed=7,
    ...     metric="roc_auc_score")
    >>> low, high = result.confidence_interval
    >>> result.to_dict()["confidence_interval"]
    {'low': 0.6, 'high': 0.9}
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    standard_error: float
    bias: float
    bootstrap_distribution: np.ndarray
    method: str
    confidence_level: float
    n_resamples: int
    n_undefined: int
    rng_seed: int | None
    metric: str

    def __post_init__(self) -> None:
        self._normalise(
            floats=("estimate", "standard_error", "bias", "confidence_level"),
            ints=("n_resamples", "n_undefined"),
            strings=("method", "metric"),
            arrays=("bootstrap_distribution",),
        )

    def __str__(self) -> str:
        """``ROC AUC 0.9965 [0.9911, 0.9995] (95% BCa bootstrap, 2000 resamples)``."""
        undefined = f", {self.n_undefined} undefined" if self.n_undefined else ""
        return (
            f"{_summary.metric_name(self.metric)} {_summary.value(self.estimate)}"
            f"{_summary.interval(self.confidence_interval) or ' [undefined]'} "
            f"({_summary.level(self.confidence_level)} "
            f"{_summary.bootstrap_method(self.method)} bootstrap, "
            f"{self.n_resamples} resamples{undefined})"
        )


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class ComparisonResult(_ResultMixin):
    """Paired comparison of two models on one metric: ``difference = estimate_a - estimate_b``.

    Attributes
    ----------
    estimate_a : float
        The metric of model A on the original data.
    estimate_b : float
        The metric of model B on the original data.
    difference : float
        ``estimate_a - estimate_b``.
    confidence_interval : ConfidenceInterval
        ``(low, high)`` interval of the difference at ``confidence_level``: two-sided,
        or one-sided for a one-sided ``alternative`` (``high`` or ``low`` is then the
        end of the range of the difference).  NaN for the permutation test.
    pvalue : float
        p-value of the null hypothesis that the difference is 0, against
        ``alternative``.  For the bootstrap it inverts ``confidence_interval``:
        ``pvalue < 1 - confidence_level`` exactly when the interval excludes 0.
    alternative : str
        ``'two-sided'`` (the difference is not 0), ``'greater'`` (A is larger) or
        ``'less'`` (A is smaller).
    method : str
        ``'bootstrap'`` (paired resamples of the rows) or ``'permutation'`` (the two
        models' predictions, or for a ranking metric their midranks, swapped per
        example).
    interval : str or None
        The bootstrap interval that gave ``confidence_interval`` and ``pvalue``:
        ``'percentile'``, ``'basic'`` or ``'bca'`` (``'percentile'`` when BCa was asked
        for but is undefined on the data, with a warning); None for the permutation
        test.
    confidence_level : float
        Nominal coverage of the interval, in (0, 1).
    n_resamples : int
        Number of resamples (or permutations) drawn, defined or not.
    n_undefined : int
        Number of resamples in which the difference was undefined (NaN).
    rng_seed : int or None
        The seed the resamples were drawn from (None for an exact enumeration).
    metric : str
        Name of the metric.
    resampled_differences : numpy.ndarray of shape (n_resamples - n_undefined,)
        The difference ``A - B`` in each resample, **defined resamples only**: for
        ``method='bootstrap'`` its bootstrap distribution, for ``method='permutation'``
        its null distribution.  Read-only.

    Notes
    -----
    Frozen: fields cannot be reassigned and the array is read-only.  Results compare
    by identity.
    """

    estimate_a: float
    estimate_b: float
    difference: float
    confidence_interval: ConfidenceInterval
    pvalue: float
    alternative: str
    method: str
    confidence_level: float
    n_resamples: int
    n_undefined: int
    rng_seed: int | None
    metric: str
    resampled_differences: np.ndarray
    interval: str | None = None

    def __post_init__(self) -> None:
        self._normalise(
            floats=("estimate_a", "estimate_b", "difference", "pvalue", "confidence_level"),
            ints=("n_resamples", "n_undefined"),
            strings=("alternative", "method", "metric"),
            arrays=("resampled_differences",),
        )
        if self.interval is not None:
            object.__setattr__(self, "interval", str(self.interval))

    def __str__(self) -> str:
        """``ROC AUC, A - B: 0.9100 - 0.8800 = 0.0300 [0.0050, 0.0550], p = 0.021
        (95% paired bootstrap, 2000 resamples)``."""
        undefined = f", {self.n_undefined} undefined" if self.n_undefined else ""
        shown_interval = _summary.interval(self.confidence_interval)
        shown_level = f"{_summary.level(self.confidence_level)} " if shown_interval else ""
        shown_method = (
            f"{_summary.bootstrap_method(self.interval)} "
            if shown_interval and self.interval is not None
            else ""
        )
        return (
            f"{_summary.metric_name(self.metric)}, A - B: {_summary.value(self.estimate_a)} - "
            f"{_summary.value(self.estimate_b)} = {_summary.value(self.difference)}"
            f"{shown_interval}, p = {_summary.short(self.pvalue)} "
            f"({_summary.alternative(self.alternative, '; ')}{shown_level}{shown_method}paired "
            f"{self.method}, {self.n_resamples} resamples{undefined})"
        )


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class PermutationTestResult(_ResultMixin):
    """Permutation test of a metric against chance (labels permuted).

    Attributes
    ----------
    statistic : float
        The metric on the original data.
    pvalue : float
        ``(count + 1) / (n_resamples + 1)`` for random permutations (Phipson & Smyth
        2010), ``count / n_resamples`` for an exact enumeration, where ``count`` is the
        number of null values at least as extreme as ``statistic``.
    alternative : str
        ``'greater'`` (better than chance means larger), ``'less'`` or
        ``'two-sided'`` (twice the smaller one-sided p-value, at most 1; the
        convention of ``scipy.stats.permutation_test``).
    null_distribution : numpy.ndarray of shape (n_resamples,)
        The metric under each permutation.  Read-only.
    n_resamples : int
        Number of permutations: drawn at random, or all distinct ones when ``exact``.
    exact : bool
        True when every distinct permutation was enumerated.
    rng_seed : int or None
        The seed the permutations were drawn from (None when ``exact``).
    metric : str
        Name of the metric.

    Notes
    -----
    Frozen: fields cannot be reassigned and the array is read-only.  Results compare
    by identity.

    References
    ----------
    B. Phipson and G. K. Smyth, "Permutation p-values should never be zero",
    Statistical Applications in Genetics and Molecular Biology 9 (2010).
    """

    statistic: float
    pvalue: float
    alternative: str
    null_distribution: np.ndarray
    n_resamples: int
    exact: bool
    rng_seed: int | None
    metric: str

    def __post_init__(self) -> None:
        self._normalise(
            floats=("statistic", "pvalue"),
            ints=("n_resamples",),
            strings=("alternative", "metric"),
            arrays=("null_distribution",),
        )
        object.__setattr__(self, "exact", bool(self.exact))

    def __str__(self) -> str:
        """``Permutation test of accuracy: 0.7000, p = 0.001 (one-sided, greater;
        9999 random permutations)``."""
        kind = "exact" if self.exact else "random"
        return (
            f"Permutation test of {_summary.metric_name(self.metric)}: "
            f"{_summary.value(self.statistic)}, p = {_summary.short(self.pvalue)} "
            f"({_summary.alternative(self.alternative, '; ')}"
            f"{self.n_resamples} {kind} permutations)"
        )


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class IntervalResult(_ResultMixin):
    """A point estimate with its confidence interval (no resampling involved).

    Returned by the analytic interval functions (``proportion_ci``, ``difference_ci``,
    ``mean_ci``, ``auc_ci``).

    Attributes
    ----------
    estimate : float
        The point estimate (a proportion, a difference of proportions, a mean, an AUC).
    confidence_interval : ConfidenceInterval
        ``(low, high)`` at ``confidence_level``.
    standard_error : float
        Standard error of the estimate used by the interval (NaN when the method uses
        none, e.g. an exact interval).
    confidence_level : float
        Nominal coverage, in (0, 1).
    method : str
        How the interval was computed, e.g. ``'wilson'`` or ``'delong'``.
    n : int or None
        The number of observations behind the estimate (trials, folds, rows).
    details : mapping
        Method-specific extra values (read-only), e.g. degrees of freedom.
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    standard_error: float
    confidence_level: float
    method: str
    n: int | None = None
    details: types.MappingProxyType[str, Any] = dataclasses.field(
        default_factory=lambda: types.MappingProxyType({})
    )

    def __post_init__(self) -> None:
        self._normalise(
            floats=("estimate", "standard_error", "confidence_level"),
            strings=("method",),
        )
        object.__setattr__(self, "n", None if self.n is None else int(self.n))
        object.__setattr__(self, "details", _read_only_details(self.details))

    def __str__(self) -> str:
        """``0.7500 [0.5313, 0.8881] (95% Wilson interval, n = 20)``."""
        n = "" if self.n is None else f", n = {self.n}"
        return (
            f"{_summary.value(self.estimate)}"
            f"{_summary.interval(self.confidence_interval) or ' [undefined]'} "
            f"({_summary.level(self.confidence_level)} "
            f"{_summary.interval_method(self.method)} interval{n})"
        )


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class TestResult(_ResultMixin):
    """The result of a hypothesis test; unpacks like scipy's: ``statistic, pvalue = result``.

    Attributes
    ----------
    statistic : float
        The test statistic (t, z, chi-squared, F, W, ...; see ``method``).
    pvalue : float
        p-value against ``alternative``.
    df : float, tuple of two floats, or None
        Degrees of freedom of the reference distribution (two for an F distribution;
        None when the reference distribution has none, e.g. normal or exact).
    alternative : str
        ``'two-sided'``, ``'greater'`` or ``'less'``.
    method : str
        The test and its variant, e.g. ``'paired t-test'`` or ``'McNemar, exact'``.
    estimate : float or None
        The estimated effect (a mean difference, a difference of AUCs), when the test
        has one.
    confidence_interval : ConfidenceInterval or None
        Interval of ``estimate`` at ``confidence_level``, where one exists.
    confidence_level : float or None
        Nominal coverage of ``confidence_interval``.
    standard_error : float or None
        Standard error of ``estimate``, when the test uses one.
    details : mapping
        Test-specific extra values (read-only), e.g. the discordant counts of McNemar's
        test or the z of the "Estimation of the hypothesis real risk" notes.
    """

    __test__ = False  # not a pytest test class, despite its name

    statistic: float
    pvalue: float
    df: float | tuple[float, float] | None
    alternative: str
    method: str
    estimate: float | None = None
    confidence_interval: ConfidenceInterval | None = None
    confidence_level: float | None = None
    standard_error: float | None = None
    details: types.MappingProxyType[str, Any] = dataclasses.field(
        default_factory=lambda: types.MappingProxyType({})
    )

    def __post_init__(self) -> None:
        self._normalise(floats=("statistic", "pvalue"), strings=("alternative", "method"))
        if isinstance(self.df, tuple):
            object.__setattr__(self, "df", tuple(float(value) for value in self.df))
        else:
            object.__setattr__(self, "df", _optional_float(self.df))
        for name in ("estimate", "confidence_level", "standard_error"):
            object.__setattr__(self, name, _optional_float(getattr(self, name)))
        object.__setattr__(self, "details", _read_only_details(self.details))

    def __iter__(self) -> Iterator[float]:
        """``statistic, pvalue = result``, as with scipy's test results."""
        return iter((self.statistic, self.pvalue))

    def __str__(self) -> str:
        """``DeLong's test for two correlated ROC curves: z = 1.56, p = 0.119;
        estimate 0.0300 [-0.0077, 0.0677] (95%)``."""
        text = (
            f"{self.method}: {_summary.statistic_symbol(self.method, self.df)} = "
            f"{_summary.short(self.statistic)}, p = {_summary.short(self.pvalue)}"
        )
        if self.alternative != "two-sided":
            text += f" ({_summary.alternative(self.alternative)})"
        if self.estimate is not None:
            text += f"; estimate {_summary.value(self.estimate)}"
            shown_interval = _summary.interval(self.confidence_interval)
            if shown_interval:
                text += f"{shown_interval} ({_summary.level(self.confidence_level)})"
        return text


# --- Result of delong_covariance (AUCs of k models on one test set and their covariance). ---


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class AucCovariance(_ResultMixin):
    """AUCs of k models scored on one test set and the covariance matrix of the estimates.

    Unpacks as ``aucs, covariance = result``.

    Attributes
    ----------
    aucs : numpy.ndarray of shape (k,)
        The ROC AUC of each model (read-only).
    covariance : numpy.ndarray of shape (k, k)
        DeLong's estimate of the covariance matrix of ``aucs`` (read-only; NaN when
        it is undefined).
    n_positive : float
        Number of positive rows (their total weight with ``sample_weight``).
    n_negative : float
        Number of negative rows (their total weight with ``sample_weight``).
    method : str
        ``'delong'``.
    """

    aucs: np.ndarray
    covariance: np.ndarray
    n_positive: float
    n_negative: float
    method: str = "delong"

    def __post_init__(self) -> None:
        self._normalise(floats=("n_positive", "n_negative"), strings=("method",), arrays=("aucs",))
        covariance = np.array(self.covariance, dtype=np.float64, copy=True)
        k = self.aucs.shape[0]
        covariance = covariance.reshape(k, k)
        covariance.flags.writeable = False
        object.__setattr__(self, "covariance", covariance)

    def __iter__(self) -> Iterator[np.ndarray]:
        """``aucs, covariance = result``."""
        return iter((self.aucs, self.covariance))

    def __str__(self) -> str:
        """``DeLong covariance of 3 ROC AUCs (0.9100, 0.8800, 0.8500; 120 positives,
        80 negatives)``."""
        aucs = ", ".join(_summary.value(auc) for auc in self.aucs)
        return (
            f"DeLong covariance of {self.aucs.shape[0]} ROC AUCs ({aucs}; "
            f"{_summary.count(self.n_positive)} positives, "
            f"{_summary.count(self.n_negative)} negatives)"
        )

    def __repr__(self) -> str:
        rows = ", ".join(
            "[" + ", ".join(f"{value:.6g}" for value in row) + "]" for row in self.covariance
        )
        lines = [
            f"    aucs={_format_field(self.aucs)},",
            f"    covariance=array([{rows}]),",
            f"    n_positive={self.n_positive!r},",
            f"    n_negative={self.n_negative!r},",
            f"    method={self.method!r},",
        ]
        return "\n".join([f"{type(self).__name__}(", *lines, ")"])
