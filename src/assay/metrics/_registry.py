"""One registry of metrics: what each public metric is computed from.

ARCHITECTURE rule 8. Every scalar metric of :mod:`assay.metrics` is declared here once,
with the statistic it depends on:

* ``"confusion"`` -- a function of the (k x k) confusion matrix (the cell counts are
  the sufficient statistic); :attr:`MetricDeclaration.from_confusion` computes it from
  a matrix or a stack of matrices (see :mod:`assay.metrics._cell_metrics`).
* ``"ranking"`` -- one weighted sweep over the sorted scores;
  :attr:`MetricDeclaration.from_sorted` computes it from a
  :class:`~assay.metrics._sorted.SortedBinary` whose weights may be any non-negative
  multiplicities (a bootstrap replicate re-weights the rows, it never re-sorts them).
* ``"values"`` -- a plain weighted mean over rows (regression losses): neither of the
  above, computed from the rows themselves.

Resampling, the invariance tests and the benchmarks read these declarations instead of
dispatching on a chain of ``if metric is ...``.
"""

from __future__ import annotations

import functools
import inspect
import reprlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from assay.metrics import (
    _agreement,
    _classification,
    _costs,
    _lift,
    _ranking,
    _rates,
    _regression,
)
from assay.metrics._cell_metrics import CONFUSION_METRICS, ConfusionMetric
from assay.metrics._confusion import AVERAGES

__all__: list[str] = []

ComputedFrom = Literal["confusion", "ranking", "values"]


@dataclass(frozen=True)
class MetricDeclaration:
    """How a public scalar metric is computed."""

    name: str
    """Name of the public function in :mod:`assay` (and :mod:`assay.reference`)."""
    function: Callable[..., Any]
    """The public function."""
    computed_from: ComputedFrom
    """The statistic it depends on (see the module docstring)."""
    greater_is_better: bool
    """Whether a larger value means a better model."""
    from_confusion: ConfusionMetric | None = None
    """For ``"confusion"``: the metric as a function of the confusion matrix."""
    from_sorted: Callable[..., float] | None = None
    """For ``"ranking"``: ``from_sorted(data, **options)`` on sorted data."""
    sorted_options: tuple[str, ...] = field(default=())
    """For ``"ranking"``: the public keyword options ``from_sorted`` accepts."""
    scan_options: Callable[..., Any] | None = None
    """For ``"ranking"``: ``scan_options(**public_options)`` is the options named tuple
    that selects the metric's scan in the kernels (:mod:`assay._kernels.scans`)."""
    value_range: tuple[float, float] = (-np.inf, np.inf)
    """The values the metric can take with its default options, ``(lowest, highest)``
    (infinite where unbounded): an interval of the metric is kept inside this range.
    Options that change the range (``normalize=False``, ``adjusted=True``) are read by
    :meth:`range_for`."""
    range_of_options: Callable[..., tuple[float, float]] | None = None
    """For a metric whose range depends on its options: ``range_of_options(**options)``
    -> the range for those public keyword options (see :meth:`range_for`)."""
    resolve: Callable[..., tuple[np.ndarray, dict[str, Any]]] | None = None
    """For ``"confusion"``: ``resolve(**public_arguments) -> (matrix, options)`` checks
    the arguments like the public function and returns the confusion matrix and the
    options of ``from_confusion``; ``from_confusion.from_confusion(matrix, **options)``
    is then the public value."""

    def range_for(self, **options: Any) -> tuple[float, float]:
        """The range of the metric called with the public keyword ``options``."""
        if self.range_of_options is None:
            return self.value_range
        return self.range_of_options(**options)

    def resolve_arguments(self, *args: Any, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        """Matrix and options for a call ``function(*args, **kwargs)`` (defaults applied)."""
        assert self.resolve is not None
        bound = inspect.signature(self.function).bind(*args, **kwargs)
        bound.apply_defaults()
        return self.resolve(**bound.arguments)


def _averaged_resolver(
    averages: tuple[str | None, ...] = AVERAGES, with_beta: bool = False
) -> Callable[..., tuple[np.ndarray, dict[str, Any]]]:
    """Resolver of the metrics that take ``labels, pos_label, average, zero_division``."""

    def resolve(
        y_true: Any,
        y_pred: Any,
        *,
        labels: Any,
        pos_label: Any,
        average: str | None,
        sample_weight: Any,
        zero_division: Any,
        beta: float | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        matrix, options = _classification.averaged_confusion(
            y_true,
            y_pred,
            labels=labels,
            pos_label=pos_label,
            average=average,
            sample_weight=sample_weight,
            zero_division=zero_division,
            averages=averages,
        )
        if with_beta:
            options["beta"] = float(beta)  # type: ignore[arg-type]
        return matrix, options

    return resolve


UNIT_INTERVAL = (0.0, 1.0)
CORRELATION_RANGE = (-1.0, 1.0)
NON_NEGATIVE = (0.0, np.inf)
UNBOUNDED = (-np.inf, np.inf)


def clip_to_range(
    low: float, high: float, value_range: tuple[float, float]
) -> tuple[float, float]:
    """``(low, high)`` moved inside ``value_range``; NaN bounds stay NaN.

    Clipping never lowers the coverage of an interval of a quantity that lies in the
    range: the true value is inside the clipped interval exactly when it is inside the
    original one.
    """
    lowest, highest = value_range
    return float(np.clip(low, lowest, highest)), float(np.clip(high, lowest, highest))


def metric_range(
    declaration: MetricDeclaration | None, function: Any, options: dict[str, Any]
) -> tuple[float, float]:
    """The range of a metric called with keyword ``options``.

    A declared metric's comes from the registry; any other callable may state its own as
    an attribute ``value_range = (lowest, highest)``; otherwise it is unbounded.
    """
    if declaration is not None:
        return declaration.range_for(**options)
    stated = getattr(function, "value_range", None)
    if stated is None:
        return UNBOUNDED
    try:
        lowest, highest = (float(bound) for bound in stated)
    except (TypeError, ValueError):
        raise ValueError(
            "a metric's `value_range` attribute must be a pair (lowest, highest) of "
            f"numbers; got {stated!r}."
        ) from None
    if not lowest <= highest:
        raise ValueError(
            f"a metric's `value_range` attribute must satisfy lowest <= highest; got {stated!r}."
        )
    return lowest, highest


def _count_range(normalize: Any = True, **_: Any) -> tuple[float, float]:
    """accuracy_score / error_rate: a rate, or a (weighted) count with normalize=False."""
    return UNIT_INTERVAL if normalize else NON_NEGATIVE


def _balanced_accuracy_range(adjusted: Any = False, **_: Any) -> tuple[float, float]:
    """balanced_accuracy_score: adjusted, chance is 0 and the lowest value -1/(K-1) >= -1."""
    return CORRELATION_RANGE if adjusted else UNIT_INTERVAL


def _confusion(
    function: Callable[..., Any],
    greater_is_better: bool,
    resolve: Callable[..., tuple[np.ndarray, dict[str, Any]]] | None = None,
    value_range: tuple[float, float] = UNIT_INTERVAL,
    range_of_options: Callable[..., tuple[float, float]] | None = None,
) -> MetricDeclaration:
    name = function.__name__
    return MetricDeclaration(
        name,
        function,
        "confusion",
        greater_is_better,
        from_confusion=CONFUSION_METRICS[name],
        value_range=value_range,
        range_of_options=range_of_options,
        resolve=resolve or _averaged_resolver(),
    )


def _ranking_metric(
    function: Callable[..., Any],
    from_sorted: Callable[..., float],
    options: tuple[str, ...],
    greater_is_better: bool,
    scan_options: Callable[..., Any],
) -> MetricDeclaration:
    return MetricDeclaration(
        function.__name__,
        function,
        "ranking",
        greater_is_better,
        from_sorted=from_sorted,
        sorted_options=options,
        scan_options=scan_options,
        value_range=UNIT_INTERVAL,
    )


def _values(
    function: Callable[..., Any], greater_is_better: bool, value_range: tuple[float, float]
) -> MetricDeclaration:
    return MetricDeclaration(
        function.__name__, function, "values", greater_is_better, value_range=value_range
    )


METRICS: dict[str, MetricDeclaration] = {
    declaration.name: declaration
    for declaration in (
        _confusion(
            _classification.accuracy_score,
            True,
            _classification.resolve_counts,
            range_of_options=_count_range,
        ),
        _confusion(
            _classification.error_rate,
            False,
            _classification.resolve_counts,
            range_of_options=_count_range,
        ),
        _confusion(_classification.precision_score, True),
        _confusion(_classification.recall_score, True),
        _confusion(_classification.f1_score, True),
        _confusion(_classification.fbeta_score, True, _averaged_resolver(with_beta=True)),
        _confusion(_rates.specificity_score, True),
        _confusion(_rates.npv_score, True),
        _confusion(_rates.false_positive_rate, False),
        _confusion(_rates.false_negative_rate, False),
        _confusion(_rates.false_discovery_rate, False),
        _confusion(
            _agreement.matthews_corrcoef,
            True,
            _averaged_resolver(("multiclass", *AVERAGES)),
            CORRELATION_RANGE,
        ),
        _confusion(
            _agreement.balanced_accuracy_score,
            True,
            _agreement.resolve_balanced_accuracy,
            range_of_options=_balanced_accuracy_range,
        ),
        _confusion(
            _agreement.cohen_kappa_score,
            True,
            _agreement.resolve_cohen_kappa,
            CORRELATION_RANGE,
        ),
        # The range of an expected cost depends on the cost matrix: not declared.
        _confusion(_costs.expected_cost, False, _costs.resolve_expected_cost, UNBOUNDED),
        _ranking_metric(
            _ranking.roc_auc_score,
            _ranking.roc_auc_from_sorted,
            ("max_fpr",),
            True,
            _ranking.roc_auc_options,
        ),
        _ranking_metric(
            _ranking.average_precision_score,
            _ranking.average_precision_from_sorted,
            (),
            True,
            _ranking.average_precision_options,
        ),
        _ranking_metric(
            _ranking.pr_auc_score,
            _ranking.pr_auc_from_sorted,
            ("method",),
            True,
            _ranking.pr_auc_options,
        ),
        _ranking_metric(
            _ranking.equal_error_rate,
            _ranking.equal_error_rate_from_sorted,
            ("method",),
            False,
            _ranking.equal_error_rate_options,
        ),
        MetricDeclaration(
            "lift_score",
            _lift.lift_score,
            "ranking",
            True,
            from_sorted=_lift.lift_from_sorted,
            sorted_options=("fraction",),
            scan_options=_lift.lift_options,
            value_range=NON_NEGATIVE,
            range_of_options=_lift.lift_range,
        ),
        _values(_regression.mean_squared_error, False, NON_NEGATIVE),
        _values(_regression.root_mean_squared_error, False, NON_NEGATIVE),
        _values(_regression.mean_absolute_error, False, NON_NEGATIVE),
        _values(_regression.r2_score, True, (-np.inf, 1.0)),
    )
}
"""Every public scalar metric by name."""


# --- Finding a metric: a registry function, its name, or any callable. ---


def metric_name(metric: Any) -> str:
    """A readable name of a callable metric, for results and messages.

    A registry function gives its public name; a ``functools.partial`` the name of
    what it wraps with its bound arguments, ``f1_score(average='macro')`` (never
    ``'partial'``); another callable its ``__name__``, else its type's name.
    """
    if isinstance(metric, functools.partial):
        bound = [reprlib.repr(value) for value in metric.args]
        bound += [f"{key}={reprlib.repr(value)}" for key, value in metric.keywords.items()]
        return f"{metric_name(metric.func)}({', '.join(bound)})"
    for declaration in METRICS.values():
        if declaration.function is metric:
            return declaration.name
    return str(getattr(metric, "__name__", type(metric).__name__))


def resolve_metric(metric: Any) -> tuple[MetricDeclaration | None, Callable[..., Any], str]:
    """(declaration or None, function, name) of ``metric``: an assay metric, its name,
    or any callable ``f(y_true, y_pred, ...)`` (the generic path)."""
    if isinstance(metric, str):
        if metric not in METRICS:
            raise ValueError(
                f"`metric`={metric!r} is not an assay metric; known names: "
                f"{', '.join(sorted(METRICS))}."
            )
        declaration = METRICS[metric]
        return declaration, declaration.function, declaration.name
    for declaration in METRICS.values():
        if declaration.function is metric:
            return declaration, metric, declaration.name
    if callable(metric):
        return None, metric, metric_name(metric)
    raise TypeError(
        "`metric` must be an assay metric, its name, or a callable "
        f"f(y_true, y_pred, sample_weight=...); got {metric!r}."
    )


def resolve_metric_call(
    metric: Any, metric_kwargs: dict[str, Any]
) -> tuple[MetricDeclaration | None, Callable[..., Any], str, dict[str, Any]]:
    """:func:`resolve_metric` for a call with keyword options ``metric_kwargs``.

    A ``functools.partial`` of an assay metric with keyword arguments only is unwrapped:
    its keywords join ``metric_kwargs`` and the metric keeps its fast path.  This is how
    an option whose name a procedure uses itself is passed, e.g.
    ``functools.partial(assay.pr_auc_score, method="interpolated")`` to ``compare``,
    whose own ``method`` chooses bootstrap or permutation.
    """
    if (
        isinstance(metric, functools.partial)
        and not metric.args
        and any(declaration.function is metric.func for declaration in METRICS.values())
    ):
        clash = sorted(set(metric.keywords) & set(metric_kwargs))
        if clash:
            raise ValueError(
                f"`metric` already binds {', '.join(clash)}; pass each option once "
                "(in the partial or as a keyword, not both)."
            )
        declaration, function, _ = resolve_metric(metric.func)
        return declaration, function, metric_name(metric), {**metric.keywords, **metric_kwargs}
    declaration, function, name = resolve_metric(metric)
    return declaration, function, name, metric_kwargs
