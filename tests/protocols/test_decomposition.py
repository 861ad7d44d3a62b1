"""Tests of assay.decompose: the bias-variance decomposition of a prediction matrix."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assay import decompose
from assay import reference as ref
from assay._results import BiasVarianceResult
from assay.protocols import polynomial_regression_data

# The squared-loss terms are recomputed from the same rounded inputs in a different
# order; each term carries a few roundings of its own size, so they add up to the
# directly computed loss to within a small multiple of the double-precision epsilon.
IDENTITY_RTOL = 1e-12
# Float results against the exact-fraction reference: a handful of roundings.
REFERENCE_RTOL = 1e-12


def _values() -> st.SearchStrategy[float]:
    """Tied values, small integers or continuous floats (no subnormals)."""
    return st.one_of(
        st.sampled_from([-1.5, -0.0, 0.0, 0.1, 0.25, 1.0, 3.0]),
        st.integers(-5, 5).map(float),
        st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False, allow_subnormal=False),
        st.floats(1e8, 1e8 + 1.0, allow_nan=False, allow_infinity=False),
    )


@st.composite
def prediction_problems(draw: st.DrawFn, labels: bool = False):
    n_rounds = draw(st.integers(2, 12))
    n_points = draw(st.integers(1, 6))
    elements = st.sampled_from([0.0, 1.0, 2.0]) if labels else _values()
    predictions = draw(hnp.arrays(np.float64, (n_rounds, n_points), elements=elements))
    y_true = draw(hnp.arrays(np.float64, n_points, elements=elements))
    truth = draw(st.none() | hnp.arrays(np.float64, n_points, elements=elements))
    if truth is not None and draw(st.booleans()):
        y_true = None  # the decomposition against the truth alone
    return predictions, y_true, truth


def _close(actual, expected, rtol=REFERENCE_RTOL, atol=0.0):
    np.testing.assert_allclose(
        np.asarray(actual, float), np.asarray(expected, float), rtol=rtol, atol=atol
    )


# --- The squared-loss identity, exactly as floating point allows. ---


@given(prediction_problems())
def test_squared_terms_add_up_to_the_expected_loss(problem):
    predictions, y_true, truth = problem
    result = decompose(predictions, y_true, truth=truth)
    total = result.noise + result.bias + result.variance
    # All terms are non-negative: the relative error of the sum is that of the terms.
    _close(total, result.expected_loss, rtol=IDENTITY_RTOL, atol=1e-300)
    _close(
        result.average_noise + result.average_bias + result.average_variance,
        result.average_expected_loss,
        rtol=IDENTITY_RTOL,
        atol=1e-300,
    )


def test_squared_identity_survives_large_offsets():
    # Values near 1e8 whose spread is a few ulps: a naive (y - mean)^2 + var loses all
    # digits here, because the rounded mean is off by up to half an ulp of 1e8.
    base = 1e8
    ulp = np.spacing(base)
    predictions = base + ulp * np.array([[0.0, 1.0], [1.0, 3.0], [1.0, 0.0]])
    y_true = np.array([base, base + 2 * ulp])
    result = decompose(predictions, y_true)
    _close(result.bias + result.variance, result.expected_loss, rtol=IDENTITY_RTOL)
    exact = ref.decompose(predictions, y_true)
    _close(result.expected_loss, exact["expected_loss"])
    _close(result.variance, exact["variance"], rtol=1e-9)


# --- Against the reference (exact fractions). ---


@pytest.mark.parametrize("loss", ["squared", "absolute"])
@given(problem=prediction_problems())
def test_regression_losses_match_the_reference(loss, problem):
    predictions, y_true, truth = problem
    result = decompose(predictions, y_true, loss=loss, truth=truth)
    exact = ref.decompose(predictions, y_true, loss=loss, truth=truth)
    given = [predictions.ravel()] + [v for v in (y_true, truth) if v is not None]
    scale = float(np.max(np.abs(np.concatenate(given))) + 1.0)
    # Squared terms are differences of values up to `scale`: absolute error ~ eps scale^2.
    atol = 1e-14 * (scale * scale if loss == "squared" else scale)
    for name in ("main_prediction", "expected_loss", "bias", "variance", "noise", "net_variance"):
        _close(getattr(result, name), exact[name], atol=atol)
    if y_true is None:
        assert result.observed_loss is None and exact["observed_loss"] is None
    else:
        _close(result.observed_loss, exact["observed_loss"], atol=atol)
    assert result.unbiased_variance is None and result.variance_coefficient is None


@given(prediction_problems(labels=True))
def test_zero_one_matches_the_reference(problem):
    predictions, y_true, truth = problem
    result = decompose(predictions, y_true, loss="zero_one", truth=truth)
    exact = ref.decompose(predictions, y_true, loss="zero_one", truth=truth)
    for name in (
        "main_prediction",
        "expected_loss",
        "bias",
        "variance",
        "noise",
        "net_variance",
        "unbiased_variance",
        "biased_variance",
        "noise_coefficient",
        "variance_coefficient",
    ):
        _close(getattr(result, name), exact[name], atol=1e-15)
    if y_true is None:
        assert result.observed_loss is None
    else:
        _close(result.observed_loss, exact["observed_loss"], atol=1e-15)
    for name in ("expected_loss", "bias", "variance", "noise", "net_variance"):
        _close(getattr(result, "average_" + name), exact["average_" + name], atol=1e-15)


@given(prediction_problems(labels=True))
def test_domingos_theorem_holds_at_every_point(problem):
    """E[L] = c1 N + B + c2 V (Domingos 2000, theorems 2 and 3), with and without noise."""
    predictions, y_true, truth = problem
    result = decompose(predictions, y_true, loss="zero_one", truth=truth)
    rebuilt = (
        result.noise_coefficient * result.noise
        + result.bias
        + result.variance_coefficient * result.variance
    )
    _close(rebuilt, result.expected_loss, atol=1e-15)
    if truth is None:
        _close(result.bias + result.net_variance, result.expected_loss, atol=1e-15)


@given(prediction_problems())
def test_absolute_loss_bounds(problem):
    """No additive identity: variance <= loss <= bias + variance (median; triangle)."""
    predictions, y_true, truth = problem
    result = decompose(predictions, y_true, loss="absolute", truth=truth)
    slack = 1e-12 * (1.0 + np.abs(result.expected_loss))
    assert np.all(result.variance <= result.expected_loss + slack)
    assert np.all(result.expected_loss <= result.bias + result.variance + slack)
    _close(result.net_variance, result.expected_loss - result.bias)
    assert np.all(np.abs(result.net_variance) <= result.variance + slack)


# --- Hand-worked examples. ---


def test_two_class_example_from_domingos_definitions():
    """Three test points, ten rounds, classes {0, 1}; every number worked by hand.

    Not a table from Domingos (2000) (the paper states its theorems without a numeric
    example); the values follow from his definitions:
    A: y* = t = 1, 7 ones / 3 zeros: y_m = 1, B = 0, V = 0.3, loss 0.3 = B + V.
    B: y* = t = 1, 4 ones / 6 zeros: y_m = 0, B = 1, V = 0.4, loss 0.6 = B - V.
    C: y* = 0, t = 1 (noise N = 1), 8 zeros / 2 ones: y_m = 0, B = 0, V = 0.2,
       c1 = 2 P(f = y*) - 1 = 0.6, loss P(f != 1) = 0.8 = c1 N + B + V.
    """
    column_a = [1] * 7 + [0] * 3
    column_b = [1] * 4 + [0] * 6
    column_c = [0] * 8 + [1] * 2
    predictions = np.array([column_a, column_b, column_c], dtype=float).T
    result = decompose(predictions, [1, 1, 1], loss="zero_one", truth=[1, 1, 0])
    _close(result.main_prediction, [1, 0, 0])
    _close(result.bias, [0, 1, 0])
    _close(result.variance, [0.3, 0.4, 0.2])
    _close(result.noise, [0, 0, 1])
    _close(result.expected_loss, [0.3, 0.6, 0.8])
    _close(result.unbiased_variance, [0.3, 0.0, 0.2])
    _close(result.biased_variance, [0.0, 0.4, 0.0])
    _close(result.net_variance, [0.3, -0.4, 0.2])
    _close(result.variance_coefficient, [1, -1, 1])
    _close(result.noise_coefficient[2], 0.6)
    # Averages: loss 1.7/3 = c1 N 0.6/3 + B 1/3 + (V_u - V_b) (0.5 - 0.4)/3.
    assert result.average_expected_loss == pytest.approx(1.7 / 3, rel=1e-15)
    assert result.average_bias == pytest.approx(1 / 3, rel=1e-15)
    assert result.average_unbiased_variance == pytest.approx(0.5 / 3, rel=1e-15)
    assert result.average_biased_variance == pytest.approx(0.4 / 3, rel=1e-15)
    assert result.average_net_variance == pytest.approx(0.1 / 3, rel=1e-14)
    assert result.target == "truth"


def test_multiclass_variance_coefficient():
    """y* = t = 0; predictions 2 x5, 0 x3, 1 x2: y_m = 2, B = 1, V = 0.5,
    c2 = -P(f = 0 | f != 2) = -3/5, loss P(f != 0) = 0.7 = 1 - 0.6 * 0.5 (Domingos'
    multi-class theorem, worked by hand)."""
    predictions = np.array([[2] * 5 + [0] * 3 + [1] * 2], dtype=float).T
    result = decompose(predictions, [0], loss="zero_one")
    assert result.main_prediction[0] == 2
    assert result.variance_coefficient[0] == pytest.approx(-0.6, rel=1e-15)
    assert result.expected_loss[0] == pytest.approx(0.7, rel=1e-15)
    assert result.net_variance[0] == pytest.approx(-0.3, rel=1e-15)


def test_mode_ties_go_to_the_smallest_label():
    predictions = np.array([[0.0], [1.0]])
    result = decompose(predictions, [1.0], loss="zero_one")
    assert result.main_prediction[0] == 0.0
    assert result.bias[0] == 1.0


def test_squared_hand_worked():
    """Rounds (1, 3) at a point with y = 2 and (2, 2) with y = 0: mean 2, 2;
    bias (2-2)^2 = 0 and (0-2)^2 = 4; variance 1 and 0; loss 1 and 4."""
    result = decompose([[1.0, 2.0], [3.0, 2.0]], [2.0, 0.0])
    _close(result.bias, [0.0, 4.0])
    _close(result.variance, [1.0, 0.0])
    _close(result.expected_loss, [1.0, 4.0])
    assert result.average_expected_loss == 2.5
    assert result.target == "y_true"
    _close(result.noise, [0.0, 0.0])


def test_squared_with_truth_and_given_noise():
    """F = (0, 1), rounds (1, 1) and (-1, 3): means (0, 2), bias (0, 1), variance
    (1, 1); sigma^2 = 0.5 gives expected loss (1.5, 2.5)."""
    predictions = [[1.0, 1.0], [-1.0, 3.0]]
    result = decompose(predictions, None, truth=[0.0, 1.0], noise_variance=0.5)
    _close(result.bias, [0.0, 1.0])
    _close(result.variance, [1.0, 1.0])
    _close(result.noise, [0.5, 0.5])
    _close(result.expected_loss, [1.5, 2.5])
    assert result.observed_loss is None and result.average_observed_loss is None
    # Noise estimated from one label per point: (y - F)^2.
    estimated = decompose(predictions, [2.0, 1.0], truth=[0.0, 1.0])
    _close(estimated.noise, [4.0, 0.0])
    _close(estimated.observed_loss, [5.0, 2.0])
    # Per-point noise variances.
    per_point = decompose(predictions, None, truth=[0.0, 1.0], noise_variance=[0.0, 2.0])
    _close(per_point.expected_loss, [1.0, 4.0])


def test_absolute_median_of_an_even_count_is_the_midpoint():
    result = decompose([[0.0], [1.0], [3.0], [10.0]], [0.0], loss="absolute")
    assert result.main_prediction[0] == 2.0
    # bias |0 - 2| = 2, variance (2 + 1 + 1 + 8) / 4 = 3, loss (0 + 1 + 3 + 10) / 4 = 3.5
    assert (result.bias[0], result.variance[0], result.expected_loss[0]) == (2.0, 3.0, 3.5)


def test_eq28_with_a_constant_learner():
    """Wu, "Evaluation", eq. 28, checked by simulation: a learner that predicts the mean
    label of its training set has E f = E[F(x)] + 0 and Var f = (Var F(x) + 1) / n
    (x uniform on [-3, 3), noise N(0, 1)).  E[F(x)] and Var F(x) are computed by
    numerical integration; the Monte Carlo tolerance is 5 standard errors."""
    n_train, n_rounds = 10, 4000
    rng = np.random.default_rng(20240611)
    rows = []
    for _ in range(n_rounds):
        _, y, _ = polynomial_regression_data(n_train, rng=rng)
        rows.append(np.full(3, y.mean()))
    predictions = np.array(rows)
    x_test = np.array([-2.0, 0.2, 2.5])
    grid = np.linspace(-3.0, 3.0, 200_001)
    values = 3 * (grid - 0.2) ** 2 - 7 * (grid - 0.2) + 4.2
    mean_f, var_f = values.mean(), values.var()
    truth = 3 * (x_test - 0.2) ** 2 - 7 * (x_test - 0.2) + 4.2
    result = decompose(predictions, None, truth=truth, noise_variance=1.0)
    variance = (var_f + 1.0) / n_train
    _close(result.main_prediction, np.full(3, mean_f), atol=5 * np.sqrt(variance / n_rounds))
    _close(result.variance, np.full(3, variance), rtol=5 * np.sqrt(2 / n_rounds) * 1.5)
    _close(result.bias, (truth - result.main_prediction) ** 2, rtol=1e-12)


# --- Result object and errors. ---


def test_result_is_frozen_and_serialisable():
    result = decompose([[1.0, 2.0], [3.0, 2.0]], [2.0, 0.0], loss="zero_one")
    assert isinstance(result, BiasVarianceResult)
    with pytest.raises(AttributeError):
        result.loss = "squared"  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        result.bias[0] = 1.0
    data = result.to_dict()
    assert data["loss"] == "zero_one" and data["n_rounds"] == 2 and data["n_points"] == 2
    assert "BiasVarianceResult(" in repr(result)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"predictions": [1.0, 2.0]}, "`predictions` must be 2-D"),
        ({"predictions": [[1.0, 2.0]]}, "at least 2 rows"),
        ({"predictions": [[1.0, np.nan], [1.0, 2.0]]}, "`predictions` contains 1 NaN"),
        ({"predictions": [["a", "b"], ["c", "d"]]}, "`predictions` must be numeric"),
        ({"y_true": [1.0]}, r"`y_true` must have one value per test point .*expected 2, got 1"),
        ({"y_true": None}, "`y_true` and `truth` are both None"),
        ({"truth": [1.0, 2.0, 3.0]}, "`truth` must have one value per test point"),
        ({"loss": "hinge"}, "`loss` must be one of"),
        ({"noise_variance": 1.0}, "`noise_variance` needs `truth`"),
        (
            {"noise_variance": 1.0, "truth": [0.0, 0.0], "loss": "zero_one"},
            "`noise_variance` applies to loss='squared' only",
        ),
        ({"noise_variance": -1.0, "truth": [0.0, 0.0]}, "`noise_variance` must be non-negative"),
        (
            {"noise_variance": [1.0, 2.0, 3.0], "truth": [0.0, 0.0]},
            "`noise_variance` must have one value per test point",
        ),
        (
            {"predictions": [[0.9, 0.2], [1.0, 0.0]], "y_true": [1, 0], "loss": "zero_one"},
            r"^`predictions` holds continuous values \(e\.g\. 0\.9\): scores or probabilities, "
            r"not class labels; threshold them first \(e\.g\. `score >= 0\.5`\)",
        ),
        (
            {"predictions": [[1, 0], [1, 0]], "y_true": [0.5, 0], "loss": "zero_one"},
            r"^`y_true` holds continuous values \(e\.g\. 0\.5\); this metric needs class",
        ),
        (
            {"predictions": [[1, 0], [1, 0]], "truth": [1, 0.25], "loss": "zero_one"},
            r"^`truth` holds continuous values \(e\.g\. 0\.25\)",
        ),
    ],
)
def test_errors(kwargs, message):
    arguments = {"predictions": [[1.0, 2.0], [3.0, 2.0]], "y_true": [2.0, 0.0]}
    arguments.update(kwargs)
    predictions = arguments.pop("predictions")
    y_true = arguments.pop("y_true")
    with pytest.raises(ValueError, match=message):
        decompose(predictions, y_true, **arguments)
