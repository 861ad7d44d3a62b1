"""Readable names of the metrics and losses, for summaries (``str(result)``, reports).

One entry per metric of the registry (:data:`assay.metrics._registry.METRICS`; a test
checks that the two list the same names).  A name that is not here (a user's callable)
is shown as it is.  This module imports nothing, so result types can use it without
import cycles.
"""

from __future__ import annotations

__all__: list[str] = []

METRIC_NAMES: dict[str, str] = {
    "accuracy_score": "accuracy",
    "error_rate": "error rate",
    "precision_score": "precision",
    "recall_score": "recall",
    "f1_score": "F1",
    "fbeta_score": "F-beta",
    "specificity_score": "specificity",
    "npv_score": "NPV",
    "false_positive_rate": "false positive rate",
    "false_negative_rate": "false negative rate",
    "false_discovery_rate": "false discovery rate",
    "matthews_corrcoef": "MCC",
    "balanced_accuracy_score": "balanced accuracy",
    "cohen_kappa_score": "Cohen's kappa",
    "expected_cost": "expected cost",
    "roc_auc_score": "ROC AUC",
    "average_precision_score": "average precision",
    "pr_auc_score": "PR AUC",
    "equal_error_rate": "equal error rate",
    "lift_score": "lift",
    "mean_squared_error": "MSE",
    "root_mean_squared_error": "RMSE",
    "mean_absolute_error": "MAE",
    "r2_score": "R^2",
}
"""Function name -> readable name of every registered metric."""

LOSS_NAMES: dict[str, str] = {
    "zero_one": "zero-one loss",
    "squared": "squared loss",
    "absolute": "absolute loss",
}
"""Loss name (``bootstrap_632``, ``decompose``) -> readable name."""


def readable_metric_name(name: str) -> str:
    """The readable name of metric ``name`` (``'roc_auc_score'`` -> ``'ROC AUC'``).

    A name that is not an assay metric (a user's callable) is returned unchanged.
    """
    return METRIC_NAMES.get(name, name)


def readable_loss_name(name: str) -> str:
    """The readable name of a loss (``'zero_one'`` -> ``'zero-one loss'``); a callable's
    name comes back unchanged (a metric's readable name when it is an assay metric)."""
    return LOSS_NAMES.get(name, readable_metric_name(name))
