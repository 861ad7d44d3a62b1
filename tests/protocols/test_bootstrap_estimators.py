"""Tests of assay.protocols.bootstrap_632: leave-one-out bootstrap, .632 and .632+."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.tree import DecisionTreeClassifier

from assay import reference as ref
from assay._results import Bootstrap632Result
from assay.exceptions import DegenerateDataWarning
from assay.protocols import BootstrapOutOfBag, bootstrap_632

# Hand-worked values are exact fractions; the float pipeline rounds a few times.
HAND_RTOL = 1e-14
# Against the reference (same resamples, exact sums): float sums in another order.
REFERENCE_RTOL = 1e-12

W, C = Fraction(632, 1000), Fraction(368, 1000)  # Efron & Tibshirani's rounded weights


class Memorizer:
    """Remembers the label of every training x; predicts ``default`` for unseen x.

    Its training error is 0 and its out-of-bag prediction for a row is always
    ``default``, whatever the resample, so Err^(1) = mean_i L(y_i, default) and the
    no-information error is that of y against itself: every term is hand-computable.
    """

    def __init__(self, default=0):
        self.default = default

    def fit(self, X, y):
        self.table = {float(x): label for x, label in zip(np.ravel(X), y, strict=True)}
        return self

    def predict(self, X):
        return np.array([self.table.get(float(x), self.default) for x in np.ravel(X)])


class Constant:
    """Predicts ``value`` everywhere (training and out-of-bag errors are equal)."""

    def __init__(self, value=1):
        self.value = value

    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.full(len(X), self.value)


class Majority:
    """Predicts the most frequent training label (ties: the smallest)."""

    def fit(self, X, y):
        values, counts = np.unique(y, return_counts=True)
        self.label = values[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.label)


def _x(n):
    return np.arange(n, dtype=float).reshape(-1, 1)


def _hand_632_plus(err, one, gamma):
    """Efron & Tibshirani (1997), eq. 32-33, in fractions."""
    clipped = min(one, gamma)
    rate = (clipped - err) / (gamma - err) if (one > err and gamma > err) else Fraction(0)
    return C * err + W * one + (clipped - err) * C * W * rate / (1 - C * rate), rate


# --- Hand-worked cases (deterministic models; every resample leaves every row out once). ---


def test_zero_one_oob_error_above_gamma():
    """y = 0,0,1,1,1, Memorizer(default 0): err = 0, Err1 = 3/5, gamma = sum p(1 - p)
    = 2 * 0.4 * 0.6 = 0.48 < Err1, so Err1' = 0.48, R' = 1 and
    .632+ = 0.632 * 0.6 + 0.48 * 0.368 * 0.632 / (1 - 0.368) = 0.3792 + 0.17664."""
    y = np.array([0, 0, 1, 1, 1])
    results = {
        method: bootstrap_632(Memorizer(0), _x(5), y, n_resamples=60, method=method, rng=1)
        for method in ("oob", ".632", ".632+")
    }
    for result in results.values():
        assert result.training_error == 0.0
        assert result.oob_error == pytest.approx(0.6, rel=HAND_RTOL)
        assert result.n_never_oob == 0
    assert results["oob"].estimate == pytest.approx(0.6, rel=HAND_RTOL)
    assert results[".632"].estimate == pytest.approx(0.3792, rel=HAND_RTOL)
    plus = results[".632+"]
    assert plus.no_information_error == pytest.approx(0.48, rel=HAND_RTOL)
    assert plus.relative_overfitting_rate == 1.0
    assert plus.estimate == pytest.approx(0.3792 + 0.17664, rel=HAND_RTOL)
    expected, _ = _hand_632_plus(Fraction(0), Fraction(3, 5), Fraction(12, 25))
    assert plus.estimate == pytest.approx(float(expected), rel=HAND_RTOL)
    assert results[".632"].no_information_error is None
    assert results[".632"].weight == 0.632 and results["oob"].weight == 1.0


def test_zero_one_oob_error_below_gamma():
    """y = 0,1,1,1, Memorizer(default 1): err = 0, Err1 = 1/4, gamma = 2 * 0.25 * 0.75
    = 0.375; R = 0.25 / 0.375 = 2/3, w = 0.632 / (1 - 0.368 * 2/3) = 1.896 / 2.264,
    .632+ = w * 0.25 = 0.20936395759717..."""
    y = np.array([0, 1, 1, 1])
    result = bootstrap_632(Memorizer(1), _x(4), y, n_resamples=60, method=".632+", rng=2)
    assert result.n_never_oob == 0
    assert result.oob_error == pytest.approx(0.25, rel=HAND_RTOL)
    assert result.no_information_error == pytest.approx(0.375, rel=HAND_RTOL)
    assert result.relative_overfitting_rate == pytest.approx(2 / 3, rel=HAND_RTOL)
    weight = 1.896 / 2.264
    assert result.weight == pytest.approx(weight, rel=HAND_RTOL)
    assert result.estimate == pytest.approx(0.25 * weight, rel=HAND_RTOL)
    assert result.estimate == pytest.approx(0.20936395759717316, rel=1e-13)


@pytest.mark.parametrize(
    ("loss", "one", "gamma", "plus"),
    [
        # y = 0, 1, 2, 5; Memorizer(default 2).  Squared: Err1 = (4+1+0+9)/4 = 3.5;
        # gamma = mean_ij (y_i - y_j)^2 = 2 var(y) = 7; R = 1/2; w = 0.632/0.816.
        ("squared", 3.5, 7.0, 3.5 * 0.632 / 0.816),
        # Absolute: Err1 = (2+1+0+3)/4 = 1.5; gamma = (8+6+6+12)/16 = 2; R = 3/4;
        # w = 0.632 / (1 - 0.276).
        ("absolute", 1.5, 2.0, 1.5 * 0.632 / 0.724),
    ],
)
def test_regression_losses_hand_worked(loss, one, gamma, plus):
    y = np.array([0.0, 1.0, 2.0, 5.0])
    result = bootstrap_632(
        Memorizer(2.0), _x(4), y, n_resamples=80, method=".632+", loss=loss, rng=3
    )
    assert result.n_never_oob == 0
    assert result.training_error == 0.0
    assert result.oob_error == pytest.approx(one, rel=HAND_RTOL)
    assert result.no_information_error == pytest.approx(gamma, rel=HAND_RTOL)
    assert result.estimate == pytest.approx(plus, rel=HAND_RTOL)
    point632 = bootstrap_632(
        Memorizer(2.0), _x(4), y, n_resamples=80, method=".632", loss=loss, rng=3
    )
    assert point632.estimate == pytest.approx(0.632 * one, rel=HAND_RTOL)


def test_no_overfitting_gives_the_632_estimate():
    """Constant model: err = Err1 = 1/4 (R' = 0 by E&T's convention since Err1 <= err);
    every estimator is 1/4."""
    y = np.array([0, 1, 1, 1])
    for method in ("oob", ".632", ".632+"):
        result = bootstrap_632(Constant(1), _x(4), y, n_resamples=40, method=method, rng=4)
        assert result.estimate == pytest.approx(0.25, rel=HAND_RTOL)
    assert result.relative_overfitting_rate == 0.0


def test_gamma_not_above_training_error_gives_rate_zero():
    """Majority on y = 0,0,0,1: the full model predicts 0, err = 1/4 and gamma =
    0.75 * (1 - 1) + 0.25 * (1 - 0) = 1/4 = err, so R' = 0 and .632+ = .632."""
    y = np.array([0, 0, 0, 1])
    plus = bootstrap_632(Majority, _x(4), y, n_resamples=50, method=".632+", rng=5)
    point632 = bootstrap_632(Majority, _x(4), y, n_resamples=50, method=".632", rng=5)
    assert plus.no_information_error == pytest.approx(0.25, rel=HAND_RTOL)
    assert plus.relative_overfitting_rate == 0.0
    assert plus.estimate == pytest.approx(point632.estimate, rel=HAND_RTOL)
    assert point632.estimate == pytest.approx(0.368 * 0.25 + 0.632 * point632.oob_error)


# --- The leave-one-out bootstrap is a mean over rows, not over resamples. ---


def test_oob_error_is_the_mean_over_rows_of_each_rows_mean():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(30, 2))
    y = (X[:, 0] + 0.5 * rng.normal(size=30) > 0).astype(int)
    result = bootstrap_632(
        lambda: KNeighborsClassifier(n_neighbors=1), X, y, n_resamples=40, method="oob", rng=8
    )
    # Recompute from the splits of BootstrapOutOfBag, which draws the same resamples.
    sums, counts, per_resample = np.zeros(30), np.zeros(30), []
    for train, test in BootstrapOutOfBag(40, rng=8).split(X):
        model = KNeighborsClassifier(n_neighbors=1).fit(X[train], y[train])
        wrong = model.predict(X[test]) != y[test]
        sums[test] += wrong
        counts[test] += 1
        per_resample.append(wrong.mean())
    np.testing.assert_allclose(result.oob_errors, per_resample, rtol=0, atol=0)
    assert result.oob_error == pytest.approx(np.mean(sums / counts), rel=REFERENCE_RTOL)
    # The per-resample average (mlxtend's) differs in general.
    assert result.oob_error != pytest.approx(np.mean(per_resample), rel=1e-6)


# --- Against the reference twin and scikit-learn models. ---


@pytest.mark.parametrize("method", ["oob", ".632", ".632+"])
@pytest.mark.parametrize(
    ("factory", "loss"),
    [
        (lambda: DecisionTreeClassifier(random_state=0), "zero_one"),
        (lambda: LogisticRegression(), "zero_one"),
        (lambda: KNeighborsRegressor(n_neighbors=3), "squared"),
        (lambda: KNeighborsRegressor(n_neighbors=2), "absolute"),
    ],
)
def test_matches_the_reference(method, factory, loss):
    rng = np.random.default_rng(12)
    X = rng.normal(size=(25, 2))
    if loss == "zero_one":
        y = (X[:, 0] - X[:, 1] + rng.normal(size=25) > 0).astype(int)
    else:
        y = X[:, 0] ** 2 + rng.normal(size=25)
    result = bootstrap_632(factory, X, y, n_resamples=30, method=method, loss=loss, rng=99)
    exact = ref.bootstrap_632(factory, X, y, n_resamples=30, method=method, loss=loss, rng=99)
    assert result.estimate == pytest.approx(exact["estimate"], rel=REFERENCE_RTOL)
    assert result.training_error == pytest.approx(exact["training_error"], rel=REFERENCE_RTOL)
    assert result.oob_error == pytest.approx(exact["oob_error"], rel=REFERENCE_RTOL)
    if method == ".632+":
        assert result.no_information_error == pytest.approx(
            exact["no_information_error"], rel=REFERENCE_RTOL
        )
        assert result.relative_overfitting_rate == pytest.approx(
            exact["relative_overfitting_rate"], rel=REFERENCE_RTOL, abs=1e-15
        )


def test_callable_loss_gamma_uses_all_pairs():
    """A callable loss takes the generic all-pairs path for gamma; with the squared
    loss written as a callable it must agree with the built-in closed form."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 1))
    y = X[:, 0] + rng.normal(size=40)

    def squared(y_true, y_pred):
        return (y_true - y_pred) ** 2

    model = lambda: KNeighborsRegressor(n_neighbors=1)  # noqa: E731
    built_in = bootstrap_632(model, X, y, n_resamples=20, method=".632+", loss="squared", rng=1)
    generic = bootstrap_632(model, X, y, n_resamples=20, method=".632+", loss=squared, rng=1)
    assert generic.loss == "squared"
    assert generic.no_information_error == pytest.approx(built_in.no_information_error, rel=1e-12)
    assert generic.estimate == pytest.approx(built_in.estimate, rel=1e-12)


# --- Reproducibility, models, result. ---


def test_same_seed_same_result_and_generators_work():
    y = np.array([0, 1, 0, 1, 1, 0, 1, 1])
    first = bootstrap_632(Memorizer(1), _x(8), y, n_resamples=15, rng=123)
    second = bootstrap_632(Memorizer(1), _x(8), y, n_resamples=15, rng=123)
    np.testing.assert_array_equal(first.oob_errors, second.oob_errors)
    assert first.rng_seed == 123 and first.estimate == second.estimate
    X = np.random.default_rng(0).normal(size=(8, 1))
    a = bootstrap_632(KNeighborsClassifier(1), X, y, n_resamples=15, rng=np.random.default_rng(5))
    b = bootstrap_632(KNeighborsClassifier(1), X, y, n_resamples=15, rng=np.random.default_rng(5))
    np.testing.assert_array_equal(a.oob_errors, b.oob_errors)
    other = bootstrap_632(KNeighborsClassifier(1), X, y, n_resamples=15, rng=6)
    assert not np.array_equal(a.oob_errors, other.oob_errors)


def test_models_instance_class_and_factory_agree_and_instance_stays_unfitted():
    y = np.array([0, 1, 0, 1, 1, 0, 1, 1, 0, 0])
    X = np.random.default_rng(1).normal(size=(10, 2))
    instance = LogisticRegression()
    by_instance = bootstrap_632(instance, X, y, n_resamples=10, rng=4)
    by_class = bootstrap_632(LogisticRegression, X, y, n_resamples=10, rng=4)
    by_factory = bootstrap_632(lambda: LogisticRegression(), X, y, n_resamples=10, rng=4)
    assert by_instance.estimate == by_class.estimate == by_factory.estimate
    assert not hasattr(instance, "coef_")


def test_result_fields_and_serialisation():
    y = np.array([0, 0, 1, 1, 1])
    result = bootstrap_632(Memorizer(0), _x(5), y, n_resamples=30, method=".632+", rng=1)
    assert isinstance(result, Bootstrap632Result)
    assert result.n_resamples == 30 and result.n_samples == 5
    assert result.oob_errors.shape == (30,)
    assert result.method == ".632+" and result.loss == "zero_one"
    with pytest.raises(ValueError, match="read-only"):
        result.oob_errors[0] = 0.0
    assert result.to_dict()["no_information_error"] == pytest.approx(0.48)


# --- Degenerate resamples. ---


def test_resample_without_out_of_bag_rows_is_skipped():
    # Seed 1 draws both of the 2 rows in its first resample (found by enumeration):
    # no out-of-bag row, no fit, NaN in oob_errors, and Err^(1) is undefined.
    y = np.array([0, 1])
    with pytest.warns(DegenerateDataWarning, match="No row was out of bag"):
        result = bootstrap_632(Constant(1), _x(2), y, n_resamples=1, rng=1)
    assert np.isnan(result.oob_errors[0]) and np.isnan(result.oob_error)
    assert np.isnan(result.estimate) and result.n_never_oob == 2
    with pytest.warns(DegenerateDataWarning, match="No row was out of bag"):
        plus = bootstrap_632(Constant(1), _x(2), y, n_resamples=1, method=".632+", rng=1)
    assert np.isnan(plus.estimate) and np.isnan(plus.relative_overfitting_rate)


def test_rows_never_out_of_bag_are_left_out_with_a_warning():
    # Seed 0 draws rows (1, 1) of 2: row 0 is out of bag, row 1 never is.
    y = np.array([0, 1])
    with pytest.warns(DegenerateDataWarning, match="1 of 2 rows were in every one"):
        result = bootstrap_632(Constant(1), _x(2), y, n_resamples=1, method="oob", rng=0)
    assert result.n_never_oob == 1
    assert result.oob_error == 1.0  # row 0 (label 0) predicted 1


def test_no_warning_in_the_ordinary_case():
    y = np.array([0, 1, 1, 0, 1, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bootstrap_632(Constant(1), _x(6), y, n_resamples=100, rng=0)


# --- Errors. ---


class NoPredict:
    def fit(self, X, y):
        return self


class WrongShape:
    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.zeros((len(X), 2))


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"method": ".5"}, ValueError, "`method` must be one of"),
        ({"loss": "hinge"}, ValueError, "`loss` must be one of"),
        ({"loss": 3}, ValueError, "`loss` must be one of 'zero_one'"),
        ({"n_resamples": 0}, ValueError, "`n_resamples` must be an integer >= 1"),
        ({"n_resamples": 2.0}, ValueError, "`n_resamples` must be an integer >= 1"),
        ({"y": [0, 1, 1]}, ValueError, "`X` and `y` have different lengths: 4 and 3"),
        ({"X": _x(1), "y": [1]}, ValueError, "at least 2 rows"),
        ({"y": [[0, 1], [1, 0], [0, 1], [1, 1]]}, ValueError, "`y` must be 1-D"),
        ({"model": NoPredict()}, TypeError, "`model` must have fit and predict"),
        ({"model": lambda: 3}, TypeError, "returned \\(int\\) has no fit and predict"),
        ({"model": WrongShape()}, ValueError, "predictions have shape \\(4, 2\\)"),
        ({"loss": lambda a, b: np.zeros(1)}, ValueError, "one loss per row"),
        ({"loss": lambda a, b: np.full(a.shape, np.inf)}, ValueError, "NaN or infinite"),
        ({"rng": -3}, ValueError, "`rng` must be None"),
    ],
)
def test_errors(kwargs, error, message):
    arguments = {"model": Constant(1), "X": _x(4), "y": [0, 1, 1, 0]}
    arguments.update(kwargs)
    model, X, y = arguments.pop("model"), arguments.pop("X"), arguments.pop("y")
    with pytest.raises(error, match=message):
        bootstrap_632(model, X, y, n_resamples=arguments.pop("n_resamples", 3), **arguments)
