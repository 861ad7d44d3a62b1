"""The metrics of the protocols: names, what each needs from the model, its range.

:func:`scorers` turns the ``metrics`` argument of :func:`cross_validate` (a name, a
callable, a ``functools.partial``, a sequence of them, or a dict ``{name: metric}``)
into one :class:`Scorer` per metric: the name it is reported under, whether it takes
predicted labels or continuous scores, whether larger is better, and the range its
intervals are kept in.  On a multi-class target it checks, before any model is fitted,
that each metric has a multi-class meaning: ``roc_auc_score`` becomes the one-vs-rest
macro average over ``predict_proba``; a metric averaging over classes only when told
how (``f1_score``'s default ``average='binary'``) is refused with a message saying how.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, TypeVar

import numpy as np

from assay._results import ConfidenceInterval
from assay.metrics._registry import (
    METRICS,
    MetricDeclaration,
    clip_to_range,
    metric_range,
    resolve_metric,
)

__all__: list[str] = []

_Result = TypeVar("_Result")

# Parameter names that mark a callable metric as one of continuous scores.
_SCORE_PARAMETERS = ("y_score", "y_prob", "y_proba")


class Scorer(NamedTuple):
    """One metric of a protocol."""

    name: str
    """The name it is reported under."""
    function: Callable[..., Any]
    """``function(y_true, predictions_or_scores, **class_options)``."""
    needs_scores: bool
    """Continuous scores (decision function or probabilities) rather than labels."""
    greater_is_better: bool | None
    """From the registry, or a callable's ``greater_is_better`` attribute; else None."""
    value_range: tuple[float, float]
    """The values the metric can take (see :func:`assay.metrics._registry.metric_range`)."""
    class_options: bool = False
    """Multi-class ROC AUC: pass ``multi_class='ovr'`` and ``labels`` at every call."""


def _declared(metric: Any) -> tuple[MetricDeclaration | None, dict[str, Any]]:
    """The registry entry of ``metric`` (a partial of a registry function included) and
    the keyword options bound to it."""
    if isinstance(metric, str):
        return resolve_metric(metric)[0], {}
    if isinstance(metric, functools.partial) and not metric.args:
        declaration, keywords = _declared(metric.func)
        return declaration, {**keywords, **metric.keywords}
    for declaration in METRICS.values():
        if declaration.function is metric:
            return declaration, {}
    return None, {}


def _default(function: Callable[..., Any], parameter: str) -> Any:
    try:
        found = inspect.signature(function).parameters.get(parameter)
    except (TypeError, ValueError):
        return None
    return None if found is None else found.default


def _multiclass_check(
    name: str, declaration: MetricDeclaration, options: dict[str, Any], classes: np.ndarray
) -> bool:
    """Raise unless the metric has a multi-class meaning; True for multi-class ROC AUC."""
    function = declaration.function
    public = declaration.name
    parameters = inspect.signature(function).parameters
    shown = ", ".join(repr(label.item() if hasattr(label, "item") else label) for label in classes)
    if declaration.computed_from == "confusion" and "average" in parameters:
        average = options.get("average", _default(function, "average"))
        if average == "binary":
            raise ValueError(
                f"`metrics`: {name!r} averages over the classes only when told how: `y` "
                f"has {classes.shape[0]} classes [{shown}] and `average='binary'` needs "
                f"two. Pass `average=` through functools.partial, e.g. "
                f"functools.partial(assay.{public}, average='macro'), or name it with a "
                f"dict: {{'{public}_macro': functools.partial(assay.{public}, "
                "average='macro')}."
            )
    if declaration.computed_from == "ranking":
        if "multi_class" in parameters:
            return True
        if "average" not in parameters:
            raise ValueError(
                f"`metrics`: {name!r} is defined for two classes, but `y` has "
                f"{classes.shape[0]} classes [{shown}]; 'roc_auc_score' (one-vs-rest), "
                "'average_precision_score' and 'pr_auc_score' take the class "
                "probabilities of a multi-class model."
            )
    return False


def scorers(metrics: Any, classification: bool, classes: np.ndarray | None = None) -> list[Scorer]:
    """One :class:`Scorer` per metric of ``metrics`` (see the module docstring).

    ``classes``: the sorted classes of a classification target; more than two make the
    checks of :func:`_multiclass_check`.
    """
    if metrics is None:
        metrics = ("accuracy_score",) if classification else ("mean_squared_error",)
    elif isinstance(metrics, str) or callable(metrics):
        metrics = (metrics,)
    named: list[tuple[str | None, Any]]
    if isinstance(metrics, Mapping):
        named = [(str(name), metric) for name, metric in metrics.items()]
    else:
        named = [(None, metric) for metric in metrics]
    multiclass = classification and classes is not None and classes.shape[0] > 2
    found: list[Scorer] = []
    for given_name, metric in named:
        declaration, options = _declared(metric)
        _, function, resolved_name = resolve_metric(metric)
        name = resolved_name if given_name is None else given_name
        if declaration is not None and declaration.computed_from == "probabilities":
            # the protocols pass labels or ranking scores; a probability metric of
            # predicted labels (0/1 forecasts) would be silently wrong
            raise ValueError(
                f"`metrics`: {name!r} scores class probabilities, which the protocols do "
                "not pass to metrics yet (they pass labels, or ranking scores that may be "
                "a decision function); compute it from a model's `predict_proba`."
            )
        if declaration is not None:
            needs_scores = declaration.computed_from == "ranking"
            greater: bool | None = declaration.greater_is_better
        else:
            try:
                parameters = list(inspect.signature(function).parameters)
            except (TypeError, ValueError):
                parameters = []
            needs_scores = len(parameters) > 1 and parameters[1] in _SCORE_PARAMETERS
            greater = getattr(function, "greater_is_better", None)
        class_options = False
        if multiclass and declaration is not None:
            assert classes is not None
            class_options = _multiclass_check(name, declaration, options, classes)
        found.append(
            Scorer(
                name=name,
                function=function,
                needs_scores=needs_scores,
                greater_is_better=greater,
                value_range=metric_range(declaration, function, options),
                class_options=class_options and "multi_class" not in options,
            )
        )
    names = [scorer.name for scorer in found]
    if len(set(names)) != len(names):
        raise ValueError(f"`metrics` names a metric twice: {names}.")
    return found


def score(
    scorer: Scorer,
    y_true: np.ndarray,
    predictions: np.ndarray,
    scores: np.ndarray | None,
    classes: np.ndarray | None,
) -> float:
    """The metric of one split: on the labels, or on the scores it needs."""
    if not scorer.needs_scores:
        return float(scorer.function(y_true, predictions))
    if scorer.class_options:
        return float(scorer.function(y_true, scores, multi_class="ovr", labels=classes))
    return float(scorer.function(y_true, scores))


def continuous_scores(
    model: Any, X: Any, classes: np.ndarray | None, training_classes: np.ndarray | None
) -> np.ndarray:
    """The scores a ranking metric needs from a fitted model.

    Binary (``classes`` None or two classes): scores of the positive class,
    ``decision_function`` else ``predict_proba[:, 1]``, the two methods
    scikit-learn's ranking scorers try in this order.  Multi-class: ``predict_proba``,
    its columns placed in the order of ``classes`` (a class the model never saw gets
    probability 0); the model's columns are its ``classes_``, else the sorted classes
    of its training rows (``training_classes``).
    """
    if classes is not None and classes.shape[0] > 2:
        if not hasattr(model, "predict_proba"):
            raise TypeError(
                f"a ranking metric of a target with {classes.shape[0]} classes needs "
                "class probabilities, but the model has no predict_proba."
            )
        probabilities = np.asarray(model.predict_proba(X), dtype=np.float64)
        columns = np.asarray(getattr(model, "classes_", training_classes))
        if probabilities.ndim != 2 or probabilities.shape[1] != columns.shape[0]:
            raise ValueError(
                f"`predict_proba` returned shape {probabilities.shape}; expected one "
                f"column per class of the model ({columns.shape[0]})."
            )
        position = np.searchsorted(classes, columns)
        position = np.minimum(position, classes.shape[0] - 1)
        if not np.array_equal(classes[position], columns):
            raise ValueError(
                f"the model's classes {columns.tolist()} are not among the classes of `y` "
                f"{classes.tolist()}."
            )
        placed = np.zeros((probabilities.shape[0], classes.shape[0]))
        placed[:, position] = probabilities
        return placed
    if hasattr(model, "decision_function"):
        scores = np.asarray(model.decision_function(X), dtype=np.float64)
    elif hasattr(model, "predict_proba"):
        probabilities = np.asarray(model.predict_proba(X), dtype=np.float64)
        if probabilities.ndim != 2 or probabilities.shape[1] != 2:
            raise ValueError(
                "ranking metrics of a binary target need two class probabilities; "
                f"`predict_proba` returned shape {probabilities.shape}."
            )
        scores = probabilities[:, 1]
    else:
        raise TypeError(
            "a ranking metric needs continuous scores, but the model has neither "
            "decision_function nor predict_proba."
        )
    if scores.ndim != 1:
        raise ValueError(
            "ranking metrics of a binary target need one score per row; the model's "
            f"scores have shape {scores.shape}."
        )
    return scores


def within_range(result: _Result, value_range: tuple[float, float]) -> _Result:
    """``result`` (an IntervalResult or TestResult) with its interval clipped to
    ``value_range``; when a bound moved, ``details['unclipped_interval']`` keeps the
    formula's bounds.  Clipping loses no coverage: a true value inside the range is
    inside the clipped interval exactly when it is inside the formula's."""
    interval = getattr(result, "confidence_interval", None)
    if interval is None or math.isnan(interval.low) or math.isnan(interval.high):
        return result
    low, high = clip_to_range(interval.low, interval.high, value_range)
    if (low, high) == (interval.low, interval.high):
        return result
    details = {**result.details, "unclipped_interval": interval}  # type: ignore[attr-defined]
    return dataclasses.replace(  # type: ignore[type-var]
        result, confidence_interval=ConfidenceInterval(low, high), details=details
    )
