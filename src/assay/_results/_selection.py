"""Results of hyperparameter selection (select_hyperparameter, nested_cross_validate)."""

from __future__ import annotations

import dataclasses
import math
import types
from collections import Counter
from typing import Any

import numpy as np

from assay._results import _summary
from assay._results._inference import IntervalResult
from assay._results._protocols import (
    _CrossValidationReprMixin,
    _format_cv_field,
    _plain_cv,
    _read_only_any_array,
)

__all__: list[str] = []


def _points(grid: Any) -> tuple[types.MappingProxyType[str, Any], ...]:
    return tuple(types.MappingProxyType(dict(point)) for point in grid)


def _plain_selection(value: Any) -> Any:
    """``_plain_cv``, extended to tuples of results and of grid points."""
    if isinstance(value, tuple):
        return [_plain_selection(item) for item in value]
    return _plain_cv(value)


def _format_selection_field(value: Any) -> str:
    """``_format_cv_field``; a tuple of results or of points shown item by item."""
    if isinstance(value, tuple) and value and isinstance(value[0], IntervalResult):
        return "(" + ", ".join(_format_cv_field(item) for item in value) + ")"
    if isinstance(value, tuple) and value and isinstance(value[0], types.MappingProxyType):
        return "(" + ", ".join("{" + _point_text(point) + "}" for point in value) + ")"
    return _format_cv_field(value)


def _point_text(point: Any) -> str:
    return ", ".join(f"{name}={value!r}" for name, value in point.items())


def _best_index(scores: np.ndarray, greater_is_better: bool) -> int:
    """First position of the best finite score (NaN scores never win)."""
    loss = np.where(np.isnan(scores), np.inf, -scores if greater_is_better else scores)
    return int(np.argmin(loss))


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class SelectionResult(_CrossValidationReprMixin):
    """A hyperparameter chosen on held-out data, the refit model and its test estimate.

    Returned by :func:`assay.protocols.select_hyperparameter`.

    Attributes
    ----------
    metric : str
        The metric that chose.
    greater_is_better : bool
        Whether a larger value of the metric is better.
    rule : str
        ``'best'`` (the best validation score) or ``'one_standard_error'`` (the
        simplest point within one standard error of the best).
    protocol : str
        ``'validation'`` (one validation set) or ``'cross-validation'``.
    parameters : tuple of str
        Names of the parameters the grid varies.
    grid : tuple of mappings
        The grid points, ``{name: value}``, in the order tried.
    validation_scores : numpy.ndarray
        Per point, the score on the validation set, or the mean over the splits.
    validation_intervals : tuple of IntervalResult
        Per point, the interval of its validation score on one validation set: Wilson
        for accuracy and error rate, the t interval of the mean loss for mean squared
        and absolute error, else a percentile bootstrap; under cross-validation, the t
        interval of the mean over the splits.
    corrected_intervals : tuple of IntervalResult or None
        Cross-validation only: per point, Nadeau & Bengio's corrected interval.
    standard_errors : numpy.ndarray
        Per point, the standard error the one-standard-error rule reads (the
        ``standard_error`` of ``validation_intervals``).
    best_index : int
        Position of the best validation score (the first, among equal ones).
    chosen_index : int
        Position of the chosen point: ``best_index`` under ``rule='best'``.
    reason : str
        Why that point was chosen, in words.
    model : object or None
        The model at the chosen point, refit on all of ``X, y`` (None when
        ``refit=False``).  Shown by its ``repr`` in ``to_dict``.
    test : IntervalResult or None
        The refit model's score on the test set with its interval (computed as the
        intervals of a validation set), when a test set was given.
    note : str
        The statement about selection bias: the chosen point's validation score is
        the best of several noisy scores, so it is optimistic; the test score is not.
    n_train : int
        Rows of ``X`` (the training set, or all rows split by cross-validation).
    n_validation : float
        Rows of the validation set, or the mean rows of a test fold.
    n_splits : int or None
        Splits of the cross-validation (None with a validation set).
    confidence_level : float
        Nominal coverage of the intervals.
    rng_seed : int or None
        The seed given as ``rng``; without one, the seed drawn for the bootstrap
        intervals, or that of the folds; None when nothing was random.
    """

    _format_value = staticmethod(_format_selection_field)

    metric: str
    greater_is_better: bool
    rule: str
    protocol: str
    parameters: tuple[str, ...]
    grid: tuple[types.MappingProxyType[str, Any], ...]
    validation_scores: np.ndarray
    validation_intervals: tuple[IntervalResult, ...]
    corrected_intervals: tuple[IntervalResult, ...] | None
    standard_errors: np.ndarray
    best_index: int
    chosen_index: int
    reason: str
    model: Any
    test: IntervalResult | None
    note: str
    n_train: int
    n_validation: float
    n_splits: int | None
    confidence_level: float
    rng_seed: int | None = None

    def __post_init__(self) -> None:
        self._normalise(
            floats=("confidence_level", "n_validation"),
            ints=("best_index", "chosen_index", "n_train"),
            strings=("metric", "rule", "protocol", "reason", "note"),
            arrays=("validation_scores", "standard_errors"),
        )
        object.__setattr__(self, "greater_is_better", bool(self.greater_is_better))
        object.__setattr__(self, "parameters", tuple(str(name) for name in self.parameters))
        object.__setattr__(self, "grid", _points(self.grid))
        object.__setattr__(self, "validation_intervals", tuple(self.validation_intervals))
        if self.corrected_intervals is not None:
            object.__setattr__(self, "corrected_intervals", tuple(self.corrected_intervals))
        m = len(self.grid)
        if not (
            self.validation_scores.shape[0] == len(self.validation_intervals) == m
            and self.standard_errors.shape[0] == m
            and 0 <= self.chosen_index < m
        ):
            raise ValueError(
                f"a selection over {m} grid points needs {m} scores, intervals and "
                "standard errors and a chosen position among them."
            )
        if self.best_index != _best_index(self.validation_scores, self.greater_is_better):
            raise ValueError(
                f"`best_index`={self.best_index} is not the position of the best validation score."
            )
        if self.rule == "best" and self.chosen_index != self.best_index:
            raise ValueError("under rule='best' the chosen point is the best one.")

    @property
    def chosen(self) -> types.MappingProxyType[str, Any]:
        """The chosen grid point, ``{name: value}``."""
        return self.grid[self.chosen_index]

    @property
    def validation_score(self) -> float:
        """The chosen point's validation score: optimistic (see ``note``)."""
        return float(self.validation_scores[self.chosen_index])

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain Python data (``json.dumps``-ready); the model as its
        ``repr``."""
        found = {
            field.name: _plain_selection(getattr(self, field.name))
            for field in dataclasses.fields(self)
        }
        found["model"] = None if self.model is None else repr(self.model)
        return found

    def __str__(self) -> str:
        """``Chose n_neighbors=9 of 5 points (best validation error rate): validation
        0.1900 [0.1251, 0.2778], optimistic as the best of 5; test 0.2300 [0.1584, 0.3215]
        (95% intervals)``."""
        name = _summary.metric_name(self.metric)
        source = "validation" if self.protocol == "validation" else "cross-validated"
        rule = "best" if self.rule == "best" else "one-standard-error rule on the"
        chosen_interval = self.validation_intervals[self.chosen_index].confidence_interval
        m = len(self.grid)
        optimism = f"the best of {m}" if self.rule == "best" else f"chosen among {m}"
        text = (
            f"Chose {_point_text(self.chosen)} of {_summary.plural(m, 'point')} "
            f"({rule} {source} {name}): {source} "
            f"{_summary.value(self.validation_score)}{_summary.interval(chosen_interval)}, "
            f"optimistic as {optimism}"
        )
        if self.test is not None:
            text += (
                f"; test {_summary.value(self.test.estimate)}"
                f"{_summary.interval(self.test.confidence_interval)}"
            )
        return f"{text} ({_summary.level(self.confidence_level)} intervals)"


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class NestedCrossValidationResult(_CrossValidationReprMixin):
    """The score of a whole selection procedure: inner loops choose, the outer scores.

    Returned by :func:`assay.protocols.nested_cross_validate`.

    Attributes
    ----------
    metric : str
        The metric.
    greater_is_better : bool
        Whether a larger value of the metric is better.
    rule : str
        The rule of the inner selections (``'best'`` or ``'one_standard_error'``).
    parameters : tuple of str
        Names of the parameters the grid varies.
    grid : tuple of mappings
        The grid points, ``{name: value}``.
    scores : numpy.ndarray
        Per outer split, the score on its test fold of the model chosen and refit on
        its training rows.
    mean, std : float
        Mean and sample standard deviation (``ddof=1``) of ``scores``: the estimate of
        the procedure (select, then refit).
    interval : IntervalResult
        The t interval of the mean (treats the outer splits as independent).
    corrected_interval : IntervalResult
        Nadeau & Bengio's corrected interval of the mean.
    chosen_index : numpy.ndarray of int64
        Per outer split, the position in ``grid`` of the point its inner loop chose.
    inner_scores : numpy.ndarray of shape (n_splits, n_points)
        Per outer split, every grid point's mean score over the inner splits.
    n_train, n_test : numpy.ndarray of int64
        Training and test rows of every outer split.
    confidence_level : float
        Nominal coverage of both intervals.
    rng_seed : int or None
        The seed of the folds (None when they were not random).
    """

    _format_value = staticmethod(_format_selection_field)

    metric: str
    greater_is_better: bool
    rule: str
    parameters: tuple[str, ...]
    grid: tuple[types.MappingProxyType[str, Any], ...]
    scores: np.ndarray
    mean: float
    std: float
    interval: IntervalResult
    corrected_interval: IntervalResult
    chosen_index: np.ndarray
    inner_scores: np.ndarray
    n_train: np.ndarray
    n_test: np.ndarray
    confidence_level: float
    rng_seed: int | None = None

    def __post_init__(self) -> None:
        self._normalise(
            floats=("mean", "std", "confidence_level"),
            strings=("metric", "rule"),
            arrays=("scores",),
        )
        object.__setattr__(self, "greater_is_better", bool(self.greater_is_better))
        object.__setattr__(self, "parameters", tuple(str(name) for name in self.parameters))
        object.__setattr__(self, "grid", _points(self.grid))
        for name in ("chosen_index", "n_train", "n_test"):
            object.__setattr__(self, name, _read_only_any_array(getattr(self, name), np.int64))
        inner = _read_only_any_array(self.inner_scores, np.float64)
        object.__setattr__(self, "inner_scores", inner)
        splits = self.scores.shape[0]
        if not (
            self.chosen_index.shape == (splits,)
            and inner.shape == (splits, len(self.grid))
            and np.all((self.chosen_index >= 0) & (self.chosen_index < len(self.grid)))
        ):
            raise ValueError(
                f"{splits} outer splits need {splits} chosen positions in a grid of "
                f"{len(self.grid)} points and a ({splits}, {len(self.grid)}) table of inner "
                "scores."
            )
        if not (math.isnan(self.mean) or math.isclose(self.mean, float(self.scores.mean()))):
            raise ValueError(f"`mean`={self.mean!r} is not the mean of the outer scores.")

    @property
    def n_splits(self) -> int:
        """Number of outer splits."""
        return int(self.scores.shape[0])

    @property
    def chosen(self) -> tuple[types.MappingProxyType[str, Any], ...]:
        """Per outer split, the chosen grid point."""
        return tuple(self.grid[int(index)] for index in self.chosen_index)

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain Python data (``json.dumps``-ready)."""
        return {
            field.name: _plain_selection(getattr(self, field.name))
            for field in dataclasses.fields(self)
        }

    def __str__(self) -> str:
        """``Nested cross-validation, 5 outer splits: accuracy 0.8600 [0.8100, 0.9100]
        (mean, 95% corrected t interval); chosen n_neighbors=5 in 3, n_neighbors=7 in 2``."""
        counts = Counter(int(index) for index in self.chosen_index)
        chosen = ", ".join(
            f"{_point_text(self.grid[index])} in {count}" for index, count in counts.most_common()
        )
        return (
            f"Nested cross-validation, {_summary.plural(self.n_splits, 'outer split')}: "
            f"{_summary.metric_name(self.metric)} {_summary.value(self.mean)}"
            f"{_summary.interval(self.corrected_interval.confidence_interval)} "
            f"(mean, {_summary.level(self.confidence_level)} corrected t interval); "
            f"chosen {chosen}"
        )
