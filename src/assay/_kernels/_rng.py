"""Counter-based random streams: one stream per (seed, resample), any number of threads.

Every function threads a 64-bit state explicitly: a draw takes the state and returns
``(value, new_state)``; :func:`multinomial` and :func:`shuffle` return only the new
state.  Nothing is global, nothing is shared, so a kernel running resamples in
``prange`` starts each resample ``r`` from ``stream(seed, r)`` and the draws of that
resample depend on ``(seed, r)`` alone, never on which thread runs it or in what
order: results are bit-identical for any number of threads (ARCHITECTURE.md, rule 5).

Generator
    SplitMix64 (Steele, Lea & Flood 2014): the state advances by the odd constant
    ``0x9E3779B97F4A7C15`` (a Weyl sequence, period 2**64, every state visited once)
    and each output is the state passed through Stafford's "Mix13" bijection.  It
    passes TestU01's BigCrush (Steele, Lea & Flood 2014, section 5); it is not
    cryptographic.
Streams
    ``stream(seed, index)`` is ``F(F(seed) + (index + 1) K)`` with ``F`` the MurmurHash3
    finaliser (a bijection of 64-bit words, distinct from the output mix) and ``K`` an
    odd constant.  For a fixed seed it is a bijection of the index (distinct resamples
    start from distinct states) and for a fixed index a bijection of the seed; neighbouring
    indices or seeds give unrelated starting points.  All streams are segments of the one
    cycle of 2**64 states starting at effectively random positions: ``B`` streams of
    ``L`` draws each overlap with probability below ``B**2 L / 2**64`` (1e4 resamples of
    1e8 draws: 5e-4; 2000 resamples of 1e6 draws: 2e-7).  An overlap would make two
    resamples share a run of draws at an offset; it cannot repeat a resample.
Keyed streams
    ``keyed_stream(stream(seed, index), key)`` starts the draws of one item (a tie cell
    of rows, a row, a confusion cell) named by a 64-bit ``key`` within resample
    ``index``: the state ``stream(seed, index) + (key + 1) K``, from which SplitMix64
    draws as from any state (its output mix hashes the sum).  The draws of an item then
    depend on ``(seed, index, key)`` only, not on the order in which items are visited
    nor on which other items exist, so data split into pieces, in any order, get the
    same draws item by item (the Poisson bootstrap).  Items of one resample start at
    distinct states; with ``M`` items over all resamples (``B n``) two of them start at
    the same state, or one within a few draws of another, with probability about
    ``M**2 / 2**64`` (1e9: 5e-2), unless their keys are consecutive integers, which
    never meet (see :func:`keyed_stream`): such a pair of items draws equal counts, a
    coincidence among ``M`` draws that no statistic of the resamples can see.
Samplers
    Integers are exactly uniform (rejection removes the bias of reducing 2**32 or 2**64
    values to ``bound``).  The Poisson and binomial samplers are exact algorithms
    (inversion, or rejection with an exact acceptance test): their only departure from
    the exact distribution is floating-point rounding, a relative error of the order of
    1e-15 in the probabilities (1e-13 for ``n`` near 2**62), far below anything a sample
    of realistic size can detect.  Acceptance tests use log-probability ratios built
    from ``bd0`` and Stirling-series terms (Loader 2000) with every large difference
    taken in integers, so accuracy holds for counts up to 2**62, and results are exact
    integers (no rounding of large counts to multiples of a power of two).

Inside ``prange`` keep the state in a variable local to the loop body, start it with
:func:`stream`, and never carry it across iterations.  Treat the state as opaque: in
Numba, arithmetic mixing uint64 and int64 gives float64.
"""

from __future__ import annotations

import math

import numpy as np

from assay._kernels._jit import jit, jit_inline
from assay._kernels._log_probabilities import (
    _binomial_log_ratio,
    _poisson_log_pmf,
)
from assay._kernels._rng_tables import guide_table, poisson_one_cdf

_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_LOW_HALF = np.uint64(0xFFFFFFFF)
_TWO_32 = np.uint64(0x100000000)
_SHIFT_11 = np.uint64(11)
_SHIFT_27 = np.uint64(27)
_SHIFT_30 = np.uint64(30)
_SHIFT_31 = np.uint64(31)
_SHIFT_32 = np.uint64(32)
_SHIFT_33 = np.uint64(33)
_SIGN = np.uint64(0x8000000000000000)  # the sign bit of a float64: -0.0's bits

_GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)  # SplitMix64's increment
_MIX13_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX13_2 = np.uint64(0x94D049BB133111EB)
_MURMUR_1 = np.uint64(0xFF51AFD7ED558CCD)
_MURMUR_2 = np.uint64(0xC4CEB9FE1A85EC53)
_STREAM_STEP = np.uint64(0xD1342543DE82EF95)  # odd: index -> index * K is a bijection

_UNIT = 2.0**-53  # spacing of the doubles next_double returns
_SPLITTER = 134217729.0  # 2**27 + 1, Veltkamp's splitting constant for float64
_LARGEST_COUNT = 4611686018427387904.0  # 2**62: counts beyond it are never produced

_POISSON_ONE_CDF = poisson_one_cdf()
_POISSON_ONE_GUIDE = guide_table(_POISSON_ONE_CDF, 8)
_GUIDE_SHIFT = np.uint64(64 - 8)


# --- the generator ------------------------------------------------------------------


@jit_inline
def _mix13(z):
    """Stafford's Mix13, SplitMix64's output function (a bijection of 64-bit words)."""
    z = (z ^ (z >> _SHIFT_30)) * _MIX13_1
    z = (z ^ (z >> _SHIFT_27)) * _MIX13_2
    return z ^ (z >> _SHIFT_31)


@jit_inline
def _murmur_mix(z):
    """MurmurHash3's 64-bit finaliser fmix64 (a bijection of 64-bit words)."""
    z = (z ^ (z >> _SHIFT_33)) * _MURMUR_1
    z = (z ^ (z >> _SHIFT_33)) * _MURMUR_2
    return z ^ (z >> _SHIFT_33)


@jit_inline
def keyed_stream(resample_state, key):
    """Initial state of the draws of the item named ``key`` within one resample.

    Parameters
    ----------
    resample_state : uint64
        The resample's own initial state, ``stream(seed, index)``.
    key : int
        A word naming the item (below 2**64, taken as uint64): a row's position, a
        cell's index, or a hashed identity (:func:`score_key`).

    Returns
    -------
    uint64
        ``resample_state + (key + 1) K``: the SplitMix64 state at a position of its
        cycle set by the resample (a hash of the seed and the resample's index) and
        shifted by the key, whose draws the generator's output mix turns into
        independent uniforms.  A bijection of ``key`` for a fixed resample (distinct
        items start from distinct states) and of the resample for a fixed key.  Items
        named by consecutive keys start ``K`` apart, which makes the first draws of a
        resample's items a SplitMix64 sequence of increment ``K`` (35 bit transitions,
        a good increment by Steele, Lea & Flood's criterion of at least 24); the ``j``-th
        draw of one item meets the first of another only if ``(k' - k) K = (j - 1) G``
        modulo 2**64 (``G`` SplitMix64's increment), which has no solution with
        ``|k' - k| < 1.7e16`` and ``j < 1000``.  An item's draws depend on
        ``(seed, index, key)`` alone, not on which other items exist or in what order
        they are visited, so they can be drawn on any machine that holds the item.
    """
    return np.uint64(resample_state) + (np.uint64(key) + _ONE) * _STREAM_STEP


@jit_inline
def stream(seed, index):
    """Initial state of the stream of resample ``index`` under the master ``seed``.

    Parameters
    ----------
    seed, index : int
        Non-negative integers below 2**64 (taken as uint64).

    Returns
    -------
    uint64
        ``F(F(seed) + (index + 1) K)`` with ``F`` MurmurHash3's fmix64 and ``K`` odd:
        a bijection of ``index`` for a fixed ``seed`` and of ``seed`` for a fixed index.
        (``F(keyed_stream(F(seed), index))``: a resample is an item of the seed, mixed
        once more so that neighbouring resamples start at unrelated positions.)
    """
    return _murmur_mix(keyed_stream(_murmur_mix(np.uint64(seed)), index))


@jit_inline
def score_key(score_bits, tag):
    """Key naming an item by a float64 score and a tag: ``stream(bits, tag)``.

    ``score_bits`` are the raw bits of the score (``scores.view(np.uint64)``) with
    ``-0.0`` taken as ``0.0`` (the two zeros are one tie group); ``tag`` is a second
    word, such as the class (0 or 1) or the key of another score.  Distinct items get
    unrelated keys; two items share one only by a chance of about ``2**-64`` per pair.
    """
    bits = np.uint64(score_bits)
    if bits == _SIGN:
        bits = np.uint64(0)
    return stream(bits, tag)


@jit_inline
def next_u64(state):
    """SplitMix64 step: ``(value, new_state)``, value uniform on all 2**64 words.

    Steele, Lea & Flood (2014), "Fast splittable pseudorandom number generators",
    OOPSLA, section 3: ``state += 0x9E3779B97F4A7C15``; the value is Mix13 of the state.
    """
    state = np.uint64(state) + _GOLDEN_GAMMA
    return _mix13(state), state


@jit_inline
def next_double(state):
    """``(u, new_state)`` with ``u`` uniform on the 2**53 multiples of 2**-53 in [0, 1)."""
    value, state = next_u64(state)
    return np.float64(value >> _SHIFT_11) * _UNIT, state


@jit_inline
def _next_positive_double(state):
    """Like :func:`next_double` on (0, 1]: safe to take the logarithm of."""
    value, state = next_u64(state)
    return np.float64((value >> _SHIFT_11) + _ONE) * _UNIT, state


@jit_inline
def next_below(bound, state):
    """``(k, new_state)`` with ``k`` exactly uniform on ``0, ..., bound - 1`` (int64).

    ``1 <= bound < 2**63``.  For ``bound < 2**32``: Lemire's nearly divisionless method
    on the high 32 bits of a draw (Lemire 2019, "Fast random integer generation in an
    interval", ACM Transactions on Modeling and Computer Simulation 29(1)): the 64-bit
    product of two 32-bit numbers cannot overflow, and the one division is only needed
    with probability ``bound / 2**32``.  Larger bounds: ``x mod bound`` after rejecting
    the ``2**64 mod bound`` smallest words (OpenBSD's arc4random_uniform); fewer than
    two draws on average.
    """
    b = np.uint64(bound)
    if b <= _LOW_HALF:
        value, state = next_u64(state)
        product = (value >> _SHIFT_32) * b
        low = product & _LOW_HALF
        if low < b:
            threshold = (_TWO_32 - b) % b
            while low < threshold:
                value, state = next_u64(state)
                product = (value >> _SHIFT_32) * b
                low = product & _LOW_HALF
        return np.int64(product >> _SHIFT_32), state
    threshold = (_ALL - b + _ONE) % b  # 2**64 mod bound
    value, state = next_u64(state)
    while value < threshold:
        value, state = next_u64(state)
    return np.int64(value % b), state


@jit
def shuffle(values, state):
    """Shuffle a 1-d contiguous array in place (Fisher-Yates); returns the new state.

    Durstenfeld's form (Knuth, TAOCP vol. 2, 3.4.2, algorithm P): for i = n-1, ..., 1
    swap ``values[i]`` with ``values[j]``, ``j`` uniform on ``0..i`` from
    :func:`next_below`, so every permutation has probability exactly ``1 / n!``
    (up to the generator).
    """
    state = np.uint64(state)
    for i in range(values.shape[0] - 1, 0, -1):
        j, state = next_below(i + 1, state)
        held = values[i]
        values[i] = values[j]
        values[j] = held
    return state


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


@jit_inline
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


@jit_inline
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
