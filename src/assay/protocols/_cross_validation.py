"""Cross-validation of a model (:func:`cross_validate`).

Comparing two models on the same folds is :mod:`assay.protocols._model_selection`, with
the one-standard-error rule.

The model is anything with ``fit(X, y)`` and ``predict(X)`` (and ``decision_function``
or ``predict_proba`` for ranking metrics), or a zero-argument factory returning one.
assay does not import scikit-learn: a fresh model per split is the factory's result or
a ``copy.deepcopy`` of the unfitted model given (:mod:`assay.protocols._models`, shared
with the bootstrap estimators).
"""

from __future__ import annotations

import math
import numbers
import os
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from types import MappingProxyType
from typing import Any

import numpy as np

from assay._distributions import critical_value
from assay._procedure_checks import check_confidence_level
from assay._results import (
    ConfidenceInterval,
    CrossValidationResult,
    IntervalResult,
)
from assay._warnings import RepeatedWarnings
from assay.exceptions import DegenerateDataWarning
from assay.inference import mean_ci
from assay.protocols._models import model_factory, take_rows
from assay.protocols._models import targets as target_vector
from assay.protocols._scoring import Scorer, continuous_scores, score, scorers, within_range
from assay.protocols._splitters import KFold, StratifiedKFold, _n_samples

__all__ = ["cross_validate"]

# --- Models. ---


def _declared_type(model: Any) -> str | None:
    """'classifier' / 'regressor' when the model says so (scikit-learn's tags), else None."""
    try:
        tags = model.__sklearn_tags__()
        declared = getattr(tags, "estimator_type", None)
    except Exception:  # any model without (working) tags
        declared = None
    declared = declared or getattr(model, "_estimator_type", None)
    return declared if declared in ("classifier", "regressor") else None


def _is_class_target(y: np.ndarray) -> bool:
    """Labels rather than continuous values: not float, or float with integral values."""
    if y.dtype.kind != "f":
        return True
    return bool(np.all(np.isfinite(y)) and np.all(y == np.round(y)))


# --- Data. ---


# --- Splits. ---


def _splitter_for(cv: Any, y: np.ndarray, model: Any, rng: Any) -> Any:
    """The splitter for ``cv``: an int becomes (Stratified)KFold, like scikit-learn."""
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        declared = _declared_type(model)
        stratified = declared != "regressor" and _is_class_target(y)
        kind = StratifiedKFold if stratified else KFold
        return kind(int(cv), shuffle=rng is not None, rng=rng)
    if rng is not None:
        raise ValueError(
            "`rng` is used only when `cv` is an integer; give a splitter its own `rng`."
        )
    if hasattr(cv, "split"):
        return cv
    if isinstance(cv, Iterable) and not isinstance(cv, str | bytes):
        return cv
    raise ValueError(
        "`cv` must be an integer (the number of folds), a splitter with a split method, "
        f"or an iterable of (train, test) index arrays; got {cv!r}."
    )


def _as_index(values: Any, n: int, what: str, position: int) -> np.ndarray:
    index = np.asarray(values)
    if index.dtype.kind == "b" and index.shape == (n,):
        index = np.flatnonzero(index)
    if index.ndim != 1 or (index.size and index.dtype.kind not in "iu"):
        raise ValueError(
            f"split {position}: the {what} indices must be a 1-D integer array (or a "
            f"boolean mask of length {n}); got {index.dtype} of shape {index.shape}."
        )
    index = index.astype(np.int64, copy=False)
    if index.shape[0] == 0:
        raise ValueError(f"split {position}: the {what} set is empty.")
    if index.min() < 0 or index.max() >= n:
        raise ValueError(
            f"split {position}: {what} indices must be in [0, {n - 1}]; got values from "
            f"{int(index.min())} to {int(index.max())}."
        )
    return index


def _materialise(
    splitter: Any, X: Any, y: np.ndarray, n: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    pairs = splitter.split(X, y) if hasattr(splitter, "split") else splitter
    splits = []
    for position, pair in enumerate(pairs):
        try:
            train, test = pair
        except (TypeError, ValueError):
            raise ValueError(
                f"split {position} is not a (train, test) pair; got {pair!r}."
            ) from None
        splits.append(
            (_as_index(train, n, "train", position), _as_index(test, n, "test", position))
        )
    if not splits:
        raise ValueError("`cv` produced no splits.")
    return splits


def _rounds(splits: Sequence[tuple[np.ndarray, np.ndarray]], n: int) -> np.ndarray:
    """Round of every split: a new round starts when a test row was already tested.

    The folds of one k-fold partition share a round; each repeat of repeated k-fold is
    a round; bootstrap resamples (whose out-of-bag sets overlap) mostly get one each.
    """
    rounds = np.empty(len(splits), dtype=np.int64)
    tested = np.zeros(n, dtype=bool)
    current = 0
    for position, (_, test) in enumerate(splits):
        if tested[test].any():
            current += 1
            tested[:] = False
        tested[test] = True
        rounds[position] = current
    return rounds


# --- One split. ---


def _evaluate_split(
    make_model: Callable[[], Any],
    X: Any,
    y: np.ndarray,
    split: tuple[np.ndarray, np.ndarray],
    metrics: list[Scorer],
    want_scores: bool,
    classes: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray | None, list[float], float, float]:
    train, test = split
    model = make_model()
    start = time.perf_counter()
    model.fit(take_rows(X, train), y[train])
    fitted = time.perf_counter()
    X_test, y_test = take_rows(X, test), y[test]
    predictions = np.asarray(model.predict(X_test))
    scores = None
    if want_scores:
        training_classes = None if classes is None else np.unique(y[train])
        scores = continuous_scores(model, X_test, classes, training_classes)
    values = [score(metric, y_test, predictions, scores, classes) for metric in metrics]
    return predictions, scores, values, fitted - start, time.perf_counter() - fitted


def _n_workers(n_jobs: Any) -> int:
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0:
        raise ValueError(f"`n_jobs` must be a positive integer or -1 (all cores); got {n_jobs!r}.")
    if n_jobs < 0:
        return os.cpu_count() or 1
    return int(n_jobs)


# --- Summaries. ---


def _nan_interval(confidence_level: float, method: str, n: int) -> IntervalResult:
    return IntervalResult(
        estimate=math.nan,
        confidence_interval=ConfidenceInterval(math.nan, math.nan),
        standard_error=math.nan,
        confidence_level=confidence_level,
        method=method,
        n=n,
    )


def _summaries(
    name: str,
    values: np.ndarray,
    ratio: float,
    confidence_level: float,
    value_range: tuple[float, float],
) -> tuple[float, float, IntervalResult, IntervalResult]:
    """Mean, sample std, t interval and Nadeau-Bengio corrected interval of one metric,
    both intervals clipped to the metric's range."""
    splits = values.shape[0]
    if splits < 2 or not np.all(np.isfinite(values)):
        if splits < 2:
            warnings.warn(
                f"`cv` gave a single split: the spread of `{name}` and its intervals are "
                "undefined (NaN).",
                DegenerateDataWarning,
                stacklevel=4,
            )
        mean = float(values.mean()) if splits else math.nan
        return (
            mean,
            math.nan,
            _nan_interval(confidence_level, "t", splits),
            _nan_interval(confidence_level, "nadeau-bengio", splits),
        )
    if np.all(values == values[0]):
        warnings.warn(
            f"all {splits} split scores of `{name}` are equal ({values[0].item()!r}); "
            "their standard deviation is 0 and the intervals have zero width.",
            DegenerateDataWarning,
            stacklevel=4,
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        interval = mean_ci(values, confidence_level=confidence_level)
    std = float(interval.details["standard_deviation"])
    factor = 1.0 / splits + ratio
    standard_error = math.sqrt(factor) * std
    critical = critical_value(confidence_level, float(splits - 1))
    corrected = IntervalResult(
        estimate=interval.estimate,
        confidence_interval=ConfidenceInterval(
            interval.estimate - critical * standard_error,
            interval.estimate + critical * standard_error,
        ),
        standard_error=standard_error,
        confidence_level=confidence_level,
        method="nadeau-bengio",
        n=splits,
        details=MappingProxyType(
            {"df": float(splits - 1), "critical_value": critical, "variance_factor": factor}
        ),
    )
    return (
        interval.estimate,
        std,
        within_range(interval, value_range),
        within_range(corrected, value_range),
    )


def _pooled(
    outputs: list[Any], splits: list[tuple[np.ndarray, np.ndarray]], n: int
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Out-of-fold predictions and scores per round, and the split of every entry."""
    rounds = _rounds(splits, n)
    n_rounds = int(rounds[-1]) + 1
    dtype = np.result_type(*[output[0] for output in outputs])
    oof_pred = (
        np.full((n_rounds, n), np.nan, dtype=dtype)
        if dtype.kind in "fc"
        else np.zeros((n_rounds, n), dtype=dtype)
    )
    first_scores = outputs[0][1]
    oof_score = (
        None
        if first_scores is None
        else np.full((n_rounds, n, *first_scores.shape[1:]), np.nan)  # multi-class: k columns
    )
    oof_fold = np.full((n_rounds, n), -1, dtype=np.int64)
    for position, ((_, test), output) in enumerate(zip(splits, outputs, strict=True)):
        row = rounds[position]
        oof_pred[row, test] = output[0]
        if oof_score is not None:
            oof_score[row, test] = output[1]
        oof_fold[row, test] = position
    return oof_pred, oof_score, oof_fold


def _run(
    model: Any,
    X: Any,
    y: Any,
    *,
    cv: Any,
    metrics: Any,
    rng: Any,
    n_jobs: Any,
    confidence_level: Any,
    return_scores: bool,
    model_name: str = "model",
    splits: list[tuple[np.ndarray, np.ndarray]] | None = None,
    min_splits: int = 1,
    repeated: RepeatedWarnings | None = None,
) -> tuple[CrossValidationResult, list[tuple[np.ndarray, np.ndarray]], Any]:
    """cross_validate's work; also returns the splits and the splitter it used.

    The warnings of the splits are collected in ``repeated`` when given (the caller
    shows them), else shown here, each once with its count.
    """
    confidence_level = check_confidence_level(confidence_level)
    workers = _n_workers(n_jobs)
    make_model = model_factory(model, model_name)
    n = _n_samples(X)
    targets = target_vector(y, n)
    # the model itself, or one made by the factory, tells whether it is a regressor
    probe = model if not isinstance(model, type) and hasattr(model, "fit") else make_model()
    classification = _declared_type(probe) != "regressor" and _is_class_target(targets)
    classes = np.unique(targets) if classification else None
    metric_list = scorers(metrics, classification, classes)
    splitter = _splitter_for(cv, targets, probe, rng) if splits is None else cv
    if splits is None:
        splits = _materialise(splitter, X, targets, n)
    if len(splits) < min_splits:
        raise ValueError(
            f"`cv` gave {len(splits)} split; comparing models needs at least {min_splits}."
        )
    want_scores = return_scores or any(metric.needs_scores for metric in metric_list)

    def evaluate(split: tuple[np.ndarray, np.ndarray]) -> Any:
        return _evaluate_split(make_model, X, targets, split, metric_list, want_scores, classes)

    # a warning of the model or a metric on every split reaches the user once, counted
    collected = RepeatedWarnings("splits") if repeated is None else repeated
    with collected:
        if workers == 1 or len(splits) == 1:
            outputs = [collected.call(evaluate, split) for split in splits]
        else:
            with ThreadPoolExecutor(max_workers=min(workers, len(splits))) as pool:
                outputs = list(pool.map(lambda split: collected.call(evaluate, split), splits))
    if repeated is None:
        collected.emit(stacklevel=3)  # frames: _run, cross_validate, the user

    n_train = np.array([train.shape[0] for train, _ in splits], dtype=np.int64)
    n_test = np.array([test.shape[0] for _, test in splits], dtype=np.int64)
    ratio = float(n_test.mean() / n_train.mean())
    scores: dict[str, np.ndarray] = {}
    means: dict[str, float] = {}
    stds: dict[str, float] = {}
    intervals: dict[str, IntervalResult] = {}
    corrected: dict[str, IntervalResult] = {}
    for column, metric in enumerate(metric_list):
        name = metric.name
        values = np.array([output[2][column] for output in outputs], dtype=np.float64)
        scores[name] = values
        means[name], stds[name], intervals[name], corrected[name] = _summaries(
            name, values, ratio, confidence_level, metric.value_range
        )
    oof_pred, oof_score, oof_fold = _pooled(outputs, splits, n)
    result = CrossValidationResult(
        metrics=tuple(metric.name for metric in metric_list),
        scores=MappingProxyType(scores),
        mean=MappingProxyType(means),
        std=MappingProxyType(stds),
        interval=MappingProxyType(intervals),
        corrected_interval=MappingProxyType(corrected),
        confidence_level=confidence_level,
        n_train=n_train,
        n_test=n_test,
        fit_time=np.array([output[3] for output in outputs]),
        score_time=np.array([output[4] for output in outputs]),
        oof_pred=oof_pred,
        oof_score=oof_score,
        oof_fold=oof_fold,
        rng_seed=getattr(splitter, "seed", None),
    )
    return result, splits, splitter


# --- Public functions. ---


def cross_validate(
    model: Any,
    X: Any,
    y: Any,
    *,
    cv: Any = 5,
    metrics: Any = None,
    rng: Any = None,
    n_jobs: int = 1,
    confidence_level: float = 0.95,
    return_scores: bool = False,
) -> CrossValidationResult:
    """Cross-validated scores of a model: per split, their mean, spread and intervals,
    and the pooled out-of-fold predictions.

    Parameters
    ----------
    model : object or callable
        An unfitted model with ``fit(X, y)`` and ``predict(X)`` (and
        ``decision_function`` or ``predict_proba`` for ranking metrics), or a
        zero-argument factory returning one.  Every split gets a fresh model: the
        factory's result, or ``copy.deepcopy(model)``.
    X : array-like of shape (n_samples, ...)
        The data; rows are taken with ``X[index]`` (``X.iloc[index]`` for pandas).
    y : array-like of shape (n_samples,)
        Targets.
    cv : int, splitter or iterable of (train, test), default=5
        An integer ``k`` gives k folds: :class:`StratifiedKFold` for class targets
        (integers, booleans, strings, integral floats) unless the model declares
        itself a regressor (scikit-learn's tags), :class:`KFold` otherwise.  Without
        ``rng`` the folds are contiguous (not shuffled), as in scikit-learn; with
        ``rng`` they are shuffled.  Or any object with ``split(X, y)`` (the assay
        splitters, scikit-learn's), or an iterable of ``(train_index, test_index)``.
    metrics : str, callable, sequence of them, or dict, optional
        assay metric names (``'accuracy_score'``, ``'roc_auc_score'``, ...) or
        callables ``f(y_true, y_pred)``, a metric with options as a
        ``functools.partial`` (reported as ``"f1_score(average='macro')"``), or a dict
        ``{name: metric}`` naming them.  Default: ``'accuracy_score'`` for class
        targets, ``'mean_squared_error'`` otherwise.  Ranking metrics (and callables
        whose second parameter is named ``y_score``, ``y_prob`` or ``y_proba``)
        receive continuous scores: ``decision_function(X)`` if the model has it, else
        the second column of ``predict_proba(X)`` (scikit-learn's ranking scorers try
        the same methods in the same order).  With more than two classes they receive
        ``predict_proba(X)`` and ``'roc_auc_score'`` is the one-vs-rest macro average
        (scikit-learn's ``'roc_auc_ovr'``); a metric whose ``average`` is
        ``'binary'`` is refused before any fit (pass ``average=`` through a partial).
    rng : None, int or numpy.random.Generator, default=None
        Seed of the shuffled folds when ``cv`` is an integer (an error otherwise:
        give the splitter its own ``rng``).
    n_jobs : int, default=1
        Threads evaluating splits at once (-1: one per core).  Results are the same for
        any ``n_jobs`` (each split has its own fresh model and its own place in the
        result) provided the model itself is deterministic.
    confidence_level : float, default=0.95
        Level of the two intervals of the mean.
    return_scores : bool, default=False
        Compute the continuous scores (``oof_score``) even when no ranking metric asks
        for them, e.g. to draw a pooled ROC curve.

    Returns
    -------
    CrossValidationResult
        ``scores[metric]`` per split, ``mean``, ``std`` (``ddof=1``), ``interval``
        (t interval), ``corrected_interval`` (Nadeau & Bengio), both inside the
        metric's range, ``n_train``, ``n_test``, ``fit_time``, ``score_time``,
        ``oof_pred``, ``oof_score`` (a third axis of class probabilities for a
        multi-class ranking metric), ``oof_fold`` and ``rng_seed``.

    Raises
    ------
    ValueError
        ``X`` and ``y`` of different lengths; a bad ``cv`` (too many folds, a split
        with an empty or out-of-range index set), ``rng`` with a splitter, an unknown
        metric name, a metric without a multi-class meaning on a multi-class target,
        a bad ``n_jobs`` or ``confidence_level``.
    TypeError
        ``model`` without fit/predict (or a factory returning such a thing); a ranking
        metric for a model with neither ``decision_function`` nor ``predict_proba``
        (``predict_proba`` for a multi-class target).

    Warns
    -----
    DegenerateDataWarning
        All split scores of a metric equal (zero-width intervals), or a single split
        (NaN spread and intervals); a class smaller than the number of folds.
    Warning
        A warning of the model or a metric in several splits is shown once, with its
        class and message and ``[in j of J splits]``.

    Notes
    -----
    Wu, "Evaluation", Algorithm 1 and eq. 9: ``Err_CV = (1/k) sum_i Err_i``.  The
    procedure recommended by Honavar, "Evaluating model performance": report the mean
    and standard deviation of the k estimates, or a 95 % interval around the mean.

    ``interval`` is ``mean ± t_{J-1} s / sqrt(J)`` over the ``J`` splits
    (:func:`assay.mean_ci`).  It treats the split scores as independent, but their
    training sets overlap (each pair of k-fold training sets shares ``(k-2)/(k-1)`` of
    its rows), so the scores are positively correlated and the interval is too narrow
    (Dietterich 1998; Bengio & Grandvalet 2004 show that no unbiased estimator of the
    variance of k-fold CV exists).  ``corrected_interval`` applies Nadeau & Bengio's
    (2003, section 5) correction: ``mean ± t_{J-1} sqrt((1/J + n_test/n_train) s^2)``,
    with ``n_test / n_train`` the ratio of the mean test and training sizes; for
    ``k``-fold CV (``J = k r`` over ``r`` repeats) the factor is ``1/J + 1/(k-1)``.
    It is the variance of :func:`assay.corrected_resampled_ttest`, derived for
    random subsampling and used for repeated k-fold by Bouckaert & Frank (2004); it is
    a heuristic, conservative rather than exact, and for bootstrap splits (training
    rows repeated) it has no derivation at all.

    Both intervals are clipped to the range of the metric (the registry's, for the
    options of a partial; a callable's ``value_range`` attribute; else unbounded):
    an AUC's t interval never reaches above 1.  When a bound moved,
    ``details['unclipped_interval']`` keeps the formula's.  Clipping loses no
    coverage, since the true mean of the metric lies in its range.

    Pooled out-of-fold predictions: the splits are grouped into *rounds*; a split
    starts a new round when one of its test rows was already tested in the current
    round.  A k-fold partition is one round, each repeat of repeated k-fold is one
    round, a bootstrap resample usually one round of its own.  ``oof_pred[r]`` holds
    every row's out-of-fold prediction in round ``r`` (rows not tested in it have
    ``oof_fold[r] == -1``), so ``assay.roc_curve(y, result.oof_score[0])`` is the
    pooled ROC curve of a k-fold run, and per repeat for repeated k-fold.

    References
    ----------
    C. Nadeau and Y. Bengio, "Inference for the generalization error", Machine
    Learning 52 (2003).  R. R. Bouckaert and E. Frank, "Evaluating the replicability
    of significance tests for comparing learning algorithms", PAKDD (2004).
    T. G. Dietterich, "Approximate statistical tests for comparing supervised
    classification learning algorithms", Neural Computation 10 (1998).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.protocols import cross_validate
    >>> class Threshold:
    ...     def fit(self, X, y):
    ...         return self
    ...     def predict(self, X):
    ...         return (X[:, 0] > 0.5).astype(int)
    >>> X = np.linspace(0, 1, 20).reshape(-1, 1)
    >>> y = (X[:, 0] > 0.45).astype(int)
    >>> result = cross_validate(Threshold(), X, y, cv=5)
    >>> result.scores["accuracy_score"].tolist()
    [0.75, 1.0, 1.0, 1.0, 1.0]
    >>> round(result.mean["accuracy_score"], 2), result.oof_pred.shape
    (0.95, (1, 20))
    """
    result, _, _ = _run(
        model,
        X,
        y,
        cv=cv,
        metrics=metrics,
        rng=rng,
        n_jobs=n_jobs,
        confidence_level=confidence_level,
        return_scores=return_scores,
    )
    return result
