"""Result types.

Curves are NamedTuples so they unpack like scikit-learn's tuples.  The results of the
inference functions (bootstrap intervals, comparisons, permutation tests) are frozen
dataclasses with named fields, a readable ``repr`` and ``to_dict()``; their
:class:`ConfidenceInterval` is a NamedTuple that unpacks like scipy's.
"""

from __future__ import annotations

from assay._results._base import (
    ConfidenceInterval,
    ConfusionAtThresholds,
    CumulativeGainCurve,
    DetCurve,
    PrecisionRecallCurve,
    RocCurve,
)
from assay._results._calibration import BrierDecomposition, CalibrationCurve
from assay._results._inference import (
    AucCovariance,
    BootstrapResult,
    ComparisonResult,
    IntervalResult,
    PermutationTestResult,
    TestResult,
)
from assay._results._interval_arrays import IntervalArrayResult
from assay._results._protocols import (
    BiasVarianceResult,
    Bootstrap632Result,
    CrossValidationResult,
    ModelComparisonResult,
)
from assay._results._rank_models import RankModelsResult
from assay._results._ranks import FriedmanResult, PosthocResult
from assay._results._selection import NestedCrossValidationResult, SelectionResult
from assay._results._thresholds import PosteriorFdrResult, ThresholdResult

__all__ = [
    "AucCovariance",
    "BiasVarianceResult",
    "Bootstrap632Result",
    "BootstrapResult",
    "BrierDecomposition",
    "CalibrationCurve",
    "ComparisonResult",
    "ConfidenceInterval",
    "ConfusionAtThresholds",
    "CrossValidationResult",
    "CumulativeGainCurve",
    "DetCurve",
    "FriedmanResult",
    "IntervalArrayResult",
    "IntervalResult",
    "ModelComparisonResult",
    "NestedCrossValidationResult",
    "PermutationTestResult",
    "PosteriorFdrResult",
    "PosthocResult",
    "PrecisionRecallCurve",
    "RankModelsResult",
    "RocCurve",
    "SelectionResult",
    "TestResult",
    "ThresholdResult",
]
