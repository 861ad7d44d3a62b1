"""Finding a metric: a registry function, its name, or any callable.

The lookups over :data:`assay.metrics._registry.METRICS` that every procedure uses to
turn its ``metric`` argument into a declaration (the fast paths) or a plain callable
(the generic path), and the readable names of results.  Re-exported by the registry.
"""

from __future__ import annotations

import functools
import reprlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from assay.metrics import _registry

if TYPE_CHECKING:
    from assay.metrics._registry import MetricDeclaration

__all__: list[str] = []


def readable_metric_name(name: str) -> str:
    """The readable name of metric ``name`` (``'roc_auc_score'`` -> ``'ROC AUC'``).

    A name that is not an assay metric (a user's callable) is returned unchanged.
    """
    declaration = _registry.METRICS.get(name)
    return name if declaration is None else declaration.readable_name


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
    for declaration in _registry.METRICS.values():
        if declaration.function is metric:
            return declaration.name
    return str(getattr(metric, "__name__", type(metric).__name__))


def resolve_metric(metric: Any) -> tuple[MetricDeclaration | None, Callable[..., Any], str]:
    """(declaration or None, function, name) of ``metric``: an assay metric, its name,
    or any callable ``f(y_true, y_pred, ...)`` (the generic path)."""
    if isinstance(metric, str):
        if metric not in _registry.METRICS:
            raise ValueError(
                f"`metric`={metric!r} is not an assay metric; known names: "
                f"{', '.join(sorted(_registry.METRICS))}."
            )
        declaration = _registry.METRICS[metric]
        return declaration, declaration.function, declaration.name
    for declaration in _registry.METRICS.values():
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
        and any(declaration.function is metric.func for declaration in _registry.METRICS.values())
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
