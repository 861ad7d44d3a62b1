"""Rows cut into buckets of the score range without sorting them (a range partition).

A bucket ``k`` of the ascending ``splitters`` holds the scores in
``(splitters[k - 1], splitters[k]]``: the buckets ascend with the scores, equal scores
share one (``-0.0`` and ``0.0`` included), and bucket ``k`` is the number of splitters
below the score.  The rows are scores, float32 or float64, in any order, with a class
each; they come out split by class and negated (the layout of
:func:`assay._kernels.ranking.split_scores`), gathered by bucket.

A row's bucket is read from a table indexed by the top :data:`CELL_BITS` bits of the
score's order key (its bits with the sign bit set for a positive score and every bit
flipped for a negative one: the keys sort as the scores do).  A cell of the table that
holds no splitter has one bucket for all its scores: the splitters of lower cells are
below them, the others above.  The rows of the few cells that hold a splitter count
the splitters below them one by one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from assay._kernels._jit import jit

CELL_BITS = 20
"""The table has ``2**CELL_BITS`` cells (2 MiB of int16): float32 scores keep 11 bits
of mantissa in a cell's index, float64 scores 8."""
_SIGN = {4: np.uint32(0x80000000), 8: np.uint64(0x8000000000000000)}
_ALL = {4: np.uint32(0xFFFFFFFF), 8: np.uint64(0xFFFFFFFFFFFFFFFF)}
_UNSIGNED = {4: np.uint32, 8: np.uint64}


def _order_keys(values: np.ndarray) -> np.ndarray:
    """The order keys of float32 or float64 ``values`` (unsigned, as wide)."""
    bits = values.view(_UNSIGNED[values.dtype.itemsize])
    sign = _SIGN[values.dtype.itemsize]
    return np.where(bits & sign, ~bits, bits | sign)


@functools.lru_cache(maxsize=8)
def _table(splitter_bytes: bytes, itemsize: int) -> np.ndarray:
    splitters = np.frombuffer(splitter_bytes, dtype=np.float64)
    # the splitters as the rows' type: rounding to float32 keeps their order (those
    # beyond its range become infinite, above or below every finite row)
    with np.errstate(over="ignore"):
        keys = _order_keys(splitters.astype(np.float32 if itemsize == 4 else np.float64))
    cells = (keys >> _UNSIGNED[itemsize](8 * itemsize - CELL_BITS)).astype(np.int64)
    steps = np.zeros((1 << CELL_BITS) + 1, dtype=np.int16)
    np.add.at(steps, cells + 1, 1)
    table = np.cumsum(steps[:-1], dtype=np.int16)  # the splitters of lower cells
    table[cells] = -1  # a cell holding a splitter: count one by one
    table.setflags(write=False)
    return table


def bucket_table(splitters: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The table of buckets by cell for rows of ``dtype`` (cached: every partition of a
    job cut on one worker reads the same)."""
    return _table(np.ascontiguousarray(splitters, dtype=np.float64).tobytes(), dtype.itemsize)


@jit
def count_buckets(scores, bits, sign, ones, shift, table, splitters, heavy, marked,
                  marked_positive, weights, use_weights, scale, ids, counts, cells):  # fmt: skip
    """Each row's bucket and class into ``ids`` and the rows of each into ``counts``.

    ``scores``: the rows' scores (not negated); ``bits`` their raw bits (a view),
    ``sign`` and ``ones`` its sign bit and all its bits, ``shift`` its width less
    :data:`CELL_BITS`; ``table``: :func:`bucket_table`.  A row is positive when
    ``marked[i] == marked_positive``.  A row of bucket ``k`` and class ``c`` (0
    positive, 1 negative) gets the id ``2 * k + c``, which indexes ``counts`` and
    ``cells``.  ``heavy[k]`` (one per splitter): the rows scoring exactly
    ``splitters[k]`` are summed into ``cells[2 * k + c]`` (their weight times ``scale``,
    or their count without ``use_weights``) and get the id -1 (a heavy tie group
    travels as one cell), as do rows of weight 0.  The caller allocates ``ids`` (int32,
    one per row) and zeroes ``counts`` and ``cells`` (two per bucket).
    """
    m = splitters.shape[0]
    zero = sign ^ sign
    for i in range(scores.shape[0]):
        if use_weights and weights[i] == 0.0:
            ids[i] = -1
            continue
        c = np.int64(marked[i] != marked_positive)
        b = bits[i]
        if b == sign:  # -0.0 is 0.0
            b = zero
        key = b ^ ones if b & sign else b | sign
        k = np.int64(table[key >> shift])
        if k < 0:  # a cell holding a splitter: count them, and sum a heavy one's rows
            score = np.float64(scores[i])
            k = 0
            for j in range(m):
                k += splitters[j] < score
            if k < m and heavy[k] and splitters[k] == score:
                cells[2 * k + c] += weights[i] * scale if use_weights else 1.0
                ids[i] = -1
                continue
        ids[i] = 2 * k + c
        counts[np.uint64(2 * k + c)] += 1  # unsigned: no test for a negative index


@jit
def gather_buckets(scores, weights, use_weights, scale, ids, starts, negated, gathered):
    """The rows of :func:`count_buckets` gathered by bucket and class, negated, each
    bucket's in input order: the positive rows of bucket ``k`` are
    ``negated[starts[2 * k]:starts[2 * k + 1]]``, its negative rows follow up to
    ``starts[2 * k + 2]`` (their weights times ``scale`` in ``gathered`` when
    ``use_weights``); rows of id -1 are left out."""
    at = starts[:-1].copy()
    for i in range(scores.shape[0]):
        t = ids[i]
        if t >= 0:
            u = np.uint64(t)  # unsigned positions: no test for a negative index
            j = at[u]
            at[u] = j + 1
            negated[np.uint64(j)] = -scores[i]
            if use_weights:
                gathered[np.uint64(j)] = weights[i] * scale


def bucket_rows(
    scores: np.ndarray,
    marked: np.ndarray,
    marked_positive: bool,
    weights: np.ndarray,
    use_weights: bool,
    scale: float,
    splitters: np.ndarray,
    heavy: np.ndarray,
    n_buckets: int,
    empty: Callable[[int, Any], np.ndarray] = np.empty,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows split by class and gathered by bucket, negated (:func:`count_buckets`,
    :func:`gather_buckets`), in one pass to count and one to gather: the rows are not
    split by class first.

    ``marked`` (bool, one per row): a row is positive when it equals
    ``marked_positive``.  Rows of weight 0 are left out; weights are multiplied by
    ``scale`` (a power of two: exactly).  Returns ``(negated, weights, starts, cells)``:
    bucket ``k``'s positive rows are ``negated[starts[2 * k]:starts[2 * k + 1]]`` and
    its negative rows ``negated[starts[2 * k + 1]:starts[2 * k + 2]]`` (``weights``,
    float64, alike; empty without ``use_weights``), ``cells[2 * k]`` and
    ``cells[2 * k + 1]`` the summed weight of each class's rows on heavy splitter ``k``.
    The large arrays (each row's bucket, the negated scores, the weights) come from
    ``empty(n, dtype)``: NumPy's by default (NumPy asks for huge pages on large arrays,
    see :func:`~assay._kernels.ranking.split_buffers`), a pool's on a Dask worker
    (:mod:`assay.dask._memory`).
    """
    size = scores.dtype.itemsize
    ids = empty(scores.shape[0], np.int32)
    counts = np.zeros(2 * n_buckets, dtype=np.int64)
    cells = np.zeros(2 * n_buckets, dtype=np.float64)
    shift = _UNSIGNED[size](8 * size - CELL_BITS)
    count_buckets(scores, scores.view(_UNSIGNED[size]), _SIGN[size], _ALL[size], shift,
                  bucket_table(splitters, scores.dtype), splitters.astype(np.float64),
                  heavy, marked, marked_positive, weights, use_weights, float(scale), ids,
                  counts, cells)  # fmt: skip
    starts = np.zeros(2 * n_buckets + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    negated = empty(int(starts[-1]), scores.dtype)
    gathered = empty(int(starts[-1]) if use_weights else 0, np.float64)
    gather_buckets(scores, weights, use_weights, float(scale), ids, starts, negated, gathered)
    return negated, gathered, starts, cells
