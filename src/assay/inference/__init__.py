"""Statistical inference: bootstrap intervals, permutation tests, comparisons of models.

The public functions (``bootstrap``, ``compare``, ``permutation_test``) are built on
the interval and p-value arithmetic of :mod:`assay.resampling._intervals`.
"""

from __future__ import annotations

from assay.inference._analytic_intervals import error_rate_ci, mean_ci, proportion_ci
from assay.inference._baselines import compare_to_baseline
from assay.inference._bounds import risk_bound, risk_bound_sample_size
from assay.inference._contingency import cochrans_q, mcnemar
from assay.inference._delong import auc_ci, delong_covariance
from assay.inference._delong_tests import delong_test, delong_test_unpaired
from assay.inference._difference_interval import difference_ci
from assay.inference._fold_tests import (
    corrected_resampled_ttest,
    ftest_5x2cv,
    paired_ttest,
    ttest_5x2cv,
    welch_ttest,
)
from assay.inference._multiple_testing import adjust_pvalues
from assay.inference._posthoc import bonferroni_dunn, nemenyi
from assay.inference._rank_models import rank_models
from assay.inference._ranks import friedman
from assay.inference._sign_tests import sign_test, wilcoxon_signed_rank
from assay.resampling import bootstrap, compare, permutation_test
from assay.resampling._bands import precision_recall_band, roc_band

__all__ = [
    "adjust_pvalues",
    "auc_ci",
    "bonferroni_dunn",
    "bootstrap",
    "cochrans_q",
    "compare",
    "compare_to_baseline",
    "corrected_resampled_ttest",
    "delong_covariance",
    "delong_test",
    "delong_test_unpaired",
    "difference_ci",
    "error_rate_ci",
    "friedman",
    "ftest_5x2cv",
    "mcnemar",
    "mean_ci",
    "nemenyi",
    "paired_ttest",
    "permutation_test",
    "precision_recall_band",
    "proportion_ci",
    "rank_models",
    "risk_bound",
    "risk_bound_sample_size",
    "roc_band",
    "sign_test",
    "ttest_5x2cv",
    "welch_ttest",
    "wilcoxon_signed_rank",
]
