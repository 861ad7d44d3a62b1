"""Result types.

Curves are NamedTuples so they unpack like scikit-learn's tuples.  The results of the
inference functions (bootstrap intervals, comparisons, permutation tests) are frozen
dataclasses with named fields, a readable ``repr`` and ``to_dict()``; their
:class:`ConfidenceInterval` is a NamedTuple that unpacks like scipy's.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "AucCovariance",
    "BiasVarianceResult",
    "Bootstrap632Result",
    "BootstrapResult",
    "ComparisonResult",
    "ConfidenceInterval",
    "ConfusionAtThresholds",
    "CrossValidationResult",
    "DetCurve",
    "FriedmanResult",
    "IntervalResult",
    "ModelComparisonResult",
    "PermutationTestResult",
    "PosthocResult",
    "PrecisionRecallCurve",
    "RocCurve",
    "TestResult",
]


class RocCurve(NamedTuple):
    """ROC curve: ``fpr[i]``, ``tpr[i]`` for predictions ``score >= thresholds[i]``."""

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


class PrecisionRecallCurve(NamedTuple):
    """Precision-recall curve (increasing thresholds; one more point than thresholds)."""

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray


class DetCurve(NamedTuple):
    """Detection error trade-off curve: false positive and false negative rates."""

    fpr: np.ndarray
    fnr: np.ndarray
    thresholds: np.ndarray


class ConfusionAtThresholds(NamedTuple):
    """Cutoff table: the binary confusion matrix at every distinct threshold."""

    tns: np.ndarray
    fps: np.ndarray
    fns: np.ndarray
    tps: np.ndarray
    thresholds: np.ndarray


# --- Results of the inference functions (bootstrap, compare, permutation_test). ---

# Arrays in a repr show this many values at each end, then "...".
_REPR_EDGE_ITEMS = 3


class ConfidenceInterval(NamedTuple):
    """A two-sided confidence interval; unpacks like scipy's: ``low, high = interval``.

    The confidence level is not stored here but on the result that owns the interval
    (``result.confidence_level``).

    Attributes
    ----------
    low : float
        Lower bound (NaN when the interval is undefined).
    high : float
        Upper bound (NaN when the interval is undefined).
    """

    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        """The bounds as plain Python floats: ``{"low": ..., "high": ...}``."""
        return {"low": float(self.low), "high": float(self.high)}


def _format_array(values: np.ndarray) -> str:
    """One-line summary of a 1-D array: the first and last values and the shape."""
    if values.shape[0] == 0:
        return "array([], dtype=float64)"
    n = values.shape[0]
    summarised = n > 2 * _REPR_EDGE_ITEMS
    shown = (
        [*values[:_REPR_EDGE_ITEMS], None, *values[-_REPR_EDGE_ITEMS:]] if summarised else values
    )
    text = ", ".join("..." if v is None else f"{v:.6g}" for v in shown)
    return f"array([{text}], shape=({n},))" if summarised else f"array([{text}])"


def _format_field(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return _format_array(value)
    if isinstance(value, ConfidenceInterval):
        return f"ConfidenceInterval(low={value.low!r}, high={value.high!r})"
    if isinstance(value, types.MappingProxyType):
        items = ", ".join(f"{key!r}: {_format_field(item)}" for key, item in value.items())
        return "{" + items + "}"
    return repr(value)


def _plain(value: Any) -> Any:
    """``value`` as plain Python data (floats, ints, str, None, lists, dicts)."""
    if isinstance(value, ConfidenceInterval):
        return value.to_dict()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, types.MappingProxyType | dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _read_only_float_array(values: Any) -> np.ndarray:
    array = np.array(values, dtype=np.float64, copy=True).reshape(-1)
    array.flags.writeable = False
    return array


class _ResultMixin:
    """``repr`` (one field per line) and ``to_dict`` shared by the result dataclasses."""

    def __repr__(self) -> str:
        lines = [
            f"    {field.name}={_format_field(getattr(self, field.name))},"
            for field in dataclasses.fields(self)  # type: ignore[arg-type]
        ]
        return "\n".join([f"{type(self).__name__}(", *lines, ")"])

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain Python data, ready for ``json.dumps``.

        Floats stay floats (an undefined value is ``float('nan')``, which ``json.dumps``
        writes as ``NaN``), arrays become lists, the confidence interval becomes
        ``{"low": ..., "high": ...}``.
        """
        return {
            field.name: _plain(getattr(self, field.name))
            for field in dataclasses.fields(self)  # type: ignore[arg-type]
        }

    def _normalise(
        self,
        floats: tuple[str, ...] = (),
        ints: tuple[str, ...] = (),
        strings: tuple[str, ...] = (),
        arrays: tuple[str, ...] = (),
    ) -> None:
        """Store fields as plain floats/ints/str and read-only float64 arrays."""
        for name in floats:
            object.__setattr__(self, name, float(getattr(self, name)))
        for name in ints:
            object.__setattr__(self, name, int(getattr(self, name)))
        for name in strings:
            object.__setattr__(self, name, str(getattr(self, name)))
        for name in arrays:
            object.__setattr__(self, name, _read_only_float_array(getattr(self, name)))
        names = {field.name for field in dataclasses.fields(self)}  # type: ignore[arg-type]
        if "rng_seed" in names:
            seed = getattr(self, "rng_seed", None)
            object.__setattr__(self, "rng_seed", None if seed is None else int(seed))
        interval = getattr(self, "confidence_interval", None)
        if interval is not None:
            low, high = interval
            object.__setattr__(
                self, "confidence_interval", ConfidenceInterval(float(low), float(high))
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
        ``(low, high)`` interval of the difference at ``confidence_level``.
    pvalue : float
        p-value of the null hypothesis that the difference is 0, against
        ``alternative``.
    alternative : str
        ``'two-sided'`` (the difference is not 0), ``'greater'`` (A is larger) or
        ``'less'`` (A is smaller).
    method : str
        ``'bootstrap'`` (paired resamples of the rows) or ``'permutation'`` (the two
        models' predictions swapped per example).
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

    def __post_init__(self) -> None:
        self._normalise(
            floats=("estimate_a", "estimate_b", "difference", "pvalue", "confidence_level"),
            ints=("n_resamples", "n_undefined"),
            strings=("alternative", "method", "metric"),
            arrays=("resampled_differences",),
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


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _read_only_details(details: Any) -> types.MappingProxyType[str, Any]:
    """A read-only copy of ``details``; arrays in it are copied and made read-only."""
    copied = {}
    for key, value in dict(details or {}).items():
        if isinstance(value, np.ndarray):
            value = value.copy()
            value.flags.writeable = False
        copied[str(key)] = value
    return types.MappingProxyType(copied)


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
        test or the z of the source texts.
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


# --- Results of the comparisons of many models over many data sets (Friedman, post-hoc). ---


def _read_only_array(values: Any, dtype: type) -> np.ndarray:
    """A read-only copy of ``values`` with its shape kept (1-D or 2-D)."""
    array: np.ndarray = np.array(values, dtype=dtype, copy=True)
    array.flags.writeable = False
    return array


def _format_rank_field(value: Any) -> str:
    """Like ``_format_field``, but a 2-D or boolean array is shown by its shape."""
    if isinstance(value, np.ndarray) and (value.ndim != 1 or value.dtype == np.bool_):
        return f"array(shape={value.shape}, dtype={value.dtype})"
    return _format_field(value)


class _RankResultMixin(_ResultMixin):
    """``repr`` that summarises matrices; ``to_dict`` as for every result."""

    def __repr__(self) -> str:
        lines = [
            f"    {field.name}={_format_rank_field(getattr(self, field.name))},"
            for field in dataclasses.fields(self)  # type: ignore[arg-type]
        ]
        return "\n".join([f"{type(self).__name__}(", *lines, ")"])


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class FriedmanResult(_RankResultMixin):
    """Friedman test of k models over N data sets, with the Iman-Davenport F.

    Unpacks like scipy's test results: ``statistic, pvalue = result`` (the
    chi-squared statistic and its p-value).

    Attributes
    ----------
    statistic : float
        Friedman's ``chi^2_F`` (tie-corrected when ``tie_correction``; NaN when
        undefined).
    pvalue : float
        ``P(chi^2_{k-1} >= statistic)``.
    df : float
        ``k - 1``.
    iman_davenport_statistic : float
        ``F_F = (N - 1) chi^2_F / (N (k - 1) - chi^2_F)`` (NaN when undefined).
    iman_davenport_pvalue : float
        ``P(F_{k-1, (k-1)(N-1)} >= F_F)``.
    iman_davenport_df : tuple of two floats
        ``(k - 1, (k - 1)(N - 1))``.
    average_ranks : numpy.ndarray of shape (n_models,)
        ``R_j``, the mean over the data sets of each model's rank (1 = best).
    ranks : numpy.ndarray of shape (n_datasets, n_models)
        The rank of each model on each data set (midranks for ties).
    n_datasets : int
        ``N``, the number of data sets (rows).
    n_models : int
        ``k``, the number of models (columns).
    model_names : tuple of str
        The names of the models, in column order.
    higher_is_better : bool
        Whether the highest score was ranked first.
    tie_correction : bool
        Whether ``chi^2_F`` was divided by the tie correction factor.
    method : str
        ``'Friedman'`` or ``'Friedman, tie-corrected'``.

    Notes
    -----
    Frozen: fields cannot be reassigned and the arrays are read-only.  Results
    compare by identity.
    """

    statistic: float
    pvalue: float
    df: float
    iman_davenport_statistic: float
    iman_davenport_pvalue: float
    iman_davenport_df: tuple[float, float]
    average_ranks: np.ndarray
    ranks: np.ndarray
    n_datasets: int
    n_models: int
    model_names: tuple[str, ...]
    higher_is_better: bool
    tie_correction: bool
    method: str

    def __post_init__(self) -> None:
        self._normalise(
            floats=("statistic", "pvalue", "df", "iman_davenport_statistic"),
            ints=("n_datasets", "n_models"),
            strings=("method",),
            arrays=("average_ranks",),
        )
        object.__setattr__(self, "iman_davenport_pvalue", float(self.iman_davenport_pvalue))
        object.__setattr__(
            self, "iman_davenport_df", tuple(float(value) for value in self.iman_davenport_df)
        )
        object.__setattr__(self, "ranks", _read_only_array(self.ranks, np.float64))
        object.__setattr__(self, "model_names", tuple(str(name) for name in self.model_names))
        object.__setattr__(self, "higher_is_better", bool(self.higher_is_better))
        object.__setattr__(self, "tie_correction", bool(self.tie_correction))

    def __iter__(self) -> Iterator[float]:
        """``statistic, pvalue = result``, as with scipy's test results."""
        return iter((self.statistic, self.pvalue))


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class PosthocResult(_RankResultMixin):
    """Post-hoc comparison of average ranks: Nemenyi (all pairs) or Bonferroni-Dunn.

    For ``method='nemenyi'`` the comparison fields are (k, k) matrices indexed by
    pairs of models; for ``method='bonferroni-dunn'`` they are (k,) vectors, entry
    ``j`` comparing model ``j`` with the control.  Entries that are no comparison
    (the diagonal, the control itself) are NaN (False in boolean fields).

    Attributes
    ----------
    method : str
        ``'nemenyi'`` or ``'bonferroni-dunn'``.
    alpha : float
        Family-wise significance level.
    average_ranks : numpy.ndarray of shape (n_models,)
        Average rank of each model (1 = best).
    model_names : tuple of str
        The names of the models, in column order.
    n_datasets : int
        ``N``, the number of data sets.
    n_models : int
        ``k``, the number of models.
    control : int or None
        Index of the control model (Bonferroni-Dunn), None for Nemenyi.
    critical_value : float
        ``q_alpha``: the studentized range quantile over ``sqrt(2)`` (Nemenyi) or the
        normal quantile ``z_{1 - alpha / (2 (k - 1))}`` (Bonferroni-Dunn).
    standard_error : float
        ``sqrt(k (k + 1) / (6 N))``, the standard error of a difference of average
        ranks.
    critical_difference : float
        ``CD = critical_value * standard_error``.
    z_statistic : numpy.ndarray
        Nemenyi: ``(R_i - R_j) / SE`` at ``[i, j]``; Bonferroni-Dunn:
        ``(R_control - R_j) / SE`` at ``[j]`` (positive when ``j`` ranks better).
    pvalues : numpy.ndarray
        Unadjusted two-sided normal p-values ``2 P(Z >= |z|)`` of each comparison.
    adjusted_pvalues : numpy.ndarray
        Family-wise adjusted p-values: the studentized range p-value of
        ``|z| sqrt(2)`` (Nemenyi) or ``min(1, (k - 1) p)`` (Bonferroni-Dunn).
    significant : numpy.ndarray of bool
        ``|R_i - R_j| >= critical_difference`` (equivalently, adjusted p-value
        ``<= alpha``).
    significant_pairs : tuple of (int, int)
        The significant comparisons as ``(i, j)`` pairs with ``i < j``.
    cliques : tuple of tuple of int or None
        Nemenyi: the maximal groups of models (ordered by average rank, best first)
        in which no two differ significantly, each of two or more models (the bars
        of a critical difference diagram).  None for Bonferroni-Dunn.
    holm_adjusted_pvalues : numpy.ndarray or None
        Bonferroni-Dunn only: Holm's step-down adjusted p-values of the ``k - 1``
        comparisons with the control (Demsar 2006, section 3.2.2).
    holm_significant : numpy.ndarray of bool or None
        Bonferroni-Dunn only: ``holm_adjusted_pvalues <= alpha``.
    higher_is_better : bool
        Whether the highest score was ranked first.

    Notes
    -----
    Frozen: fields cannot be reassigned and the arrays are read-only.  Results
    compare by identity.
    """

    method: str
    alpha: float
    average_ranks: np.ndarray
    model_names: tuple[str, ...]
    n_datasets: int
    n_models: int
    control: int | None
    critical_value: float
    standard_error: float
    critical_difference: float
    z_statistic: np.ndarray
    pvalues: np.ndarray
    adjusted_pvalues: np.ndarray
    significant: np.ndarray
    significant_pairs: tuple[tuple[int, int], ...]
    cliques: tuple[tuple[int, ...], ...] | None
    holm_adjusted_pvalues: np.ndarray | None
    holm_significant: np.ndarray | None
    higher_is_better: bool

    def __post_init__(self) -> None:
        self._normalise(
            floats=("alpha", "critical_value", "standard_error", "critical_difference"),
            ints=("n_datasets", "n_models"),
            strings=("method",),
            arrays=("average_ranks",),
        )
        for name in ("z_statistic", "pvalues", "adjusted_pvalues"):
            object.__setattr__(self, name, _read_only_array(getattr(self, name), np.float64))
        object.__setattr__(self, "significant", _read_only_array(self.significant, np.bool_))
        if self.holm_adjusted_pvalues is not None:
            object.__setattr__(
                self,
                "holm_adjusted_pvalues",
                _read_only_array(self.holm_adjusted_pvalues, np.float64),
            )
        if self.holm_significant is not None:
            object.__setattr__(
                self, "holm_significant", _read_only_array(self.holm_significant, np.bool_)
            )
        object.__setattr__(self, "model_names", tuple(str(name) for name in self.model_names))
        object.__setattr__(self, "control", None if self.control is None else int(self.control))
        object.__setattr__(
            self,
            "significant_pairs",
            tuple((int(i), int(j)) for i, j in self.significant_pairs),
        )
        if self.cliques is not None:
            object.__setattr__(
                self,
                "cliques",
                tuple(tuple(int(member) for member in clique) for clique in self.cliques),
            )
        object.__setattr__(self, "higher_is_better", bool(self.higher_is_better))


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


# --- Result of decompose (bias-variance decomposition of a prediction matrix). ---


def _optional_read_only_array(values: Any) -> np.ndarray | None:
    return None if values is None else _read_only_float_array(values)


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class BiasVarianceResult(_ResultMixin):
    """Bias-variance decomposition of the predictions of many models at the same points.

    Every per-point array has shape ``(n_points,)``; the ``average_*`` fields are their
    means over the points.  The terms are those of Domingos (2000); see
    :func:`assay.decompose` for what is decomposed under each loss.

    Attributes
    ----------
    loss : str
        ``'squared'``, ``'zero_one'`` or ``'absolute'``.
    target : str
        What the bias is measured against: ``'truth'`` (the true function ``F``, or the
        Bayes-optimal label) or ``'y_true'`` (the observed labels).
    main_prediction : numpy.ndarray
        The main prediction at each point: the mean (squared loss), the median
        (absolute loss) or the mode (zero-one loss) over the rounds.
    expected_loss : numpy.ndarray
        The decomposed loss at each point (see :func:`assay.decompose`).
    bias : numpy.ndarray
        ``L(target, main_prediction)``: the squared bias for squared loss, 0 or 1 for
        zero-one loss.
    variance : numpy.ndarray
        ``E_D[L(main_prediction, f)]`` over the rounds (divisor ``n_rounds``).
    noise : numpy.ndarray
        ``E_t[L(t, target)]``: given, estimated from ``y_true``, or 0 (see
        :func:`assay.decompose`).
    net_variance : numpy.ndarray
        The variance's contribution to the loss: ``variance`` (squared loss),
        ``c2 * variance`` (zero-one loss), ``expected_loss - bias`` (absolute loss).
    unbiased_variance, biased_variance : numpy.ndarray or None
        Zero-one loss only: the variance where the main prediction is right
        (``bias == 0``) or wrong (``bias == 1``), 0 elsewhere.
    noise_coefficient, variance_coefficient : numpy.ndarray or None
        Zero-one loss only: Domingos' ``c1`` and ``c2``, so that
        ``expected_loss == noise_coefficient * noise + bias + variance_coefficient * variance``.
    observed_loss : numpy.ndarray or None
        ``E_D[L(y_true, f)]``, the mean loss over the rounds against the observed
        labels (None when ``y_true`` was not given).
    average_expected_loss, average_bias, average_variance, average_noise : float
        Means over the points.
    average_net_variance : float
        Mean of ``net_variance``.
    average_unbiased_variance, average_biased_variance : float or None
        Means of the zero-one variance parts (None for other losses).
    average_observed_loss : float or None
        Mean of ``observed_loss`` (None without ``y_true``).
    n_rounds : int
        Number of rounds (models, rows of the prediction matrix).
    n_points : int
        Number of test points (columns of the prediction matrix).

    Notes
    -----
    Frozen: fields cannot be reassigned and the arrays are read-only.  Results compare
    by identity.

    References
    ----------
    P. Domingos, "A unified bias-variance decomposition and its applications",
    Proceedings of the 17th International Conference on Machine Learning (2000).
    """

    loss: str
    target: str
    main_prediction: np.ndarray
    expected_loss: np.ndarray
    bias: np.ndarray
    variance: np.ndarray
    noise: np.ndarray
    net_variance: np.ndarray
    unbiased_variance: np.ndarray | None
    biased_variance: np.ndarray | None
    noise_coefficient: np.ndarray | None
    variance_coefficient: np.ndarray | None
    observed_loss: np.ndarray | None
    average_expected_loss: float
    average_bias: float
    average_variance: float
    average_noise: float
    average_net_variance: float
    average_unbiased_variance: float | None
    average_biased_variance: float | None
    average_observed_loss: float | None
    n_rounds: int
    n_points: int

    def __post_init__(self) -> None:
        self._normalise(
            floats=(
                "average_expected_loss",
                "average_bias",
                "average_variance",
                "average_noise",
                "average_net_variance",
            ),
            ints=("n_rounds", "n_points"),
            strings=("loss", "target"),
            arrays=(
                "main_prediction",
                "expected_loss",
                "bias",
                "variance",
                "noise",
                "net_variance",
            ),
        )
        for name in (
            "unbiased_variance",
            "biased_variance",
            "noise_coefficient",
            "variance_coefficient",
            "observed_loss",
        ):
            object.__setattr__(self, name, _optional_read_only_array(getattr(self, name)))
        for name in (
            "average_unbiased_variance",
            "average_biased_variance",
            "average_observed_loss",
        ):
            object.__setattr__(self, name, _optional_float(getattr(self, name)))


# --- Results of cross-validation (assay.protocols.cross_validate, compare_models). ---


def _read_only_mapping(values: Any, convert: Any) -> types.MappingProxyType[str, Any]:
    return types.MappingProxyType({str(key): convert(value) for key, value in values.items()})


def _read_only_any_array(values: Any, dtype: Any = None) -> np.ndarray:
    array = np.array(values, dtype=dtype, copy=True)
    array.flags.writeable = False
    return array


def _optional_any_array(values: Any) -> np.ndarray | None:
    return None if values is None else _read_only_any_array(values)


def _format_cv_field(value: Any) -> str:
    """Like ``_format_field``, but any array that is not 1-D float is shown by shape."""
    if isinstance(value, np.ndarray) and (value.ndim != 1 or value.dtype.kind not in "iuf"):
        return f"array(shape={value.shape}, dtype={value.dtype})"
    if isinstance(value, types.MappingProxyType) and any(
        isinstance(item, _ResultMixin) for item in value.values()
    ):
        items = ", ".join(
            f"{key!r}: {type(item).__name__}(estimate={item.estimate!r}, "
            f"confidence_interval={_format_field(item.confidence_interval)})"
            for key, item in value.items()
        )
        return "{" + items + "}"
    if isinstance(value, TestResult):
        return f"TestResult(statistic={value.statistic!r}, pvalue={value.pvalue!r}, ...)"
    if isinstance(value, _ResultMixin):
        return f"{type(value).__name__}(...)"
    return _format_field(value)


def _plain_cv(value: Any) -> Any:
    """``_plain``, extended to nested results (their ``to_dict``) inside mappings."""
    if isinstance(value, _ResultMixin):
        return value.to_dict()
    if isinstance(value, types.MappingProxyType | dict):
        return {key: _plain_cv(item) for key, item in value.items()}
    return _plain(value)


class _CrossValidationReprMixin(_ResultMixin):
    """One field per line, with 2-D and label arrays summarised by their shape;
    ``to_dict`` converts the nested results too."""

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain Python data, nested results included (``json.dumps``-ready)."""
        return {
            field.name: _plain_cv(getattr(self, field.name))
            for field in dataclasses.fields(self)  # type: ignore[arg-type]
        }

    def __repr__(self) -> str:
        lines = [
            f"    {field.name}={_format_cv_field(getattr(self, field.name))},"
            for field in dataclasses.fields(self)  # type: ignore[arg-type]
        ]
        return "\n".join([f"{type(self).__name__}(", *lines, ")"])


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class CrossValidationResult(_CrossValidationReprMixin):
    """Per-split scores, their summary, and the pooled out-of-fold predictions.

    Returned by :func:`assay.protocols.cross_validate`.

    Attributes
    ----------
    metrics : tuple of str
        Names of the metrics, in the order asked for.
    scores : mapping of str to numpy.ndarray
        Per metric, the score on every split (in the order of the splits).
    mean : mapping of str to float
        Per metric, the mean over the splits (source 000, eq. 9).
    std : mapping of str to float
        Per metric, the sample standard deviation over the splits (``ddof=1``).
    interval : mapping of str to IntervalResult
        Per metric, the t interval of the mean (:func:`assay.mean_ci`): it treats the
        splits' scores as independent, which they are not (see
        :func:`~assay.protocols.cross_validate`).
    corrected_interval : mapping of str to IntervalResult
        Per metric, the same interval with Nadeau & Bengio's variance factor
        ``1 / J + n_test / n_train`` in place of ``1 / J``.
    confidence_level : float
        Nominal coverage of both intervals.
    n_train, n_test : numpy.ndarray of int64
        Training and test rows of every split.
    fit_time, score_time : numpy.ndarray
        Seconds spent fitting, and predicting plus scoring, on every split.
    oof_pred : numpy.ndarray of shape (n_rounds, n_samples)
        Out-of-fold predictions, pooled per round: row ``r`` holds, for every sample
        tested in round ``r``, the prediction of the model that did not see it.
    oof_score : numpy.ndarray of shape (n_rounds, n_samples) or None
        The same for the continuous scores (decision function or probability of the
        positive class), when they were computed; NaN where ``oof_fold`` is -1.
    oof_fold : numpy.ndarray of int64, shape (n_rounds, n_samples)
        The split whose test set holds the sample in that round; -1 where the sample
        was not tested in that round (its ``oof_pred`` entry is then meaningless).
    rng_seed : int or None
        Seed of the splitter that assay made or was given (None when the splits
        carry no seed, e.g. an explicit list of splits or ``KFold`` without shuffling).
    """

    metrics: tuple[str, ...]
    scores: types.MappingProxyType[str, np.ndarray]
    mean: types.MappingProxyType[str, float]
    std: types.MappingProxyType[str, float]
    interval: types.MappingProxyType[str, IntervalResult]
    corrected_interval: types.MappingProxyType[str, IntervalResult]
    confidence_level: float
    n_train: np.ndarray
    n_test: np.ndarray
    fit_time: np.ndarray
    score_time: np.ndarray
    oof_pred: np.ndarray
    oof_score: np.ndarray | None
    oof_fold: np.ndarray
    rng_seed: int | None = None

    def __post_init__(self) -> None:
        self._normalise(floats=("confidence_level",), arrays=("fit_time", "score_time"))
        object.__setattr__(self, "metrics", tuple(str(name) for name in self.metrics))
        object.__setattr__(self, "scores", _read_only_mapping(self.scores, _read_only_float_array))
        object.__setattr__(self, "mean", _read_only_mapping(self.mean, float))
        object.__setattr__(self, "std", _read_only_mapping(self.std, float))
        for name in ("interval", "corrected_interval"):
            object.__setattr__(self, name, _read_only_mapping(getattr(self, name), lambda v: v))
        for name in ("n_train", "n_test", "oof_fold"):
            object.__setattr__(self, name, _read_only_any_array(getattr(self, name), np.int64))
        object.__setattr__(self, "oof_pred", _read_only_any_array(self.oof_pred))
        object.__setattr__(self, "oof_score", _optional_any_array(self.oof_score))

    @property
    def n_splits(self) -> int:
        """Number of splits (train/test pairs) evaluated."""
        return int(self.n_test.shape[0])


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class ModelComparisonResult(_CrossValidationReprMixin):
    """Two models scored on the same splits, and the tests of their difference.

    Returned by :func:`assay.protocols.compare_models`.

    Attributes
    ----------
    metric : str
        The metric compared.
    greater_is_better : bool or None
        Whether a larger value of the metric is better (None for a callable metric
        that does not say).
    scores_a, scores_b : numpy.ndarray
        The metric of model A and model B on every split.
    differences : numpy.ndarray
        ``scores_a - scores_b``, split by split.
    paired_ttest : TestResult
        :func:`assay.paired_ttest` on the split scores (it ignores the overlap of the
        training sets; its type-I error is inflated for cross-validation).
    corrected_ttest : TestResult
        :func:`assay.corrected_resampled_ttest` with the mean training and test sizes.
    ttest_5x2cv, ftest_5x2cv : TestResult or None
        Dietterich's 5x2cv t-test and Alpaydin's F-test, when the splits are five
        repeats of 2-fold cross-validation; None otherwise.
    n_train, n_test : numpy.ndarray of int64
        Training and test rows of every split.
    result_a, result_b : CrossValidationResult
        The full cross-validation of each model.
    """

    metric: str
    greater_is_better: bool | None
    scores_a: np.ndarray
    scores_b: np.ndarray
    differences: np.ndarray
    paired_ttest: TestResult
    corrected_ttest: TestResult
    ttest_5x2cv: TestResult | None
    ftest_5x2cv: TestResult | None
    n_train: np.ndarray
    n_test: np.ndarray
    result_a: CrossValidationResult
    result_b: CrossValidationResult

    def __post_init__(self) -> None:
        self._normalise(strings=("metric",), arrays=("scores_a", "scores_b", "differences"))
        for name in ("n_train", "n_test"):
            object.__setattr__(self, name, _read_only_any_array(getattr(self, name), np.int64))


# --- Result of bootstrap_632 (bootstrap estimators of the prediction error). ---


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class Bootstrap632Result(_ResultMixin):
    """Bootstrap estimate of a model's prediction error: leave-one-out, .632 or .632+.

    Attributes
    ----------
    estimate : float
        The estimate of ``method``.
    method : str
        ``'oob'`` (the leave-one-out bootstrap ``Err^(1)``), ``'.632'`` or ``'.632+'``.
    loss : str
        Name of the loss (``'zero_one'``, ``'squared'``, ``'absolute'`` or the name of a
        callable).
    training_error : float
        ``err``, the resubstitution error of the model fitted on all rows.
    oob_error : float
        ``Err^(1)``: the mean over the rows of each row's mean loss over the resamples
        that left it out (rows never left out are skipped).
    no_information_error : float or None
        ``gamma``, the error expected if labels and predictions were independent
        (``'.632+'`` only, else None).
    relative_overfitting_rate : float or None
        ``R'`` in [0, 1] (``'.632+'`` only, else None).
    weight : float
        The weight ``w`` of ``Err^(1)``: 1 (``'oob'``), 0.632 (``'.632'``),
        ``0.632 / (1 - 0.368 R')`` (``'.632+'``).
    oob_errors : numpy.ndarray of shape (n_resamples,)
        Each resample's mean loss on its out-of-bag rows (NaN for a resample that left
        no row out).  Read-only.
    n_resamples : int
        Number of bootstrap resamples.
    n_samples : int
        Number of rows.
    n_never_oob : int
        Number of rows that no resample left out (skipped by ``Err^(1)``).
    rng_seed : int or None
        The seed the resamples were drawn from.

    Notes
    -----
    Frozen: fields cannot be reassigned and the array is read-only.  Results compare
    by identity.

    References
    ----------
    B. Efron and R. Tibshirani, "Improvements on cross-validation: the .632+ bootstrap
    method", Journal of the American Statistical Association 92, 548-560 (1997).
    """

    estimate: float
    method: str
    loss: str
    training_error: float
    oob_error: float
    no_information_error: float | None
    relative_overfitting_rate: float | None
    weight: float
    oob_errors: np.ndarray
    n_resamples: int
    n_samples: int
    n_never_oob: int
    rng_seed: int | None

    def __post_init__(self) -> None:
        self._normalise(
            floats=("estimate", "training_error", "oob_error", "weight"),
            ints=("n_resamples", "n_samples", "n_never_oob"),
            strings=("method", "loss"),
            arrays=("oob_errors",),
        )
        for name in ("no_information_error", "relative_overfitting_rate"):
            object.__setattr__(self, name, _optional_float(getattr(self, name)))
