"""The metric registry: complete, consistent with the public functions, and the source of
the invariance checks every declared metric must pass."""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import assay
import assay.reference
from assay._kernels.pieces import scan_merged
from assay._kernels.scans import SCANS
from assay.metrics._registry import (
    METRICS,
    ScanPasses,
    _ranking_metric,
    readable_metric_name,
    variants_of,
)
from assay.metrics._sorted import sort_binary
from tests.strategies import (
    binary_forecasts,
    binary_ranking_data,
    class_labels,
    exact_sample_weights,
    metric_options,
    multilabel_ranking_data,
)

# Reordering or repeating rows changes the order of float additions only.
ROUNDING_RTOL = 1e-12
ROUNDING_ATOL = 1e-12

NOT_SCALAR_METRICS = {
    "confusion_matrix",
    "confusion_matrix_at_thresholds",
    "multilabel_confusion_matrix",
    "roc_curve",
    "precision_recall_curve",
    "det_curve",
    "cumulative_gain_curve",
    "classification_report",
    "bayes_decision",
    "posterior_fdr_threshold",
    "optimal_threshold",
    "baseline_score",
    "calibration_curve",
    "brier_decomposition",
}

names = pytest.mark.parametrize("name", sorted(METRICS))


def test_every_public_scalar_metric_is_declared() -> None:
    public = set(assay.metrics.__all__)
    assert public - NOT_SCALAR_METRICS == set(METRICS)
    for name, declaration in METRICS.items():
        assert declaration.name == name
        assert getattr(assay, name) is declaration.function
        # exactly the fields of what it is computed from are filled in
        confusion = declaration.computed_from == "confusion"
        assert (declaration.from_confusion is not None) == confusion
        assert (declaration.resolve is not None) == confusion
        assert bool(declaration.confusion_options) <= confusion
        assert (declaration.scan_options is not None) == (declaration.computed_from == "ranking")
        assert ("average" in declaration.confusion_options) == bool(declaration.averages)


def test_every_metric_has_its_own_readable_name() -> None:
    readable = [declaration.readable_name for declaration in METRICS.values()]
    assert len(set(readable)) == len(readable)
    assert all(name.strip() == name and name for name in readable)
    assert readable_metric_name("roc_auc_score") == "ROC AUC"
    assert readable_metric_name("my_own_metric") == "my_own_metric"  # a user's callable


@names
def test_every_variant_is_a_valid_call(name) -> None:
    """The declared variants are keyword options the public function accepts."""
    parameters = inspect.signature(METRICS[name].function).parameters
    for options in METRICS[name].variants:
        assert set(options) <= set(parameters), options


def test_every_required_option_is_in_every_variant() -> None:
    # an option without a default is declared in every variant (the lift's fraction);
    # fbeta_score's beta and expected_cost's cost matrix are supplied by the tests
    for name, declaration in METRICS.items():
        parameters = list(inspect.signature(declaration.function).parameters.values())[2:]
        required = {p.name for p in parameters if p.default is p.empty}
        required -= {"beta", "cost_matrix"}
        for options in declaration.variants:
            assert required <= set(options), (name, options)


def _call(name: str, arguments: tuple, weights: Any, options: dict) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ill-defined cases are compared as NaN
        return METRICS[name].function(*arguments, sample_weight=weights, **options)


def _options(name: str, n_classes: int) -> dict[str, Any]:
    """Keyword options that make every declared metric defined on multi-class data."""
    declaration = METRICS[name]
    options: dict[str, Any] = dict(declaration.variants[0])  # holds any required option
    if "average" in declaration.confusion_options:
        options.update(average="macro", zero_division=0.0)
    if "beta" in declaration.confusion_options:
        options["beta"] = 2.0
    if "labels" in inspect.signature(declaration.function).parameters:
        # a fixed label set: otherwise a class seen only in zero-weight rows counts in
        # the macro average (scikit-learn's rule) but vanishes when rows are repeated 0x
        options["labels"] = np.arange(n_classes)
    return options


@st.composite
def declared_problem(draw: st.DrawFn, name: str) -> tuple[tuple, Any, dict]:
    """Positional arguments, weights and options suited to metric ``name`` (one of its
    declared variants)."""
    kind = METRICS[name].computed_from
    variant = dict(draw(st.sampled_from(METRICS[name].variants)))
    if kind == "ranking":
        y, s, w = draw(binary_ranking_data(max_n=60, both_classes=True))
        return (y, s), w, variant
    if kind == "probabilities":
        y, p, w = draw(binary_forecasts(max_n=40))
        return (y, p), w, variant
    if kind == "label_ranking":
        y, s, w = draw(multilabel_ranking_data(max_n=20))
        return (y, s), w, variant
    if kind == "values":
        n = draw(st.integers(2, 60))
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        y_true = np.round(rng.normal(size=n), 1)
        y_pred = y_true + np.round(rng.normal(size=n), 1)
        return (y_true, y_pred), draw(exact_sample_weights(n)), variant
    y_true, y_pred, w = draw(class_labels(max_n=60, min_classes=2, max_classes=4, kinds=("int",)))
    k = 4
    arguments: tuple = (y_true, y_pred)
    if name == "expected_cost":
        arguments = (y_true, y_pred, np.arange(k * k, dtype=float).reshape(k, k))
    return arguments, w, {**_options(name, k), **variant}


def _same(a: Any, b: Any) -> bool:
    return bool(np.allclose(a, b, rtol=ROUNDING_RTOL, atol=ROUNDING_ATOL, equal_nan=True))


@names
@given(data=st.data())
def test_row_order_does_not_matter(name, data) -> None:
    arguments, weights, options = data.draw(declared_problem(name))
    order = data.draw(st.permutations(range(arguments[0].shape[0])))
    permuted = tuple(a[list(order)] if a.ndim and a.shape[0] == len(order) and i < 2 else a
                     for i, a in enumerate(arguments))  # fmt: skip
    permuted_weights = None if weights is None else weights[list(order)]
    assert _same(
        _call(name, permuted, permuted_weights, options), _call(name, arguments, weights, options)
    )


@names
@given(data=st.data())
def test_unit_weights_equal_no_weights(name, data) -> None:
    arguments, _, options = data.draw(declared_problem(name))
    ones = np.ones(arguments[0].shape[0])
    assert _same(_call(name, arguments, ones, options), _call(name, arguments, None, options))


@names
@given(data=st.data())
def test_integer_weights_equal_repetition(name, data) -> None:
    arguments, _, options = data.draw(declared_problem(name))
    n = arguments[0].shape[0]
    repeats = np.asarray(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    if repeats.sum() == 0:
        repeats[0] = 1
    repeated = tuple(
        np.repeat(a, repeats, axis=0) if i < 2 else a for i, a in enumerate(arguments)
    )
    if METRICS[name].computed_from == "ranking" and not (
        np.any(repeated[0] == 1) and np.any(repeated[0] == 0)
    ):
        return  # a class vanished: both sides are NaN by definition, nothing to compare
    assert _same(
        _call(name, arguments, repeats.astype(float), options),
        _call(name, repeated, None, options),
    )


RANKING_VARIANTS = variants_of("ranking")


def test_every_scan_is_reached_by_a_declared_variant() -> None:
    """Each scan of the kernels is some ranking metric's (a scan no metric selects is
    dead code; a metric whose variants miss a scan leaves it out of every test that
    iterates over the registry)."""
    reached = {type(METRICS[name].scan_options(**options)) for name, options in RANKING_VARIANTS}
    assert reached == set(SCANS)


@pytest.mark.parametrize(("name", "options"), RANKING_VARIANTS)
def test_the_declared_passes_are_the_scans(name, options) -> None:
    declaration = METRICS[name]
    scan_options = declaration.scan_options(**options)
    scan = SCANS[type(scan_options)]
    passes = declaration.passes(**options)
    assert declaration.scan(**options) is scan
    assert passes == ScanPasses(
        totals=bool(
            scan.needs_totals(scan_options) if callable(scan.needs_totals) else scan.needs_totals
        ),
        below=scan.below is not None,
        backward=scan.backward,
        records=scan.records(scan_options),
    )
    # a scan that needs more than one streamed pass is recorded, and only then
    assert passes.records == (passes.totals or passes.below or passes.backward)


def test_the_passes_of_known_scans() -> None:
    """By the definitions: the full AUC and AP need one forward pass; the partial AUC
    and the EER the totals; the interpolated precision a maximum over lower
    thresholds, folded from the lowest score up."""
    roc_auc = METRICS["roc_auc_score"]
    assert roc_auc.passes() == ScanPasses(False, False, False, False)
    assert roc_auc.passes(max_fpr=0.5).totals
    assert METRICS["average_precision_score"].passes() == ScanPasses(False, False, False, False)
    interpolated = METRICS["pr_auc_score"].passes(method="interpolated")
    assert interpolated.below and interpolated.backward and interpolated.records
    assert METRICS["equal_error_rate"].passes().totals


@pytest.mark.parametrize(("name", "options"), RANKING_VARIANTS)
@given(data=binary_ranking_data(max_n=60, both_classes=True))
def test_ranking_declarations_scan_to_the_reference_value(name, options, data) -> None:
    """The declared scan (what resampling runs) over the sorted data gives the
    independent reference's value.

    The public function runs the same scan, so comparing the two would compare a
    function with itself; ``assay.reference`` computes from the definitions.
    """
    y, s, w = data
    declaration = METRICS[name]
    sorted_data = sort_binary(y, s, sample_weight=w)
    scanned = scan_merged(
        declaration.scan_options(**options),
        *sorted_data.kernel_arguments,
        sorted_data.integer_counts,
    )
    reference = getattr(assay.reference, name)(y, s, sample_weight=w, **options)
    assert _same(scanned, reference)


# A small data set on which a perfect model must beat a poor one for every metric.
_TRUTH = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0])
_POOR_PREDICTION = np.array([1, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0])
_POOR_SCORES = np.array([0.9, 0.2, 0.4, 0.3, 0.6, 0.7, 0.1, 0.5, 0.8, 0.35, 0.45, 0.65])


@names
def test_greater_is_better_is_true_to_the_metric(name) -> None:
    declaration = METRICS[name]
    options = _options(name, 2)
    if declaration.computed_from == "ranking":
        perfect = (_TRUTH, _TRUTH + 0.5)
        poor: tuple = (_TRUTH, _POOR_SCORES)
    elif declaration.computed_from == "probabilities":
        perfect = (_TRUTH, _TRUTH.astype(float))
        poor = (_TRUTH, _POOR_SCORES)
    elif declaration.computed_from == "values":
        perfect = (_TRUTH * 2.0, _TRUTH * 2.0)
        poor = (_TRUTH * 2.0, _POOR_PREDICTION * 2.0)
    elif declaration.computed_from == "label_ranking":  # each row's labels: 1 and 0
        indicator = np.column_stack([_TRUTH, 1 - _TRUTH])
        perfect = (indicator, indicator + 0.5)
        poor = (indicator, np.column_stack([_POOR_SCORES, 1 - _POOR_SCORES[::-1]]))
    else:
        perfect, poor = (_TRUTH, _TRUTH), (_TRUTH, _POOR_PREDICTION)
        if name == "expected_cost":
            cost = np.array([[0.0, 1.0], [5.0, 0.0]])
            perfect, poor = (*perfect, cost), (*poor, cost)
    best = _call(name, perfect, None, options)
    worse = _call(name, poor, None, options)
    assert (best > worse) if declaration.greater_is_better else (best < worse)


@pytest.mark.parametrize(
    "name", sorted(n for n, d in METRICS.items() if d.computed_from == "confusion")
)
@given(data=st.data())
def test_confusion_metrics_are_their_function_of_the_resolved_matrix(name, data) -> None:
    """``from_confusion(*resolve(arguments))`` is the reference's value, for any options
    (and the public value, which must not compute it another way)."""
    declaration = METRICS[name]
    arguments, weights, options = data.draw(declared_problem(name))
    assert declaration.from_confusion is not None
    if "average" in declaration.confusion_options:
        averages = declaration.averages
        options["average"] = data.draw(st.sampled_from([a for a in averages if a != "binary"]))
        options["zero_division"] = data.draw(st.sampled_from([0.0, 1.0, np.nan]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        public = declaration.function(*arguments, sample_weight=weights, **options)
        matrix, resolved = declaration.resolve_arguments(
            *arguments, sample_weight=weights, **options
        )
        value = declaration.from_confusion(matrix, **resolved)
        # The public function is resolve + from_confusion itself: the independent
        # reference is what makes this a check of the declaration, not of an identity.
        reference = getattr(assay.reference, name)(*arguments, sample_weight=weights, **options)
    assert _same(value, reference)
    np.testing.assert_array_equal(value, public)


@st.composite
def ranged_problem(draw: st.DrawFn, name: str) -> tuple[tuple, Any, dict]:
    """Arguments, weights and options (those that move the range too) for ``name``."""
    kind = METRICS[name].computed_from
    if kind != "confusion":
        arguments, weights, _ = draw(declared_problem(name))
        return arguments, weights, draw(metric_options(name, binary=True))
    binary = draw(st.booleans())
    y_true, y_pred, weights = draw(
        class_labels(max_n=60, min_classes=2, max_classes=2 if binary else 5, kinds=("int",))
    )
    options = draw(metric_options(name, binary=binary))
    arguments: tuple = (y_true, y_pred)
    if name == "expected_cost":
        k = 2 if binary else 5
        arguments = (y_true, y_pred, np.arange(k * k, dtype=float).reshape(k, k) - 3.0)
        options["labels"] = np.arange(k)
    return arguments, weights, options


@names
@given(data=st.data())
def test_every_value_lies_in_the_declared_range(name, data) -> None:
    """The range an interval is clipped to holds every value the metric can take."""
    arguments, weights, options = data.draw(ranged_problem(name))
    lowest, highest = METRICS[name].range_for(**options)
    values = np.atleast_1d(np.asarray(_call(name, arguments, weights, options), dtype=float))
    defined = values[~np.isnan(values)]
    assert np.all((lowest <= defined) & (defined <= highest)), (options, values)


def test_the_range_follows_the_options() -> None:
    accuracy = METRICS["accuracy_score"]
    assert accuracy.range_for() == accuracy.value_range == (0.0, 1.0)
    assert accuracy.range_for(normalize=False) == (0.0, np.inf)
    balanced = METRICS["balanced_accuracy_score"]
    assert balanced.range_for() == (0.0, 1.0)
    assert balanced.range_for(adjusted=True) == (-1.0, 1.0)
    # adjusted balanced accuracy reaches its lowest value -1 on two classes, all wrong
    assert assay.balanced_accuracy_score([0, 1], [1, 0], adjusted=True) == -1.0
    assert assay.accuracy_score([0, 1, 1], [0, 1, 1], normalize=False) == 3.0
    assert METRICS["r2_score"].range_for(force_finite=False) == (-np.inf, 1.0)


def test_a_ranking_entry_may_declare_a_range_that_follows_its_options() -> None:
    # a ranking metric whose range moves with an option (a top share f of the population
    # gives a lift in [0, 1/f]) declares it like the confusion metrics do
    from assay.metrics._ranking import roc_auc_options

    def up_to_inverse(fraction: float = 1.0, **_: Any) -> tuple[float, float]:
        return 0.0, 1.0 / fraction

    declaration = _ranking_metric(
        assay.roc_auc_score,
        "stand-in",
        roc_auc_options,
        greater_is_better=True,
        range_of_options=up_to_inverse,
    )
    assert declaration.range_for(fraction=0.25) == (0.0, 4.0)
    assert declaration.range_for() == (0.0, 1.0)


@given(
    counts=st.lists(st.integers(0, 6), min_size=2, max_size=6),
    weights=st.sampled_from([None, "linear", "quadratic"]),
)
def test_kappa_of_reversed_ratings_stays_above_minus_one(counts, weights) -> None:
    """The most negative kappas: the second rater reverses the first one's scale.

    Every weighting is a distance of negative type (|i - j|, (i - j)^2 through the
    covariance, and the 0-1 distance), for which the observed disagreement is at most
    twice the chance one, so kappa >= -1; -1 is reached by two opposite classes.
    """
    k = len(counts)
    y1 = np.repeat(np.arange(k), counts)
    if y1.shape[0] == 0:
        return
    y2 = k - 1 - y1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kappa = assay.cohen_kappa_score(y1, y2, labels=np.arange(k), weights=weights)
    lowest, highest = METRICS["cohen_kappa_score"].range_for(weights=weights)
    assert np.isnan(kappa) or lowest <= kappa <= highest
    assert assay.cohen_kappa_score([0, 2], [2, 0], labels=[0, 1, 2], weights=weights) == -1.0
