"""Plans: validated inputs laid out once for the resampling kernels.

A plan is built once per call and read by every replicate: sorted atoms of a ranking
problem (:class:`RankingPlan`), the strata and clusters of rows (:class:`RowsPlan`), and
the joint confusion cells of classifiers (:class:`CellsPlan`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from assay._kernels import resample
from assay._kernels.sorting import descending_order
from assay._validation import as_1d, as_sample_weight, as_scores, binary_target, check_same_length
from assay.metrics._registry import MetricDeclaration
from assay.metrics._sorted import sort_scores

__all__: list[str] = []

_EMPTY_INT = np.empty(0, dtype=np.int64)
_EMPTY_FLOAT = np.empty(0, dtype=np.float64)


class RankingPlan(NamedTuple):
    """The sorted atoms of a binary ranking problem, as the resampling kernels take them."""

    positive_end: np.ndarray
    negative_end: np.ndarray
    positive_sizes: np.ndarray
    negative_sizes: np.ndarray
    positive_unit: np.ndarray
    negative_unit: np.ndarray
    rows: bool
    weighted: bool
    positive_cluster: np.ndarray
    negative_cluster: np.ndarray
    n_clusters: int

    @property
    def n_atoms(self) -> int:
        return int(self.positive_end[-1] + self.negative_end[-1]) if self.positive_end.size else 0

    @property
    def atoms(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool, bool]:
        return (
            self.positive_end,
            self.negative_end,
            self.positive_sizes,
            self.negative_sizes,
            self.positive_unit,
            self.negative_unit,
            self.rows,
            self.weighted,
        )


def ranking_plan(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any,
    sample_weight: Any,
    clusters: np.ndarray | None,
) -> RankingPlan:
    """Validate and sort a binary ranking problem once for resampling.

    Unweighted scores with ties are grouped into (tie group, class) cells of several
    rows; weighted rows and clustered rows stay rows (their counts must be drawn per row).
    """
    positive, _ = binary_target(y_true, pos_label)
    scores = as_scores(y_score)
    n = check_same_length(y_true=positive, y_score=scores)
    weights = as_sample_weight(sample_weight, n)
    if clusters is None:
        data = sort_scores(positive, scores, weights, group_ties=weights is None)
        a, b = data.positive_scores, data.negative_scores
        positive_end, negative_end = resample.group_ends(a, b)
        if data.grouped:
            return RankingPlan(
                positive_end,
                negative_end,
                np.rint(data.positive_weights).astype(np.int64),
                np.rint(data.negative_weights).astype(np.int64),
                _EMPTY_FLOAT,
                _EMPTY_FLOAT,
                False,
                False,
                _EMPTY_INT,
                _EMPTY_INT,
                0,
            )
        if weights is None:
            return RankingPlan(
                positive_end,
                negative_end,
                _EMPTY_INT,
                _EMPTY_INT,
                _EMPTY_FLOAT,
                _EMPTY_FLOAT,
                True,
                False,
                _EMPTY_INT,
                _EMPTY_INT,
                0,
            )
        return RankingPlan(
            positive_end,
            negative_end,
            _EMPTY_INT,
            _EMPTY_INT,
            data.positive_weights,
            data.negative_weights,
            True,
            True,
            _EMPTY_INT,
            _EMPTY_INT,
            0,
        )
    # clusters: rows in descending score order, carrying their cluster and weight
    order = descending_order(scores)
    if weights is not None:
        order = order[weights[order] > 0]
    sorted_positive = positive[order]
    negated = -scores[order]
    a = np.ascontiguousarray(negated[sorted_positive])
    b = np.ascontiguousarray(negated[~sorted_positive])
    positive_end, negative_end = resample.group_ends(a, b)
    positive_unit = negative_unit = _EMPTY_FLOAT
    if weights is not None:
        positive_unit = np.ascontiguousarray(weights[order][sorted_positive])
        negative_unit = np.ascontiguousarray(weights[order][~sorted_positive])
    return RankingPlan(
        positive_end,
        negative_end,
        _EMPTY_INT,
        _EMPTY_INT,
        positive_unit,
        negative_unit,
        True,
        weights is not None,
        np.ascontiguousarray(clusters[order][sorted_positive]),
        np.ascontiguousarray(clusters[order][~sorted_positive]),
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
