"""assay.compare: the p-value inverts the reported interval; BCa in compare.

- Over random data sets and every interval, alternative and level of a grid,
  ``pvalue < 1 - confidence_level`` exactly when the reported interval excludes 0.
- A logistic regression against a random forest on scikit-learn's breast-cancer data,
  where the percentile interval excluded 0 while the p-value (the centred test) was 0.15.
- BCa against independent computations: leave-one-out with the public metric, the BCa
  formula evaluated by hand on compare's replicates, and scipy.stats.bootstrap's own
  paired resampling loop.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import assay
from assay._kernels.scans.roc_auc import RocAuc
from assay.exceptions import DegenerateDataWarning
from assay.metrics._registry import METRICS
from assay.resampling import _paired_jackknife, _plans
from assay.resampling._joint_cells import joint_cells
from assay.resampling._plans import replicate_options
from tests.strategies import paired_labels, paired_ranking_data

# (every level of a finer grid is checked on the replicates alone: test_interval_pvalues.py)
LEVELS = (0.8, 0.95)
INTERVALS = ("percentile", "basic", "bca")
ALTERNATIVES = ("two-sided", "greater", "less")
# Two computations of one leave-one-out value (closed form against the public metric):
# sums of the same terms in another order.
FLOAT_RTOL = 1e-12


def _excludes_zero(interval) -> bool:
    low, high = interval
    return bool(low > 0.0 or high < 0.0)


def _check_duality(metric, y, a, b, seed, value_range, **kwargs) -> None:
    for interval in INTERVALS:
        for alternative in ALTERNATIVES:
            pvalues = set()
            for level in LEVELS:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # undefined replicates, BCa fallback
                    result = assay.compare(metric, y, a, b, n_resamples=99, rng=seed,
                                           interval=interval, alternative=alternative,
                                           confidence_level=level, **kwargs)  # fmt: skip
                if np.isnan(result.pvalue):
                    assert np.isnan(result.confidence_interval).all()
                    continue
                assert (result.pvalue < 1.0 - level) == _excludes_zero(result.confidence_interval)
                low, high = result.confidence_interval
                assert value_range[0] <= low <= high <= value_range[1]
                if alternative == "greater":
                    assert high == value_range[1]
                if alternative == "less":
                    assert low == value_range[0]
                pvalues.add(result.pvalue)
            assert len(pvalues) <= 1  # the same replicates at every level: one p-value


@settings(max_examples=15, deadline=None)
@given(paired_ranking_data(min_n=4, max_n=60), st.integers(0, 2**32))
def test_ranking_pvalue_agrees_with_the_interval(data, seed) -> None:
    y, a, b, weight = data
    _check_duality(assay.roc_auc_score, y, a, b, seed, (-1.0, 1.0), sample_weight=weight)


@settings(max_examples=15, deadline=None)
@given(paired_labels(), st.integers(0, 2**32), st.sampled_from(["accuracy", "mcc"]))
def test_confusion_pvalue_agrees_with_the_interval(data, seed, name) -> None:
    y, a, b = data
    if name == "accuracy":
        _check_duality(assay.accuracy_score, y, a, b, seed, (-1.0, 1.0))
    else:
        _check_duality(assay.matthews_corrcoef, y, a, b, seed, (-2.0, 2.0))


@settings(max_examples=8, deadline=None)
@given(paired_ranking_data(min_n=4, max_n=30), st.integers(0, 2**32))
def test_callable_pvalue_agrees_with_the_interval(data, seed) -> None:
    y, a, b, _ = data

    def mean_gap(y_true, y_score):  # a callable: no declared range
        return float(np.mean(y_score[y_true == 1]) - np.mean(y_score[y_true == 0]))

    _check_duality(mean_gap, y, a, b, seed, (-np.inf, np.inf))


# --- The breast-cancer example ------------------------------------------------------------


def test_breast_cancer_interval_and_pvalue_agree() -> None:
    # 228 test rows; the random forest is fit with a fixed seed.  The percentile interval
    # of the AUC difference excluded 0 while the centred test gave p = 0.15.
    sklearn = pytest.importorskip("sklearn")
    from sklearn.datasets import load_breast_cancer
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    assert sklearn
    features, target = load_breast_cancer(return_X_y=True)
    x_train, x_test, y_train, y_test = train_test_split(
        features, target, test_size=0.4, random_state=21
    )
    logistic = make_pipeline(StandardScaler(), LogisticRegression()).fit(x_train, y_train)
    forest = RandomForestClassifier(random_state=0).fit(x_train, y_train)
    a = logistic.predict_proba(x_test)[:, 1]
    b = forest.predict_proba(x_test)[:, 1]
    assert y_test.shape[0] == 228
    for interval in INTERVALS:
        result = assay.compare(assay.roc_auc_score, y_test, a, b, interval=interval, rng=0)
        assert result.interval == interval
        assert (result.pvalue < 0.05) == _excludes_zero(result.confidence_interval)
    percentile = assay.compare(assay.roc_auc_score, y_test, a, b, interval="percentile", rng=0)
    assert percentile.confidence_interval.low > 0.0 and percentile.pvalue < 0.05


# --- BCa: the jackknife against leave-one-out with the public metric ------------------------


def _leave_one_out(metric, y, a, b, weight=None, **kwargs):
    values = []
    for row in range(y.shape[0]):
        kept = np.arange(y.shape[0]) != row
        options = dict(kwargs)
        if weight is not None:
            options["sample_weight"] = weight[kept]
        values.append(metric(y[kept], a[kept], **options) - metric(y[kept], b[kept], **options))
    return np.sort(values)


@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_auc_jackknife_of_the_difference_is_leave_one_out(tied, weighted) -> None:
    rng = np.random.default_rng(7)
    y, a = assay.datasets.binormal_scores(60, auc=0.8, prevalence=0.4, rng=3)
    b = a + rng.normal(scale=0.5, size=60)
    if tied:
        a, b = np.round(a, 1), np.round(b, 1)
    weight = rng.integers(1, 4, size=60).astype(float) if weighted else None
    plan = _plans.paired_stream_plan(y, a, b, pos_label=None, sample_weight=weight,
                                     clusters=None)  # fmt: skip
    values, counts = _paired_jackknife.ranking_jackknife(plan, RocAuc(), seed=0)
    assert np.all(counts == 1.0)
    expected = _leave_one_out(assay.roc_auc_score, y, a, b, weight)
    np.testing.assert_allclose(np.sort(values), expected, rtol=FLOAT_RTOL, atol=1e-15)


def test_grouped_ranking_jackknife_of_the_difference_is_leave_one_out_for_small_n() -> None:
    # At most 100 rows: one row per group, the delete-a-group jackknife is leave-one-out,
    # with the same rows left out of both models.
    rng = np.random.default_rng(8)
    y, a = assay.datasets.binormal_scores(50, auc=0.8, prevalence=0.4, rng=4)
    b = np.round(a + rng.normal(scale=0.5, size=50), 1)
    plan = _plans.paired_stream_plan(y, a, b, pos_label=None, sample_weight=None,
                                     clusters=None)  # fmt: skip
    options = METRICS["average_precision_score"].scan_options()
    values, _ = _paired_jackknife.ranking_jackknife(plan, options, seed=5)
    expected = _leave_one_out(assay.average_precision_score, y, a, b)
    np.testing.assert_allclose(np.sort(values), expected, rtol=FLOAT_RTOL, atol=1e-15)


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("accuracy_score", {}),
        ("f1_score", {"average": "macro"}),
        ("matthews_corrcoef", {}),
        ("cohen_kappa_score", {}),
    ],
)
def test_joint_cell_jackknife_of_the_difference_is_leave_one_out(name, kwargs) -> None:
    rng = np.random.default_rng(9)
    y = rng.integers(0, 3, size=70)
    a = np.where(rng.random(70) < 0.7, y, rng.integers(0, 3, size=70))
    b = np.where(rng.random(70) < 0.6, y, rng.integers(0, 3, size=70))
    declaration = METRICS[name]
    options = replicate_options(declaration, declaration.function, kwargs)
    cells = joint_cells(declaration, y, a, b, options, mirrors=False)
    values, counts = _paired_jackknife.cells_jackknife(cells, declaration.from_confusion)
    expected = _leave_one_out(declaration.function, y, a, b, **kwargs)
    np.testing.assert_allclose(np.sort(np.repeat(values, counts.astype(int))), expected,
                               rtol=FLOAT_RTOL, atol=1e-15)  # fmt: skip


# --- BCa: the interval against the formula and against scipy's resampling loop -------------


# A replicate and the estimate computed by different float sums may differ in the last
# bits although they are equal: within this relative gap they count as a tie.
TIE = 1e-12


def _bca_by_hand(replicates, estimate, leave_one_out, level):
    """Efron & Tibshirani (1993), section 14.3, with ties counted one half in z0."""
    tied = np.abs(replicates - estimate) <= TIE * abs(estimate)
    below = (replicates < estimate) & ~tied
    z0 = stats.norm.ppf(np.mean(below) + 0.5 * np.mean(tied))
    deviations = leave_one_out.mean() - leave_one_out
    a = np.sum(deviations**3) / (6.0 * np.sum(deviations**2) ** 1.5)
    z = stats.norm.ppf([(1 - level) / 2, (1 + level) / 2])
    levels = stats.norm.cdf(z0 + (z0 + z) / (1.0 - a * (z0 + z)))
    return np.quantile(replicates, levels)


@pytest.mark.parametrize(
    "metric, make_predictions",
    [
        (assay.roc_auc_score, lambda score: score),
        (assay.average_precision_score, lambda score: score),
        (assay.f1_score, lambda score: (score > 0.5).astype(int)),
    ],
)
def test_bca_interval_equals_the_formula_on_the_same_replicates(metric, make_predictions):
    rng = np.random.default_rng(11)
    y, score = assay.datasets.binormal_scores(80, auc=0.85, prevalence=0.4, rng=5)
    a = make_predictions(score)
    b = make_predictions(score + rng.normal(scale=0.6, size=80))
    result = assay.compare(metric, y, a, b, interval="bca", n_resamples=999, rng=6)
    assert result.interval == "bca"
    expected = _bca_by_hand(
        result.resampled_differences, result.difference, _leave_one_out(metric, y, a, b), 0.95
    )
    np.testing.assert_allclose(result.confidence_interval, expected, rtol=1e-10)


def test_bca_interval_matches_scipys_paired_bootstrap() -> None:
    # scipy draws its own resamples of the rows and computes the jackknife by leaving
    # each row out: an independent computation.  Both use B = 4000; the Monte Carlo
    # error of a 2.5 % quantile is about sqrt(0.025 * 0.975 / 4000) / f, 0.05 standard
    # deviations of the replicates for a normal shape, and z0 adds about as much: the
    # bounds must agree within 0.25 standard deviations (about 5 such errors).
    rng = np.random.default_rng(12)
    y, a = assay.datasets.binormal_scores(150, auc=0.9, prevalence=0.4, rng=8)
    b = a + rng.normal(scale=0.8, size=150)
    rows = np.arange(150)

    def difference(index):
        index = np.asarray(index, dtype=int)
        return assay.roc_auc_score(y[index], a[index]) - assay.roc_auc_score(y[index], b[index])

    reference = stats.bootstrap((rows,), difference, method="BCa", n_resamples=4000,
                                vectorized=False, rng=np.random.default_rng(13))  # fmt: skip
    result = assay.compare(assay.roc_auc_score, y, a, b, interval="bca", n_resamples=4000,
                           rng=14)  # fmt: skip
    spread = reference.standard_error
    np.testing.assert_allclose(result.confidence_interval, reference.confidence_interval,
                               atol=0.25 * spread)  # fmt: skip


# --- What the result records ----------------------------------------------------------------


def test_the_result_names_the_interval_and_bca_falls_back_with_its_pvalue() -> None:
    y, a = assay.datasets.binormal_scores(200, auc=0.8, rng=15)
    default = assay.compare(assay.roc_auc_score, y, a, a + 0.1, n_resamples=50, rng=1)
    assert default.interval == "basic"  # the default, chosen by test_compare_coverage.py
    permutation = assay.compare(assay.roc_auc_score, y, a, 1 - a, method="permutation",
                                n_resamples=50, rng=1)  # fmt: skip
    assert permutation.interval is None
    # identical rankings: every replicate difference is 0, BCa is undefined
    with pytest.warns(DegenerateDataWarning, match=r"all 50 bootstrap replicates are equal"):
        result = assay.compare(assay.roc_auc_score, y, a, 2 * a, interval="bca",
                               n_resamples=50, rng=1)  # fmt: skip
    assert result.interval == "percentile"
    assert result.confidence_interval == (0.0, 0.0) and result.pvalue == 1.0


@pytest.mark.parametrize(
    "metric, options",
    [
        (assay.roc_auc_score, {"groups": np.arange(120) // 3}),  # clusters: grouped jackknife
        (assay.roc_auc_score, {"stratify": True}),
        (assay.roc_auc_score, {"resampling": "poisson"}),
        (assay.roc_auc_score, {"max_fpr": 0.5}),  # partial AUC: grouped jackknife
        (assay.f1_score, {"sample_weight": np.arange(120) % 3 + 1.0}),  # generic path
        (assay.mean_squared_error, {}),  # values metric, unbounded range
    ],
)
def test_bca_and_duality_with_every_bootstrap_option(metric, options) -> None:
    rng = np.random.default_rng(16)
    y, score = assay.datasets.binormal_scores(120, auc=0.8, prevalence=0.4, rng=17)
    a, b = score, score + rng.normal(scale=0.4, size=120)
    if metric is assay.f1_score:
        a, b = (a > 0.5).astype(int), (b > 0.5).astype(int)
    if metric is assay.mean_squared_error:
        y = score + rng.normal(scale=0.2, size=120)
    for level in LEVELS:
        result = assay.compare(metric, y, a, b, interval="bca", n_resamples=300, rng=18,
                               confidence_level=level, **options)  # fmt: skip
        assert result.interval == "bca"
        assert (result.pvalue < 1.0 - level) == _excludes_zero(result.confidence_interval)
