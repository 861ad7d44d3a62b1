"""Counter-based random streams of assay._kernels._rng: determinism, exactness, speed.

Every statistical test draws from a literal seed, so it is deterministic.  ``ALPHA`` is
the probability that a correct sampler fails a goodness-of-fit test for a seed taken
at random: with the seeds fixed, a test either always passes or always fails, and a
failure means a sampler is wrong (or a one-in-a-thousand seed, which a different seed
would show).  Sample sizes keep each test well under a second compiled (and under a
few seconds as plain Python with ``NUMBA_DISABLE_JIT=1``, which draws the same values);
the ``slow`` tests repeat the checks with 10 million draws.
"""

from __future__ import annotations

import math
import os
import time
from decimal import Decimal, localcontext
from fractions import Fraction

import numba
import numpy as np
import pytest
from numba import prange
from scipy import stats

from assay._kernels import _rng as rng
from assay._kernels import _samplers as samplers
from assay._kernels._jit import jit, jit_parallel

JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")

ALPHA = 1e-3  # chance that a correct sampler fails one goodness-of-fit test
SAMPLES = 20_000  # draws per goodness-of-fit test
SMALL = 2_000  # draws for the tests on the largest counts (normal approximation)
MASK = 2**64 - 1


def thorough(test):
    """Mark a test of 10 million draws slow; it runs compiled only (minutes as Python)."""
    compiled_only = pytest.mark.skipif(JIT_DISABLED, reason="10 million draws need compiling")
    return pytest.mark.slow(compiled_only(test))


# --- kernels that draw many values --------------------------------------------------------


@jit
def draw_u64(seed, index, size):
    out = np.empty(size, dtype=np.uint64)
    state = rng.stream(seed, index)
    for i in range(size):
        out[i], state = rng.next_u64(state)
    return out


@jit
def draw_double(seed, size):
    out = np.empty(size, dtype=np.float64)
    state = rng.stream(seed, 0)
    for i in range(size):
        out[i], state = rng.next_double(state)
    return out


@jit
def draw_below(bound, seed, size):
    out = np.empty(size, dtype=np.int64)
    state = rng.stream(seed, 0)
    for i in range(size):
        out[i], state = rng.next_below(bound, state)
    return out


@jit
def draw_poisson(lam, seed, size):
    out = np.empty(size, dtype=np.int64)
    state = rng.stream(seed, 0)
    for i in range(size):
        out[i], state = samplers.poisson(lam, state)
    return out


@jit
def draw_binomial(n, p, seed, size):
    out = np.empty(size, dtype=np.int64)
    state = rng.stream(seed, 0)
    for i in range(size):
        out[i], state = samplers.binomial(n, p, state)
    return out


@jit
def draw_multinomial(n, probabilities, seed, size):
    out = np.empty((size, probabilities.shape[0]), dtype=np.int64)
    state = rng.stream(seed, 0)
    for i in range(size):
        state = samplers.multinomial(n, probabilities, out[i], state)
    return out


@jit
def draw_permutations(length, seed, size):
    out = np.empty((size, length), dtype=np.int64)
    state = rng.stream(seed, 0)
    for i in range(size):
        for j in range(length):
            out[i, j] = j
        state = rng.shuffle(out[i], state)
    return out


@jit
def first_doubles(seed, first_index, size):
    """The first draw of the streams first_index, first_index + 1, ... under one seed."""
    out = np.empty(size, dtype=np.float64)
    for i in range(size):
        out[i], _ = rng.next_double(rng.stream(seed, first_index + i))
    return out


@jit
def first_doubles_of_seeds(first_seed, index, size):
    """The first draw of stream ``index`` under the seeds first_seed, first_seed + 1, ..."""
    out = np.empty(size, dtype=np.float64)
    for i in range(size):
        out[i], _ = rng.next_double(rng.stream(first_seed + i, index))
    return out


def _resample_body(seed, i, words, counts):  # shared by the serial and parallel kernels
    state = rng.stream(seed, i)
    words[i], state = rng.next_u64(state)
    counts[i, 0], state = rng.next_below(1000, state)
    counts[i, 1], state = samplers.poisson(1.0, state)
    counts[i, 2], state = samplers.poisson(30.5, state)
    counts[i, 3], state = samplers.binomial(1_000_000, 0.3, state)
    counts[i, 4], state = samplers.binomial(40, 0.1, state)


resample_body = jit(_resample_body)


@jit_parallel
def draw_per_resample_parallel(seed, words, counts):
    for i in prange(words.shape[0]):
        resample_body(seed, i, words, counts)


@jit
def draw_per_resample_serial(seed, words, counts):
    for i in range(words.shape[0]):
        resample_body(seed, i, words, counts)


# --- helpers ---------------------------------------------------------------------------------


def assert_fits(samples: np.ndarray, distribution, bins: int = 40) -> None:
    """Chi-square goodness of fit of integer samples to a frozen scipy discrete distribution.

    Bins are cut at the distribution's quantiles (about ``bins`` of them, one per value
    when the support is small); bins expecting fewer than 5 draws are merged into a
    neighbour, and values of probability 0 must never occur.
    """
    size = samples.size
    edges = np.unique(distribution.ppf(np.linspace(0.0, 1.0, bins + 1)[1:-1]))
    # bin i holds edges[i-1] < x <= edges[i]; the last bin holds x > edges[-1]
    probabilities = np.diff(np.concatenate([[0.0], distribution.cdf(edges), [1.0]]))
    observed = np.bincount(np.searchsorted(edges, samples), minlength=edges.size + 1)
    merged_observed: list[int] = []
    merged_expected: list[float] = []
    held_observed, held_expected = 0, 0.0
    for count, probability in zip(observed, probabilities, strict=True):
        if probability <= 0.0:
            assert count == 0
            continue
        held_observed += count
        held_expected += probability * size
        if held_expected >= 5.0:
            merged_observed.append(held_observed)
            merged_expected.append(held_expected)
            held_observed, held_expected = 0, 0.0
    if held_expected > 0.0 or held_observed > 0:
        merged_observed[-1] += held_observed
        merged_expected[-1] += held_expected
    if len(merged_expected) == 1:
        return  # (nearly) certain outcome: nothing to compare
    expected = np.array(merged_expected)
    expected *= size / expected.sum()  # the cdf values sum to 1 only up to rounding
    pvalue = stats.chisquare(merged_observed, expected).pvalue
    assert pvalue > ALPHA, (pvalue, merged_observed, expected.round(1).tolist())


def assert_uniform_counts(observed: np.ndarray, probabilities: np.ndarray) -> None:
    expected = probabilities / probabilities.sum() * observed.sum()
    pvalue = stats.chisquare(observed, expected).pvalue
    assert pvalue > ALPHA, (pvalue, observed.tolist())


def reference_mix13(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def reference_murmur(z: int) -> int:
    z = ((z ^ (z >> 33)) * 0xFF51AFD7ED558CCD) & MASK
    z = ((z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53) & MASK
    return z ^ (z >> 33)


def reference_stream(seed: int, index: int) -> int:
    return reference_murmur((reference_murmur(seed) + (index + 1) * 0xD1342543DE82EF95) & MASK)


def log_factorial(x: int) -> Decimal:
    """log x! to about 50 digits: exactly below 2000, by Stirling's series above."""
    if x < 2000:
        return Decimal(math.factorial(x)).ln()
    d = Decimal(x)
    pi = Decimal(samplers._PI)
    series = 1 / (12 * d) - 1 / (360 * d**3) + 1 / (1260 * d**5) - 1 / (1680 * d**7)
    return d * d.ln() - d + (2 * pi * d).ln() / 2 + series


# --- the generator and the streams ----------------------------------------------------


def test_next_u64_is_splitmix64() -> None:
    # the published first outputs of SplitMix64 seeded with 1234567
    expected = [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]
    state = np.uint64(1234567)
    for value in expected:
        word, state = rng.next_u64(state)
        state = np.uint64(state)
        assert int(word) == value


@pytest.mark.parametrize(
    ("seed", "index"), [(0, 0), (1, 0), (0, 1), (2**64 - 1, 2**64 - 2), (12345, 999_999)]
)
def test_stream_is_the_documented_hash(seed: int, index: int) -> None:
    state = rng.stream(np.uint64(seed), np.uint64(index))
    assert int(state) == reference_stream(seed, index)
    words = draw_u64(np.uint64(seed), np.uint64(index), 3)
    expected = []
    current = reference_stream(seed, index)
    for _ in range(3):
        current = (current + 0x9E3779B97F4A7C15) & MASK
        expected.append(reference_mix13(current))
    assert [int(word) for word in words] == expected


def test_same_key_same_sequence_different_keys_differ() -> None:
    first = draw_u64(7, 3, 100)
    np.testing.assert_array_equal(first, draw_u64(7, 3, 100))
    for seed, index in [(7, 4), (7, 2), (8, 3), (6, 3), (3, 7)]:
        other = draw_u64(seed, index, 100)
        assert np.count_nonzero(other == first) == 0
    starts = {int(rng.stream(11, index)) for index in range(5000)}
    assert len(starts) == 5000  # a bijection of the index: distinct resamples, distinct states


def test_first_draws_of_neighbouring_streams_are_uncorrelated() -> None:
    m = SAMPLES
    bound = 5.0 / math.sqrt(m)  # |r| of independent uniforms has standard deviation 1/sqrt(m)
    by_index = first_doubles(2024, 0, m + 1)
    assert abs(np.corrcoef(by_index[:-1], by_index[1:])[0, 1]) < bound
    by_seed = first_doubles_of_seeds(0, 5, m + 1)
    assert abs(np.corrcoef(by_seed[:-1], by_seed[1:])[0, 1]) < bound
    # the same index under neighbouring seeds, and the same seed at neighbouring indices
    assert abs(np.corrcoef(by_index[1:], by_seed[1:])[0, 1]) < bound
    assert stats.kstest(by_index, "uniform").pvalue > ALPHA


def test_results_do_not_depend_on_the_number_of_threads() -> None:
    resamples = 64
    seed = np.uint64(20240611)
    words_serial = np.zeros(resamples, dtype=np.uint64)
    counts_serial = np.zeros((resamples, 5), dtype=np.int64)
    draw_per_resample_serial(seed, words_serial, counts_serial)
    previous = numba.get_num_threads()
    try:
        for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
            numba.set_num_threads(threads)
            words = np.zeros(resamples, dtype=np.uint64)
            counts = np.zeros((resamples, 5), dtype=np.int64)
            draw_per_resample_parallel(seed, words, counts)
            np.testing.assert_array_equal(words, words_serial)
            np.testing.assert_array_equal(counts, counts_serial)
    finally:
        numba.set_num_threads(previous)
    assert np.unique(words_serial).size == resamples


# --- uniform values ------------------------------------------------------------------------


def test_next_double_is_uniform_on_a_grid_of_2_to_the_minus_53() -> None:
    values = draw_double(99, SAMPLES)
    assert values.min() >= 0.0
    assert values.max() < 1.0
    scaled = values * 2.0**53
    np.testing.assert_array_equal(scaled, np.floor(scaled))
    assert stats.kstest(values, "uniform").pvalue > ALPHA


def _bin_sizes(bound: int, bins: int) -> np.ndarray:
    """How many integers of [0, bound) have floor(v * bins / bound) == i, for each i."""
    cuts = [-(-(i * bound) // bins) for i in range(bins + 1)]  # ceil(i * bound / bins)
    return np.array([cuts[i + 1] - cuts[i] for i in range(bins)], dtype=np.float64)


def _residue_sizes(bound: int, modulus: int) -> np.ndarray:
    """How many integers of [0, bound) are congruent to r modulo ``modulus``, for each r."""
    return np.array(
        [bound // modulus + (r < bound % modulus) for r in range(modulus)], dtype=np.float64
    )


@pytest.mark.parametrize("bound", [1, 2, 3, 7, 2**31 + 1, 2**32 - 1, 2**32 + 5])
def test_next_below_is_uniform(bound: int) -> None:
    values = draw_below(bound, 2718 + bound % 1000, SAMPLES)
    assert values.min() >= 0
    assert values.max() < bound
    if bound == 1:
        assert np.all(values == 0)
        return
    bins = min(bound, 32)
    # high digits: which of 32 nearly equal ranges; low digits: the residue modulo 32
    ranges = np.bincount((values * bins) // bound, minlength=bins)
    assert_uniform_counts(ranges, _bin_sizes(bound, bins))
    residues = np.bincount(values % bins, minlength=bins)
    assert_uniform_counts(residues, _residue_sizes(bound, bins))


def test_next_below_removes_the_bias_of_multiply_and_shift() -> None:
    # Without rejection, 2**32 words reduced to 3 * 2**30 values give multiples of 3 twice
    # the weight of the others (probability 1/2 instead of 1/3).
    bound = 3 * 2**30
    values = draw_below(bound, 17, SAMPLES)
    assert_uniform_counts(np.bincount(values % 3, minlength=3), np.ones(3))


def test_next_below_removes_the_bias_of_the_modulo_for_large_bounds() -> None:
    # Without rejection, 2**64 mod (3 * 2**61) = 2**62: values below 2**62 would have
    # probability 3/4 instead of 2/3.
    bound = 3 * 2**61
    values = draw_below(bound, 23, SAMPLES)
    below = np.count_nonzero(values < 2**62)
    assert_uniform_counts(np.array([below, values.size - below]), np.array([2.0, 1.0]))


def test_shuffle_gives_every_permutation_the_same_probability() -> None:
    permutations = draw_permutations(4, 31, SAMPLES)
    np.testing.assert_array_equal(
        np.sort(permutations, axis=1), np.tile(np.arange(4), (SAMPLES, 1))
    )
    codes = permutations @ np.array([64, 16, 4, 1])  # 24 distinct codes
    _, counts = np.unique(codes, return_counts=True)
    assert counts.size == 24
    assert_uniform_counts(counts, np.ones(24))


def test_shuffle_works_on_any_dtype_and_returns_the_state() -> None:
    values = np.linspace(0.0, 1.0, 50)
    state = rng.stream(5, 5)
    again = values.copy()
    end = rng.shuffle(values, state)
    assert int(rng.shuffle(again, state)) == int(end)
    np.testing.assert_array_equal(values, again)
    np.testing.assert_array_equal(np.sort(values), np.linspace(0.0, 1.0, 50))
    assert int(end) != int(state)


# --- Poisson -------------------------------------------------------------------------------


def test_poisson_one_table_is_the_correctly_rounded_cdf() -> None:
    cdf = samplers._POISSON_ONE_CDF
    assert cdf[-1] == 1.0
    assert cdf[-2] < 1.0
    assert cdf[0] == math.exp(-1.0)  # correctly rounded e**-1
    # scipy's cdf is itself within about one unit in the last place
    np.testing.assert_allclose(cdf, stats.poisson(1.0).cdf(np.arange(cdf.size)), rtol=4e-16)
    guide = samplers._POISSON_ONE_GUIDE
    for bucket, start in enumerate(guide):
        assert start == 0 or cdf[start - 1] <= bucket / 256
        assert cdf[start] > bucket / 256


def test_poisson_one_is_plain_inversion_of_one_draw() -> None:
    for index in range(2000):
        state = np.uint64(rng.stream(1, index))
        k, after = samplers.poisson(1.0, state)
        u, after_u = rng.next_double(state)
        assert k == np.searchsorted(samplers._POISSON_ONE_CDF, u, side="right")
        assert int(after) == int(after_u)


@pytest.mark.parametrize("lam", [0.0, 0.5, 1.0, 3.0, 9.99, 10.0, 30.0, 1000.0])
def test_poisson_matches_its_pmf(lam: float) -> None:
    samples = draw_poisson(lam, 4242, SAMPLES)
    if lam == 0.0:
        assert np.all(samples == 0)
        return
    assert_fits(samples, stats.poisson(lam))


@pytest.mark.parametrize("lam", [0.0, math.nan])
def test_poisson_of_zero_or_nan_is_zero_and_draws_nothing(lam: float) -> None:
    state = rng.stream(3, 4)
    k, after = samplers.poisson(lam, state)
    assert k == 0
    assert int(after) == int(state)


@pytest.mark.parametrize("lam", [1e15 + 0.375, 2.0**62])
def test_poisson_of_huge_means_is_exact_to_the_last_digit(lam: float) -> None:
    samples = draw_poisson(lam, 78, SMALL)
    # exact integers: the lowest digits are uniform (sd of the counts >> 64), not rounded
    assert_uniform_counts(np.bincount(samples % 64, minlength=64), np.ones(64))
    z = (samples - lam) / math.sqrt(lam)  # normal to ~1e-7 at these means
    assert stats.kstest(z, "norm").pvalue > ALPHA


def test_poisson_log_pmf_is_accurate_for_every_mean() -> None:
    with localcontext() as context:
        context.prec = 50
        for lam in [10.0, 33.3, 1000.0, 123456.789, 1e12 + 0.25, 1e18, 2.0**62]:
            whole = math.floor(lam)
            exact_lam = Decimal(lam)
            for z in [-8.0, -2.0, -0.5, 0.0, 0.3, 1.0, 3.0, 9.0]:
                j = round(z * math.sqrt(lam))
                k = whole + j
                if k < 0:
                    continue
                got = samplers._poisson_log_pmf(k, lam, j - (lam - whole))
                want = float(-exact_lam + k * exact_lam.ln() - log_factorial(k))
                # acceptance compares against log(uniform): this is the relative error
                # of the acceptance probability
                assert got == pytest.approx(want, rel=1e-14, abs=1e-14)


# --- binomial ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "p"),
    [
        (1, 0.5),
        (19, 0.5),  # inversion (n p = 9.5)
        (20, 0.5),  # BTRD from n p = 10
        (100, 0.05),
        (100, 0.95),  # failures drawn by inversion
        (1000, 0.3),
        (1000, 0.7),  # failures drawn by BTRD
        (10**6, 0.5),
        (10**9, 3e-9),  # inversion with a huge n
        (10**9, 1e-6),
        (10**9, 0.3),
        (10**9, 1.0 - 2e-9),  # failures drawn by inversion
        (2**62, 1e-18),
    ],
)
def test_binomial_matches_its_pmf(n: int, p: float) -> None:
    samples = draw_binomial(n, p, 1000 + n % 997, SAMPLES)
    assert samples.min() >= 0
    assert samples.max() <= n
    assert_fits(samples, stats.binom(n, p))


@pytest.mark.parametrize(
    ("n", "p", "value"), [(0, 0.3, 0), (10, 0.0, 0), (10, 1.0, 10), (10, math.nan, 0)]
)
def test_binomial_edge_cases_are_certain_and_draw_nothing(n: int, p: float, value: int) -> None:
    state = rng.stream(3, 3)
    k, after = samplers.binomial(n, p, state)
    assert k == value
    assert int(after) == int(state)


@pytest.mark.parametrize(("n", "p"), [(2**62, 0.5), (2**62 - 1, 0.3), (3 * 2**58 + 1, 1e-3)])
def test_binomial_of_huge_n_is_exact_to_the_last_digit(n: int, p: float) -> None:
    samples = draw_binomial(n, p, 55, SMALL)
    assert_uniform_counts(np.bincount(samples % 64, minlength=64), np.ones(64))
    mean = n * p
    z = (samples - mean) / math.sqrt(mean * (1.0 - p))
    assert stats.kstest(z, "norm").pvalue > ALPHA


@pytest.mark.parametrize(
    ("n", "p"),
    [(100, 0.3), (10**6, 0.5), (10**9, 0.3), (10**9, 1e-7), (2**53 + 7, 0.25), (2**62, 0.3)],
)
def test_binomial_log_ratio_is_accurate_up_to_2_to_the_62(n: int, p: float) -> None:
    exact = (n + 1) * Fraction(p)
    mode, fraction = samplers._mode_and_fraction(n, p)
    mode = int(mode)
    assert mode == math.floor(exact)
    assert fraction == pytest.approx(float(exact - mode), abs=1e-13)
    sd = math.sqrt(n * p * (1.0 - p))
    with localcontext() as context:
        context.prec = 50
        log_odds = (Decimal(p) / (1 - Decimal(p))).ln()
        for z in [-8.0, -3.0, -0.3, 0.2, 2.5, 6.0]:
            j = round(z * sd)
            k = mode + j
            if not 0 <= k <= n:
                continue
            want = (
                log_factorial(mode)
                + log_factorial(n - mode)
                - log_factorial(k)
                - log_factorial(n - k)
                + j * log_odds
            )
            got = samplers._binomial_log_ratio(n, p, mode, fraction, j)
            assert got == pytest.approx(float(want), rel=1e-14, abs=1e-14)


def test_stirling_error_matches_hormanns_table_and_the_series() -> None:
    # fc(k) = stirling_error(k + 1), tabulated for k = 0..9 in Hörmann (1993)
    table = [
        0.08106146679532726,
        0.04134069595540929,
        0.02767792568499834,
        0.02079067210376509,
        0.01664469118982119,
        0.01387612882307075,
        0.01189670994589177,
        0.01041126526197209,
        0.009255462182712733,
        0.008330563433362871,
    ]
    for k, value in enumerate(table):
        assert samplers._stirling_error(k + 1) == pytest.approx(value, rel=1e-15)
    with localcontext() as context:
        context.prec = 50
        half_log_two_pi = (2 * Decimal(samplers._PI)).ln() / 2
        for k in [16, 31, 32, 33, 100, 10**6]:
            exact = log_factorial(k) - (
                (k + Decimal("0.5")) * Decimal(k).ln() - k + half_log_two_pi
            )
            assert samplers._stirling_error(k) == pytest.approx(float(exact), rel=1e-15, abs=1e-20)


# --- multinomial ---------------------------------------------------------------------------


def test_multinomial_sums_to_n_and_keeps_zero_cells_empty() -> None:
    probabilities = np.array([0.1, 0.0, 0.25, 0.65, 0.0])
    n = 1000
    draws = draw_multinomial(n, probabilities, 8, SAMPLES)
    np.testing.assert_array_equal(draws.sum(axis=1), n)
    assert np.all(draws[:, [1, 4]] == 0)
    assert np.all(draws >= 0)
    for cell in (0, 2, 3):
        assert_fits(draws[:, cell], stats.binom(n, probabilities[cell]))
    # the joint law: cells are negatively correlated, r = -sqrt(p_i p_j / ((1-p_i)(1-p_j)))
    p0, p2 = probabilities[0], probabilities[2]
    expected = -math.sqrt(p0 * p2 / ((1 - p0) * (1 - p2)))
    observed = np.corrcoef(draws[:, 0], draws[:, 2])[0, 1]
    assert abs(observed - expected) < 5.0 / math.sqrt(SAMPLES)


def test_multinomial_of_many_cells_and_a_huge_n() -> None:
    probabilities = np.random.default_rng(12).dirichlet(np.full(50, 0.5))
    probabilities[[3, 17]] = 0.0
    n = 10**9
    draws = draw_multinomial(n, probabilities, 9, SAMPLES // 10)
    np.testing.assert_array_equal(draws.sum(axis=1), n)
    assert np.all(draws[:, [3, 17]] == 0)
    total = probabilities.sum()  # normalised by their sum, which is 1 up to rounding
    for cell in (0, 25, 49, int(np.argmin(np.where(probabilities > 0, probabilities, 1)))):
        assert_fits(draws[:, cell], stats.binom(n, probabilities[cell] / total))


@pytest.mark.parametrize(
    ("n", "probabilities", "expected"),
    [
        (5, [1.0], [5]),
        (0, [0.2, 0.8], [0, 0]),
        (7, [0.0, 1.0, 0.0], [0, 7, 0]),
        (7, [0.0, 0.0, 1.0], [0, 0, 7]),
    ],
)
def test_multinomial_certain_outcomes(n: int, probabilities: list, expected: list) -> None:
    out = np.full(len(probabilities), -1, dtype=np.int64)
    samplers.multinomial(n, np.array(probabilities), out, rng.stream(1, 2))
    np.testing.assert_array_equal(out, expected)


def test_multinomial_of_thirds_normalises_by_the_sum() -> None:
    probabilities = np.full(3, 1.0 / 3.0)  # sums to 1 - 2**-53... or so, not exactly 1
    draws = draw_multinomial(30, probabilities, 4, SAMPLES)
    np.testing.assert_array_equal(draws.sum(axis=1), 30)
    for cell in range(3):
        assert_fits(draws[:, cell], stats.binom(30, 1.0 / 3.0))


# --- slow, more thorough checks ------------------------------------------------------------


@thorough
@pytest.mark.parametrize(
    ("n", "p"), [(20, 0.5), (45, 0.2), (1000, 0.3), (10**9, 0.3), (10**9, 2e-8), (10**7, 0.999)]
)
def test_binomial_matches_its_pmf_thoroughly(n: int, p: float) -> None:
    assert_fits(draw_binomial(n, p, 31337, 10_000_000), stats.binom(n, p), bins=200)


@thorough
@pytest.mark.parametrize("lam", [0.25, 1.0, 7.5, 10.0, 55.5, 10**6])
def test_poisson_matches_its_pmf_thoroughly(lam: float) -> None:
    assert_fits(draw_poisson(lam, 31337, 10_000_000), stats.poisson(lam), bins=200)


@thorough
def test_multinomial_marginals_thoroughly() -> None:
    probabilities = np.array([0.5, 0.3, 0.15, 0.05])
    draws = draw_multinomial(10**7, probabilities, 5, 2_000_000)
    for cell in range(4):
        assert_fits(draws[:, cell], stats.binom(10**7, probabilities[cell]), bins=100)


# --- speed (printed), and what the timed loops drew (asserted) ----------------------------


@jit
def time_next_u64(count):
    out = np.empty(count, dtype=np.uint64)
    state = rng.stream(1, 0)
    for i in range(count):
        out[i], state = rng.next_u64(state)
    return out


@jit
def time_next_below(bound, count):
    state = rng.stream(1, 0)
    total = 0
    for _ in range(count):
        value, state = rng.next_below(bound, state)
        total += value
    return total


@jit
def time_poisson(lam, count):
    state = rng.stream(1, 0)
    total = 0
    for _ in range(count):
        value, state = samplers.poisson(lam, state)
        total += value
    return total


@jit
def time_binomial(n, p, count):
    state = rng.stream(1, 0)
    total = 0
    for _ in range(count):
        value, state = samplers.binomial(n, p, state)
        total += value
    return total


@jit
def time_multinomial(n, probabilities, count):
    state = rng.stream(1, 0)
    out = np.empty(probabilities.shape[0], dtype=np.int64)
    total = 0
    for _ in range(count):
        state = samplers.multinomial(n, probabilities, out, state)
        total += out[0]
    return total


# What a timed kernel returns, per draw: (mean, variance) of the value it sums.
TIMED_DRAW_MOMENTS = {
    "next_below(10**6)": ((10**6 - 1) / 2, (10**12 - 1) / 12),
    "poisson(1)": (1.0, 1.0),
    "binomial(10**6, 0.3)": (0.3 * 10**6, 0.3 * 0.7 * 10**6),
    "multinomial(10**7, 4 cells)": (0.25 * 10**7, 0.25 * 0.75 * 10**7),  # its first cell
}
# Generous ceilings, about 100x the compiled speed of an idle 2-core machine (a loaded
# one measured up to 20x slower): they fail when a sampler runs as interpreted Python
# (about a microsecond per next_u64), not on a busy machine.
CEILING_NS_PER_DRAW = {
    "next_u64": 200.0,
    "next_below(10**6)": 1_000.0,
    "poisson(1)": 1_000.0,
    "binomial(10**6, 0.3)": 20_000.0,
    "multinomial(10**7, 4 cells)": 80_000.0,
}
Z_BOUND = 5.0  # |z| of a correct sum exceeds 5 with probability 6e-7; the seed is fixed


@pytest.mark.skipif(JIT_DISABLED, reason="timings of compiled code only")
def test_timed_draws_are_right_and_fast() -> None:
    """Time each sampler (printed with ``-s``); check what the timed loop drew, and that
    it ran compiled."""
    cases = [
        ("next_u64", time_next_u64, (), 2_000_000),
        ("next_below(10**6)", time_next_below, (10**6,), 2_000_000),
        ("poisson(1)", time_poisson, (1.0,), 2_000_000),
        ("binomial(10**6, 0.3)", time_binomial, (10**6, 0.3), 200_000),
        ("multinomial(10**7, 4 cells)", time_multinomial, (10**7, np.full(4, 0.25)), 200_000),
    ]
    for name, kernel, arguments, count in cases:
        kernel(*arguments, 10)  # compile
        best = math.inf
        for _ in range(3):
            start = time.perf_counter()
            result = kernel(*arguments, count)
            best = min(best, time.perf_counter() - start)
        nanoseconds = best / count * 1e9
        print(f"{name:30s} {nanoseconds:7.2f} ns per draw")
        assert nanoseconds < CEILING_NS_PER_DRAW[name], name
        if name == "next_u64":
            # the stream of (seed 1, index 0): SplitMix64 steps from the documented hash
            state = reference_stream(1, 0)
            for word in result[:3]:
                state = (state + 0x9E3779B97F4A7C15) & MASK
                assert int(word) == reference_mix13(state)
            uniforms = (result >> np.uint64(11)).astype(np.float64) / 2.0**53
            z = (uniforms.mean() - 0.5) / math.sqrt(1 / 12 / count)
        else:
            mean, variance = TIMED_DRAW_MOMENTS[name]
            z = (int(result) - count * mean) / math.sqrt(count * variance)
        assert abs(z) < Z_BOUND, (name, z)
