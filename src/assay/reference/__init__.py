"""The slow, obviously correct twin of every public metric of assay.

Each function has the name and signature of its public counterpart and computes the
value from its definition with explicit Python loops: an AUC as a sum over all
(positive, negative) pairs, a curve by re-summing the weights above each threshold,
a confusion matrix by counting row by row. Arithmetic is exact: weights (integer or
float, both exact as fractions) are integers over one common denominator, ratios are
:class:`fractions.Fraction`, and the result is rounded to float once, at the end.

The reference imports nothing from the rest of assay, skips input validation, and
never warns: an undefined value is NaN, or the ``zero_division`` value where a
function has that parameter ("warn" means 0.0). It is for tests, the sanity checks
of the benchmarks and ``assay selfcheck``; it is O(n^2) in places and meant for
small inputs.
"""

from ._confusion import (
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    error_rate,
    matthews_corrcoef,
)
from ._costs import bayes_decision, expected_cost
from ._curves import confusion_matrix_at_thresholds, det_curve, precision_recall_curve, roc_curve
from ._ranking import average_precision_score, equal_error_rate, pr_auc_score, roc_auc_score
from ._rates import (
    f1_score,
    false_discovery_rate,
    false_negative_rate,
    false_positive_rate,
    fbeta_score,
    npv_score,
    precision_score,
    recall_score,
    specificity_score,
)
from ._regression import (
    mean_absolute_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
)
from ._report import classification_report

__all__ = [
    "accuracy_score",
    "average_precision_score",
    "balanced_accuracy_score",
    "bayes_decision",
    "classification_report",
    "cohen_kappa_score",
    "confusion_matrix",
    "confusion_matrix_at_thresholds",
    "det_curve",
    "equal_error_rate",
    "error_rate",
    "expected_cost",
    "f1_score",
    "false_discovery_rate",
    "false_negative_rate",
    "false_positive_rate",
    "fbeta_score",
    "matthews_corrcoef",
    "mean_absolute_error",
    "mean_squared_error",
    "npv_score",
    "pr_auc_score",
    "precision_recall_curve",
    "precision_score",
    "r2_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
    "root_mean_squared_error",
    "specificity_score",
]
