"""DeLong's placements of range-partitioned rows, and their sums of squares.

A row's placement depends on it only through its tie group: for the group with class
weights ``(p, q)`` below the weight ``(TP, FP)``, ``V10 = (W - FP - q / 2) / W`` (a
positive row) and ``V01 = (TP + p / 2) / U`` (a negative row), the formula of
:func:`assay._kernels.scans.roc_auc.group_placements`.  In a bucket, a group's ``TP``
and ``FP`` are the weight above the bucket (the prefix of
:mod:`assay.dask._buckets`) plus the weight of the bucket's groups above it: exact
counts without weights, so the placements are those of the single machine bit for bit.

One model (:func:`bucket_squares`) needs the sums ``sum_k p_k (V10_k - A)^2`` and
``sum_k q_k (V01_k - A)^2`` over its groups, per bucket.  Two models on the same rows
(:func:`paired_sums`) need each row's two placements together: the rows, shuffled to
the buckets of model A, are given their A placement there (:func:`rows_for_b`) and
travel with it to the buckets of model B, where the B placement is looked up and the
cross products are summed (:func:`paired_sums`).  The per-bucket sums are added in
score order; the single machine adds the same terms in another order, so the sums
agree to rounding, not bit for bit.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from assay.dask._buckets import Atoms, Prefix, rows_meta
from assay.dask._partitions import Plan, bucket_of


def _exclusive_sum(values: np.ndarray, start: float) -> np.ndarray:
    """``start`` plus the sum of the values before each one (exact for whole numbers)."""
    running = np.empty(values.shape[0], dtype=np.float64)
    running[0:1] = 0.0
    np.cumsum(values[:-1], out=running[1:])
    return start + running


def group_placements(atoms: Atoms, above: tuple[float, float], prefix: Prefix) -> tuple:
    """``(V10, V01)`` of each of a bucket's groups, from the weight above the bucket."""
    total_positive = prefix.context.total_positive
    total_negative = prefix.context.total_negative
    tp = _exclusive_sum(atoms.positive, above[0])
    fp = _exclusive_sum(atoms.negative, above[1])
    with np.errstate(divide="ignore", invalid="ignore"):  # a single class: NaN, unused
        v10 = (total_negative - fp - 0.5 * atoms.negative) / total_negative
        v01 = (tp + 0.5 * atoms.positive) / total_positive
    return v10, v01


class Spread(NamedTuple):
    """Sums of squares of placements about their mean, and their range."""

    squares: np.ndarray
    """Sums of weighted cross products of the centred placements (and, for two
    models, of the centred difference, last)."""
    low: np.ndarray
    high: np.ndarray
    """The smallest and the largest placement (and difference) of positive weight."""


def _spread(values: np.ndarray, weights: np.ndarray, means: np.ndarray) -> Spread:
    """The :class:`Spread` of the rows of ``values`` (shape (k, m)); for k = 2 the
    squares are ``[s00, s01, s11, difference]``, for k = 1 ``[s00]``."""
    centred = values - means[:, None]
    if values.shape[0] == 1:
        squares = np.array([np.sum(weights * centred[0] * centred[0])])
        columns = values
    else:
        difference = centred[0] - centred[1]
        squares = np.array(
            [
                np.sum(weights * centred[0] * centred[0]),
                np.sum(weights * centred[0] * centred[1]),
                np.sum(weights * centred[1] * centred[1]),
                np.sum(weights * difference * difference),
            ]
        )
        columns = np.vstack((values, values[0] - values[1]))
    if values.shape[1] == 0:
        width = columns.shape[0]
        return Spread(squares, np.full(width, np.inf), np.full(width, -np.inf))
    return Spread(squares, columns.min(axis=1), columns.max(axis=1))


def combine_spreads(spreads: list[Spread]) -> tuple[np.ndarray, np.ndarray]:
    """The sums of all pieces, in order, and which columns are constant (a constant
    column's centred values are exactly 0: its sums are 0, not rounding noise)."""
    squares = spreads[0].squares.copy()
    low = spreads[0].low.copy()
    high = spreads[0].high.copy()
    for spread in spreads[1:]:
        squares += spread.squares
        np.minimum(low, spread.low, out=low)
        np.maximum(high, spread.high, out=high)
    return squares, low >= high


def bucket_squares(
    atoms: dict[int, Atoms], prefix: Prefix, auc: float
) -> dict[int, tuple[Spread, Spread]]:
    """Each bucket's spread of ``V10`` (over its groups' positive weight) and of
    ``V01`` (negative weight) about the AUC."""
    spreads = {}
    mean = np.array([auc])
    for bucket, a in atoms.items():
        v10, v01 = group_placements(a, prefix.above[bucket], prefix)
        positive = a.positive > 0.0
        negative = a.negative > 0.0
        spreads[bucket] = (
            _spread(v10[None, positive], a.positive[positive], mean),
            _spread(v01[None, negative], a.negative[negative], mean),
        )
    return spreads


def in_order(parts: list[dict[int, Any]], prefix: Prefix) -> list[Any]:
    """The values of every bucket, in descending score order."""
    merged = {bucket: value for part in parts for bucket, value in part.items()}
    return [merged[bucket] for bucket in prefix.order]


def row_placements(frame: pd.DataFrame, atoms: dict[int, Atoms], prefix: Prefix) -> np.ndarray:
    """The placement of each row of a shuffled partition, in the frame's order: ``V10``
    for a positive row, ``V01`` for a negative one."""
    buckets = frame["bucket"].to_numpy()
    scores = frame["score"].to_numpy()
    positive = frame["positive"].to_numpy()
    out = np.empty(buckets.shape[0], dtype=np.float64)
    if buckets.shape[0] == 0:  # a partition the shuffle left empty
        return out
    order = np.argsort(buckets, kind="stable")
    starts = np.flatnonzero(np.diff(buckets[order], prepend=-1)).tolist()
    for start, end in zip(starts, [*starts[1:], order.shape[0]], strict=True):
        rows = order[start:end]
        bucket = int(buckets[rows[0]])
        a = atoms[bucket]
        v10, v01 = group_placements(a, prefix.above[bucket], prefix)
        # atoms descend: their negated scores ascend (-0.0 and 0.0 compare equal)
        group = np.searchsorted(-a.scores, -scores[rows])
        out[rows] = np.where(positive[rows], v10[group], v01[group])
    return out


def rows_for_b(
    frame: pd.DataFrame, atoms: dict[int, Atoms], prefix: Prefix, plan_b: Plan, carry: str
) -> pd.DataFrame:
    """A shuffled partition of model A's buckets as rows of model B's: B's score (the
    carried ``other``) and bucket, and ``carry``: ``"placement"`` (the row's A placement)
    or ``"other"`` (its A score)."""
    use_weights = "weight" in frame.columns
    positions = "position" in frame.columns
    meta = rows_meta(use_weights, (carry,), positions)
    if frame.shape[0] == 0:
        return meta
    scores_b = frame["other"].to_numpy()
    columns: dict[str, Any] = {
        "bucket": bucket_of(scores_b, plan_b.splitters),
        "positive": frame["positive"].to_numpy(),
        "score": scores_b,
    }
    if use_weights:
        columns["weight"] = frame["weight"].to_numpy()
    if positions:
        columns["position"] = frame["position"].to_numpy()
    if carry == "placement":
        columns["placement"] = row_placements(frame, atoms, prefix)
    else:
        columns["other"] = frame["score"].to_numpy()
    return pd.DataFrame({name: columns[name] for name in meta.columns})


def paired_sums(
    frame: pd.DataFrame, atoms: dict[int, Atoms], prefix: Prefix, auc_a: float, auc_b: float
) -> tuple[Spread, Spread]:
    """The spreads of a shuffled partition of model B's buckets: its positive rows'
    ``(V10_A, V10_B)`` and its negative rows' ``(V01_A, V01_B)`` about the AUCs."""
    positive = frame["positive"].to_numpy()
    placements = np.vstack((frame["placement"].to_numpy(), row_placements(frame, atoms, prefix)))
    if "weight" in frame.columns:
        weights = frame["weight"].to_numpy()
    else:
        weights = np.ones(positive.shape[0])
    means = np.array([auc_a, auc_b])
    return (
        _spread(placements[:, positive], weights[positive], means),
        _spread(placements[:, ~positive], weights[~positive], means),
    )
