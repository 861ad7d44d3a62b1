"""Plans: validated inputs laid out once for the resampling kernels.

A plan is built once per call and read by every replicate: the sorted atoms of a ranking
problem in one merged order (:class:`StreamPlan`), two models' sorted atoms on the same
rows (:class:`PairedRankingPlan`), the strata and clusters of rows (:class:`RowsPlan`),
and the joint confusion cells of two classifiers (:class:`JointCells`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from assay._kernels import resample, streaming
from assay._kernels.sorting import descending_order
from assay._validation import as_1d, as_sample_weight, as_scores, binary_target, check_same_length
from assay.metrics._registry import MetricDeclaration
from assay.metrics._sorted import sort_scores

__all__: list[str] = []

_EMPTY_INT = np.empty(0, dtype=np.int64)
_EMPTY_FLOAT = np.empty(0, dtype=np.float64)


class StreamPlan(NamedTuple):
    """Sorted atoms in one merged order, for the streaming bootstrap of ranking metrics."""

    is_positive: np.ndarray
    continues: np.ndarray
    value: np.ndarray
    cells: bool
    weighted: bool
    cluster_of_atom: np.ndarray
    n_clusters: int

    @property
    def n_atoms(self) -> int:
        return int(self.is_positive.shape[0])


def stream_plan(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any,
    sample_weight: Any,
    clusters: np.ndarray | None,
) -> StreamPlan:
    """Validate a binary ranking problem and lay its sorted atoms out in one order.

    Unweighted tied scores become (tie group, class) cells whose value is their number of
    rows; other rows keep their weight as value; clustered rows carry their cluster.
    """
    positive, _ = binary_target(y_true, pos_label)
    scores = as_scores(y_score)
    n = check_same_length(y_true=positive, y_score=scores)
    weights = as_sample_weight(sample_weight, n)
    if clusters is None:
        data = sort_scores(positive, scores, weights, group_ties=weights is None)
        is_positive, continues, value = streaming.merge_atoms(
            data.positive_scores,
            data.negative_scores,
            data.positive_weights,
            data.negative_weights,
            data.use_weights,
        )
        return StreamPlan(
            is_positive, continues, value, data.grouped, weights is not None, _EMPTY_INT, 0
        )
    order = descending_order(scores)
    if weights is not None:
        order = order[weights[order] > 0]
    ordered = scores[order]
    continues = np.append(ordered[1:] == ordered[:-1], False) if order.size else order > 0
    value = _EMPTY_FLOAT if weights is None else np.ascontiguousarray(weights[order])
    cluster_of_atom = np.ascontiguousarray(clusters[order])
    return StreamPlan(
        np.ascontiguousarray(positive[order]),
        np.ascontiguousarray(continues),
        value,
        False,
        weights is not None,
        cluster_of_atom,
        int(clusters.max()) + 1,
    )


def cluster_codes(groups: Any, n: int) -> np.ndarray | None:
    """Cluster index (0..G-1) of every row, or None without ``groups``."""
    if groups is None:
        return None
    labels = as_1d(groups, "groups")
    if labels.shape[0] != n:
        raise ValueError(f"`groups` has length {labels.shape[0]} but there are {n} samples.")
    return np.unique(labels, return_inverse=True)[1].astype(np.int64)


def call_metric(
    function: Callable[..., Any],
    y_true: Any,
    y_pred: Any,
    weights: Any,
    metric_kwargs: dict[str, Any],
) -> Any:
    if weights is None:
        return function(y_true, y_pred, **metric_kwargs)
    return function(y_true, y_pred, sample_weight=weights, **metric_kwargs)


def scalar(value: Any, name: str) -> float:
    if np.ndim(value) != 0:
        raise ValueError(
            f"`metric` ({name}) returned an array of shape {np.shape(value)}; the bootstrap "
            "needs one number per sample (for a per-class metric choose an `average`)."
        )
    return float(value)


def replicate_options(
    declaration: MetricDeclaration | None,
    function: Callable[..., Any],
    metric_kwargs: dict[str, Any],
) -> dict[str, Any]:
    """Options for replicates: an undefined replicate is NaN (counted), never 0."""
    options = dict(metric_kwargs)
    if declaration is not None and declaration.computed_from == "confusion":
        try:
            parameters = inspect.signature(function).parameters
        except (TypeError, ValueError):  # pragma: no cover - assay functions have one
            return options
        if "zero_division" in parameters and options.get("zero_division", "warn") == "warn":
            options["zero_division"] = np.nan
    return options


class RowsPlan(NamedTuple):
    """Row order and strata for the generic path."""

    order: np.ndarray | None  # rows grouped by stratum (None: natural order)
    stratum_end: np.ndarray
    clusters: np.ndarray
    n_clusters: int
    n: int


def rows_plan(y_true: Any, n: int, stratify: bool, clusters: np.ndarray | None) -> RowsPlan:
    if clusters is not None:
        return RowsPlan(None, np.array([n], dtype=np.int64), clusters, int(clusters.max()) + 1, n)
    if not stratify:
        return RowsPlan(None, np.array([n], dtype=np.int64), _EMPTY_INT, 0, n)
    codes = np.unique(as_1d(y_true, "y_true"), return_inverse=True)[1]
    order = np.argsort(codes, kind="stable")
    stratum_end = np.cumsum(np.bincount(codes)).astype(np.int64)
    return RowsPlan(order, stratum_end, _EMPTY_INT, 0, n)


class ModelAtoms(NamedTuple):
    """One model's scores sorted into atoms (rows), with the row number of each atom."""

    positive_end: np.ndarray
    negative_end: np.ndarray
    positive_row: np.ndarray
    negative_row: np.ndarray
    positive_unit: np.ndarray
    negative_unit: np.ndarray


class PairedRankingPlan(NamedTuple):
    """Two models' scores on the same rows, for paired resampling.

    Rows with positive weight are renumbered so that the positives come first
    (``stratum_end`` marks the classes when stratified); every model keeps its own sorted
    atoms, each knowing its row.
    """

    model_a: ModelAtoms
    model_b: ModelAtoms
    weighted: bool
    stratum_end: np.ndarray
    clusters: np.ndarray
    n_clusters: int
    positive_of_row: np.ndarray
    unit_of_row: np.ndarray
    scores_a: np.ndarray
    scores_b: np.ndarray


def _model_atoms(scores: np.ndarray, positive: np.ndarray, units: np.ndarray | None) -> ModelAtoms:
    order = descending_order(scores)
    sorted_positive = positive[order]
    negated = -scores[order]
    a = np.ascontiguousarray(negated[sorted_positive])
    b = np.ascontiguousarray(negated[~sorted_positive])
    positive_end, negative_end = resample.group_ends(a, b)
    positive_row = np.ascontiguousarray(order[sorted_positive])
    negative_row = np.ascontiguousarray(order[~sorted_positive])
    positive_unit = negative_unit = _EMPTY_FLOAT
    if units is not None:
        positive_unit = np.ascontiguousarray(units[positive_row])
        negative_unit = np.ascontiguousarray(units[negative_row])
    return ModelAtoms(
        positive_end, negative_end, positive_row, negative_row, positive_unit, negative_unit
    )


def paired_ranking_plan(
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    *,
    pos_label: Any,
    sample_weight: Any,
    clusters: np.ndarray | None,
    stratify: bool,
    natural_order: bool = False,
) -> PairedRankingPlan:
    """Validate two models' binary scores and sort each once for paired resampling.

    Rows of positive weight are renumbered positives first (each class one stratum);
    with ``natural_order`` every row keeps its place (paired permutations draw one swap
    bit per row in the caller's order, like the generic path).
    """
    positive, _ = binary_target(y_true, pos_label)
    scores_a = as_scores(pred_a, "pred_a")
    scores_b = as_scores(pred_b, "pred_b")
    n = check_same_length(y_true=positive, pred_a=scores_a, pred_b=scores_b)
    weights = as_sample_weight(sample_weight, n)
    if natural_order:
        rows = np.arange(n)
    else:
        kept = np.arange(n) if weights is None else np.flatnonzero(weights > 0)
        rows = np.concatenate([kept[positive[kept]], kept[~positive[kept]]])
    n_positive = int(np.count_nonzero(positive[rows]))
    positive_of_row = np.ascontiguousarray(positive[rows])
    units = None if weights is None else np.ascontiguousarray(weights[rows])
    stratum_end = np.array(
        [n_positive, rows.shape[0]] if stratify else [rows.shape[0]], dtype=np.int64
    )
    cluster_of_row = _EMPTY_INT
    n_clusters = 0
    if clusters is not None:
        cluster_of_row = np.unique(clusters[rows], return_inverse=True)[1].astype(np.int64)
        n_clusters = int(cluster_of_row.max()) + 1 if cluster_of_row.size else 0
    scores_a = np.ascontiguousarray(scores_a[rows])
    scores_b = np.ascontiguousarray(scores_b[rows])
    return PairedRankingPlan(
        _model_atoms(scores_a, positive_of_row, units),
        _model_atoms(scores_b, positive_of_row, units),
        weights is not None,
        stratum_end,
        cluster_of_row,
        n_clusters,
        positive_of_row,
        _EMPTY_FLOAT if units is None else units,
        scores_a,
        scores_b,
    )


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


def _unit_matrices(
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


def joint_cells(
    declaration: MetricDeclaration,
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    options: dict[str, Any],
    *,
    mirrors: bool,
) -> JointCells:
    """Joint table of two classifiers and each cell's unit confusion matrices.

    With ``mirrors`` (paired permutations, which move rows from (t, a, b) to (t, b, a))
    the mirror of every present cell gets units too; each model's matrices then span the
    labels of both models' predictions (a label only one model predicts becomes an empty
    class of the other, which matters only to averages over classes).
    """
    truth = as_1d(y_true, "y_true")
    a = as_1d(pred_a, "pred_a")
    b = as_1d(pred_b, "pred_b")
    n = check_same_length(y_true=truth, pred_a=a, pred_b=b)
    labels, codes = np.unique(np.concatenate([truth, a, b]), return_inverse=True)
    k = labels.shape[0]
    code = (codes[:n] * k + codes[n : 2 * n]) * k + codes[2 * n :]
    cells = np.bincount(code, minlength=k**3).astype(np.int64)
    present = np.flatnonzero(cells)
    active = present
    if mirrors:
        t, x, y = present // (k * k), (present // k) % k, present % k
        active = np.union1d(present, (t * k + y) * k + x)
    t, x, y = active // (k * k), (active // k) % k, active % k
    unit_a, options_a = _unit_matrices(declaration, labels[t], labels[x], options)
    unit_b, options_b = _unit_matrices(declaration, labels[t], labels[y], options)
    return JointCells(cells, k, active, unit_a, unit_b, options_a, options_b)
