"""Reference classification report: per-class precision, recall, F1 and support."""

from __future__ import annotations

from typing import Any

from ._cells import combine, f_beta_metric, label_set, one_vs_rest_cells
from ._cells import precision as precision_of
from ._cells import recall as recall_of
from ._exact import exact_weights, ratio, to_float, values_of, zero_division_value

__all__ = ["classification_report"]


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
) -> Any:
    """Per-class precision, recall, F1 and support, with their averages.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        Classes to report (default: sorted union).
    target_names : list of str, default=None
        Display names of the classes (default: ``str(label)``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    digits : int, default=2
        Digits of the text form.
    output_dict : bool, default=False
        Return a dict instead of text.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a 0/0 ratio; "warn" means 0.0.

    Returns
    -------
    str or dict
        ``{name: {"precision", "recall", "f1-score", "support"}, ...}`` followed by
        ``"accuracy"`` (a float; ``"micro avg"`` when ``labels`` leaves out a
        present class), ``"macro avg"`` and ``"weighted avg"``; support is the true
        (weighted) count.

    Notes
    -----
    The rows of the "Classification validation" slides (class-specific precision,
    recall, F) and the macro mean "overall F"; same layout as scikit-learn's report.

    Examples
    --------
    >>> report = classification_report([0, 1, 2, 2], [0, 2, 2, 1], output_dict=True)
    >>> report["2"]
    {'precision': 0.5, 'recall': 0.5, 'f1-score': 0.5, 'support': 2.0}
    >>> report["accuracy"]
    0.5
    """
    truth = values_of(y_true)
    predicted = values_of(y_pred)
    classes = label_set(truth, predicted, labels)
    names = [str(c) for c in classes] if target_names is None else list(target_names)
    undefined = zero_division_value(zero_division)
    weights, denominator = exact_weights(sample_weight, len(truth))
    cells = one_vs_rest_cells(truth, predicted, classes, weights)
    metrics = (precision_of, recall_of, f_beta_metric(1.0))

    def support(total: int) -> Any:
        value = ratio(total, denominator)
        return int(value) if sample_weight is None else to_float(value)

    rows = []
    for name, c in zip(names, cells, strict=True):
        rows.append((name, *(to_float(m(c, undefined)) for m in metrics), support(c.tp + c.fn)))
    total_support = support(sum(c.tp + c.fn for c in cells))
    micro_is_accuracy = labels is None or set(classes) >= set(truth) | set(predicted)
    averages = []
    for average in ("micro", "macro", "weighted"):
        heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        values = [combine(m, cells, average, undefined) for m in metrics]
        averages.append((heading, *values, total_support))
    if output_dict:
        report: dict[str, Any] = {}
        for name, precision, recall, f1, count in rows:
            report[name] = {
                "precision": precision,
                "recall": recall,
                "f1-score": f1,
                "support": float(count),
            }
        for heading, precision, recall, f1, count in averages:
            if heading == "accuracy":
                report[heading] = precision
            else:
                report[heading] = {
                    "precision": precision,
                    "recall": recall,
                    "f1-score": f1,
                    "support": float(count),
                }
        return report
    width = max(max(len(n) for n in names), len("weighted avg"), digits)
    headers = ("precision", "recall", "f1-score", "support")
    text = "{:>{width}s} ".format("", width=width) + "".join(f" {h:>9}" for h in headers)
    text += "\n\n"
    row_format = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    for row in rows:
        text += row_format.format(*row, width=width, digits=digits)
    text += "\n"
    for heading, precision, recall, f1, count in averages:
        if heading == "accuracy":
            accuracy_format = "{:>{width}s} " + " {:>9}" * 2 + " {:>9.{digits}f} {:>9}\n"
            text += accuracy_format.format(heading, "", "", f1, count, width=width, digits=digits)
        else:
            text += row_format.format(
                heading, precision, recall, f1, count, width=width, digits=digits
            )
    return text
