"""assay.bias_variance: the Monte Carlo driver (compiled and Python paths), Figure 5, errors."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor

import assay
from assay.protocols import (
    KNNClassifier,
    KNNRegressor,
    PolynomialExample,
    PolynomialRegression,
    Ridge,
    TwoGaussiansExample,
    bias_variance,
)
from assay.protocols._bias_variance import _bootstrap_indices

# Two least squares solvers (Householder QR here, scikit-learn's lstsq) agree to a few
# hundred ulps of the predictions for these well-conditioned small fits.
SOLVER_TOLERANCE = 1e-9

X_TEST = np.linspace(-3, 3, 61)


class NumpyPolynomial:
    """A plain fit/predict model: numpy.polyfit of a fixed degree."""

    def __init__(self, degree):
        self.degree = degree

    def fit(self, X, y):
        self.coefficients = np.polyfit(X[:, 0], y, self.degree)
        return self

    def predict(self, X):
        return np.polyval(self.coefficients, X[:, 0])


def uniform_noise_generator(n, rng):
    x = rng.uniform(-3, 3, size=(n, 1))
    return x, np.sin(x[:, 0]) + rng.normal(0, 0.3, n)


def test_figure_5_ordering():
    """Wu, "Evaluation", section 4.3, Figure 5: degree 1 has the largest bias, degree 15
    the largest variance, largest near both ends of the x range (fixed seed)."""
    results = {
        degree: bias_variance(
            PolynomialRegression(degree), PolynomialExample(), X_TEST, n_rounds=100, rng=5
        )
        for degree in (1, 2, 15)
    }
    bias = {d: r.average_bias for d, r in results.items()}
    variance = {d: r.average_variance for d, r in results.items()}
    assert bias[1] > 100 * max(bias[2], bias[15])
    assert variance[15] > 5 * max(variance[1], variance[2])
    ends = results[15].variance[[0, -1]]
    middle = results[15].variance[25:36]  # x in [-0.5, 0.5]
    assert ends.min() > 100 * middle.max()
    for degree in (1, 2):
        assert ends.min() > 50 * results[degree].variance[[0, -1]].max()
    for result in results.values():  # eq. 28 adds up; sigma^2 = 1
        np.testing.assert_allclose(
            result.expected_loss, result.bias + result.variance + 1.0, rtol=1e-12
        )
        np.testing.assert_array_equal(result.noise, 1.0)


def test_degree_1_mean_model_is_the_population_least_squares_line():
    """Hand-worked: F(x) = 3x^2 - 8.2x + 5.72 (eq. 4 expanded); for x ~ U(-3, 3) the
    least squares line is 5.72 + 3 E[x^2] - 8.2x = 14.72 - 8.2x (E[x^2] = 3, E[x^3] = 0),
    so the squared bias is (3x^2 - 9)^2: 81 at x = 0, 324 at x = +-3, 69.2262 averaged
    over the 61 grid points.  1000 rounds: Monte Carlo error below 0.1 (4 standard
    errors at the ends), plus the O(1/n_train) gap between E[OLS] and the population line."""
    result = bias_variance(
        PolynomialRegression(1), PolynomialExample(), X_TEST, n_rounds=1000, rng=5
    )
    np.testing.assert_allclose(result.main_prediction, 14.72 - 8.2 * X_TEST, atol=0.25)
    assert result.average_bias == pytest.approx(69.2262, rel=0.01)


def test_compiled_learner_equals_python_model_on_the_same_training_sets():
    compiled, first = bias_variance(
        PolynomialRegression(1), PolynomialExample(), X_TEST, n_rounds=20, rng=3,
        return_predictions=True,
    )  # fmt: skip
    python, second = bias_variance(
        LinearRegression(), PolynomialExample(), X_TEST, n_rounds=20, rng=3,
        return_predictions=True,
    )  # fmt: skip
    np.testing.assert_allclose(first, second, rtol=SOLVER_TOLERANCE, atol=SOLVER_TOLERANCE)
    assert compiled.average_bias == pytest.approx(python.average_bias, rel=1e-9)


def test_python_generator_compiled_and_python_learners_agree():
    _, compiled = bias_variance(
        PolynomialRegression(3), uniform_noise_generator, X_TEST, n_rounds=10, rng=8,
        truth=np.sin(X_TEST), return_predictions=True,
    )  # fmt: skip
    _, python = bias_variance(
        NumpyPolynomial(3), uniform_noise_generator, X_TEST, n_rounds=10, rng=8,
        truth=np.sin(X_TEST), return_predictions=True,
    )  # fmt: skip
    np.testing.assert_allclose(compiled, python, rtol=1e-8, atol=1e-8)


def test_python_rounds_use_generators_keyed_by_seed_and_round():
    seen = []

    def generator(n, rng):
        seen.append(rng.integers(0, 2**62))
        return uniform_noise_generator(n, rng)

    bias_variance(LinearRegression, generator, X_TEST, n_rounds=3, rng=4, truth=X_TEST)
    expected = [np.random.default_rng([4, r]).integers(0, 2**62) for r in range(3)]
    assert seen == expected


def test_n_jobs_does_not_change_the_result():
    _, one = bias_variance(
        LinearRegression(), uniform_noise_generator, X_TEST, n_rounds=12, rng=2,
        truth=np.sin(X_TEST), return_predictions=True,
    )  # fmt: skip
    _, two = bias_variance(
        LinearRegression(), uniform_noise_generator, X_TEST, n_rounds=12, rng=2,
        truth=np.sin(X_TEST), n_jobs=2, return_predictions=True,
    )  # fmt: skip
    np.testing.assert_array_equal(one, two)


def test_knn_classifier_matches_scikit_learn_and_uses_the_bayes_label():
    x_test = np.linspace(-2, 2, 21)
    generator = TwoGaussiansExample()
    compiled, first = bias_variance(
        KNNClassifier(5), generator, x_test, loss="zero_one", n_rounds=15, n_train=40,
        rng=1, return_predictions=True,
    )  # fmt: skip
    _, second = bias_variance(
        KNeighborsClassifier(5), generator, x_test, loss="zero_one", n_rounds=15,
        n_train=40, rng=1, return_predictions=True,
    )  # fmt: skip
    np.testing.assert_array_equal(first, second)  # continuous x: no ties in distance
    assert set(np.unique(first)) <= {0.0, 1.0}
    assert compiled.target == "truth"
    np.testing.assert_array_equal(compiled.main_prediction, (x_test > 0).astype(float))


def test_knn_regressor_matches_scikit_learn():
    _, first = bias_variance(
        KNNRegressor(4), PolynomialExample(), X_TEST, n_rounds=8, rng=6,
        return_predictions=True,
    )  # fmt: skip
    _, second = bias_variance(
        KNeighborsRegressor(4), PolynomialExample(), X_TEST, n_rounds=8, rng=6,
        return_predictions=True,
    )  # fmt: skip
    np.testing.assert_allclose(first, second, rtol=1e-13)


def test_ridge_shrinks_the_variance_of_degree_15():
    plain = bias_variance(
        PolynomialRegression(15), PolynomialExample(), X_TEST, n_rounds=50, rng=9
    )
    ridge = bias_variance(Ridge(15, 1.0), PolynomialExample(), X_TEST, n_rounds=50, rng=9)
    assert ridge.average_variance < plain.average_variance / 2


def test_bootstrap_fallback_trains_on_resampled_rows():
    generator = np.random.default_rng(0)
    x_train = generator.uniform(-3, 3, 30)
    y_train = np.sin(x_train) + generator.normal(0, 0.1, 30)
    _, predictions = bias_variance(
        NumpyPolynomial(2), None, X_TEST, X_train=x_train, y_train=y_train, n_train=None,
        n_rounds=5, rng=11, truth=np.sin(X_TEST), return_predictions=True,
    )  # fmt: skip
    indices = np.empty((5, 30), dtype=np.int64)
    _bootstrap_indices(np.uint64(11), 30, indices)
    for r in range(5):
        coefficients = np.polyfit(x_train[indices[r]], y_train[indices[r]], 2)
        np.testing.assert_allclose(predictions[r], np.polyval(coefficients, X_TEST), rtol=1e-12)


def test_same_seed_same_result_and_top_level_name():
    first = assay.bias_variance(KNNRegressor(3), PolynomialExample(), X_TEST, rng=12)
    second = bias_variance(KNNRegressor(3), PolynomialExample(), X_TEST, rng=12)
    np.testing.assert_array_equal(first.variance, second.variance)


def test_spec_objects_are_callable_generators():
    x, y = PolynomialExample(noise_sd=0.0)(50, 0)
    np.testing.assert_allclose(y, assay.protocols.polynomial_truth(x[:, 0]))
    assert x.shape == (50, 1) and x.min() >= -3 and x.max() <= 3
    x, labels = TwoGaussiansExample()(50, 0)
    assert set(np.unique(labels)) <= {0.0, 1.0}


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: bias_variance(PolynomialRegression(1), PolynomialExample(), X_TEST, n_rounds=1),
         ValueError, r"`n_rounds` must be an integer >= 2; got 1"),
        (lambda: bias_variance(object(), PolynomialExample(), X_TEST),
         TypeError, r"`learner` must be a built-in learner"),
        (lambda: bias_variance(lambda: object(), PolynomialExample(), X_TEST, n_rounds=2),
         TypeError, r"has no fit/predict methods"),
        (lambda: bias_variance(PolynomialRegression(1), PolynomialExample(), X_TEST, loss="hinge"),
         ValueError, r"`loss` must be one of"),
        (lambda: bias_variance(PolynomialRegression(1), None, X_TEST, X_train=[1.0, 2.0, 3.0],
                               y_train=[1.0, 2.0], truth=X_TEST),
         ValueError, r"`X_train` and `y_train` have different lengths: 3 and 2"),
        (lambda: bias_variance(PolynomialRegression(1), None, X_TEST),
         ValueError, r"pass `X_train` and `y_train`"),
        (lambda: bias_variance(PolynomialRegression(1), lambda n, rng: (np.zeros((n - 1, 1)),
                               np.zeros(n - 1)), X_TEST, truth=X_TEST),
         ValueError, r"must return n = 100 rows of X and of y; got 99 and 99"),
        (lambda: bias_variance(PolynomialRegression(1), lambda n, rng: np.zeros(n), X_TEST,
                               truth=X_TEST),
         ValueError, r"must return a pair \(X, y\)"),
        (lambda: bias_variance(PolynomialRegression(1), "data", X_TEST),
         TypeError, r"`generator` must be PolynomialExample"),
        (lambda: bias_variance(KNNClassifier(3), PolynomialExample(), X_TEST),
         ValueError, r"KNNClassifier needs class labels"),
        (lambda: bias_variance(KNNRegressor(3), TwoGaussiansExample(), X_TEST),
         ValueError, r"KNNRegressor is a regression learner"),
        (lambda: bias_variance(PolynomialRegression(15), PolynomialExample(), X_TEST, n_train=15),
         ValueError, r"degree 15 needs `n_train` > degree; got n_train=15"),
        (lambda: bias_variance(KNNRegressor(30), PolynomialExample(), X_TEST, n_train=20),
         ValueError, r"`n_neighbors`=30 exceeds the training-set size n_train=20"),
        (lambda: bias_variance(PolynomialRegression(1), PolynomialExample(), np.ones((3, 2))),
         ValueError, r"polynomial learners take one feature; `X_test` has 2 columns"),
        (lambda: bias_variance(PolynomialRegression(1), PolynomialExample(), [np.nan, 1.0]),
         ValueError, r"`X_test` contains 1 NaN"),
        (lambda: bias_variance(LinearRegression(), uniform_noise_generator, X_TEST),
         ValueError, r"`y_test` and `truth` are both None"),
        (lambda: bias_variance(PolynomialRegression(1), PolynomialExample(), X_TEST, n_train=0),
         ValueError, r"`n_train` must be an integer >= 1; got 0"),
        (lambda: PolynomialRegression(-1), ValueError, r"`degree` must be an integer >= 0"),
        (lambda: Ridge(3, 0.0), ValueError, r"`alpha` must be a positive finite number; got 0.0"),
        (lambda: KNNRegressor(0), ValueError, r"`n_neighbors` must be an integer >= 1; got 0"),
        (lambda: PolynomialExample(x_range=(1, 1)), ValueError, r"`x_range` must be two finite"),
        (lambda: TwoGaussiansExample(prior=1.0), ValueError, r"`prior` must be in \(0, 1\)"),
    ],
)  # fmt: skip
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
