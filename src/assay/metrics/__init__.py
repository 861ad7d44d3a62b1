"""Metrics: ranking (ROC/PR curves and areas, lift, label ranking of multilabel scores),
confusion matrices, costs, regression, probabilistic predictions (log loss, Brier score,
calibration).

Each submodule declares its public names in ``__all__``; this package re-exports them all
(``tests/test_public_api.py`` checks that the two lists agree).
"""

from assay.metrics._agreement import (
    balanced_accuracy_score,
    cohen_kappa_score,
    matthews_corrcoef,
)
from assay.metrics._baselines import (
    baseline_score,
)
from assay.metrics._calibration import (
    brier_decomposition,
    calibration_curve,
    expected_calibration_error,
    maximum_calibration_error,
)
from assay.metrics._classification import (
    accuracy_score,
    error_rate,
    f1_score,
    fbeta_score,
    precision_score,
    recall_score,
)
from assay.metrics._confusion import (
    confusion_matrix,
)
from assay.metrics._costs import (
    bayes_decision,
    expected_cost,
)
from assay.metrics._curves import (
    confusion_matrix_at_thresholds,
    det_curve,
    precision_recall_curve,
    roc_curve,
)
from assay.metrics._label_ranking import (
    coverage_error,
    label_ranking_average_precision_score,
    label_ranking_loss,
)
from assay.metrics._lift import (
    cumulative_gain_curve,
    lift_score,
)
from assay.metrics._probabilistic import (
    brier_score_loss,
    log_loss,
)
from assay.metrics._ranking import (
    average_precision_score,
    equal_error_rate,
    pr_auc_score,
    roc_auc_score,
)
from assay.metrics._rates import (
    false_discovery_rate,
    false_negative_rate,
    false_positive_rate,
    npv_score,
    specificity_score,
)
from assay.metrics._regression import (
    mean_absolute_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
)
from assay.metrics._report import (
    classification_report,
)
from assay.metrics._set_metrics import (
    hamming_loss,
    jaccard_score,
    multilabel_confusion_matrix,
    zero_one_loss,
)
from assay.metrics._thresholds import (
    optimal_threshold,
    posterior_fdr_threshold,
)

__all__ = [
    "accuracy_score",
    "average_precision_score",
    "balanced_accuracy_score",
    "baseline_score",
    "bayes_decision",
    "brier_decomposition",
    "brier_score_loss",
    "calibration_curve",
    "classification_report",
    "cohen_kappa_score",
    "confusion_matrix",
    "confusion_matrix_at_thresholds",
    "coverage_error",
    "cumulative_gain_curve",
    "det_curve",
    "equal_error_rate",
    "error_rate",
    "expected_calibration_error",
    "expected_cost",
    "f1_score",
    "false_discovery_rate",
    "false_negative_rate",
    "false_positive_rate",
    "fbeta_score",
    "hamming_loss",
    "jaccard_score",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "lift_score",
    "log_loss",
    "matthews_corrcoef",
    "maximum_calibration_error",
    "mean_absolute_error",
    "mean_squared_error",
    "multilabel_confusion_matrix",
    "npv_score",
    "optimal_threshold",
    "posterior_fdr_threshold",
    "pr_auc_score",
    "precision_recall_curve",
    "precision_score",
    "r2_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
    "root_mean_squared_error",
    "specificity_score",
    "zero_one_loss",
]
