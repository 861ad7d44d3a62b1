"""Confusion counts for any number of classes, and the small O(n) passes around them.

Labels reach these kernels as int64 values (or booleans).  Integer labels are never
sorted.  :func:`integer_range` finds the span ``[low, high]`` of both label arrays in one
pass; a narrow span is counted directly into a (span, span) matrix
(:func:`span_confusion_counts`, :func:`span_confusion_weights`) whose empty rows and
columns the caller drops.  For a wider span, :func:`label_presence` marks which values
occur (bit 1: in ``y_true``, bit 2: in ``y_pred``), the caller turns the marks into a
lookup table ``value - low -> class index``, and :func:`confusion_counts` /
:func:`confusion_weights` fill the matrix in one more pass.  Labels of any other kind
(strings, sparse integers) are encoded by the caller to codes ``0..k-1``; the lookup
kernels then run with ``low = 0`` and the identity lookup.

The matrix is indexed ``[true class, predicted class]``.  Unweighted counts are exact
int64; weighted sums have the weights' dtype: exact int64 for integer weights, float64
accumulated in row order (deterministic) otherwise.
"""

from __future__ import annotations

import numpy as np

from assay._kernels._jit import jit

# Largest magnitude up to which every integer is exactly a float64 (2**53).
_EXACT_INTEGER_LIMIT = 9007199254740992.0


@jit
def integer_range(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[int, int]:
    """Smallest and largest value over two non-empty int64 arrays."""
    low = y_true[0]
    high = y_true[0]
    for i in range(y_true.shape[0]):
        low = min(low, y_true[i])
        high = max(high, y_true[i])
    for i in range(y_pred.shape[0]):
        low = min(low, y_pred[i])
        high = max(high, y_pred[i])
    return low, high


# The counting loops below spread consecutive rows over _LANES partial matrices so that
# repeated increments of the same cell do not wait on each other; the partial matrices
# are added in a fixed order, so weighted sums are deterministic.
_LANES = 4


@jit
def span_confusion_counts(
    y_true: np.ndarray, y_pred: np.ndarray, low: int, span: int
) -> np.ndarray:
    """(span, span) int64 counts of the pairs ``(y_true - low, y_pred - low)``.

    For integer (or boolean, with ``low = 0``) labels whose values all lie in
    ``[low, low + span)``; rows and columns of absent values are zero.
    """
    lanes = np.zeros((_LANES, span * span), dtype=np.int64)
    n = y_true.shape[0]
    n_blocked = n - n % _LANES
    for start in range(0, n_blocked, _LANES):
        for lane in range(_LANES):
            i = start + lane
            # unsigned: no test for a negative index (every label is at least ``low``)
            lanes[lane, np.uint64((y_true[i] - low) * span + (y_pred[i] - low))] += 1
    for i in range(n_blocked, n):
        lanes[0, np.uint64((y_true[i] - low) * span + (y_pred[i] - low))] += 1
    return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])).reshape((span, span))


@jit
def span_confusion_weights(
    y_true: np.ndarray, y_pred: np.ndarray, weights: np.ndarray, low: int, span: int
) -> tuple[np.ndarray, np.ndarray]:
    """(span, span) weight sums (of the weights' dtype: float64, or int64 for integer
    weights, exact) and int64 counts of the label pairs.

    Indexed like :func:`span_confusion_counts`; the counts tell which labels occur at all
    (a zero-weight row still brings its labels in).
    """
    sums = np.zeros((_LANES, span * span), dtype=weights.dtype)
    counts = np.zeros((_LANES, span * span), dtype=np.int64)
    n = y_true.shape[0]
    n_blocked = n - n % _LANES
    for start in range(0, n_blocked, _LANES):
        for lane in range(_LANES):
            i = start + lane
            cell = np.uint64((y_true[i] - low) * span + (y_pred[i] - low))  # unsigned
            sums[lane, cell] += weights[i]
            counts[lane, cell] += 1
    for i in range(n_blocked, n):
        cell = np.uint64((y_true[i] - low) * span + (y_pred[i] - low))
        sums[0, cell] += weights[i]
        counts[0, cell] += 1
    total_sums = (sums[0] + sums[1]) + (sums[2] + sums[3])
    total_counts = (counts[0] + counts[1]) + (counts[2] + counts[3])
    return total_sums.reshape((span, span)), total_counts.reshape((span, span))


@jit
def label_presence(y_true: np.ndarray, y_pred: np.ndarray, low: int, n_values: int) -> np.ndarray:
    """Flags per value ``low + v``: bit 1 if it occurs in ``y_true``, bit 2 in ``y_pred``."""
    flags = np.zeros(n_values, dtype=np.uint8)
    for i in range(y_true.shape[0]):
        flags[y_true[i] - low] |= 1
    for i in range(y_pred.shape[0]):
        flags[y_pred[i] - low] |= 2
    return flags


@jit
def confusion_counts(
    y_true: np.ndarray, y_pred: np.ndarray, lookup: np.ndarray, low: int, n_classes: int
) -> np.ndarray:
    """(n_classes, n_classes) int64 counts; row ``lookup[y_true - low]``, column likewise."""
    k = n_classes
    lanes = np.zeros((_LANES, k * k), dtype=np.int64)
    n = y_true.shape[0]
    n_blocked = n - n % _LANES
    for start in range(0, n_blocked, _LANES):
        for lane in range(_LANES):
            i = start + lane
            lanes[lane, lookup[y_true[i] - low] * k + lookup[y_pred[i] - low]] += 1
    for i in range(n_blocked, n):
        lanes[0, lookup[y_true[i] - low] * k + lookup[y_pred[i] - low]] += 1
    return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])).reshape((k, k))


@jit
def confusion_weights(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    weights: np.ndarray,
    lookup: np.ndarray,
    low: int,
    n_classes: int,
) -> np.ndarray:
    """(n_classes, n_classes) weight sums (float64, or int64 for integer weights),
    indexed like :func:`confusion_counts`."""
    k = n_classes
    lanes = np.zeros((_LANES, k * k), dtype=weights.dtype)
    n = y_true.shape[0]
    n_blocked = n - n % _LANES
    for start in range(0, n_blocked, _LANES):
        for lane in range(_LANES):
            i = start + lane
            lanes[lane, lookup[y_true[i] - low] * k + lookup[y_pred[i] - low]] += weights[i]
    for i in range(n_blocked, n):
        lanes[0, lookup[y_true[i] - low] * k + lookup[y_pred[i] - low]] += weights[i]
    return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])).reshape((k, k))


@jit
def integral_floats_to_int64(values: np.ndarray) -> tuple[np.ndarray, int]:
    """float64 labels as int64, and how many were not integers of magnitude <= 2**53.

    NaN and infinities count as bad values; their slots in the output are 0.
    """
    out = np.empty(values.shape[0], dtype=np.int64)
    n_bad = 0
    for i in range(values.shape[0]):
        value = values[i]
        if abs(value) <= _EXACT_INTEGER_LIMIT and value == np.floor(value):
            out[i] = np.int64(value)
        else:
            out[i] = 0
            n_bad += 1
    return out, n_bad


@jit
def minimum_expected_cost(probabilities: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """Per row, the decision ``j`` minimising ``sum_i probabilities[row, i] * cost[i, j]``.

    ``probabilities`` is (n, k), ``cost`` is (k, m); ties go to the smallest ``j``.
    The sum runs over ``i`` in increasing order, so results do not depend on the machine.
    """
    n, k = probabilities.shape
    m = cost.shape[1]
    decisions = np.empty(n, dtype=np.int64)
    for row in range(n):
        best = np.inf
        best_j = 0
        for j in range(m):
            risk = 0.0
            for i in range(k):
                risk += probabilities[row, i] * cost[i, j]
            if risk < best:
                best = risk
                best_j = j
        decisions[row] = best_j
    return decisions
