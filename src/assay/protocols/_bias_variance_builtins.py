"""The built-in learners and data generators of :func:`assay.protocols.bias_variance`.

Small frozen dataclasses: the driver recognises them and runs the whole Monte Carlo
compiled (:mod:`assay._kernels.montecarlo`).  The generators are also plain callables,
``generator(n, rng) -> (X, y)``, usable with any model.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from assay._procedure_checks import check_integer, check_open_unit, check_positive
from assay.protocols._generators import DEFAULT_X_RANGE, polynomial_truth

__all__ = [
    "KNNClassifier",
    "KNNRegressor",
    "PolynomialExample",
    "PolynomialRegression",
    "Ridge",
    "TwoGaussiansExample",
]


# --- built-in learners ----------------------------------------------------------------


@dataclass(frozen=True)
class PolynomialRegression:
    """Least squares polynomial of one feature, compiled (Legendre basis; see
    :func:`bias_variance` for the solver)."""

    degree: int

    def __post_init__(self) -> None:
        check_integer(self.degree, "degree", 0)


@dataclass(frozen=True)
class Ridge:
    """Polynomial ridge regression: penalty ``alpha * sum_{k>=1} c_k^2`` on the Legendre
    coefficients over the basis interval (see :func:`bias_variance`), intercept free."""

    degree: int
    alpha: float

    def __post_init__(self) -> None:
        check_integer(self.degree, "degree", 0)
        check_positive(self.alpha, "alpha")


@dataclass(frozen=True)
class KNNRegressor:
    """k nearest neighbours regression: the mean label of the ``n_neighbors`` closest rows."""

    n_neighbors: int

    def __post_init__(self) -> None:
        check_integer(self.n_neighbors, "n_neighbors", 1)


@dataclass(frozen=True)
class KNNClassifier:
    """k nearest neighbours classification: the most frequent label of the closest rows."""

    n_neighbors: int

    def __post_init__(self) -> None:
        check_integer(self.n_neighbors, "n_neighbors", 1)


_BUILT_IN_LEARNERS = (PolynomialRegression, Ridge, KNNRegressor, KNNClassifier)


# --- built-in generators --------------------------------------------------------------


@dataclass(frozen=True)
class PolynomialExample:
    """Eq. 4 of the "Evaluation" chapter: ``y = 3(x - 0.2)^2 - 7(x - 0.2) + 4.2 + e``.

    ``x`` uniform on ``x_range`` (the text does not print the range of its Figure 5;
    the default (-3, 3) is that of :func:`assay.protocols.polynomial_regression_data`),
    ``e ~ N(0, noise_sd^2)``.  Calling the object,
    ``generator(n, rng)``, draws ``(X, y)`` with numpy (``X`` of shape (n, 1)).
    """

    noise_sd: float = 1.0
    x_range: tuple[float, float] = DEFAULT_X_RANGE

    def __post_init__(self) -> None:
        if not (isinstance(self.noise_sd, numbers.Real) and self.noise_sd >= 0):
            raise ValueError(f"`noise_sd` must be a number >= 0; got {self.noise_sd!r}.")
        low, high = (float(v) for v in self.x_range)
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise ValueError(
                f"`x_range` must be two finite numbers, low < high; got {self.x_range!r}."
            )
        object.__setattr__(self, "x_range", (low, high))

    def truth(self, x: Any) -> np.ndarray:
        """``F(x)``, the noise-free target (:func:`assay.protocols.polynomial_truth`)."""
        return polynomial_truth(x)

    def __call__(self, n: int, rng: Any) -> tuple[np.ndarray, np.ndarray]:
        generator = np.random.default_rng(rng)
        x = generator.uniform(self.x_range[0], self.x_range[1], n)
        return x[:, None], self.truth(x) + self.noise_sd * generator.standard_normal(n)


@dataclass(frozen=True)
class TwoGaussiansExample:
    """Exercise 7 of the "Evaluation" chapter: ``x | y ~ N(mean_y, variance)``.

    ``P(y = labels[1]) = prior``; defaults: means -1 and 1, variance 0.25 (a standard
    deviation of 0.5), equal priors, labels 0 and 1 (the text's classes 1 and 2; the
    labels of :func:`assay.protocols.two_gaussians`).
    """

    means: tuple[float, float] = (-1.0, 1.0)
    variance: float = 0.25
    prior: float = 0.5
    labels: tuple[float, float] = (0.0, 1.0)

    def __post_init__(self) -> None:
        check_positive(self.variance, "variance")
        check_open_unit(self.prior, "prior")
        first, second = (float(v) for v in self.means)
        if first == second or not (math.isfinite(first) and math.isfinite(second)):
            raise ValueError(f"`means` must be two different finite numbers; got {self.means!r}.")
        label_first, label_second = (float(v) for v in self.labels)
        if not label_first < label_second:
            raise ValueError(f"`labels` must be increasing numbers; got {self.labels!r}.")
        object.__setattr__(self, "means", (first, second))
        object.__setattr__(self, "labels", (label_first, label_second))

    def bayes_label(self, x: Any) -> np.ndarray:
        """The Bayes-optimal label at ``x``: the class of larger ``prior * density``."""
        x = np.asarray(x, dtype=np.float64)
        (m0, m1), p1 = self.means, float(self.prior)
        log_ratio = math.log(p1 / (1 - p1)) - ((x - m1) ** 2 - (x - m0) ** 2) / (2 * self.variance)
        return np.where(log_ratio > 0, self.labels[1], self.labels[0])

    def __call__(self, n: int, rng: Any) -> tuple[np.ndarray, np.ndarray]:
        generator = np.random.default_rng(rng)
        second = generator.random(n) < self.prior
        means = np.where(second, self.means[1], self.means[0])
        x = means + math.sqrt(self.variance) * generator.standard_normal(n)
        return x[:, None], np.where(second, self.labels[1], self.labels[0])
