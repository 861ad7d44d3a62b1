"""The classification report: per-class precision, recall, F1 and support, and averages.

One confusion matrix feeds every number of the report.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from assay._validation import check_zero_division
from assay.metrics._cell_metrics import (
    average_values,
    f1_from_confusion,
    precision_from_confusion,
    recall_from_confusion,
)
from assay.metrics._confusion import labelled_confusion, one_vs_rest_cells
from assay.metrics._multilabel import any_multilabel, as_indicator_pair, indicator_cells

__all__ = ["classification_report"]

_HEADERS = ("precision", "recall", "f1-score", "support")


def _format_report(
    rows: list[tuple[str, float, float, float, Any]],
    averages: list[tuple[str, float, float, float, Any]],
    digits: int,
) -> str:
    """scikit-learn's text layout: right-aligned columns of width 9."""
    width = max(max(len(row[0]) for row in rows), len("weighted avg"), digits)
    report = ("{:>{width}s} " + " {:>9}" * len(_HEADERS)).format("", *_HEADERS, width=width)
    report += "\n\n"
    row_format = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    for row in rows:
        report += row_format.format(*row, width=width, digits=digits)
    report += "\n"
    accuracy_format = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f} {:>9}\n"
    for heading, precision, recall, f1, support in averages:
        if heading == "accuracy":
            report += accuracy_format.format(
                heading, "", "", f1, support, width=width, digits=digits
            )
        else:
            report += row_format.format(
                heading, precision, recall, f1, support, width=width, digits=digits
            )
    return report


def classification_report(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    target_names: Any = None,
    sample_weight: Any = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: Any = "warn",
) -> str | dict[str, Any]:
    """Text (or dict) summary of precision, recall, F1 and support per class, and averages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels (integers, booleans, strings; floats holding integers), or a
        multilabel indicator of 0/1 values.
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`), or a
        predicted multilabel indicator.
    labels : array-like, default=None
        Classes to report, in this order (absent ones are allowed).  Default: the sorted
        union of the labels of ``y_true`` and ``y_pred``.  For multilabel targets:
        column indices (default: every column).
    target_names : list of str, default=None
        Display names of the reported classes (same order and length).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    digits : int, default=2
        Digits of the floats in the text report (the dict is not rounded).
    output_dict : bool, default=False
        Return a dict ``{name: {"precision", "recall", "f1-score", "support"}}`` with
        the rows "macro avg", "weighted avg", and "accuracy" (a float) or "micro avg".
    zero_division : {'warn', 0.0, 1.0, nan}, default='warn'
        Value of an ill-defined precision, recall or F1 (see
        :func:`assay.metrics.precision_score`).

    Returns
    -------
    str or dict
        scikit-learn's report.  The micro average is shown as "accuracy" when every
        class of the data is reported (it then equals the accuracy), else as "micro avg".
        Multilabel targets report one row per label and the "micro avg", "macro avg",
        "weighted avg" and "samples avg" rows (see :func:`assay.metrics.precision_score`).

    Raises
    ------
    ValueError
        As :func:`assay.metrics.precision_score`; also when ``target_names`` and the
        reported classes differ in number, or ``digits`` is not a non-negative integer.

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division='warn'``, for precision, recall or F1 with a zero
        denominator (one warning per metric).

    Notes
    -----
    Per class ``j``: precision ``TP_j / (TP_j + FP_j)``, recall ``TP_j / (TP_j + FN_j)``,
    F1 ``2 TP_j / (2 TP_j + FP_j + FN_j)``, support ``TP_j + FN_j`` ("Classification
    validation"); the macro, weighted (by support) and micro averages are those of
    :func:`assay.metrics.precision_score` (Honavar, "Evaluating model performance").  All
    come from one matrix.

    Examples
    --------
    >>> from assay.metrics import classification_report
    >>> print(classification_report([0, 1, 2, 2, 2], [0, 0, 2, 2, 1],
    ...                             target_names=["class 0", "class 1", "class 2"]))
                  precision    recall  f1-score   support
    <BLANKLINE>
         class 0       0.50      1.00      0.67         1
         class 1       0.00      0.00      0.00         1
         class 2       1.00      0.67      0.80         3
    <BLANKLINE>
        accuracy                           0.60         5
       macro avg       0.50      0.56      0.49         5
    weighted avg       0.70      0.60      0.61         5
    <BLANKLINE>
    """
    zero_division = check_zero_division(zero_division)
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral) or digits < 0:
        raise ValueError(f"`digits` must be a non-negative integer; got {digits!r}.")
    multilabel = any_multilabel(y_true, y_pred)
    matrix: Any
    if multilabel:  # the columns are the classes; every report row comes from their cells
        matrix = indicator_cells(y_true, y_pred, labels=labels, sample_weight=sample_weight)
        k = matrix.tp.shape[0]
        reported = np.arange(as_indicator_pair(y_true, y_pred).shape[1])
        if labels is not None:
            reported = np.asarray(labels)
    else:
        confusion = labelled_confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight)
        k = confusion.n_requested
        reported = confusion.classes[:k]
        matrix = confusion.matrix
    if target_names is None:
        names = [f"{label}" for label in reported]
    else:
        names = [f"{name}" for name in target_names]
        if len(names) != k:
            raise ValueError(
                f"`target_names` has {len(names)} names but {k} classes are reported; "
                "give one name per class (and `labels` to choose the classes)."
            )
    options = {"classes": np.arange(k), "zero_division": zero_division, "stacklevel": 3}
    precision = precision_from_confusion(matrix, average=None, **options)
    recall = recall_from_confusion(matrix, average=None, **options)
    f1 = f1_from_confusion(matrix, average=None, **options)
    if multilabel:
        support = matrix.tp + matrix.fn
    else:
        support = one_vs_rest_cells(matrix).positives[:k]
        if matrix.dtype.kind == "i":
            support = support.astype(np.int64)
    total_support = np.sum(support)

    # every class of the data is reported: the micro average is the accuracy
    micro_is_accuracy = not multilabel and confusion.classes.shape[0] == k
    averages = []
    ratios = (precision_from_confusion, recall_from_confusion, f1_from_confusion)
    micro = []
    for function in ratios:  # a loop, not a comprehension: its frame would take the warning
        micro.append(function(matrix, average="micro", **options))
    averages.append(("accuracy" if micro_is_accuracy else "micro avg", *micro, total_support))
    for average in ("macro", "weighted"):
        values = [average_values(v, average, support) for v in (precision, recall, f1)]
        averages.append((f"{average} avg", *values, total_support))
    if multilabel:
        rows_cells = indicator_cells(
            y_true, y_pred, labels=labels, sample_weight=sample_weight, samplewise=True
        )
        values = []
        for function in ratios:  # the warnings at the caller's line (no comprehension frame)
            values.append(function(rows_cells, average="samples", **{**options, "classes": None}))
        averages.append(("samples avg", *values, total_support))

    rows = list(zip(names, precision, recall, f1, support, strict=True))
    if not output_dict:
        return _format_report(rows, averages, digits)
    report: dict[str, Any] = {
        name: dict(zip(_HEADERS, map(float, values), strict=True)) for name, *values in rows
    }
    for heading, *values in averages:
        if heading == "accuracy":
            report[heading] = float(values[2])
        else:
            report[heading] = dict(zip(_HEADERS, map(float, values), strict=True))
    return report
