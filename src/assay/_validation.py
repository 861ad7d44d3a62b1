"""Input checks shared by every public function: one place for the wording of errors.

Messages name the argument, the rule and the offending value, e.g.
``"`y_score` contains 3 NaN values; scores must be finite."``.  Every message
here is exercised by ``tests/test_validation.py``.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from assay._kernels.labels import first_distinct

__all__ = [
    "as_1d",
    "as_probabilities",
    "as_sample_weight",
    "as_scores",
    "binary_target",
    "check_option",
    "check_same_length",
    "check_zero_division",
    "distinct_values",
    "few_distinct_values",
    "format_values",
]

# Labels for which the positive class can be inferred (sklearn's rule).
_INFERABLE_LABEL_SETS = ({0, 1}, {-1, 1})


def format_values(values: Iterable[Any], limit: int = 8) -> str:
    """Short readable list of values for error messages."""
    items = [v.item() if isinstance(v, np.generic) else v for v in values]
    shown = ", ".join(repr(v) for v in items[:limit])
    if len(items) > limit:
        shown += f", ... ({len(items)} in all)"
    return f"[{shown}]"


def as_1d(values: Any, name: str) -> np.ndarray:
    """``values`` as a non-empty 1-D array (a column vector of shape (n, 1) is raveled)."""
    array = np.asarray(values)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array.ravel()
    if array.ndim != 1:
        raise ValueError(f"`{name}` must be 1-D, got an array of shape {array.shape}.")
    if array.shape[0] == 0:
        raise ValueError(f"`{name}` is empty; at least one sample is needed.")
    return array


def check_same_length(**arrays: np.ndarray | None) -> int:
    """Common length of the given arrays (None entries are skipped)."""
    named = [(name, a) for name, a in arrays.items() if a is not None]
    first_name, first = named[0]
    n = int(first.shape[0])
    for name, array in named[1:]:
        if array.shape[0] != n:
            raise ValueError(
                f"`{first_name}` and `{name}` have different lengths: {n} and {array.shape[0]}."
            )
    return n


def _count_non_finite(array: np.ndarray, name: str, what: str) -> None:
    finite = np.isfinite(array)
    if finite.all():
        return
    n_nan = int(np.isnan(array).sum())
    if n_nan:
        raise ValueError(f"`{name}` contains {n_nan} NaN values; {what} must be finite.")
    n_inf = int((~finite).sum())
    raise ValueError(f"`{name}` contains {n_inf} infinite values; {what} must be finite.")


def _as_float_array(values: Any, name: str, ndim: int) -> np.ndarray:
    array = as_1d(values, name) if ndim == 1 else np.asarray(values)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"`{name}` must be numeric; got dtype {array.dtype}.")
    return np.ascontiguousarray(array, dtype=np.float64)


def as_scores(values: Any, name: str = "y_score") -> np.ndarray:
    """Scores as a contiguous finite float64 1-D array."""
    scores = _as_float_array(values, name, 1)
    _count_non_finite(scores, name, "scores")
    return scores


def as_probabilities(values: Any, name: str = "y_prob", ndim: int = 1) -> np.ndarray:
    """Probabilities as contiguous float64 (1-D, or 2-D with ``ndim=2``), all in [0, 1]."""
    probabilities = _as_float_array(values, name, ndim)
    if ndim == 2 and probabilities.ndim != 2:
        raise ValueError(
            f"`{name}` must be 2-D (n_samples, n_classes), got shape {probabilities.shape}."
        )
    if probabilities.size == 0:
        raise ValueError(f"`{name}` is empty; at least one sample is needed.")
    _count_non_finite(probabilities, name, "probabilities")
    outside = int(np.count_nonzero((probabilities < 0.0) | (probabilities > 1.0)))
    if outside:
        raise ValueError(
            f"`{name}` contains {outside} values outside [0, 1]; probabilities are required."
        )
    return probabilities


def as_sample_weight(sample_weight: Any, n: int) -> np.ndarray | None:
    """Weights as contiguous float64, finite, non-negative, not all zero; None stays None."""
    if sample_weight is None:
        return None
    weights = _as_float_array(sample_weight, "sample_weight", 1)
    if weights.shape[0] != n:
        raise ValueError(
            f"`sample_weight` has length {weights.shape[0]} but there are {n} samples."
        )
    _count_non_finite(weights, "sample_weight", "weights")
    n_negative = int(np.count_nonzero(weights < 0.0))
    if n_negative:
        raise ValueError(
            f"`sample_weight` contains {n_negative} negative values; weights must be non-negative."
        )
    if not np.any(weights > 0.0):
        raise ValueError("`sample_weight` sums to zero; at least one weight must be positive.")
    return weights


def distinct_values(y: np.ndarray) -> np.ndarray:
    """Sorted distinct values of a 1-D array, with O(n) fast paths for bool and small ints."""
    if y.dtype.kind == "b":
        n_true = int(np.count_nonzero(y))
        present = [v for v, here in ((False, n_true < y.shape[0]), (True, n_true > 0)) if here]
        return np.array(present, dtype=bool)
    if y.dtype.kind in "iu" and y.shape[0] > 0:
        low, high = int(y.min()), int(y.max())
        span = high - low
        if span < max(1 << 16, y.shape[0]) and high <= np.iinfo(np.intp).max:
            counts = np.bincount(y.astype(np.intp, copy=False) - low, minlength=span + 1)
            return (np.flatnonzero(counts) + low).astype(y.dtype)
    return np.unique(y)


def few_distinct_values(y: np.ndarray, limit: int) -> np.ndarray | None:
    """Sorted distinct values of ``y`` if there are at most ``limit``, else None.

    One early-stopping pass for numeric and boolean arrays (the common binary case);
    other dtypes go through :func:`distinct_values`.
    """
    if y.dtype.kind in "biuf" and y.dtype.itemsize <= 8:
        found = first_distinct(np.ascontiguousarray(y), limit)
        return np.sort(found) if found.shape[0] <= limit else None
    classes = distinct_values(y)
    return classes if classes.shape[0] <= limit else None


def _is_continuous(classes: np.ndarray) -> bool:
    return classes.dtype.kind == "f" and bool(np.any(classes != np.round(classes)))


def binary_target(
    y_true: Any, pos_label: Any = None, name: str = "y_true", multiclass_hint: str = ""
) -> tuple[np.ndarray, Any]:
    """Boolean mask of the positive rows of a binary target, and the positive label.

    Rules (scikit-learn's): targets must hold at most two distinct class labels; the
    positive class is inferred as 1 (or True) only for labels within {0, 1}, {-1, 1}
    or booleans, otherwise ``pos_label`` is required; a ``pos_label`` that is not
    one of two present labels is an error.  A target holding a single class is
    accepted here (metrics that need both classes warn and return NaN).
    ``multiclass_hint`` is appended to the error for more than two classes.
    """
    y = as_1d(y_true, name)
    if y.dtype.kind == "f":
        _count_non_finite(y, name, "labels")
    classes = few_distinct_values(y, 2)
    if classes is None:  # more than two: find them all for the message
        classes = distinct_values(y)
    if _is_continuous(classes):
        example = classes[classes != np.round(classes)][0].item()
        raise ValueError(
            f"`{name}` holds continuous values (e.g. {example!r}); this metric needs class labels."
        )
    if classes.shape[0] > 2:
        raise ValueError(
            f"`{name}` holds {classes.shape[0]} classes {format_values(classes)}; "
            f"this metric needs binary targets.{multiclass_hint}"
        )
    if pos_label is None:
        if classes.dtype.kind == "b":
            pos_label = True
        elif classes.dtype.kind in "iuf" and any(
            set(classes.tolist()) <= allowed for allowed in _INFERABLE_LABEL_SETS
        ):
            pos_label = 1
        else:
            raise ValueError(
                f"`{name}` holds labels {format_values(classes)}; pass `pos_label` to name "
                "the positive class (it is inferred only for labels {0, 1}, {-1, 1} "
                "or booleans)."
            )
    elif classes.shape[0] == 2 and not np.any(classes == pos_label):
        raise ValueError(
            f"`pos_label`={pos_label!r} is not one of the labels in `{name}` "
            f"{format_values(classes)}."
        )
    return np.asarray(y == pos_label, dtype=bool), pos_label


def check_option(value: Any, name: str, options: Iterable[Any]) -> Any:
    """``value`` if it is one of ``options``, else a ValueError listing them."""
    options = tuple(options)
    if not any(value is option or (value == option) is True for option in options):
        raise ValueError(f"`{name}` must be one of {format_values(options)}; got {value!r}.")
    return value


def check_zero_division(zero_division: Any) -> Any:
    """``zero_division`` must be "warn", 0, 1 or NaN (scikit-learn's choices)."""
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return zero_division
    elif isinstance(zero_division, numbers.Real) and (
        zero_division in (0, 1) or np.isnan(float(zero_division))
    ):
        return float(zero_division)
    raise ValueError(f"`zero_division` must be 'warn', 0, 1 or numpy.nan; got {zero_division!r}.")


# --- Helpers shared by the confusion-matrix, cost and regression metrics. ---

# Largest deviation of a row sum of probabilities from 1 that is accepted: float32
# softmax outputs are off by a few 1e-7; anything beyond 1e-6 is not a distribution.
PROBABILITY_ROW_SUM_TOLERANCE = 1e-6


def check_class_labels(y: np.ndarray, name: str) -> None:
    """Raise unless float labels are finite integers (class labels, not continuous values).

    Only the error is produced here; callers decide themselves when to call it (for
    example after a fast pass found a non-integral value).
    """
    if y.dtype.kind != "f":
        return
    _count_non_finite(y, name, "labels")
    continuous = y != np.round(y)
    if np.any(continuous):
        example = y[continuous][0].item()
        raise ValueError(
            f"`{name}` holds continuous values (e.g. {example!r}); this metric needs class labels."
        )


def as_finite_array(values: Any, name: str, what: str = "values", max_ndim: int = 2) -> np.ndarray:
    """Non-empty, finite, numeric ``values`` as contiguous float64 with 1 to ``max_ndim`` axes.

    A 1-D input stays 1-D.  ``what`` names the values in messages ("targets", "costs").
    """
    array = np.asarray(values)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"`{name}` must be numeric; got dtype {array.dtype}.")
    if not 1 <= array.ndim <= max_ndim:
        allowed = "1-D" if max_ndim == 1 else f"1-D to {max_ndim}-D"
        raise ValueError(f"`{name}` must be {allowed}, got an array of shape {array.shape}.")
    if array.size == 0:
        raise ValueError(f"`{name}` is empty; at least one value is needed.")
    array = np.ascontiguousarray(array, dtype=np.float64)
    _count_non_finite(array, name, what)
    return array


def check_probability_rows(
    probabilities: np.ndarray, name: str, tolerance: float = PROBABILITY_ROW_SUM_TOLERANCE
) -> None:
    """Raise unless every row of a 2-D probability array sums to 1 (within ``tolerance``)."""
    deviation = np.abs(probabilities.sum(axis=1) - 1.0)
    bad = np.flatnonzero(deviation > tolerance)
    if bad.shape[0]:
        row = int(bad[0])
        raise ValueError(
            f"`{name}` has {bad.shape[0]} rows that do not sum to 1 (e.g. row {row} sums to "
            f"{float(probabilities[row].sum())!r}); each row must be a probability "
            "distribution over the classes."
        )


# --- Checks shared by the resampling functions (bootstrap, compare, permutation tests). ---

ALTERNATIVES = ("two-sided", "less", "greater")


def _shown(value: Any) -> Any:
    """``value`` for a message: numpy scalars as plain Python scalars."""
    return value.item() if isinstance(value, np.generic) else value


def check_confidence_level(confidence_level: Any) -> float:
    """``confidence_level`` as a float strictly between 0 and 1."""
    if (
        isinstance(confidence_level, bool)
        or not isinstance(confidence_level, numbers.Real)
        or not 0.0 < float(confidence_level) < 1.0
    ):
        raise ValueError(
            f"`confidence_level` must be in (0, 1); got {_shown(confidence_level)!r}."
        )
    return float(confidence_level)


def check_n_resamples(n_resamples: Any, name: str = "n_resamples") -> int:
    """``n_resamples`` as a Python int >= 1 (a float such as 1000.0 is refused)."""
    if (
        isinstance(n_resamples, bool)
        or not isinstance(n_resamples, numbers.Integral)
        or n_resamples < 1
    ):
        raise ValueError(f"`{name}` must be an integer >= 1; got {_shown(n_resamples)!r}.")
    return int(n_resamples)


def check_alternative(alternative: Any) -> str:
    """``alternative`` must be 'two-sided', 'less' or 'greater'."""
    if not isinstance(alternative, str):
        raise ValueError(
            f"`alternative` must be one of {format_values(ALTERNATIVES)}; got {alternative!r}."
        )
    return str(check_option(alternative, "alternative", ALTERNATIVES))
