"""Selection on held-out data: the three-way holdout, select_hyperparameter and
nested_cross_validate (scikit-learn's GridSearchCV and cross_val_score as the oracle)."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import model_selection
from sklearn.datasets import make_classification
from sklearn.metrics import f1_score as sklearn_f1_score
from sklearn.neighbors import KNeighborsClassifier

import assay
from assay.protocols import (
    KFold,
    KNNClassifier,
    PolynomialRegression,
    StratifiedKFold,
    holdout,
    nested_cross_validate,
    polynomial_regression_data,
    select_hyperparameter,
    two_gaussians,
)
from assay.reference import _intervals as reference_intervals
from assay.reference import _protocols as reference
from tests.strategies import three_way_split

# Scores computed by two libraries from the same predictions agree to rounding.
SCORE_TOLERANCE = 1e-12
# Least squares through two solvers (Legendre basis with corrected semi-normal equations
# against numpy's Vandermonde lstsq): agreement to about 1e-11 of the largest prediction
# (the bias-variance driver's documented accuracy); 1e-8 leaves room for conditioning.
LEAST_SQUARES_TOLERANCE = 1e-8
ODD_KS = [1, 3, 5, 7, 9]  # Wu, "Evaluation", section 1.3


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=160, n_features=5, flip_y=0.15, random_state=3)
    return X, y


def _gaussians(n, seed):
    x, y, _ = two_gaussians(n, variances=1.0, rng=seed)
    return x[:, None], y


# --- the three-way holdout ---


@given(n=st.integers(3, 200), seed=st.integers(0, 10_000), data=st.data())
def test_three_way_holdout_draws_test_then_validation_from_one_stream(n, seed, data):
    n_test = data.draw(st.integers(1, n - 2))
    n_validation = data.draw(st.integers(1, n - 1 - n_test))
    train, validation, test = holdout(n, n_test, validation_size=n_validation, rng=seed)
    # independent computation of the documented draw: a permutation of all rows gives
    # the test rows, a permutation of the rest (same generator) the validation rows
    stream = np.random.default_rng(seed)
    expected_test = np.sort(stream.permutation(n)[:n_test])
    rest = np.setdiff1d(np.arange(n), expected_test)
    expected_validation = np.sort(stream.permutation(rest)[:n_validation])
    assert np.array_equal(test, expected_test)
    assert np.array_equal(validation, expected_validation)
    assert np.array_equal(train, np.setdiff1d(rest, expected_validation))
    for part in (train, validation, test):
        assert part.dtype == np.int64 and np.all(np.diff(part) > 0)
    # the two-way split is unchanged: same test rows, its training rows the other two
    two_train, two_test = holdout(n, n_test, rng=seed)
    assert np.array_equal(two_test, test)
    assert np.array_equal(two_train, np.union1d(train, validation))


@given(split=three_way_split(), seed=st.integers(0, 99))
def test_stratified_three_way_holdout_shares_match_the_reference(split, seed):
    y, n_test, n_validation = split
    n = y.size
    train, validation, test = holdout(
        n, n_test, validation_size=n_validation, stratify=y, rng=seed
    )
    assert np.array_equal(np.sort(np.concatenate([train, validation, test])), np.arange(n))
    assert (test.size, validation.size, train.size) == (
        n_test,
        n_validation,
        n - n_test - n_validation,
    )
    order = list(dict.fromkeys(y.tolist()))  # classes in order of first appearance
    counts = [int(np.count_nonzero(y == label)) for label in order]
    test_counts = reference.holdout_test_counts(counts, n_test)
    assert [int(np.count_nonzero(y[test] == label)) for label in order] == test_counts
    left = [count - taken for count, taken in zip(counts, test_counts, strict=True)]
    validation_counts = reference.holdout_test_counts(left, n_validation)
    assert [int(np.count_nonzero(y[validation] == label)) for label in order] == (
        validation_counts
    )


def test_three_way_holdout_of_the_text_and_its_reproducibility():
    # Wu, "Evaluation", section 1.3: n/10 for testing, n/10 for validation, 8n/10 training
    train, validation, test = holdout(1000, 0.1, validation_size=0.1, rng=5)
    assert (train.size, validation.size, test.size) == (800, 100, 100)
    again = holdout(1000, 0.1, validation_size=0.1, rng=5)
    assert all(np.array_equal(a, b) for a, b in zip((train, validation, test), again, strict=True))
    other = holdout(1000, 0.1, validation_size=0.1, rng=6)
    assert not np.array_equal(validation, other[1])


@pytest.mark.parametrize(
    ("n", "test_size", "validation_size", "message"),
    [
        (10, 0.2, 0.0, r"`validation_size`=0.0 as a fraction must be in \(0, 1\)"),
        (10, 0.2, 10, r"`validation_size`=10 as a count must be in \[1, 9\]"),
        (10, 0.2, "some", "`validation_size` must be a fraction in"),
        (
            10,
            0.5,
            0.5,
            r"`test_size`=0.5 and `validation_size`=0.5 leave no training sample out of "
            r"10 \(5 test and 5 validation samples\)",
        ),
    ],
)
def test_three_way_holdout_errors(n, test_size, validation_size, message):
    with pytest.raises(ValueError, match=message):
        holdout(n, test_size, validation_size=validation_size)


# --- select_hyperparameter against scikit-learn ---


def test_cross_validated_selection_matches_grid_search_cv(data):
    X, y = data
    folds = KFold(5, shuffle=True, rng=4)
    search = model_selection.GridSearchCV(
        KNeighborsClassifier(), {"n_neighbors": ODD_KS}, cv=folds, scoring="accuracy"
    ).fit(X, y)
    result = select_hyperparameter(KNeighborsClassifier(), {"n_neighbors": ODD_KS}, X, y, cv=folds)
    assert result.protocol == "cross-validation" and result.n_splits == 5
    assert np.allclose(
        result.validation_scores,
        search.cv_results_["mean_test_score"],
        rtol=0,
        atol=SCORE_TOLERANCE,
    )
    assert dict(result.chosen) == search.best_params_
    assert result.chosen_index == search.best_index_
    assert np.array_equal(result.model.predict(X), search.best_estimator_.predict(X))
    # the per-point intervals are cross_validate's, on the same folds
    plain = assay.cross_validate(
        KNeighborsClassifier(result.chosen["n_neighbors"]), X, y, cv=folds
    )
    assert result.corrected_intervals[result.chosen_index].confidence_interval == (
        plain.corrected_interval["accuracy_score"].confidence_interval
    )


def test_validation_set_selection_against_independent_fits(data):
    X, y = data
    train, validation, test = holdout(len(y), 0.25, validation_size=0.25, stratify=y, rng=2)
    result = select_hyperparameter(
        KNeighborsClassifier(),
        {"n_neighbors": ODD_KS},
        X[train],
        y[train],
        validation=(X[validation], y[validation]),
        test=(X[test], y[test]),
    )
    n_val = validation.size
    for position, k in enumerate(ODD_KS):
        model = KNeighborsClassifier(n_neighbors=k).fit(X[train], y[train])
        correct = int(np.count_nonzero(model.predict(X[validation]) == y[validation]))
        estimate, low, high = reference_intervals.proportion_ci(correct, n_val)
        interval = result.validation_intervals[position]
        assert interval.method == "wilson"
        assert result.validation_scores[position] == pytest.approx(estimate, abs=SCORE_TOLERANCE)
        assert interval.confidence_interval.low == pytest.approx(low, abs=SCORE_TOLERANCE)
        assert interval.confidence_interval.high == pytest.approx(high, abs=SCORE_TOLERANCE)
        p = correct / n_val
        assert result.standard_errors[position] == pytest.approx(
            math.sqrt(p * (1 - p) / n_val), abs=SCORE_TOLERANCE
        )
    best = int(np.argmax(result.validation_scores))  # first of the equal best
    assert result.chosen_index == result.best_index == best
    chosen_k = ODD_KS[best]
    refit = KNeighborsClassifier(n_neighbors=chosen_k).fit(X[train], y[train])
    correct = int(np.count_nonzero(refit.predict(X[test]) == y[test]))
    estimate, low, high = reference_intervals.proportion_ci(correct, test.size)
    assert result.test.estimate == pytest.approx(estimate, abs=SCORE_TOLERANCE)
    assert result.test.confidence_interval.low == pytest.approx(low, abs=SCORE_TOLERANCE)
    assert result.rng_seed is None  # Wilson intervals draw nothing


def test_one_standard_error_rule_chooses_as_the_reference(data):
    X, y = data
    complexity = [-k for k in ODD_KS]  # a larger k is a smoother, simpler k-NN
    result = select_hyperparameter(
        KNeighborsClassifier(),
        {"n_neighbors": ODD_KS},
        X,
        y,
        cv=StratifiedKFold(5),
        rule="one_standard_error",
        complexity=complexity,
    )
    expected = reference.one_standard_error_rule(
        result.validation_scores.tolist(),
        result.standard_errors.tolist(),
        greater_is_better=True,
        complexity=complexity,
    )
    assert result.chosen_index == expected
    assert result.best_index == int(np.argmax(result.validation_scores))
    assert "within one standard error" in result.reason
    # the standard errors are the t intervals' s / sqrt(J)
    folds = result.n_splits
    for position, k in enumerate(ODD_KS):
        scores = model_selection.cross_val_score(
            KNeighborsClassifier(n_neighbors=k), X, y, cv=StratifiedKFold(5)
        )
        assert result.standard_errors[position] == pytest.approx(
            scores.std(ddof=1) / math.sqrt(folds), abs=SCORE_TOLERANCE
        )


def test_a_metric_other_than_accuracy_gets_a_bootstrap_interval(data):
    X, y = data
    train, validation = holdout(len(y), 0.4, stratify=y, rng=8)
    result = select_hyperparameter(
        KNeighborsClassifier(),
        {"n_neighbors": [1, 5]},
        X[train],
        y[train],
        validation=(X[validation], y[validation]),
        metric="f1_score",
        rng=3,
        n_resamples=300,
    )
    for position, k in enumerate([1, 5]):
        predictions = (
            KNeighborsClassifier(n_neighbors=k).fit(X[train], y[train]).predict(X[validation])
        )
        expected = sklearn_f1_score(y[validation], predictions)
        interval = result.validation_intervals[position]
        assert interval.method == "percentile bootstrap"
        assert interval.estimate == pytest.approx(expected, abs=SCORE_TOLERANCE)
        assert (
            0.0
            <= interval.confidence_interval.low
            <= expected
            <= interval.confidence_interval.high
            <= 1.0
        )
        assert interval.details["n_resamples"] == 300
    assert result.rng_seed == 3
    again = select_hyperparameter(
        KNeighborsClassifier(),
        {"n_neighbors": [1, 5]},
        X[train],
        y[train],
        validation=(X[validation], y[validation]),
        metric="f1_score",
        rng=3,
        n_resamples=300,
    )
    assert again.validation_intervals[1].confidence_interval == (
        result.validation_intervals[1].confidence_interval
    )


class Cut:
    """A fixed rule, the grid's parameter: predicts 1 above ``cut`` on the first column."""

    def __init__(self, cut):
        self.cut = cut

    def fit(self, X, y):
        return self

    def predict(self, X):
        return (np.asarray(X)[:, 0] > self.cut).astype(np.int64)


@given(
    seed=st.integers(0, 10_000),
    n_validation=st.integers(2, 40),
    cuts=st.lists(st.sampled_from([-1.0, -0.5, 0.0, 0.25, 0.5, 1.0]), min_size=1, max_size=6),
    rule=st.sampled_from(["best", "one_standard_error"]),
)
def test_validation_choice_of_fixed_rules_matches_the_reference(seed, n_validation, cuts, rule):
    # a rule that ignores its training data has a known validation accuracy: the
    # fraction of validation rows on the right side of its cut, counted here directly
    generator = np.random.default_rng(seed)
    X_val = generator.normal(size=(n_validation, 1))
    y_val = generator.integers(0, 2, n_validation)
    X_train, y_train = X_val[:2], np.array([0, 1])
    result = select_hyperparameter(
        Cut, cuts, X_train, y_train, validation=(X_val, y_val), rule=rule
    )
    correct = [int(np.count_nonzero((X_val[:, 0] > cut).astype(int) == y_val)) for cut in cuts]
    expected = [reference_intervals.proportion_ci(k, n_validation)[0] for k in correct]
    assert result.validation_scores.tolist() == pytest.approx(expected, abs=SCORE_TOLERANCE)
    errors = [math.sqrt(p * (1 - p) / n_validation) for p in expected]
    best = max(range(len(cuts)), key=lambda i: (expected[i], -i))  # first of the best
    assert result.best_index == best
    if rule == "best":
        assert result.chosen_index == best
    else:
        assert result.chosen_index == reference.one_standard_error_rule(
            result.validation_scores.tolist(), errors, greater_is_better=True
        )
    assert result.chosen == {"cut": cuts[result.chosen_index]}


# --- the built-in learners as candidates ---


def test_built_in_knn_classifier_predicts_as_scikit_learn():
    X, y = _gaussians(300, 11)
    X_new, _ = _gaussians(100, 12)
    for k in ODD_KS:  # odd k, two classes, continuous features: no tie of any kind
        ours = select_hyperparameter(
            KNNClassifier, [k], X, y, validation=(X_new, np.zeros(100, dtype=np.int64))
        ).model
        theirs = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(X, y)
        assert np.array_equal(ours.predict(X_new), theirs.predict(X_new))


def test_built_in_polynomial_predicts_as_numpy_least_squares():
    x, y, _ = polynomial_regression_data(60, rng=1)
    x_new, y_new, _ = polynomial_regression_data(40, rng=2)
    result = select_hyperparameter(
        PolynomialRegression(1),
        {"degree": [1, 2, 3, 6]},
        x[:, None],
        y,
        validation=(x_new[:, None], y_new),
        n_resamples=50,
        rng=0,
    )
    assert result.metric == "mean_squared_error" and not result.greater_is_better
    for position, degree in enumerate([1, 2, 3, 6]):
        predictions = np.polyval(np.polyfit(x, y, degree), x_new)
        mse = float(np.mean((y_new - predictions) ** 2))
        assert result.validation_scores[position] == pytest.approx(
            mse, rel=LEAST_SQUARES_TOLERANCE
        )
        # the interval of a mean squared error: the t interval of the squared residuals
        mean, low, high = reference_intervals.mean_ci((y_new - predictions) ** 2)
        interval = result.validation_intervals[position]
        assert interval.method == "t"
        assert interval.estimate == pytest.approx(mean, rel=LEAST_SQUARES_TOLERANCE)
        assert interval.confidence_interval == pytest.approx(
            (low, high), rel=LEAST_SQUARES_TOLERANCE
        )
    assert result.chosen_index == int(np.argmin(result.validation_scores))
    expected = np.polyval(np.polyfit(x, y, result.chosen["degree"]), x_new)
    scale = np.max(np.abs(expected))
    assert np.max(np.abs(result.model.predict(x_new[:, None]) - expected)) <= (
        LEAST_SQUARES_TOLERANCE * scale
    )


# --- the worked examples of Wu, "Evaluation" ---


def test_knn_example_of_section_1_3():
    # n examples split n/10 test, n/10 validation, 8n/10 training; k in {1, 3, 5, 7, 9};
    # the k of smallest validation error is refit on the training set and tested once.
    # Two Gaussian classes N(-1, 1) and N(1, 1): Bayes error Phi(-1) = 0.1587.
    X, y = _gaussians(1000, 2024)
    train, validation, test = holdout(1000, 0.1, validation_size=0.1, stratify=y, rng=7)
    result = select_hyperparameter(
        KNNClassifier,
        ODD_KS,
        X[train],
        y[train],
        validation=(X[validation], y[validation]),
        test=(X[test], y[test]),
        metric="error_rate",
    )
    assert result.parameters == ("n_neighbors",)
    assert [point["n_neighbors"] for point in result.grid] == ODD_KS
    errors = result.validation_scores
    assert result.chosen_index == int(np.argmin(errors))  # smallest validation error
    assert result.validation_score == errors.min()
    assert result.test.n == 100 and result.test.method == "wilson"
    assert result.n_train == 800 and result.n_validation == 100
    # every validation error is a count out of 100
    assert np.allclose(errors * 100, np.round(errors * 100), rtol=0, atol=1e-9)
    text = str(result)
    assert "optimistic" in text and "test" in text and "validation" in text
    assert "selection bias" in result.note


def test_polynomial_degree_example_chooses_the_true_degree_most_of_the_time():
    # Wu, "Evaluation", eq. 4: the data come from a degree-2 polynomial.  Degrees 1..6
    # are fitted on 60 training points and compared on 60 validation points.  Degree 1
    # misses the curvature by far; degrees above 2 fit noise, so their validation
    # errors exceed degree 2's only by chance-sized amounts, and the one-standard-error
    # rule (first = simplest degree) returns degree 2 unless degree 1 is within one
    # standard error of the best, which it never is here.  "Best" alone picks degree 2
    # less often (a higher degree wins by noise).  Measured on these 40 seeds: the rule
    # chose degree 2 in 40; the best error chose 2 in 16, 3 in 11, 4 in 6, 5 in 3, 6 in 4.
    rounds = 40
    chosen = {"best": [], "one_standard_error": []}
    for seed in range(rounds):
        x, y, _ = polynomial_regression_data(60, rng=seed)
        x_val, y_val, _ = polynomial_regression_data(60, rng=1000 + seed)
        for rule in chosen:
            result = select_hyperparameter(
                PolynomialRegression,
                range(1, 7),
                x[:, None],
                y,
                validation=(x_val[:, None], y_val),
                rule=rule,
                rng=seed,
                n_resamples=200,
            )
            chosen[rule].append(result.chosen["degree"])
    one_se = np.array(chosen["one_standard_error"])
    best = np.array(chosen["best"])
    assert np.count_nonzero(one_se == 2) > rounds / 2  # "most of the time"
    assert np.count_nonzero(best == 1) == 0  # underfitting is never best
    assert np.count_nonzero(best == 2) == max(np.count_nonzero(best == d) for d in range(1, 7))


# --- nested cross-validation ---


@pytest.mark.filterwarnings("ignore::assay.DegenerateDataWarning")  # equal inner fold scores
def test_nested_cross_validation_matches_scikit_learn(data):
    X, y = data
    outer, inner = KFold(4), KFold(3)  # contiguous folds: the same in both libraries
    search = model_selection.GridSearchCV(
        KNeighborsClassifier(), {"n_neighbors": ODD_KS}, cv=inner, scoring="accuracy"
    )
    theirs = model_selection.cross_validate(
        search, X, y, cv=outer, scoring="accuracy", return_estimator=True
    )
    result = nested_cross_validate(
        KNeighborsClassifier(), {"n_neighbors": ODD_KS}, X, y, cv=outer, inner_cv=inner
    )
    assert np.allclose(result.scores, theirs["test_score"], rtol=0, atol=SCORE_TOLERANCE)
    assert [point["n_neighbors"] for point in result.chosen] == [
        estimator.best_params_["n_neighbors"] for estimator in theirs["estimator"]
    ]
    for row, estimator in zip(result.inner_scores, theirs["estimator"], strict=True):
        assert np.allclose(row, estimator.cv_results_["mean_test_score"], atol=SCORE_TOLERANCE)
    summary = reference.cross_validation_summary(
        result.scores.tolist(), float(result.n_train.mean()), float(result.n_test.mean()),
        value_range=(0.0, 1.0),
    )  # fmt: skip
    assert result.mean == pytest.approx(summary["mean"], abs=SCORE_TOLERANCE)
    low, high = result.corrected_interval.confidence_interval
    assert (low, high) == pytest.approx(summary["corrected_interval"], abs=1e-10)


@pytest.mark.filterwarnings("ignore::assay.DegenerateDataWarning")  # equal inner fold scores
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(12, 40),
    cuts=st.lists(st.sampled_from([-1.0, -0.5, 0.0, 0.25, 0.5, 1.0]), min_size=1, max_size=5),
)
def test_nested_choice_of_fixed_rules_matches_a_direct_count(seed, n, cuts):
    # Rules that ignore their training data: every inner and outer score is a count of
    # rows on the right side of a cut, done here with fractions on the same folds.
    generator = np.random.default_rng(seed)
    X = generator.normal(size=(n, 1))
    y = generator.integers(0, 2, n)
    outer, inner = KFold(3), KFold(2)
    result = nested_cross_validate(Cut, cuts, X, y, cv=outer, inner_cv=inner)

    def accuracy(cut, rows):
        right = np.count_nonzero((X[rows, 0] > cut).astype(int) == y[rows])
        return Fraction(int(right), len(rows))

    for fold, (train, test) in enumerate(outer.split(X)):
        inner_means = [
            sum(accuracy(cut, train[rows]) for _, rows in inner.split(train)) / 2 for cut in cuts
        ]
        chosen = cuts.index(result.chosen[fold]["cut"])
        assert float(inner_means[chosen]) == pytest.approx(float(max(inner_means)), abs=1e-12)
        assert result.scores[fold] == pytest.approx(float(accuracy(cuts[chosen], test)), abs=1e-15)


def test_nested_cross_validation_is_reproducible_with_stratified_outer_folds():
    X, y = _gaussians(120, 5)
    first = nested_cross_validate(KNNClassifier, [1, 5, 9], X, y, cv=4, inner_cv=3, rng=9)
    again = nested_cross_validate(KNNClassifier, [1, 5, 9], X, y, cv=4, inner_cv=3, rng=9)
    assert np.array_equal(first.scores, again.scores)
    assert np.array_equal(first.chosen_index, again.chosen_index)
    folds = list(StratifiedKFold(4, shuffle=True, rng=9).split(X, y))
    assert first.n_test.tolist() == [test.size for _, test in folds]
    assert first.rng_seed == 9
    assert "Nested cross-validation, 4 outer splits" in str(first)
    json.dumps(first.to_dict(), allow_nan=False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"inner_cv": [(np.arange(5), np.arange(5, 10))]}, "`inner_cv` must be an integer"),
        (
            {"cv": KFold(3), "inner_cv": KFold(3), "rng": 1},
            "`rng` is used only when `cv` or `inner_cv` is an integer",
        ),
        ({"rule": "median"}, "rule"),
    ],
)
def test_nested_cross_validation_errors(kwargs, message):
    X, y = _gaussians(60, 1)
    with pytest.raises(ValueError, match=message):
        nested_cross_validate(KNNClassifier, [1, 3], X, y, **kwargs)


# --- the result and the errors ---


def test_selection_result_is_frozen_serialisable_and_consistent(data):
    X, y = data
    train, validation, test = holdout(len(y), 0.25, validation_size=0.25, rng=2)
    result = select_hyperparameter(
        KNeighborsClassifier(),
        {"n_neighbors": [1, 3], "weights": ["uniform", "distance"]},
        X[train],
        y[train],
        validation=(X[validation], y[validation]),
        test=(X[test], y[test]),
    )
    assert result.parameters == ("n_neighbors", "weights")
    assert [dict(point) for point in result.grid] == [
        {"n_neighbors": 1, "weights": "uniform"},
        {"n_neighbors": 1, "weights": "distance"},
        {"n_neighbors": 3, "weights": "uniform"},
        {"n_neighbors": 3, "weights": "distance"},
    ]
    with pytest.raises(AttributeError):
        result.chosen_index = 0  # type: ignore[misc]
    with pytest.raises(ValueError):
        result.validation_scores[0] = 1.0
    plain = json.loads(result.to_json())
    assert plain["grid"][plain["chosen_index"]] == dict(result.chosen)
    assert plain["model"].startswith("KNeighborsClassifier(")
    assert "selection_bias" not in plain and "optimistic" in plain["note"]
    text = str(result)
    assert f"{result.test.estimate:.4f}" in text and f"{result.validation_score:.4f}" in text
    assert "SelectionResult(" in repr(result)


def test_n_jobs_gives_the_same_selection(data):
    X, y = data
    train, validation = holdout(len(y), 0.3, rng=1)
    kwargs = {"validation": (X[validation], y[validation])}
    one = select_hyperparameter(
        KNeighborsClassifier(), {"n_neighbors": ODD_KS}, X[train], y[train], **kwargs
    )
    two = select_hyperparameter(
        KNeighborsClassifier(), {"n_neighbors": ODD_KS}, X[train], y[train], n_jobs=2, **kwargs
    )
    assert np.array_equal(one.validation_scores, two.validation_scores)
    # the built-in learners call a parallel kernel from every thread
    one = select_hyperparameter(KNNClassifier, ODD_KS, X[train], y[train], **kwargs)
    two = select_hyperparameter(KNNClassifier, ODD_KS, X[train], y[train], n_jobs=2, **kwargs)
    assert np.array_equal(one.validation_scores, two.validation_scores)
    nested_one = nested_cross_validate(KNNClassifier, ODD_KS, X, y, cv=3, inner_cv=3, rng=2)
    nested_two = nested_cross_validate(
        KNNClassifier, ODD_KS, X, y, cv=3, inner_cv=3, rng=2, n_jobs=2
    )
    assert np.array_equal(nested_one.scores, nested_two.scores)


class NoSetParams:
    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.zeros(len(X), dtype=np.int64)


class WarnsOnFit(NoSetParams):
    def __init__(self, a=1):
        self.a = a

    def set_params(self, **params):
        self.__dict__.update(params)
        return self

    def fit(self, X, y):
        warnings.warn("did not converge", UserWarning, stacklevel=2)
        return self


def test_a_warning_of_every_fit_is_shown_once_at_the_callers_line():
    X, y = _gaussians(60, 0)
    with pytest.warns(UserWarning, match=r"did not converge \[in 7 of 7 fits\]") as record:
        select_hyperparameter(WarnsOnFit(), {"a": [1, 2]}, X, y, cv=3)  # 6 fits and a refit
    assert len(record) == 1 and record[0].filename == __file__
    with pytest.warns(UserWarning, match=r"\[in 14 of 14 fits\]") as record:
        warnings.simplefilter("ignore", assay.DegenerateDataWarning)  # equal outer scores
        # 2 outer splits: 2 points x 3 inner splits and a refit each
        nested_cross_validate(WarnsOnFit(), {"a": [1, 2]}, X, y, cv=2, inner_cv=3)
    assert len(record) == 1 and record[0].filename == __file__


def _loss(y_true, y_pred):
    return float(np.mean(y_true != y_pred))


@pytest.mark.parametrize(
    ("model", "grid", "kwargs", "kind", "message"),
    [
        (KNNClassifier, [1], {}, ValueError, "give exactly one of `validation`.*got neither"),
        (KNNClassifier, [1], {"cv": 3, "validation": "both"}, ValueError, "got both"),
        (KNNClassifier, [1], {"cv": 3, "rule": "median"}, ValueError, "rule"),
        (KNNClassifier, [], {"cv": 3}, ValueError, "`grid` is empty"),
        (KNNClassifier, {}, {"cv": 3}, ValueError, "`grid` is an empty dict"),
        (KNNClassifier, "abc", {"cv": 3}, ValueError, "`grid` must be a sequence of values"),
        (
            KNeighborsClassifier(),
            [1, 3],
            {"cv": 3},
            ValueError,
            "`grid` is a list of values, but KNeighborsClassifier is a model",
        ),
        (NoSetParams(), {"a": [1]}, {"cv": 3}, TypeError, "NoSetParams has no set_params"),
        (
            KNNClassifier,
            [1],
            {"cv": 3, "refit": False, "test": ([[0.0]], [0])},
            ValueError,
            "`test` scores the refit model; it needs refit=True",
        ),
        (
            KNNClassifier,
            [1],
            {"cv": 3, "metric": {"a": "accuracy_score", "b": "error_rate"}},
            ValueError,
            "`metric` must be one metric; got a dict of 2",
        ),
        (
            KNNClassifier,
            [1],
            {"cv": 3, "metric": _loss},
            ValueError,
            "does not say whether larger is better",
        ),
        (KNNClassifier, [1], {"validation": [1, 2, 3]}, ValueError, "`validation` must be a pair"),
        (
            assay.protocols.Ridge(2, 1.0),
            [1, 2],
            {"cv": 3},
            ValueError,
            r"Ridge has the parameters \['degree', 'alpha'\]; name the one to vary",
        ),
        (42, [1], {"cv": 3}, TypeError, "`model` must be an estimator"),
        (KNNClassifier, [1], {"cv": 3, "n_resamples": 0}, ValueError, "`n_resamples` must be"),
    ],
)
def test_selection_errors(model, grid, kwargs, kind, message):
    X, y = _gaussians(40, 0)
    with pytest.raises(kind, match=message):
        select_hyperparameter(model, grid, X, y, **kwargs)


def test_a_non_finite_validation_score_is_refused():
    X, y = _gaussians(40, 0)

    def nan_score(y_true, y_pred):
        return math.nan

    nan_score.greater_is_better = True  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="the validation score of grid point 0 is nan"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            select_hyperparameter(KNNClassifier, [1, 3], X, y, cv=3, metric=nan_score)


# --- selection bias, measured ---


@pytest.mark.slow
def test_selection_bias_on_held_out_data_and_its_absence_under_nested_cross_validation():
    # Labels independent of x: every classifier's accuracy on new data is exactly 1/2.
    # Ten k-NN models are compared on a validation set of 60 rows; the chosen one's
    # validation accuracy is the best of ten noisy estimates of 1/2, so it is above 1/2
    # on average, while its accuracy on the 60 test rows is 1/2 on average.  Likewise the
    # chosen point's cross-validated accuracy on 120 rows is above 1/2, while nested
    # cross-validation of the same choice is 1/2 on average.  The outer folds are plain
    # shuffled k-fold: an outer training set and its test fold are then independent
    # samples, so every outer score is an unbiased test; stratified folds couple the
    # class counts of the two (a test fold mirrors its training set's majority class)
    # and lift the accuracy of noise above 1/2 by itself.  Measured, 200 seeds (100 for
    # the cross-validation, 25 times the fits), quoted in docs/guide/selection.md:
    # validation 0.5614 against test 0.5023 (gap 0.0591, s.e. 0.0059); cross-validated
    # score of the chosen point 0.5560 (s.e. 0.0050); nested 0.4991 (s.e. 0.0065).
    # Each comparison is judged against 4 standard errors of its mean over the seeds, so
    # a failure is a real bias, not chance (probability below 1e-4 under no bias).
    rounds, ks = 200, list(range(1, 20, 2))
    validation_gap, chosen_cv, nested_score = [], [], []
    for seed in range(rounds):
        generator = np.random.default_rng(seed)
        X = generator.normal(size=(240, 1))
        y = generator.integers(0, 2, 240)
        train, validation, test = holdout(240, 60, validation_size=60, rng=seed)
        held_out = select_hyperparameter(
            KNNClassifier, ks, X[train], y[train],
            validation=(X[validation], y[validation]), test=(X[test], y[test]),
        )  # fmt: skip
        validation_gap.append(held_out.validation_score - held_out.test.estimate)
        if seed < rounds // 2:
            folds = KFold(5, shuffle=True, rng=seed)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", assay.DegenerateDataWarning)  # equal folds
                by_cv = select_hyperparameter(KNNClassifier, ks, X[:120], y[:120], cv=folds)
                nested = nested_cross_validate(
                    KNNClassifier, ks, X[:120], y[:120], cv=folds, inner_cv=5, rng=seed
                )
            chosen_cv.append(by_cv.validation_score - 0.5)
            nested_score.append(nested.mean - 0.5)

    def standard_error(values):
        return values.std(ddof=1) / math.sqrt(values.size)

    gap, optimism, nested_bias = map(np.array, (validation_gap, chosen_cv, nested_score))
    assert gap.mean() > 4 * standard_error(gap)  # the validation score is optimistic
    assert optimism.mean() > 4 * standard_error(optimism)  # so is the chosen CV score
    assert abs(nested_bias.mean()) < 4 * standard_error(nested_bias)  # nested CV is not
