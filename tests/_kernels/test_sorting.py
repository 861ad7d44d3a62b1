"""The radix sort and the order-preserving keys of assay._kernels.sorting."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assay._kernels import ranking, sorting
from tests.strategies import clustered_scores, large_clustered_scores

finite_or_infinite = st.floats(allow_nan=False, width=64)


@given(hnp.arrays(np.float64, st.integers(0, 300), elements=finite_or_infinite))
def test_radix_sort_of_keys_is_descending_sort(values: np.ndarray) -> None:
    keys = sorting.radix_sort(sorting.descending_keys(values))
    expected = np.sort(values)[::-1]
    # -0.0 and 0.0 share a key and come back as +0.0; compare as floats
    np.testing.assert_array_equal(sorting.keys_to_scores(keys), expected)


@given(hnp.arrays(np.float64, st.integers(0, 300), elements=finite_or_infinite))
def test_descending_order_is_a_stable_descending_argsort(values: np.ndarray) -> None:
    order = sorting.descending_order(values)
    # stable descending order == stable ascending argsort of the negated values,
    # with -0.0 and 0.0 tied (negation maps both to zeros that compare equal)
    expected = np.argsort(-values, kind="stable")
    np.testing.assert_array_equal(order, expected)


@given(
    hnp.arrays(np.float64, st.integers(0, 300), elements=finite_or_infinite),
    st.integers(0, 2**32 - 1),
)
def test_payload_travels_with_its_key(values: np.ndarray, seed: int) -> None:
    payload = np.random.default_rng(seed).random(values.shape[0])
    keys = sorting.descending_keys(values)
    moved = payload.copy()
    sorting.radix_sort_with_payload(keys, moved)
    order = np.argsort(-values, kind="stable")
    np.testing.assert_array_equal(moved, payload[order])


@pytest.mark.parametrize("offset", [-1, 0, 1])
def test_descending_order_is_the_radix_order_on_both_sides_of_the_numpy_limit(offset) -> None:
    # up to NUMPY_ORDER_MAX scores the order is NumPy's stable argsort, above it the radix
    # sort of the keys: the same permutation (ties, signed zeros and infinities included)
    generator = np.random.default_rng(offset + 2)
    n = sorting.NUMPY_ORDER_MAX + offset
    values = np.round(generator.standard_normal(n), 1)
    values[generator.integers(0, n, 40)] = 0.0
    values[generator.integers(0, n, 40)] = -0.0
    values[generator.integers(0, n, 5)] = np.inf
    values[generator.integers(0, n, 5)] = -np.inf
    keys = sorting.descending_keys(values)
    radix_order = np.arange(n, dtype=np.int64)
    sorting.radix_sort_with_payload(keys, radix_order)
    order = sorting.descending_order(values)
    assert order.dtype == np.int64
    np.testing.assert_array_equal(order, radix_order)


def test_signed_zeros_share_one_key() -> None:
    keys = sorting.descending_keys(np.array([0.0, -0.0]))
    assert keys[0] == keys[1]
    back = sorting.keys_to_scores(keys)
    assert back[1] == 0.0
    assert not np.signbit(back[1])


@pytest.mark.parametrize(
    "values",
    [
        [np.inf, 1e308, 1.0, 5e-324, 0.0, -5e-324, -1.0, -1e308, -np.inf],
        [0.5] * 5,
        [],
        [3.0],
    ],
)
def test_keys_are_order_preserving_on_extreme_values(values: list[float]) -> None:
    array = np.array(values, dtype=np.float64)
    keys = sorting.descending_keys(array)
    # the values are listed from the highest down, so the keys must not decrease
    assert [int(k) for k in keys] == sorted(int(k) for k in keys)
    np.testing.assert_array_equal(sorting.keys_to_scores(keys), array)


def test_large_input_uses_every_radix_pass() -> None:
    # values spanning many exponents and both signs exercise all six digits
    rng = np.random.default_rng(20261125)
    values = rng.standard_normal(50_000) * np.exp(rng.uniform(-300, 300, 50_000))
    keys = sorting.radix_sort(sorting.descending_keys(values))
    np.testing.assert_array_equal(sorting.keys_to_scores(keys), np.sort(values)[::-1])


# -- the radix sort of float scores (float64 on 64-bit keys, float32 on 32-bit keys) --

finite_or_infinite_32 = st.floats(allow_nan=False, width=32)


@given(hnp.arrays(np.float64, st.integers(0, 300), elements=finite_or_infinite))
def test_radix_sort_floats_is_np_sort_for_float64(values: np.ndarray) -> None:
    sorted_values = sorting.radix_sort_floats(values.copy())
    assert sorted_values.dtype == np.float64
    # np.sort may leave -0.0 and 0.0 in either order; the radix sort makes both +0.0
    np.testing.assert_array_equal(sorted_values, np.sort(values))
    assert not np.signbit(sorted_values[sorted_values == 0.0]).any()


@given(hnp.arrays(np.float32, st.integers(0, 300), elements=finite_or_infinite_32))
def test_radix_sort_floats_is_np_sort_for_float32(values: np.ndarray) -> None:
    sorted_values = sorting.radix_sort_floats(values.copy())
    assert sorted_values.dtype == np.float32  # sorted on 32-bit keys, never widened
    np.testing.assert_array_equal(sorted_values, np.sort(values))
    assert not np.signbit(sorted_values[sorted_values == 0.0]).any()


@given(hnp.arrays(np.uint32, st.integers(0, 300)))
def test_radix_sort_of_32_bit_keys(keys: np.ndarray) -> None:
    expected = np.sort(keys)
    sorted_keys = sorting.radix_sort(keys.copy())
    assert sorted_keys.dtype == np.uint32
    np.testing.assert_array_equal(sorted_keys, expected)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_radix_sort_floats_of_large_inputs_takes_the_bucket_pass(dtype: type) -> None:
    # above the size where one most-significant-digit pass comes first: both signs,
    # many exponents, signed zeros, infinities and ties, each bucket then sorted by LSD
    rng = np.random.default_rng(20261126)
    n = 1 << 17  # the smallest size that takes the bucket pass (kept small for plain Python)
    values = (rng.standard_normal(n) * np.exp(rng.uniform(-30, 30, n))).astype(dtype)
    values[rng.integers(0, n, 1000)] = -0.0
    values[rng.integers(0, n, 1000)] = 0.0
    values[rng.integers(0, n, 10)] = np.inf
    values[rng.integers(0, n, 10)] = -np.inf
    values[rng.integers(0, n, 5000)] = values[:5000]
    sorted_values = sorting.radix_sort_floats(values.copy())
    np.testing.assert_array_equal(sorted_values, np.sort(values))
    assert not np.signbit(sorted_values[sorted_values == 0.0]).any()


def test_radix_sort_of_large_32_bit_keys() -> None:
    keys = np.random.default_rng(20261127).integers(0, 2**32, 1 << 17, dtype=np.uint32)
    np.testing.assert_array_equal(sorting.radix_sort(keys.copy()), np.sort(keys))


def test_radix_sort_of_large_64_bit_keys_takes_the_bucket_passes() -> None:
    """Keys over all 64 bits (as DeLong's words), ties, and a bucket whose keys vary in
    a few high bits and ten low ones: its second digit leaves long sub-buckets, which
    are finished by LSD passes rather than by insertion."""
    rng = np.random.default_rng(20261128)
    n = (1 << 17) + 5
    keys = rng.integers(0, np.iinfo(np.uint64).max, n, dtype=np.uint64, endpoint=True)
    skewed = n // 4
    keys[:skewed] = (
        np.uint64(5) << np.uint64(53)
        | rng.integers(0, 8, skewed).astype(np.uint64) << np.uint64(40)
        | rng.integers(0, 1024, skewed).astype(np.uint64)
    )
    keys[rng.integers(0, n, 5000)] = keys[:5000]
    np.testing.assert_array_equal(sorting.radix_sort(keys.copy()), np.sort(keys))


# -- the weighted sort: keys with a payload, stable, bit for bit ---------------------------


def _stable_sort_with_weights(negated_scores: np.ndarray, weights: np.ndarray):
    """The independent computation: NumPy's stable argsort (-0.0 ties with 0.0), gathered."""
    order = np.argsort(negated_scores, kind="stable")
    return negated_scores[order], weights[order]


def _sorted_with_weights(negated_scores: np.ndarray, weights: np.ndarray):
    scores = negated_scores.copy()
    moved = weights.copy()
    ranking.sort_with_weights(scores, moved)
    return scores, moved


@given(
    clustered_scores() | hnp.arrays(np.float64, st.integers(0, 300), elements=finite_or_infinite)
)
def test_bucket_sort_is_a_stable_sort_with_payload(values: np.ndarray) -> None:
    # one bucket sorted by its own digit, then insertion sorts of the sub-buckets, or LSD
    # passes on a sub-bucket longer than the insertion limit (clusters of close scores)
    n = values.shape[0]
    keys = sorting.descending_keys(values)
    payload = np.arange(n, dtype=np.float64)
    varying = np.bitwise_or.reduce(keys ^ keys[0]) if n else np.uint64(0)
    sorted_keys = np.empty_like(keys)
    sorted_payload = np.empty_like(payload)
    counts = np.empty((1 << sorting._BUCKET_MAX_BITS) + 1, dtype=np.int64)
    sorting._sort_bucket_with_payload(
        keys.copy(), payload.copy(), sorted_keys, sorted_payload, counts, 0, n, varying
    )
    order = np.argsort(-values, kind="stable")
    np.testing.assert_array_equal(sorted_payload, payload[order])
    np.testing.assert_array_equal(sorted_keys, keys[order])


@given(clustered_scores(), st.integers(0, 2**32 - 1))
def test_sort_with_weights_is_a_stable_argsort(values: np.ndarray, seed: int) -> None:
    weights = np.random.default_rng(seed).random(values.shape[0])
    scores, moved = _sorted_with_weights(values, weights)
    expected_scores, expected_weights = _stable_sort_with_weights(values, weights)
    np.testing.assert_array_equal(scores, expected_scores)  # -0.0 == 0.0 here
    np.testing.assert_array_equal(moved, expected_weights)


@settings(max_examples=6, deadline=None)  # each example sorts 2**17 scores
@given(
    st.sampled_from([-1, 0, 1]).flatmap(
        lambda offset: large_clustered_scores(sorting.MSD_THRESHOLD + offset)
    ),
    st.integers(0, 2**32 - 1),
)
def test_sort_with_weights_around_the_bucket_threshold(values: np.ndarray, seed: int) -> None:
    # just below the threshold: LSD passes only; at and above it: the bucket passes
    weights = np.random.default_rng(seed).random(values.shape[0])
    scores, moved = _sorted_with_weights(values, weights)
    expected_scores, expected_weights = _stable_sort_with_weights(values, weights)
    np.testing.assert_array_equal(scores, expected_scores)
    np.testing.assert_array_equal(moved, expected_weights)


def test_descending_order_of_probabilities_takes_the_bucket_passes() -> None:
    # probabilities (the benchmark's kind of scores) with ties and signed zeros, above the
    # threshold: buckets of thousands of keys, each split by its own second digit
    rng = np.random.default_rng(20261128)
    n = 300_000
    values = 1.0 / (1.0 + np.exp(-rng.standard_normal(n)))
    values[rng.integers(0, n, 20_000)] = values[:20_000]
    values[rng.integers(0, n, 100)] = -0.0
    values[rng.integers(0, n, 100)] = 0.0
    np.testing.assert_array_equal(
        sorting.descending_order(values), np.argsort(-values, kind="stable")
    )
