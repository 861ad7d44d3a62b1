"""Rows cut into buckets of the score range without sorting them (a range partition).

A bucket ``k`` of the ascending ``splitters`` holds the scores in
``(splitters[k - 1], splitters[k]]``: the buckets ascend with the scores, equal scores
share one (``-0.0`` and ``0.0`` included), and bucket ``k`` is the number of splitters
below the score.  The rows are negated scores (the layout of
:func:`assay._kernels.ranking.split_scores`), float32 or float64, in any order.

A row's bucket is read from a table indexed by the top :data:`CELL_BITS` bits of the
score's order key (its bits with the sign bit set for a positive score and every bit
flipped for a negative one: the keys sort as the scores do).  A cell of the table that
holds no splitter has one bucket for all its scores: the splitters of lower cells are
below them, the others above.  The rows of the few cells that hold a splitter count
the splitters below them one by one.
"""

from __future__ import annotations

import functools

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
def count_buckets(negated, bits, sign, ones, shift, table, splitters, heavy, weights,
                  use_weights, ids, counts, cells):  # fmt: skip
    """Each row's bucket into ``ids`` and the rows of each bucket into ``counts``.

    ``bits``: the raw bits of ``negated`` (a view), ``sign`` and ``ones`` its sign bit
    and all its bits, ``shift`` its width less :data:`CELL_BITS`; ``table``:
    :func:`bucket_table`.  ``heavy[k]`` (one per splitter): the rows scoring exactly
    ``splitters[k]`` are summed into ``cells[k]`` (their weight, or their count without
    ``use_weights``) and get the id -1 (a heavy tie group travels as one cell).  The
    caller allocates ``ids`` (int32, one per row) and zeroes ``counts`` and ``cells``
    (one per bucket).
    """
    m = splitters.shape[0]
    zero = sign ^ sign
    for i in range(negated.shape[0]):
        b = bits[i] ^ sign  # the score's bits: the negation flips the sign bit
        if b == sign:  # -0.0 is 0.0
            b = zero
        key = b ^ ones if b & sign else b | sign
        k = np.int64(table[key >> shift])
        if k < 0:  # a cell holding a splitter: count them, and sum a heavy one's rows
            score = -np.float64(negated[i])
            k = 0
            for j in range(m):
                k += splitters[j] < score
            if k < m and heavy[k] and splitters[k] == score:
                cells[k] += weights[i] if use_weights else 1.0
                ids[i] = -1
                continue
        ids[i] = k
        counts[k] += 1


@jit
def gather_buckets(negated, weights, use_weights, ids, starts, scores, gathered):
    """The rows of :func:`count_buckets` gathered by bucket, each bucket's in input
    order: bucket ``k``'s are ``scores[starts[k]:starts[k + 1]]`` (their weights in
    ``gathered`` when ``use_weights``); rows of id -1 are left out."""
    at = starts[:-1].copy()
    for i in range(negated.shape[0]):
        k = ids[i]
        if k >= 0:
            scores[at[k]] = negated[i]
            if use_weights:
                gathered[at[k]] = weights[i]
            at[k] += 1


def bucket_rows(
    negated: np.ndarray,
    weights: np.ndarray,
    use_weights: bool,
    splitters: np.ndarray,
    heavy: np.ndarray,
    n_buckets: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows gathered by bucket (:func:`count_buckets`, :func:`gather_buckets`).

    Returns ``(scores, weights, starts, cells)``: bucket ``k``'s rows are
    ``scores[starts[k]:starts[k + 1]]`` (``weights`` empty without ``use_weights``);
    ``cells[k]`` the summed weight of the rows on heavy splitter ``k``.  The arrays are
    NumPy's (NumPy asks for huge pages on large arrays, see
    :func:`~assay._kernels.ranking.split_buffers`).
    """
    size = negated.dtype.itemsize
    ids = np.empty(negated.shape[0], dtype=np.int32)
    counts = np.zeros(n_buckets, dtype=np.int64)
    cells = np.zeros(n_buckets, dtype=np.float64)
    shift = _UNSIGNED[size](8 * size - CELL_BITS)
    count_buckets(negated, negated.view(_UNSIGNED[size]), _SIGN[size], _ALL[size], shift,
                  bucket_table(splitters, negated.dtype), splitters.astype(np.float64),
                  heavy, weights, use_weights, ids, counts, cells)  # fmt: skip
    starts = np.zeros(n_buckets + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    scores = np.empty(int(starts[-1]), dtype=negated.dtype)
    gathered = np.empty(int(starts[-1]) if use_weights else 0, dtype=np.float64)
    gather_buckets(negated, weights, use_weights, ids, starts, scores, gathered)
    return scores, gathered, starts, cells
