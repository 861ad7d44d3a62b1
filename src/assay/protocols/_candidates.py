"""The candidates of a hyperparameter search: the grid, one fresh model per grid point,
and the fit/predict face of the built-in learners.

A grid is one parameter's values (a sequence) or a dict ``{name: values}`` whose points
are the product of the lists, in the order given (the last name varies fastest).  The
model at a point is made, fresh for every fit, from what the user gave:

* a scikit-learn style estimator (``fit``, ``predict``, ``set_params``): a deep copy of
  the unfitted model with ``set_params(**point)``;
* a built-in learner of :mod:`assay.protocols` (``KNNClassifier(1)``,
  ``PolynomialRegression(1)``, ...): ``dataclasses.replace(learner, **point)``;
* a factory (a function, or a class such as ``KNNClassifier``): ``factory(value)`` for
  a one-parameter grid given as a sequence, ``factory(**point)`` for a dict.

A built-in learner is wrapped in :class:`CompiledLearner`, which fits and predicts with
the compiled kernels of the bias-variance Monte Carlo.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import itertools
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from assay._kernels import montecarlo
from assay._validation import as_finite_array
from assay.protocols._bias_variance import _as_features, _learner_code
from assay.protocols._bias_variance_builtins import (
    _BUILT_IN_LEARNERS,
    KNNClassifier,
    KNNRegressor,
    PolynomialRegression,
    Ridge,
)
from assay.protocols._models import model_factory

__all__: list[str] = []


class CompiledLearner:
    """``fit`` and ``predict`` for a built-in learner (``PolynomialRegression``,
    ``Ridge``, ``KNNRegressor``, ``KNNClassifier``).

    ``fit`` keeps the training rows; ``predict`` fits and predicts in one compiled call
    (the kernel of :func:`assay.protocols.bias_variance`).  Polynomials use the Legendre
    basis of the training rows' range of ``x``, so the model does not depend on the
    points it predicts.
    """

    def __init__(self, learner: Any) -> None:
        self.learner = learner
        self._estimator_type = "classifier" if isinstance(learner, KNNClassifier) else "regressor"

    def __repr__(self) -> str:
        return repr(self.learner)

    def fit(self, X: Any, y: Any) -> CompiledLearner:
        x = _as_features(X, "X")
        labels = np.asarray(y)
        if labels.ndim != 1 or labels.shape[0] != x.shape[0]:
            raise ValueError(
                f"`y` must be 1-D with one label per row of `X` ({x.shape[0]}); got shape "
                f"{labels.shape}."
            )
        learner = self.learner
        if isinstance(learner, PolynomialRegression | Ridge):
            if x.shape[1] != 1:
                raise ValueError(
                    f"polynomial learners take one feature; `X` has {x.shape[1]} columns."
                )
            if isinstance(learner, PolynomialRegression) and x.shape[0] <= learner.degree:
                raise ValueError(
                    f"a polynomial of degree {learner.degree} needs more training rows "
                    f"than its degree; got {x.shape[0]}."
                )
        if isinstance(learner, KNNRegressor | KNNClassifier) and learner.n_neighbors > x.shape[0]:
            raise ValueError(
                f"`n_neighbors`={learner.n_neighbors} exceeds the number of training rows "
                f"{x.shape[0]}."
            )
        if isinstance(learner, KNNClassifier):
            self.classes_, codes = np.unique(labels, return_inverse=True)
            self._y = codes.astype(np.float64)
        else:
            self._y = as_finite_array(labels, "y", what="targets", max_ndim=1)
        self._x = x
        return self

    def predict(self, X: Any) -> np.ndarray:
        if not hasattr(self, "_x"):
            raise ValueError("this model is not fitted yet; call fit first.")
        x_test = _as_features(X, "X")
        if x_test.shape[1] != self._x.shape[1]:
            raise ValueError(
                f"`X` has {x_test.shape[1]} features but the model was fitted on "
                f"{self._x.shape[1]}."
            )
        code, degree, alpha, k = _learner_code(self.learner)
        low, high = float(self._x[:, 0].min()), float(self._x[:, 0].max())
        if not high > low:
            high = low + 1.0
        n_classes = self.classes_.shape[0] if hasattr(self, "classes_") else 1
        out = np.empty((1, x_test.shape[0]))
        montecarlo.fit_predict_rounds(
            self._x[None], self._y[None], code, degree, alpha, k, n_classes, low, high,
            x_test, out, 1,
        )  # fmt: skip
        if hasattr(self, "classes_"):
            return self.classes_[out[0].astype(np.int64)]
        return out[0]


class Grid:
    """The points of a grid: names and one read-only mapping per point."""

    def __init__(self, model: Any, grid: Any) -> None:
        self.named = isinstance(grid, Mapping)
        if self.named:
            if not grid:
                raise ValueError("`grid` is an empty dict; give at least one parameter.")
            names = tuple(str(name) for name in grid)
            lists = []
            for name, values in grid.items():
                values = _values(values, f"grid[{name!r}]")
                lists.append(values)
            points = [
                dict(zip(names, combination, strict=True))
                for combination in itertools.product(*lists)
            ]
        else:
            values = _values(grid, "grid")
            names = (_single_parameter(model),)
            points = [{names[0]: value} for value in values]
        self.names = names
        self.points = tuple(MappingProxyType(point) for point in points)

    def __len__(self) -> int:
        return len(self.points)


def _values(values: Any, name: str) -> list[Any]:
    if isinstance(values, str | bytes) or not hasattr(values, "__iter__"):
        raise ValueError(f"`{name}` must be a sequence of values; got {values!r}.")
    found = [value.item() if isinstance(value, np.generic) else value for value in values]
    if not found:
        raise ValueError(f"`{name}` is empty; give at least one value.")
    return found


def _single_parameter(model: Any) -> str:
    """The name of the one parameter a sequence grid varies."""
    if isinstance(model, _BUILT_IN_LEARNERS) or (
        isinstance(model, type) and issubclass(model, _BUILT_IN_LEARNERS)
    ):
        fields = [field.name for field in dataclasses.fields(model)]
        if len(fields) == 1:
            return fields[0]
        raise ValueError(
            f"{_name(model)} has the parameters {fields}; name the one to vary with a "
            f"dict, e.g. grid={{{fields[-1]!r}: [...]}}."
        )
    if _has_fit(model):
        raise ValueError(
            f"`grid` is a list of values, but {_name(model)} is a model: name the "
            "parameter to vary with a dict, e.g. grid={'n_neighbors': [1, 3, 5]}."
        )
    if callable(model):
        try:
            parameters = list(inspect.signature(model).parameters)
        except (TypeError, ValueError):
            parameters = []
        return parameters[0] if parameters else "value"
    raise TypeError(
        "`model` must be an estimator with fit, predict and set_params, a built-in "
        f"learner, or a factory taking the parameters; got {type(model).__name__}."
    )


def _name(model: Any) -> str:
    return model.__name__ if isinstance(model, type) else type(model).__name__


def _has_fit(model: Any) -> bool:
    return not isinstance(model, type) and callable(getattr(model, "fit", None))


def _wrapped(made: Any) -> Any:
    return CompiledLearner(made) if isinstance(made, _BUILT_IN_LEARNERS) else made


def candidate(model: Any, grid: Grid, index: int) -> Callable[[], Any]:
    """A zero-argument function returning a fresh, unfitted model at grid point ``index``."""
    point = dict(grid.points[index])
    if isinstance(model, _BUILT_IN_LEARNERS):
        try:
            learner = dataclasses.replace(model, **point)
        except TypeError as error:
            raise ValueError(
                f"`grid` names {sorted(point)}, not all parameters of {_name(model)}: {error}."
            ) from None
        return lambda: CompiledLearner(learner)
    if _has_fit(model):
        if not callable(getattr(model, "set_params", None)):
            raise TypeError(
                f"{_name(model)} has no set_params method to vary its parameters; pass a "
                "factory instead, e.g. lambda **point: Model(**point)."
            )

        def varied() -> Any:
            fresh = copy.deepcopy(model)
            fresh.set_params(**point)
            return fresh

        return varied
    if callable(model):
        if grid.named:
            made = model_factory(lambda: _wrapped(model(**point)))
        else:
            (value,) = point.values()
            made = model_factory(lambda: _wrapped(model(value)))
        return made
    raise TypeError(
        "`model` must be an estimator with fit, predict and set_params, a built-in "
        f"learner, or a factory taking the parameters; got {type(model).__name__}."
    )


def point_text(point: Mapping[str, Any]) -> str:
    """``'n_neighbors=5'``, ``'degree=2, alpha=0.1'``."""
    return ", ".join(f"{name}={value!r}" for name, value in point.items())
