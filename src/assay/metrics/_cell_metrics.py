"""Every confusion-matrix metric as a function of the confusion matrix alone.

The cells of the confusion matrix are the sufficient statistic of these metrics
(ARCHITECTURE rule 4): a bootstrap draws cells, not rows, and then needs "the metric of
this matrix".  This module is that interface.  Each function takes ``matrix``, a
(k, k) confusion matrix (rows true classes, columns predicted classes; counts or weight
sums) or a stack of them of shape (..., k, k), plus keyword options, and returns a float
(or an array over the leading axes / over the classes for ``average=None``).

The metric registry (:data:`assay.metrics._registry.METRICS`) names, for each public
metric, its function here and the keyword options that function takes.  The public
functions resolve their arguments once with
:func:`assay.metrics._confusion.labelled_confusion` (the full matrix) and
:func:`assay.metrics._confusion.averaging_options` (``average``, ``pos_index``,
``classes``), then call the function of the matrix; a resampling procedure does the same
with resampled matrices::

    confusion = labelled_confusion(y_true, y_pred, labels=labels, sample_weight=w)
    matrix, options = averaging_options(confusion, average="macro", pos_label=1,
                                        labels_given=labels is not None)
    value = f1_from_confusion(matrix, **options, zero_division=0.0)

Options shared by the averaged metrics:

``average``
    ``None`` (per class), ``'binary'`` (class ``pos_index`` only), ``'micro'`` (the
    cells summed over the classes; Honavar, "Evaluating model performance"), ``'macro'``
    (plain mean over the classes), ``'weighted'`` (mean weighted by the true support
    ``TP + FN``);
    ``'multiclass'`` for :func:`matthews_from_confusion` (Gorodkin's R_K).
``pos_index``
    Row/column of the positive class, used by ``average='binary'``.
``classes``
    Indices of the classes reported and averaged (None: all).  The one-vs-rest cells
    of a class still pool *every* other row and column of the matrix.
``zero_division``
    ``"warn"`` (0.0 and an :class:`~assay.exceptions.UndefinedMetricWarning`), 0.0,
    1.0 or NaN: the value of a ratio whose denominator is zero.  NaN values are left
    out of the macro and weighted averages (scikit-learn's rule).
``stacklevel``
    Where warnings point, counted from the called function's own frame as in
    :func:`warnings.warn` (2: its caller); a public function wrapping one passes 3.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from assay._scaling import rescaled_matrices, scale_if_extreme
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._confusion import Cells, one_vs_rest_cells
from assay.metrics._multilabel import IndicatorCells

__all__: list[str] = []


def _as_result(value: np.ndarray) -> Any:
    """A 0-d result as a Python float, anything else unchanged."""
    return float(value) if np.ndim(value) == 0 else value


def _zero_value(zero_division: Any) -> float:
    return 0.0 if isinstance(zero_division, str) else float(zero_division)


def _divide(numerator: np.ndarray, denominator: np.ndarray, fill: float) -> np.ndarray:
    """``numerator / denominator`` with ``fill`` where the denominator is zero."""
    undefined = denominator == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        values = numerator / np.where(undefined, 1.0, denominator)
    return np.where(undefined, fill, values)


def average_values(values: np.ndarray, average: str | None, support: np.ndarray) -> Any:
    """Average per-class ``values`` over the last axis, skipping NaN classes."""
    if average is None:
        return values
    if average in ("binary", "micro"):
        return _as_result(values[..., 0])
    valid = ~np.isnan(values)
    if average == "macro":
        weights = valid.astype(np.float64)
    else:  # weighted by support; all-zero support falls back to the plain mean
        weights = np.where(valid, support, 0.0)
        weights = np.where(np.sum(weights, axis=-1, keepdims=True) == 0, valid, weights)
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.sum(np.where(valid, values, 0.0) * weights, axis=-1) / np.sum(weights, axis=-1)
    return _as_result(result)


def _warn(message: str, stacklevel: int) -> None:
    """Warn; ``stacklevel`` counts from this function's own frame, as everywhere here."""
    warnings.warn(message, UndefinedMetricWarning, stacklevel=stacklevel)


def _warn_zero_division(
    title: str, missing: str, n_values: int, stacklevel: int, unit: str = "labels"
) -> None:
    where = "due to" if n_values == 1 else f"in {unit} with"
    _warn(
        f"{title} is ill-defined and being set to 0.0 {where} no {missing}. "
        "Use `zero_division` parameter to control this behavior.",
        stacklevel + 1,
    )


@dataclass(frozen=True)
class _CellRatio:
    """A one-vs-rest metric ``numerator(cells) / denominator(cells)``."""

    title: str
    numerator: Callable[[Cells], np.ndarray]
    denominator: Callable[[Cells], np.ndarray]
    missing: str  # what there is none of when the denominator is zero


def _cell_ratio(
    ratio: _CellRatio,
    matrix: np.ndarray,
    average: str | None,
    pos_index: int,
    classes: Any,
    zero_division: Any,
    stacklevel: int,
) -> Any:
    if isinstance(matrix, IndicatorCells):  # multilabel targets: cells per label or row
        cells = matrix.cells()
    else:
        # scale-free ratios: a power of two keeps products of cells finite (weights of 1e80)
        cells = one_vs_rest_cells(rescaled_matrices(matrix))
    if average == "binary":
        classes = np.array([pos_index])
    elif classes is not None:
        classes = np.asarray(classes, dtype=np.intp)
    cells = cells.take(classes)
    support = cells.positives
    missing, unit = ratio.missing, "labels"
    if average == "samples":  # per-row values, averaged with the rows' weights
        rows = cells.tp.shape[-1]
        weights = getattr(matrix, "row_weights", None)
        support = np.ones(rows) if weights is None else np.asarray(weights, dtype=np.float64)
        missing, unit = missing.replace("samples", "labels"), "samples"
    if average == "micro":
        cells = cells.pooled()
    denominator = ratio.denominator(cells)
    values = _divide(ratio.numerator(cells), denominator, _zero_value(zero_division))
    undefined = denominator == 0
    if zero_division == "warn" and np.any(undefined):
        _warn_zero_division(ratio.title, missing, undefined.shape[-1], stacklevel + 1, unit)
    if average == "samples":  # a zero-weight row has no say, even where it is defined
        values = np.where(support > 0, values, np.nan)
    return average_values(values, "weighted" if average == "samples" else average, support)


_PRECISION = _CellRatio(
    "Precision", lambda c: c.tp, lambda c: c.predicted_positives, "predicted samples"
)
_RECALL = _CellRatio("Recall", lambda c: c.tp, lambda c: c.positives, "true samples")
_SPECIFICITY = _CellRatio("Specificity", lambda c: c.tn, lambda c: c.negatives, "negative samples")
_NPV = _CellRatio(
    "Negative predictive value",
    lambda c: c.tn,
    lambda c: c.predicted_negatives,
    "predicted negative samples",
)
_FPR = _CellRatio("False positive rate", lambda c: c.fp, lambda c: c.negatives, "negative samples")
_FNR = _CellRatio("False negative rate", lambda c: c.fn, lambda c: c.positives, "true samples")
_FDR = _CellRatio(
    "False discovery rate", lambda c: c.fp, lambda c: c.predicted_positives, "predicted samples"
)
_JACCARD = _CellRatio(
    "Jaccard", lambda c: c.tp, lambda c: c.tp + c.fp + c.fn, "true or predicted samples"
)
_CORRELATION = _CellRatio(
    "Matthews correlation coefficient",
    lambda c: c.tp * c.tn - c.fp * c.fn,
    lambda c: np.sqrt(c.positives * c.predicted_positives * c.negatives * c.predicted_negatives),
    "variation in the true or the predicted one-vs-rest labels",
)


def _f_beta_ratio(beta: float) -> _CellRatio:
    if np.isposinf(beta):
        return _RECALL
    if beta == 0:
        return _PRECISION
    beta2 = beta * beta
    return _CellRatio(
        "F-score",
        lambda c: (1 + beta2) * c.tp,
        lambda c: beta2 * c.positives + c.predicted_positives,
        "true nor predicted samples",
    )


def _ratio_function(ratio: _CellRatio, doc: str) -> Callable[..., Any]:
    def from_confusion(
        matrix: np.ndarray,
        *,
        average: str | None = "binary",
        pos_index: int = 1,
        classes: Any = None,
        zero_division: Any = "warn",
        stacklevel: int = 2,
    ) -> Any:
        return _cell_ratio(
            ratio, matrix, average, pos_index, classes, zero_division, stacklevel + 1
        )

    from_confusion.__doc__ = doc
    return from_confusion


precision_from_confusion = _ratio_function(_PRECISION, "Precision TP / (TP + FP).")
recall_from_confusion = _ratio_function(_RECALL, "Recall TP / (TP + FN).")
specificity_from_confusion = _ratio_function(_SPECIFICITY, "Specificity TN / (TN + FP).")
npv_from_confusion = _ratio_function(_NPV, "Negative predictive value TN / (TN + FN).")
false_positive_rate_from_confusion = _ratio_function(_FPR, "FP / (FP + TN).")
false_negative_rate_from_confusion = _ratio_function(_FNR, "FN / (FN + TP).")
false_discovery_rate_from_confusion = _ratio_function(_FDR, "FP / (FP + TP).")
jaccard_from_confusion = _ratio_function(_JACCARD, "Jaccard index TP / (TP + FP + FN).")


def fbeta_from_confusion(
    matrix: np.ndarray,
    *,
    beta: float,
    average: str | None = "binary",
    pos_index: int = 1,
    classes: Any = None,
    zero_division: Any = "warn",
    stacklevel: int = 2,
) -> Any:
    """F-beta (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP); beta=0: precision, inf: recall."""
    return _cell_ratio(
        _f_beta_ratio(beta), matrix, average, pos_index, classes, zero_division, stacklevel + 1
    )


def f1_from_confusion(
    matrix: np.ndarray,
    *,
    average: str | None = "binary",
    pos_index: int = 1,
    classes: Any = None,
    zero_division: Any = "warn",
    stacklevel: int = 2,
) -> Any:
    """F1 = 2 TP / (2 TP + FN + FP)."""
    return _cell_ratio(
        _f_beta_ratio(1.0), matrix, average, pos_index, classes, zero_division, stacklevel + 1
    )


def _block(matrix: np.ndarray, classes: Any) -> np.ndarray:
    """The ``classes`` block, divided by a power of two (the metrics of a block do not
    depend on its scale; its products of cells then cannot overflow)."""
    matrix = rescaled_matrices(matrix)
    if classes is None:
        return matrix
    index = np.asarray(classes, dtype=np.intp)
    return matrix[..., index[:, None], index[None, :]]


def matthews_from_confusion(
    matrix: np.ndarray,
    *,
    average: str | None = "multiclass",
    pos_index: int = 1,
    classes: Any = None,
    zero_division: Any = "warn",
    stacklevel: int = 2,
) -> Any:
    """Matthews correlation: R_K for 'multiclass' (on the ``classes`` block), else CC_j."""
    if average != "multiclass":
        return _cell_ratio(
            _CORRELATION, matrix, average, pos_index, classes, zero_division, stacklevel + 1
        )
    block = _block(matrix, classes)
    true_sums = block.sum(axis=-1)
    pred_sums = block.sum(axis=-2)
    correct = np.trace(block, axis1=-2, axis2=-1)
    total = true_sums.sum(axis=-1)
    covariance = correct * total - np.sum(true_sums * pred_sums, axis=-1)
    pred_variance = total * total - np.sum(pred_sums * pred_sums, axis=-1)
    true_variance = total * total - np.sum(true_sums * true_sums, axis=-1)
    denominator = pred_variance * true_variance
    values = _divide(covariance, np.sqrt(denominator), _zero_value(zero_division))
    if zero_division == "warn" and np.any(denominator == 0):
        _warn(
            "Matthews correlation coefficient is ill-defined and being set to 0.0 due to "
            "no variation in the true or the predicted labels. Use `zero_division` "
            "parameter to control this behavior.",
            stacklevel + 1,
        )
    return _as_result(values)


def accuracy_from_confusion(matrix: np.ndarray, *, normalize: bool = True) -> Any:
    """Accuracy (TP summed over classes) / n, or the count of correct rows."""
    matrix = np.asarray(matrix, dtype=np.float64)
    correct = np.trace(matrix, axis1=-2, axis2=-1)
    if not normalize:
        return _as_result(correct)
    return _as_result(correct / matrix.sum(axis=(-2, -1)))


def error_rate_from_confusion(matrix: np.ndarray, *, normalize: bool = True) -> Any:
    """1 - accuracy, or the count of misclassified rows."""
    matrix = np.asarray(matrix, dtype=np.float64)
    if not normalize:
        return _as_result(matrix.sum(axis=(-2, -1)) - np.trace(matrix, axis1=-2, axis2=-1))
    return _as_result(1.0 - accuracy_from_confusion(matrix))


def hamming_from_confusion(matrix: np.ndarray) -> Any:
    """The fraction of misclassified rows, ``(n - trace) / n`` (the Hamming loss of 1-D
    targets; one division, where ``1 - accuracy`` would round twice)."""
    matrix = np.asarray(matrix, dtype=np.float64)
    total = matrix.sum(axis=(-2, -1))
    return _as_result((total - np.trace(matrix, axis1=-2, axis2=-1)) / total)


def balanced_accuracy_from_confusion(
    matrix: np.ndarray, *, adjusted: bool = False, stacklevel: int = 2
) -> Any:
    """Mean recall over the classes with true rows; chance-adjusted if asked."""
    matrix = np.asarray(matrix, dtype=np.float64)
    support = matrix.sum(axis=-1)
    recall = _divide(np.diagonal(matrix, axis1=-2, axis2=-1), support, np.nan)
    valid = support > 0
    if not np.all(valid):
        _warn(
            "Balanced accuracy leaves out classes that occur only in `y_pred` (their recall "
            "is undefined): y_pred contains classes not in y_true.",
            stacklevel + 1,
        )
    n_valid = valid.sum(axis=-1)
    score = np.sum(np.where(valid, recall, 0.0), axis=-1) / n_valid
    if adjusted:
        single = n_valid == 1
        if np.any(single):
            _warn(
                "Adjusted balanced accuracy is undefined with a single class in `y_true` "
                "(chance level is then perfect); it is set to NaN.",
                stacklevel + 1,
            )
        chance = 1.0 / n_valid
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.where(single, np.nan, (score - chance) / (1.0 - chance))
    return _as_result(score)


def cohen_kappa_from_confusion(
    matrix: np.ndarray,
    *,
    weights: str | None = None,
    classes: Any = None,
    replace_undefined_by: float = np.nan,
    stacklevel: int = 2,
) -> Any:
    """Cohen's kappa 1 - sum(W * O) / sum(W * E) on the ``classes`` block."""
    block = _block(matrix, classes)
    k = block.shape[-1]
    row_sums = block.sum(axis=-1)
    col_sums = block.sum(axis=-2)
    total = row_sums.sum(axis=-1)
    index = np.arange(k, dtype=np.float64)
    if weights is None:
        disagreement = 1.0 - np.eye(k)
    elif weights == "linear":
        disagreement = np.abs(index[:, None] - index[None, :])
    else:
        disagreement = (index[:, None] - index[None, :]) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = row_sums[..., :, None] * col_sums[..., None, :] / total[..., None, None]
    observed_disagreement = np.sum(disagreement * block, axis=(-2, -1))
    expected_disagreement = np.sum(disagreement * expected, axis=(-2, -1))
    no_rows = total == 0
    one_label = ~no_rows & (expected_disagreement == 0)
    if np.any(no_rows):
        _warn(
            "Cohen's kappa is undefined: no row has both labels in `labels`; it is set "
            f"to `replace_undefined_by`={replace_undefined_by!r}.",
            stacklevel + 1,
        )
    if np.any(one_label):
        _warn(
            "Cohen's kappa is undefined: `y1`, `y2` and `labels` have only one label in "
            f"common; it is set to `replace_undefined_by`={replace_undefined_by!r}.",
            stacklevel + 1,
        )
    kappa = 1.0 - _divide(observed_disagreement, expected_disagreement, np.nan)
    return _as_result(np.where(no_rows | one_label, replace_undefined_by, kappa))


def expected_cost_from_confusion(
    matrix: np.ndarray,
    cost_matrix: np.ndarray,
    *,
    normalize: str | None = "all",
    stacklevel: int = 2,
) -> Any:
    """Total cost tr(C^T A), mean cost per row, or tr(C^T Â) with Â row-normalized."""
    cost_matrix = np.asarray(cost_matrix, dtype=np.float64)
    cost_scale = 1.0
    if normalize is None:  # in the units of the weights
        matrix = np.asarray(matrix, dtype=np.float64)
    else:  # a mean cost: free of the weights' scale, in the costs' units
        matrix = rescaled_matrices(matrix)  # cells of 1e300 times costs of 1e10
        if cost_matrix.size:
            cost_scale = scale_if_extreme(float(np.max(np.abs(cost_matrix))))
            cost_matrix = cost_matrix * cost_scale
    if normalize == "true":
        support = matrix.sum(axis=-1)
        if np.any(support == 0):
            _warn(
                "A class without true rows has no class-conditional cost; its row of the "
                "normalized confusion matrix is 0.0 (as in confusion_matrix), so it adds "
                "0.0 to the sum (normalize='true').",
                stacklevel + 1,
            )
        class_cost = _divide(np.sum(cost_matrix * matrix, axis=-1), support, 0.0)
        return _as_result(np.sum(class_cost, axis=-1) / cost_scale)
    total_cost = np.sum(cost_matrix * matrix, axis=(-2, -1))
    if normalize is None:
        return _as_result(total_cost)
    return _as_result(total_cost / matrix.sum(axis=(-2, -1)) / cost_scale)
