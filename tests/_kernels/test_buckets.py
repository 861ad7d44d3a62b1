"""Rows split by class and gathered by bucket of the score range (a table of cells, then
a count where a cell holds a splitter) against ``np.searchsorted`` of the splitters."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._kernels.buckets import CELL_BITS, bucket_rows

# scores that test the table: both zeros, neighbours that share a cell (and a float32),
# float64 values that round to one float32, the extremes of both types
SPECIAL = [
    0.0, -0.0, 1.0, np.nextafter(1.0, 2.0), np.nextafter(1.0, 0.0), 1.0 + 2.0**-30,
    -1.0, 0.5, 0.75, 1e-300, -1e-300, 1e-45, 3.4e38, -3.4e38, 1e300, -1e300, 2.0**-20,
]  # fmt: skip


def _expected(scores, weights, splitters, heavy, n_buckets):
    """Each bucket's rows (in input order) and cells, by ``np.searchsorted``."""
    bucket = np.searchsorted(splitters, scores, side="left")
    on_heavy = np.zeros(scores.shape[0], dtype=bool)
    inside = bucket < splitters.shape[0]
    on_heavy[inside] = heavy[bucket[inside]] & (splitters[bucket[inside]] == scores[inside])
    cells = np.zeros(n_buckets)
    np.add.at(cells, bucket[on_heavy], weights[on_heavy])
    rows = [np.flatnonzero((bucket == k) & ~on_heavy) for k in range(n_buckets)]
    return rows, cells


@st.composite
def bucketed(draw):
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    pool = draw(
        st.lists(
            st.one_of(st.sampled_from(SPECIAL), st.floats(-4, 4, width=32), st.floats(-4, 4)),
            min_size=1,
            max_size=12,
        )
    )
    with np.errstate(over="ignore"):  # float64 values beyond float32's range: infinite
        pool = np.array(pool, dtype=np.float64).astype(dtype)
    pool = pool[np.isfinite(pool)]
    if pool.shape[0] == 0:
        pool = np.zeros(1, dtype=dtype)
    n = draw(st.integers(0, 60))
    picks = draw(st.lists(st.integers(0, pool.shape[0] - 1), min_size=n, max_size=n))
    scores = pool[np.array(picks, dtype=np.int64)] if n else np.zeros(0, dtype=dtype)
    # splitters: some of the scores' values (as float64) and others, distinct, ascending
    extra = draw(st.lists(st.sampled_from(SPECIAL), max_size=6))
    candidates = np.concatenate([pool.astype(np.float64), np.array(extra, dtype=np.float64)])
    chosen = draw(st.lists(st.sampled_from(candidates.tolist()), max_size=40))
    splitters = np.unique(np.array(chosen, dtype=np.float64) + 0.0)
    heavy = np.array(draw(st.lists(st.booleans(), min_size=splitters.shape[0],
                                   max_size=splitters.shape[0])), dtype=bool)  # fmt: skip
    use_weights = draw(st.booleans())
    weights = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), float)
    marked = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    return scores, marked, weights if use_weights else None, splitters, heavy


def _garbage(n, dtype):
    """An allocator whose arrays hold garbage (all bits set), as a pool's reused memory
    may: every value :func:`bucket_rows` returns must be written by it."""
    values = np.empty(n, dtype=dtype)
    values.view(np.uint8)[:] = 0xFF
    return values


def _check(
    scores, marked, marked_positive, weights, scale, splitters, heavy, n_buckets, empty=np.empty
):
    """Each bucket's rows of each class, by :func:`bucket_rows` and by searchsorted."""
    use_weights = weights is not None
    given_weights = weights if use_weights else np.zeros(0)
    negated, gathered, starts, cells = bucket_rows(
        scores, marked, marked_positive, given_weights, use_weights, scale, splitters, heavy,
        n_buckets, empty,
    )  # fmt: skip
    assert negated.dtype == scores.dtype
    assert starts.shape == (2 * n_buckets + 1,) and cells.shape == (2 * n_buckets,)
    counted = weights * scale if use_weights else np.ones(scores.shape[0])
    for c, is_class in enumerate([marked == marked_positive, marked != marked_positive]):
        is_kept = is_class & (counted != 0.0)
        want_rows, want_cells = _expected(
            scores.astype(np.float64), counted * is_kept, splitters, heavy, n_buckets
        )
        np.testing.assert_array_equal(cells[c::2], want_cells)
        for k in range(n_buckets):
            want = want_rows[k][is_kept[want_rows[k]]]
            held = slice(starts[2 * k + c], starts[2 * k + c + 1])
            # the bits: -0.0 and 0.0 are told apart
            np.testing.assert_array_equal(
                negated[held].view(np.uint8), (-scores[want]).view(np.uint8)
            )
            if use_weights:
                np.testing.assert_array_equal(gathered[held], counted[want])
    return cells


@settings(max_examples=300, deadline=None)
@given(bucketed(), st.booleans(), st.sampled_from([1.0, 0.25, 8.0]), st.booleans())
def test_rows_fall_in_the_bucket_of_searchsorted(data, marked_positive, scale, garbage):
    """Every kept row lies in its class's run of its bucket, in input order, negated;
    rows of weight 0 are left out, weights are multiplied by the scale; arrays from an
    allocator that does not clear them give the same."""
    scores, marked, weights, splitters, heavy = data
    n_buckets = splitters.shape[0] + 1 + 2  # buckets past the last splitter stay empty
    empty = _garbage if garbage else np.empty
    _check(scores, marked, marked_positive, weights, scale, splitters, heavy, n_buckets, empty)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_many_rows_and_many_splitters(dtype):
    """Rows of continuous scores (most in cells without a splitter), 255 splitters; a
    heavy 0.0 with -0.0 among its rows."""
    rng = np.random.default_rng(3)
    scores = rng.normal(size=200_000).astype(dtype)
    scores[::7] = 0.0
    scores[::101] = -0.0
    marked = rng.random(scores.shape[0]) < 0.3
    splitters = np.unique(np.r_[0.0, rng.choice(scores, 254).astype(np.float64)] + 0.0)
    heavy = splitters == 0.0
    cells = _check(scores, marked, True, None, 1.0, splitters, heavy, 256)
    assert cells.sum() == np.count_nonzero(scores == 0.0)
    assert CELL_BITS == 20
