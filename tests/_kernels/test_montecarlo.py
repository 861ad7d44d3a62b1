"""Kernels of the bias-variance Monte Carlo (assay._kernels.montecarlo).

Oracles: numpy's least squares (``numpy.polynomial.legendre.legfit``, ``numpy.polyfit``,
``numpy.linalg.lstsq``), brute-force k-NN with a stable sort, and a slow Python loop that
draws from the same counter-based streams (``assay._kernels._rng``) with the Box-Muller
formula written out.
"""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.polynomial import legendre
from scipy import stats

from assay._kernels import montecarlo as mc
from assay._kernels._rng import _next_positive_double, next_double, stream
from assay.protocols import polynomial_truth

ALPHA = 1e-3  # chance that a correct normal sampler fails one goodness-of-fit test
# Least squares on a well-conditioned basis: predictions agree with an SVD solution to a
# few hundred ulps of the values (the design's condition number is below 1e3 here).
FIT_TOLERANCE = 1e-10


def fit_and_predict(x, y, x_test, degree, alpha=0.0, low=-3.0, high=3.0):
    system = np.empty((x.shape[0] + (degree if alpha > 0 else 0), degree + 2))
    coefficients = np.empty(degree + 1)
    mc.polynomial_fit(
        x, y, low, high, degree, alpha, system, coefficients, np.empty(degree + 2),
        np.empty(degree + 1), np.empty((degree + 1, degree + 1)), np.empty(degree + 1),
    )  # fmt: skip
    basis = mc.test_basis_for(mc.LEAST_SQUARES, x_test[:, None], low, high, degree)
    out = np.empty(x_test.shape[0])
    mc.polynomial_predict(coefficients, basis, out)
    return coefficients, out


def test_normal_pair_moments_and_distribution():
    state = stream(20261126, 0)
    values = np.empty(20_000)
    state = mc.fill_normals(values, state)
    n = values.shape[0]
    assert abs(values.mean()) < 4 / math.sqrt(n)  # 4 standard errors
    assert abs(values.var() - 1.0) < 4 * math.sqrt(2 / n)
    assert abs(stats.skew(values)) < 4 * math.sqrt(6 / n)
    assert abs(stats.kurtosis(values)) < 4 * math.sqrt(24 / n)
    assert stats.kstest(values, "norm").pvalue > ALPHA
    # the two halves of a pair are uncorrelated
    assert abs(np.corrcoef(values[0::2], values[1::2])[0, 1]) < 4 / math.sqrt(n / 2)


def test_fill_normals_odd_length_uses_first_of_a_pair():
    state = np.uint64(stream(5, 3))
    odd = np.empty(3)
    mc.fill_normals(odd, state)
    z0, z1, following = mc.normal_pair(state)
    z2, _, _ = mc.normal_pair(np.uint64(following))
    np.testing.assert_array_equal(odd, [z0, z1, z2])


def test_truth_matches_the_python_generator():
    x = np.linspace(-3, 3, 101)
    expected = polynomial_truth(x)
    np.testing.assert_allclose([mc.polynomial_truth(v) for v in x], expected, rtol=1e-15)


@pytest.mark.parametrize("degree", [0, 1, 2, 5, 15])
def test_least_squares_matches_numpy(degree):
    generator = np.random.default_rng(degree)
    x = generator.uniform(-3, 3, 100)
    y = polynomial_truth(x) + generator.standard_normal(100)
    x_test = np.linspace(-3, 3, 301)
    coefficients, predictions = fit_and_predict(x, y, x_test, degree)
    expected_coefficients = legendre.legfit(x / 3.0, y, degree)
    np.testing.assert_allclose(coefficients, expected_coefficients, rtol=0, atol=1e-9)
    expected = legendre.legval(x_test / 3.0, expected_coefficients)
    scale = np.abs(expected).max()
    assert np.abs(predictions - expected).max() <= FIT_TOLERANCE * scale
    # numpy.polyfit (monomials, column scaling, SVD): the same predictions, to its
    # own accuracy, about 1e-9 relative at degree 15 on [-3, 3]
    monomial = np.polyval(np.polyfit(x, y, degree), x_test)
    assert np.abs(predictions - monomial).max() <= 1e-7 * scale


def test_householder_qr_alone_matches_numpy():
    generator = np.random.default_rng(21)
    x = generator.uniform(-3, 3, 100)
    y = polynomial_truth(x) + generator.standard_normal(100)
    degree = 15
    system = np.empty((100, degree + 2))
    mc.legendre_basis(x, -3.0, 3.0, degree, system)
    system[:, degree + 1] = y
    basis = system[:, : degree + 1].copy()
    coefficients = np.empty(degree + 1)
    mc.least_squares_solve(system, coefficients, np.empty(degree + 2), np.empty(degree + 1))
    expected = np.linalg.lstsq(basis, y, rcond=None)[0]
    np.testing.assert_allclose(coefficients, expected, rtol=0, atol=1e-9)


def test_well_conditioned_fit_uses_the_normal_equations():
    generator = np.random.default_rng(4)
    x = generator.uniform(-3, 3, 100)
    system = np.empty((100, 17))
    mc.legendre_basis(x, -3.0, 3.0, 15, system)
    system[:, 16] = polynomial_truth(x)
    accepted = mc._corrected_normal_equations(
        system, 100, 0.0, np.empty((16, 16)), np.empty(16), np.empty(16), np.empty(17)
    )
    assert accepted


@pytest.mark.parametrize(("low", "degree"), [(-3.0, 15), (-1.0, 6), (-1.0, 7), (-1.0, 8)])
def test_normal_equations_and_qr_agree_near_the_switch(low, degree):
    # cond(B) (numpy.linalg.cond) = 36, 1.4e3, 4.9e3, 1.9e4: both sides of the switch
    # at cond(B) ~ 1e4 (estimated from cond_1(B^T B) <= 1e8), a factor 2 or more away
    generator = np.random.default_rng(8)
    x = generator.uniform(low, 3.0, 100)
    y = polynomial_truth(x) + generator.standard_normal(100)
    system = np.empty((100, degree + 2))
    mc.legendre_basis(x, -3.0, 3.0, degree, system)
    system[:, degree + 1] = y
    basis = system[:, : degree + 1].copy()
    p = degree + 1
    normal = np.empty(p)
    accepted = mc._corrected_normal_equations(
        system.copy(), 100, 0.0, np.empty((p, p)), normal, np.empty(p), np.empty(p + 1)
    )
    qr = np.empty(p)
    mc.least_squares_solve(system, qr, np.empty(p + 1), np.empty(p))
    if accepted:
        scale = np.abs(basis @ qr).max()
        assert np.abs(basis @ normal - basis @ qr).max() <= FIT_TOLERANCE * scale
    assert accepted == (np.linalg.cond(basis) < 1e4)


def test_ill_conditioned_fit_falls_back_to_qr():
    # points in [0, 3] only, of the basis interval [-3, 3]: cond(B) = 2.3e7 at degree 10
    generator = np.random.default_rng(8)
    x = generator.uniform(0.0, 3.0, 100)
    y = np.sin(4 * x) + 0.01 * generator.standard_normal(100)
    degree = 10
    system = np.empty((100, degree + 2))
    mc.legendre_basis(x, -3.0, 3.0, degree, system)
    basis = system[:, : degree + 1].copy()
    system[:, degree + 1] = y
    accepted = mc._corrected_normal_equations(
        system, 100, 0.0, np.empty((11, 11)), np.empty(11), np.empty(11), np.empty(12)
    )
    assert not accepted
    _, fitted = fit_and_predict(x, y, x, degree)
    expected = basis @ np.linalg.lstsq(basis, y, rcond=None)[0]
    # fitted values are well determined even where the coefficients are not: two
    # backward-stable solvers agree to about cond(B) * eps
    np.testing.assert_allclose(fitted, expected, rtol=0, atol=1e-8)


def test_ridge_matches_the_penalised_normal_equations():
    generator = np.random.default_rng(11)
    x = generator.uniform(-3, 3, 60)
    y = polynomial_truth(x) + generator.standard_normal(60)
    degree, alpha = 9, 2.5
    coefficients, _ = fit_and_predict(x, y, x[:3], degree, alpha=alpha)
    basis = legendre.legvander(x / 3.0, degree)
    penalty = alpha * np.eye(degree + 1)
    penalty[0, 0] = 0.0  # the intercept is not penalised
    expected = np.linalg.solve(basis.T @ basis + penalty, basis.T @ y)
    np.testing.assert_allclose(coefficients, expected, rtol=1e-10, atol=1e-12)


def test_rank_deficient_fit_is_finite_and_fits_the_group_means():
    # 3 distinct x values, degree 5: the dependent columns get coefficient 0 and the
    # fit still passes through the mean label of each distinct x.
    x = np.repeat([-1.0, 0.5, 2.0], 4)
    y = np.arange(12.0)
    _, predictions = fit_and_predict(x, y, np.array([-1.0, 0.5, 2.0]), 5)
    assert np.all(np.isfinite(predictions))
    np.testing.assert_allclose(predictions, [1.5, 5.5, 9.5], rtol=1e-9)


def brute_force_neighbours(x_train, point, k):
    distances = ((x_train - point) ** 2).sum(axis=1)
    return np.argsort(distances, kind="stable")[:k]  # ties: smaller index first


@pytest.mark.parametrize("k", [1, 2, 5, 20])
def test_knn_matches_brute_force_with_ties(k):
    generator = np.random.default_rng(k)
    x_train = generator.integers(0, 4, size=(20, 2)).astype(float)  # many equal distances
    y_train = generator.standard_normal(20)
    codes = generator.integers(0, 3, size=20).astype(float)
    x_test = generator.integers(0, 4, size=(15, 2)).astype(float) + 0.5 * (
        generator.random((15, 2)) < 0.5
    )
    distances, indices = np.empty(k), np.empty(k, dtype=np.int64)
    regression, classes = np.empty(15), np.empty(15)
    mc.knn_regress(x_train, y_train, x_test, k, distances, indices, regression)
    votes = np.empty(3, dtype=np.int64)
    mc.knn_classify(x_train, codes, 3, x_test, k, distances, indices, votes, classes)
    for j in range(15):
        chosen = brute_force_neighbours(x_train, x_test[j], k)
        assert regression[j] == pytest.approx(y_train[chosen].mean(), rel=1e-14, abs=1e-15)
        counts = np.bincount(codes[chosen].astype(int), minlength=3)
        assert classes[j] == np.argmax(counts)  # first maximum: the smallest code


def slow_monte_carlo(seed, n_rounds, n_train, degree, x_test, low=-3.0, high=3.0):
    """Python loop with the same draws: uniforms, then Box-Muller pairs, then lstsq."""
    predictions = np.empty((n_rounds, x_test.shape[0]))
    for r in range(n_rounds):
        state = stream(seed, r)
        x = np.empty(n_train)
        for i in range(n_train):
            u, state = next_double(np.uint64(state))
            x[i] = low + (high - low) * u
        normals = []
        while len(normals) < n_train:
            u, state = _next_positive_double(np.uint64(state))
            v, state = next_double(np.uint64(state))
            radius = math.sqrt(-2.0 * math.log(u))
            normals += [radius * math.cos(2 * math.pi * v), radius * math.sin(2 * math.pi * v)]
        y = polynomial_truth(x) + np.array(normals[:n_train])
        centre, width = low + high, high - low
        basis = legendre.legvander((2 * x - centre) / width, degree)
        coefficients = np.linalg.lstsq(basis, y, rcond=None)[0]
        predictions[r] = legendre.legval((2 * x_test - centre) / width, coefficients)
    return predictions


@pytest.mark.parametrize("degree", [1, 2, 15])
def test_monte_carlo_matches_a_slow_loop_on_the_same_streams(degree):
    x_test = np.linspace(-3, 3, 41)
    out = np.empty((6, 41))
    parameters = np.array([-3.0, 3.0, 1.0])
    mc.monte_carlo(
        np.uint64(99), 31, mc.POLYNOMIAL_DATA, parameters, mc.LEAST_SQUARES, degree, 0.0, 1,
        1, -3.0, 3.0, x_test[:, None], out, 2,
    )  # fmt: skip
    expected = slow_monte_carlo(99, 6, 31, degree, x_test)
    scale = np.abs(expected).max()
    assert np.abs(out - expected).max() <= FIT_TOLERANCE * scale


def run_monte_carlo(learner, generator, parameters, n_workers):
    x_test = np.linspace(-2, 2, 17)[:, None]
    out = np.empty((9, 17))
    degree = 15 if learner == mc.LEAST_SQUARES else 0
    mc.monte_carlo(
        np.uint64(7), 40, generator, parameters, learner, degree, 0.0, 3, 2, -3.0, 3.0,
        x_test, out, n_workers,
    )  # fmt: skip
    return out


@pytest.mark.parametrize(
    ("learner", "generator", "parameters"),
    [
        (mc.LEAST_SQUARES, mc.POLYNOMIAL_DATA, [-3.0, 3.0, 1.0]),
        (mc.KNN_REGRESSION, mc.POLYNOMIAL_DATA, [-3.0, 3.0, 1.0]),
        (mc.KNN_CLASSIFICATION, mc.TWO_GAUSSIANS, [-1.0, 1.0, 0.5, 0.5]),
    ],
)
def test_bit_identical_for_any_thread_count(learner, generator, parameters):
    parameters = np.array(parameters)
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_monte_carlo(learner, generator, parameters, 1)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = run_monte_carlo(learner, generator, parameters, 2)
    finally:
        numba.set_num_threads(previous)
    three_workers = run_monte_carlo(learner, generator, parameters, 3)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(one, three_workers)


def test_two_gaussians_draws():
    x = np.empty((20_000, 1))
    y = np.empty(20_000)
    mc.draw_two_gaussians(x, y, -1.0, 1.0, 0.5, 0.5, stream(3, 0))
    assert set(np.unique(y)) == {0.0, 1.0}
    assert abs(y.mean() - 0.5) < 4 * 0.5 / math.sqrt(20_000)
    first, second = x[y == 0, 0], x[y == 1, 0]
    assert stats.kstest(first, "norm", args=(-1.0, 0.5)).pvalue > ALPHA
    assert stats.kstest(second, "norm", args=(1.0, 0.5)).pvalue > ALPHA


@st.composite
def neighbour_problems(draw):
    """Small integer grids (many ties in distance and in votes), 1 to 3 features."""
    n = draw(st.integers(1, 12))
    features = draw(st.integers(1, 3))
    m = draw(st.integers(1, 6))
    k = draw(st.integers(1, n))
    n_classes = draw(st.integers(1, 4))
    grid = st.integers(-2, 2)
    x_train = np.array(draw(st.lists(grid, min_size=n * features, max_size=n * features)))
    x_test = np.array(draw(st.lists(grid, min_size=m * features, max_size=m * features)))
    labels = draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n))
    return (
        x_train.reshape(n, features).astype(float),
        np.array(labels, dtype=float),
        x_test.reshape(m, features).astype(float),
        k,
        n_classes,
    )


@given(neighbour_problems())
def test_knn_property_against_brute_force(problem):
    x_train, codes, x_test, k, n_classes = problem
    m = x_test.shape[0]
    distances, indices = np.empty(k), np.empty(k, dtype=np.int64)
    regression, classes = np.empty(m), np.empty(m)
    mc.knn_regress(x_train, codes, x_test, k, distances, indices, regression)
    votes = np.empty(n_classes, dtype=np.int64)
    mc.knn_classify(x_train, codes, n_classes, x_test, k, distances, indices, votes, classes)
    for j in range(m):
        chosen = brute_force_neighbours(x_train, x_test[j], k)
        total = 0.0
        for i in chosen:  # the kernel's order of summation: (distance, index)
            total += codes[i]
        assert regression[j] == total / k
        counts = np.bincount(codes[chosen].astype(int), minlength=n_classes)
        assert classes[j] == np.argmax(counts)


@given(
    st.integers(0, 8),
    st.integers(0, 2**32 - 1),
    st.sampled_from([(-3.0, 3.0), (0.0, 1.0), (-100.0, 50.0)]),
)
def test_least_squares_property_against_lstsq(degree, seed, interval):
    low, high = interval
    generator = np.random.default_rng(seed)
    n = degree + 1 + int(generator.integers(0, 30))
    x = generator.uniform(low, high, n)
    y = generator.standard_normal(n) * 10.0 ** generator.integers(-3, 4)
    _, fitted = fit_and_predict(x, y, x, degree, low=low, high=high)
    centre, width = low + high, high - low
    basis = legendre.legvander((2 * x - centre) / width, degree)
    expected = basis @ np.linalg.lstsq(basis, y, rcond=None)[0]
    # square systems (n = degree + 1) interpolate: error ~ cond(B) eps |y|
    tolerance = 1e-8 * max(np.abs(y).max(), 1e-300)
    assert np.abs(fitted - expected).max() <= tolerance
