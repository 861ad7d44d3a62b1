"""What the protocols report about their metrics: intervals inside the metric's range,
readable names, multi-class use, and one counted warning for a warning of every split."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
from sklearn import model_selection
from sklearn.datasets import make_classification
from sklearn.linear_model import LinearRegression, LogisticRegression

import assay
from assay import DegenerateDataWarning, UndefinedMetricWarning
from assay.protocols import (
    KFold,
    PolynomialExample,
    bias_variance,
    bootstrap_632,
    compare_models,
    cross_validate,
)
from assay.reference import _protocols as reference

# Scores of one split computed by two libraries from the same predictions: rounding only.
SCORE_TOLERANCE = 1e-12
# Interval bounds from assay's and the reference's t quantiles: rounding of the quantile.
BOUND_TOLERANCE = 1e-9


class Threshold:
    """Predicts 1 above a cut on the first column."""

    def __init__(self, cut=0.5):
        self.cut = cut

    def fit(self, X, y):
        return self

    def predict(self, X):
        return (np.asarray(X)[:, 0] > self.cut).astype(np.int64)


class WrongBelow(Threshold):
    """The opposite of Threshold(0.5), except above ``right_from`` where it is right."""

    def __init__(self, right_from):
        super().__init__(0.5)
        self.right_from = right_from

    def predict(self, X):
        x = np.asarray(X)[:, 0]
        return np.where(x > self.right_from, x > 0.5, x <= 0.5).astype(np.int64)


class Noisy(Threshold):
    """Warns on every fit, like a solver that does not converge."""

    def fit(self, X, y):
        warnings.warn("the solver did not converge", UserWarning, stacklevel=2)
        return self


# --- Intervals stay in the metric's range. ---


def test_cross_validated_auc_intervals_stay_in_the_unit_interval():
    X, y = make_classification(n_samples=100, class_sep=1.5, flip_y=0.02, random_state=1)
    result = cross_validate(LogisticRegression(), X, y, cv=5, metrics="roc_auc_score")
    scores = result.scores["roc_auc_score"].tolist()
    sizes = (float(result.n_train.mean()), float(result.n_test.mean()))
    formula = reference.cross_validation_summary(scores, *sizes)
    clipped = reference.cross_validation_summary(scores, *sizes, value_range=(0.0, 1.0))
    # the t formulas reach above an AUC of 1 on these folds
    assert formula["interval"][1] > 1.0 and formula["corrected_interval"][1] > 1.0
    for found, key in (
        (result.interval["roc_auc_score"], "interval"),
        (result.corrected_interval["roc_auc_score"], "corrected_interval"),
    ):
        assert found.confidence_interval.high == 1.0
        np.testing.assert_allclose(found.confidence_interval, clipped[key], rtol=BOUND_TOLERANCE)
        np.testing.assert_allclose(
            found.details["unclipped_interval"], formula[key], rtol=BOUND_TOLERANCE
        )


def test_intervals_inside_the_range_are_left_alone_and_losses_stop_at_zero():
    X, y = make_classification(n_samples=120, flip_y=0.2, random_state=3)
    result = cross_validate(LogisticRegression(), X, y, cv=5, metrics="accuracy_score")
    assert "unclipped_interval" not in result.interval["accuracy_score"].details
    generator = np.random.default_rng(0)
    features = generator.normal(size=(40, 2))
    target = features[:, 0] + generator.standard_t(1.5, size=40)  # heavy tails: spread-out MSEs
    errors = cross_validate(LinearRegression(), features, target, cv=KFold(4))
    interval = errors.interval["mean_squared_error"]
    assert interval.details["unclipped_interval"].low < 0.0
    assert interval.confidence_interval.low == 0.0
    assert interval.confidence_interval.high == interval.details["unclipped_interval"].high


def test_a_callable_metric_may_state_its_range():
    X, y = make_classification(n_samples=100, class_sep=1.5, flip_y=0.02, random_state=1)

    def auc(y_true, y_score):
        return assay.roc_auc_score(y_true, y_score)

    result = cross_validate(LogisticRegression(), X, y, cv=5, metrics=auc)
    assert result.interval["auc"].confidence_interval.high > 1.0  # nothing said, nothing cut
    auc.value_range = (0.0, 1.0)  # type: ignore[attr-defined]
    result = cross_validate(LogisticRegression(), X, y, cv=5, metrics=auc)
    assert result.interval["auc"].confidence_interval.high == 1.0
    auc.value_range = (1.0, 0.0)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"must satisfy lowest <= highest; got \(1.0, 0.0\)"):
        cross_validate(LogisticRegression(), X, y, cv=5, metrics=auc)
    auc.value_range = "unit"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="must be a pair \\(lowest, highest\\) of numbers"):
        cross_validate(LogisticRegression(), X, y, cv=5, metrics=auc)


def test_compare_models_keeps_the_difference_of_two_rates_in_minus_one_one():
    X = np.linspace(0.0, 1.0, 50).reshape(-1, 1)
    y = (X[:, 0] > 0.5).astype(np.int64)
    # model A is always right; B is always wrong except on the last 5 of the 50 rows, so
    # the differences of accuracy per fold are 1, 1, 1, 1 and 0.5
    with pytest.warns(DegenerateDataWarning, match="all 5 split scores of `accuracy_score`"):
        result = compare_models(Threshold(0.5), WrongBelow(0.9), X, y, cv=KFold(5))
    assert result.differences.tolist() == [1.0, 1.0, 1.0, 1.0, 0.5]
    unclipped = assay.paired_ttest(result.scores_a, result.scores_b).confidence_interval
    assert unclipped.high > 1.0
    for test in (result.paired_ttest, result.corrected_ttest):
        low, high = test.confidence_interval
        assert -1.0 <= low and high == 1.0
        assert test.details["unclipped_interval"].high > 1.0
    assert result.paired_ttest.confidence_interval.low == pytest.approx(unclipped.low)


# --- Names. ---


def test_partials_and_dicts_are_reported_under_readable_names():
    X, y = make_classification(
        n_samples=240, n_classes=3, n_informative=4, flip_y=0.1, random_state=0
    )
    macro = functools.partial(assay.f1_score, average="macro")
    result = cross_validate(LogisticRegression(), X, y, cv=5, metrics=[macro, "accuracy_score"])
    assert result.metrics == ("f1_score(average='macro')", "accuracy_score")
    sklearn_scores = model_selection.cross_validate(
        LogisticRegression(), X, y, cv=5, scoring="f1_macro"
    )["test_score"]
    np.testing.assert_allclose(
        result.scores["f1_score(average='macro')"], sklearn_scores, atol=SCORE_TOLERANCE
    )
    named = cross_validate(LogisticRegression(), X, y, cv=5, metrics={"f1_macro": macro})
    assert named.metrics == ("f1_macro",)
    np.testing.assert_array_equal(named.scores["f1_macro"], result.scores[result.metrics[0]])
    compared = compare_models(
        LogisticRegression(), LogisticRegression(C=0.01), X, y, cv=5, metric={"f1": macro}
    )
    assert compared.metric == "f1" and compared.greater_is_better is True
    with pytest.raises(ValueError, match=r"`metric` must be one metric; got a dict of 2"):
        compare_models(
            LogisticRegression(), Threshold(), X, y, metric={"a": macro, "b": "accuracy_score"}
        )


# --- Multi-class targets. ---


@pytest.fixture(scope="module")
def three_classes():
    return make_classification(
        n_samples=240, n_classes=3, n_informative=4, flip_y=0.1, random_state=0
    )


def test_multiclass_roc_auc_is_one_vs_rest_macro_over_predict_proba(three_classes):
    X, y = three_classes
    result = cross_validate(LogisticRegression(), X, y, cv=5, metrics="roc_auc_score")
    theirs = model_selection.cross_validate(
        LogisticRegression(), X, y, cv=5, scoring="roc_auc_ovr"
    )["test_score"]
    np.testing.assert_allclose(result.scores["roc_auc_score"], theirs, atol=SCORE_TOLERANCE)
    assert result.oof_score is not None and result.oof_score.shape == (1, 240, 3)
    np.testing.assert_allclose(result.oof_score[0].sum(axis=1), 1.0)
    # a partial choosing the other strategy is called as written
    hand_till = functools.partial(assay.roc_auc_score, multi_class="ovo", labels=[0, 1, 2])
    ovo = cross_validate(LogisticRegression(), X, y, cv=5, metrics={"ovo": hand_till})
    theirs = model_selection.cross_validate(
        LogisticRegression(), X, y, cv=5, scoring="roc_auc_ovo"
    )["test_score"]
    np.testing.assert_allclose(ovo.scores["ovo"], theirs, atol=SCORE_TOLERANCE)


class NotFitted(Threshold):
    def fit(self, X, y):
        raise AssertionError("a metric error must come before any model is fitted")


def test_multiclass_metric_errors_come_first_and_say_how(three_classes):
    X, y = three_classes
    with pytest.raises(
        ValueError,
        match=r"'f1_score' averages over the classes only when told how: `y` has 3 classes "
        r"\[0, 1, 2\] and `average='binary'` needs two\. Pass `average=` through "
        r"functools\.partial, e\.g\. functools\.partial\(assay\.f1_score, average='macro'\)",
    ):
        cross_validate(NotFitted(), X, y, cv=5, metrics="f1_score")
    with pytest.raises(
        ValueError,
        match=r"'equal_error_rate' is defined for two classes, but `y` has 3 classes "
        r"\[0, 1, 2\]; 'roc_auc_score' \(one-vs-rest\), 'average_precision_score' and "
        r"'pr_auc_score' take the class probabilities",
    ):
        cross_validate(NotFitted(), X, y, cv=5, metrics="equal_error_rate")
    with pytest.raises(TypeError, match="needs class probabilities, but the model has no"):
        cross_validate(Threshold(), X, y, cv=5, metrics="roc_auc_score")


def test_binary_ranking_metrics_still_need_two_probabilities():
    X = np.random.default_rng(2).normal(size=(60, 2))
    y = np.arange(60) % 2

    class ThreeColumns(Threshold):
        def predict_proba(self, X):
            return np.full((len(X), 3), 1 / 3)

    with pytest.raises(ValueError, match=r"`predict_proba` returned shape \(20, 3\)"):
        cross_validate(ThreeColumns(), X, y, cv=3, metrics="roc_auc_score")


# --- A warning of every split is shown once, with a count. ---


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_cross_validate_shows_a_metric_warning_of_every_split_once(n_jobs):
    X = np.linspace(0.0, 1.0, 50).reshape(-1, 1)
    y = (X[:, 0] > 0.5).astype(np.int64)
    with pytest.warns(Warning) as caught:
        cross_validate(Threshold(2.0), X, y, cv=KFold(5), metrics="precision_score", n_jobs=n_jobs)
    record = [item for item in caught if item.category is UndefinedMetricWarning]
    assert len(record) == 1
    assert str(record[0].message).endswith("[in 5 of 5 splits]")
    assert record[0].filename == __file__


def test_compare_models_counts_the_fits_of_both_models():
    X = np.linspace(0.0, 1.0, 50).reshape(-1, 1)
    y = (X[:, 0] > 0.5).astype(np.int64)
    with pytest.warns(UserWarning) as record:
        compare_models(Noisy(0.3), Noisy(0.6), X, y, cv=KFold(5))
    assert [str(item.message) for item in record if item.category is UserWarning] == [
        "the solver did not converge [in 10 of 10 fits]"
    ]
    assert record[0].filename == __file__


def test_bootstrap_632_shows_a_model_warning_once():
    X = np.linspace(0.0, 1.0, 30).reshape(-1, 1)
    y = (X[:, 0] > 0.5).astype(np.int64)
    with pytest.warns(UserWarning) as record:
        bootstrap_632(Noisy(0.5), X, y, n_resamples=20, rng=0)
    assert [str(item.message) for item in record] == [
        "the solver did not converge [in 21 of 21 fits]"
    ]
    assert record[0].filename == __file__


def test_bias_variance_shows_a_learner_warning_once():
    class NoisyMean:
        def fit(self, X, y):
            warnings.warn("the solver did not converge", UserWarning, stacklevel=2)
            self.mean = float(np.mean(y))
            return self

        def predict(self, X):
            return np.full(len(X), self.mean)

    with pytest.warns(UserWarning) as record:
        bias_variance(
            NoisyMean(), PolynomialExample(), np.linspace(0, 1, 5), n_rounds=6, n_train=10, rng=0
        )
    assert [str(item.message) for item in record] == [
        "the solver did not converge [in 6 of 6 rounds]"
    ]
    assert record[0].filename == __file__
