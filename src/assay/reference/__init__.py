"""The slow, obviously correct twin of every public metric of assay.

Each function has the name and signature of its public counterpart and computes the
value from its definition with explicit Python loops: an AUC as a sum over all
(positive, negative) pairs, a curve by re-summing the weights above each threshold,
a confusion matrix by counting row by row. Arithmetic is exact: weights (integer or
float, both exact as fractions) are integers over one common denominator, ratios are
:class:`fractions.Fraction`, and the result is rounded to float once, at the end.

The statistical tests and intervals have twins here too, written from their textbook
formulas (exact binomial sums, brute-force enumeration of sign patterns, DeLong's
variance from all pairs, midranks by counting).  Where a twin needs a reference
distribution (a t, chi-squared, beta or normal quantile), it takes it from
``scipy.stats`` or ``scipy.special``: the distribution, never the statistic.

The reference imports nothing from the rest of assay, skips input validation, and
never warns: an undefined value is NaN, or the ``zero_division`` value where a
function has that parameter ("warn" means 0.0). It is for tests, the sanity checks
of the benchmarks and ``assay selfcheck``; it is O(n^2) in places and meant for
small inputs.
"""

from ._bands import precision_at_recall, precision_recall_band, roc_band, tpr_at_fpr
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
from ._decomposition import bayes_error_rate, bootstrap_632, decompose
from ._delong import auc_ci, delong_covariance, delong_test, delong_test_unpaired
from ._intervals import difference_ci, error_rate_ci, mean_ci, proportion_ci
from ._label_ranking import (
    coverage_error,
    label_ranking_average_precision_score,
    label_ranking_loss,
)
from ._lift import cumulative_gain_curve, lift_score
from ._multilabel import hamming_loss, jaccard_score, multilabel_confusion_matrix, zero_one_loss
from ._probabilistic import (
    brier_decomposition,
    brier_score_loss,
    calibration_curve,
    expected_calibration_error,
    log_loss,
    maximum_calibration_error,
)
from ._protocols import one_standard_error_rule
from ._ranking import average_precision_score, equal_error_rate, pr_auc_score, roc_auc_score
from ._ranks import adjust_pvalues, bonferroni_dunn, friedman, nemenyi
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
from ._thresholds import baseline_score, optimal_threshold, posterior_fdr_threshold
from ._two_model_tests import (
    cochrans_q,
    corrected_resampled_ttest,
    ftest_5x2cv,
    mcnemar,
    paired_ttest,
    sign_test,
    ttest_5x2cv,
    welch_ttest,
    wilcoxon_signed_rank,
)

__all__ = [
    "accuracy_score",
    "adjust_pvalues",
    "auc_ci",
    "average_precision_score",
    "balanced_accuracy_score",
    "baseline_score",
    "bayes_decision",
    "bayes_error_rate",
    "bonferroni_dunn",
    "bootstrap_632",
    "brier_decomposition",
    "brier_score_loss",
    "calibration_curve",
    "classification_report",
    "cochrans_q",
    "cohen_kappa_score",
    "confusion_matrix",
    "confusion_matrix_at_thresholds",
    "corrected_resampled_ttest",
    "coverage_error",
    "cumulative_gain_curve",
    "decompose",
    "delong_covariance",
    "delong_test",
    "delong_test_unpaired",
    "det_curve",
    "difference_ci",
    "equal_error_rate",
    "error_rate",
    "error_rate_ci",
    "expected_calibration_error",
    "expected_cost",
    "f1_score",
    "false_discovery_rate",
    "false_negative_rate",
    "false_positive_rate",
    "fbeta_score",
    "friedman",
    "ftest_5x2cv",
    "hamming_loss",
    "jaccard_score",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "lift_score",
    "log_loss",
    "matthews_corrcoef",
    "maximum_calibration_error",
    "mcnemar",
    "mean_absolute_error",
    "mean_ci",
    "mean_squared_error",
    "multilabel_confusion_matrix",
    "nemenyi",
    "npv_score",
    "one_standard_error_rule",
    "optimal_threshold",
    "paired_ttest",
    "posterior_fdr_threshold",
    "pr_auc_score",
    "precision_at_recall",
    "precision_recall_band",
    "precision_recall_curve",
    "precision_score",
    "proportion_ci",
    "r2_score",
    "recall_score",
    "roc_auc_score",
    "roc_band",
    "roc_curve",
    "root_mean_squared_error",
    "sign_test",
    "specificity_score",
    "tpr_at_fpr",
    "ttest_5x2cv",
    "welch_ttest",
    "wilcoxon_signed_rank",
    "zero_one_loss",
]
