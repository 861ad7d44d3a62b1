"""Input checks shared by every public function: one place for the wording of errors.

Messages name the argument, the rule and the offending value, e.g.
``"`y_score` contains 3 NaN values; scores must be finite."``.  Every message
here is exercised by ``tests/test_validation.py``.
"""

from __future__ import annotations

import itertools
import numbers
import sys
from collections.abc import Iterable
from typing import Any

import numpy as np

from assay._labels import (
    check_same_kind,
    distinct_values,
    few_distinct_values,
    label_kind,
    mixed_labels_error,
    native_numbers,
    numbers_of_objects,
    refuse_missing,
)

__all__ = [
    "as_1d",
    "as_label_pair",
    "as_labels",
    "as_probabilities",
    "as_sample_weight",
    "as_scores",
    "binary_target",
    "check_option",
    "check_same_kind",
    "check_same_length",
    "check_zero_division",
    "distinct_values",
    "few_distinct_values",
    "format_values",
    "label_kind",
    "mixed_labels_error",
    "numbers_of_objects",
    "reject_sparse",
    "two_column_scores_message",
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


# Elements that make an object array a sequence of sequences (the legacy multi-label
# format of scikit-learn, which it refuses since version 0.15).
_SEQUENCE_TYPES = (list, tuple, set, frozenset, np.ndarray)


def _sparse_type_name(values: Any) -> str | None:
    """Class name of a scipy.sparse matrix or array (also wrapped in a 0-d object array).

    scipy.sparse is looked up only if it is already imported: nothing can be sparse
    otherwise, and importing it would cost every call.
    """
    sparse = sys.modules.get("scipy.sparse")
    if sparse is None:
        return None
    if isinstance(values, np.ndarray) and values.ndim == 0 and values.dtype == object:
        values = values.item()
    return type(values).__name__ if sparse.issparse(values) else None


def reject_sparse(values: Any, name: str) -> None:
    """Raise for scipy.sparse input: assay's metrics read dense arrays only."""
    kind = _sparse_type_name(values)
    if kind is not None:
        raise ValueError(
            f"`{name}` is a scipy.sparse {kind}; sparse input is not supported: pass a "
            f"dense array (`{name}.toarray()`, raveled to 1-D for one row or column)."
        )


def _legacy_multilabel_error(name: str, example: Any) -> ValueError:
    shown = example.tolist() if isinstance(example, np.ndarray) else example
    return ValueError(
        f"`{name}` holds sequences of labels (e.g. {shown!r}), the legacy multi-label "
        "format (a sequence of sequences), which is not supported: pass one class label "
        "per sample (for multi-label data, evaluate each column of a binary indicator "
        "matrix, such as the output of sklearn's MultiLabelBinarizer, separately)."
    )


def _first_sequence(items: Iterable[Any], limit: int = 100) -> Any:
    """A sequence (not a string) among the first ``limit`` items, non-empty if one is
    found there, else None."""
    head = itertools.islice(items, limit)
    sequences = [item for item in head if isinstance(item, _SEQUENCE_TYPES)]
    return next((item for item in sequences if len(item)), sequences[0] if sequences else None)


def two_column_scores_message(name: str, shape: tuple[int, ...]) -> str:
    """The error for an (n, 2) array where one score per sample is needed."""
    return (
        f"`{name}` has 2 columns (shape {shape}), like the output of `predict_proba` for "
        "a binary problem; this metric needs one score per sample, that of the positive "
        f"class: pass its column, e.g. `{name}[:, 1]` (scikit-learn orders the columns "
        "like `classes_`, so column 1 holds the larger label)."
    )


def as_1d(values: Any, name: str, *, scores: bool = False) -> np.ndarray:
    """``values`` as a non-empty 1-D array (a column vector of shape (n, 1) is raveled).

    Refused with a message of their own: scipy.sparse input and sequences of sequences
    (the legacy multi-label format: an object array of lists, tuples, sets or arrays,
    or a list of such of varying length; as in scikit-learn, an object array is judged
    by its first element, an O(1) look).  With ``scores=True`` an (n, 2) array is taken
    for the two columns of ``predict_proba``: the message says to pass the positive
    class's column.
    """
    reject_sparse(values, name)
    try:
        array = np.asarray(values)
    except ValueError as error:  # ragged nested sequences
        if isinstance(values, (list, tuple)):
            example = _first_sequence(values)
            if example is not None:
                raise _legacy_multilabel_error(name, example) from error
        raise
    if array.dtype == object and array.ndim == 0:
        reject_sparse(array, name)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array.ravel()
    if scores and array.ndim == 2 and array.shape[1] == 2:
        raise ValueError(two_column_scores_message(name, array.shape))
    if array.ndim != 1:
        raise ValueError(f"`{name}` must be 1-D, got an array of shape {array.shape}.")
    if array.shape[0] == 0:
        raise ValueError(f"`{name}` is empty; at least one sample is needed.")
    if array.dtype == object:
        if isinstance(array[0], _SEQUENCE_TYPES):
            raise _legacy_multilabel_error(name, _first_sequence(array))
        refuse_missing(array, name)
    return native_numbers(array)


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
    # a NaN or an infinity makes the sum NaN or infinite: a finite sum proves every value
    # finite in one pass without a mask (a sum that overflows is checked value by value)
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(np.sum(array)):
            return
    finite = np.isfinite(array)
    if finite.all():
        return
    n_nan = int(np.isnan(array).sum())
    if n_nan:
        raise ValueError(f"`{name}` contains {n_nan} NaN values; {what} must be finite.")
    n_inf = int((~finite).sum())
    raise ValueError(f"`{name}` contains {n_inf} infinite values; {what} must be finite.")


def _as_float_array(
    values: Any, name: str, ndim: int, scores: bool = False, keep_float32: bool = False
) -> np.ndarray:
    if ndim == 1:
        array = as_1d(values, name, scores=scores)
    else:
        reject_sparse(values, name)
        array = np.asarray(values)
    array = numbers_of_objects(array)  # a pandas column of dtype object holding numbers
    if array.dtype.kind not in "biuf":
        raise ValueError(f"`{name}` must be numeric; got dtype {array.dtype}.")
    if keep_float32 and array.dtype == np.float32:
        return np.ascontiguousarray(array)
    return np.ascontiguousarray(array, dtype=np.float64)


def as_scores(values: Any, name: str = "y_score", *, keep_float32: bool = False) -> np.ndarray:
    """Scores as a contiguous finite float64 1-D array (the input itself if it is one).

    With ``keep_float32``, float32 scores stay float32 (for callers whose kernels take
    both: every float32 is exactly a float64, so no order and no tie changes, and half
    the bytes are moved).
    """
    scores = _as_float_array(values, name, 1, scores=True, keep_float32=keep_float32)
    _count_non_finite(scores, name, "scores")
    return scores


def as_probabilities(values: Any, name: str = "y_prob", ndim: int = 1) -> np.ndarray:
    """Probabilities as contiguous float64 (1-D, or 2-D with ``ndim=2``), all in [0, 1]."""
    probabilities = _as_float_array(values, name, ndim, scores=True)
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


# Integer weights are kept as int64 when their total stays below this (exact sums).
_INT64_TOTAL_LIMIT = 2**62


def _integer_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """Integer (or boolean) weights as int64 if their total fits int64 exactly, else None."""
    array = as_1d(sample_weight, "sample_weight")
    if array.dtype.kind not in "biu" or array.shape[0] != n:
        return None
    if array.dtype.kind == "u" and int(array.max()) > np.iinfo(np.int64).max:
        return None
    weights = np.ascontiguousarray(array, dtype=np.int64)
    largest = int(weights.max())
    if largest * n >= _INT64_TOTAL_LIMIT and float(weights.sum(dtype=np.float64)) >= float(
        _INT64_TOTAL_LIMIT
    ):
        return None
    return weights


def as_sample_weight(
    sample_weight: Any, n: int, *, keep_integers: bool = False
) -> np.ndarray | None:
    """Weights as contiguous float64, finite, non-negative, not all zero; None stays None.

    With ``keep_integers``, integer (and boolean) weights come back as int64 instead, so
    that sums of them (confusion-matrix cells) are exact beyond 2**53, as long as their
    total fits int64 (else float64).
    """
    if sample_weight is None:
        return None
    if keep_integers:
        integers = _integer_weights(sample_weight, n)
        if integers is not None:
            _check_weight_signs(integers)
            return integers
    weights = _as_float_array(sample_weight, "sample_weight", 1)
    if weights.shape[0] != n:
        raise ValueError(
            f"`sample_weight` has length {weights.shape[0]} but there are {n} samples."
        )
    _count_non_finite(weights, "sample_weight", "weights")
    _check_weight_signs(weights)
    with np.errstate(over="ignore"):
        total = float(np.sum(weights))
    if total == np.inf:
        raise ValueError(
            "`sample_weight` sums to more than the largest float64 (about 1.8e308); "
            "divide the weights by a common factor."
        )
    return weights


def _check_weight_signs(weights: np.ndarray) -> None:
    n_negative = int(np.count_nonzero(weights < 0))
    if n_negative:
        raise ValueError(
            f"`sample_weight` contains {n_negative} negative values; weights must be non-negative."
        )
    if not np.any(weights > 0):
        raise ValueError("`sample_weight` sums to zero; at least one weight must be positive.")


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
    y = numbers_of_objects(as_1d(y_true, name))
    if y.dtype.kind == "f":
        _count_non_finite(y, name, "labels")
    try:
        classes = few_distinct_values(y, 2)
        if classes is None:  # more than two: find them all for the message
            classes = distinct_values(y)
    except TypeError as error:  # objects that do not compare: 1 and "a"
        raise mixed_labels_error(y, name) or error from error
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


# --- Class labels: targets and predicted labels. ---

# A target of labels within one of these sets (a single class included) is a binary
# target whose other label is implied: a float prediction of it is a label.
_BINARY_LABEL_SETS = (frozenset({0, 1}), frozenset({-1, 1}))


def _label_array(values: Any, name: str) -> np.ndarray:
    """1-D labels of a label dtype; an object array of numbers becomes a numeric array."""
    array = as_1d(values, name)
    if array.dtype.kind not in "biufUSO":
        raise ValueError(
            f"`{name}` has dtype {array.dtype}; class labels must be integers, booleans, "
            "floats holding integers, or strings."
        )
    return numbers_of_objects(array)


def as_labels(values: Any, name: str = "y_true") -> np.ndarray:
    """Class labels (a target) as a 1-D array; float labels must be finite integers."""
    array = _label_array(values, name)
    check_class_labels(array, name)
    return array


def check_predicted_floats(predicted: np.ndarray, name: str) -> None:
    """Float predicted labels (any shape) must be finite integers; other values are scores."""
    _count_non_finite(predicted, name, "labels")
    continuous = predicted != np.round(predicted)
    if np.any(continuous):
        example = predicted[continuous][0].item()
        raise ValueError(
            f"`{name}` holds continuous values (e.g. {example!r}): scores or probabilities, "
            "not class labels; threshold them first (e.g. `score >= 0.5`) and pass the "
            "predicted labels."
        )


def _allowed_labels(truth: np.ndarray, labels: Any, pos_label: Any) -> np.ndarray:
    """The labels a float prediction may take: those of ``truth``, ``labels``, ``pos_label``
    and, for a binary 0/1 (or -1/1) target, the other label of its set."""
    classes = distinct_values(truth)
    extra: list[Any] = [pos_label] if isinstance(pos_label, numbers.Real) else []
    if labels is not None:
        requested = np.asarray(labels)
        if requested.ndim == 1 and requested.dtype.kind in "biuf":
            extra.extend(requested.tolist())
    present = set(classes.tolist())
    for label_set in _BINARY_LABEL_SETS:
        if present <= label_set:
            extra.extend(label_set)
    if not extra:
        return classes
    return np.union1d(classes, np.asarray(extra, dtype=np.float64))


def _check_within(
    predicted: np.ndarray,
    names: tuple[str, str],
    truth: np.ndarray,
    labels: Any,
    pos_label: Any,
) -> None:
    """Float predicted labels must be labels of ``truth`` (or ``labels``, ``pos_label``)."""
    values = distinct_values(predicted)
    allowed = _allowed_labels(truth, labels, pos_label)
    unknown = values[~np.isin(values, allowed)]
    if unknown.shape[0]:
        true_name, name = names
        raise ValueError(
            f"`{name}` holds float values {format_values(unknown)} that are not labels of "
            f"`{true_name}` {format_values(distinct_values(truth))}; float predictions "
            "must be labels of the target (or of `labels`): threshold scores first "
            "(e.g. `score >= 0.5`), or pass integer labels (or name the class in `labels`)."
        )


def as_label_pair(
    y_true: Any,
    y_pred: Any,
    *,
    names: tuple[str, str] = ("y_true", "y_pred"),
    labels: Any = None,
    pos_label: Any = None,
    symmetric: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Validate a target and predicted labels of it; both as 1-D arrays.

    The one check of predicted labels shared by every function that takes them (the
    confusion-matrix metrics and, through them, the resampling functions; McNemar's
    test, Cochran's Q, :func:`assay.compare`'s check of ``pred_a`` and ``pred_b``).
    Its purpose is to refuse scores where labels are expected: a probability of exactly
    1.0 would otherwise count as the label 1.  The rules:

    * Both arrays are 1-D, non-empty, of the same length, and of a label dtype:
      integers, booleans, floats, strings (or objects); not sparse and not a sequence
      of sequences (see :func:`as_1d`).  An object array of numbers is read as a
      numeric array.
    * Strings and numbers do not mix: one array holding strings and the other numbers
      is an error.
    * Target: float labels must be finite integers ("continuous values" otherwise).
    * Integer, boolean and string predictions are labels whatever their values: a
      class absent from ``y_true`` stays allowed (a multi-class model may predict a
      class that the test set lacks, as scikit-learn allows).
    * Float predictions must be finite integers (a non-integral value is a score or
      probability: threshold it first), *and* every value must be a label of
      ``y_true``, of ``labels`` or ``pos_label`` when given, or, for a target within
      {0, 1} (or {-1, 1}) such as a single-class test set, the other label of that
      set.  An integral float outside these (2.0 for a 0/1 target) is taken for a
      score too.  Probabilities that are all exactly 0.0 or 1.0 are therefore valid
      labels of a 0/1 target.
    * ``symmetric`` (two raters, as in Cohen's kappa): float labels of either rater
      must be finite integers (a non-integral value is a score); neither is checked
      against the other's labels, since a class used by one rater only is ordinary
      disagreement.

    ``names`` are the argument names used in messages.
    """
    true_name, name = names
    truth = _label_array(y_true, true_name)
    predicted = _label_array(y_pred, name)
    check_same_length(**{true_name: truth, name: predicted})
    check_same_kind(truth, predicted, names)
    if truth.dtype.kind == "f":
        if symmetric:
            check_predicted_floats(truth, true_name)
        else:
            check_class_labels(truth, true_name)
    if predicted.dtype.kind == "f":
        check_predicted_floats(predicted, name)
    if predicted.dtype.kind == "f" and not symmetric and label_kind(truth) == "numeric":
        _check_within(predicted, names, truth, labels, pos_label)
    return truth, predicted


def as_finite_array(values: Any, name: str, what: str = "values", max_ndim: int = 2) -> np.ndarray:
    """Non-empty, finite, numeric ``values`` as contiguous float64 with 1 to ``max_ndim`` axes.

    A 1-D input stays 1-D.  ``what`` names the values in messages ("targets", "costs").
    """
    reject_sparse(values, name)
    array = numbers_of_objects(np.asarray(values))
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


# --- Seeds: one 64-bit master seed per call of a random procedure. ---

_SEED_LIMIT = 2**64


def resolve_seed(rng: Any) -> int:
    """The master seed (0 <= seed < 2**64) for ``rng``: None, an integer or a Generator.

    None draws a fresh seed from the operating system's entropy; a Generator gives one
    draw of 64 bits (so the same Generator state gives the same results).
    """
    if rng is None:
        return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, _SEED_LIMIT, dtype=np.uint64))
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if 0 <= int(rng) < _SEED_LIMIT:
            return int(rng)
    raise ValueError(
        f"`rng` must be None, an integer in [0, 2**64) or a numpy.random.Generator; got {rng!r}."
    )
