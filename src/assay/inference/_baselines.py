"""Does a model beat the majority-class baseline?  A paired test on the same test set."""

from __future__ import annotations

from typing import Any

import numpy as np

from assay._procedure_checks import check_alternative
from assay._results import ComparisonResult, TestResult
from assay._validation import as_labels, as_sample_weight, check_same_length
from assay.inference._contingency import mcnemar
from assay.metrics._registry import resolve_metric_call
from assay.resampling import compare

__all__ = ["compare_to_baseline"]

# The metrics whose comparison is McNemar's test (a difference of accuracies).
_ACCURACY_METRICS = {"accuracy_score": False, "error_rate": True}  # name -> reversed
_REVERSED = {"two-sided": "two-sided", "greater": "less", "less": "greater"}


def _majority_class(labels: np.ndarray, weights: np.ndarray | None) -> Any:
    """The most frequent (heaviest) class, the first in sorted order among equals."""
    classes, codes = np.unique(labels, return_inverse=True)
    totals = np.bincount(codes.reshape(-1), weights=weights, minlength=classes.shape[0])
    return classes[int(np.argmax(totals))]


def compare_to_baseline(
    metric: Any,
    y_true: Any,
    y_pred: Any,
    *,
    majority_class: Any = None,
    alternative: str = "two-sided",
    n_resamples: int | None = None,
    confidence_level: float = 0.95,
    sample_weight: Any = None,
    rng: Any = None,
    resampling: str = "multinomial",
    **metric_kwargs: Any,
) -> TestResult | ComparisonResult:
    """Paired test of a model against the majority-class baseline on the same test set.

    Parameters
    ----------
    metric : callable or str
        An assay metric or its name, or a callable ``f(y_true, y_pred, ...)``.
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_pred : array-like of shape (n_samples,)
        The model's predictions (labels), or its scores for a ranking metric.
    majority_class : label, default=None
        The class the baseline predicts for every row; default: the most frequent
        (weighted) class of ``y_true``, the first in sorted order among equals.  Pass
        the training set's majority class to compare against the baseline a user would
        actually have built.
    alternative : {'two-sided', 'greater', 'less'}, default='two-sided'
        About ``metric(model) - metric(baseline)``: ``'greater'`` for "the model's
        metric is larger" (better for accuracy, worse for an error rate).
    n_resamples : int, optional
        Replicates of the paired bootstrap (2000 by default); unused by McNemar's test.
    confidence_level : float, default=0.95
        Level of the bootstrap interval of the difference.
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights (they select the paired bootstrap, also for accuracy).
    rng : None, int or numpy.random.Generator, default=None
        Seed of the bootstrap replicates.
    resampling : {"multinomial", "poisson"}, default="multinomial"
        The paired bootstrap's draw (as :func:`assay.compare`); unused by McNemar's test.
    **metric_kwargs
        Options of the metric.

    Returns
    -------
    TestResult or ComparisonResult
        For ``accuracy_score`` and ``error_rate`` without weights, McNemar's exact test
        of the model's predictions against the baseline's (:func:`assay.mcnemar`; its
        ``estimate`` is the difference in accuracy, model minus baseline).  Otherwise
        the paired bootstrap of :func:`assay.compare` with model A the model and
        model B the baseline (for a ranking metric, a constant score).

    Raises
    ------
    ValueError
        Bad options, or inputs the test or the metric rejects.

    Notes
    -----
    The naive baseline classifies every example into the most prevalent class
    (Honavar, "Evaluating model performance"); every classifier should beat it.  On
    imbalanced data it is hard to beat in accuracy, which is why a metric that
    rewards finding the rare class (balanced accuracy, MCC, F1 of the rare class) is
    often the one to compare.  Both predictions are made on the same rows, so the
    test is paired: McNemar's test uses only the rows where exactly one of the two is
    right; the paired bootstrap keeps the rows' pairing in every replicate.  The
    baseline's own metric is :func:`assay.baseline_score` with
    ``strategy='majority'``.

    Examples
    --------
    >>> import assay
    >>> y_true = [0] * 14 + [1] * 6
    >>> y_pred = [0] * 12 + [1] * 2 + [1] * 5 + [0]
    >>> result = assay.compare_to_baseline("accuracy_score", y_true, y_pred)
    >>> result.method, round(result.estimate, 2), round(result.pvalue, 4)
    ('McNemar, exact (binomial)', 0.15, 0.4531)
    """
    declaration, function, name, metric_kwargs = resolve_metric_call(metric, metric_kwargs)
    alternative = check_alternative(alternative)
    labels = as_labels(y_true, "y_true")
    n = check_same_length(y_true=labels, y_pred=np.asarray(y_pred))
    weights = as_sample_weight(sample_weight, n)
    if declaration is not None and declaration.computed_from == "ranking":
        baseline = np.zeros(n)
    else:
        if majority_class is None:
            majority_class = _majority_class(labels, weights)
        baseline = np.full(n, majority_class)
    if name in _ACCURACY_METRICS and weights is None and not metric_kwargs:
        tested = _REVERSED[alternative] if _ACCURACY_METRICS[name] else alternative
        return mcnemar(labels, y_pred, baseline, alternative=tested)
    return compare(
        function,
        y_true,
        y_pred,
        baseline,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        alternative=alternative,
        sample_weight=sample_weight,
        rng=rng,
        resampling=resampling,
        **metric_kwargs,
    )
