"""Fresh, unfitted models for resampling protocols (assay does not import scikit-learn),
and the target vector the protocols share.

A *model* is an object with ``fit`` and ``predict`` methods, or a zero-argument
factory (a function, or a class whose instances have ``fit`` and ``predict``) that
returns one.  Every resample or split gets a fresh model: the factory's result, or a
``copy.deepcopy`` of the (unfitted) model given.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np

__all__: list[str] = []


def _is_model(candidate: Any) -> bool:
    return (
        not isinstance(candidate, type)
        and callable(getattr(candidate, "fit", None))
        and callable(getattr(candidate, "predict", None))
    )


def model_factory(model: Any, name: str = "model") -> Callable[[], Any]:
    """A zero-argument function returning a fresh, unfitted model at every call."""
    if _is_model(model):
        return lambda: copy.deepcopy(model)
    if callable(model):

        def build() -> Any:
            made = model()
            if not _is_model(made):
                raise TypeError(
                    f"`{name}` is a factory, but what it returned ({type(made).__name__}) "
                    "has no fit and predict methods."
                )
            return made

        return build
    raise TypeError(
        f"`{name}` must have fit and predict methods, or be a zero-argument factory "
        f"returning such a model; got {type(model).__name__}."
    )


def targets(y: Any, n: int) -> np.ndarray:
    """``y`` as a 1-D array of ``n`` targets (a pandas object or an (n, 1) column works)."""
    array = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array.ravel()
    if array.ndim != 1:
        raise ValueError(f"`y` must be 1-D, got an array of shape {array.shape}.")
    if array.shape[0] != n:
        raise ValueError(f"`X` and `y` have different lengths: {n} and {array.shape[0]}.")
    return array


def take_rows(X: Any, index: np.ndarray) -> Any:
    """Rows ``index`` of X: pandas by position, arrays (and sparse matrices) by index."""
    if hasattr(X, "iloc"):
        return X.iloc[index]
    if hasattr(X, "shape"):
        return X[index]
    return np.asarray(X)[index]
