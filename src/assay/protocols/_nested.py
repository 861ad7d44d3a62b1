"""Nested cross-validation (:func:`nested_cross_validate`): the honest estimate of a
selection procedure."""

from __future__ import annotations

from typing import Any

import numpy as np

from assay._procedure_checks import check_confidence_level
from assay._results import IntervalResult, NestedCrossValidationResult
from assay._validation import check_option, resolve_seed
from assay._warnings import RepeatedWarnings
from assay.protocols._cross_validation import (
    _materialise,
    _n_workers,
    _splitter_for,
    _summaries,
)
from assay.protocols._models import take_rows
from assay.protocols._selection import (
    _RULES,
    choose,
    cross_validated_grid,
    fit_and_score,
    is_integer,
    setup,
)
from assay.protocols._splitters import _stream

__all__ = ["nested_cross_validate"]

# Seeds of the inner folds are drawn below this bound (a valid `rng` integer).
_SEED_BOUND = 2**63


def nested_cross_validate(
    model: Any,
    grid: Any,
    X: Any,
    y: Any,
    *,
    cv: Any = 5,
    inner_cv: Any = 5,
    metric: Any = None,
    rule: str = "best",
    complexity: Any = None,
    rng: Any = None,
    n_jobs: int = 1,
    confidence_level: float = 0.95,
) -> NestedCrossValidationResult:
    """Cross-validate a whole selection procedure: inner loops choose, the outer scores.

    Parameters
    ----------
    model : estimator, built-in learner or factory
        As in :func:`select_hyperparameter`.
    grid : sequence or dict of sequences
        As in :func:`select_hyperparameter`.
    X, y : array-like
        The data.
    cv : int, splitter or iterable of (train, test), default=5
        The outer splits, as in :func:`cross_validate`.
    inner_cv : int or splitter, default=5
        The splits of every outer training set (an integer: (Stratified)KFold, as for
        ``cv``); a splitter is applied to each outer training set.
    metric : str, callable or dict, optional
        One metric, as in :func:`select_hyperparameter`.
    rule : {'best', 'one_standard_error'}, default='best'
        How each inner loop chooses (see :func:`select_hyperparameter`).
    complexity : array-like of shape (n_points,), optional
        For the one-standard-error rule.
    rng : None, int or numpy.random.Generator, default=None
        Seed of the shuffled folds when ``cv`` or ``inner_cv`` is an integer: the outer
        folds are those of ``cross_validate(..., cv=cv, rng=rng)``; outer split ``i``'s
        inner folds are shuffled by a seed drawn from the stream ``(seed, i)``.  None:
        contiguous folds.
    n_jobs : int, default=1
        Threads for the inner splits.
    confidence_level : float, default=0.95
        Level of the two intervals of the mean.

    Returns
    -------
    NestedCrossValidationResult
        The outer ``scores``, their ``mean``, ``std``, ``interval`` (t) and
        ``corrected_interval`` (Nadeau & Bengio), ``chosen_index`` and ``chosen`` per
        outer split, and ``inner_scores`` (every point's inner mean).

    Raises
    ------
    ValueError
        ``inner_cv`` neither an integer nor a splitter; ``rng`` with two splitters;
        an unknown ``rule``; the errors of :func:`select_hyperparameter` and
        :func:`cross_validate`.

    Warns
    -----
    DegenerateDataWarning
        All outer scores equal, or a single outer split.
    Warning
        A warning of the model or metric in several fits is shown once, counted.

    Notes
    -----
    The score of the model chosen by a selection on the same data is optimistic (see
    :func:`select_hyperparameter`).  Nested cross-validation (Varma & Simon 2006;
    Cawley & Talbot 2010) estimates the procedure "choose by inner cross-validation,
    then refit" instead: for every outer split, the whole selection runs on the outer
    training rows alone, the chosen model is refit on them and scored on the outer test
    rows, which no choice saw.  The mean of these scores estimates the procedure's
    performance on new data (as cross-validation estimates a learner's, for training
    sets of the outer size); the chosen values may differ between outer splits, which
    shows how stable the choice is.  To use the procedure, run
    :func:`select_hyperparameter` on all the data with the same ``inner_cv``.

    Every outer score is an unbiased test when an outer training set and its test fold
    are independent samples, as with plain shuffled folds
    (``cv=KFold(k, shuffle=True, rng=...)``).  Stratified outer folds (the default for an
    integer ``cv`` and class labels) make a test fold mirror the class balance of its
    training rows, which lifts the score of a model leaning to its training majority
    slightly above its accuracy on new data when the features carry little signal
    (measured in the user guide).

    References
    ----------
    S. Varma and R. Simon, "Bias in error estimation when using cross-validation for
    model selection", BMC Bioinformatics 7:91 (2006).
    G. C. Cawley and N. L. C. Talbot, "On over-fitting in model selection and
    subsequent selection bias in performance evaluation", JMLR 11 (2010).

    Examples
    --------
    >>> from assay.protocols import KNNClassifier, nested_cross_validate, two_gaussians
    >>> x, y, _ = two_gaussians(200, variances=1.0, rng=4)
    >>> result = nested_cross_validate(
    ...     KNNClassifier, [1, 5, 9], x[:, None], y, cv=4, inner_cv=3, rng=0
    ... )
    >>> result.scores.tolist()
    [0.84, 0.82, 0.86, 0.82]
    >>> [point["n_neighbors"] for point in result.chosen]
    [5, 5, 9, 5]
    """
    check_option(rule, "rule", _RULES)
    confidence_level = check_confidence_level(confidence_level)
    _n_workers(n_jobs)
    if not (is_integer(inner_cv) or hasattr(inner_cv, "split")):
        raise ValueError(
            "`inner_cv` must be an integer (the number of folds) or a splitter with a "
            f"split method (applied to every outer training set); got {inner_cv!r}."
        )
    chosen_setup = setup(model, grid, X, y, metric)
    scorer, classes, targets = chosen_setup.scorer, chosen_setup.classes, chosen_setup.targets
    seed = None if rng is None else resolve_seed(rng)
    if seed is not None and not (is_integer(cv) or is_integer(inner_cv)):
        raise ValueError(
            "`rng` is used only when `cv` or `inner_cv` is an integer; give the "
            "splitters their own `rng`."
        )
    probe = chosen_setup.factories[0]()
    outer = _splitter_for(cv, targets, probe, seed if is_integer(cv) else None)
    splits = _materialise(outer, X, targets, targets.shape[0])
    greater = bool(scorer.greater_is_better)
    repeated = RepeatedWarnings("fits")
    summaries = RepeatedWarnings("cross-validations")
    scores, chosen, inner_scores = [], [], []
    for position, (train, test) in enumerate(splits):
        X_train, y_train = take_rows(X, train), targets[train]
        inner_seed = None
        if seed is not None and is_integer(inner_cv):
            inner_seed = int(_stream(seed, position).integers(0, _SEED_BOUND))
        results, _ = cross_validated_grid(
            chosen_setup, X_train, y_train, cv=inner_cv, rng=inner_seed, n_jobs=n_jobs,
            confidence_level=confidence_level, repeated=repeated, summaries=summaries,
        )  # fmt: skip
        name = results[0].metrics[0]
        intervals = [result.interval[name] for result in results]
        means = np.array([interval.estimate for interval in intervals])
        errors = np.array([interval.standard_error for interval in intervals])
        _, index = choose(means, errors, greater, rule, complexity)
        with repeated:
            _, value = repeated.call(
                fit_and_score, chosen_setup.factories[index], X_train, y_train,
                take_rows(X, test), targets[test], scorer, classes, None,
            )  # fmt: skip
        scores.append(float(value))  # type: ignore[arg-type]
        chosen.append(index)
        inner_scores.append(means)
    repeated.emit(stacklevel=2)
    summaries.emit(stacklevel=2)
    values = np.array(scores, dtype=np.float64)
    n_train = np.array([train.shape[0] for train, _ in splits], dtype=np.int64)
    n_test = np.array([test.shape[0] for _, test in splits], dtype=np.int64)
    mean, std, interval, corrected = _summarise(
        scorer.name, values, float(n_test.mean() / n_train.mean()), confidence_level,
        scorer.value_range,
    )  # fmt: skip
    return NestedCrossValidationResult(
        metric=scorer.name,
        greater_is_better=greater,
        rule=rule,
        parameters=chosen_setup.grid.names,
        grid=chosen_setup.grid.points,
        scores=values,
        mean=mean,
        std=std,
        interval=interval,
        corrected_interval=corrected,
        chosen_index=np.array(chosen, dtype=np.int64),
        inner_scores=np.array(inner_scores, dtype=np.float64),
        n_train=n_train,
        n_test=n_test,
        confidence_level=confidence_level,
        rng_seed=seed if seed is not None else getattr(outer, "seed", None),
    )


def _summarise(
    name: str,
    values: np.ndarray,
    ratio: float,
    confidence_level: float,
    value_range: tuple[float, float],
) -> tuple[float, float, IntervalResult, IntervalResult]:
    # one frame between _summaries and the user, as cross_validate has: its warnings
    # (stacklevel=4) then point at the user's line
    return _summaries(name, values, ratio, confidence_level, value_range)
