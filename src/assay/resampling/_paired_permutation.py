"""What the paired permutation test of :func:`assay.compare` swaps, and its exact form.

Under the null hypothesis the two models are exchangeable row by row: a replicate swaps
each row's two values with probability 1/2.  Which values depends on the metric.

Labels and values (confusion-matrix metrics, regression losses, callables)
    The predictions themselves: both models predict on the same scale (the labels, or
    the target's units).
Ranking metrics of binary scores
    Each model's scores are on a scale of its own (a probability, a logit, a margin):
    swapping raw scores would mix the two scales, and the test would depend on them.
    Each model's scores are replaced by their mid-distribution values over the rows,
    ``F_mid(s) = W(score < s) + W(score = s) / 2`` (``W``: the total weight; without
    weights, the midrank minus 1/2), a strictly increasing function of that model's
    scores: every ranking metric of either model is unchanged, both models are on the
    same scale (their own ranks, as in Venkatraman & Begg 1996 and Bandos, Rockette &
    Gur 2005), and the test no longer depends on any increasing transform of either
    model's scores.

The mid-distribution values are computed exactly: weights are binary fractions, so
``2 F_mid = W(<) + W(<=)`` is an integer multiple of the smallest power of two among
them, summed in int64 limbs of 30 bits.  Values that are mathematically
equal, in one model or across the two, compare equal, which matters because swapped
values of the two models meet in one replicate and a tie counts one half.  The values
handed on are the ranks of these exact values among both models' (small integers as
float64), an increasing relabelling that changes no ranking metric.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from assay._validation import as_sample_weight, as_scores, check_same_length
from assay.metrics._multilabel import is_sparse
from assay.metrics._registry import MetricDeclaration
from assay.resampling._plans import call_metric
from assay.resampling._rows import as_rows, swap_rows

__all__: list[str] = []

_LIMB_BITS = 30  # exact integers as int64 limbs of 30 bits, least significant first
_LIMB_MASK = (1 << _LIMB_BITS) - 1


def _weight_limbs(weights: np.ndarray | None, n: int) -> np.ndarray:
    """Every row's weight as an exact integer in limbs, ``(n, n_limbs)`` int64.

    A float64 weight is ``significand * 2**exponent`` (53-bit significand); measured in
    units of the smallest ``2**exponent`` of the positive weights, every weight is an
    integer.  The limbs leave room for twice the sum of all of them (no weights: every
    row weighs 1).
    """
    if weights is None:
        n_limbs = -(-(2 + n.bit_length()) // _LIMB_BITS)
        limbs = np.zeros((n, n_limbs), dtype=np.int64)
        limbs[:, 0] = 1
        return limbs
    mantissa, exponent = np.frexp(weights)
    significand = np.ldexp(mantissa, 53).astype(np.int64)  # exact, below 2**53
    exponent = exponent.astype(np.int64) - 53
    positive = significand > 0
    lowest_bit = np.where(positive, significand & -significand, 1).astype(np.float64)
    trailing_zeros = np.frexp(lowest_bit)[1].astype(np.int64) - 1  # powers of two: exact
    significand >>= trailing_zeros  # integer weights become small integers
    exponent += trailing_zeros
    shift = np.where(positive, exponent - exponent[positive].min(), 0)
    n_limbs = -(-(54 + int(shift.max()) + n.bit_length()) // _LIMB_BITS) + 2
    # significand << shift, split at the limb boundaries: shift = 30 q + r
    q, r = np.divmod(shift, _LIMB_BITS)
    rest = significand >> (_LIMB_BITS - r)
    rows = np.arange(n)
    limbs = np.zeros((n, n_limbs), dtype=np.int64)
    limbs[rows, q] = (significand & ((1 << (_LIMB_BITS - r)) - 1)) << r
    limbs[rows, q + 1] = rest & _LIMB_MASK
    limbs[rows, q + 2] = rest >> _LIMB_BITS
    return limbs


def _doubled_mid_distribution(
    scores: np.ndarray, limbs: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Tie group of every row, and ``W(score < s) + W(score <= s)`` of every group (in
    increasing score order, as normalised limbs)."""
    n = scores.shape[0]
    order = np.argsort(scores, kind="stable")
    ordered = scores[order]
    starts = np.flatnonzero(np.concatenate([[True], ordered[1:] != ordered[:-1]]))
    group_of_row = np.empty(n, dtype=np.int64)
    group_of_row[order] = np.repeat(np.arange(starts.shape[0]), np.diff(np.append(starts, n)))
    at_most = np.cumsum(np.add.reduceat(limbs[order], starts, axis=0), axis=0)
    doubled = at_most.copy()
    doubled[1:] += at_most[:-1]  # W(<) of a group is W(<=) of the one below
    for limb in range(doubled.shape[1] - 1):  # carries: every limb below 2**30
        doubled[:, limb + 1] += doubled[:, limb] >> _LIMB_BITS
        doubled[:, limb] &= _LIMB_MASK
    return group_of_row, doubled


def mid_distribution_codes(
    scores_a: np.ndarray, scores_b: np.ndarray, weights: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """Both models' mid-distribution values as ranks among both (see the module notes).

    ``codes_a[i] < codes_b[j]`` exactly when ``F_mid_A(a_i) < F_mid_B(b_j)``, likewise
    for ``==`` and within one model; the codes are integers 0, 1, ... as float64.
    """
    n = scores_a.shape[0]
    if n >= 1 << 32:  # pragma: no cover - the limb sums below stay exact up to here
        raise ValueError(f"at most 2**32 rows can be permuted; got {n}.")
    limbs = _weight_limbs(weights, n)
    group_a, doubled_a = _doubled_mid_distribution(scores_a, limbs)
    group_b, doubled_b = _doubled_mid_distribution(scores_b, limbs)
    values = np.concatenate([doubled_a, doubled_b])
    used = np.flatnonzero(np.any(values != 0, axis=0))
    values = values[:, : used[-1] + 1 if used.size else 1]
    if values.shape[1] % 2:
        values = np.concatenate([values, np.zeros_like(values[:, :1])], axis=1)
    values = values[:, 0::2] | (values[:, 1::2] << _LIMB_BITS)  # limbs of 60 bits
    order = np.lexsort(values.T)  # the last limb, the most significant, sorts first
    ordered = values[order]
    new_value = np.ones(order.shape[0], dtype=bool)
    new_value[1:] = np.any(ordered[1:] != ordered[:-1], axis=1)
    code = np.empty(order.shape[0], dtype=np.float64)
    code[order] = np.cumsum(new_value) - 1
    codes_a = code[: doubled_a.shape[0]][group_a]
    codes_b = code[doubled_a.shape[0] :][group_b]
    return np.ascontiguousarray(codes_a), np.ascontiguousarray(codes_b)


def permutation_values(
    declaration: MetricDeclaration | None, pred_a: Any, pred_b: Any, sample_weight: Any
) -> tuple[Any, Any]:
    """What a replicate of the paired permutation test swaps, row by row.

    The predictions themselves, or for a ranking metric each model's mid-distribution
    codes (:func:`mid_distribution_codes`).  Called after the metric has accepted the
    inputs.

    Raises
    ------
    ValueError
        For a ranking metric of per-class scores (2-D ``pred_a``): their rows are
        probabilities over the classes, and no rank scale keeps them so.
    """
    if declaration is None or declaration.computed_from != "ranking":
        return pred_a, pred_b
    shape = np.shape(pred_a)
    if len(shape) == 2 and shape[1] > 1:
        raise ValueError(
            f"`method='permutation'` with `metric={declaration.name}` needs binary scores "
            f"(1-D `pred_a` and `pred_b`); got per-class scores of shape {shape}. The "
            "permutation test swaps each model's ranks, which has no counterpart for rows "
            "of class probabilities; use `method='bootstrap'`."
        )
    scores_a = as_scores(pred_a, "pred_a")
    scores_b = as_scores(pred_b, "pred_b")
    n = check_same_length(pred_a=scores_a, pred_b=scores_b)
    return mid_distribution_codes(scores_a, scores_b, as_sample_weight(sample_weight, n))


def differing_rows(values_a: Any, values_b: Any) -> np.ndarray:
    """Rows whose two swapped values differ (swapping the others changes nothing)."""
    if is_sparse(values_a) or is_sparse(values_b):  # indicators: rows with a stored difference
        first, second = as_rows(values_a), as_rows(values_b)
        if not is_sparse(first):
            first = type(second)(first)
        if not is_sparse(second):
            second = type(first)(second)
        differ_sparse = (first != second).tocsr()
        differ_sparse.eliminate_zeros()
        return np.flatnonzero(np.diff(differ_sparse.indptr))
    first = np.asarray(values_a)
    second = np.asarray(values_b)
    differ = first != second
    if differ.ndim > 1:
        differ = differ.reshape(differ.shape[0], -1).any(axis=1)
    return np.flatnonzero(differ)


def exact_permutation_differences(
    function: Callable[..., Any],
    y_true: Any,
    values_a: Any,
    values_b: Any,
    sample_weight: Any,
    options: dict[str, Any],
    rows: np.ndarray,
) -> np.ndarray:
    """The difference for every swap pattern of ``rows`` (the rows where A and B differ)."""
    first = as_rows(values_a)
    second = as_rows(values_b)
    differences = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for pattern in itertools.product((False, True), repeat=rows.shape[0]):
            swap = np.zeros(first.shape[0], dtype=bool)
            swap[rows[list(pattern)]] = True
            new_a = swap_rows(first, second, swap)
            new_b = swap_rows(second, first, swap)
            value_a = call_metric(function, y_true, new_a, sample_weight, options)
            value_b = call_metric(function, y_true, new_b, sample_weight, options)
            differences.append(float(value_a) - float(value_b))
    return np.array(differences)
