"""The metric of a naive classifier that ignores its input: the baseline to beat.

:func:`baseline_score` computes it exactly.  A naive classifier predicts class ``j``
for every row with probability ``q_j``, independently of the row (a one-hot ``q`` for
the majority class), so the expected confusion matrix is ``E[C_ij] = n_i q_j``, with
``n_i`` the (weighted) number of rows of class ``i``.  Metrics linear in the cells of
each row of the matrix (their denominators are fixed by ``y_true``) have expectation
``metric(E[C])``; for the others, the two-class expectation is a sum over every
outcome of the two binomial counts.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from assay._validation import as_1d, check_option, format_values
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._registry import MetricDeclaration, resolve_metric_call

__all__ = ["baseline_score"]

STRATEGIES = ("majority", "prior", "stratified", "uniform")

# Confusion-matrix metrics that are linear in the cells of each true class's row of the
# matrix, with denominators fixed by ``y_true`` alone (class supports, their sums): the
# expected value of such a metric under random predictions is its value at the expected
# matrix.  tests/metrics/test_baselines.py checks the linearity of each one.
LINEAR_IN_ROWS = frozenset(
    {
        "accuracy_score",
        "error_rate",
        "recall_score",
        "specificity_score",
        "false_positive_rate",
        "false_negative_rate",
        "balanced_accuracy_score",
        "expected_cost",
    }
)
# Binomial outcomes beyond these tail probabilities are left out of the enumeration:
# their total probability is below 2**-60 per class, far below float64 resolution.
_TAIL = 2.0**-62
_MAX_OUTCOMES = 10**8  # pairs of binomial outcomes enumerated at most
_BLOCK = 1 << 20  # matrices evaluated at once


def _prediction_distribution(
    strategy: str, support: np.ndarray, prior: Any, n_classes: int
) -> np.ndarray:
    """``q``: the probability that the naive classifier predicts each class."""
    if prior is None:
        frequencies = support / support.sum()
    else:
        frequencies = np.asarray(prior, dtype=np.float64).reshape(-1)
        if frequencies.shape[0] != n_classes:
            raise ValueError(
                f"`prior` has {frequencies.shape[0]} entries but the metric sees "
                f"{n_classes} classes (sorted labels of `y_true`, or `labels`)."
            )
        if not (np.all(np.isfinite(frequencies)) and np.all(frequencies >= 0)):
            raise ValueError(f"`prior` must hold non-negative finite numbers; got {prior!r}.")
        if not math.isclose(float(frequencies.sum()), 1.0, rel_tol=0.0, abs_tol=1e-9):
            raise ValueError(f"`prior` must sum to 1; its entries sum to {frequencies.sum()!r}.")
    if strategy == "stratified":
        return frequencies
    if strategy == "uniform":
        return np.full(n_classes, 1.0 / n_classes)
    q = np.zeros(n_classes)
    q[int(np.argmax(frequencies))] = 1.0  # the first of equally frequent classes
    return q


def _binomial_outcomes(n: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    """Values and probabilities of ``Bin(n, p)``, tails below ``_TAIL`` left out."""
    if p <= 0.0 or p >= 1.0 or n == 0:
        value = n if p >= 1.0 else 0
        return np.array([float(value)]), np.array([1.0])
    from scipy import stats  # slow to import, and needed only here

    low = int(stats.binom.ppf(_TAIL, n, p))
    high = int(stats.binom.isf(_TAIL, n, p))
    values = np.arange(max(low - 1, 0), min(high + 1, n) + 1)
    return values.astype(np.float64), stats.binom.pmf(values, n, p)


def _enumerated_expectation(
    declaration: MetricDeclaration, support: np.ndarray, q: np.ndarray, options: dict[str, Any]
) -> float:
    """``E[metric(C)]`` for two classes: ``C = [[n0 - X0, X0], [n1 - X1, X1]]`` with
    independent ``X0 ~ Bin(n0, q1)``, ``X1 ~ Bin(n1, q1)``."""
    n0, n1 = (round(float(count)) for count in support)
    values0, probabilities0 = _binomial_outcomes(n0, float(q[1]))
    values1, probabilities1 = _binomial_outcomes(n1, float(q[1]))
    if values0.shape[0] * values1.shape[0] > _MAX_OUTCOMES:
        raise ValueError(
            f"the exact expectation needs {values0.shape[0] * values1.shape[0]:.3g} "
            f"outcomes (at most {_MAX_OUTCOMES:.0e}); with classes of {n0} and {n1} rows "
            "use strategy='majority' or a metric linear in the cells."
        )
    function_of_the_matrix = declaration.from_confusion
    assert function_of_the_matrix is not None  # a confusion-matrix metric
    rows = max(1, _BLOCK // values1.shape[0])
    total = 0.0
    for start in range(0, values0.shape[0], rows):
        x0 = values0[start : start + rows, None]
        x1 = values1[None, :]
        matrices = np.empty((x0.shape[0], x1.shape[1], 2, 2))
        matrices[..., 0, 0] = n0 - x0
        matrices[..., 0, 1] = x0
        matrices[..., 1, 0] = n1 - x1
        matrices[..., 1, 1] = x1
        values = np.asarray(function_of_the_matrix(matrices, **options), dtype=np.float64)
        weights = probabilities0[start : start + rows, None] * probabilities1[None, :]
        total += float(np.sum(weights * values))
    return total


def baseline_score(
    metric: Any,
    y_true: Any,
    *,
    strategy: str = "majority",
    prior: Any = None,
    sample_weight: Any = None,
    **metric_kwargs: Any,
) -> float:
    """The metric of a naive classifier that ignores the input: exact, not simulated.

    Parameters
    ----------
    metric : callable or str
        An assay classification metric or its name: a confusion-matrix metric
        (accuracy, F1, MCC, kappa, cost, ...) or a ranking metric (ROC AUC, AP, ...;
        ``'majority'`` and ``'prior'`` only).
    y_true : array-like of shape (n_samples,)
        True class labels.
    strategy : {'majority', 'prior', 'stratified', 'uniform'}, default='majority'
        ``'majority'``: always the most frequent class (the first in label order among
        equally frequent ones).  ``'prior'``: the same labels; for a ranking metric,
        the same score for every row (both are then the metric of constant scores).
        ``'stratified'``: each row's label drawn independently from ``prior``.
        ``'uniform'``: each row's label drawn uniformly from the classes.
    prior : array-like of shape (n_classes,), default=None
        Class probabilities, in the order of the classes the metric sees (the sorted
        labels of ``y_true``, or ``labels``), e.g. the training set's class
        frequencies; the majority class is its largest entry.  Default: the
        (weighted) class frequencies of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights, passed to the metric.  Not allowed with the random strategies
        for a metric that is not linear in the cells (a row's weight would have to be
        drawn as one prediction).
    **metric_kwargs
        Options of the metric (``pos_label``, ``average``, ``labels``,
        ``cost_matrix``, ``zero_division``, ...).

    Returns
    -------
    float
        The metric of the majority (or constant) predictions; the expected metric for
        ``'stratified'`` and ``'uniform'``.

    Raises
    ------
    ValueError
        An unknown ``strategy``; a metric that is not a classification metric of
        assay; a random strategy with a ranking metric, with a non-linear metric on
        more than two classes or with weights, or needing more than 1e8 outcomes;
        a bad ``prior``; the errors of the metric itself.

    Warns
    -----
    UndefinedMetricWarning
        The metric is undefined for (some of) the naive predictions, e.g. the
        precision of a class that is never predicted: once, with the metric's rule
        (``zero_division``) applied.

    Notes
    -----
    A naive classifier predicts class ``j`` with probability ``q_j`` for every row,
    independently: ``q`` is one-hot at the majority class, or ``prior``, or uniform.
    Then ``E[C_ij] = n_i q_j`` with ``n_i`` the (weighted) support of class ``i``
    (Honavar, "Evaluating model performance", the naive baseline).

    - Exact in closed form, for any number of classes: the metrics linear in the
      cells of each row of the matrix, whose denominators are fixed by ``y_true``:
      accuracy, error rate, recall, specificity, false positive and false negative
      rates (any ``average``), balanced accuracy (adjusted or not) and the expected
      cost.  Their expected value is their value at ``E[C]``; e.g. the stratified
      accuracy is ``sum_i p_i q_i``.
    - Exact by enumeration, for two classes: every other confusion-matrix metric
      (precision, F-scores, MCC, kappa, NPV, FDR).  Row counts ``X0 ~ Bin(n0, q1)``
      and ``X1 ~ Bin(n1, q1)`` are independent, and the expectation sums the metric
      over every pair of outcomes weighted by their probabilities (outcomes of
      probability below ``2**-62`` in either tail are left out: less than ``1e-18`` of
      the mass).  Undefined outcomes (no predicted positive) take the value of
      ``zero_division``; with ``zero_division=numpy.nan`` the expectation is NaN.
    - No metric is approximated by its value at the expected confusion matrix.

    For the majority strategy (deterministic predictions) the result is the metric of
    those predictions, ``metric(y_true, [majority] * n)``.

    The naive classifier predicts the classes of the confusion matrix the metric
    builds from ``y_true`` alone: the labels of ``y_true`` (or ``labels``, for the
    averages that keep them).  With a single class in ``y_true`` it can only predict
    that class.

    Examples
    --------
    >>> import assay
    >>> y_true = [0, 0, 0, 1, 1, 0, 0, 0, 1, 0]
    >>> assay.baseline_score("accuracy_score", y_true)
    0.7
    >>> round(assay.baseline_score("accuracy_score", y_true, strategy="stratified"), 4)
    0.58
    >>> assay.baseline_score("roc_auc_score", y_true, strategy="prior")
    0.5
    """
    declaration, function, name, metric_kwargs = resolve_metric_call(metric, metric_kwargs)
    check_option(strategy, "strategy", STRATEGIES)
    if declaration is None or declaration.computed_from in (
        "values",
        "probabilities",
        "label_ranking",
    ):
        raise ValueError(
            "`metric` must be a classification metric of assay (a confusion-matrix or a "
            f"ranking metric) or its name; got {name!r}."
        )
    if sample_weight is not None:
        metric_kwargs["sample_weight"] = sample_weight
    if declaration.computed_from == "ranking":
        if strategy not in ("majority", "prior"):
            raise ValueError(
                f"`strategy`={strategy!r} draws random labels, which a ranking metric "
                f"({name}) does not take; use strategy='prior' (a constant score)."
            )
        n = as_1d(y_true, "y_true").shape[0]
        return float(function(y_true, np.zeros(n), **metric_kwargs))
    matrix, options = declaration.resolve_arguments(y_true, y_true, **metric_kwargs)
    support = np.asarray(matrix, dtype=np.float64).sum(axis=-1)
    n_classes = support.shape[0]
    q = _prediction_distribution(strategy, support, prior, n_classes)
    deterministic = bool(np.count_nonzero(q) == 1)
    function_of_the_matrix = declaration.from_confusion
    assert function_of_the_matrix is not None  # a confusion-matrix metric
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UndefinedMetricWarning)
        if deterministic or declaration.name in LINEAR_IN_ROWS:
            value = float(function_of_the_matrix(support[:, None] * q[None, :], **options))
        else:
            _check_enumerable(name, n_classes, sample_weight)
            value = _enumerated_expectation(declaration, support, q, options)
    undefined = [w for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    for other in caught:
        if other not in undefined:
            warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
    if undefined:
        warnings.warn(
            f"{name} is undefined for some of the naive classifier's predictions "
            f"(strategy={strategy!r}): {undefined[0].message}",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    return value


def _check_enumerable(name: str, n_classes: int, sample_weight: Any) -> None:
    if n_classes != 2:
        raise ValueError(
            f"the expected {name} of random predictions is computed exactly for two "
            f"classes only (it is not linear in the cells); y_true has {n_classes} "
            f"classes. Metrics linear in the cells ({format_values(sorted(LINEAR_IN_ROWS))}) "
            "take any number."
        )
    if sample_weight is not None:
        raise ValueError(
            f"`sample_weight` cannot be used with a random strategy for {name} (not linear "
            "in the cells): each row is one random prediction, whatever its weight."
        )
