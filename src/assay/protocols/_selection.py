"""Choosing a hyperparameter on held-out data (:func:`select_hyperparameter`).

Every grid point's model is scored on a validation set, or cross-validated on the same
splits; a rule chooses a point; the chosen model is refit and, when a test set is
given, scored once on it.  The interval of a score on one held-out set is the one the
rest of assay gives it: Wilson's for accuracy and error rate (:func:`assay.proportion_ci`),
a percentile bootstrap (:func:`assay.bootstrap`) for any other metric.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np

from assay._procedure_checks import check_confidence_level, check_integer
from assay._results import CrossValidationResult, IntervalResult, SelectionResult
from assay._validation import check_option, resolve_seed
from assay._warnings import RepeatedWarnings
from assay.inference import mean_ci, proportion_ci
from assay.metrics import accuracy_score, error_rate, mean_absolute_error, mean_squared_error
from assay.protocols._candidates import Grid, candidate, point_text
from assay.protocols._cross_validation import (
    _declared_type,
    _is_class_target,
    _n_workers,
    _run,
)
from assay.protocols._model_selection import one_standard_error_rule
from assay.protocols._models import targets as target_vector
from assay.protocols._scoring import Scorer, continuous_scores, score, scorers, within_range
from assay.protocols._splitters import _n_samples, _stream
from assay.resampling import bootstrap

__all__ = ["select_hyperparameter"]

_RULES = ("best", "one_standard_error")


class Setup(NamedTuple):
    """What a selection works with, checked once."""

    grid: Grid
    factories: list[Callable[[], Any]]
    targets: np.ndarray
    scorer: Scorer
    classes: np.ndarray | None
    metrics: Any
    """The ``metrics`` argument for :func:`cross_validate`'s machinery (one metric)."""


def setup(model: Any, grid: Any, X: Any, y: Any, metric: Any) -> Setup:
    """The grid, a model factory per point, the targets and the one metric."""
    points = Grid(model, grid)
    factories = [candidate(model, points, index) for index in range(len(points))]
    targets = target_vector(y, _n_samples(X))
    if isinstance(metric, Mapping) and len(metric) != 1:
        raise ValueError(
            f"`metric` must be one metric; got a dict of {len(metric)}: {list(metric)}."
        )
    metrics = metric if metric is None or isinstance(metric, Mapping) else (metric,)
    probe = factories[0]()
    classification = _declared_type(probe) != "regressor" and _is_class_target(targets)
    classes = np.unique(targets) if classification else None
    scorer = scorers(metrics, classification, classes)[0]
    if scorer.greater_is_better is None:
        raise ValueError(
            f"`metric` {scorer.name!r} does not say whether larger is better; give the "
            "callable a `greater_is_better` attribute (True for scores, False for losses)."
        )
    return Setup(points, factories, targets, scorer, classes, metrics or (scorer.name,))


def choose(
    scores: np.ndarray,
    standard_errors: np.ndarray,
    greater_is_better: bool,
    rule: str,
    complexity: Any,
) -> tuple[int, int]:
    """(best position, chosen position) under ``rule``."""
    if not np.all(np.isfinite(scores)):
        bad = int(np.flatnonzero(~np.isfinite(scores))[0])
        raise ValueError(
            f"the validation score of grid point {bad} is {float(scores[bad])!r}; every point "
            "needs a finite score to be compared."
        )
    best = int(np.argmin(-scores if greater_is_better else scores))
    if rule == "best":
        return best, best
    chosen = one_standard_error_rule(
        scores, standard_errors, greater_is_better=greater_is_better, complexity=complexity
    )
    return best, chosen


def reason(
    rule: str,
    source: str,
    scorer: Scorer,
    grid: Grid,
    scores: np.ndarray,
    errors: np.ndarray,
    best: int,
    chosen: int,
    complexity: Any,
) -> str:
    """Why ``chosen`` was chosen, in words."""
    best_text = f"{point_text(grid.points[best])}: {scores[best]:.6g}"
    if rule == "best":
        word = "highest" if scorer.greater_is_better else "lowest"
        return f"the {word} {source} {scorer.name} ({best_text})"
    simplest = "the lowest complexity" if complexity is not None else "the first in the grid"
    return (
        f"the simplest point ({simplest}) whose {source} {scorer.name} is within one "
        f"standard error ({errors[best]:.6g}) of the best ({best_text})"
    )


def held_out_interval(
    scorer: Scorer,
    y_true: np.ndarray,
    predictions: np.ndarray,
    scores: np.ndarray | None,
    classes: np.ndarray | None,
    confidence_level: float,
    n_resamples: int,
    rng: np.random.Generator,
) -> IntervalResult:
    """The score of one held-out set with its interval: Wilson for accuracy and error
    rate, the t interval of the mean loss for the mean squared and absolute errors, else
    a percentile bootstrap; clipped to the metric's range."""
    if scorer.function is accuracy_score or scorer.function is error_rate:
        wrong = np.asarray(y_true) != np.asarray(predictions)
        count = int(np.count_nonzero(~wrong if scorer.function is accuracy_score else wrong))
        interval = proportion_ci(count, y_true.shape[0], confidence_level=confidence_level)
        assert isinstance(interval, IntervalResult)  # one count, one interval
        return interval
    if scorer.function is mean_squared_error or scorer.function is mean_absolute_error:
        residuals = np.asarray(y_true, dtype=np.float64) - np.asarray(
            predictions, dtype=np.float64
        )
        losses = residuals**2 if scorer.function is mean_squared_error else np.abs(residuals)
        return within_range(mean_ci(losses, confidence_level=confidence_level), scorer.value_range)
    options: dict[str, Any] = {}
    if scorer.class_options:
        options = {"multi_class": "ovr", "labels": classes}
    values = scores if scorer.needs_scores else predictions
    result = bootstrap(
        scorer.function,
        y_true,
        values,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        rng=rng,
        **options,
    )
    interval = IntervalResult(
        estimate=result.estimate,
        confidence_interval=result.confidence_interval,
        standard_error=result.standard_error,
        confidence_level=confidence_level,
        method="percentile bootstrap",
        n=y_true.shape[0],
        details=MappingProxyType({"n_resamples": n_resamples, "n_undefined": result.n_undefined}),
    )
    return within_range(interval, scorer.value_range)


def fit_and_score(
    make_model: Callable[[], Any],
    X: Any,
    y: np.ndarray,
    X_eval: Any,
    y_eval: np.ndarray,
    scorer: Scorer,
    classes: np.ndarray | None,
    interval: Callable[..., IntervalResult] | None,
) -> tuple[Any, float | IntervalResult]:
    """A fresh model fitted on ``X, y`` and its score on ``X_eval`` (with its interval
    when ``interval`` is given: ``interval(y_eval, predictions, scores)``)."""
    model = make_model()
    model.fit(X, y)
    predictions = np.asarray(model.predict(X_eval))
    scores = None
    if scorer.needs_scores:
        training_classes = None if classes is None else np.unique(y)
        scores = continuous_scores(model, X_eval, classes, training_classes)
    if interval is not None:
        return model, interval(y_eval, predictions, scores)
    return model, score(scorer, y_eval, predictions, scores, classes)


def cross_validated_grid(
    chosen: Setup,
    X: Any,
    y: Any,
    *,
    cv: Any,
    rng: Any,
    n_jobs: Any,
    confidence_level: float,
    repeated: RepeatedWarnings,
    summaries: RepeatedWarnings,
) -> tuple[list[CrossValidationResult], Any]:
    """Every grid point cross-validated on the same splits (drawn once); the splitter.

    The warnings of the fits go to ``repeated``, those of the summaries (equal scores,
    a single split) to ``summaries``; the caller shows both.
    """
    results: list[CrossValidationResult] = []
    splits = None
    splitter = cv
    with summaries:
        for factory in chosen.factories:
            result, splits, splitter = summaries.call(
                functools.partial(
                    _run,
                    factory,
                    X,
                    y,
                    cv=splitter,
                    metrics=chosen.metrics,
                    rng=rng if splits is None else None,
                    n_jobs=n_jobs,
                    confidence_level=confidence_level,
                    return_scores=False,
                    splits=splits,
                    repeated=repeated,
                )
            )
            results.append(result)
    return results, splitter


def _fitted(make_model: Callable[[], Any], X: Any, y: np.ndarray) -> Any:
    model = make_model()
    model.fit(X, y)
    return model


def is_integer(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _pair(value: Any, name: str) -> tuple[Any, np.ndarray]:
    if not (isinstance(value, tuple | list) and len(value) == 2):
        raise ValueError(
            f"`{name}` must be a pair (X, y) of held-out rows; got {type(value).__name__}."
        )
    X_held, y_held = value
    return X_held, target_vector(y_held, _n_samples(X_held))


def select_hyperparameter(
    model: Any,
    grid: Any,
    X: Any,
    y: Any,
    *,
    validation: Any = None,
    cv: Any = None,
    metric: Any = None,
    rule: str = "best",
    complexity: Any = None,
    refit: bool = True,
    test: Any = None,
    rng: Any = None,
    n_jobs: int = 1,
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
) -> SelectionResult:
    """Choose a hyperparameter on a validation set or by cross-validation, refit, test once.

    Parameters
    ----------
    model : estimator, built-in learner or factory
        A scikit-learn style estimator (``fit``, ``predict``, ``set_params``; each
        point gets a deep copy with ``set_params(**point)``), a built-in learner of
        :mod:`assay.protocols` (``KNNClassifier(1)``, ``PolynomialRegression(1)``; each
        point gets ``dataclasses.replace``), or a factory called with the point's
        values (``KNNClassifier``, ``lambda degree: ...``: ``model(value)`` for a list
        grid, ``model(**point)`` for a dict grid).
    grid : sequence or dict of sequences
        One parameter's values (its name: the built-in learner's one field, or the
        factory's first parameter), or ``{name: values}``: every combination, in the
        order given, the last name varying fastest.
    X, y : array-like
        The training data (with ``cv``: all the data the folds split).
    validation : (X_val, y_val), optional
        The validation set: every point is fitted on ``X, y`` and scored on it.
    cv : int, splitter or iterable of (train, test), optional
        Cross-validation instead of a validation set, as in :func:`cross_validate`;
        the splits are drawn once and shared by every point.  Give ``validation`` or
        ``cv``, not both.
    metric : str, callable or dict, optional
        One metric, as in :func:`compare_models`; default ``'accuracy_score'`` for
        class targets, ``'mean_squared_error'`` otherwise.  A callable must have a
        ``greater_is_better`` attribute.
    rule : {'best', 'one_standard_error'}, default='best'
        ``'best'``: the best validation score (the first among equal ones).
        ``'one_standard_error'``: :func:`one_standard_error_rule` on the scores and
        their standard errors.
    complexity : array-like of shape (n_points,), optional
        For the one-standard-error rule: each point's complexity (the default, the
        grid's order, first = simplest).  For k-NN a larger k is simpler, e.g.
        ``complexity=[-k for k in ks]``.
    refit : bool, default=True
        Fit the chosen point's model on all of ``X, y`` (``result.model``).
    test : (X_test, y_test), optional
        A test set, used once, to score the refit model.  Needs ``refit=True``.
    rng : None, int or numpy.random.Generator, default=None
        Seed of the shuffled folds when ``cv`` is an integer (without it the folds are
        contiguous, as in :func:`cross_validate`; a splitter uses its own), and of the
        bootstrap intervals.
    n_jobs : int, default=1
        Threads (grid points on a validation set; splits under cross-validation).
    confidence_level : float, default=0.95
        Level of every interval.
    n_resamples : int, default=2000
        Bootstrap replicates of a held-out interval (metrics other than accuracy, error
        rate, mean squared and mean absolute error).

    Returns
    -------
    SelectionResult
        Per point ``validation_scores``, ``validation_intervals`` (and
        ``corrected_intervals`` under cross-validation) and ``standard_errors``;
        ``best_index``, ``chosen_index``, ``chosen``, ``reason``, the refit ``model``,
        the ``test`` estimate with its interval, and ``note`` on selection bias.

    Raises
    ------
    ValueError
        Both or neither of ``validation`` and ``cv``; an empty grid or a list grid for
        a model whose parameter has no default name; an unknown ``rule``; ``test``
        with ``refit=False``; a metric without ``greater_is_better``; a non-finite
        validation score; the errors of :func:`cross_validate`.
    TypeError
        A model of none of the accepted kinds, or without ``set_params``.

    Warns
    -----
    Warning
        A warning of the model or metric in several fits is shown once, counted.

    Notes
    -----
    Wu, "Evaluation", section 1.3: split the data into disjoint training, validation
    and test sets (:func:`holdout` with ``validation_size``); train one model per
    hyperparameter value (e.g. ``k in {1, 3, 5, 7, 9}`` for k-NN) on the training
    set; keep the value of smallest validation error; train with it and evaluate on
    the test set.  Section 1.4: with few examples, cross-validation replaces the
    validation set.

    **Selection bias.**  The chosen point's validation score is the best of several
    noisy estimates, so it is optimistic: its expectation is better than the chosen
    model's true score, more so with more points and a smaller validation set
    (Cawley & Talbot 2010; Varma & Simon 2006).  Only the test score, on data the
    choice never saw, is an unbiased estimate; with cross-validation and no test set,
    :func:`nested_cross_validate` estimates the whole procedure.  The intervals of the
    validation scores hold for each point taken alone, not for the chosen one.

    The held-out intervals: accuracy and error rate, Wilson's interval
    (:func:`assay.proportion_ci`) of the count of correct (wrong) predictions; mean
    squared and mean absolute error, the t interval of the mean of the row losses
    (:func:`assay.mean_ci`); any other metric, a percentile bootstrap
    (:func:`assay.bootstrap`) of the held-out rows.  Their ``standard_error``
    (binomial ``sqrt(p(1-p)/n)``, ``s / sqrt(n)``, or the bootstrap's) feeds the
    one-standard-error rule.  Under cross-validation: the t
    interval and Nadeau & Bengio's corrected interval of :func:`cross_validate`; the
    rule reads the t interval's standard error ``s / sqrt(J)`` (Hastie, Tibshirani &
    Friedman 2001, section 7.10).

    References
    ----------
    G. C. Cawley and N. L. C. Talbot, "On over-fitting in model selection and
    subsequent selection bias in performance evaluation", JMLR 11 (2010).
    S. Varma and R. Simon, "Bias in error estimation when using cross-validation for
    model selection", BMC Bioinformatics 7:91 (2006).

    Examples
    --------
    >>> from assay.protocols import KNNClassifier, holdout, select_hyperparameter, two_gaussians
    >>> x, y, _ = two_gaussians(600, variances=1.0, rng=0)
    >>> train, validation, test = holdout(600, 0.2, validation_size=0.2, rng=1)
    >>> X = x[:, None]
    >>> result = select_hyperparameter(
    ...     KNNClassifier, [1, 3, 5, 7, 9], X[train], y[train],
    ...     validation=(X[validation], y[validation]), test=(X[test], y[test]),
    ... )
    >>> result.chosen["n_neighbors"] in (1, 3, 5, 7, 9), result.test.method
    (True, 'wilson')
    """
    check_option(rule, "rule", _RULES)
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = check_integer(n_resamples, "n_resamples", 1)
    workers = _n_workers(n_jobs)
    if (validation is None) == (cv is None):
        raise ValueError(
            "give exactly one of `validation` (a held-out set) and `cv` (cross-validation); "
            f"got {'both' if cv is not None else 'neither'}."
        )
    if test is not None and not refit:
        raise ValueError("`test` scores the refit model; it needs refit=True.")
    chosen_setup = setup(model, grid, X, y, metric)
    scorer, classes = chosen_setup.scorer, chosen_setup.classes
    seed = None if rng is None else resolve_seed(rng)
    interval_seed = resolve_seed(None) if seed is None else seed
    m = len(chosen_setup.grid)

    def interval_for(index: int) -> Callable[..., IntervalResult]:
        def compute(y_eval: Any, predictions: Any, scores: Any) -> IntervalResult:
            return held_out_interval(
                scorer, y_eval, predictions, scores, classes, confidence_level,
                n_resamples, _stream(interval_seed, index),
            )  # fmt: skip

        return compute

    repeated = RepeatedWarnings("fits")
    summaries = RepeatedWarnings("cross-validations")
    corrected: tuple[IntervalResult, ...] | None = None
    n_splits = None
    if validation is not None:
        X_val, y_val = _pair(validation, "validation")
        protocol, source, n_validation = "validation", "validation", float(y_val.shape[0])

        def evaluate(index: int) -> IntervalResult:
            _, found = fit_and_score(
                chosen_setup.factories[index], X, chosen_setup.targets, X_val, y_val,
                scorer, classes, interval_for(index),
            )  # fmt: skip
            assert isinstance(found, IntervalResult)
            return found

        with repeated:
            if workers == 1 or m == 1:
                intervals = [repeated.call(evaluate, index) for index in range(m)]
            else:
                with ThreadPoolExecutor(max_workers=min(workers, m)) as pool:
                    intervals = list(
                        pool.map(lambda index: repeated.call(evaluate, index), range(m))
                    )
        folds_seed_used = None
    else:
        folds_seed = seed if is_integer(cv) else None  # a splitter has its own rng
        results, splitter = cross_validated_grid(
            chosen_setup, X, chosen_setup.targets, cv=cv, rng=folds_seed, n_jobs=n_jobs,
            confidence_level=confidence_level, repeated=repeated, summaries=summaries,
        )  # fmt: skip
        name = results[0].metrics[0]
        intervals = [result.interval[name] for result in results]
        corrected = tuple(result.corrected_interval[name] for result in results)
        protocol, source = "cross-validation", "cross-validated"
        n_validation = float(results[0].n_test.mean())
        n_splits = results[0].n_splits
        folds_seed_used = getattr(splitter, "seed", None)
    scores = np.array([interval.estimate for interval in intervals], dtype=np.float64)
    errors = np.array([interval.standard_error for interval in intervals], dtype=np.float64)
    greater = bool(scorer.greater_is_better)
    best, chosen = choose(scores, errors, greater, rule, complexity)
    fitted = None
    test_result = None
    if refit:
        with repeated:
            if test is None:
                fitted = repeated.call(
                    _fitted, chosen_setup.factories[chosen], X, chosen_setup.targets
                )
            else:
                X_test, y_test = _pair(test, "test")
                fitted, found = repeated.call(
                    fit_and_score, chosen_setup.factories[chosen], X, chosen_setup.targets,
                    X_test, y_test, scorer, classes, interval_for(m),
                )  # fmt: skip
                assert isinstance(found, IntervalResult)
                test_result = found
    repeated.emit(stacklevel=2)
    summaries.emit(stacklevel=2)
    drawn = [*intervals, *([test_result] if test_result is not None else [])]
    bootstrapped = (
        any(interval.method != "wilson" for interval in drawn) and validation is not None
    )
    bootstrapped = bootstrapped or (test_result is not None and test_result.method != "wilson")
    rng_seed = seed if seed is not None else interval_seed if bootstrapped else folds_seed_used
    return SelectionResult(
        metric=scorer.name,
        greater_is_better=greater,
        rule=rule,
        protocol=protocol,
        parameters=chosen_setup.grid.names,
        grid=chosen_setup.grid.points,
        validation_scores=scores,
        validation_intervals=tuple(intervals),
        corrected_intervals=corrected,
        standard_errors=errors,
        best_index=best,
        chosen_index=chosen,
        reason=reason(
            rule, source, scorer, chosen_setup.grid, scores, errors, best, chosen, complexity
        ),
        model=fitted,
        test=test_result,
        note=_note(source, m, test_result is not None),
        n_train=chosen_setup.targets.shape[0],
        n_validation=n_validation,
        n_splits=n_splits,
        confidence_level=confidence_level,
        rng_seed=rng_seed,
    )


def _note(source: str, m: int, tested: bool) -> str:
    text = (
        f"The chosen point's {source} score is optimistic (selection bias): it was chosen "
        f"by comparing {m} noisy scores of the same rows."
    )
    if tested:
        return text + " The test score, on rows the choice never saw, is not."
    return text + (
        " Score the refit model on a test set, or use nested_cross_validate, for an "
        "unbiased estimate."
    )
