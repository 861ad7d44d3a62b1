"""The Poisson bootstrap of confusion-matrix metrics of dask collections.

``assay.dask.bootstrap`` and ``assay.dask.compare`` of a metric computed from the
confusion matrix (F1, precision, MCC, expected cost, ...) give the replicates of
:func:`assay.bootstrap` and :func:`assay.compare` with ``resampling="poisson"`` and the
same seed on the same rows:

* **Unweighted**, the metric depends on the rows only through their label cells, and one
  machine draws every cell's count from the stream keyed by the cell (a confusion
  matrix's cell; a joint (truth, prediction A, prediction B) cell for a pair).  Each
  partition is reduced to its distinct label tuples with their counts; the single-machine
  code, given those tuples weighted by their counts, builds the same cells and draws the
  same counts: the same replicates, bit for bit, whatever the partitioning.
* **Weighted**, every row counts Poisson(1) times, drawn from the stream keyed by its
  position in the input, times its weight.  A first pass counts each partition's rows
  (its first row's position is the number of rows before it); each partition then draws
  its rows' counts and sums, per replicate, the drawn weight of each of its distinct
  label tuples, a ``(B, tuples)`` array.  A replicate's value is the single-machine
  function of all the tuples with those weights, which is its value on the rows with
  their drawn weights (the weights summed in another order: the same value for integer
  weights, to about 1e-15 relative otherwise).

Only the tuples and the ``(B, tuples)`` arrays leave the workers; the replicates'
metric values are computed in one task.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from dask.delayed import Delayed, delayed

from assay._kernels._jit import jit
from assay._kernels._rng import keyed_stream, poisson, stream
from assay._kernels.resample import POISSON
from assay.dask._confusion import (
    Outcome,
    Tuples,
    checked,
    distinct_tuples,
    label_array,
    partition_tuples,
)
from assay.dask._partitions import packed_partitions
from assay.resampling._bootstrap import _confusion_bootstrap, bootstrap_result
from assay.resampling._compare import bootstrap_comparison
from assay.resampling._joint_cells import joint_cells
from assay.resampling._paired_replicates import PairedReplicates, _cells_pairs, cells_jackknife
from assay.resampling._plans import call_metric, replicate_options, replicate_weight, scalar

__all__ = ["Call", "cells_bootstrap_graph", "cells_compare_graph", "deliver_outcome"]

_MISSING = np.empty(0)


@jit
def drawn_tuple_weights(code, weight, first_position, seed, out):
    """``out[r, t]``: the drawn weight of tuple ``t`` in replicate ``r``, the sum over its
    rows of ``Poisson(1)`` (from the stream keyed by the row's position in the input,
    ``first_position`` for the partition's first row) times the row's weight."""
    for r in range(out.shape[0]):
        state = stream(np.uint64(seed), np.uint64(r))
        drawn = out[r]
        drawn[:] = 0.0
        for i in range(code.shape[0]):
            count, _ = poisson(1.0, keyed_stream(state, np.uint64(first_position + i)))
            if count > 0:
                drawn[code[i]] += count * weight[i]


def partition_replicates(
    index: int,
    columns: list[Any],
    sample_weight: Any,
    offsets: np.ndarray,
    seed: int,
    n_resamples: int,
) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """One partition's distinct label tuples and their ``(n_resamples, tuples)`` drawn
    weights (weight 1 a row without ``sample_weight``: multilabel rows; the inputs were
    checked by the first pass)."""
    arrays = [label_array(column) for column in columns]
    n = arrays[0].shape[0]
    if n == 0:
        return tuple(_MISSING for _ in columns), np.zeros((n_resamples, 0))
    weights = np.ones(n) if sample_weight is None else np.asarray(sample_weight, np.float64)
    labels, code = distinct_tuples(arrays)
    out = np.empty((n_resamples, labels[0].shape[0]), dtype=np.float64)
    drawn_tuple_weights(code, weights, np.int64(offsets[index]), np.uint64(seed), out)
    return labels, out


def _joined(parts: list[Tuples]) -> tuple[list[np.ndarray], np.ndarray]:
    present = [part for part in parts if part.n_rows > 0]
    if not present:
        return [_MISSING for _ in parts[0].labels], _MISSING
    columns = [np.concatenate(arrays) for arrays in zip(*(p.labels for p in present), strict=True)]
    return columns, np.concatenate([p.weight for p in present])


class Call(NamedTuple):
    """The metric and the resampling settings of one bootstrap or comparison:
    ``settings`` are the keywords of :func:`assay.resampling._bootstrap.bootstrap_result`
    (a bootstrap) or of :func:`assay.resampling._compare.bootstrap_comparison` (a
    comparison), ``seed`` and ``n_resamples`` among them."""

    declaration: Any
    function: Callable[..., Any]
    name: str
    metric_kwargs: dict[str, Any]
    settings: dict[str, Any]

    @property
    def seed(self) -> int:
        return int(self.settings["seed"])

    @property
    def n_resamples(self) -> int:
        return int(self.settings["n_resamples"])


def _estimates(call: Call, columns: list[np.ndarray], weight: np.ndarray) -> list[float]:
    """The metric of every prediction column (``columns[1:]``) against ``columns[0]``, as
    the single machine computes it on the rows (the tuples weighted by their counts or
    summed weights)."""
    return [
        scalar(call_metric(call.function, columns[0], p, weight, call.metric_kwargs), call.name)
        for p in columns[1:]
    ]


def _weighted_values(
    call: Call, replicates: list[tuple[tuple[np.ndarray, ...], np.ndarray]]
) -> list[np.ndarray]:
    """Every prediction column's replicate values from the partitions' tuples and drawn
    weights: the single machine's weighted replicate, ``function(rows, sample_weight=
    count * weight)``, of the tuples with their drawn weights."""
    present = [(labels, drawn) for labels, drawn in replicates if drawn.shape[1] > 0]
    labels = [labels for labels, _ in present]
    columns = [np.concatenate(arrays) for arrays in zip(*labels, strict=True)]
    drawn = np.concatenate([d for _, d in present], axis=1)
    options = replicate_options(call.declaration, call.function, call.metric_kwargs)
    values = [np.empty(call.n_resamples) for _ in columns[1:]]
    # as on one machine: a replicate of zero total weight is NaN (replicate_weight); a
    # bootstrap's value is named after the metric, a comparison's "metric"
    single = len(columns) == 2
    replicate = "bootstrap replicate" if single else "replicate"
    name = getattr(call.function, "__name__", "metric") if single else "metric"
    for r in range(call.n_resamples):
        weight = replicate_weight(drawn[r], None)
        for value, prediction in zip(values, columns[1:], strict=True):
            if weight is None:
                value[r] = np.nan
                continue
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    found = call.function(columns[0], prediction, sample_weight=weight, **options)
            except Exception as error:
                raise RuntimeError(
                    f"`metric` raised {type(error).__name__} on {replicate} {r}: {error}"
                ) from error
            value[r] = scalar(found, name)
    return values


def _bootstrap_of_cells(parts: list[Tuples], call: Call) -> Any:
    columns, counts = _joined(parts)
    kwargs = {**call.metric_kwargs, "sample_weight": counts}
    method = call.settings["method"]
    y_true, y_pred = columns
    estimate, distribution, jackknife = _confusion_bootstrap(
        call.declaration, call.name, y_true, y_pred, kwargs, method, POISSON, call.seed,
        call.n_resamples, False,
    )  # fmt: skip
    return bootstrap_result(distribution, estimate, jackknife, **call.settings, stacklevel=3)


def _compare_of_cells(parts: list[Tuples], call: Call) -> Any:
    columns, counts = _joined(parts)
    estimate_a, estimate_b = _estimates(call, columns, counts)
    options = replicate_options(call.declaration, call.function, call.metric_kwargs)
    y_true, pred_a, pred_b = columns
    cells = joint_cells(
        call.declaration, y_true, pred_a, pred_b, options, mirrors=False, counts=counts
    )
    from_confusion = call.declaration.from_confusion
    pairs = _cells_pairs(cells, from_confusion, False, POISSON, call.seed, call.n_resamples, False)
    jackknife = None
    if call.settings["interval"] == "bca":
        jackknife = cells_jackknife(cells, from_confusion)
    replicates = PairedReplicates(*pairs, jackknife)
    return bootstrap_comparison(replicates, estimate_a, estimate_b, **call.settings, stacklevel=3)


def _weighted_bootstrap(parts: list[Tuples], replicates: list[Any], call: Call) -> Any:
    columns, weights = _joined(parts)
    (estimate,) = _estimates(call, columns, weights)
    (distribution,) = _weighted_values(call, replicates)
    return bootstrap_result(distribution, estimate, None, **call.settings, stacklevel=3)


def _weighted_compare(parts: list[Tuples], replicates: list[Any], call: Call) -> Any:
    columns, weights = _joined(parts)
    estimate_a, estimate_b = _estimates(call, columns, weights)
    values_a, values_b = _weighted_values(call, replicates)
    paired = PairedReplicates(values_a, values_b, None)
    return bootstrap_comparison(paired, estimate_a, estimate_b, **call.settings, stacklevel=3)


def _result(
    parts: list[Tuples], replicates: list[Any] | None, call: Call, paired: bool
) -> Outcome:
    if replicates is None:
        run = _compare_of_cells if paired else _bootstrap_of_cells
        return checked(parts, lambda some: run(some, call))
    run_weighted = _weighted_compare if paired else _weighted_bootstrap
    return checked(parts, lambda some: run_weighted(some, replicates, call))


def _offsets(parts: list[Tuples], call: Call | None = None) -> np.ndarray:
    """The position of every partition's first row; with a ``call``, once the tuples have
    passed its metric's checks (an error names its partition before any replicate is
    drawn)."""
    if call is not None:
        checked(parts, lambda some: _estimates(call, *_joined(some)))
    lengths = np.array([part.n_rows for part in parts], dtype=np.int64)
    return np.concatenate([[0], np.cumsum(lengths)[:-1]])


def is_multilabel(*collections: Any) -> bool:
    """Whether a dask collection holds rows of indicators (2-D, more than one column):
    one machine then draws whole rows, each keyed by its position, as weighted rows."""
    return any(
        getattr(c, "ndim", 1) == 2 and c.shape[1] != 1 for c in collections if c is not None
    )


def _tasks(
    collections: dict[str, Any],
    sample_weight: Any,
    seed: int,
    n_resamples: int,
    draw: bool,
    call: Call | None = None,
) -> tuple[list[Delayed], list[Delayed] | None]:
    """Every partition's :class:`Tuples` and, with ``draw``, its tuples' drawn weights
    (after ``call``'s checks, when given)."""
    names = list(collections)
    # each partition's columns read together (the labels' columns, then the weights)
    packed, n = packed_partitions(two_d=True, **collections, sample_weight=sample_weight)
    tuples = [
        delayed(_packed_tuples, pure=True)(i, n, columns, names)
        for i, columns in enumerate(packed)
    ]
    if not draw:
        return tuples, None
    offsets = delayed(_offsets, pure=True)(tuples, call)
    drawn = [
        delayed(_packed_replicates, pure=True)(i, columns, offsets, seed, n_resamples)
        for i, columns in enumerate(packed)
    ]
    return tuples, drawn


def _packed_tuples(index: int, n: int, columns: tuple[Any, ...], names: list[str]) -> Any:
    """:func:`partition_tuples` of a packed partition (its labels' columns, then its
    weights)."""
    *labels, weights = columns
    return partition_tuples(index, n, labels, weights, names)


def _packed_replicates(
    index: int, columns: tuple[Any, ...], offsets: Any, seed: int, n_resamples: int
) -> Any:
    """:func:`partition_replicates` of a packed partition."""
    *labels, weights = columns
    return partition_replicates(index, labels, weights, offsets, seed, n_resamples)


def _graph(call: Call, collections: dict[str, Any], sample_weight: Any, paired: bool) -> Delayed:
    draw = sample_weight is not None or is_multilabel(*collections.values())
    tuples, drawn = _tasks(collections, sample_weight, call.seed, call.n_resamples, draw, call)
    return delayed(_result, pure=True)(tuples, drawn, call, paired)


def cells_bootstrap_graph(call: Call, y_true: Any, y_pred: Any, sample_weight: Any) -> Delayed:
    """The lazy :class:`Outcome` of ``assay.bootstrap(..., resampling="poisson")`` of a
    confusion-matrix metric."""
    return _graph(call, {"y_true": y_true, "y_pred": y_pred}, sample_weight, paired=False)


def cells_compare_graph(
    call: Call, y_true: Any, pred_a: Any, pred_b: Any, sample_weight: Any
) -> Delayed:
    """The lazy :class:`Outcome` of ``assay.compare(..., resampling="poisson")`` of a
    confusion-matrix metric."""
    collections = {"y_true": y_true, "pred_a": pred_a, "pred_b": pred_b}
    return _graph(call, collections, sample_weight, paired=True)


def _value(outcome: Outcome) -> Any:
    return outcome.value


def deliver_outcome(outcome: Delayed, compute: bool, stacklevel: int = 3) -> Any:
    """The result of a lazy :class:`Outcome`, its warnings given at the caller's caller
    (``stacklevel`` 3); with ``compute=False`` a ``dask.delayed`` object of the result,
    which cannot warn."""
    import dask

    if not compute:
        return delayed(_value, pure=True)(outcome)
    (found,) = dask.compute(outcome)
    for message, category in found.warnings:
        warnings.warn(message, category, stacklevel=stacklevel)
    return found.value


class SharedRows(NamedTuple):
    """Weighted rows drawn once for several metrics: every partition's distinct tuples of
    all the label columns (:class:`Tuples`) and their drawn weights (lazy lists)."""

    tuples: list[Delayed]
    drawn: list[Delayed]


def shared_rows(
    collections: dict[str, Any], sample_weight: Any, seed: int, n_resamples: int
) -> SharedRows:
    """The label columns ``collections`` (all of one set of rows) reduced and drawn once:
    a metric of any two or three of the columns then reads its tuples' summed and drawn
    weights (a cell of those columns sums the tuples that agree on them: the same
    weights as the columns' own tuples, summed in another order)."""
    tuples, drawn = _tasks(collections, sample_weight, seed, n_resamples, draw=True)
    assert drawn is not None
    return SharedRows(tuples, drawn)


def _columns_of(
    parts: list[Tuples], drawn: list[Any], columns: tuple[int, ...]
) -> tuple[list[Tuples], list[Any]]:
    """The tuples and drawn weights restricted to some of the label columns."""
    chosen = [Tuples(tuple(p.labels[c] for c in columns), p.weight, p.n_rows) for p in parts]
    picked = [(tuple(labels[c] for c in columns), weights) for labels, weights in drawn]
    return chosen, picked


def _shared_result(
    parts: list[Tuples], drawn: list[Any], call: Call, columns: tuple[int, ...]
) -> Outcome:
    chosen, picked = _columns_of(parts, drawn, columns)
    return _result(chosen, picked, call, paired=len(columns) == 3)


def shared_result(call: Call, shared: SharedRows, columns: tuple[int, ...]) -> Delayed:
    """The lazy :class:`Outcome` of a weighted bootstrap (two column numbers: truth and
    prediction) or comparison (three: truth, A and B) from rows drawn once."""
    return delayed(_shared_result, pure=True)(shared.tuples, shared.drawn, call, columns)


def confusion_call(metric: Any, settings: dict[str, Any], **metric_kwargs: Any) -> Call:
    """The :class:`Call` of a confusion-matrix metric with the settings of a bootstrap
    (``method``, ``confidence_level``, ``n_resamples``, ``seed``) or of a comparison
    (``interval``, ``confidence_level``, ``alternative``, ``n_resamples``, ``seed``), as
    :func:`assay.dask.bootstrap` and :func:`assay.dask.compare` make them."""
    from assay.metrics._registry import metric_range, resolve_metric_call

    declaration, function, name, metric_kwargs = resolve_metric_call(metric, metric_kwargs)
    full = {**settings, "name": name}
    if "method" in settings:
        full["value_range"] = metric_range(declaration, function, metric_kwargs)
    else:
        full["declaration"] = declaration
    return Call(declaration, function, name, metric_kwargs, full)
