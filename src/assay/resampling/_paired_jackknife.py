"""Jackknife of a paired difference ``metric(A) - metric(B)``, for BCa in ``compare``.

Leaving a row out changes both models' metrics, so the jackknife value of the difference
is the difference of the two leave-one-out values of the same row (or group of rows).
The paths mirror those of ``assay.bootstrap``'s jackknife:

ranking (ROC AUC)
    Closed form from each model's placements (:func:`assay._kernels.jackknife.auc_jackknife`
    in its own sorted order), matched row by row.
ranking (other metrics, or clusters)
    Delete-a-group jackknife of both models over the same 100 random groups of rows
    (whole clusters with ``groups``).
confusion (joint cells)
    Leaving out one row of the joint cell (truth, A, B) removes one row from a cell of
    each model's confusion matrix: one value per non-empty joint cell, counted once per
    row of the cell.
generic
    Delete-a-group jackknife with the public metric, the same groups for both models.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from assay._kernels import jackknife, streaming
from assay.metrics._ranking import is_full_roc_auc
from assay.resampling._bootstrap import _JACKKNIFE_GROUPS, _rows_jackknife
from assay.resampling._joint_cells import JointCells
from assay.resampling._plans import PairedStreamPlan, RowsPlan
from assay.resampling._resampling import n_workers

__all__ = ["cells_jackknife", "ranking_jackknife", "rows_jackknife"]


def ranking_jackknife(
    plan: PairedStreamPlan, options: Any, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(values, counts)`` of the difference, in model A's row order (or per group)."""
    n = plan.n_atoms
    clusters = plan.clusters
    if is_full_roc_auc(options) and clusters.n_clusters == 0:
        values_a, _ = jackknife.auc_jackknife(plan.a)
        values_b, _ = jackknife.auc_jackknife(plan.b)
        values_b_by_a = np.empty(n, dtype=np.float64)
        values_b_by_a[plan.a_position_of_b] = values_b
        return values_a - values_b_by_a, np.ones(n)
    if clusters.n_clusters > 0:  # leave whole clusters out (a group per cluster, up to 100)
        n_groups = min(_JACKKNIFE_GROUPS, clusters.n_clusters)
        group_of_a = clusters.cluster_of_atom % n_groups
    else:
        n_groups = min(_JACKKNIFE_GROUPS, n)
        group_of_a = np.random.default_rng(seed).permutation(n) % n_groups
    group_of_a = np.ascontiguousarray(group_of_a, dtype=np.int64)
    group_of_b = np.ascontiguousarray(group_of_a[plan.a_position_of_b])
    values = []
    for atoms, group in ((plan.a, group_of_a), (plan.b, group_of_b)):
        out = np.empty(n_groups, dtype=np.float64)
        groups = streaming.Clusters(group, n_groups)
        jackknife.grouped_jackknife(atoms, groups, options, out, n_workers())
        values.append(out)
    return values[0] - values[1], np.ones(n_groups)


def cells_jackknife(
    cells: JointCells, from_confusion: Callable[..., Any]
) -> tuple[np.ndarray, np.ndarray]:
    """``(values, counts)``: one value per non-empty joint cell, its count of rows."""
    counts = cells.cells[cells.active].astype(np.float64)
    present = np.flatnonzero(counts > 0)
    left_out = np.repeat(counts[None, :], present.shape[0], axis=0)
    left_out[np.arange(present.shape[0]), present] -= 1.0
    side_a = int(np.sqrt(cells.unit_a.shape[1]))
    side_b = int(np.sqrt(cells.unit_b.shape[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an undefined value makes BCa fall back, with a warning
        values_a = from_confusion((left_out @ cells.unit_a).reshape(-1, side_a, side_a),
                                  **cells.options_a)  # fmt: skip
        values_b = from_confusion((left_out @ cells.unit_b).reshape(-1, side_b, side_b),
                                  **cells.options_b)  # fmt: skip
    values = np.asarray(values_a, dtype=np.float64) - np.asarray(values_b, dtype=np.float64)
    return values, counts[present]


def rows_jackknife(
    function: Callable[..., Any],
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    weights: np.ndarray | None,
    options: dict[str, Any],
    plan: RowsPlan,
    seed: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Delete-a-group jackknife of both models (the same groups: they come from ``seed``)."""
    values_a, counts = _rows_jackknife(function, y_true, pred_a, weights, options, plan, seed)
    values_b, _ = _rows_jackknife(function, y_true, pred_b, weights, options, plan, seed)
    return values_a - values_b, counts
