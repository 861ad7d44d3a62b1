"""Exact Poisson, binomial and multinomial samplers on the counter-based streams.

Each sampler threads the 64-bit state of :mod:`assay._kernels._rng` explicitly: it takes
the state and returns ``(value, new_state)`` (:func:`multinomial` returns only the new
state), so a resample's draws depend on its stream alone, whatever the thread.

The Poisson and binomial samplers are exact algorithms (inversion, or rejection with an
exact acceptance test): their only departure from the exact distribution is
floating-point rounding, a relative error of the order of 1e-15 in the probabilities
(1e-13 for ``n`` near 2**62), far below anything a sample of realistic size can detect.
Acceptance tests use log-probability ratios built from ``bd0`` and Stirling-series
terms (Loader 2000) with every large difference taken in integers, so accuracy holds
for counts up to 2**62, and results are exact integers (no rounding of large counts to
multiples of a power of two).
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np

from assay._kernels._jit import jit
from assay._kernels._rng import _SHIFT_11, _UNIT, _next_positive_double, next_double, next_u64

_SPLITTER = 134217729.0  # 2**27 + 1, Veltkamp's splitting constant for float64
_HALF_LOG_TWO_PI = 0.9189385332046727  # log(2 pi) / 2
_LARGEST_COUNT = 4611686018427387904.0  # 2**62: counts beyond it are never produced

# Asymptotic series of the Stirling error (Loader 2000): 1/12, 1/360, 1/1260, 1/1680, 1/1188
_S0 = 1.0 / 12.0
_S1 = 1.0 / 360.0
_S2 = 1.0 / 1260.0
_S3 = 1.0 / 1680.0
_S4 = 1.0 / 1188.0

_PI = "3.14159265358979323846264338327950288419716939937510"


def _stirling_error_table(size: int) -> np.ndarray:
    """``log k! - ((k + 1/2) log k - k + log(2 pi) / 2)`` for k < size, correctly rounded.

    Entry 0 is unused (0.0).  Computed once with 50 significant digits.
    """
    table = np.zeros(size, dtype=np.float64)
    with localcontext() as context:
        context.prec = 50
        half_log_two_pi = (2 * Decimal(_PI)).ln() / 2
        log_factorial = Decimal(0)
        for k in range(1, size):
            log_factorial += Decimal(k).ln()
            exact = log_factorial - (k + Decimal("0.5")) * Decimal(k).ln() + k - half_log_two_pi
            table[k] = float(exact)
    return table


def _poisson_one_cdf() -> np.ndarray:
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


def _guide_table(cdf: np.ndarray, bits: int) -> np.ndarray:
    """Where the inversion search may start for ``u`` in each of ``2**bits`` equal buckets.

    Entry ``b`` is the number of cumulative probabilities ``<= b / 2**bits``: every ``u``
    of bucket ``b`` inverts to at least that index (Chen & Asau 1974, guide tables).
    """
    starts = np.arange(2**bits, dtype=np.float64) / 2**bits
    return np.searchsorted(cdf, starts, side="right").astype(np.int64)


_STIRLING_ERROR = _stirling_error_table(32)
_POISSON_ONE_CDF = _poisson_one_cdf()
_POISSON_ONE_GUIDE = _guide_table(_POISSON_ONE_CDF, 8)
_GUIDE_SHIFT = np.uint64(64 - 8)


# --- log-probability helpers (Loader 2000) --------------------------------------------


@jit
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


# --- Poisson ---------------------------------------------------------------------------


@jit
def _poisson_inversion(mean, state):
    """Sequential-search inversion for 0 < mean < 10.

    Devroye (1986), "Non-Uniform Random Variate Generation", chapter X.

    ``k`` is the first index whose cumulative probability exceeds a uniform ``u``; the
    probabilities follow ``p_k = p_{k-1} mean / k``.  If rounding leaves ``u`` above
    the last representable cumulative sum (a mass below 1e-15), ``u`` is drawn again.
    """
    start = math.exp(-mean)
    while True:
        u, state = next_double(state)
        k = 0
        probability = start
        cumulative = start
        while u >= cumulative and probability > 0.0:
            k += 1
            probability *= mean / k
            cumulative += probability
        if u < cumulative:
            return k, state


@jit
def _poisson_ptrs(mean, state):
    """Hörmann's PTRS for mean >= 10: transformed rejection with squeeze.

    Hörmann (1993), "The transformed rejection method for generating Poisson random
    variables", Insurance: Mathematics and Economics 12, 39-45, algorithm PTRS, with
    its constants.  The candidate is ``floor(mean) + j`` with ``j`` computed from the
    fractional part only, and the acceptance test compares against the log-probability
    of :func:`_poisson_log_pmf`, so large means lose no precision.
    """
    root = math.sqrt(mean)
    b = 0.931 + 2.53 * root
    a = -0.059 + 0.02483 * b
    log_inverse_alpha = math.log(1.1239 + 1.1328 / (b - 3.4))
    v_r = 0.9277 - 3.6224 / (b - 2.0)
    whole = math.floor(mean)
    base = np.int64(whole)
    fraction = mean - whole
    while True:
        u, state = next_double(state)
        u -= 0.5
        v, state = _next_positive_double(state)
        us = 0.5 - abs(u)
        if us < 0.013 and v > us:
            continue  # also rejects us == 0, where the transformation is infinite
        x = (2.0 * a / us + b) * u + (fraction + 0.43)
        if x < -whole or x >= _LARGEST_COUNT:
            continue
        j = np.int64(math.floor(x))
        if us >= 0.07 and v <= v_r:
            return base + j, state
        log_hat = math.log(v) + log_inverse_alpha - math.log(a / (us * us) + b)
        if log_hat <= _poisson_log_pmf(base + j, mean, np.float64(j) - fraction):
            return base + j, state


@jit
def _poisson_general(mean, state):
    """Poisson(mean) for mean != 1: zero, inversion below 10, PTRS from 10."""
    if not mean > 0.0:  # zero, and NaN (which would never be accepted)
        return np.int64(0), state
    if mean < 10.0:
        return _poisson_inversion(mean, state)
    return _poisson_ptrs(mean, state)


@jit
def poisson(lam, state):
    """``(k, new_state)``: a Poisson(``lam``) count (int64), ``0 <= lam <= 2**62``.

    ``lam == 1`` (the Poisson bootstrap's weight): inversion of one draw against the
    correctly rounded cumulative probabilities, started from a 256-bucket guide table
    (Chen & Asau 1974) so that 98.5% of draws need a single comparison; this path is
    small enough to be inlined into the caller's loop.  Other ``lam < 10``:
    sequential-search inversion.  ``lam >= 10``: Hörmann's PTRS (1993).  ``lam == 0``
    (and NaN) returns 0 without drawing.
    """
    state = np.uint64(state)
    mean = np.float64(lam)
    if mean == 1.0:
        value, state = next_u64(state)
        u = np.float64(value >> _SHIFT_11) * _UNIT
        k = _POISSON_ONE_GUIDE[value >> _GUIDE_SHIFT]
        while u >= _POISSON_ONE_CDF[k]:
            k += 1
        return k, state
    return _poisson_general(mean, state)


# --- binomial --------------------------------------------------------------------------


@jit
def _two_product(a, b):
    """``(x, e)`` with ``x = fl(a b)`` and ``x + e == a b`` exactly (Dekker 1971)."""
    product = a * b
    split = _SPLITTER * a
    a_high = split - (split - a)
    a_low = a - a_high
    split = _SPLITTER * b
    b_high = split - (split - b)
    b_low = b - b_high
    error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
    return product, error


@jit
def _mode_and_fraction(n, p):
    """``(mode, fraction)`` with ``(n + 1) p = mode + fraction``, ``0 <= fraction < 1``.

    ``n + 1`` is split into two exactly representable parts and each product is formed
    exactly (:func:`_two_product`), so the fraction is accurate to about 1e-16 for
    ``n < 2**53`` and 1e-13 up to 2**62, where ``(n + 1) p`` itself is rounded to a
    multiple of up to 512.
    """
    trials = n + 1
    low_part = trials & 0xFFFFFFFF
    high, high_error = _two_product(np.float64(trials - low_part), p)
    low, low_error = _two_product(np.float64(low_part), p)
    total = high + low
    virtual = total - high
    total_error = (high - (total - virtual)) + (low - virtual)
    whole = math.floor(total)
    rest = (total - whole) + (total_error + (high_error + low_error))
    carry = math.floor(rest)
    return np.int64(whole) + np.int64(carry), rest - carry


@jit
def _binomial_inversion(n, p, q, state):
    """Sequential-search inversion for ``n p < 10``, ``p <= 1/2``.

    Kachitvichyanukul & Schmeiser (1988), "Binomial random variate generation",
    Communications of the ACM 31, 216-222, algorithm BINV: the probabilities follow
    ``f(k) = f(k-1) (n - k + 1) p / (k q)`` from ``f(0) = q**n``.  A uniform left above
    the last representable cumulative sum is drawn again.
    """
    ratio = p / q
    start = math.exp(np.float64(n) * math.log1p(-p))
    while True:
        u, state = next_double(state)
        k = 0
        probability = start
        cumulative = start
        while u >= cumulative and k < n and probability > 0.0:
            k += 1
            probability *= ratio * (np.float64(n - k + 1) / np.float64(k))
            cumulative += probability
        if u < cumulative:
            return k, state


@jit
def _binomial_btrd(n, p, q, state):
    """Hörmann's BTRD for ``n p >= 10``, ``p <= 1/2``.

    Hörmann (1993), "The generation of binomial random variates", Journal of
    Statistical Computation and Simulation 46, 101-110, algorithm BTRD, steps 0-3.4,
    with its constants.  Changes that keep it exact for ``n`` up to 2**62: the mode
    ``m = floor((n + 1) p)`` and the candidate ``k = m + j`` are integers with ``j``
    computed from ``(n + 1) p - m`` only (:func:`_mode_and_fraction`); the final test
    (steps 3.3-3.4) uses :func:`_binomial_log_ratio`; a transformation at ``|u| = 1/2``
    (infinite) is rejected before it is evaluated.
    """
    mode, fraction = _mode_and_fraction(n, p)
    npq = np.float64(n) * p * q
    spq = math.sqrt(npq)
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    alpha = (2.83 + 5.1 / b) * spq
    v_r = 0.92 - 4.2 / b
    u_rv_r = 0.86 * v_r
    ratio = p / q
    offset = fraction - p + 0.5  # c - m, with c = n p + 1/2
    lowest = -np.float64(mode)  # k >= 0
    beyond = np.float64(n - mode) + 1.0  # k <= n
    while True:
        v, state = next_double(state)
        if v <= u_rv_r:  # step 1: immediate acceptance
            u = v / v_r - 0.43
            x = (2.0 * a / (0.5 - abs(u)) + b) * u + offset
            if lowest <= x < beyond:
                return mode + np.int64(math.floor(x)), state
            continue
        if v >= v_r:  # step 2
            u, state = next_double(state)
            u -= 0.5
        else:
            u = v / v_r - 0.93
            u = math.copysign(0.5, u) - u
            v, state = _next_positive_double(state)
            v *= v_r
        us = 0.5 - abs(u)  # step 3.0
        if us <= 0.0:
            continue
        x = (2.0 * a / us + b) * u + offset
        if not lowest <= x < beyond:
            continue
        j = np.int64(math.floor(x))
        k = mode + j
        v = v * alpha / (a / (us * us) + b)
        distance = abs(j)
        if distance <= 15:  # step 3.1: f(k) / f(m) by recursion
            f = 1.0
            if j > 0:
                for i in range(mode + 1, k + 1):
                    f *= ratio * (np.float64(n - i + 1) / np.float64(i))
            elif j < 0:
                for i in range(k + 1, mode + 1):
                    v *= ratio * (np.float64(n - i + 1) / np.float64(i))
            if v <= f:
                return k, state
            continue
        log_v = math.log(v)  # step 3.2: squeeze
        km = np.float64(distance)
        rho = (km / npq) * (((km / 3.0 + 0.625) * km + 1.0 / 6.0) / npq + 0.5)
        t = -km * km / (2.0 * npq)
        if log_v < t - rho:
            return k, state
        if log_v > t + rho:
            continue
        if log_v <= _binomial_log_ratio(n, p, mode, fraction, j):  # steps 3.3-3.4
            return k, state


@jit
def binomial(n, p, state):
    """``(k, new_state)``: a binomial(``n``, ``p``) count (int64).

    ``0 <= n <= 2**62``, ``0 <= p <= 1``.  ``n == 0``, ``p == 0`` and ``p == 1`` return
    without drawing (as do ``p < 0`` and NaN: 0, and ``p > 1``: ``n``).  With
    ``s = min(p, 1 - p)`` (``1 - p`` is exact for ``p >= 1/2``; for ``p > 1/2`` the count
    of failures is drawn): inversion when ``n s < 10`` (Kachitvichyanukul & Schmeiser
    1988, BINV), otherwise Hörmann's BTRD (1993).
    """
    state = np.uint64(state)
    trials = np.int64(n)
    if trials <= 0 or not p > 0.0:  # NaN too: it would never be accepted
        return np.int64(0), state
    if p >= 1.0:
        return trials, state
    if p > 0.5:
        small = 1.0 - p
        large = np.float64(p)
    else:
        small = np.float64(p)
        large = 1.0 - p
    if np.float64(trials) * small < 10.0:
        k, state = _binomial_inversion(trials, small, large, state)
    else:
        k, state = _binomial_btrd(trials, small, large, state)
    if p > 0.5:
        return trials - k, state
    return k, state


@jit
def multinomial(n, probabilities, out, state):
    """Fill ``out`` (int64) with a multinomial(``n``, ``probabilities``) draw; return the state.

    Conditional binomials: cell ``i`` gets ``binomial(remaining, p_i / (p_i + ... + p_last))``
    (Devroye 1986, chapter XI).  The tail sums are computed from the end, without
    cancellation, into ``out`` itself (viewed as float64) before it receives the counts,
    so nothing is allocated.  Probabilities are normalised by their sum (it need not be
    exactly 1, but must be positive); cells of probability 0 always get 0, and the last
    cell of positive probability takes everything that is left.  ``out`` and
    ``probabilities`` are contiguous, of the same length >= 1.
    """
    state = np.uint64(state)
    cells = probabilities.shape[0]
    tail = out.view(np.float64)
    total = 0.0
    for i in range(cells - 1, -1, -1):
        total += probabilities[i]
        tail[i] = total
    remaining = np.int64(n)
    for i in range(cells - 1):
        mass = tail[i]
        if remaining == 0 or mass <= 0.0:
            out[i] = 0
            continue
        count, state = binomial(remaining, probabilities[i] / mass, state)
        out[i] = count
        remaining -= count
    out[cells - 1] = remaining
    return state
