"""cross_validate, compare_models and the one-standard-error rule."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import model_selection
from sklearn.datasets import make_classification
from sklearn.linear_model import LinearRegression, LogisticRegression

import assay
from assay import DegenerateDataWarning
from assay.protocols import (
    BootstrapOutOfBag,
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    compare_models,
    cross_validate,
    one_standard_error_rule,
)
from assay.reference import _protocols as reference

# Scores computed by two libraries from the same predictions agree to rounding.
SCORE_TOLERANCE = 1e-12


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=150, n_features=6, flip_y=0.1, random_state=0)
    return X, y


class Threshold:
    """A deterministic classifier: predicts 1 above a cut on the first column."""

    def __init__(self, cut=0.5):
        self.cut = cut

    def fit(self, X, y):
        return self

    def predict(self, X):
        return (np.asarray(X)[:, 0] > self.cut).astype(np.int64)

    def decision_function(self, X):
        return np.asarray(X)[:, 0] - self.cut


class FitOnce(Threshold):
    """Fails if fitted twice: proves every split gets a fresh model."""

    def fit(self, X, y):
        assert not getattr(self, "fitted", False), "model reused across splits"
        self.fitted = True
        return self


# --- against scikit-learn ---


def test_same_folds_same_scores_as_sklearn_logistic_regression(data):
    X, y = data
    metrics = ("accuracy_score", "f1_score", "roc_auc_score", "average_precision_score")
    ours = cross_validate(LogisticRegression(), X, y, cv=5, metrics=metrics)
    theirs = model_selection.cross_validate(
        LogisticRegression(),
        X,
        y,
        cv=5,
        scoring=("accuracy", "f1", "roc_auc", "average_precision"),
    )
    their_names = ("accuracy", "f1", "roc_auc", "average_precision")
    for name, their_name in zip(metrics, their_names, strict=True):
        np.testing.assert_allclose(
            ours.scores[name], theirs[f"test_{their_name}"], rtol=0, atol=SCORE_TOLERANCE
        )


def test_same_splitter_same_scores_as_sklearn(data):
    X, y = data
    for cv in (
        KFold(4, shuffle=True, rng=1),
        RepeatedStratifiedKFold(3, 2, rng=2),
        BootstrapOutOfBag(5, rng=3),
    ):
        ours = cross_validate(LogisticRegression(), X, y, cv=cv)
        theirs = model_selection.cross_validate(LogisticRegression(), X, y, cv=cv)
        np.testing.assert_allclose(
            ours.scores["accuracy_score"], theirs["test_score"], rtol=0, atol=SCORE_TOLERANCE
        )


def test_regression_uses_kfold_and_matches_sklearn():
    generator = np.random.default_rng(0)
    X = generator.normal(size=(60, 3))
    y = X @ [1.0, -2.0, 0.5] + generator.normal(size=60)
    ours = cross_validate(LinearRegression(), X, y, cv=5)
    assert ours.metrics == ("mean_squared_error",)
    theirs = model_selection.cross_validate(
        LinearRegression(), X, y, cv=5, scoring="neg_mean_squared_error"
    )
    np.testing.assert_allclose(
        ours.scores["mean_squared_error"], -theirs["test_score"], rtol=1e-12
    )


def test_regressor_made_by_a_factory_gets_plain_kfold():
    X = np.arange(20.0).reshape(-1, 1)
    y = np.arange(20) % 7
    ours = cross_validate(LinearRegression, X, y, cv=4, metrics="mean_absolute_error")
    theirs = model_selection.cross_validate(
        LinearRegression(), X, y, cv=4, scoring="neg_mean_absolute_error"
    )
    np.testing.assert_allclose(ours.scores["mean_absolute_error"], -theirs["test_score"])


def test_declared_regressor_with_integer_targets_gets_plain_kfold():
    # scikit-learn's check_cv: stratify only classifiers; a regressor on counts gets KFold
    X = np.arange(20.0).reshape(-1, 1)
    y = np.arange(20) % 7
    ours = cross_validate(LinearRegression(), X, y, cv=4, metrics="mean_absolute_error")
    theirs = model_selection.cross_validate(
        LinearRegression(), X, y, cv=4, scoring="neg_mean_absolute_error"
    )
    np.testing.assert_allclose(ours.scores["mean_absolute_error"], -theirs["test_score"])


def test_pooled_out_of_fold_scores_match_cross_val_predict(data):
    X, y = data
    result = cross_validate(LogisticRegression(), X, y, cv=5, return_scores=True)
    theirs = model_selection.cross_val_predict(
        LogisticRegression(), X, y, cv=5, method="decision_function"
    )
    np.testing.assert_allclose(result.oof_score[0], theirs, rtol=0, atol=1e-12)
    predictions = model_selection.cross_val_predict(LogisticRegression(), X, y, cv=5)
    assert np.array_equal(result.oof_pred[0], predictions)
    # the pooled ROC curve of the procedure Honavar, "Evaluating model performance",
    # recommends
    pooled_auc = assay.roc_auc_score(y, result.oof_score[0])
    assert pooled_auc == pytest.approx(assay.reference.roc_auc_score(y, theirs), abs=1e-12)


# --- hand-worked ---


def test_hand_worked_threshold_model():
    # 20 points x_i = i/19; truth x > 0.45 (rows 9..19 are class 1: 9/19 = 0.4737); the
    # model cuts at 0.5 and errs on row 9 only.  Each fold has 4 rows, so the fold that
    # tests row 9 scores 3/4 and the others 1.
    X = np.linspace(0.0, 1.0, 20).reshape(-1, 1)
    y = (X[:, 0] > 0.45).astype(np.int64)
    result = cross_validate(Threshold(), X, y, cv=5)
    fold_of_row_9 = result.oof_fold[0, 9]
    expected = np.ones(5)
    expected[fold_of_row_9] = 0.75  # one error among 4 test rows
    assert result.scores["accuracy_score"].tolist() == expected.tolist()
    assert result.mean["accuracy_score"] == pytest.approx(0.95)
    # sample standard deviation of (1, 1, 1, 1, 0.75): sqrt(0.05 / 4) * ... by hand:
    # mean 0.95, squared deviations 4 * 0.0025 + 0.04 = 0.05, / (5 - 1) = 0.0125
    assert result.std["accuracy_score"] == pytest.approx(math.sqrt(0.0125))
    assert result.oof_pred[0].tolist() == (X[:, 0] > 0.5).astype(int).tolist()
    assert result.n_train.tolist() == [16] * 5 and result.n_test.tolist() == [4] * 5


def test_summary_matches_the_reference(data):
    X, y = data
    result = cross_validate(
        LogisticRegression(), X, y, cv=RepeatedKFold(5, 3, rng=4), confidence_level=0.9
    )
    values = result.scores["accuracy_score"]
    expected = reference.cross_validation_summary(
        values.tolist(), float(result.n_train.mean()), float(result.n_test.mean()), 0.9
    )
    assert result.mean["accuracy_score"] == pytest.approx(expected["mean"], rel=1e-12)
    assert result.std["accuracy_score"] == pytest.approx(expected["std"], rel=1e-12)
    np.testing.assert_allclose(
        result.interval["accuracy_score"].confidence_interval, expected["interval"], rtol=1e-12
    )
    np.testing.assert_allclose(
        result.corrected_interval["accuracy_score"].confidence_interval,
        expected["corrected_interval"],
        rtol=1e-12,
    )
    # k-fold: n_test / n_train = 1 / (k - 1) -> factor 1/15 + 1/4
    factor = result.corrected_interval["accuracy_score"].details["variance_factor"]
    assert factor == pytest.approx(1 / 15 + 1 / 4)
    # the interval equals assay.mean_ci's
    direct = assay.mean_ci(values, confidence_level=0.9)
    assert result.interval["accuracy_score"].confidence_interval == direct.confidence_interval


@given(
    scores=st.lists(st.floats(0.0, 1.0), min_size=2, max_size=12).filter(
        lambda v: len(set(v)) > 1
    ),
    n_test=st.integers(1, 50),
    n_train=st.integers(1, 500),
    value_range=st.sampled_from([(0.0, 1.0), (-math.inf, math.inf), (0.0, math.inf)]),
)
def test_summaries_against_the_reference_on_generated_scores(scores, n_test, n_train, value_range):
    from assay.protocols._cross_validation import _summaries

    values = np.array(scores)
    mean, std, interval, corrected = _summaries("m", values, n_test / n_train, 0.95, value_range)
    expected = reference.cross_validation_summary(scores, n_train, n_test, value_range=value_range)
    assert mean == pytest.approx(expected["mean"], rel=1e-12, abs=1e-15)
    assert std == pytest.approx(expected["std"], rel=1e-9)
    np.testing.assert_allclose(
        corrected.confidence_interval, expected["corrected_interval"], rtol=1e-9, atol=1e-12
    )
    np.testing.assert_allclose(
        interval.confidence_interval, expected["interval"], rtol=1e-9, atol=1e-12
    )


# --- pooling ---


def test_repeated_cv_pools_per_repeat(data):
    X, y = data
    result = cross_validate(LogisticRegression(), X, y, cv=RepeatedStratifiedKFold(5, 3, rng=0))
    assert result.oof_pred.shape == (3, 150) and result.oof_fold.shape == (3, 150)
    for repeat in range(3):
        assert set(result.oof_fold[repeat].tolist()) == set(range(5 * repeat, 5 * repeat + 5))
    assert result.oof_score is None


def test_bootstrap_pooling_marks_untested_rows(data):
    X, y = data
    result = cross_validate(
        LogisticRegression(), X, y, cv=BootstrapOutOfBag(6, rng=0), return_scores=True
    )
    rounds = result.oof_fold.shape[0]
    assert 1 <= rounds <= 6
    untested = result.oof_fold == -1
    assert np.all(np.isnan(result.oof_score[untested]))
    assert np.all(np.isfinite(result.oof_score[~untested]))
    assert int(np.count_nonzero(~untested)) == int(result.n_test.sum())


def test_leave_one_out_with_pooled_auc(data):
    X, y = data
    X, y = X[:40], y[:40]
    result = cross_validate(LogisticRegression(), X, y, cv=LeaveOneOut(), return_scores=True)
    assert result.n_splits == 40 and result.oof_score.shape == (1, 40)
    assert 0.0 <= assay.roc_auc_score(y, result.oof_score[0]) <= 1.0


# --- models ---


def test_every_split_gets_a_fresh_model():
    X = np.linspace(0, 1, 30).reshape(-1, 1)
    y = (X[:, 0] > 0.5).astype(int)
    original = FitOnce()
    with pytest.warns(DegenerateDataWarning, match="all 3 split scores"):
        cross_validate(original, X, y, cv=3)
    assert not hasattr(original, "fitted")  # deep copies were fitted, not the original
    with pytest.warns(DegenerateDataWarning):
        cross_validate(FitOnce, X, y, cv=3)  # a factory (here the class itself)
    with pytest.warns(DegenerateDataWarning):
        cross_validate(lambda: FitOnce(0.5), X, y, cv=3)


def test_n_jobs_gives_identical_results(data):
    X, y = data
    kwargs = {
        "cv": RepeatedStratifiedKFold(3, 2, rng=5),
        "metrics": ("accuracy_score", "roc_auc_score"),
    }
    one = cross_validate(LogisticRegression(), X, y, n_jobs=1, **kwargs)
    two = cross_validate(LogisticRegression(), X, y, n_jobs=2, **kwargs)
    for name in one.metrics:
        assert np.array_equal(one.scores[name], two.scores[name])
    assert np.array_equal(one.oof_score, two.oof_score)
    assert np.array_equal(one.oof_fold, two.oof_fold)


def test_rng_makes_shuffled_folds_reproducible(data):
    X, y = data
    first = cross_validate(LogisticRegression(), X, y, cv=5, rng=7)
    again = cross_validate(LogisticRegression(), X, y, cv=5, rng=7)
    unshuffled = cross_validate(LogisticRegression(), X, y, cv=5)
    assert first.rng_seed == 7 and unshuffled.rng_seed is None
    assert np.array_equal(first.oof_fold, again.oof_fold)
    assert not np.array_equal(first.oof_fold, unshuffled.oof_fold)


def test_callable_metrics_receive_predictions_or_scores(data):
    X, y = data

    def hits(y_true, y_pred):
        return float(np.mean(y_true == y_pred))

    def ranking(y_true, y_score):
        return assay.roc_auc_score(y_true, y_score)

    result = cross_validate(
        LogisticRegression(), X, y, cv=3, metrics=(hits, ranking, "roc_auc_score")
    )
    assert result.metrics == ("hits", "ranking", "roc_auc_score")
    assert np.array_equal(result.scores["ranking"], result.scores["roc_auc_score"])
    np.testing.assert_allclose(
        result.scores["hits"],
        cross_validate(LogisticRegression(), X, y, cv=3).scores["accuracy_score"],
    )


def test_predict_proba_is_used_without_decision_function():
    class Proba(Threshold):
        decision_function = None

        def __getattribute__(self, name):
            if name == "decision_function":
                raise AttributeError(name)
            return super().__getattribute__(name)

        def predict_proba(self, X):
            p = 1 / (1 + np.exp(-(np.asarray(X)[:, 0] - self.cut) * 4))
            return np.column_stack([1 - p, p])

    generator = np.random.default_rng(5)
    X = generator.uniform(size=(40, 1))
    y = (X[:, 0] + generator.normal(scale=0.3, size=40) > 0.5).astype(int)
    result = cross_validate(Proba(), X, y, cv=3, metrics="roc_auc_score")
    expected = cross_validate(Threshold(), X, y, cv=3, metrics="roc_auc_score")
    assert len(set(expected.scores["roc_auc_score"].tolist())) > 1
    np.testing.assert_allclose(result.scores["roc_auc_score"], expected.scores["roc_auc_score"])


def test_pandas_inputs():
    pandas = pytest.importorskip("pandas")
    X, y = make_classification(n_samples=60, random_state=1)
    frame, series = pandas.DataFrame(X), pandas.Series(y, index=np.arange(60) + 100)
    ours = cross_validate(LogisticRegression(), frame, series, cv=3)
    reference_run = cross_validate(LogisticRegression(), X, y, cv=3)
    assert np.array_equal(ours.scores["accuracy_score"], reference_run.scores["accuracy_score"])


# --- warnings and errors ---


def test_single_split_warns_and_gives_nan_spread():
    X = np.linspace(0, 1, 10).reshape(-1, 1)
    y = np.array([0, 1] * 5)
    with pytest.warns(DegenerateDataWarning, match="single split"):
        result = cross_validate(Threshold(), X, y, cv=[(np.arange(6), np.arange(6, 10))])
    assert math.isnan(result.std["accuracy_score"])
    assert math.isnan(result.interval["accuracy_score"].confidence_interval.low)


def test_result_is_frozen_and_serialisable(data):
    X, y = data
    result = cross_validate(LogisticRegression(), X, y, cv=3)
    with pytest.raises(AttributeError):
        result.mean = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.scores["x"] = np.zeros(3)  # type: ignore[index]
    with pytest.raises(ValueError):
        result.scores["accuracy_score"][0] = 1.0
    plain = result.to_dict()
    assert plain["mean"]["accuracy_score"] == result.mean["accuracy_score"]
    assert plain["interval"]["accuracy_score"]["confidence_interval"]["low"] == (
        result.interval["accuracy_score"].confidence_interval.low
    )
    json.dumps(plain)
    comparison = compare_models(LogisticRegression(), Threshold(0.0), X, y, cv=3)
    json.dumps(comparison.to_dict())
    assert "paired_ttest=TestResult(statistic=" in repr(comparison)
    assert "CrossValidationResult(" in repr(result) and "oof_pred=array(shape=(1, 150)" in repr(
        result
    )


def test_errors(data):
    X, y = data
    model = LogisticRegression()
    with pytest.raises(ValueError, match="`X` and `y` have different lengths: 150 and 149"):
        cross_validate(model, X, y[:-1])
    with pytest.raises(ValueError, match="`y` must be 1-D"):
        cross_validate(model, X, np.zeros((150, 2)))
    with pytest.raises(TypeError, match="`model` must have fit and predict methods"):
        cross_validate(object(), X, y)
    with pytest.raises(TypeError, match="what it returned \\(int\\) has no fit and predict"):
        cross_validate(lambda: 3, X, y)
    with pytest.raises(ValueError, match="`rng` is used only when `cv` is an integer"):
        cross_validate(model, X, y, cv=KFold(3), rng=1)
    with pytest.raises(ValueError, match="`cv` must be an integer"):
        cross_validate(model, X, y, cv=2.5)
    with pytest.raises(ValueError, match="`n_splits` must be an integer >= 2; got 1"):
        cross_validate(model, X, y, cv=1)
    with pytest.raises(ValueError, match="is not an assay metric"):
        cross_validate(model, X, y, metrics="accuracy")
    with pytest.raises(ValueError, match="`metrics` names a metric twice"):
        cross_validate(model, X, y, metrics=("accuracy_score", "accuracy_score"))
    with pytest.raises(ValueError, match="`n_jobs` must be a positive integer or -1"):
        cross_validate(model, X, y, n_jobs=0)
    with pytest.raises(ValueError, match="`confidence_level` must be in"):
        cross_validate(model, X, y, confidence_level=1.5)
    with pytest.raises(ValueError, match="`cv` produced no splits"):
        cross_validate(model, X, y, cv=[])
    with pytest.raises(ValueError, match="split 0 is not a \\(train, test\\) pair"):
        cross_validate(model, X, y, cv=[np.arange(3)])
    with pytest.raises(ValueError, match="split 1: the test set is empty"):
        cross_validate(
            model, X, y, cv=[(np.arange(100), np.arange(100, 150))] * 1 + [(np.arange(150), [])]
        )
    with pytest.raises(ValueError, match=r"split 0: test indices must be in \[0, 149\]"):
        cross_validate(model, X, y, cv=[(np.arange(100), np.arange(100, 151))])
    with pytest.raises(ValueError, match="the train indices must be a 1-D integer array"):
        cross_validate(model, X, y, cv=[(np.zeros(100), np.arange(100, 150))])
    with pytest.raises(TypeError, match="neither decision_function nor predict_proba"):

        class Plain:
            def fit(self, X, y):
                return self

            def predict(self, X):
                return np.zeros(len(X), dtype=int)

        cross_validate(Plain(), X, y, metrics="roc_auc_score")


def test_boolean_masks_are_accepted(data):
    X, y = data
    mask = np.zeros(150, dtype=bool)
    mask[::3] = True
    result = cross_validate(LogisticRegression(), X, y, cv=[(~mask, mask), (mask, ~mask)])
    assert result.n_test.tolist() == [50, 100]


# --- compare_models ---


def test_compare_models_on_5x2cv_uses_the_existing_tests(data):
    X, y = data
    cv = RepeatedStratifiedKFold(2, 5, rng=11)
    result = compare_models(LogisticRegression(), LogisticRegression(C=0.01), X, y, cv=cv)
    a, b = result.scores_a, result.scores_b
    assert np.array_equal(result.differences, a - b)
    # same folds for both models: the per-fold test sizes and the fold indices agree
    assert np.array_equal(result.result_a.oof_fold, result.result_b.oof_fold)
    expected_t = assay.ttest_5x2cv(a.reshape(5, 2), b.reshape(5, 2))
    expected_f = assay.ftest_5x2cv(a.reshape(5, 2), b.reshape(5, 2))
    assert result.ttest_5x2cv.statistic == expected_t.statistic
    assert result.ftest_5x2cv.pvalue == expected_f.pvalue
    assert result.paired_ttest.pvalue == assay.paired_ttest(a, b).pvalue
    corrected = assay.corrected_resampled_ttest(a, b, 75, 75)
    assert result.corrected_ttest.statistic == pytest.approx(corrected.statistic)
    assert result.greater_is_better is True
    # model A's scores equal a cross_validate run on the same splitter
    alone = cross_validate(LogisticRegression(), X, y, cv=cv)
    assert np.array_equal(alone.scores["accuracy_score"], a)


def test_compare_models_other_cv_has_no_5x2_tests(data):
    X, y = data
    result = compare_models(
        LogisticRegression(),
        Threshold(0.0),
        X,
        y,
        cv=RepeatedKFold(2, 3, rng=0),
        metric="error_rate",
    )
    assert result.ttest_5x2cv is None and result.ftest_5x2cv is None
    assert result.metric == "error_rate" and result.greater_is_better is False
    assert result.corrected_ttest.details["variance_factor"] == pytest.approx(1 / 6 + 1.0)
    result = compare_models(LogisticRegression(), Threshold(0.0), X, y, cv=4, rng=3)
    assert result.scores_a.shape == (4,) and result.result_a.rng_seed == 3


def test_compare_models_errors(data):
    X, y = data
    with pytest.raises(ValueError, match="comparing models needs at least 2"):
        compare_models(
            Threshold(), Threshold(0.1), X, y, cv=[(np.arange(100), np.arange(100, 150))]
        )
    with pytest.raises(TypeError, match="`model_b` must have fit and predict methods"):
        compare_models(Threshold(), None, X, y)
    with pytest.raises(ValueError, match="`alternative` must be one of"):
        compare_models(Threshold(), Threshold(0.1), X, y, alternative="bigger")


# --- one-standard-error rule ---


def test_one_standard_error_rule_hand_worked():
    # errors of polynomial degrees 1..5; best is degree 4 (0.17, se 0.015): threshold
    # 0.185; degrees 3 (0.18) and 5 (0.19 > 0.185: out) -> simplest inside = degree 3
    errors = [0.30, 0.21, 0.18, 0.17, 0.19]
    se = [0.02, 0.02, 0.015, 0.015, 0.02]
    assert one_standard_error_rule(errors, se, greater_is_better=False) == 2
    # the same as accuracies (1 - error): same choice
    accuracy = [1 - e for e in errors]
    assert one_standard_error_rule(accuracy, se, greater_is_better=True) == 2
    # complexity reversed (e.g. lambda of ridge: larger = simpler): of the candidates
    # {2, 3}, position 3 is now the simpler one
    assert (
        one_standard_error_rule(errors, se, greater_is_better=False, complexity=[5, 4, 3, 2, 1])
        == 3
    )
    # the best model alone within its standard error
    assert one_standard_error_rule([0.5, 0.1, 0.4], [0.0, 0.0, 0.0], greater_is_better=False) == 1
    # equal complexity: the better mean wins, then the first position
    assert (
        one_standard_error_rule(
            [0.2, 0.19, 0.3], [0.05] * 3, greater_is_better=False, complexity=[1, 1, 0]
        )
        == 1
    )
    assert (
        one_standard_error_rule(
            [0.2, 0.2], [0.05, 0.05], greater_is_better=False, complexity=[1, 1]
        )
        == 0
    )


@given(
    rows=st.lists(
        st.tuples(st.floats(0, 1), st.floats(0, 0.2), st.integers(0, 4)), min_size=1, max_size=12
    ),
    greater=st.booleans(),
    use_complexity=st.booleans(),
)
def test_one_standard_error_rule_matches_the_reference(rows, greater, use_complexity):
    means = [row[0] for row in rows]
    errors = [row[1] for row in rows]
    complexity = [row[2] for row in rows] if use_complexity else None
    ours = one_standard_error_rule(means, errors, greater_is_better=greater, complexity=complexity)
    theirs = reference.one_standard_error_rule(
        means, errors, greater_is_better=greater, complexity=complexity
    )
    assert ours == theirs


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"means": [], "standard_errors": []}, "`means` must be a non-empty 1-D array"),
        ({"means": [0.1, np.nan], "standard_errors": [0.1, 0.1]}, "`means` contains NaN"),
        ({"means": [0.1, 0.2], "standard_errors": [0.1]}, "different lengths: 2 and 1"),
        ({"means": [0.1, 0.2], "standard_errors": [0.1, -0.1]}, "1 negative values"),
        (
            {"means": [0.1, 0.2], "standard_errors": [0.1, 0.1], "complexity": [1]},
            "`means` and `complexity` have different lengths",
        ),
    ],
)
def test_one_standard_error_rule_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        one_standard_error_rule(**kwargs, greater_is_better=False)


@pytest.mark.parametrize(
    "module_name", ["_splitters", "_holdout_bootstrap", "_cross_validation", "_model_selection"]
)
def test_docstring_examples_run(module_name):
    import doctest
    import importlib

    module = importlib.import_module(f"assay.protocols.{module_name}")
    failures, attempted = doctest.testmod(module)
    assert attempted > 0 and failures == 0


@given(
    n=st.integers(4, 40),
    k=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    cut=st.floats(0.1, 0.9),
)
def test_out_of_fold_predictions_of_a_fixed_rule_are_its_predictions(n, k, seed, cut):
    # a model that ignores its training data predicts the same everywhere, so the pooled
    # out-of-fold predictions are its predictions on all rows, for any folds, and the mean
    # of the per-fold accuracies weighted by fold size is the pooled accuracy
    generator = np.random.default_rng(seed)
    X = generator.uniform(size=(n, 1))
    y = generator.integers(0, 2, n)
    if k > n:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        result = cross_validate(Threshold(cut), X, y, cv=KFold(k, shuffle=True, rng=seed))
    assert result.oof_pred.shape == (1, n)
    assert np.array_equal(result.oof_pred[0], (X[:, 0] > cut).astype(np.int64))
    assert sorted(set(result.oof_fold[0].tolist())) == list(range(k))
    weighted = np.sum(result.scores["accuracy_score"] * result.n_test) / n
    assert weighted == pytest.approx(np.mean(result.oof_pred[0] == y), abs=1e-12)


def test_warnings_point_at_the_callers_line():
    X = np.linspace(0, 1, 30).reshape(-1, 1)
    y = (X[:, 0] > 0.5).astype(int)
    with pytest.warns(DegenerateDataWarning) as record:
        cross_validate(Threshold(), X, y, cv=3)
    assert record[0].filename == __file__
