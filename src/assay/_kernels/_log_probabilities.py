"""Log-probabilities of the exact Poisson and binomial samplers (Loader 2000).

The rejection steps of :mod:`assay._kernels._rng` compare a uniform with a ratio of
probabilities; computed as differences of ``log k!`` the terms grow like ``n log n`` and
cancel.  Loader's forms keep every term small: the Stirling error of ``log k!`` (a
correctly rounded table for small ``k``, its asymptotic series beyond) and the deviance
``bd0`` summed as a series where its direct formula would cancel.

C. Loader, "Fast and accurate computation of binomial probabilities" (2000).
"""

from __future__ import annotations

import math

import numpy as np

from assay._kernels._jit import jit, jit_inline
from assay._kernels._rng_tables import stirling_error_table

__all__: list[str] = []

_HALF_LOG_TWO_PI = 0.9189385332046727  # log(2 pi) / 2

# Asymptotic series of the Stirling error (Loader 2000): 1/12, 1/360, 1/1260, 1/1680, 1/1188
_S0 = 1.0 / 12.0
_S1 = 1.0 / 360.0
_S2 = 1.0 / 1260.0
_S3 = 1.0 / 1680.0
_S4 = 1.0 / 1188.0

_STIRLING_ERROR = stirling_error_table(32)


@jit_inline
def _stirling_error(k):
    """``log k! - ((k + 1/2) log k - k + log(2 pi) / 2)`` for an integer ``k >= 1``.

    A correctly rounded table up to 31, the asymptotic series beyond (its first
    omitted term is below 1e-19 there).  Hörmann's BTRD correction ``fc(k)`` is
    ``_stirling_error(k + 1)``.
    """
    if k < 32:
        return _STIRLING_ERROR[k]
    x = np.float64(k)
    inverse_square = 1.0 / (x * x)
    return (
        _S0
        - (_S1 - (_S2 - (_S3 - _S4 * inverse_square) * inverse_square) * inverse_square)
        * inverse_square
    ) / x


@jit
def _bd0(x, mean, difference):
    """``x log(x / mean) + mean - x`` for ``x, mean > 0`` given ``difference = x - mean``.

    Loader (2000), "Fast and accurate computation of binomial probabilities": when
    ``|x - mean| < (x + mean) / 10`` the series in ``v = (x - mean) / (x + mean)``,
    ``(x - mean) v + 2 x (v**3 / 3 + v**5 / 5 + ...)``, avoids the cancellation of the
    direct formula.  The caller computes ``difference`` without rounding (from integers),
    which keeps the result accurate when ``x`` and ``mean`` are close to 2**62.
    """
    if abs(difference) < 0.1 * (x + mean):
        v = difference / (x + mean)
        total = difference * v
        term = 2.0 * x * v
        v_square = v * v
        for j in range(1, 100):
            term *= v_square
            updated = total + term / (2 * j + 1)
            if updated == total:
                break
            total = updated
        return total
    return x * math.log(x / mean) - difference


@jit
def _poisson_log_pmf(k, mean, difference):
    """``log P(X = k)`` for X ~ Poisson(mean), ``difference = k - mean`` (Loader 2000)."""
    if k == 0:
        return -mean
    x = np.float64(k)
    return -_stirling_error(k) - _bd0(x, mean, difference) - 0.5 * math.log(x) - _HALF_LOG_TWO_PI


@jit
def _binomial_log_ratio(n, p, mode, fraction, j):
    """``log f(mode + j) - log f(mode)`` for the binomial(n, p) probabilities ``f``.

    With ``k = mode + j``, ``M = mode + 1`` and ``N = n - mode + 1``, Stirling's formula
    in the form ``log x! = (x + 1/2) log(x + 1) - (x + 1) + log(2 pi) / 2 + fc(x)``
    (Hörmann 1993, step 3.3-3.4) rearranges exactly into::

        - bd0(k + 1, M) - bd0(n - k + 1, N) + (log1p(j / M) + log1p(-j / N)) / 2
        - j log1p(delta / (N p)) - fc(k) + fc(mode) - fc(n - k) + fc(n - mode)

    where ``delta = M q - N p = 1 - p - fraction`` and ``(n + 1) p = mode + fraction``.
    Every term is small and carries only a relative rounding error, unlike the textbook
    form whose terms grow like ``n log n`` and cancel.
    """
    k = mode + j
    m_plus = np.float64(mode + 1)
    n_plus = np.float64(n - mode + 1)
    shift = np.float64(j)
    delta = (1.0 - p) - fraction
    value = -_bd0(np.float64(k + 1), m_plus, shift)
    value -= _bd0(np.float64(n - k + 1), n_plus, -shift)
    value += 0.5 * (math.log1p(shift / m_plus) + math.log1p(-shift / n_plus))
    value -= shift * math.log1p(delta / (n_plus * p))
    value -= _stirling_error(k + 1) - _stirling_error(mode + 1)
    value -= _stirling_error(n - k + 1) - _stirling_error(n - mode + 1)
    return value
