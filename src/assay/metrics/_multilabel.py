"""Multilabel indicator targets: validation and the per-label (or per-row) cells.

A multilabel target is an (n_samples, n_labels) indicator of 0/1 values (a dense array
or a scipy.sparse matrix or array): row ``i`` holds the set of labels of sample ``i``.
Every label is its own binary problem; its confusion cells are

``TP_j = sum_i w_i T_ij P_ij``, ``FP_j = sum_i w_i (1 - T_ij) P_ij``,
``FN_j = sum_i w_i T_ij (1 - P_ij)`` and ``TN_j`` the rest,

column sums of the indicators (one pass, O(n * labels) for a dense indicator and
O(stored entries) for a sparse one, which is never densified).  The sample-based
('samples') average uses the same cells summed along each row instead.

:class:`IndicatorCells` carries these cells to the functions of
:mod:`assay.metrics._cell_metrics`, which treat them like the one-vs-rest cells of a
confusion matrix.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from assay._validation import as_sample_weight, check_option, check_zero_division, format_values

if TYPE_CHECKING:
    from assay.metrics._confusion import Cells

__all__: list[str] = []

# Rows of a dense indicator summed at once with weights (bounds the temporary copy).
_CHUNK_ROWS = 1 << 15


def _sparse_module() -> Any:
    return sys.modules.get("scipy.sparse")


def is_sparse(values: Any) -> bool:
    sparse = _sparse_module()
    return sparse is not None and bool(sparse.issparse(values))


def is_multilabel(values: Any) -> bool:
    """Whether ``values`` is shaped like a multilabel indicator: a sparse matrix or a
    2-D array with more than one column (its values are checked by :func:`as_indicator`)."""
    if is_sparse(values):
        return len(values.shape) == 2 and values.shape[1] > 1
    try:
        shape = values.shape if isinstance(values, np.ndarray) else np.shape(values)
    except ValueError:  # ragged nested sequences: the legacy format, refused elsewhere
        return False
    return len(shape) == 2 and shape[1] > 1


def any_multilabel(y_true: Any, y_pred: Any) -> bool:
    """Whether either target is shaped like a multilabel indicator."""
    return is_multilabel(y_true) or is_multilabel(y_pred)


def _describe(values: Any) -> str:
    if is_sparse(values):
        return f"a sparse {type(values).__name__} of shape {values.shape}"
    return f"an array of shape {np.shape(values)}"


def refuse_multilabel(
    function: str, y_true: Any, y_pred: Any, names: tuple[str, str] = ("y_true", "y_pred")
) -> None:
    """Raise if a metric that has no multilabel form (as in scikit-learn) gets one."""
    if any_multilabel(y_true, y_pred):
        name, values = (names[0], y_true) if is_multilabel(y_true) else (names[1], y_pred)
        raise ValueError(
            f"`{function}` does not support multilabel targets: `{name}` is a multilabel "
            f"indicator ({_describe(values)}); pass 1-D class labels, or evaluate each "
            "column separately."
        )


def _check_values(values: np.ndarray, name: str) -> None:
    if values.dtype.kind == "b":
        return
    if values.dtype.kind not in "iuf":
        raise ValueError(
            f"`{name}` is 2-D, a multilabel indicator, but has dtype {values.dtype}; "
            "its values must be 0 and 1."
        )
    bad = (values != 0) & (values != 1)
    if np.any(bad):
        example = values[bad][0].item()
        raise ValueError(
            f"`{name}` is 2-D, a multilabel indicator, but holds {int(np.count_nonzero(bad))} "
            f"values other than 0 and 1 (e.g. {example!r}); pass 0/1 indicators (a 2-D "
            "array of scores or class labels is not a multilabel target)."
        )


def as_indicator(values: Any, name: str) -> Any:
    """A dense boolean (n, L) array, or a canonical boolean CSR matrix for sparse input."""
    if is_sparse(values):
        matrix = _sparse_module().csr_matrix(values)
        matrix.sum_duplicates()
        _check_values(matrix.data, name)
        matrix.eliminate_zeros()
        return matrix.astype(bool)
    array = np.asarray(values)
    if array.ndim != 2:
        raise ValueError(
            f"`{name}` must be a multilabel indicator (2-D), like the other target; got "
            f"an array of shape {array.shape}."
        )
    if array.shape[0] == 0:
        raise ValueError(f"`{name}` is empty; at least one sample is needed.")
    _check_values(array, name)
    return array if array.dtype.kind == "b" else array != 0


class IndicatorPair(NamedTuple):
    """Validated multilabel targets: both dense boolean, or both boolean CSR."""

    y_true: Any
    y_pred: Any
    sparse: bool

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.y_true.shape[0]), int(self.y_true.shape[1]))


def as_indicator_pair(
    y_true: Any, y_pred: Any, names: tuple[str, str] = ("y_true", "y_pred")
) -> IndicatorPair:
    """Validate two multilabel indicators of the same shape (either may be sparse);
    ``names`` are the argument names used in messages."""
    true_name, pred_name = names
    # the values first: a 2-D array of scores beside 1-D labels is named as such
    truth = as_indicator(y_true, true_name) if is_multilabel(y_true) else None
    predicted = as_indicator(y_pred, pred_name) if is_multilabel(y_pred) else None
    for name, found, values, other in (
        (true_name, truth, y_true, y_pred),
        (pred_name, predicted, y_pred, y_true),
    ):
        if found is None:
            other_name = pred_name if name == true_name else true_name
            raise ValueError(
                f"`{other_name}` is a multilabel indicator ({_describe(other)}) but "
                f"`{name}` is not ({_describe(values)}); both must be multilabel "
                "indicators of the same shape."
            )
    assert truth is not None and predicted is not None
    if truth.shape != predicted.shape:
        raise ValueError(
            f"`{true_name}` and `{pred_name}` are multilabel indicators of different shapes: "
            f"{tuple(truth.shape)} and {tuple(predicted.shape)}."
        )
    sparse = is_sparse(truth) or is_sparse(predicted)
    if sparse:
        module = _sparse_module()
        truth, predicted = module.csr_matrix(truth), module.csr_matrix(predicted)
    return IndicatorPair(truth, predicted, sparse)


def label_columns(labels: Any, n_labels: int) -> np.ndarray | None:
    """Column indices of ``labels`` (None: all columns), checked against ``n_labels``."""
    if labels is None:
        return None
    columns = np.asarray(labels)
    if columns.ndim != 1 or columns.shape[0] == 0:
        raise ValueError(
            f"`labels` must be a non-empty 1-D list of column indices; got {labels!r}."
        )
    integral = columns.dtype.kind in "iu" or (
        columns.dtype.kind == "f" and bool(np.all(columns == np.round(columns)))
    )
    if not integral or np.any(columns < 0) or np.any(columns >= n_labels):
        raise ValueError(
            f"`labels` must be column indices in [0, {n_labels}) for multilabel targets "
            f"with {n_labels} labels; got {format_values(columns)}."
        )
    columns = columns.astype(np.intp)
    if np.unique(columns).shape[0] != columns.shape[0]:
        raise ValueError(f"`labels` {format_values(columns)} contains repeated labels.")
    return columns


def _column_sums(matrix: Any, weights: np.ndarray | None, sparse: bool) -> np.ndarray:
    """Weighted number of nonzero entries of every column."""
    n_columns = matrix.shape[1]
    if sparse:
        if weights is None:
            return np.bincount(matrix.indices, minlength=n_columns).astype(np.int64)
        per_entry = np.repeat(weights, np.diff(matrix.indptr))
        sums = np.bincount(matrix.indices, weights=per_entry, minlength=n_columns)
        if weights.dtype.kind == "i" and float(np.sum(weights, dtype=np.float64)) < 2.0**53:
            return np.rint(sums).astype(np.int64)  # exact: every partial sum is below 2**53
        return sums
    if weights is None:
        return np.count_nonzero(matrix, axis=0).astype(np.int64)
    sums = np.zeros(n_columns, dtype=weights.dtype)
    for start in range(0, matrix.shape[0], _CHUNK_ROWS):
        stop = start + _CHUNK_ROWS
        sums += weights[start:stop] @ matrix[start:stop].astype(weights.dtype)
    return sums


def _row_sums(matrix: Any, sparse: bool) -> np.ndarray:
    """Number of nonzero entries of every row."""
    if sparse:
        return np.diff(matrix.indptr).astype(np.int64)
    return np.count_nonzero(matrix, axis=1).astype(np.int64)


class IndicatorCells(NamedTuple):
    """Cells of multilabel targets, per label (or per row, for the 'samples' average)."""

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    row_weights: np.ndarray | None
    """For per-row cells: the weight of each row in the 'samples' average (None: 1)."""

    def cells(self) -> Cells:
        """The cells as float64 :class:`~assay.metrics._confusion.Cells`."""
        from assay.metrics._confusion import Cells  # that module imports this one

        tp, fp, fn, tn = (np.asarray(cell, dtype=np.float64) for cell in self[:4])
        total = tp + fp + fn + tn
        return Cells(tp, fp, fn, tn, tp + fn, tp + fp, total)

    def matrices(self) -> np.ndarray:
        """(L, 2, 2) matrices ``[[TN, FP], [FN, TP]]``, scikit-learn's layout."""
        stacked = np.stack([self.tn, self.fp, self.fn, self.tp], axis=-1)
        return stacked.reshape(-1, 2, 2)


def indicator_cells(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    samplewise: bool = False,
) -> IndicatorCells:
    """Validate multilabel targets and count the cells of each label (or each row).

    Per-label cells are weighted sums (int64 for no or integer weights, else float64).
    Per-row cells (``samplewise``) are unweighted counts; the weights go to
    ``row_weights``.
    """
    pair = as_indicator_pair(y_true, y_pred)
    n, n_labels = pair.shape
    weights = as_sample_weight(sample_weight, n, keep_integers=True)
    columns = label_columns(labels, n_labels)
    truth, predicted = pair.y_true, pair.y_pred
    if columns is not None:
        truth, predicted = truth[:, columns], predicted[:, columns]
        n_labels = columns.shape[0]
    if pair.sparse:
        both = pair.y_true.__class__(truth.multiply(predicted))
        both.eliminate_zeros()
    else:
        both = truth & predicted
    if samplewise:
        tp = _row_sums(both, pair.sparse)
        fp = _row_sums(predicted, pair.sparse) - tp
        fn = _row_sums(truth, pair.sparse) - tp
        return IndicatorCells(tp, fp, fn, n_labels - tp - fp - fn, weights)
    tp = _column_sums(both, weights, pair.sparse)
    fp = _column_sums(predicted, weights, pair.sparse) - tp
    fn = _column_sums(truth, weights, pair.sparse) - tp
    total = n if weights is None else np.sum(weights)
    return IndicatorCells(tp, fp, fn, total - tp - fp - fn, None)


def row_mismatches(y_true: Any, y_pred: Any) -> tuple[np.ndarray, int]:
    """Number of differing labels of every row, and the number of labels."""
    pair = as_indicator_pair(y_true, y_pred)
    if pair.sparse:
        differ = (pair.y_true != pair.y_pred).tocsr()
        differ.eliminate_zeros()
        return _row_sums(differ, True), pair.shape[1]
    return _row_sums(pair.y_true != pair.y_pred, False), pair.shape[1]


# The averages of multilabel targets (scikit-learn's), 'samples' being theirs alone.
MULTILABEL_AVERAGES: tuple[str | None, ...] = (None, "micro", "macro", "weighted", "samples")


def multilabel_cells(
    y_true: Any,
    y_pred: Any,
    labels: Any,
    average: str | None,
    sample_weight: Any,
    zero_division: Any,
) -> tuple[IndicatorCells, dict[str, Any]]:
    """The cells and options of an averaged metric of multilabel targets."""
    if average == "binary":
        as_indicator_pair(y_true, y_pred)  # the targets' own errors come first
        raise ValueError(
            "`average`='binary' (the class `pos_label`) needs binary targets, but "
            "`y_true` and `y_pred` are multilabel indicators; choose `average` None, "
            "'micro', 'macro', 'weighted' or 'samples' (`labels=[j]` selects column j)."
        )
    check_option(average, "average", MULTILABEL_AVERAGES)
    zero_division = check_zero_division(zero_division)
    cells = indicator_cells(
        y_true, y_pred, labels=labels, sample_weight=sample_weight, samplewise=average == "samples"
    )
    return cells, {"average": average, "classes": None, "zero_division": zero_division}


def subset_accuracy(
    y_true: Any, y_pred: Any, *, normalize: bool, sample_weight: Any, errors: bool = False
) -> float:
    """Subset accuracy of multilabel targets: the (weighted) fraction or count of rows
    whose predicted label set is exactly the true one; ``errors=True``: the other rows."""
    mismatches, _ = row_mismatches(y_true, y_pred)
    correct = mismatches == 0
    weights = as_sample_weight(sample_weight, mismatches.shape[0])
    if weights is None:
        count, total = float(np.count_nonzero(correct)), float(correct.shape[0])
    else:
        count, total = float(np.sum(weights[correct])), float(np.sum(weights))
    if normalize:
        return 1.0 - count / total if errors else count / total
    return total - count if errors else count
