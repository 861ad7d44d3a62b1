"""The radix sort and the order-preserving keys of assay._kernels.sorting."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assay._kernels import order, ranking, sorting
from assay._sort_choice import NUMPY_ORDER_MAX, descending_order, sort_in_place
from tests.strategies import clustered_scores, large_clustered_scores

finite_or_infinite = st.floats(allow_nan=False, width=64)


def _packed_order(values: np.ndarray) -> np.ndarray:
    """The order of :func:`descending_order` above NumPy's limit, at any size: packed words
    (:mod:`assay._kernels.order`), sorted, then their rows."""
    words, index_bits, exact = order.row_words(values)
    words.sort()
    return order.rows_of_sorted_words(words, values, index_bits, exact)


@given(
    clustered_scores(max_n=400)
    | hnp.arrays(np.float64, st.integers(1, 300), elements=finite_or_infinite)
)
def test_packed_words_give_the_stable_descending_argsort(values: np.ndarray) -> None:
    # clusters of scores a few ulps apart share a prefix of inexact words: runs to order,
    # by insertion or (longer than 32 rows) by the merge sort
    if values.shape[0] == 0:
        return
    # stable descending order == stable ascending argsort of the negated values,
    # with -0.0 and 0.0 tied (negation maps both to zeros that compare equal)
    expected = np.argsort(-values, kind="stable")
    np.testing.assert_array_equal(_packed_order(values), expected)


def test_a_long_run_of_one_prefix_is_merge_sorted() -> None:
    # 200 rows whose scores differ only in their last bits, out of order, among scores
    # spanning every exponent: one run of inexact words, longer than an insertion sort's
    rng = np.random.default_rng(20261128)
    values = rng.standard_normal(1000) * np.exp(rng.uniform(-300, 300, 1000))
    values[rng.permutation(1000)[:200]] = 0.5 + rng.integers(0, 100, 200) * 2.0**-52
    words, index_bits, exact = order.row_words(values)
    assert not exact
    prefixes = np.sort(words) >> index_bits
    assert np.unique(prefixes, return_counts=True)[1].max() > 32  # longer than an insertion
    np.testing.assert_array_equal(_packed_order(values), np.argsort(-values, kind="stable"))


@given(
    hnp.arrays(np.uint64, st.integers(0, 200), elements=st.integers(0, 12)),
    st.integers(0, 2**32 - 1),
)
def test_order_words_by_keys_is_a_stable_sort(keys: np.ndarray, seed: int) -> None:
    words = np.random.default_rng(seed).integers(0, 2**62, keys.shape[0], dtype=np.int64)
    sorted_keys, moved = keys.copy(), words.copy()
    order.order_words_by_keys(sorted_keys, moved)
    expected = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(sorted_keys, keys[expected])
    np.testing.assert_array_equal(moved, words[expected])


@given(hnp.arrays(np.float64, st.integers(0, 300), elements=finite_or_infinite))
def test_descending_order_is_a_stable_descending_argsort(values: np.ndarray) -> None:
    np.testing.assert_array_equal(descending_order(values), np.argsort(-values, kind="stable"))


@pytest.mark.parametrize("offset", [-1, 0, 1])
def test_descending_order_is_the_same_on_both_sides_of_the_numpy_limit(offset) -> None:
    # up to NUMPY_ORDER_MAX scores the order is NumPy's stable argsort, above it the
    # packed words: the same permutation (ties, signed zeros and infinities included)
    generator = np.random.default_rng(offset + 2)
    n = NUMPY_ORDER_MAX + offset
    values = np.round(generator.standard_normal(n), 1)
    values[generator.integers(0, n, 40)] = 0.0
    values[generator.integers(0, n, 40)] = -0.0
    values[generator.integers(0, n, 5)] = np.inf
    values[generator.integers(0, n, 5)] = -np.inf
    order_ = descending_order(values)
    assert order_.dtype == np.int64
    np.testing.assert_array_equal(order_, _packed_order(values))
    np.testing.assert_array_equal(order_, np.argsort(-values, kind="stable"))


def _keys(values: list[float]) -> list[int]:
    bits = np.array(values, dtype=np.float64).view(np.uint64)
    return [int(sorting.descending_key(b)) for b in bits]


def test_signed_zeros_share_one_key() -> None:
    assert _keys([0.0])[0] == _keys([-0.0])[0]


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
    # the values are listed from the highest down, so the keys must not decrease
    keys = _keys(values)
    assert keys == sorted(keys)
    assert len(set(keys)) == len(set(values))


def test_descending_order_of_scores_over_every_exponent() -> None:
    # values spanning many exponents and both signs: every bit of the keys varies, so
    # the packed words are inexact, and NumPy's sort or the radix sort orders them
    rng = np.random.default_rng(20261125)
    values = rng.standard_normal(50_000) * np.exp(rng.uniform(-300, 300, 50_000))
    np.testing.assert_array_equal(descending_order(values), np.argsort(-values, kind="stable"))


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


def test_non_negative_int64_words_are_sorted_by_the_float_radix_sort() -> None:
    """Words over 63 bits (as DeLong's and the packed orders' words, NaN and infinity
    patterns of float64 included), ties, and a bucket whose words vary in a few high bits
    and ten low ones, above the size of the bucket pass."""
    rng = np.random.default_rng(20261128)
    n = (1 << 17) + 5
    words = rng.integers(0, np.iinfo(np.int64).max, n, dtype=np.int64, endpoint=True)
    skewed = n // 4
    words[:skewed] = (
        np.int64(5) << np.int64(53)
        | rng.integers(0, 8, skewed) << np.int64(40)
        | rng.integers(0, 1024, skewed)
    )
    words[:10] = np.float64(np.inf).view(np.int64) + np.arange(10)  # inf, then NaN patterns
    words[rng.integers(0, n, 5000)] = words[:5000]
    expected = np.sort(words)
    sort_in_place(words, "radix")
    np.testing.assert_array_equal(words, expected)


@given(hnp.arrays(np.int64, st.integers(0, 300), elements=st.integers(0, 2**63 - 1)))
def test_the_float_radix_sort_of_small_int64_words(words: np.ndarray) -> None:
    expected = np.sort(words)
    sort_in_place(words, "radix")
    np.testing.assert_array_equal(words, expected)


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
    keys = np.array(_keys(list(values)), dtype=np.uint64)
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


def test_descending_order_of_probabilities_with_ties() -> None:
    # probabilities (the benchmark's kind of scores) with ties and signed zeros, above the
    # radix sort's bucket threshold: runs of one prefix holding one score each
    rng = np.random.default_rng(20261128)
    n = 300_000
    values = 1.0 / (1.0 + np.exp(-rng.standard_normal(n)))
    values[rng.integers(0, n, 20_000)] = values[:20_000]
    values[rng.integers(0, n, 100)] = -0.0
    values[rng.integers(0, n, 100)] = 0.0
    np.testing.assert_array_equal(descending_order(values), np.argsort(-values, kind="stable"))


# -- several arrays sorted into one (the buckets of assay.dask) --

_piece_values = {
    np.float64: finite_or_infinite,
    np.float32: finite_or_infinite_32,
}


@given(st.sampled_from([np.float64, np.float32]), st.data())
def test_radix_sort_joined_is_np_sort_of_the_joined_pieces(dtype, data) -> None:
    elements = st.one_of(_piece_values[dtype], st.sampled_from([-0.0, 0.0, 1.5, -2.0]))
    pieces = data.draw(
        st.lists(hnp.arrays(dtype, st.integers(0, 60), elements=elements), min_size=1, max_size=8)
    )
    pieces = [piece for piece in pieces if piece.shape[0]] or [np.array([-0.0], dtype=dtype)]
    copies = [piece.copy() for piece in pieces]
    given_out = data.draw(st.booleans())
    out = np.full(sum(p.shape[0] for p in pieces), np.nan, dtype=dtype) if given_out else None
    joined = sorting.radix_sort_joined(pieces, out=out)
    assert joined.dtype == dtype
    if given_out:  # filled and returned
        assert joined is out
    np.testing.assert_array_equal(joined, np.sort(np.concatenate(pieces)))
    assert not np.signbit(joined[joined == 0.0]).any()
    for piece, copy in zip(pieces, copies, strict=True):  # the pieces are left as they were
        np.testing.assert_array_equal(piece.view(np.uint8), copy.view(np.uint8))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_radix_sort_joined_of_large_pieces_is_the_radix_sort(dtype) -> None:
    # many buckets of the top digit, a few large ones (ties), signed zeros, infinities
    rng = np.random.default_rng(20261128)
    n = 1 << 17
    values = (rng.standard_normal(n) * np.exp(rng.uniform(-30, 30, n))).astype(dtype)
    values[rng.integers(0, n, 1000)] = -0.0
    values[rng.integers(0, n, 1000)] = 0.0
    values[rng.integers(0, n, 10)] = np.inf
    values[rng.integers(0, n, 20000)] = values[:20000]
    cuts = np.sort(rng.integers(0, n, 12))
    pieces = [piece for piece in np.split(values, cuts) if piece.shape[0]]
    joined = sorting.radix_sort_joined(pieces)
    expected = sorting.radix_sort_floats(values.copy())
    np.testing.assert_array_equal(joined.view(np.uint8), expected.view(np.uint8))


@pytest.mark.parametrize("given_out", [False, True])
def test_radix_sort_joined_of_one_value(given_out) -> None:
    pieces = [np.full(3, -0.0, dtype=np.float32), np.zeros(2, dtype=np.float32)]
    out = np.full(5, np.nan, dtype=np.float32) if given_out else None
    joined = sorting.radix_sort_joined(pieces, out=out)
    assert joined.dtype == np.float32
    assert given_out == (joined is out)
    np.testing.assert_array_equal(joined.view(np.uint32), np.zeros(5, dtype=np.uint32))


@pytest.mark.parametrize(
    "out", [np.empty(4, dtype=np.float32), np.empty(5, dtype=np.float64)], ids=["size", "dtype"]
)
def test_radix_sort_joined_rejects_an_out_of_another_size_or_dtype(out) -> None:
    pieces = [np.array([2.0, 1.0], dtype=np.float32), np.array([3.0, 0.5, 1.0], np.float32)]
    with pytest.raises(ValueError, match="`out` must hold 5 values of float32"):
        sorting.radix_sort_joined(pieces, out=out)
