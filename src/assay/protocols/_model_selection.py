"""Choosing between models: two models compared on the same folds (:func:`compare_models`)
and the one-standard-error rule (:func:`one_standard_error_rule`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from assay._results import (
    ModelComparisonResult,
)
from assay._warnings import RepeatedWarnings
from assay.inference import (
    corrected_resampled_ttest,
    ftest_5x2cv,
    paired_ttest,
    ttest_5x2cv,
)
from assay.protocols._cross_validation import _run
from assay.protocols._models import model_factory
from assay.protocols._scoring import scorers, within_range
from assay.protocols._splitters import RepeatedKFold

__all__ = ["compare_models", "one_standard_error_rule"]


def _is_five_by_two(splitter: Any) -> bool:
    return (
        isinstance(splitter, RepeatedKFold) and splitter.n_splits == 2 and splitter.n_repeats == 5
    )


def compare_models(
    model_a: Any,
    model_b: Any,
    X: Any,
    y: Any,
    *,
    cv: Any = 10,
    metric: Any = None,
    rng: Any = None,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    n_jobs: int = 1,
) -> ModelComparisonResult:
    """Two models cross-validated on the same splits, and tests of their difference.

    Parameters
    ----------
    model_a, model_b : object or callable
        Models (or factories), as in :func:`cross_validate`.
    X, y : array-like
        Data and targets.
    cv : int, splitter or iterable of (train, test), default=10
        As in :func:`cross_validate`; the splits are drawn once and used for both
        models.  ``RepeatedKFold(2, 5)`` or ``RepeatedStratifiedKFold(2, 5)`` (the
        5x2cv design) adds Dietterich's t-test and Alpaydin's F-test.
    metric : str, callable or dict, optional
        One metric, as in :func:`cross_validate` (a ``functools.partial``, or a
        one-entry dict ``{name: metric}`` to name it); default as there.
    rng : None, int or numpy.random.Generator, default=None
        Seed of the folds when ``cv`` is an integer.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        For the t-tests; ``'greater'``: model A's metric is larger on average.
    confidence_level : float, default=0.95
        Level of the intervals of the mean difference.
    n_jobs : int, default=1
        Threads, as in :func:`cross_validate`.

    Returns
    -------
    ModelComparisonResult
        ``scores_a``, ``scores_b``, ``differences = scores_a - scores_b`` per split,
        ``paired_ttest``, ``corrected_ttest``, ``ttest_5x2cv`` and ``ftest_5x2cv``
        (None unless 5x2cv), ``n_train``, ``n_test``, and both
        :class:`CrossValidationResult`.

    Raises
    ------
    ValueError, TypeError
        As :func:`cross_validate`; fewer than 2 splits; a bad ``alternative``; a dict
        ``metric`` with more than one entry.

    Warns
    -----
    DegenerateDataWarning
        Identical or constant differences (from the tests).
    Warning
        A warning of either model or the metric in several fits is shown once, with
        ``[in j of J fits]`` (J counts the fits of both models).

    Notes
    -----
    * ``paired_ttest``: ``t = d_bar / (s_d / sqrt(J))`` with ``J - 1`` degrees of
      freedom (Wu, "Evaluation", Algorithm 2; the worked example of Honavar,
      "Evaluating model performance").  It ignores the overlap of the training sets,
      so its type-I error is too high (Dietterich 1998).
    * ``corrected_ttest``: Nadeau & Bengio (2003) replace ``1/J`` by
      ``1/J + n_test/n_train`` (mean sizes over the splits); with 10 x 10-fold CV this
      is the test Bouckaert & Frank (2004) recommend.
    * 5x2cv: ``ttest_5x2cv`` (Dietterich 1998, t with 5 degrees of freedom) and
      ``ftest_5x2cv`` (Alpaydin 1999, F with (10, 5)); splits ``2i`` and ``2i + 1`` are
      the two folds of replication ``i``.

    The sign of the differences follows the metric: for an error rate, a positive
    difference means model A errs more.  The intervals of the two t-tests are clipped
    to the range of a difference of the metric (``[-1, 1]`` for a rate; from a range
    ``[a, b]``, ``[a - b, b - a]``), with ``details['unclipped_interval']`` when a bound
    moved; the p-values are unchanged.

    References
    ----------
    T. G. Dietterich, Neural Computation 10 (1998); E. Alpaydin, Neural Computation 11
    (1999); C. Nadeau and Y. Bengio, Machine Learning 52 (2003); R. R. Bouckaert and
    E. Frank, PAKDD (2004).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.protocols import RepeatedStratifiedKFold, compare_models
    >>> class Threshold:
    ...     def __init__(self, cut):
    ...         self.cut = cut
    ...     def fit(self, X, y):
    ...         return self
    ...     def predict(self, X):
    ...         return (X[:, 0] > self.cut).astype(int)
    >>> generator = np.random.default_rng(0)
    >>> X = generator.normal(size=(200, 1))
    >>> y = (X[:, 0] + generator.normal(scale=0.5, size=200) > 0).astype(int)
    >>> result = compare_models(
    ...     Threshold(0.0), Threshold(1.0), X, y, cv=RepeatedStratifiedKFold(2, 5, rng=1)
    ... )
    >>> bool(result.differences.mean() > 0), result.ftest_5x2cv.df
    (True, (10.0, 5.0))
    """
    model_factory(model_b, "model_b")  # fail before model A is cross-validated
    if isinstance(metric, Mapping) and len(metric) != 1:
        raise ValueError(
            f"`metric` must be one metric; got a dict of {len(metric)}: {list(metric)}."
        )
    as_metrics = metric if metric is None or isinstance(metric, Mapping) else (metric,)
    # a warning on every fit of either model reaches the user once, counted
    repeated = RepeatedWarnings("fits")
    result_a, splits, splitter = _run(
        model_a,
        X,
        y,
        cv=cv,
        metrics=as_metrics,
        rng=rng,
        n_jobs=n_jobs,
        confidence_level=confidence_level,
        return_scores=False,
        model_name="model_a",
        min_splits=2,
        repeated=repeated,
    )
    name = result_a.metrics[0]
    result_b, _, _ = _run(
        model_b,
        X,
        y,
        cv=splitter,
        metrics=as_metrics if as_metrics is not None else (name,),
        rng=None,
        n_jobs=n_jobs,
        confidence_level=confidence_level,
        return_scores=False,
        model_name="model_b",
        splits=splits,
        repeated=repeated,
    )
    repeated.emit(stacklevel=2)
    scores_a, scores_b = result_a.scores[name], result_b.scores[name]
    n_train, n_test = result_a.n_train, result_a.n_test
    five_by_two = _is_five_by_two(splitter)
    grid_a, grid_b = (
        (scores_a.reshape(5, 2), scores_b.reshape(5, 2)) if five_by_two else (None, None)
    )
    scorer = scorers(as_metrics if as_metrics is not None else (name,), True)[0]
    lowest, highest = scorer.value_range
    difference_range = (lowest - highest, highest - lowest)  # e.g. [-1, 1] for a rate
    return ModelComparisonResult(
        metric=name,
        greater_is_better=scorer.greater_is_better,
        scores_a=scores_a,
        scores_b=scores_b,
        differences=scores_a - scores_b,
        paired_ttest=within_range(
            paired_ttest(
                scores_a, scores_b, alternative=alternative, confidence_level=confidence_level
            ),
            difference_range,
        ),
        corrected_ttest=within_range(
            corrected_resampled_ttest(
                scores_a,
                scores_b,
                float(n_train.mean()),
                float(n_test.mean()),
                alternative=alternative,
                confidence_level=confidence_level,
            ),
            difference_range,
        ),
        ttest_5x2cv=ttest_5x2cv(grid_a, grid_b, alternative=alternative) if five_by_two else None,
        ftest_5x2cv=ftest_5x2cv(grid_a, grid_b) if five_by_two else None,
        n_train=n_train,
        n_test=n_test,
        result_a=result_a,
        result_b=result_b,
    )


def _finite_vector(values: Any, name: str) -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1 or array.shape[0] == 0:
        raise ValueError(f"`{name}` must be a non-empty 1-D array; got shape {array.shape}.")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"`{name}` contains NaN or infinite values; they must be finite.")
    return array


def one_standard_error_rule(
    means: Any,
    standard_errors: Any,
    *,
    greater_is_better: bool,
    complexity: Any = None,
) -> int:
    """Index of the simplest model within one standard error of the best.

    Parameters
    ----------
    means : array-like of shape (m,)
        Cross-validated mean error (or score) of each of ``m`` candidate models.
    standard_errors : array-like of shape (m,)
        Their standard errors (e.g. ``std / sqrt(k)`` over k folds), non-negative.
    greater_is_better : bool
        False for errors and losses (lower is better), True for scores (accuracy,
        AUC).  Required: the rule points the opposite way for the two.
    complexity : array-like of shape (m,), optional
        Complexity of each model (degree, number of features, 1/lambda, ...).  Default:
        the order given, first = simplest.

    Returns
    -------
    int
        Position (in ``means``) of the chosen model.

    Raises
    ------
    ValueError
        Arrays empty, not 1-D, of different lengths, or not finite; a negative
        standard error.

    Notes
    -----
    "Estimation of the hypothesis real risk", "The one standard error rule" (Breiman et
    al. 1984; Hastie, Tibshirani & Friedman 2001, section 7.10, p. 216): let ``b`` be
    the best model (lowest mean error; highest mean
    score when ``greater_is_better``).  Every model with
    ``mean <= mean_b + se_b`` (``mean >= mean_b - se_b`` for scores) is a candidate;
    the rule picks the candidate of lowest complexity, ties going to the better mean
    and then to the first position.  The standard error used is the best model's.

    Examples
    --------
    >>> from assay.protocols import one_standard_error_rule
    >>> errors = [0.30, 0.21, 0.18, 0.17, 0.19]  # degree 1 .. 5
    >>> standard_errors = [0.02, 0.02, 0.015, 0.015, 0.02]
    >>> one_standard_error_rule(errors, standard_errors, greater_is_better=False)
    2
    """
    mean = _finite_vector(means, "means")
    error = _finite_vector(standard_errors, "standard_errors")
    if error.shape != mean.shape:
        raise ValueError(
            f"`means` and `standard_errors` have different lengths: {mean.shape[0]} and "
            f"{error.shape[0]}."
        )
    if np.any(error < 0.0):
        raise ValueError(
            f"`standard_errors` contains {int(np.count_nonzero(error < 0.0))} negative "
            "values; standard errors must be non-negative."
        )
    if complexity is None:
        order = np.arange(mean.shape[0], dtype=np.float64)
    else:
        order = _finite_vector(complexity, "complexity")
        if order.shape != mean.shape:
            raise ValueError(
                f"`means` and `complexity` have different lengths: {mean.shape[0]} and "
                f"{order.shape[0]}."
            )
    sign = -1.0 if greater_is_better else 1.0  # work with "lower is better"
    loss = sign * mean
    best = int(np.argmin(loss))
    candidates = np.flatnonzero(loss <= loss[best] + error[best])
    # lowest complexity, then better mean, then first position
    chosen = min(candidates, key=lambda i: (order[i], loss[i], i))
    return int(chosen)
