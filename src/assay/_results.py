"""Result types.

Curves are NamedTuples so they unpack like scikit-learn's tuples.  The results of the
inference functions (bootstrap intervals, comparisons, permutation tests) are frozen
dataclasses with named fields, a readable ``repr`` and ``to_dict()``; their
:class:`ConfidenceInterval` is a NamedTuple that unpacks like scipy's.
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "BootstrapResult",
    "ComparisonResult",
    "ConfidenceInterval",
    "ConfusionAtThresholds",
    "DetCurve",
    "PermutationTestResult",
    "PrecisionRecallCurve",
    "RocCurve",
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
    return repr(value)


def _plain(value: Any) -> Any:
    """``value`` as plain Python data (floats, ints, str, None, lists, dicts)."""
    if isinstance(value, ConfidenceInterval):
        return value.to_dict()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
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
