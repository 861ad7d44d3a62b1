"""What the displays share: matplotlib on demand, the axes, scores of an estimator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

__all__: list[str] = []


def pyplot(what: str) -> Any:
    """``matplotlib.pyplot``, or an ImportError that says how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError(
            f"{what} needs matplotlib; install it with `pip install 'assay[plot]'` "
            "(or `pip install matplotlib`)."
        ) from error
    return plt


def axes(ax: Any, what: str) -> Any:
    """``ax``, or the axes of a new figure."""
    plt = pyplot(what)
    if ax is None:
        _, ax = plt.subplots()
    return ax


def estimator_scores(estimator: Any, X: Any, response_method: str, pos_label: Any) -> Any:
    """Scores of the positive class: ``predict_proba``'s column or ``decision_function``."""
    methods = ("predict_proba", "decision_function")
    if response_method not in ("auto", *methods):
        raise ValueError(
            "`response_method` must be one of ['auto', 'predict_proba', 'decision_function']; "
            f"got {response_method!r}."
        )
    names = methods if response_method == "auto" else (response_method,)
    for method in names:
        if hasattr(estimator, method):
            scores = np.asarray(getattr(estimator, method)(X))
            if scores.ndim == 2:
                classes = list(getattr(estimator, "classes_", range(scores.shape[1])))
                column = classes.index(pos_label) if pos_label is not None else scores.shape[1] - 1
                scores = scores[:, column]
            return scores
    raise ValueError(
        f"`estimator` ({type(estimator).__name__}) has no {' or '.join(names)} method."
    )


def named_scores(y_score: Any, name: Any) -> list[tuple[Any, Any]]:
    """``[(name, scores)]``: one model, or several given as a mapping of name to scores."""
    if isinstance(y_score, Mapping):
        if name is not None:
            raise ValueError("`name` must be None when `y_score` maps names to scores.")
        return list(y_score.items())
    return [(name, y_score)]


def interval_text(label: str, value: float, interval: Any, confidence_level: float) -> str:
    """``'AUC = 0.853, 95% CI [0.821, 0.884]'`` (without the interval when it is None)."""
    text = f"{label} = {value:.3f}"
    if interval is not None:
        low, high = interval
        text += f", {confidence_level:.0%} CI [{low:.3f}, {high:.3f}]"
    return text
