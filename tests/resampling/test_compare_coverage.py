"""Coverage of compare's bootstrap intervals of a difference (slow, statistical).

The simulation behind the choice of compare's default interval and the table in its
docstring and in docs/guide/two-models.md.  Four designs, 1000 data sets each, B = 1000
replicates, 95 % two-sided intervals:

- two AUCs near 1 (0.99 and 0.98, n = 300): the skewed case;
- AUC 0.80 against 0.75 at n = 300 and n = 2000 (symmetric);
- accuracy 0.85 against 0.80 at n = 300 (a confusion-matrix metric).

Ranking designs: labels Bernoulli(1/2); model A scores ``mu_A y + e_A``, model B
``mu_B y + e_B``, ``(e_A, e_B)`` standard bivariate normal with correlation 0.5 and
``mu = sqrt(2) Phi^-1(AUC)``, so the population AUCs are exactly as stated.  Accuracy:
per row, both models right with probability 0.75, only A 0.10, only B 0.05, both wrong
0.10.  The true difference is known in each design.

Monte Carlo error: with 1000 data sets the binomial standard error of a 95 % coverage
is 0.69 percentage points.  One compare call per data set gives the BCa interval and the
replicates; the percentile and basic intervals are computed from those replicates with
the functions compare itself uses (bit for bit, see test_interval_pvalues.py), so the
three methods are compared on the same replicates.  Run with ``-s`` to print the table.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.special import ndtri

import assay
from assay.resampling._intervals import basic_interval, percentile_interval

pytestmark = pytest.mark.slow

N_DATASETS = 1000
N_RESAMPLES = 1000
LEVEL = 0.95
STANDARD_ERROR = np.sqrt(LEVEL * (1 - LEVEL) / N_DATASETS)  # 0.0069
BAND = 3.0 * STANDARD_ERROR  # 2.1 percentage points either side of 95 %
DEFAULT = "basic"


def _ranking_design(auc_a, auc_b, n, correlation=0.5):
    mu_a, mu_b = np.sqrt(2.0) * ndtri(auc_a), np.sqrt(2.0) * ndtri(auc_b)

    def simulate(rng):
        y = (rng.random(n) < 0.5).astype(int)
        noise_a = rng.normal(size=n)
        noise_b = correlation * noise_a + np.sqrt(1 - correlation**2) * rng.normal(size=n)
        return y, mu_a * y + noise_a, mu_b * y + noise_b

    return assay.roc_auc_score, simulate, auc_a - auc_b


def _accuracy_design(n, both=0.75, only_a=0.10, only_b=0.05):
    def simulate(rng):
        y = rng.integers(0, 2, n)
        u = rng.random(n)
        right_a = u < both + only_a
        right_b = (u < both) | ((u >= both + only_a) & (u < both + only_a + only_b))
        return y, np.where(right_a, y, 1 - y), np.where(right_b, y, 1 - y)

    return assay.accuracy_score, simulate, only_a - only_b


DESIGNS = {
    "AUC 0.99 vs 0.98, n = 300": (_ranking_design(0.99, 0.98, 300), 2026),
    "AUC 0.80 vs 0.75, n = 300": (_ranking_design(0.80, 0.75, 300), 2027),
    "AUC 0.80 vs 0.75, n = 2000": (_ranking_design(0.80, 0.75, 2000), 2028),
    "accuracy 0.85 vs 0.80, n = 300": (_accuracy_design(300), 2029),
}


def _coverage(design, seed):
    metric, simulate, truth = design
    rng = np.random.default_rng(seed)
    covered = {"percentile": 0, "basic": 0, "bca": 0}
    for dataset in range(N_DATASETS):
        y, a, b = simulate(rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a rare BCa fallback is counted as it is
            result = assay.compare(metric, y, a, b, interval="bca", n_resamples=N_RESAMPLES,
                                   rng=dataset)  # fmt: skip
        replicates = result.resampled_differences
        intervals = {
            "percentile": percentile_interval(replicates, LEVEL),
            "basic": basic_interval(replicates, result.difference, LEVEL),
            "bca": result.confidence_interval,
        }
        for method, (low, high) in intervals.items():
            covered[method] += low <= truth <= high
    return {method: count / N_DATASETS for method, count in covered.items()}


@pytest.fixture(scope="module")
def coverage():
    table = {name: _coverage(design, seed) for name, (design, seed) in DESIGNS.items()}
    print(f"\ncoverage of 95 % intervals, {N_DATASETS} data sets, B = {N_RESAMPLES}")
    for name, row in table.items():
        print(f"| {name} | " + " | ".join(f"{row[m]:.3f}" for m in row) + " |")
    return table


def test_the_default_interval_holds_its_level_in_every_design(coverage):
    for name, row in coverage.items():
        assert abs(row[DEFAULT] - LEVEL) <= BAND, (name, row)


def test_every_interval_holds_its_level_in_the_symmetric_designs(coverage):
    for name in ("AUC 0.80 vs 0.75, n = 2000", "accuracy 0.85 vs 0.80, n = 300"):
        for method, value in coverage[name].items():
            assert abs(value - LEVEL) <= BAND, (name, method, value)


def test_the_default_is_the_closest_to_the_level_in_the_skewed_design(coverage):
    row = coverage["AUC 0.99 vs 0.98, n = 300"]
    assert abs(row[DEFAULT] - LEVEL) <= min(abs(value - LEVEL) for value in row.values())
