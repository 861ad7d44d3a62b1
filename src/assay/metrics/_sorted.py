"""Sort once: validate a binary ranking problem and build its sorted representation.

Every ranking function (curves, AUC, AP, AUC-PR, EER) starts here: the target is
reduced to a positive mask, zero-weight rows are dropped, and the scores of the
positives and of the negatives are sorted separately (negated, ascending).  One
linear merge of the two sorted arrays then visits the tie groups from the highest
score down (see :mod:`assay._kernels.ranking`).

Scores with few distinct values (rounded probabilities, integer scores) are not sorted
row by row: one hashing pass sums the weight of each class per distinct score, and only
the distinct scores are sorted (:func:`assay._kernels.ranking.group_scores`).

Sorting the two classes separately needs no index array.  Unweighted scores are
sorted with NumPy's ``np.sort`` or the package's radix sort of order-preserving keys,
whichever a one-time calibration found faster on this machine (``ASSAY_SORT`` forces
one; see :mod:`assay._sort_choice`), float32 scores as float32 (half the bytes, 32-bit
keys; every float32 is exactly a float64, so no order and no tie changes); weighted
scores need their weights carried along and use the radix sort of the order-preserving
uint64 keys with a payload (one pass on the top digit, then each bucket split by its own
top varying bits), which beats ``np.argsort`` followed by a gather.
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np

from assay._kernels import ranking as kernels
from assay._kernels.weights import count_unit_exponent
from assay._scaling import power_of_two_scale
from assay._sort_choice import sort_in_place, sort_method
from assay._validation import as_sample_weight, as_scores, binary_target, check_same_length
from assay.exceptions import UndefinedMetricWarning

_EMPTY = np.empty(0, dtype=np.float64)
_GROUPING_MIN_ROWS = 2048  # below this, sorting is as fast as hashing
_GROUPING_LIMIT = 65536  # at most this many distinct scores (and n / 8) are grouped
_SAMPLE_MIN_REPEATS = 32  # of 4096 sampled scores, before a large hashing attempt


def _mixed(count: int) -> np.ndarray:
    """``count`` well-mixed 64-bit integers: SplitMix64's finaliser of 1 to ``count``."""
    z = np.arange(1, count + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


_SAMPLE_POSITIONS = _mixed(4096)


class SortedBinary(NamedTuple):
    """Scores of positives and negatives, negated and sorted ascending, with weights.

    An entry is a row, or a whole tie group of one class with its summed weight (when
    the scores were grouped by hashing); every ranking sweep gives the same result for
    both, since it sums the weights of a tie group before using them.
    """

    positive_scores: np.ndarray
    negative_scores: np.ndarray
    positive_weights: np.ndarray
    negative_weights: np.ndarray
    use_weights: bool
    weight_scale: float = 1.0  # weights were multiplied by this power of two
    grouped: bool = False  # entries are tie-group cells (unweighted counts as weights)
    integer_counts: bool = False  # every weight is a whole number: scans sum exactly

    @property
    def kernel_arguments(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:
        return (
            self.positive_scores,
            self.negative_scores,
            self.positive_weights,
            self.negative_weights,
            self.use_weights,
        )

    @property
    def has_positives(self) -> bool:
        return self.positive_scores.shape[0] > 0

    @property
    def has_negatives(self) -> bool:
        return self.negative_scores.shape[0] > 0


# Weights that are whole multiples of one power of two, totalling below this many such
# units, are counts: the kernels take them in those units and sum them exactly, so
# integer weights, unit weights (= no weights) and weights scaled by a power of two all
# give the same bits.
_EXACT_UNIT_BITS = 53


def _count_unit(weights: np.ndarray) -> float | None:
    """The power of two of which every weight is a whole multiple, if the weights add
    up to less than 2**53 of it (then they are exact counts in that unit); else None.

    A unit near the subnormals (below 2**-1021) takes the float path too.
    """
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    exact, exponent = count_unit_exponent(
        weights, np.int64(-1074 + 53), np.int64(_EXACT_UNIT_BITS)
    )
    return float(np.ldexp(1.0, int(exponent))) if exact else None


def sort_scores(
    positive: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray | None,
    *,
    group_ties: bool = True,
) -> SortedBinary:
    """Split validated arrays by class and sort each part (the kernels' input).

    With ``group_ties`` (the default), scores with few distinct values may come back as
    one entry per (tie group, class) cell; a bootstrap of weighted rows needs the rows
    themselves and passes False.
    """
    weight_scale = 1.0
    unit = None if weights is None else _count_unit(weights)
    integer_counts = weights is None or unit is not None
    if unit is not None:
        weight_scale = 1.0 / unit  # a power of two: the weights become exact counts
    elif weights is not None:
        # a power of two taking the largest weight into [0.5, 1): exact, and it keeps
        # products of class totals (P * N) far from overflow and underflow (clamped to
        # the powers of two float64 holds: weights of 1e-310 need 2**1029)
        weight_scale = power_of_two_scale(float(weights.max()))
    return sort_scaled(positive, scores, weights, weight_scale, integer_counts, group_ties)


def sort_scaled(
    positive: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray | None,
    weight_scale: float,
    integer_counts: bool,
    group_ties: bool = True,
) -> SortedBinary:
    """:func:`sort_scores` with the weights' scale (a power of two) chosen by the caller:
    a part of a larger problem (a partition on Dask) takes the scale of the whole."""
    use_weights = weights is not None
    weight_array = _EMPTY if weights is None else weights
    if use_weights and scores.dtype != np.float64:
        # the weighted sort works on float64 keys (and the weights cost 8 bytes a row)
        scores = scores.astype(np.float64)
    if group_ties:
        grouped = grouped_scaled(positive, scores, weights, weight_scale, integer_counts)
        if grouped is not None:
            return grouped
    positive_scores, negative_scores, positive_weights, negative_weights = kernels.split_scores(
        scores, positive, weight_array, use_weights, weight_scale,
        *kernels.split_buffers(scores, use_weights),
    )  # fmt: skip
    if use_weights:
        kernels.sort_with_weights(positive_scores, positive_weights)
        kernels.sort_with_weights(negative_scores, negative_weights)
    else:
        method = sort_method(scores.dtype, scores.shape[0])
        sort_in_place(positive_scores, method)
        sort_in_place(negative_scores, method)
    return SortedBinary(
        positive_scores,
        negative_scores,
        positive_weights,
        negative_weights,
        use_weights,
        weight_scale,
        integer_counts=integer_counts,
    )


def grouped_scaled(
    positive: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray | None,
    weight_scale: float,
    integer_counts: bool,
) -> SortedBinary | None:
    """Few distinct scores (rounded probabilities, integer scores) as sorted (tie group,
    class) cells summed by hashing instead of sorting every row (``grouped``); None
    for fewer than 2048 rows or more distinct scores than min(65536, n / 8).  Weighted
    scores must be float64."""
    if scores.shape[0] < _GROUPING_MIN_ROWS:
        return None
    if scores.shape[0] >= 8 * _GROUPING_LIMIT and _many_distinct(scores):
        return None
    limit = min(_GROUPING_LIMIT, scores.shape[0] // 8)
    grouped, group_positive, group_negative, positive_sums, negative_sums = kernels.group_scores(
        scores, positive, _EMPTY if weights is None else weights, weights is not None,
        weight_scale, limit,
    )  # fmt: skip
    if not grouped:
        return None
    return SortedBinary(
        group_positive,
        group_negative,
        positive_sums,
        negative_sums,
        True,
        weight_scale,
        grouped=True,
        integer_counts=integer_counts,
    )


def _many_distinct(scores: np.ndarray) -> bool:
    """Whether a sample says the scores hold far more distinct values than can be grouped
    (only the path is chosen by it, never a result).

    The sample is 4096 rows at pseudo-random positions (a fixed mixing of 1 to 4096: the
    choice is reproducible, and sorted rows do not fool it as they would fool evenly
    spaced positions, each in a tie group of its own).  Drawn from at
    most 65536 distinct values, 4096 rows repeat an earlier value about 125 times on
    average (uniform values; any other distribution repeats more), with a standard
    deviation near 11; fewer than 32 repeats means many more distinct values, and the
    hashing attempt, which would give up after reading 65537 rows, is skipped.
    """
    sample = np.sort(scores[_SAMPLE_POSITIONS % np.uint64(scores.shape[0])])
    repeats = int(np.count_nonzero(sample[1:] == sample[:-1]))  # -0.0 == 0.0
    return repeats < _SAMPLE_MIN_REPEATS


def sort_binary(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    score_name: str = "y_score",
    multiclass_hint: str = "",
) -> SortedBinary:
    """Validate a binary ranking problem and sort it once (float32 scores stay float32)."""
    positive, _ = binary_target(y_true, pos_label, multiclass_hint=multiclass_hint)
    scores = as_scores(y_score, score_name, keep_float32=True)
    n = check_same_length(y_true=positive, **{score_name: scores})
    weights = as_sample_weight(sample_weight, n)
    return sort_scores(positive, scores, weights)


def warn_undefined(message: str, stacklevel: int = 2) -> None:
    """Emit an :class:`UndefinedMetricWarning`; ``stacklevel`` counts from the caller."""
    warnings.warn(message, UndefinedMetricWarning, stacklevel=stacklevel + 1)
