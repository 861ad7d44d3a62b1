"""Tables of the random samplers, computed once at import with 50 significant digits.

Correctly rounded float64 values that :mod:`assay._kernels._rng` reads inside its
kernels: the Stirling error ``log k! - ((k + 1/2) log k - k + log(2 pi) / 2)`` of small
``k`` (Loader 2000), the cumulative probabilities of Poisson(1) and the guide table that
starts their inversion (Chen & Asau 1974).  Plain Python and ``decimal``: no Numba.
"""

from __future__ import annotations

from decimal import Decimal, localcontext

import numpy as np

PI = "3.14159265358979323846264338327950288419716939937510"


def stirling_error_table(size: int) -> np.ndarray:
    """``log k! - ((k + 1/2) log k - k + log(2 pi) / 2)`` for k < size, correctly rounded.

    Entry 0 is unused (0.0).  Computed once with 50 significant digits.
    """
    table = np.zeros(size, dtype=np.float64)
    with localcontext() as context:
        context.prec = 50
        half_log_two_pi = (2 * Decimal(PI)).ln() / 2
        log_factorial = Decimal(0)
        for k in range(1, size):
            log_factorial += Decimal(k).ln()
            exact = log_factorial - (k + Decimal("0.5")) * Decimal(k).ln() + k - half_log_two_pi
            table[k] = float(exact)
    return table


def poisson_one_cdf() -> np.ndarray:
    """P(X <= k) for X ~ Poisson(1), correctly rounded, up to the first entry equal to 1.0."""
    values = []
    with localcontext() as context:
        context.prec = 50
        term = Decimal(-1).exp()
        cumulative = term
        k = 0
        while float(cumulative) < 1.0:
            values.append(float(cumulative))
            k += 1
            term /= k
            cumulative += term
    values.append(1.0)
    return np.array(values, dtype=np.float64)


def guide_table(cdf: np.ndarray, bits: int) -> np.ndarray:
    """Where the inversion search may start for ``u`` in each of ``2**bits`` equal buckets.

    Entry ``b`` is the number of cumulative probabilities ``<= b / 2**bits``: every ``u``
    of bucket ``b`` inverts to at least that index (Chen & Asau 1974, guide tables).
    """
    starts = np.arange(2**bits, dtype=np.float64) / 2**bits
    return np.searchsorted(cdf, starts, side="right").astype(np.int64)
