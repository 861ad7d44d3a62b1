"""Synthetic data with a known truth, for bias-variance experiments.

* :func:`polynomial_regression_data`: eq. 4 of Wu, "Evaluation" (section 1 and section
  4.3), ``y = 3 (x - 0.2)^2 - 7 (x - 0.2) + 4.2 + e`` with
  ``e ~ N(0, 1)``; it returns the noise-free ``F(x)`` too.
* :func:`two_gaussians`: two Gaussian classes on the line (exercise 7 of the same
  chapter: ``N(-1, 0.25)`` and ``N(1, 0.25)``, equal priors); it returns the
  Bayes-optimal label of each point too.
* :func:`bayes_error_rate`: the exact Bayes error of such a mixture.

The compiled Monte Carlo (``assay._kernels.montecarlo``) draws from the same
distributions with its own counter-based streams; the formulas are the same, the
random numbers are not.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from assay import _special as special
from assay._validation import resolve_seed

__all__ = ["bayes_error_rate", "polynomial_regression_data", "polynomial_truth", "two_gaussians"]

# The text does not print the x range of its Figures 1 and 5 (the figures are lost in
# the conversion to text); this default is assay's choice, symmetric around 0.
DEFAULT_X_RANGE = (-3.0, 3.0)


def _generator(rng: Any) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(resolve_seed(rng))


def _check_count(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"`n` must be a positive integer; got {n!r}.")
    return int(n)


def _check_pair(values: Any, name: str) -> tuple[float, float]:
    if np.ndim(values) == 0:
        values = (values, values)
    try:
        pair = tuple(float(value) for value in values)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be a pair of finite numbers; got {values!r}.") from None
    if len(pair) != 2 or not all(math.isfinite(value) for value in pair):
        raise ValueError(f"`{name}` must be a pair of finite numbers; got {values!r}.")
    return pair[0], pair[1]


def polynomial_truth(x: Any) -> np.ndarray:
    """``F(x) = 3 (x - 0.2)^2 - 7 (x - 0.2) + 4.2``, eq. 4 without its noise.

    Parameters
    ----------
    x : array-like
        Points.

    Returns
    -------
    numpy.ndarray
        ``F(x)``, float64, of the shape of ``x``.

    Examples
    --------
    >>> from assay.protocols import polynomial_truth
    >>> float(polynomial_truth(0.2))
    4.2
    """
    shifted = np.asarray(x, dtype=np.float64) - 0.2
    return 3.0 * shifted * shifted - 7.0 * shifted + 4.2


def polynomial_regression_data(
    n: int,
    *,
    rng: Any = None,
    noise_sd: float = 1.0,
    x_range: tuple[float, float] = DEFAULT_X_RANGE,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A training or test set of eq. 4: ``y = 3 (x - 0.2)^2 - 7 (x - 0.2) + 4.2 + e``.

    Parameters
    ----------
    n : int
        Number of points (at least 1).
    rng : int, numpy.random.Generator or None, default=None
        Seed or generator (a Generator is used as it is; None draws a fresh seed).
    noise_sd : float, default=1.0
        Standard deviation of the Gaussian noise ``e`` (eq. 5: ``e ~ N(0, 1)``); 0 gives
        noise-free labels.
    x_range : pair of float, default=(-3.0, 3.0)
        ``x`` is uniform on ``[low, high)``.

    Returns
    -------
    x : numpy.ndarray of shape (n,)
        The points (use ``x[:, None]`` as the feature matrix of a scikit-learn model).
    y : numpy.ndarray of shape (n,)
        The noisy labels ``F(x) + e``.
    truth : numpy.ndarray of shape (n,)
        ``F(x)``, the noise-free target (``truth=`` of :func:`assay.decompose`).

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer, ``noise_sd`` is negative or not finite,
        ``x_range`` is not an increasing pair of finite numbers, or ``rng`` is invalid.

    Notes
    -----
    Wu, "Evaluation" (eq. 4 and 5; Figures 1 and 5) draws its training sets from
    this model; it does not state the x range or the training-set size, which are lost
    with its figures.  The default range ``[-3, 3)`` is assay's choice.  Draws: ``n``
    uniforms for ``x``, then ``n`` standard normals for the noise.

    Examples
    --------
    >>> from assay.protocols import polynomial_regression_data
    >>> x, y, truth = polynomial_regression_data(4, rng=0)
    >>> x.shape, y.shape, truth.shape
    ((4,), (4,), (4,))
    """
    n = _check_count(n)
    if isinstance(noise_sd, bool) or not isinstance(
        noise_sd, (int, float, np.integer, np.floating)
    ):
        raise ValueError(f"`noise_sd` must be a non-negative finite number; got {noise_sd!r}.")
    if not (math.isfinite(float(noise_sd)) and noise_sd >= 0):
        raise ValueError(f"`noise_sd` must be a non-negative finite number; got {noise_sd!r}.")
    low, high = _check_pair(x_range, "x_range")
    if not low < high:
        raise ValueError(f"`x_range` must be (low, high) with low < high; got {x_range!r}.")
    generator = _generator(rng)
    x = low + (high - low) * generator.random(n)
    truth = polynomial_truth(x)
    y = truth + float(noise_sd) * generator.standard_normal(n)
    return x, y, truth


def _check_mixture(
    means: Any, variances: Any, priors: Any
) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
    means = _check_pair(means, "means")
    variances = _check_pair(variances, "variances")
    if min(variances) <= 0.0:
        raise ValueError(f"`variances` must be positive; got {variances!r}.")
    priors = _check_pair(priors, "priors")
    if min(priors) <= 0.0 or not math.isclose(priors[0] + priors[1], 1.0, abs_tol=1e-12):
        raise ValueError(f"`priors` must be two positive numbers summing to 1; got {priors!r}.")
    return means, variances, priors


def _bayes_second(
    x: np.ndarray,
    means: tuple[float, float],
    variances: tuple[float, float],
    priors: tuple[float, float],
) -> np.ndarray:
    """True where ``prior_2 p(x | 2) > prior_1 p(x | 1)`` (ties go to the first class)."""
    log_first = (
        math.log(priors[0])
        - 0.5 * math.log(variances[0])
        - 0.5 * (x - means[0]) ** 2 / variances[0]
    )
    log_second = (
        math.log(priors[1])
        - 0.5 * math.log(variances[1])
        - 0.5 * (x - means[1]) ** 2 / variances[1]
    )
    return np.asarray(log_second > log_first)


def two_gaussians(
    n: int,
    *,
    rng: Any = None,
    means: tuple[float, float] = (-1.0, 1.0),
    variances: float | tuple[float, float] = 0.25,
    priors: tuple[float, float] = (0.5, 0.5),
    labels: tuple[Any, Any] = (0, 1),
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two Gaussian classes on the line, with the Bayes-optimal label of every point.

    Class ``k`` has prior ``priors[k]`` and ``x | class k ~ N(means[k], variances[k])``.
    The defaults are exercise 7 of Wu, "Evaluation": ``N(-1, 0.25)`` against
    ``N(1, 0.25)``, equal priors, where 0.25 is the **variance** (the
    chapter writes ``N(mu, sigma^2)``, e.g. ``E ~ N(mu, sigma^2)`` in section 5), so
    the standard deviation is 0.5.

    Parameters
    ----------
    n : int
        Number of points (at least 1).
    rng : int, numpy.random.Generator or None, default=None
        Seed or generator.
    means : pair of float, default=(-1.0, 1.0)
        Class means.
    variances : float or pair of float, default=0.25
        Class variances (one number: both classes).
    priors : pair of float, default=(0.5, 0.5)
        Class probabilities, positive, summing to 1.
    labels : pair, default=(0, 1)
        The two class labels (exercise 7 uses ``(1, 2)``).

    Returns
    -------
    x : numpy.ndarray of shape (n,)
        The points.
    y : numpy.ndarray of shape (n,)
        Their classes, drawn from ``priors``.
    bayes_label : numpy.ndarray of shape (n,)
        The Bayes-optimal label of each point under 0-1 loss, ``argmax_k priors[k] p(x |
        k)`` (ties, a set of probability 0, go to the first class): ``truth=`` of
        :func:`assay.decompose` with ``loss='zero_one'``.

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer, a variance or prior is not positive, the
        priors do not sum to 1, or ``rng`` is invalid.

    Notes
    -----
    Draws: ``n`` uniforms give the classes (the second class when ``u < priors[1]``),
    then ``n`` standard normals give ``x = mean + sd * z``.  The error rate of
    ``bayes_label`` is :func:`bayes_error_rate` (``Phi(-2) = 0.02275`` for exercise 7).

    Examples
    --------
    >>> from assay.protocols import two_gaussians
    >>> x, y, bayes_label = two_gaussians(6, rng=0)
    >>> sorted(set(y.tolist()) | set(bayes_label.tolist())) in ([0], [1], [0, 1])
    True
    """
    n = _check_count(n)
    means, variances, priors = _check_mixture(means, variances, priors)
    if len(labels) != 2 or labels[0] == labels[1]:
        raise ValueError(f"`labels` must be two distinct labels; got {labels!r}.")
    generator = _generator(rng)
    second = generator.random(n) < priors[1]
    centre = np.where(second, means[1], means[0])
    spread = np.sqrt(np.where(second, variances[1], variances[0]))
    x = centre + spread * generator.standard_normal(n)
    label_values = np.asarray(labels)
    y = np.where(second, label_values[1], label_values[0])
    bayes = np.where(_bayes_second(x, means, variances, priors), label_values[1], label_values[0])
    return x, y, bayes


def bayes_error_rate(
    *,
    means: tuple[float, float] = (-1.0, 1.0),
    variances: float | tuple[float, float] = 0.25,
    priors: tuple[float, float] = (0.5, 0.5),
) -> float:
    """Exact Bayes error rate (0-1 loss) of two Gaussian classes on the line.

    Parameters
    ----------
    means : pair of float, default=(-1.0, 1.0)
        Class means.
    variances : float or pair of float, default=0.25
        Class variances (one number: both classes).
    priors : pair of float, default=(0.5, 0.5)
        Class probabilities, positive, summing to 1.

    Returns
    -------
    float
        ``min over classifiers of P(error) = integral of min_k priors[k] p(x | k) dx``.

    Raises
    ------
    ValueError
        If a variance or prior is not positive or the priors do not sum to 1.

    Notes
    -----
    The Bayes classifier picks the second class where
    ``g(x) = log(p_2 N(x; m_2, v_2)) - log(p_1 N(x; m_1, v_1)) > 0``; ``g`` is a
    polynomial of degree at most 2, so the decision regions are intervals bounded by
    its real roots and the error is a sum of normal probabilities of intervals:
    ``p_1 P_1(region 2) + p_2 P_2(region 1)``.  For equal priors and equal variances
    ``sigma^2`` this is ``Phi(-|m_1 - m_2| / (2 sigma))`` (Duda, Hart & Stork 2001,
    section 2.7); for exercise 7 of Wu, "Evaluation" (``N(-1, 0.25)`` vs ``N(1,
    0.25)``), ``Phi(-2) = 0.0227501...``.

    References
    ----------
    R. O. Duda, P. E. Hart and D. G. Stork, *Pattern Classification*, 2nd ed., Wiley
    (2001), sections 2.6-2.7.

    Examples
    --------
    >>> from assay.protocols import bayes_error_rate
    >>> round(bayes_error_rate(), 6)
    0.02275
    """
    means, variances, priors = _check_mixture(means, variances, priors)
    # g(x) = a x^2 + b x + c
    a = 0.5 / variances[0] - 0.5 / variances[1]
    b = means[1] / variances[1] - means[0] / variances[0]
    c = (
        math.log(priors[1] / priors[0])
        - 0.5 * math.log(variances[1] / variances[0])
        - 0.5 * means[1] ** 2 / variances[1]
        + 0.5 * means[0] ** 2 / variances[0]
    )
    scale = max(abs(a), abs(b), abs(c), 1.0)
    if abs(a) <= 1e-14 * scale:
        roots: list[float] = [] if b == 0.0 else [-c / b]
    else:
        discriminant = b * b - 4.0 * a * c
        if discriminant <= 0.0:
            roots = []
        else:
            root = math.sqrt(discriminant)
            # The numerically stable pair of roots.
            q = -0.5 * (b + math.copysign(root, b))
            roots = sorted([q / a, c / q])
    edges = [-math.inf, *roots, math.inf]
    error = 0.0
    sds = (math.sqrt(variances[0]), math.sqrt(variances[1]))
    for low, high in itertools.pairwise(edges):
        middle = _interval_point(low, high)
        second = a * middle * middle + b * middle + c > 0.0
        wrong = 0 if second else 1  # the class that is wrong in this interval
        z_low = (low - means[wrong]) / sds[wrong]
        z_high = (high - means[wrong]) / sds[wrong]
        error += priors[wrong] * _normal_mass(z_low, z_high)
    return error


def _normal_mass(z_low: float, z_high: float) -> float:
    """``Phi(z_high) - Phi(z_low)``, from the nearer tail (no cancellation)."""
    if z_low > 0.0:
        return float(special.ndtr(-z_low) - special.ndtr(-z_high))
    return float(special.ndtr(z_high) - special.ndtr(z_low))


def _interval_point(low: float, high: float) -> float:
    if math.isinf(low) and math.isinf(high):
        return 0.0
    if math.isinf(low):
        return high - 1.0
    if math.isinf(high):
        return low + 1.0
    return 0.5 * (low + high)
