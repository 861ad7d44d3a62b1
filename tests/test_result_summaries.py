"""The one-line summaries (``str``) of hand-built results, against the lines a reader
should see, written out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

import assay
from assay._results import (
    AucCovariance,
    Bootstrap632Result,
    BootstrapResult,
    ComparisonResult,
    FriedmanResult,
    IntervalResult,
    PermutationTestResult,
    TestResult,
)

# Hand-built results and the line a reader should see, written out by hand.
SUMMARIES = [
    (
        BootstrapResult(
            estimate=0.99654,
            confidence_interval=(0.99111, 0.99949),
            standard_error=0.002,
            bias=0.0001,
            bootstrap_distribution=[0.99, 0.995],
            method="bca",
            confidence_level=0.95,
            n_resamples=2000,
            n_undefined=0,
            rng_seed=1,
            metric="roc_auc_score",
        ),
        "ROC AUC 0.9965 [0.9911, 0.9995] (95% BCa bootstrap, 2000 resamples)",
    ),
    (
        BootstrapResult(
            estimate=1234.5,
            confidence_interval=(1100.25, 1400.0),
            standard_error=80.0,
            bias=1.0,
            bootstrap_distribution=[1200.0],
            method="percentile",
            confidence_level=0.9,
            n_resamples=500,
            n_undefined=3,
            rng_seed=None,
            metric="mean_squared_error",
        ),
        "MSE 1234.5000 [1100.2500, 1400.0000] (90% percentile bootstrap, 500 resamples, "
        "3 undefined)",
    ),
    (
        BootstrapResult(
            estimate=0.5,
            confidence_interval=(math.nan, math.nan),
            standard_error=math.nan,
            bias=math.nan,
            bootstrap_distribution=[],
            method="percentile",
            confidence_level=0.95,
            n_resamples=100,
            n_undefined=100,
            rng_seed=1,
            metric="pr_auc_score",
        ),
        "PR AUC 0.5000 [undefined] (95% percentile bootstrap, 100 resamples, 100 undefined)",
    ),
    (
        ComparisonResult(
            estimate_a=0.91,
            estimate_b=0.88,
            difference=0.03,
            confidence_interval=(0.005, 0.055),
            pvalue=0.0213,
            alternative="two-sided",
            method="bootstrap",
            confidence_level=0.95,
            n_resamples=2000,
            n_undefined=0,
            rng_seed=1,
            metric="average_precision_score",
            resampled_differences=[0.03],
        ),
        "average precision, A - B: 0.9100 - 0.8800 = 0.0300 [0.0050, 0.0550], p = 0.0213 "
        "(95% paired bootstrap, 2000 resamples)",
    ),
    (
        ComparisonResult(
            estimate_a=0.75,
            estimate_b=0.7,
            difference=0.05,
            confidence_interval=(math.nan, math.nan),
            pvalue=0.04,
            alternative="greater",
            method="permutation",
            confidence_level=0.95,
            n_resamples=9999,
            n_undefined=0,
            rng_seed=1,
            metric="accuracy_score",
            resampled_differences=[0.0],
        ),
        "accuracy, A - B: 0.7500 - 0.7000 = 0.0500, p = 0.04 (one-sided, greater; paired "
        "permutation, 9999 resamples)",
    ),
    (
        PermutationTestResult(
            statistic=0.7,
            pvalue=0.001,
            alternative="greater",
            null_distribution=[0.5],
            n_resamples=9999,
            exact=False,
            rng_seed=3,
            metric="f1_score",
        ),
        "Permutation test of F1: 0.7000, p = 0.001 (one-sided, greater; 9999 random permutations)",
    ),
    (
        IntervalResult(
            estimate=0.75,
            confidence_interval=(0.53125, 0.88811),
            standard_error=math.nan,
            confidence_level=0.95,
            method="wilson",
            n=20,
        ),
        "0.7500 [0.5312, 0.8881] (95% Wilson interval, n = 20)",
    ),
    (
        TestResult(
            statistic=1.5614,
            pvalue=0.11843,
            df=None,
            alternative="two-sided",
            method="DeLong's test for two correlated ROC curves",
            estimate=0.03,
            confidence_interval=(-0.0077, 0.0677),
            confidence_level=0.95,
            standard_error=0.0192,
        ),
        "DeLong's test for two correlated ROC curves: z = 1.56, p = 0.118; estimate 0.0300 "
        "[-0.0077, 0.0677] (95%)",
    ),
    (
        TestResult(
            statistic=-2.5,
            pvalue=0.0169,
            df=9.0,
            alternative="less",
            method="paired t-test",
        ),
        "paired t-test: t(9) = -2.5, p = 0.0169 (one-sided, less)",
    ),
    (
        AucCovariance(
            aucs=[0.91, 0.88], covariance=np.eye(2) * 1e-4, n_positive=120, n_negative=80.5
        ),
        "DeLong covariance of 2 ROC AUCs (0.9100, 0.8800; 120 positives, 80.5 negatives)",
    ),
    (
        FriedmanResult(
            statistic=9.28,
            pvalue=0.02578,
            df=3,
            iman_davenport_statistic=3.69,
            iman_davenport_pvalue=0.01974,
            iman_davenport_df=(3, 39),
            average_ranks=[3.1, 2.0, 2.9, 2.0],
            ranks=np.ones((14, 4)),
            n_datasets=14,
            n_models=4,
            model_names=("a", "b", "c", "d"),
            higher_is_better=True,
            tie_correction=True,
            method="Friedman, tie-corrected",
        ),
        "Friedman test (tie-corrected): chi2(3) = 9.28, p = 0.0258; Iman-Davenport "
        "F(3, 39) = 3.69, p = 0.0197 (4 models, 14 data sets)",
    ),
    (
        Bootstrap632Result(
            estimate=0.18,
            method=".632+",
            loss="zero_one",
            training_error=0.1,
            oob_error=0.22,
            no_information_error=0.5,
            relative_overfitting_rate=0.2,
            weight=0.68,
            oob_errors=[0.2],
            n_resamples=200,
            n_samples=50,
            n_never_oob=0,
            rng_seed=1,
        ),
        ".632+ bootstrap estimate of the zero-one loss: 0.1800 (training 0.1000, "
        "out-of-bag 0.2200; 200 resamples)",
    ),
]


@pytest.mark.parametrize(("result", "expected"), SUMMARIES, ids=lambda v: type(v).__name__)
def test_str_summaries_read_as_written_by_hand(result, expected) -> None:
    assert str(result) == expected


def test_posthoc_summary_names_the_pairs() -> None:
    names = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    # Demsar (2006), Table 6; Nemenyi at alpha = 0.10 finds C4.5 worse than two others
    scores = np.array(
        [
            [0.763, 0.768, 0.771, 0.798],
            [0.599, 0.591, 0.590, 0.569],
            [0.954, 0.971, 0.968, 0.967],
            [0.628, 0.661, 0.654, 0.657],
            [0.882, 0.888, 0.886, 0.898],
            [0.936, 0.931, 0.916, 0.931],
            [0.661, 0.668, 0.609, 0.685],
            [0.583, 0.583, 0.563, 0.625],
            [0.775, 0.838, 0.866, 0.875],
            [1.000, 1.000, 1.000, 1.000],
            [0.940, 0.962, 0.965, 0.962],
            [0.619, 0.666, 0.614, 0.669],
            [0.972, 0.981, 0.97501, 0.975],
            [0.957, 0.978, 0.946, 0.970],
        ]
    )
    result = assay.nemenyi(scores, alpha=0.10, model_names=names)
    assert str(result) == (
        "Nemenyi test (alpha = 0.1): CD = 1.12, 2 significant pairs: C4.5 vs C4.5+m, "
        "C4.5 vs C4.5+m+cf (4 models, 14 data sets)"
    )
    none = assay.nemenyi(scores[:3], model_names=names)
    assert "no significant pair" in str(none)


def test_a_long_list_of_pairs_is_cut_short() -> None:
    # 7 models in a fixed order on 30 data sets: every pair but the neighbours differs
    scores = np.tile(np.arange(7.0, 0.0, -1.0), (30, 1))
    result = assay.nemenyi(scores)
    pairs = len(result.significant_pairs)
    assert pairs > 5
    assert str(result).count(" vs ") == 5
    assert f"{pairs} significant pairs" in str(result)
    assert f"and {pairs - 5} more" in str(result)
