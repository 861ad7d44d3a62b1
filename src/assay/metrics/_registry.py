"""One registry of metrics: what each public metric is computed from, and how.

ARCHITECTURE rule 8. Every scalar metric of :mod:`assay.metrics` is declared here once,
by one entry of :data:`METRICS` (a :class:`MetricDeclaration`), with the statistic it
depends on:

* ``"confusion"`` -- a function of the (k x k) confusion matrix (the cell counts are
  the sufficient statistic): :attr:`MetricDeclaration.from_confusion` computes it from
  a matrix or a stack of matrices (the functions live in
  :mod:`assay.metrics._cell_metrics`).
* ``"ranking"`` -- one scan over the sorted scores:
  :attr:`MetricDeclaration.scan_options` turns the public keyword options into the
  options named tuple that selects the metric's scan in the kernels
  (:mod:`assay._kernels.scans`); the passes that scan needs are read from its
  declaration (:meth:`MetricDeclaration.passes`).
* ``"values"`` -- a plain weighted mean over rows (regression losses): neither of the
  above, computed from the rows themselves.
* ``"probabilities"`` -- computed from the rows of probabilistic forecasts (log loss,
  Brier score, calibration errors): resampled through the generic path, like ``"values"``.
* ``"label_ranking"`` -- a mean over the rows of multilabel scores (coverage error):
  a row is one resampling unit of the generic path.

Resampling, the protocols, the result summaries, the invariance tests and the
benchmarks read these declarations instead of dispatching on a chain of
``if metric is ...`` or keeping their own lists of metrics.

Declaring a metric
------------------
One call in the tuple that builds :data:`METRICS`, by what the metric is computed from::

    _confusion_metric(public_function, "readable name", function_of_the_matrix,
               ("its", "keyword", "options"), greater_is_better=True,
               averages=AVERAGES)          # if it takes ``average``; or resolve=...
    _ranking_metric(public_function, "readable name", scan_options_builder,
             greater_is_better=True,
             variants=({}, {"option": value}))   # option sets reaching every scan
    _values_metric(public_function, "readable name", greater_is_better=False,
            value_range=NON_NEGATIVE)

``value_range`` (default: the unit interval for confusion and ranking metrics) is the
range of the values with the default options; ``range_of_options`` a function of the
options when they move it.  ``variants`` lists keyword options that between them
exercise every option changing what the metric computes (for a ranking metric: every
scan it selects); the tests and ``assay selfcheck`` iterate over them.  An option
without a default appears in every variant, unless the tests draw it themselves
(``fbeta_score``'s ``beta``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import numpy as np

from assay._kernels.scans import SCANS, Scan
from assay.metrics import (
    _agreement,
    _calibration,
    _classification,
    _costs,
    _label_ranking,
    _lift,
    _probabilistic,
    _ranking,
    _rates,
    _regression,
    _set_metrics,
)
from assay.metrics import _cell_metrics as cells
from assay.metrics._confusion import AVERAGES
from assay.metrics._ranges import (
    CORRELATION_RANGE,
    NON_NEGATIVE,
    UNBOUNDED,
    UNIT_INTERVAL,
    _balanced_accuracy_range,
    _brier_range,
    _count_range,
)

# re-exported: resampling and the protocols read the ranges from here
from assay.metrics._ranges import clip_to_range as clip_to_range
from assay.metrics._ranges import metric_range as metric_range

__all__: list[str] = []

ComputedFrom = Literal["confusion", "ranking", "values", "probabilities", "label_ranking"]


class ScanPasses(NamedTuple):
    """The passes the scan of a ranking metric needs (read from its declaration)."""

    totals: bool
    """Its fold reads the class totals of all atoms."""
    below: bool
    """A pass over the atoms below each piece comes first (a maximum over lower
    thresholds)."""
    backward: bool
    """Each piece is folded from its lowest score up."""
    records: bool
    """A streamed bootstrap replicate records its atoms and scans them at its end (a
    single streamed pass cannot fold it: totals, below pass or backward)."""


@dataclass(frozen=True)
class MetricDeclaration:
    """How a public scalar metric is computed (see the module docstring)."""

    name: str
    """Name of the public function in :mod:`assay` (and :mod:`assay.reference`)."""
    function: Callable[..., Any]
    """The public function."""
    readable_name: str
    """The name result summaries show (``"ROC AUC"`` for ``roc_auc_score``)."""
    computed_from: ComputedFrom
    """The statistic it depends on (see the module docstring)."""
    greater_is_better: bool
    """Whether a larger value means a better model."""
    value_range: tuple[float, float] = UNBOUNDED
    """The values the metric can take with its default options, ``(lowest, highest)``
    (infinite where unbounded): an interval of the metric is kept inside this range.
    Options that change the range (``normalize=False``, ``adjusted=True``) are read by
    :meth:`range_for`."""
    range_of_options: Callable[..., tuple[float, float]] | None = None
    """For a metric whose range depends on its options: ``range_of_options(**options)``
    -> the range for those public keyword options (see :meth:`range_for`)."""
    variants: tuple[Mapping[str, Any], ...] = ({},)
    """Public keyword options that between them exercise every option changing what
    the metric computes (a ranking metric: every scan it selects)."""
    from_confusion: Callable[..., Any] | None = None
    """For ``"confusion"``: ``from_confusion(matrix, **options)``, the metric of a
    confusion matrix or of a stack of them (shape ``(..., k, k)``)."""
    confusion_options: tuple[str, ...] = ()
    """For ``"confusion"``: the keyword options ``from_confusion`` takes (besides
    ``stacklevel``)."""
    averages: tuple[str | None, ...] = ()
    """For ``"confusion"``: the values of ``average`` it accepts (empty: no ``average``)."""
    resolve: Callable[..., tuple[np.ndarray, dict[str, Any]]] | None = None
    """For ``"confusion"``: ``resolve(**public_arguments) -> (matrix, options)`` checks
    the arguments like the public function and returns the confusion matrix and the
    options of ``from_confusion``; ``from_confusion(matrix, **options)`` is then the
    public value."""
    scan_options: Callable[..., Any] | None = None
    """For ``"ranking"``: ``scan_options(**public_options)`` is the options named tuple
    that selects the metric's scan in the kernels (:mod:`assay._kernels.scans`)."""

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

    def scan(self, **options: Any) -> Scan:
        """The scan declaration a ranking metric runs with the public ``options``."""
        assert self.scan_options is not None, f"{self.name} is not a ranking metric"
        return SCANS[type(self.scan_options(**options))]

    def passes(self, **options: Any) -> ScanPasses:
        """The passes of the scan a ranking metric runs with the public ``options``."""
        assert self.scan_options is not None, f"{self.name} is not a ranking metric"
        scan_options = self.scan_options(**options)
        scan = SCANS[type(scan_options)]
        return ScanPasses(
            totals=scan.needs_totals,
            below=scan.below is not None,
            backward=scan.backward,
            records=scan.records(scan_options),
        )


_AVERAGED = ("average", "pos_index", "classes", "zero_division")


def _confusion_metric(
    function: Callable[..., Any],
    readable_name: str,
    from_confusion: Callable[..., Any],
    options: tuple[str, ...],
    *,
    greater_is_better: bool,
    averages: tuple[str | None, ...] = (),
    resolve: Callable[..., tuple[np.ndarray, dict[str, Any]]] | None = None,
    value_range: tuple[float, float] = UNIT_INTERVAL,
    range_of_options: Callable[..., tuple[float, float]] | None = None,
    variants: tuple[Mapping[str, Any], ...] = ({},),
) -> MetricDeclaration:
    """A metric of the confusion matrix; one taking ``average`` resolves its arguments
    with the shared ``labels, pos_label, average, zero_division`` resolver."""
    if resolve is None:
        resolve = _classification.averaged_resolver(averages, with_beta="beta" in options)
    return MetricDeclaration(
        function.__name__,
        function,
        readable_name,
        "confusion",
        greater_is_better,
        value_range=value_range,
        range_of_options=range_of_options,
        variants=variants,
        from_confusion=from_confusion,
        confusion_options=options,
        averages=averages,
        resolve=resolve,
    )


def _ranking_metric(
    function: Callable[..., Any],
    readable_name: str,
    scan_options: Callable[..., Any],
    *,
    greater_is_better: bool,
    variants: tuple[Mapping[str, Any], ...] = ({},),
    value_range: tuple[float, float] = UNIT_INTERVAL,
    range_of_options: Callable[..., tuple[float, float]] | None = None,
) -> MetricDeclaration:
    """A metric computed by a scan over the sorted scores."""
    return MetricDeclaration(
        function.__name__,
        function,
        readable_name,
        "ranking",
        greater_is_better,
        value_range=value_range,
        range_of_options=range_of_options,
        variants=variants,
        scan_options=scan_options,
    )


def _values_metric(
    function: Callable[..., Any],
    readable_name: str,
    *,
    greater_is_better: bool,
    value_range: tuple[float, float],
    variants: tuple[Mapping[str, Any], ...] = ({},),
    computed_from: ComputedFrom = "values",
    range_of_options: Callable[..., tuple[float, float]] | None = None,
) -> MetricDeclaration:
    """A mean over the rows (a regression loss or score), or a metric of the rows of
    probabilistic forecasts or multilabel scores (``computed_from``)."""
    return MetricDeclaration(
        function.__name__,
        function,
        readable_name,
        computed_from,
        greater_is_better,
        value_range=value_range,
        range_of_options=range_of_options,
        variants=variants,
    )


_BINNED: tuple[Mapping[str, Any], ...] = ({}, {"strategy": "quantile", "n_bins": 4})


_COUNT_VARIANTS: tuple[Mapping[str, Any], ...] = ({}, {"normalize": False})

METRICS: dict[str, MetricDeclaration] = {
    declaration.name: declaration
    for declaration in (
        _confusion_metric(
            _classification.accuracy_score,
            "accuracy",
            cells.accuracy_from_confusion,
            ("normalize",),
            greater_is_better=True,
            resolve=_classification.resolve_counts,
            range_of_options=_count_range,
            variants=_COUNT_VARIANTS,
        ),
        _confusion_metric(
            _classification.error_rate,
            "error rate",
            cells.error_rate_from_confusion,
            ("normalize",),
            greater_is_better=False,
            resolve=_classification.resolve_counts,
            range_of_options=_count_range,
            variants=_COUNT_VARIANTS,
        ),
        _confusion_metric(
            _classification.precision_score,
            "precision",
            cells.precision_from_confusion,
            _AVERAGED,
            greater_is_better=True,
            averages=AVERAGES,
        ),
        _confusion_metric(
            _classification.recall_score,
            "recall",
            cells.recall_from_confusion,
            _AVERAGED,
            greater_is_better=True,
            averages=AVERAGES,
        ),
        _confusion_metric(
            _classification.f1_score,
            "F1",
            cells.f1_from_confusion,
            _AVERAGED,
            greater_is_better=True,
            averages=AVERAGES,
        ),
        _confusion_metric(
            _classification.fbeta_score,
            "F-beta",
            cells.fbeta_from_confusion,
            (*_AVERAGED, "beta"),
            greater_is_better=True,
            averages=AVERAGES,
        ),
        _confusion_metric(
            _set_metrics.jaccard_score,
            "Jaccard index",
            cells.jaccard_from_confusion,
            _AVERAGED,
            greater_is_better=True,
            averages=AVERAGES,
        ),
        _confusion_metric(
            _set_metrics.hamming_loss,
            "Hamming loss",
            cells.hamming_from_confusion,
            (),
            greater_is_better=False,
            resolve=_set_metrics.resolve_hamming,
        ),
        _confusion_metric(
            _set_metrics.zero_one_loss,
            "0-1 loss",
            cells.error_rate_from_confusion,
            ("normalize",),
            greater_is_better=False,
            resolve=_classification.resolve_counts,
            range_of_options=_count_range,
            variants=_COUNT_VARIANTS,
        ),
        _confusion_metric(
            _rates.specificity_score,
            "specificity",
            cells.specificity_from_confusion,
            _AVERAGED,
            greater_is_better=True,
            averages=AVERAGES,
        ),
        _confusion_metric(
            _rates.npv_score,
            "NPV",
            cells.npv_from_confusion,
            _AVERAGED,
            greater_is_better=True,
            averages=AVERAGES,
        ),
        _confusion_metric(
            _rates.false_positive_rate,
            "false positive rate",
            cells.false_positive_rate_from_confusion,
            _AVERAGED,
            greater_is_better=False,
            averages=AVERAGES,
        ),
        _confusion_metric(
            _rates.false_negative_rate,
            "false negative rate",
            cells.false_negative_rate_from_confusion,
            _AVERAGED,
            greater_is_better=False,
            averages=AVERAGES,
        ),
        _confusion_metric(
            _rates.false_discovery_rate,
            "false discovery rate",
            cells.false_discovery_rate_from_confusion,
            _AVERAGED,
            greater_is_better=False,
            averages=AVERAGES,
        ),
        _confusion_metric(
            _agreement.matthews_corrcoef,
            "MCC",
            cells.matthews_from_confusion,
            _AVERAGED,
            greater_is_better=True,
            averages=("multiclass", *AVERAGES),
            value_range=CORRELATION_RANGE,
        ),
        _confusion_metric(
            _agreement.balanced_accuracy_score,
            "balanced accuracy",
            cells.balanced_accuracy_from_confusion,
            ("adjusted",),
            greater_is_better=True,
            resolve=_agreement.resolve_balanced_accuracy,
            range_of_options=_balanced_accuracy_range,
            variants=({}, {"adjusted": True}),
        ),
        _confusion_metric(
            _agreement.cohen_kappa_score,
            "Cohen's kappa",
            cells.cohen_kappa_from_confusion,
            ("weights", "classes", "replace_undefined_by"),
            greater_is_better=True,
            resolve=_agreement.resolve_cohen_kappa,
            value_range=CORRELATION_RANGE,
            variants=({}, {"weights": "linear"}, {"weights": "quadratic"}),
        ),
        # The range of an expected cost depends on the cost matrix: not declared.
        _confusion_metric(
            _costs.expected_cost,
            "expected cost",
            cells.expected_cost_from_confusion,
            ("cost_matrix", "normalize"),
            greater_is_better=False,
            resolve=_costs.resolve_expected_cost,
            value_range=UNBOUNDED,
            variants=({}, {"normalize": None}, {"normalize": "true"}),
        ),
        _ranking_metric(
            _ranking.roc_auc_score,
            "ROC AUC",
            _ranking.roc_auc_options,
            greater_is_better=True,
            variants=({}, {"max_fpr": 0.3}),
        ),
        _ranking_metric(
            _ranking.average_precision_score,
            "average precision",
            _ranking.average_precision_options,
            greater_is_better=True,
        ),
        _ranking_metric(
            _ranking.pr_auc_score,
            "PR AUC",
            _ranking.pr_auc_options,
            greater_is_better=True,
            variants=tuple({"method": method} for method in _ranking.PR_AUC_SCANS),
        ),
        _ranking_metric(
            _ranking.equal_error_rate,
            "equal error rate",
            _ranking.equal_error_rate_options,
            greater_is_better=False,
            variants=tuple({"method": method} for method in _ranking.EER_METHODS),
        ),
        # The lift lives in [0, 1/fraction]: its range follows its option.
        _ranking_metric(
            _lift.lift_score,
            "lift",
            _lift.lift_options,
            greater_is_better=True,
            value_range=NON_NEGATIVE,
            range_of_options=_lift.lift_range,
            variants=tuple({"fraction": fraction} for fraction in (0.1, 0.37, 1.0)),
        ),
        *(
            _values_metric(
                f, name, greater_is_better=g, value_range=r, computed_from="label_ranking"
            )
            for f, name, g, r in _label_ranking.DECLARATIONS
        ),
        _values_metric(
            _regression.mean_squared_error,
            "MSE",
            greater_is_better=False,
            value_range=NON_NEGATIVE,
        ),
        _values_metric(
            _regression.root_mean_squared_error,
            "RMSE",
            greater_is_better=False,
            value_range=NON_NEGATIVE,
        ),
        _values_metric(
            _regression.mean_absolute_error,
            "MAE",
            greater_is_better=False,
            value_range=NON_NEGATIVE,
        ),
        _values_metric(
            _regression.r2_score,
            "R^2",
            greater_is_better=True,
            value_range=(-np.inf, 1.0),
            variants=({}, {"force_finite": False}),
        ),
        _values_metric(
            _probabilistic.log_loss,
            "log loss",
            greater_is_better=False,
            value_range=NON_NEGATIVE,
            # both classes named: a resampled or weighted target may show only one
            variants=({"labels": [0, 1]}, {"labels": [0, 1], "normalize": False}),
            computed_from="probabilities",
        ),
        _values_metric(
            _probabilistic.brier_score_loss,
            "Brier score",
            greater_is_better=False,
            value_range=(0.0, 2.0),
            range_of_options=_brier_range,
            variants=({}, {"scale_by_half": False}),
            computed_from="probabilities",
        ),
        _values_metric(
            _calibration.expected_calibration_error,
            "ECE",
            greater_is_better=False,
            value_range=UNIT_INTERVAL,
            variants=_BINNED,
            computed_from="probabilities",
        ),
        _values_metric(
            _calibration.maximum_calibration_error,
            "MCE",
            greater_is_better=False,
            value_range=UNIT_INTERVAL,
            variants=_BINNED,
            computed_from="probabilities",
        ),
    )
}
"""Every public scalar metric by name."""


def variants_of(computed_from: ComputedFrom) -> list[tuple[str, dict[str, Any]]]:
    """``(name, options)`` of every declared variant of the metrics ``computed_from``."""
    return [
        (name, dict(options))
        for name, declaration in METRICS.items()
        if declaration.computed_from == computed_from
        for options in declaration.variants
    ]


# --- Finding a metric (a registry function, its name, or any callable): in
# assay.metrics._lookup, re-exported here where resampling and the protocols read them.
from assay.metrics._lookup import metric_name as metric_name  # noqa: E402
from assay.metrics._lookup import readable_metric_name as readable_metric_name  # noqa: E402
from assay.metrics._lookup import resolve_metric as resolve_metric  # noqa: E402
from assay.metrics._lookup import resolve_metric_call as resolve_metric_call  # noqa: E402
