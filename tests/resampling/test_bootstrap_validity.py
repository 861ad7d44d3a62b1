"""Statistical validity of ``assay.bootstrap``: do 95% intervals cover the truth 95% of the time?

Issue 3's criterion: over 1000 simulated data sets of n = 300 rows whose population value
of the metric is known, the 95% percentile and BCa intervals cover the truth in 93.5% to
96.5% of the data sets.  Two metrics:

* ROC AUC on binormal scores (:func:`assay.datasets.binormal_scores`, population AUC
  ``TRUE_AUC``, prevalence ``PREVALENCE``), resampling rows and, as pROC does by default,
  resampling each class separately (``stratify=True``), and by the Poisson bootstrap
  (``resampling="poisson"``: every count keyed by the row's score and class);
* accuracy (also by the Poisson bootstrap, counts keyed by confusion cell) of a
  prediction that is right with probability ``ACCURACY`` on every row,
  independently of the row's label, so that the population accuracy is exactly
  ``ACCURACY``.  ``ACCURACY`` is not a multiple of 1 / 300, so no interval bound can equal
  the truth (a bound is a replicate value ``k / 300`` or interpolates between two of
  them): whether the interval is read as closed or open does not matter.

Every coverage is computed once, in the module-scoped fixture :func:`coverages`, and each
test asserts one of them.  The data sets and the bootstrap seeds are fixed, so the tests
are deterministic; percentile and BCa intervals of one data set share their replicates
(same seed).  The band is about +-2.2 binomial standard deviations around 95%: with 1000
data sets a calibrated interval's number of covering data sets has standard deviation
``sqrt(1000 * 0.95 * 0.05) = 6.9``.

All tests are marked ``slow`` (``nox -s slow``); the whole module takes about 20 s.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, NamedTuple

import numpy as np
import pytest

import assay
from assay.datasets import binormal_scores

N_DATA_SETS = 1000
N_SAMPLES = 300
N_RESAMPLES = 1000
CONFIDENCE_LEVEL = 0.95
# Issue 3: 93.5%-96.5% of the 1000 data sets, as counts of data sets (inclusive).
COVERED_AT_LEAST = 935
COVERED_AT_MOST = 965

TRUE_AUC = 0.8
PREVALENCE = 0.3
ACCURACY = 0.805  # 241.5 / 300: between two values the accuracy can take at n = 300

AUC_DATA_SEED = 20240801
ACCURACY_DATA_SEED = 20240802
BOOTSTRAP_SEED = 20240803

# The mean of 1000 unbiased estimates lies within this many standard errors of the truth
# (a check on the simulation itself: each coverage is measured against the right value).
MEAN_TOLERANCE_STANDARD_ERRORS = 4.0


class Case(NamedTuple):
    data: str  # "auc" or "accuracy"
    method: str
    stratify: bool
    resampling: str = "multinomial"


CASES = {
    "roc_auc-percentile": Case("auc", "percentile", False),
    "roc_auc-bca": Case("auc", "bca", False),
    "roc_auc-stratified-percentile": Case("auc", "percentile", True),
    "roc_auc-stratified-bca": Case("auc", "bca", True),
    "accuracy-percentile": Case("accuracy", "percentile", False),
    "accuracy-bca": Case("accuracy", "bca", False),
    "roc_auc-poisson-percentile": Case("auc", "percentile", False, "poisson"),
    "roc_auc-poisson-bca": Case("auc", "bca", False, "poisson"),
    "accuracy-poisson-percentile": Case("accuracy", "percentile", False, "poisson"),
}
METRICS = {"auc": assay.roc_auc_score, "accuracy": assay.accuracy_score}
TRUTH = {"auc": TRUE_AUC, "accuracy": ACCURACY}


class Coverage(NamedTuple):
    """How the intervals of one case fared over the data sets."""

    n_covered: int  # low <= truth <= high
    n_truth_below: int  # truth < low: the interval lies above the truth
    n_truth_above: int  # truth > high
    n_fell_back: int  # BCa asked for, percentile returned (DegenerateDataWarning)
    n_undefined: int  # replicates without a defined metric, over all data sets
    warnings: tuple[str, ...]

    def describe(self) -> str:
        return (
            f"covered the truth in {self.n_covered} of {N_DATA_SETS} data sets "
            f"({self.n_covered / N_DATA_SETS:.1%}); the truth was below the interval in "
            f"{self.n_truth_below} and above it in {self.n_truth_above}"
        )


def auc_data(index: int) -> tuple[np.ndarray, np.ndarray]:
    """Data set ``index``: binormal scores with population AUC ``TRUE_AUC``."""
    generator = np.random.default_rng([AUC_DATA_SEED, index])
    return binormal_scores(N_SAMPLES, auc=TRUE_AUC, prevalence=PREVALENCE, rng=generator)


def accuracy_data(index: int) -> tuple[np.ndarray, np.ndarray]:
    """Data set ``index``: each prediction right with probability ``ACCURACY``."""
    generator = np.random.default_rng([ACCURACY_DATA_SEED, index])
    y_true = (generator.random(N_SAMPLES) < PREVALENCE).astype(np.int64)
    right = generator.random(N_SAMPLES) < ACCURACY
    return y_true, np.where(right, y_true, 1 - y_true)


@pytest.fixture(scope="module")
def coverages() -> dict[str, Any]:
    """Coverage of every case, and the estimates of every data set, in one pass."""
    counts = {name: np.zeros(5, dtype=np.int64) for name in CASES}
    messages: dict[str, list[str]] = {name: [] for name in CASES}
    estimates: dict[str, list[float]] = {"auc": [], "accuracy": []}
    for index in range(N_DATA_SETS):
        data = {"auc": auc_data(index), "accuracy": accuracy_data(index)}
        estimates["auc"].append(assay.roc_auc_score(*data["auc"]))
        estimates["accuracy"].append(assay.accuracy_score(*data["accuracy"]))
        for name, case in CASES.items():
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = assay.bootstrap(
                    METRICS[case.data],
                    *data[case.data],
                    n_resamples=N_RESAMPLES,
                    confidence_level=CONFIDENCE_LEVEL,
                    method=case.method,
                    stratify=case.stratify,
                    resampling=case.resampling,
                    rng=BOOTSTRAP_SEED + index,
                )
            messages[name] += [f"data set {index}: {warning.message}" for warning in caught]
            low, high = result.confidence_interval
            truth = TRUTH[case.data]
            counts[name] += [
                low <= truth <= high,
                truth < low,
                truth > high,
                result.method != case.method,
                result.n_undefined,
            ]
    return {
        "coverage": {
            name: Coverage(*(int(value) for value in counts[name]), tuple(messages[name]))
            for name in CASES
        },
        "estimates": {key: np.array(values) for key, values in estimates.items()},
    }


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_95_percent_intervals_cover_the_truth_in_93_5_to_96_5_percent(coverages, name):
    coverage = coverages["coverage"][name]
    # every interval is the method asked for, from defined replicates, without warnings
    assert coverage.warnings == (), coverage.warnings[:5]
    assert coverage.n_fell_back == 0
    assert coverage.n_undefined == 0
    assert coverage.n_covered + coverage.n_truth_below + coverage.n_truth_above == N_DATA_SETS
    assert COVERED_AT_LEAST <= coverage.n_covered <= COVERED_AT_MOST, (
        f"{name}: the {CONFIDENCE_LEVEL:.0%} interval {coverage.describe()}; "
        f"issue 3 asks for {COVERED_AT_LEAST} to {COVERED_AT_MOST}."
    )


@pytest.mark.slow
@pytest.mark.parametrize("data", ["auc", "accuracy"])
def test_simulated_estimates_are_centred_on_the_population_value(coverages, data):
    estimates = coverages["estimates"][data]
    standard_error = float(np.std(estimates, ddof=1)) / math.sqrt(N_DATA_SETS)
    assert abs(float(np.mean(estimates)) - TRUTH[data]) <= (
        MEAN_TOLERANCE_STANDARD_ERRORS * standard_error
    )
