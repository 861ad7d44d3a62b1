"""Confusion kernels against naive numpy twins."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assay._kernels import confusion as kernels
from tests.strategies import exact_sample_weights


@st.composite
def integer_pairs(draw, max_n=60):
    """int64 labels in [low, low + span) of any length (every remainder modulo 4)."""
    n = draw(st.integers(1, max_n))
    low = draw(st.integers(-(2**40), 2**40))
    span = draw(st.integers(1, 7))
    elements = st.integers(low, low + span - 1)
    y_true = np.asarray(draw(hnp.arrays(np.int64, n, elements=elements)))
    y_pred = np.asarray(draw(hnp.arrays(np.int64, n, elements=elements)))
    return y_true, y_pred, low, span, draw(exact_sample_weights(n))


def naive_counts(y_true, y_pred, weights, k):
    matrix = np.zeros((k, k))
    np.add.at(matrix, (y_true, y_pred), 1.0 if weights is None else weights)
    return matrix


@given(data=integer_pairs())
def test_integer_range(data):
    y_true, y_pred, *_ = data
    low, high = kernels.integer_range(y_true, y_pred)
    both = np.concatenate([y_true, y_pred])
    assert (low, high) == (both.min(), both.max())


@given(data=integer_pairs())
def test_span_kernels(data):
    y_true, y_pred, low, span, weights = data
    counts = kernels.span_confusion_counts(y_true, y_pred, low, span)
    assert counts.dtype == np.int64 and counts.shape == (span, span)
    np.testing.assert_array_equal(counts, naive_counts(y_true - low, y_pred - low, None, span))
    if weights is not None:
        sums, counted = kernels.span_confusion_weights(y_true, y_pred, weights, low, span)
        np.testing.assert_array_equal(counted, counts)
        np.testing.assert_array_equal(
            sums, naive_counts(y_true - low, y_pred - low, weights, span)
        )


def test_span_kernels_take_booleans():
    y_true = np.array([True, False, True, True, False])
    y_pred = np.array([True, True, False, True, False])
    np.testing.assert_array_equal(
        kernels.span_confusion_counts(y_true, y_pred, 0, 2), [[1, 1], [1, 2]]
    )


@given(data=integer_pairs())
def test_lookup_kernels(data):
    y_true, y_pred, low, span, weights = data
    flags = kernels.label_presence(y_true, y_pred, low, span)
    for value in range(span):
        assert bool(flags[value] & 1) == (value + low in y_true)
        assert bool(flags[value] & 2) == (value + low in y_pred)
    present = np.flatnonzero(flags)
    lookup = np.zeros(span, dtype=np.int64)
    lookup[present] = np.arange(present.shape[0])
    k = present.shape[0]
    true_codes, pred_codes = lookup[y_true - low], lookup[y_pred - low]
    counts = kernels.confusion_counts(y_true, y_pred, lookup, low, k)
    np.testing.assert_array_equal(counts, naive_counts(true_codes, pred_codes, None, k))
    if weights is not None:
        sums = kernels.confusion_weights(y_true, y_pred, weights, lookup, low, k)
        np.testing.assert_array_equal(sums, naive_counts(true_codes, pred_codes, weights, k))


@given(
    values=hnp.arrays(
        np.float64,
        st.integers(1, 30),
        elements=st.one_of(
            st.integers(-(2**53), 2**53).map(float),
            st.floats(allow_subnormal=False),
            st.sampled_from([2.0**53, 2.0**54, -0.0, 0.5]),
        ),
    )
)
def test_integral_floats_to_int64(values):
    converted, n_bad = kernels.integral_floats_to_int64(values)
    good = np.isfinite(values) & (np.abs(values) <= 2.0**53)
    good[good] &= values[good] == np.floor(values[good])
    assert n_bad == np.count_nonzero(~good)
    np.testing.assert_array_equal(converted[good], values[good].astype(np.int64))
    np.testing.assert_array_equal(converted[~good], 0)


@given(data=st.data(), n=st.integers(1, 40), k=st.integers(1, 5), m=st.integers(1, 5))
def test_minimum_expected_cost(data, n, k, m):
    probabilities = data.draw(
        hnp.arrays(np.float64, (n, k), elements=st.sampled_from([0.0, 0.25, 0.5, 1.0]))
    )
    cost = data.draw(hnp.arrays(np.float64, (k, m), elements=st.integers(-4, 4).map(float)))
    decisions = kernels.minimum_expected_cost(probabilities, cost)
    # every product and sum here is exact, so numpy's argmin (first minimum) must agree
    np.testing.assert_array_equal(decisions, np.argmin(probabilities @ cost, axis=1))
