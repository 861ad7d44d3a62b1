"""The studentized range distribution with infinite degrees of freedom.

The Nemenyi test compares average ranks with the range of k independent standard
normal values (Demsar 2006, section 3.2.2).  scipy's ``studentized_range.sf`` is
``1 - cdf`` and loses every p-value below about 1e-15; these functions keep their
relative precision in the far tail.
"""

from __future__ import annotations

import math

import numpy as np

from assay import _special as special

__all__ = ["studentized_range_isf", "studentized_range_sf"]

# Gauss-Legendre nodes per unit interval: the integrand is smooth and at most as
# narrow as a normal density of standard deviation 1/sqrt(2), so 24 nodes on each
# unit interval integrate it to about machine precision.
_GAUSS_NODES, _GAUSS_WEIGHTS = np.polynomial.legendre.leggauss(24)
# The integrand is negligible (relative to the result) this far beyond its mass.
_INTEGRATION_MARGIN = 12.0
# q values integrated at once (bounds the memory of the grid).
_CHUNK = 256


def studentized_range_sf(q: np.ndarray, k: int) -> np.ndarray:
    """``P(range of k iid N(0, 1) > q)`` for q >= 0, accurate in relative terms.

    ``sf(q) = k int phi(x) [Phi(x)^(k-1) - (Phi(x) - Phi(x - q))^(k-1)] dx`` (x is the
    largest of the k values).  The bracket is written as
    ``Phi(x)^(k-1) (1 - (1 - b/a)^(k-1))`` with ``a = Phi(x)``, ``b = Phi(x - q)``, and
    ``1 - (1 - u)^n = -expm1(n log1p(-u))``: no cancellation, so p-values far below
    1e-16 keep their relative precision (``1 - cdf`` would lose them).
    """
    q = np.asarray(q, dtype=np.float64).ravel()
    result = np.empty(q.shape[0])
    for begin in range(0, q.shape[0], _CHUNK):
        chunk = q[begin : begin + _CHUNK]
        high = max(_INTEGRATION_MARGIN, float(chunk.max()) / 2.0 + _INTEGRATION_MARGIN)
        lefts = np.arange(-_INTEGRATION_MARGIN, math.ceil(high))
        x = (lefts[:, None] + 0.5 + 0.5 * _GAUSS_NODES[None, :]).ravel()
        weights = np.tile(0.5 * _GAUSS_WEIGHTS, lefts.shape[0])
        a = special.ndtr(x)[None, :]
        b = special.ndtr(x[None, :] - chunk[:, None])
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(a > 0.0, b / a, 0.0)
            bracket = np.where(a > 0.0, a ** (k - 1) * -np.expm1((k - 1) * np.log1p(-ratio)), 0.0)
        density = np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
        result[begin : begin + _CHUNK] = k * (bracket * (density * weights)[None, :]).sum(axis=1)
    return np.clip(result, 0.0, 1.0)


def studentized_range_isf(alpha: float, k: int) -> float:
    """The q with ``P(range of k iid N(0, 1) > q) = alpha``.

    Bracketed by one pair (``sqrt(2) z_{1 - alpha/2}``, a lower bound) and the
    Bonferroni bound over the ``k (k - 1) / 2`` pairs (an upper bound).
    """
    low = -math.sqrt(2.0) * float(special.ndtri(alpha / 2.0))
    if k == 2:
        return low
    # widened a little: near the Bonferroni bound the sign of `excess` is a rounding matter
    high = -math.sqrt(2.0) * float(special.ndtri(alpha / (k * (k - 1)))) + 0.1
    log_alpha = math.log(alpha)

    def excess(q: float) -> float:
        return math.log(float(studentized_range_sf(np.array([q]), k)[0])) - log_alpha

    from scipy import optimize  # imported on use: slow to import

    return float(optimize.brentq(excess, low, high, xtol=1e-13, rtol=1e-14))
