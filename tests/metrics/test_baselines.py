"""baseline_score and compare_to_baseline: exact values of the naive classifiers, the
reference's enumeration of every prediction vector, the leave-one-out pitfall, errors."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import assay
from assay import reference
from assay._results import ComparisonResult, TestResult
from assay.exceptions import DegenerateDataWarning, UndefinedMetricWarning
from assay.metrics._baselines import LINEAR_IN_ROWS, _enumerated_expectation
from assay.metrics._registry import METRICS
from assay.protocols import LeaveOneOut, cross_validate
from tests.strategies import paired_labels

# The enumeration and the reference sum the same terms in a different order (the
# reference in exact fractions of each float metric value): they agree to rounding.
EXPECTATION_RTOL = 1e-12

STRATEGIES = ("majority", "prior", "stratified", "uniform")


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return function(*args, **kwargs)


# --- Hand-worked values --------------------------------------------------------------------


def test_accuracy_of_the_naive_classifiers():
    y_true = [0] * 7 + [1] * 3
    assert assay.baseline_score("accuracy_score", y_true) == 0.7  # always 0
    assert assay.baseline_score("accuracy_score", y_true, strategy="prior") == 0.7
    # stratified: P(correct) = sum_i p_i^2 = 0.49 + 0.09
    stratified = assay.baseline_score("accuracy_score", y_true, strategy="stratified")
    assert stratified == pytest.approx(0.58, rel=1e-15)
    assert assay.baseline_score("accuracy_score", y_true, strategy="uniform") == 0.5
    # a training set's prior: the majority class is 1, the stratified accuracy
    # 0.7 * 0.2 + 0.3 * 0.8
    assert assay.baseline_score("accuracy_score", y_true, prior=[0.2, 0.8]) == 0.3
    with_prior = assay.baseline_score(
        "accuracy_score", y_true, strategy="stratified", prior=[0.2, 0.8]
    )
    assert with_prior == pytest.approx(0.38, rel=1e-15)


def test_f1_of_random_predictions_by_hand():
    # y = [0, 1], each prediction 1 with probability 1/2: the four outcomes
    # (0, 0): F1 0; (0, 1): 1; (1, 0): 0 (TP = 0); (1, 1): 2/3.  Mean 5/12.
    for strategy in ("stratified", "uniform"):
        value = assay.baseline_score("f1_score", [0, 1], strategy=strategy)
        assert value == pytest.approx(5 / 12, rel=1e-15)


def test_balanced_accuracy_of_any_naive_classifier_is_one_over_k():
    # mean over the classes of P(predict class i) = sum_i q_i / k = 1 / k
    y_true = [0, 0, 0, 1, 2, 2, 0, 1, 0]
    for strategy in STRATEGIES:
        value = assay.baseline_score("balanced_accuracy_score", y_true, strategy=strategy)
        assert value == pytest.approx(1 / 3, rel=1e-15)
        adjusted = assay.baseline_score(
            "balanced_accuracy_score", y_true, strategy=strategy, adjusted=True
        )
        assert adjusted == pytest.approx(0.0, abs=1e-15)


def test_ranking_metrics_of_a_constant_score():
    y_true = [0, 0, 0, 1, 1, 0, 0, 0, 1, 0]
    assert assay.baseline_score("roc_auc_score", y_true, strategy="prior") == 0.5
    # one tie group: precision at it is the prevalence
    assert assay.baseline_score("average_precision_score", y_true) == pytest.approx(0.3)


def test_undefined_metric_warns_once_at_the_users_line():
    with pytest.warns(UndefinedMetricWarning, match="undefined for some of the naive") as record:
        value = assay.baseline_score("precision_score", [0, 0, 1])  # nothing predicted 1
    assert value == 0.0
    assert len(record) == 1 and record[0].filename == __file__
    # random predictions: the outcome with no predicted positive counts zero_division
    one = assay.baseline_score("precision_score", [0, 1], strategy="uniform", zero_division=1.0)
    # outcomes (0,0): 1 (0/0), (0,1): 1, (1,0): 0, (1,1): 1/2
    assert one == pytest.approx(2.5 / 4, rel=1e-15)


# --- Against the reference: every prediction vector enumerated -----------------------------

BINARY_OPTIONS = {
    "accuracy_score": {},
    "error_rate": {},
    "precision_score": {"zero_division": 0.0},
    "recall_score": {"zero_division": 0.0},
    "f1_score": {"zero_division": 1.0},
    "fbeta_score": {"beta": 2.0, "zero_division": 0.0},
    "specificity_score": {"zero_division": 0.0},
    "npv_score": {"zero_division": 0.0},
    "false_discovery_rate": {"zero_division": 0.0},
    "matthews_corrcoef": {"zero_division": 0.0},
    "balanced_accuracy_score": {},
    "cohen_kappa_score": {},
    "expected_cost": {"cost_matrix": [[0.0, 1.0], [4.0, -1.0]]},
}
MULTICLASS_OPTIONS = {
    "accuracy_score": {},
    "recall_score": {"average": "macro", "zero_division": 0.0},
    "specificity_score": {"average": "weighted", "zero_division": 0.0},
    "balanced_accuracy_score": {"adjusted": True},
    "expected_cost": {"cost_matrix": [[0, 1, 2], [1, 0, 5], [3, 1, 0]]},
}


@pytest.mark.parametrize("name", sorted(BINARY_OPTIONS))
@given(
    y_true=hnp.arrays(np.int64, st.integers(2, 7), elements=st.integers(0, 1)),
    strategy=st.sampled_from(STRATEGIES),
)
def test_binary_baselines_match_the_reference(name, y_true, strategy):
    y_true[:2] = (0, 1)  # both classes
    options = BINARY_OPTIONS[name]
    value = _quiet(assay.baseline_score, name, y_true, strategy=strategy, **options)
    expected = _quiet(
        reference.baseline_score, getattr(reference, name), y_true, strategy=strategy, **options
    )
    if math.isnan(expected):
        assert math.isnan(value)
    else:
        assert value == pytest.approx(expected, rel=EXPECTATION_RTOL, abs=1e-15)


@pytest.mark.parametrize("name", sorted(MULTICLASS_OPTIONS))
@given(
    y_true=hnp.arrays(np.int64, st.integers(3, 6), elements=st.integers(0, 2)),
    strategy=st.sampled_from(STRATEGIES),
)
def test_multiclass_baselines_match_the_reference(name, y_true, strategy):
    y_true[:3] = (0, 1, 2)
    options = MULTICLASS_OPTIONS[name]
    value = _quiet(assay.baseline_score, name, y_true, strategy=strategy, **options)
    expected = _quiet(
        reference.baseline_score, getattr(reference, name), y_true, strategy=strategy, **options
    )
    assert value == pytest.approx(expected, rel=EXPECTATION_RTOL, abs=1e-15)


@pytest.mark.parametrize("name", sorted(LINEAR_IN_ROWS))
@given(
    first=hnp.arrays(np.float64, (3, 3), elements=st.integers(0, 9)),
    second=hnp.arrays(np.float64, (3, 3), elements=st.integers(0, 9)),
    share=st.floats(0.0, 1.0),
)
def test_the_closed_form_metrics_are_linear_given_the_supports(name, first, second, share):
    # E[metric(C)] = metric(E[C]) needs linearity along matrices with the same row sums:
    # rescale the second matrix's rows to the first's supports
    first[:, 0] += 1.0  # every class has rows
    second[:, 0] += 1.0
    second = second / second.sum(axis=1, keepdims=True) * first.sum(axis=1, keepdims=True)
    declaration = METRICS[name]
    options = {"cost_matrix": np.arange(9.0).reshape(3, 3)} if name == "expected_cost" else {}
    if "average" in declaration.confusion_options:
        options.update(average="macro", zero_division=0.0)

    def value(matrix):
        return _quiet(declaration.from_confusion, matrix, **options)

    mixed = value(share * first + (1.0 - share) * second)
    assert mixed == pytest.approx(
        share * value(first) + (1.0 - share) * value(second), rel=1e-9, abs=1e-12
    )


def test_large_binary_enumeration_agrees_with_the_closed_form_of_recall():
    # recall is linear: its closed form and the enumeration must agree; the enumeration
    # over (2001 x 3001)-ish outcomes truncated at tails below 2**-62
    y_true = np.array([0] * 3000 + [1] * 2000)
    declaration = METRICS["recall_score"]
    _, options = declaration.resolve_arguments(y_true, y_true, zero_division=0.0)
    q = np.array([0.6, 0.4])
    enumerated = _enumerated_expectation(declaration, np.array([3000.0, 2000.0]), q, options)
    assert enumerated == pytest.approx(0.4, rel=1e-14)


# --- Errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("metric", "kwargs", "message"),
    [
        ("accuracy_score", {"strategy": "random"}, "`strategy` must be one of"),
        ("mean_squared_error", {}, "`metric` must be a classification metric of assay"),
        (lambda y, p: 0.0, {}, "`metric` must be a classification metric of assay"),
        ("roc_auc_score", {"strategy": "stratified"}, "draws random labels, which a ranking"),
        ("accuracy_score", {"prior": [0.5, 0.25, 0.25]}, "`prior` has 3 entries but"),
        ("accuracy_score", {"prior": [0.5, 0.6]}, "`prior` must sum to 1"),
        ("accuracy_score", {"prior": [-0.5, 1.5]}, "`prior` must hold non-negative finite"),
        (
            "f1_score",
            {"strategy": "uniform", "sample_weight": [1, 2, 1, 1]},
            "`sample_weight` cannot be used with a random strategy for f1_score",
        ),
    ],
)
def test_baseline_errors(metric, kwargs, message):
    with pytest.raises(ValueError, match=message):
        assay.baseline_score(metric, [0, 1, 0, 0], **kwargs)


def test_baseline_errors_of_the_enumeration(monkeypatch):
    with pytest.raises(ValueError, match="computed exactly for two classes only"):
        assay.baseline_score("f1_score", [0, 1, 2], strategy="uniform", average="macro")
    # the cap on the outcomes enumerated (1e8 in use), lowered to reach it with few rows
    monkeypatch.setattr("assay.metrics._baselines._MAX_OUTCOMES", 50)
    with pytest.raises(ValueError, match=r"the exact expectation needs 64 outcomes \(at most 5e"):
        assay.baseline_score("f1_score", [0] * 7 + [1] * 7, strategy="uniform")


def test_weighted_linear_baselines_use_the_weights():
    # weights 3 on class 1: supports (2, 3); stratified accuracy (2/5)^2 + (3/5)^2
    value = assay.baseline_score(
        "accuracy_score", [0, 0, 1], strategy="stratified", sample_weight=[1, 1, 3]
    )
    assert value == pytest.approx(0.52, rel=1e-15)


# --- The leave-one-out pitfall (Honavar, "Evaluating model performance") ------------------


class _Majority:
    """Predicts the majority class of its training labels (the first among equals)."""

    def fit(self, X, y):
        classes, counts = np.unique(y, return_counts=True)
        self.label_ = classes[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.label_)


def test_leave_one_out_error_of_the_majority_classifier_is_100_percent():
    # 50 % class 1, 50 % class 2: on new data the majority classifier errs half the time,
    # but leaving one example out makes the other class the training majority
    y = np.array([1, 2] * 10)
    X = np.zeros((20, 1))
    with pytest.warns(
        DegenerateDataWarning, match=r"all 20 split scores of `error_rate` are equal \(1.0\)"
    ):
        result = cross_validate(_Majority(), X, y, cv=LeaveOneOut(), metrics=["error_rate"])
    assert assay.error_rate(y, result.oof_pred[0]) == 1.0
    # the true error of always predicting one class on this population is 0.5
    assert assay.baseline_score("error_rate", y) == 0.5


# --- compare_to_baseline -------------------------------------------------------------------


def test_mcnemar_against_the_majority_baseline_by_hand():
    # model right and baseline wrong on the 5 found positives (b = 5), wrong where the
    # baseline is right on 2 negatives (c = 2); exact p = 2 P(Bin(7, 1/2) <= 2) = 58/128
    y_true = [0] * 14 + [1] * 6
    y_pred = [0] * 12 + [1] * 2 + [1] * 5 + [0]
    result = assay.compare_to_baseline("accuracy_score", y_true, y_pred)
    assert isinstance(result, TestResult)
    assert result.pvalue == pytest.approx(58 / 128, rel=1e-12)
    assert result.estimate == pytest.approx(0.15, rel=1e-12)
    greater = assay.compare_to_baseline("accuracy_score", y_true, y_pred, alternative="greater")
    # one-sided: P(Bin(7, 1/2) >= 5) = 29/128
    assert greater.pvalue == pytest.approx(29 / 128, rel=1e-12)
    # the error rate's "less" (the model errs less) is accuracy's "greater"
    less_error = assay.compare_to_baseline("error_rate", y_true, y_pred, alternative="less")
    assert less_error.pvalue == greater.pvalue


def test_other_metrics_use_the_paired_bootstrap():
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 2, 120)
    y_score = y_true + rng.normal(0.0, 1.0, 120)
    y_pred = (y_score > 0.5).astype(int)
    f1 = assay.compare_to_baseline("f1_score", y_true, y_pred, n_resamples=300, rng=1)
    assert isinstance(f1, ComparisonResult)
    majority = np.full(120, np.bincount(y_true).argmax())
    expected = assay.compare("f1_score", y_true, y_pred, majority, n_resamples=300, rng=1)
    assert f1.difference == expected.difference and f1.pvalue == expected.pvalue
    auc = assay.compare_to_baseline("roc_auc_score", y_true, y_score, n_resamples=300, rng=1)
    assert auc.estimate_b == 0.5
    # weights select the bootstrap also for accuracy
    weighted = assay.compare_to_baseline(
        "accuracy_score", y_true, y_pred, sample_weight=np.ones(120), n_resamples=200, rng=2
    )
    assert isinstance(weighted, ComparisonResult)


_OPPOSITE = {"two-sided": "two-sided", "greater": "less", "less": "greater"}


@given(paired_labels(max_n=60), st.sampled_from(["two-sided", "greater", "less"]))
def test_mcnemar_against_the_baseline_matches_the_reference(data, alternative):
    # The baseline, found here independently: the most frequent class, the smallest
    # among equally frequent ones; McNemar's exact test of the model against it.
    y_true, y_pred, _ = data
    classes, counts = np.unique(y_true, return_counts=True)
    baseline = np.full(y_true.shape[0], classes[np.flatnonzero(counts == counts.max())[0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)  # no discordant rows
        accuracy = assay.compare_to_baseline(
            "accuracy_score", y_true, y_pred, alternative=alternative
        )
        error = assay.compare_to_baseline("error_rate", y_true, y_pred, alternative=alternative)
    expected = reference.mcnemar(y_true, y_pred, baseline, alternative=alternative)
    assert accuracy.statistic == expected["statistic"]
    assert accuracy.pvalue == pytest.approx(expected["pvalue"], rel=EXPECTATION_RTOL)
    assert accuracy.estimate == pytest.approx(expected["estimate"], rel=EXPECTATION_RTOL)
    # a lower error rate is a higher accuracy: the error rate's side is the opposite one
    opposite = reference.mcnemar(y_true, y_pred, baseline, alternative=_OPPOSITE[alternative])
    assert error.pvalue == pytest.approx(opposite["pvalue"], rel=EXPECTATION_RTOL)


def test_the_paired_bootstrap_takes_the_resampling_scheme():
    rng = np.random.default_rng(4)
    y_true = rng.integers(0, 2, 150)
    y_pred = np.where(rng.random(150) < 0.8, y_true, 1 - y_true)
    cost = np.array([[0.0, 1.0], [4.0, 0.0]])
    found = assay.compare_to_baseline(
        assay.expected_cost, y_true, y_pred, cost_matrix=cost, majority_class=0,
        n_resamples=200, rng=5, resampling="poisson",
    )  # fmt: skip
    expected = assay.compare(
        assay.expected_cost, y_true, y_pred, np.zeros(150, dtype=int), cost_matrix=cost,
        n_resamples=200, rng=5, resampling="poisson",
    )  # fmt: skip
    multinomial = assay.compare_to_baseline(
        assay.expected_cost, y_true, y_pred, cost_matrix=cost, majority_class=0,
        n_resamples=200, rng=5,
    )  # fmt: skip
    assert found.confidence_interval == expected.confidence_interval
    assert found.pvalue == expected.pvalue
    assert found.confidence_interval != multinomial.confidence_interval


def test_majority_class_can_be_given():
    y_true = ["a", "a", "b", "b", "b"]
    result = assay.compare_to_baseline(
        "balanced_accuracy_score",
        y_true,
        ["a", "a", "b", "b", "a"],
        majority_class="a",
        n_resamples=100,
        rng=0,
    )
    assert result.estimate_b == 0.5


def test_compare_to_baseline_errors():
    with pytest.raises(ValueError, match="`alternative` must be"):
        assay.compare_to_baseline("accuracy_score", [0, 1], [0, 1], alternative="better")
    with pytest.raises(ValueError, match="`y_true` and `y_pred` have different lengths"):
        assay.compare_to_baseline("accuracy_score", [0, 1], [0, 1, 1])


def test_one_class_in_y_true():
    # the naive classifier predicts the classes the metric sees from y_true: only 1 here
    assert assay.baseline_score("f1_score", [1] * 5, strategy="uniform") == 1.0
    assert reference.baseline_score(reference.f1_score, [1] * 5, strategy="uniform") == 1.0
    # with the other class named, the reference's F1 = 2 TP / (TP + 5), TP ~ Bin(5, 1/2)
    twin = reference.baseline_score(
        reference.f1_score, [1] * 5, strategy="uniform", classes=[0, 1]
    )
    expected = sum(math.comb(5, t) / 32 * 2 * t / (t + 5) for t in range(6))
    assert twin == pytest.approx(expected, rel=1e-14)
