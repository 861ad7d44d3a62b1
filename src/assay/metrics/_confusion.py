"""The confusion matrix: label handling, counting, and the one-vs-rest cells.

Every confusion-matrix metric of assay is computed in two steps:

1. :func:`labelled_confusion` validates ``y_true``, ``y_pred`` (and ``labels``,
   ``sample_weight``) and counts the *full* confusion matrix once, over every class that
   occurs in the data or is requested.  Requested labels come first, in the order given,
   then the other classes present in the data, sorted.  Rows are true classes, columns
   predicted classes; counts (unweighted, or with integer weights) are int64, sums of
   fractional weights float64.
2. A function of that matrix (:mod:`assay.metrics._cell_metrics`) turns the cells into
   the metric.  :func:`one_vs_rest_cells` gives, per class ``j``, ``TP_j, FP_j, FN_j,
   TN_j`` with the rest of the classes pooled -- including classes outside ``labels``,
   as in scikit-learn, whose ``labels`` only choose which classes are reported.

Label rules (scikit-learn's): the class set is the sorted union of the labels of
``y_true`` and ``y_pred``; zero-weight rows still bring their labels in.  Predictions
must be labels, not scores (:func:`assay._validation.as_label_pair` states the rules).  Integer and
boolean labels (and float labels holding integers) of a small range are counted with a
lookup table in O(n), never sorted; only strings, objects and integers spread over a
range much wider than n go through :func:`numpy.unique`.
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np

from assay._kernels import confusion as kernels
from assay._validation import (
    as_label_pair,
    as_sample_weight,
    check_class_labels,
    check_option,
    check_same_kind,
    format_values,
    mixed_labels_error,
)
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._multilabel import any_multilabel

__all__ = ["confusion_matrix"]

_NUMERIC_KINDS = "biuf"
# Integer labels spanning at most this many values are counted straight into a
# (span, span) matrix; wider spans go through a lookup table of the values present.
_SPAN_LIMIT = 64


class LabelledConfusion(NamedTuple):
    """A full confusion matrix and the classes of its rows and columns."""

    matrix: np.ndarray
    """(k, k) counts (int64; integer weights too) or weight sums (float64);
    ``[true class, predicted class]``."""
    classes: np.ndarray
    """The k class labels: the requested ones first (in order), then the others sorted."""
    n_requested: int
    """The first ``n_requested`` classes are those asked for (all k when ``labels=None``)."""
    n_present: int
    """Number of distinct labels in ``y_true`` and ``y_pred`` together."""
    in_y_true: np.ndarray
    """Boolean (k,): the class occurs in ``y_true`` (whatever its weight)."""


class Cells(NamedTuple):
    """One-vs-rest cells per class (float64 arrays over the last axis)."""

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    positives: np.ndarray
    """``TP + FN``: true members of the class (its support)."""
    predicted_positives: np.ndarray
    """``TP + FP``: rows predicted as the class."""
    total: np.ndarray
    """``TP + FP + FN + TN``: all rows."""

    @property
    def negatives(self) -> np.ndarray:
        """``FP + TN``: rows whose true class is another one."""
        return self.total - self.positives

    @property
    def predicted_negatives(self) -> np.ndarray:
        """``FN + TN``: rows predicted as another class."""
        return self.total - self.predicted_positives

    def pooled(self) -> Cells:
        """Cells summed over the classes (the micro average's cells; Honavar, "Evaluating
        model performance")."""
        return Cells(*(np.sum(cell, axis=-1, keepdims=True) for cell in self))

    def take(self, classes: np.ndarray | None) -> Cells:
        """Cells of the given class indices only (all when ``classes`` is None)."""
        if classes is None:
            return self
        return Cells(*(np.take(cell, classes, axis=-1) for cell in self))


def one_vs_rest_cells(matrix: np.ndarray) -> Cells:
    """``TP_j, FP_j, FN_j, TN_j`` of every class ``j`` of a (..., k, k) confusion matrix.

    ``TP_j`` is the diagonal, ``FP_j`` the column sum minus it, ``FN_j`` the row sum minus
    it and ``TN_j`` the rest.  Leading axes (a stack of matrices) are kept.
    """
    matrix = np.asarray(matrix, dtype=np.float64)
    tp = np.diagonal(matrix, axis1=-2, axis2=-1).copy()
    positives = matrix.sum(axis=-1)
    predicted_positives = matrix.sum(axis=-2)
    total = np.broadcast_to(positives.sum(axis=-1, keepdims=True), tp.shape).copy()
    fp = predicted_positives - tp
    fn = positives - tp
    tn = total - tp - fp - fn
    return Cells(tp, fp, fn, tn, positives, predicted_positives, total)


# --------------------------------------------------------------------------------------
# Labels


def _integer_view(y: np.ndarray, name: str) -> np.ndarray | None:
    """Numeric labels as int64 (booleans as they are), or None if they do not fit in int64."""
    if y.dtype.kind == "b":
        return np.ascontiguousarray(y)
    if y.dtype.kind == "f":
        values, n_bad = kernels.integral_floats_to_int64(np.ascontiguousarray(y, dtype=np.float64))
        if n_bad:
            check_class_labels(y, name)  # raises for NaN, infinities, non-integers
            return None  # integers beyond 2**53: take the general path
        return values
    if y.dtype.kind == "u" and y.dtype.itemsize == 8 and int(y.max()) > np.iinfo(np.int64).max:
        return None
    return np.ascontiguousarray(y, dtype=np.int64)


def _count_small_range(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    weights: np.ndarray | None,
    dtype: np.dtype,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(matrix over present labels, present labels, present-in-y_true flags), or None.

    None when the labels span a range much wider than the number of rows.
    """
    if y_true.dtype.kind == "b" and y_pred.dtype.kind == "b":
        low, high = 0, 1
    else:
        y_true = y_true.astype(np.int64, copy=False)
        y_pred = y_pred.astype(np.int64, copy=False)
        low, high = (int(v) for v in kernels.integer_range(y_true, y_pred))
    span = high - low + 1
    if span <= _SPAN_LIMIT:
        if weights is None:
            matrix = counts = kernels.span_confusion_counts(y_true, y_pred, low, span)
        else:
            matrix, counts = kernels.span_confusion_weights(y_true, y_pred, weights, low, span)
        in_y_true = counts.sum(axis=1) > 0
        present = np.flatnonzero(in_y_true | (counts.sum(axis=0) > 0))
        matrix = matrix[np.ix_(present, present)]
        return matrix, (present + low).astype(dtype), in_y_true[present]
    if span > max(1 << 16, 2 * y_true.shape[0]):
        return None
    flags = kernels.label_presence(y_true, y_pred, low, span)
    present = np.flatnonzero(flags)
    lookup = np.zeros(span, dtype=np.int64)
    lookup[present] = np.arange(present.shape[0], dtype=np.int64)
    k = present.shape[0]
    if weights is None:
        matrix = kernels.confusion_counts(y_true, y_pred, lookup, low, k)
    else:
        matrix = kernels.confusion_weights(y_true, y_pred, weights, lookup, low, k)
    return matrix, (present + low).astype(dtype), (flags[present] & 1).astype(bool)


def _count_general(
    y_true: np.ndarray, y_pred: np.ndarray, weights: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Same as :func:`_count_small_range` for any sortable labels, through ``np.unique``."""
    n = y_true.shape[0]
    try:
        classes, codes = np.unique(np.concatenate([y_true, y_pred]), return_inverse=True)
    except TypeError as error:
        names = ("y_true", "y_pred")  # one array mixing types is named by itself
        mixed = [
            mixed_labels_error(array, name)
            for array, name in zip((y_true, y_pred), names, strict=True)
        ]
        raise next((found for found in mixed if found is not None), None) or ValueError(
            "`y_true` and `y_pred` mix labels of different types (for example strings "
            "and numbers); labels must be mutually comparable."
        ) from error
    codes = np.ascontiguousarray(codes.reshape(-1), dtype=np.int64)
    k = classes.shape[0]
    identity = np.arange(k, dtype=np.int64)
    true_codes, pred_codes = codes[:n], codes[n:]
    if weights is None:
        matrix = kernels.confusion_counts(true_codes, pred_codes, identity, 0, k)
    else:
        matrix = kernels.confusion_weights(true_codes, pred_codes, weights, identity, 0, k)
    in_y_true = np.zeros(k, dtype=bool)
    in_y_true[true_codes] = True
    return matrix, classes, in_y_true


def _requested_labels(labels: Any, present: np.ndarray) -> np.ndarray:
    requested = np.asarray(labels)
    if requested.ndim != 1:
        raise ValueError(f"`labels` must be 1-D, got an array of shape {requested.shape}.")
    if requested.shape[0] == 0:
        raise ValueError("`labels` is empty; at least one label is needed.")
    check_same_kind(present, requested, ("y_true", "labels"))
    try:
        distinct = np.unique(requested)
    except TypeError as error:
        raise ValueError(f"`labels` {format_values(requested)} are not comparable.") from error
    if distinct.shape[0] != requested.shape[0]:
        raise ValueError(f"`labels` {format_values(requested)} contains repeated labels.")
    return requested


def _positions(present: np.ndarray, requested: np.ndarray) -> np.ndarray:
    """Index of each requested label among the sorted present labels, -1 if absent."""
    try:
        index = np.searchsorted(present, requested)
    except TypeError as error:
        raise ValueError(
            f"`labels` {format_values(requested)} cannot be compared with the labels of "
            f"`y_true` and `y_pred` {format_values(present)}."
        ) from error
    clipped = np.minimum(index, present.shape[0] - 1)
    found = present[clipped] == requested
    return np.where(found, clipped, -1)


def labelled_confusion(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    pos_label: Any = None,
    names: tuple[str, str] = ("y_true", "y_pred"),
    raters: bool = False,
) -> LabelledConfusion:
    """Validate the targets and count the full confusion matrix (see the module doc).

    The labels are checked by :func:`assay._validation.as_label_pair` (``pos_label``
    only counts there as a label a float prediction may take).  ``names`` are the
    argument names used in error messages; ``raters=True`` (Cohen's kappa, names
    ``("y1", "y2")``) checks both arrays as predicted labels.
    """
    y_true, y_pred = as_label_pair(
        y_true, y_pred, names=names, labels=labels, pos_label=pos_label, symmetric=raters
    )
    # integer weights stay int64: exact cells beyond 2**53, as scikit-learn's
    weights = as_sample_weight(sample_weight, y_true.shape[0], keep_integers=True)

    counted = None
    if y_true.dtype.kind in _NUMERIC_KINDS and y_pred.dtype.kind in _NUMERIC_KINDS:
        true_codes = _integer_view(y_true, names[0])
        pred_codes = _integer_view(y_pred, names[1])
        if true_codes is not None and pred_codes is not None:
            dtype = np.result_type(y_true.dtype, y_pred.dtype)
            counted = _count_small_range(true_codes, pred_codes, weights, dtype)
    if counted is None:
        counted = _count_general(y_true, y_pred, weights)
    matrix, present, in_y_true = counted
    n_present = present.shape[0]
    if labels is None:
        return LabelledConfusion(matrix, present, n_present, n_present, in_y_true)

    requested = _requested_labels(labels, present)
    position = _positions(present, requested)
    others = np.setdiff1d(np.arange(n_present), position[position >= 0])
    order = np.concatenate([position, others])
    # absent requested labels point at an appended empty row and column
    order = np.where(order < 0, n_present, order)
    padded = np.pad(matrix, ((0, 1), (0, 1)))
    full = padded[np.ix_(order, order)]
    classes = np.concatenate([requested, present[others]])
    flags = np.append(in_y_true, False)[order]
    return LabelledConfusion(full, classes, requested.shape[0], n_present, flags)


AVERAGES: tuple[str | None, ...] = (None, "binary", "micro", "macro", "weighted")


def averaging_options(
    confusion: LabelledConfusion,
    *,
    average: str | None,
    pos_label: Any,
    labels_given: bool,
) -> tuple[np.ndarray, dict[str, Any]]:
    """The matrix and the ``average``/``pos_index``/``classes`` options of an averaged metric.

    ``average`` must already be checked.  'binary' needs at most two labels in the data
    and a ``pos_label`` among them; an absent ``pos_label`` is accepted when only one
    label occurs (scikit-learn's rule): its class is empty and is appended to the matrix.
    For the other averages, ``classes`` are the requested labels when ``labels`` was
    given, else None (all classes).
    """
    if average != "binary":
        classes = np.arange(confusion.n_requested) if labels_given else None
        return confusion.matrix, {"average": average, "classes": classes}
    present = confusion.classes
    if confusion.n_present > 2:
        raise ValueError(
            f"`average`='binary' needs binary targets, but `y_true` and `y_pred` hold "
            f"{confusion.n_present} classes {format_values(present)}; choose `average` "
            "None, 'micro', 'macro' or 'weighted'."
        )
    matches = [i for i, label in enumerate(present.tolist()) if _same_label(label, pos_label)]
    if matches:
        return confusion.matrix, {"average": "binary", "pos_index": matches[0]}
    if confusion.n_present == 2:
        raise ValueError(
            f"`pos_label`={pos_label!r} is not one of the labels in `y_true` and `y_pred` "
            f"{format_values(present)}."
        )
    matrix = np.pad(confusion.matrix, ((0, 1), (0, 1)))
    return matrix, {"average": "binary", "pos_index": matrix.shape[0] - 1}


def _same_label(label: Any, pos_label: Any) -> bool:
    if isinstance(label, str) != isinstance(pos_label, str):
        return False
    return bool(label == pos_label)


# --------------------------------------------------------------------------------------
# Public: the matrix itself


def _normalized(matrix: np.ndarray, normalize: str | None) -> np.ndarray:
    if normalize is None:
        return matrix
    axis = {"true": 1, "pred": 0, "all": None}[normalize]
    totals = matrix.sum(axis=axis, keepdims=True, dtype=np.float64)
    empty = totals == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.where(empty, 0.0, matrix / np.where(empty, 1.0, totals))
    if np.any(empty):
        what = {"true": "rows (true classes)", "pred": "columns (predicted classes)"}.get(
            normalize, "cells"
        )
        warnings.warn(
            f"The confusion matrix has {int(empty.sum())} empty {what}; they cannot be "
            "normalized and are set to 0.0.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    return result


def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    normalize: str | None = None,
) -> np.ndarray:
    """Confusion matrix ``C``: ``C[i, j]`` counts rows of true class i predicted as j.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (integers, booleans, strings; floats holding integers).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, of the same kind as ``y_true``; never scores or
        probabilities (threshold them first, e.g. ``y_score >= 0.5``; see Notes).
    labels : array-like of shape (n_classes,), default=None
        Classes of the rows and columns, in this order.  Rows whose true or predicted
        label is not listed are left out; listed labels absent from the data give empty
        rows and columns.  At least one must occur in ``y_true``.  Default: the sorted
        union of the labels of ``y_true`` and ``y_pred``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.  A zero-weight row adds nothing to any cell
        but its labels still belong to the default class set.
    normalize : {'true', 'pred', 'all'}, default=None
        Divide by the row sums ('true'), the column sums ('pred') or the total ('all').

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        int64 counts without weights or with integer weights (exact, also beyond
        2**53, as scikit-learn's), float64 for fractional weights or normalization.

    Raises
    ------
    ValueError
        Inputs of different lengths or empty; sparse matrices or sequences of label
        sequences (the legacy multi-label format); continuous or non-finite float
        labels; float predictions that are not labels of ``y_true`` (or ``labels``);
        string and numeric labels mixed; bad weights; ``labels`` empty, repeated or
        none of them in ``y_true``; an unknown ``normalize``.

    Warns
    -----
    UndefinedMetricWarning
        When ``normalize`` meets an empty row, column or matrix; that part is set to 0.0
        (scikit-learn's value).

    Notes
    -----
    For class ``j`` of the matrix, ``TP_j = C[j, j]``, ``FN_j = sum_i C[j, i] - TP_j``,
    ``FP_j = sum_i C[i, j] - TP_j`` and ``TN_j`` is the rest; every confusion-matrix
    metric of assay is a function of these cells ("Classification validation", slide
    "Confusion Matrix"; Wu, "Evaluation", exercise 9, for the row-normalized matrix).
    Integer labels of a small range are counted in O(n) without sorting.

    Predicted labels, here and in every function that takes them (the confusion-matrix
    metrics, :func:`assay.mcnemar`, :func:`assay.cochrans_q`, :func:`assay.error_rate_ci`,
    and :func:`assay.bootstrap`, :func:`assay.compare` and
    :func:`assay.permutation_test` of these metrics), must be labels, not scores: a
    probability of exactly 1.0 would otherwise count as the label 1.  Integer, boolean
    and string predictions are labels whatever their values (a class absent from
    ``y_true`` is allowed, as in scikit-learn); float predictions must be integers and
    labels of ``y_true``, of ``labels``, of a binary ``pos_label``, or the other label
    of a 0/1 (or -1/1) target.  Probabilities that are all exactly 0.0 or 1.0 are
    therefore labels of a 0/1 target.

    Examples
    --------
    >>> from assay.metrics import confusion_matrix
    >>> confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2])
    array([[2, 0, 0],
           [0, 0, 1],
           [1, 0, 2]])
    >>> confusion_matrix(["cat", "dog", "cat"], ["cat", "cat", "cat"], normalize="true")
    array([[1., 0.],
           [1., 0.]])
    """
    check_option(normalize, "normalize", (None, "true", "pred", "all"))
    if any_multilabel(y_true, y_pred):
        raise ValueError(
            "`confusion_matrix` does not support multilabel targets (2-D 0/1 "
            "indicators); use `multilabel_confusion_matrix` for one 2x2 matrix per label."
        )
    confusion = labelled_confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    k = confusion.n_requested
    if labels is not None and not np.any(confusion.in_y_true[:k]):
        raise ValueError(
            f"None of `labels` {format_values(confusion.classes[:k])} occurs in `y_true`; "
            "at least one must."
        )
    return _normalized(confusion.matrix[:k, :k], normalize)
