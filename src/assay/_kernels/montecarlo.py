"""Bias-variance Monte Carlo: built-in data generators and learners, compiled.

One round ``r`` of the Monte Carlo draws an independent training set from its own
counter-based stream ``stream(seed, r)`` (:mod:`assay._kernels._rng`), fits a learner
and writes its predictions at the fixed test points into row ``r`` of the prediction
matrix.  Each round is computed by one thread from start to end, so the matrix is
bit-identical for any number of threads; ``n_workers`` only splits the rounds.

Draws of one round, in this order (the slow twin in the tests repeats them):

* polynomial data (eq. 4 of Wu, "Evaluation", section 4.3):
  ``n`` uniforms ``u_i`` (:func:`~assay._kernels._rng.next_double`) give
  ``x_i = low + (high - low) u_i``; then ``n`` standard normals in Box-Muller pairs
  (:func:`normal_pair`) give ``y_i = F(x_i) + noise_sd z_i`` with
  ``F(x) = 3 (x - 0.2)^2 - 7 (x - 0.2) + 4.2``;
* two Gaussian classes (exercise 7 of the same chapter): ``n`` uniforms give the class
  codes (``1`` when ``u_i < prior``, else ``0``); then ``n`` normals in pairs give
  ``x_i = mean[code_i] + sd z_i``.

Learners (codes below):

* least squares polynomial of degree ``d`` (``alpha = 0``) or ridge (``alpha > 0``):
  the basis is the Legendre polynomials ``P_0..P_d`` of ``t = (2x - low - high) /
  (high - low)``, an affine map fixed for the whole Monte Carlo (the predictions of a
  least squares polynomial do not depend on the map; ridge penalises
  ``alpha * sum_{k>=1} c_k^2`` of these coefficients, the intercept unpenalised).  The
  fit solves the corrected semi-normal equations (Cholesky of ``B^T B + alpha D``, then
  one correction from the residual; :func:`_corrected_normal_equations`) when the
  basis ``B`` is well conditioned (estimated ``cond(B)`` below about 1e4; the Legendre
  basis of uniform points has 10 to 1e3), else a Householder QR of the ``n x (d+1)``
  design (ridge: of the design stacked on ``sqrt(alpha) I`` without its first row), in
  which a column whose diagonal of ``R`` falls to ``n * eps * max|R_jj|`` or below is
  rank deficient and gets the coefficient 0.
* k nearest neighbours by squared Euclidean distance; ties in distance go to the
  training point drawn first (smaller index).  Regression averages the ``k`` labels in
  the order (distance, index); classification takes the most frequent class code among
  the ``k``, ties in votes going to the smallest code.
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from assay._kernels._jit import jit, jit_parallel
from assay._kernels._rng import _next_positive_double, next_double, stream

# generator codes
POLYNOMIAL_DATA = 0
TWO_GAUSSIANS = 1

# learner codes
LEAST_SQUARES = 0
KNN_REGRESSION = 1
KNN_CLASSIFICATION = 2

_TWO_PI = 2.0 * math.pi
_EPSILON = 2.0**-52
# largest estimated cond_1(B^T B) for which the normal equations are used (cond(B) ~ 1e4;
# the corrected semi-normal equations are accurate while cond(B) sqrt(eps) << 1)
_CONDITION_LIMIT = 1e8


# --- random draws and generators -----------------------------------------------------


@jit
def normal_pair(state):
    """``(z0, z1, new_state)``: two independent standard normals (Box & Muller 1958).

    ``u`` on (0, 1] (safe for the logarithm) and ``v`` on [0, 1):
    ``z0 = sqrt(-2 log u) cos(2 pi v)``, ``z1 = sqrt(-2 log u) sin(2 pi v)``.
    """
    u, state = _next_positive_double(state)
    v, state = next_double(state)
    radius = math.sqrt(-2.0 * math.log(u))
    angle = _TWO_PI * v
    return radius * math.cos(angle), radius * math.sin(angle), state


@jit
def fill_normals(out, state):
    """Fill ``out`` with standard normals, two per :func:`normal_pair`; return the state.

    An odd last entry takes the first normal of one more pair.
    """
    n = out.shape[0]
    for i in range(0, n - 1, 2):
        z0, z1, state = normal_pair(state)
        out[i] = z0
        out[i + 1] = z1
    if n % 2 == 1:
        z0, z1, state = normal_pair(state)
        out[n - 1] = z0
    return state


@jit
def polynomial_truth(x):
    """``F(x) = 3 (x - 0.2)^2 - 7 (x - 0.2) + 4.2``: eq. 4 without its noise."""
    shifted = x - 0.2
    return 3.0 * shifted * shifted - 7.0 * shifted + 4.2


@jit
def draw_polynomial(x, y, low, high, noise_sd, state):
    """A training set of eq. 4 into ``x`` (n, 1) and ``y`` (n,); returns the state."""
    n = y.shape[0]
    width = high - low
    for i in range(n):
        u, state = next_double(state)
        x[i, 0] = low + width * u
    state = fill_normals(y, state)
    for i in range(n):
        y[i] = polynomial_truth(x[i, 0]) + noise_sd * y[i]
    return state


@jit
def draw_two_gaussians(x, y, mean_first, mean_second, sd, prior_second, state):
    """Two Gaussian classes into ``x`` (n, 1) and class codes 0.0 / 1.0 into ``y``."""
    n = y.shape[0]
    for i in range(n):
        u, state = next_double(state)
        y[i] = 1.0 if u < prior_second else 0.0
    state = fill_normals(x[:, 0], state)
    for i in range(n):
        mean = mean_second if y[i] == 1.0 else mean_first
        x[i, 0] = mean + sd * x[i, 0]
    return state


# --- least squares polynomial and ridge ------------------------------------------------


@jit
def legendre_basis(x, low, high, degree, out):
    """``out[i, k] = P_k(t_i)``, ``t = x (2 / (high - low)) - (low + high) / (high - low)``.

    Bonnet's recursion ``P_{k+1} = ((2k + 1) / (k + 1)) t P_k - (k / (k + 1)) P_{k-1}``,
    one degree at a time over all points (no division per point).  ``out`` has at least
    ``degree + 1`` columns; others are left alone.
    """
    scale = 2.0 / (high - low)
    shift = (low + high) / (high - low)
    n = x.shape[0]
    for i in range(n):
        out[i, 0] = 1.0
    if degree == 0:
        return
    for i in range(n):
        out[i, 1] = x[i] * scale - shift
    for k in range(1, degree):
        a = (2.0 * k + 1.0) / (k + 1.0)
        b = k / (k + 1.0)
        for i in range(n):
            out[i, k + 1] = a * out[i, 1] * out[i, k] - b * out[i, k - 1]


@jit
def least_squares_solve(system, coefficients, dots, diagonal):
    """Least squares solution of ``A c ~ b`` for ``system = [A | b]`` by Householder QR.

    ``system`` (rows, p + 1) is overwritten; ``dots`` (p + 1,) and ``diagonal`` (p,) are
    workspace.  Golub & Van Loan, "Matrix Computations", 4th ed., algorithm 5.2.1 and
    section 5.3.3.  The
    reflection of the remaining columns runs row by row, so the inner loops go along
    contiguous rows with one running sum per column (vectorised, and each sum in a fixed
    order).  A diagonal of ``R`` at or below ``rows * eps * max|R_jj|`` marks a dependent
    column: its coefficient is 0.
    """
    rows = system.shape[0]
    p = system.shape[1] - 1
    for k in range(p):
        square = 0.0
        for i in range(k, rows):
            square += system[i, k] * system[i, k]
        if square == 0.0:
            diagonal[k] = 0.0
            continue
        norm = math.sqrt(square)
        head = system[k, k]
        alpha = -norm if head >= 0.0 else norm
        system[k, k] = head - alpha
        scale = 2.0 / (square - head * head + system[k, k] * system[k, k])
        factors = dots[k + 1 :]
        width = factors.shape[0]
        for j in range(width):
            factors[j] = 0.0
        for i in range(k, rows):
            row = system[i, k + 1 :]
            v = system[i, k]
            for j in range(width):
                factors[j] += v * row[j]
        for j in range(width):
            factors[j] *= scale
        for i in range(k, rows):
            row = system[i, k + 1 :]
            v = system[i, k]
            for j in range(width):
                row[j] -= factors[j] * v
        diagonal[k] = alpha
    largest = 0.0
    for k in range(p):
        largest = max(largest, abs(diagonal[k]))
    tolerance = rows * _EPSILON * largest
    for k in range(p - 1, -1, -1):
        if abs(diagonal[k]) <= tolerance:
            coefficients[k] = 0.0
            continue
        total = system[k, p]
        for j in range(k + 1, p):
            total -= system[k, j] * coefficients[j]
        coefficients[k] = total / diagonal[k]


@jit
def _cholesky(gram):
    """Lower Cholesky factor of ``gram`` in place; False when a pivot is not positive."""
    p = gram.shape[0]
    for j in range(p):
        pivot = gram[j, j]
        for k in range(j):
            pivot -= gram[j, k] * gram[j, k]
        if not pivot > 0.0:
            return False
        root = math.sqrt(pivot)
        gram[j, j] = root
        for i in range(j + 1, p):
            total = gram[i, j]
            for k in range(j):
                total -= gram[i, k] * gram[j, k]
            gram[i, j] = total / root
    return True


@jit
def _cholesky_solve(lower, values):
    """Solve ``L L^T z = values`` in place (forward, then backward substitution)."""
    p = lower.shape[0]
    for i in range(p):
        total = values[i]
        for k in range(i):
            total -= lower[i, k] * values[k]
        values[i] = total / lower[i, i]
    for i in range(p - 1, -1, -1):
        total = values[i]
        for k in range(i + 1, p):
            total -= lower[k, i] * values[k]
        values[i] = total / lower[i, i]


@jit
def _inverse_norm_estimate(lower, guess, solution):
    """Hager's estimate of ``||G^{-1}||_1`` for ``G = L L^T`` (a lower bound, usually
    within a factor of 3).  W. W. Hager, "Condition estimates", SIAM Journal on
    Scientific and Statistical Computing 5 (1984), 311-316; N. J. Higham, "Accuracy and
    Stability of Numerical Algorithms", 2nd ed., algorithm 15.1.  ``G`` is symmetric, so
    ``G^{-T} = G^{-1}``.  ``guess`` and ``solution`` (length p) are workspace.
    """
    p = lower.shape[0]
    for j in range(p):
        guess[j] = 1.0 / p
    estimate = 0.0
    for _ in range(5):
        for j in range(p):
            solution[j] = guess[j]
        _cholesky_solve(lower, solution)  # y = G^{-1} x
        estimate = 0.0
        for j in range(p):
            estimate += abs(solution[j])
            solution[j] = 1.0 if solution[j] >= 0.0 else -1.0
        _cholesky_solve(lower, solution)  # z = G^{-1} sign(y)
        largest = 0
        inner = 0.0
        for j in range(p):
            inner += solution[j] * guess[j]
            if abs(solution[j]) > abs(solution[largest]):
                largest = j
        if abs(solution[largest]) <= inner:
            break
        for j in range(p):
            guess[j] = 0.0
        guess[largest] = 1.0
    return estimate


@jit
def _corrected_normal_equations(system, n, alpha, gram, coefficients, correction, dots):
    """Least squares by the corrected semi-normal equations; False if refused.

    ``system[:n, :p]`` is the basis, ``system[:n, p]`` the labels.  Solve
    ``(B^T B + alpha D) c = B^T y`` by Cholesky (``D`` the identity without its first
    entry), then once more for the correction from the residual,
    ``(B^T B + alpha D) dc = B^T (y - B c) - alpha D c`` (Björck 1987, "Stability
    analysis of the method of seminormal equations for linear least squares problems",
    Linear Algebra and its Applications 88/89: one correction step makes the solution
    as accurate as a QR solution while ``cond(B) sqrt(eps)`` is small).  Refused, for the
    caller to fall back to QR, when Cholesky fails or ``||G||_1`` times Hager's estimate
    of ``||G^{-1}||_1`` exceeds ``_CONDITION_LIMIT`` (``cond(B)`` above about 1e4).
    ``dots`` (length >= p) is workspace.
    """
    p = system.shape[1] - 1
    for j in range(p):
        coefficients[j] = 0.0
        for k in range(p):
            gram[j, k] = 0.0
    for i in range(n):
        row = system[i]
        label = row[p]
        for j in range(p):
            value = row[j]
            column = gram[j]
            for k in range(p):
                column[k] += value * row[k]
            coefficients[j] += value * label
    for j in range(1, p):
        gram[j, j] += alpha
    gram_norm = 0.0  # ||G||_1: G is symmetric, so the largest row sum
    for j in range(p):
        total = 0.0
        for k in range(p):
            total += abs(gram[j, k])
        gram_norm = max(gram_norm, total)
    if not _cholesky(gram):
        return False
    if gram_norm * _inverse_norm_estimate(gram, correction, dots) > _CONDITION_LIMIT:
        return False
    _cholesky_solve(gram, coefficients)
    for k in range(p):
        correction[k] = 0.0
    for i in range(n):
        row = system[i]
        even = row[p]
        odd = 0.0
        for k in range(0, p - 1, 2):
            even -= row[k] * coefficients[k]
            odd -= row[k + 1] * coefficients[k + 1]
        if p % 2 == 1:
            even -= row[p - 1] * coefficients[p - 1]
        residual = even + odd
        for k in range(p):
            correction[k] += residual * row[k]
    for k in range(1, p):
        correction[k] -= alpha * coefficients[k]
    _cholesky_solve(gram, correction)
    for k in range(p):
        coefficients[k] += correction[k]
    return True


@jit
def polynomial_fit(
    x, y, low, high, degree, alpha, system, coefficients, dots, diagonal, gram, correction
):
    """Legendre coefficients of the least squares (ridge when ``alpha > 0``) polynomial.

    The corrected semi-normal equations when the basis is well conditioned (the usual
    case: the Legendre basis of uniform points has a condition number of about 10 to
    1e3), else Householder QR.  ``system`` is (n, degree + 2) without a penalty and
    (n + degree, degree + 2) with one; ``dots`` (degree + 2,), ``diagonal`` and
    ``correction`` (degree + 1,) and ``gram`` (degree + 1, degree + 1) are workspace.
    """
    n = x.shape[0]
    p = degree + 1
    legendre_basis(x, low, high, degree, system)
    for i in range(n):
        system[i, p] = y[i]
    if _corrected_normal_equations(system, n, alpha, gram, coefficients, correction, dots):
        return
    if alpha > 0.0:
        root = math.sqrt(alpha)
        for i in range(n, system.shape[0]):
            for k in range(p + 1):
                system[i, k] = 0.0
            system[i, i - n + 1] = root
    least_squares_solve(system, coefficients, dots, diagonal)


@jit
def polynomial_predict(coefficients, test_basis, out):
    """``out[j] = sum_k coefficients[k] test_basis[k, j]``."""
    m = out.shape[0]
    first = coefficients[0]
    for j in range(m):
        out[j] = first * test_basis[0, j]
    for k in range(1, coefficients.shape[0]):
        c = coefficients[k]
        row = test_basis[k]
        for j in range(m):
            out[j] += c * row[j]


# --- k nearest neighbours ---------------------------------------------------------------


@jit
def nearest(x_train, point, k, distances, indices):
    """The ``k`` nearest training rows of ``point`` ordered by (distance, index).

    ``distances`` and ``indices`` (length ``k``) receive squared distances and row indices.
    An insertion that keeps rows of equal distance in index order: a later row displaces
    an earlier one only when strictly closer.
    """
    count = 0
    features = x_train.shape[1]
    for i in range(x_train.shape[0]):
        distance = 0.0
        for f in range(features):
            difference = x_train[i, f] - point[f]
            distance += difference * difference
        if count == k and distance >= distances[k - 1]:
            continue
        position = count if count < k else k - 1
        while position > 0 and distances[position - 1] > distance:
            if position < k:
                distances[position] = distances[position - 1]
                indices[position] = indices[position - 1]
            position -= 1
        distances[position] = distance
        indices[position] = i
        if count < k:
            count += 1


@jit
def knn_regress(x_train, y_train, x_test, k, distances, indices, out):
    """Mean label of the ``k`` nearest training rows (summed in (distance, index) order)."""
    for j in range(x_test.shape[0]):
        nearest(x_train, x_test[j], k, distances, indices)
        total = 0.0
        for position in range(k):
            total += y_train[indices[position]]
        out[j] = total / k


@jit
def knn_classify(x_train, codes, n_classes, x_test, k, distances, indices, votes, out):
    """Most frequent class code of the ``k`` nearest rows; ties go to the smallest code."""
    for j in range(x_test.shape[0]):
        nearest(x_train, x_test[j], k, distances, indices)
        for c in range(n_classes):
            votes[c] = 0
        for position in range(k):
            votes[np.int64(codes[indices[position]])] += 1
        best = 0
        for c in range(1, n_classes):
            if votes[c] > votes[best]:
                best = c
        out[j] = np.float64(best)


# --- one round and the drivers -----------------------------------------------------------


@jit
def _fit_predict(
    learner, x, y, x_test, test_basis, low, high, degree, alpha, k, n_classes, work, out
):
    """Fit the learner on (x, y) and predict at the test points into ``out``."""
    system, coefficients, dots, diagonal, gram, correction, distances, indices, votes = work
    if learner == LEAST_SQUARES:
        polynomial_fit(
            x[:, 0], y, low, high, degree, alpha, system, coefficients, dots, diagonal, gram,
            correction,
        )  # fmt: skip
        polynomial_predict(coefficients, test_basis, out)
    elif learner == KNN_REGRESSION:
        knn_regress(x, y, x_test, k, distances, indices, out)
    else:
        knn_classify(x, y, n_classes, x_test, k, distances, indices, votes, out)


@jit
def _workspace(n, degree, alpha, k, n_classes):
    p = degree + 1
    rows = n + degree if alpha > 0.0 else n
    return (
        np.empty((rows, p + 1)),
        np.empty(p),
        np.empty(p + 1),
        np.empty(p),
        np.empty((p, p)),
        np.empty(p),
        np.empty(k),
        np.empty(k, dtype=np.int64),
        np.empty(n_classes, dtype=np.int64),
    )


@jit
def test_basis_for(learner, x_test, low, high, degree):
    """The Legendre basis at the test points, (degree + 1, m); empty for k-NN learners."""
    if learner != LEAST_SQUARES:
        return np.empty((1, 0))
    by_point = np.empty((x_test.shape[0], degree + 1))
    legendre_basis(x_test[:, 0], low, high, degree, by_point)
    return np.ascontiguousarray(by_point.T)


@jit_parallel
def monte_carlo(
    seed,
    n_train,
    generator,
    generator_parameters,
    learner,
    degree,
    alpha,
    k,
    n_classes,
    low,
    high,
    x_test,
    out,
    n_workers,
):
    """Row ``r`` of ``out`` (rounds, m): predictions after training on round ``r``'s set.

    ``generator_parameters``: (low, high, noise_sd) for POLYNOMIAL_DATA, (mean of code 0,
    mean of code 1, sd, prior of code 1) for TWO_GAUSSIANS.  ``low``/``high`` fix the
    polynomial basis.  Training sets are drawn from ``stream(seed, r)``.
    """
    rounds = out.shape[0]
    test_basis = test_basis_for(learner, x_test, low, high, degree)
    g = generator_parameters
    for worker in prange(n_workers):
        x = np.empty((n_train, 1))
        y = np.empty(n_train)
        work = _workspace(n_train, degree, alpha, k, n_classes)
        for r in range(worker, rounds, n_workers):
            state = stream(seed, np.uint64(r))
            if generator == POLYNOMIAL_DATA:
                state = draw_polynomial(x, y, g[0], g[1], g[2], state)
            else:
                state = draw_two_gaussians(x, y, g[0], g[1], g[2], g[3], state)
            _fit_predict(
                learner, x, y, x_test, test_basis, low, high, degree, alpha, k, n_classes,
                work, out[r],
            )  # fmt: skip


@jit_parallel
def fit_predict_rounds(
    x_train, y_train, learner, degree, alpha, k, n_classes, low, high, x_test, out, n_workers
):
    """Like :func:`monte_carlo` with the training sets given: ``x_train`` (rounds, n, d),
    ``y_train`` (rounds, n) (class codes as floats for KNN_CLASSIFICATION)."""
    rounds = out.shape[0]
    n = x_train.shape[1]
    test_basis = test_basis_for(learner, x_test, low, high, degree)
    for worker in prange(n_workers):
        work = _workspace(n, degree, alpha, k, n_classes)
        for r in range(worker, rounds, n_workers):
            _fit_predict(
                learner, x_train[r], y_train[r], x_test, test_basis, low, high, degree,
                alpha, k, n_classes, work, out[r],
            )  # fmt: skip
