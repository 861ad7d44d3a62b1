"""Fresh, unfitted models for resampling protocols (assay does not import scikit-learn).

A *model* is an object with ``fit`` and ``predict`` methods, or a zero-argument
factory (a function, or a class whose instances have ``fit`` and ``predict``) that
returns one.  Every resample or split gets a fresh model: the factory's result, or a
``copy.deepcopy`` of the (unfitted) model given.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

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


def fresh_model(model: Any, name: str = "model") -> Any:
    """One fresh, unfitted model from ``model`` (see :func:`model_factory`)."""
    return model_factory(model, name)()
