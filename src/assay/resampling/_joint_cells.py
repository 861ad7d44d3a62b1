"""The joint confusion cells of two classifiers (:class:`JointCells`): the plan of the
paired bootstrap and permutation test of a confusion-matrix metric.

A confusion-matrix metric of two models' predictions depends on the rows only through the
joint (truth, prediction A, prediction B) table; each cell carries the unit confusion
matrices of one of its rows for both models, so that a replicate's matrices are its cell
counts times the units.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from assay._validation import as_1d, check_same_length
from assay.metrics._registry import MetricDeclaration

__all__ = ["JointCells", "joint_cells", "joint_cells_of_counts", "unit_matrices"]


class JointCells(NamedTuple):
    """The (truth, prediction A, prediction B) table of two classifiers, dense.

    ``cells[(t * K + a) * K + b]`` counts rows with codes (t, a, b) over the ``K`` labels
    of all three arrays; ``unit_a[c]`` is model A's confusion matrix of one row of cell
    ``c`` in the layout its metric resolves (likewise ``unit_b``), so that a replicate's
    matrices are ``counts @ unit``.  Only cells that can hold rows (present cells and
    their mirrors) have units.
    """

    cells: np.ndarray
    n_labels: int
    active: np.ndarray
    unit_a: np.ndarray
    unit_b: np.ndarray
    options_a: dict[str, Any]
    options_b: dict[str, Any]


def unit_matrices(
    declaration: MetricDeclaration,
    truth: np.ndarray,
    predicted: np.ndarray,
    options: dict[str, Any],
) -> tuple[np.ndarray, dict[str, Any]]:
    """Confusion matrix of each representative row alone, in the metric's layout."""
    assert declaration.resolve is not None
    units = []
    resolved: dict[str, Any] = {}
    for r in range(truth.shape[0]):
        one_hot = np.zeros(truth.shape[0])
        one_hot[r] = 1.0
        matrix, resolved = declaration.resolve_arguments(
            truth, predicted, sample_weight=one_hot, **options
        )
        units.append(matrix.ravel())
    return np.array(units), resolved


# Integer labels spanning at most this many values are coded by a lookup table, not a sort.
_SMALL_LABEL_RANGE = 256


def _small_integer_codes(
    truth: np.ndarray, a: np.ndarray, b: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """The labels of three integer (or boolean) arrays spanning a small range, and each
    row's joint code ``(t * K + a) * K + b``: what ``np.unique`` of the three gives,
    without sorting 3n values; None for other arrays."""
    arrays = (truth, a, b)
    if not all(x.dtype.kind in "biu" for x in arrays) or truth.shape[0] == 0:
        return None
    low = min(int(x.min()) for x in arrays)
    high = max(int(x.max()) for x in arrays)
    if high - low >= _SMALL_LABEL_RANGE:
        return None
    present = np.zeros(high - low + 1, dtype=bool)
    for x in arrays:
        present[np.flatnonzero(np.bincount(x.astype(np.int64) - low))] = True
    labels = (np.flatnonzero(present) + low).astype(np.result_type(*arrays))
    lookup = np.cumsum(present) - 1
    k = labels.shape[0]
    code = lookup[truth.astype(np.int64) - low] * k
    code += lookup[a.astype(np.int64) - low]
    code *= k
    code += lookup[b.astype(np.int64) - low]
    return labels, code


def joint_cells(
    declaration: MetricDeclaration,
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    options: dict[str, Any],
    *,
    mirrors: bool,
    counts: np.ndarray | None = None,
) -> JointCells:
    """Joint table of two classifiers and each cell's unit confusion matrices.

    ``counts`` (one per row, below 2**53) makes each row stand for that many rows (the
    labels present, and so the cells' indices, are the same).

    The predictions were checked as labels before (:func:`check_predicted_labels` and
    the public metric, which also resolves every cell's labels below).

    With ``mirrors`` (paired permutations, which move rows from (t, a, b) to (t, b, a))
    the mirror of every present cell gets units too; each model's matrices then span the
    labels of both models' predictions (a label only one model predicts becomes an empty
    class of the other, which matters only to averages over classes).
    """
    truth = as_1d(y_true, "y_true")
    a = as_1d(pred_a, "pred_a")
    b = as_1d(pred_b, "pred_b")
    n = check_same_length(y_true=truth, pred_a=a, pred_b=b)
    small = _small_integer_codes(truth, a, b)
    if small is None:
        labels, codes = np.unique(np.concatenate([truth, a, b]), return_inverse=True)
        k = labels.shape[0]
        code = (codes[:n] * k + codes[n : 2 * n]) * k + codes[2 * n :]
    else:
        labels, code = small
        k = labels.shape[0]
    cells = np.bincount(code, weights=counts, minlength=k**3).astype(np.int64)  # exact
    return joint_cells_of_counts(declaration, labels, cells, options, mirrors=mirrors)


def joint_cells_of_counts(
    declaration: MetricDeclaration,
    labels: np.ndarray,
    cells: np.ndarray,
    options: dict[str, Any],
    *,
    mirrors: bool,
) -> JointCells:
    """:func:`joint_cells` of the joint table ``cells`` (int64, ``K**3`` counts over the
    ``K`` sorted ``labels``): all the rows give it (the Dask report sums it over the
    partitions)."""
    k = labels.shape[0]
    present = np.flatnonzero(cells)
    active = present
    if mirrors:
        t, x, y = present // (k * k), (present // k) % k, present % k
        active = np.union1d(present, (t * k + y) * k + x)
    t, x, y = active // (k * k), (active // k) % k, active % k
    unit_a, options_a = unit_matrices(declaration, labels[t], labels[x], options)
    unit_b, options_b = unit_matrices(declaration, labels[t], labels[y], options)
    return JointCells(cells, k, active, unit_a, unit_b, options_a, options_b)
