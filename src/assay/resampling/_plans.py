"""Plans: validated inputs laid out once for the resampling kernels.

A plan is built once per call and read by every replicate: the sorted atoms of a ranking
problem in one merged order (:class:`StreamPlan`), two models' sorted rows
(:class:`PairedStreamPlan`, :class:`PairedRowsPlan`), the strata and clusters of rows
(:class:`RowsPlan`); the joint confusion cells of two classifiers are in
:mod:`assay.resampling._joint_cells`.
"""

from __future__ import annotations

import inspect
import math
import os
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from assay._kernels import paired, resample, streaming
from assay._kernels._cache import user_stacklevel
from assay._kernels.atoms import merge_atoms, merged_keys, row_keys
from assay._scaling import scale_free_weights
from assay._sort_choice import descending_order
from assay._validation import (
    as_1d,
    as_label_pair,
    as_sample_weight,
    as_scores,
    binary_target,
    check_same_length,
    format_values,
)
from assay.exceptions import DegenerateDataWarning
from assay.metrics._multilabel import any_multilabel, as_indicator_pair
from assay.metrics._registry import MetricDeclaration
from assay.metrics._sorted import sort_scores

__all__: list[str] = []

_EMPTY_INT = np.empty(0, dtype=np.int64)
_EMPTY_CODES = np.empty(0, dtype=np.uint8)
_EMPTY_FLOAT = np.empty(0, dtype=np.float64)
_EMPTY_BOOL = np.empty(0, dtype=bool)
_EMPTY_KEY = np.empty(0, dtype=np.uint64)


class StreamPlan(NamedTuple):
    """Sorted atoms in one merged order, for the streaming bootstrap of ranking metrics."""

    atoms: streaming.RowAtoms
    clusters: streaming.Clusters | streaming.NoClusters

    @property
    def n_atoms(self) -> int:
        return int(self.atoms.is_positive.shape[0])


def _repeats(
    is_positive: np.ndarray, continues: np.ndarray, alike: np.ndarray | None
) -> np.ndarray:
    """Which atoms repeat the cell of the atom before them (same score, same class, and
    ``alike`` when given); empty when none does."""
    repeats = np.zeros(is_positive.shape[0], dtype=bool)
    repeats[1:] = continues[:-1] & (is_positive[1:] == is_positive[:-1])
    if alike is not None:
        repeats[1:] &= alike
    return repeats if repeats.any() else _EMPTY_BOOL


def stream_plan(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any,
    sample_weight: Any,
    clusters: np.ndarray | None,
    keyed: bool = False,
) -> StreamPlan:
    """Validate a binary ranking problem and lay its sorted atoms out in one order.

    Unweighted tied scores become (tie group, class) cells whose value is their number of
    rows; other rows keep their weight as value; clustered rows carry their cluster.
    ``keyed`` (the Poisson bootstrap) adds every atom's key: the hash of its score and
    class for unweighted rows (rows of one cell after the first are marked ``repeats``),
    the row's position in the input for weighted rows (sorted then by score alone).
    """
    positive, _ = binary_target(y_true, pos_label)
    scores = as_scores(y_score)
    n = check_same_length(y_true=positive, y_score=scores)
    weights = scale_free_weights(as_sample_weight(sample_weight, n))
    if clusters is None and not (keyed and weights is not None):
        data = sort_scores(positive, scores, weights, group_ties=weights is None)
        is_positive, continues, value = merge_atoms(
            data.positive_scores,
            data.negative_scores,
            data.positive_weights,
            data.negative_weights,
            data.use_weights,
        )
        key = _EMPTY_KEY
        if keyed:
            key = merged_keys(data.positive_scores, data.negative_scores, is_positive)
        in_cells = data.grouped or not keyed
        repeats = _EMPTY_BOOL if in_cells else _repeats(is_positive, continues, None)
        atoms = streaming.RowAtoms(
            is_positive, continues, value, data.grouped, weights is not None, key, repeats
        )
        return StreamPlan(atoms, streaming.no_clusters())
    order = descending_order(scores)
    if weights is not None:
        order = order[weights[order] > 0]
    ordered = scores[order]
    continues = np.append(ordered[1:] == ordered[:-1], False) if order.size else order > 0
    value = _EMPTY_FLOAT if weights is None else np.ascontiguousarray(weights[order])
    key = order.astype(np.uint64) if keyed else _EMPTY_KEY
    atoms = streaming.RowAtoms(
        np.ascontiguousarray(positive[order]),
        np.ascontiguousarray(continues),
        value,
        False,
        weights is not None,
        key,
        _EMPTY_BOOL,
    )
    if clusters is None:
        return StreamPlan(atoms, streaming.no_clusters())
    cluster_of_atom = np.ascontiguousarray(clusters[order])
    return StreamPlan(atoms, streaming.Clusters(cluster_of_atom, int(clusters.max()) + 1))


def cluster_codes(groups: Any, n: int) -> np.ndarray | None:
    """Cluster index (0..G-1) of every row, or None without ``groups``."""
    if groups is None:
        return None
    labels = as_1d(groups, "groups")
    if labels.shape[0] != n:
        raise ValueError(f"`groups` has length {labels.shape[0]} but there are {n} samples.")
    codes = np.unique(labels, return_inverse=True)[1].astype(np.int64)
    if not codes.any():  # one cluster: each replicate draws that cluster again
        warnings.warn(
            f"`groups` holds a single cluster ({format_values(labels[:1])[1:-1]}): every "
            "bootstrap replicate resamples that one cluster, so all replicates equal the "
            "estimate and the interval has zero width; it says nothing about the "
            "uncertainty of the estimate (which needs several independent clusters).",
            DegenerateDataWarning,
            stacklevel=user_stacklevel(),
        )
    return codes


def check_predicted_labels(
    declaration: MetricDeclaration | None,
    y_true: Any,
    predictions: dict[str, Any],
    metric_kwargs: dict[str, Any],
) -> None:
    """For a confusion-matrix metric, check each named prediction as labels of ``y_true``.

    The public metric checks its ``y_pred`` too; this check runs first so that the
    message names the caller's argument (``pred_a``, ``pred_b``).  The metric's
    ``labels`` and (binary average) ``pos_label`` count as in the public function, and a
    metric of two raters (first argument ``y1``) checks them as raters.
    """
    if declaration is None or declaration.computed_from != "confusion":
        return
    parameters = inspect.signature(declaration.function).parameters
    options = {
        name: metric_kwargs.get(name, parameter.default)
        for name, parameter in parameters.items()
        if name in ("labels", "pos_label", "average")
    }
    binary = options.get("average", "binary") == "binary"
    raters = next(iter(parameters)) == "y1"  # two raters (Cohen's kappa): no reference labels
    for name, prediction in predictions.items():
        if any_multilabel(y_true, prediction):
            as_indicator_pair(y_true, prediction, names=("y_true", name))
            continue
        as_label_pair(
            y_true,
            prediction,
            names=("y_true", name),
            labels=None if binary else options.get("labels"),
            pos_label=options.get("pos_label") if binary else None,
            symmetric=raters,
        )


_PACKAGE_DIRECTORY = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def call_metric(
    function: Callable[..., Any],
    y_true: Any,
    y_pred: Any,
    weights: Any,
    metric_kwargs: dict[str, Any],
) -> Any:
    """``function(y_true, y_pred, [sample_weight=weights,] **metric_kwargs)``.

    A warning of an assay metric points at its caller, which is here: it is re-emitted
    at the user's line (a warning from the user's own code keeps its place).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if weights is None:
            value = function(y_true, y_pred, **metric_kwargs)
        else:
            value = function(y_true, y_pred, sample_weight=weights, **metric_kwargs)
    for found in caught:
        if os.path.realpath(found.filename).startswith(_PACKAGE_DIRECTORY + os.sep):
            warnings.warn(found.message, found.category, stacklevel=user_stacklevel())
        else:
            warnings.warn_explicit(found.message, found.category, found.filename, found.lineno)
    return value


def scalar(value: Any, name: str) -> float:
    """A metric's value as a float; an array, None, a string... named in the error."""
    if np.ndim(value) != 0:
        raise ValueError(
            f"`metric` ({name}) returned an array of shape {np.shape(value)}; the bootstrap "
            "needs one number per sample (for a per-class metric choose an `average`)."
        )
    item = value.item() if isinstance(value, np.ndarray | np.generic) else value
    try:
        if item is None or isinstance(item, str | bytes):
            raise TypeError
        number = float(item)
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"`metric` ({name}) returned {value!r} of type {type(value).__name__}; a metric "
            "must return a number (NaN where it is undefined)."
        ) from error
    if math.isinf(number):  # a value beyond float64 (the MAE of errors near 1e308)
        raise ValueError(
            f"`metric` ({name}) returned {number}: its value lies beyond the float64 range "
            "(about 1.8e308), and resampled values must be finite; divide the targets and "
            "predictions by a common factor."
        )
    return number


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


def replicate_weight(counts: np.ndarray, weights: np.ndarray | None) -> np.ndarray | None:
    """A replicate's row weights, ``counts`` (times ``weights``); None when no row has a
    positive one.

    The one rule of every replicate that calls the metric itself: a replicate (or a
    jackknife's leave-out) of no weight is undefined, NaN and counted in ``n_undefined``
    like any other undefined replicate, and the metric is not called (an assay metric
    refuses weights that sum to zero).  :func:`assay.bootstrap`, :func:`assay.compare`,
    their delete-a-group jackknives and the Dask twins all ask this function.
    """
    drawn = counts if weights is None else counts * weights
    return drawn if np.any(drawn > 0) else None


class RowsPlan(NamedTuple):
    """Row order and strata for the generic path."""

    order: np.ndarray | None  # rows grouped by stratum (None: natural order)
    stratum_end: np.ndarray
    clusters: np.ndarray
    n_clusters: int
    n: int

    @property
    def strata(self) -> resample.Strata:
        return resample.Strata(self.stratum_end, self.clusters, self.n_clusters)


def rows_plan(y_true: Any, n: int, stratify: bool, clusters: np.ndarray | None) -> RowsPlan:
    if clusters is not None:
        return RowsPlan(None, np.array([n], dtype=np.int64), clusters, int(clusters.max()) + 1, n)
    if not stratify:
        return RowsPlan(None, np.array([n], dtype=np.int64), _EMPTY_INT, 0, n)
    if any_multilabel(y_true, y_true):
        raise ValueError(
            "`stratify`=True needs 1-D class labels in `y_true`; it is a multilabel "
            "indicator (2-D): resample whole rows without strata, or pass `groups`."
        )
    codes = np.unique(as_1d(y_true, "y_true"), return_inverse=True)[1]
    order = np.argsort(codes, kind="stable")
    stratum_end = np.cumsum(np.bincount(codes)).astype(np.int64)
    return RowsPlan(order, stratum_end, _EMPTY_INT, 0, n)


class PairedRowsPlan(NamedTuple):
    """Two models' binary scores on the same rows for a paired permutation: both models'
    values sorted together once (2n entries, tie groups of equal values), and the rows
    in the caller's order (a replicate draws one swap bit per row, like the generic
    path)."""

    entries: paired.SwapEntries
    rows: paired.LabelledRows

    @property
    def n_rows(self) -> int:
        return int(self.rows.positive_of_row.shape[0])


def paired_rows_plan(
    y_true: Any, pred_a: Any, pred_b: Any, *, pos_label: Any, sample_weight: Any
) -> PairedRowsPlan:
    """Validate two models' binary scores for a paired permutation."""
    positive, _ = binary_target(y_true, pos_label)
    scores_a = as_scores(pred_a, "pred_a")
    scores_b = as_scores(pred_b, "pred_b")
    n = check_same_length(y_true=positive, pred_a=scores_a, pred_b=scores_b)
    weights = scale_free_weights(as_sample_weight(sample_weight, n))
    scores = np.concatenate([scores_a, scores_b])
    order = np.argsort(-scores, kind="stable")
    ordered = scores[order]
    entry_group = np.ascontiguousarray(
        np.concatenate([[0], np.cumsum(ordered[1:] != ordered[:-1])]), dtype=np.int64
    )
    n_groups = int(entry_group[-1]) + 1 if entry_group.size else 0
    entries = paired.SwapEntries(
        entry_group,
        np.ascontiguousarray(order % n),
        np.ascontiguousarray(order >= n),
        n_groups,
    )
    rows = paired.LabelledRows(
        np.ascontiguousarray(positive),
        _EMPTY_FLOAT if weights is None else weights,
        weights is not None,
    )
    return PairedRowsPlan(entries, rows)


class PairedStreamPlan(NamedTuple):
    """Two models' scores on the same rows, each in its own merged order (one row per
    atom), for the paired streaming bootstrap: B's atoms know their position in A's
    order."""

    a: streaming.RowAtoms
    b: streaming.RowAtoms
    a_position_of_b: np.ndarray
    clusters: streaming.Clusters | streaming.NoClusters
    codes_a: np.ndarray = np.empty(0, dtype=np.uint8)  # ``row_codes`` in A's order

    @property
    def n_atoms(self) -> int:
        return int(self.a.is_positive.shape[0])


def _merged_rows(
    scores: np.ndarray, positive: np.ndarray, weights: np.ndarray | None, rows: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``rows`` (None: every row) in decreasing score order, with class flags, tie flags
    and weights."""
    if rows is None:
        ordered_rows = descending_order(np.ascontiguousarray(scores))
    else:
        ordered_rows = rows[descending_order(np.ascontiguousarray(scores[rows]))]
    return (ordered_rows, *_row_flags(scores, positive, weights, ordered_rows))


def _row_flags(
    scores: np.ndarray, positive: np.ndarray, weights: np.ndarray | None, ordered_rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class flags, tie flags and weights of rows in decreasing score order."""
    ordered = scores[ordered_rows]
    continues = np.zeros(ordered.shape[0], dtype=bool)
    continues[:-1] = ordered[1:] == ordered[:-1]
    value = _EMPTY_FLOAT if weights is None else np.ascontiguousarray(weights[ordered_rows])
    return np.ascontiguousarray(positive[ordered_rows]), continues, value


def _keyed_rows_of_a(
    scores_a: np.ndarray, scores_b: np.ndarray, positive: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Unweighted rows in A's order with alike rows (both scores and the class equal)
    side by side, and each row's key and repeat flag for the Poisson bootstrap."""
    ordered_rows = rows[descending_order(np.ascontiguousarray(scores_a[rows]))]
    ordered = scores_a[ordered_rows]
    group = np.concatenate([[0], np.cumsum(ordered[1:] != ordered[:-1])]) if rows.size else rows
    within = np.lexsort((scores_b[ordered_rows], ~positive[ordered_rows], group))
    ordered_rows = ordered_rows[within]
    is_positive, continues, value = _row_flags(scores_a, positive, None, ordered_rows)
    b_of_row = np.ascontiguousarray(scores_b[ordered_rows])
    key = row_keys(np.ascontiguousarray(scores_a[ordered_rows]), b_of_row, is_positive)
    repeats = _repeats(is_positive, continues, b_of_row[1:] == b_of_row[:-1])
    return ordered_rows, is_positive, continues, value, key, repeats


def paired_stream_plan(
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    *,
    pos_label: Any,
    sample_weight: Any,
    clusters: np.ndarray | None,
    keyed: bool = False,
    row_codes: np.ndarray | None = None,
) -> PairedStreamPlan:
    """Validate two models' binary scores and sort each once (rows of positive weight).

    ``row_codes`` (uint8, one per row) are laid out in A's order as ``codes_a``.

    ``keyed`` (the Poisson bootstrap) adds every row's key in A's order: the hash of both
    scores and the class for unweighted rows (alike rows side by side, those after the
    first marked ``repeats``), the row's position in the input for weighted rows.
    """
    positive, _ = binary_target(y_true, pos_label)
    scores_a = as_scores(pred_a, "pred_a")
    scores_b = as_scores(pred_b, "pred_b")
    n = check_same_length(y_true=positive, pred_a=scores_a, pred_b=scores_b)
    weights = scale_free_weights(as_sample_weight(sample_weight, n))
    # the rows of positive weight (None: every row, without an index array)
    kept = None if weights is None else np.flatnonzero(weights > 0)
    key, repeats = _EMPTY_KEY, _EMPTY_BOOL
    if keyed and weights is None:
        rows_a, a_is_positive, a_continues, a_value, key, repeats = _keyed_rows_of_a(
            scores_a, scores_b, positive, np.arange(n)
        )
    else:
        rows_a, a_is_positive, a_continues, a_value = _merged_rows(
            scores_a, positive, weights, kept
        )
        if keyed:
            key = rows_a.astype(np.uint64)
    position = np.empty(n, dtype=np.int64)
    position[rows_a] = np.arange(rows_a.shape[0])
    codes_a = _EMPTY_CODES if row_codes is None else np.ascontiguousarray(row_codes[rows_a])
    cluster_of_atom = _EMPTY_INT
    n_clusters = 0
    if clusters is not None:
        cluster_of_atom = np.unique(clusters[rows_a], return_inverse=True)[1].astype(np.int64)
        n_clusters = int(cluster_of_atom.max()) + 1 if cluster_of_atom.size else 0
    del rows_a  # B's sort below needs the memory more
    rows_b, b_is_positive, b_continues, b_value = _merged_rows(scores_b, positive, weights, kept)
    a_position_of_b = np.ascontiguousarray(position[rows_b])
    weighted = weights is not None
    return PairedStreamPlan(
        streaming.RowAtoms(a_is_positive, a_continues, a_value, False, weighted, key, repeats),
        streaming.RowAtoms(
            b_is_positive, b_continues, b_value, False, weighted, _EMPTY_KEY, _EMPTY_BOOL
        ),
        a_position_of_b,
        streaming.no_clusters()
        if clusters is None
        else streaming.Clusters(cluster_of_atom, n_clusters),
        codes_a,
    )
