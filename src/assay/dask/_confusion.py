"""Confusion-matrix metrics of dask collections: the cells of the partitions, summed.

Each partition is reduced to its distinct ``(true label, predicted label)`` pairs with
their counts (or summed weights); nothing is shuffled.  The pairs of all partitions,
weighted by their counts, are a small data set with the same confusion matrix as the
rows -- the same cells, the same labels (zero-weight rows included) -- so the
single-machine function itself, given them, checks the labels and computes the metric
from the matrix with the registry's cell functions: the result is the single-machine
result, bit for bit for counts and integer weights.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from dask.delayed import delayed

import dask
from assay import metrics
from assay._validation import check_same_length
from assay.dask._partitions import in_partition, partition_tasks, partition_weights
from assay.metrics._registry import METRICS

_MISSING = np.empty(0)


class Pairs(NamedTuple):
    """The distinct label pairs of a partition and their weights."""

    first: np.ndarray
    second: np.ndarray
    weight: np.ndarray


def label_array(values: Any) -> np.ndarray:
    array = np.asarray(values)
    return array.ravel() if array.ndim == 2 and array.shape[1] == 1 else array


class Tuples(NamedTuple):
    """The distinct label tuples of a partition (one array per column: 1-D labels, or 2-D
    rows of multilabel indicators), their counts or summed weights, and the partition's
    number of rows."""

    labels: tuple[np.ndarray, ...]
    weight: np.ndarray
    n_rows: int


def _grouped(arrays: list[np.ndarray], weights: Any = 1) -> Any:
    frame = pd.DataFrame({f"c{i}": array for i, array in enumerate(arrays)})
    return frame.assign(w=weights).groupby(list(frame.columns), dropna=False, sort=False)


def _index_labels(index: Any, n_columns: int) -> tuple[np.ndarray, ...]:
    if n_columns == 1:
        return (np.asarray(index),)
    return tuple(np.asarray(index.get_level_values(i)) for i in range(n_columns))


def distinct_tuples(arrays: list[np.ndarray]) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """The distinct tuples of the rows' labels (a 2-D array contributes each row of
    indicators) in order of first appearance, and each row's tuple number.  Labels that
    are not numbers in a 2-D array are left ungrouped (every row its own tuple): the
    metric's own checks refuse them."""
    if all(array.ndim == 1 for array in arrays):
        grouped = _grouped(arrays)
        code = grouped.ngroup().to_numpy(dtype=np.int64)
        return _index_labels(grouped.size().index, len(arrays)), code
    n = arrays[0].shape[0]
    try:
        keys = np.concatenate(
            [np.asarray(array, dtype=np.float64).reshape(n, -1) for array in arrays], axis=1
        )
    except (TypeError, ValueError):
        return tuple(arrays), np.arange(n, dtype=np.int64)
    _, inverse = np.unique(keys, axis=0, return_inverse=True)
    # renumbered by first appearance, as the 1-D grouping numbers them
    code = pd.factorize(inverse.ravel())[0].astype(np.int64)
    first = pd.Series(np.arange(n)).groupby(code, sort=True).first().to_numpy()
    return tuple(array[first] for array in arrays), code


def _summed_tuples(
    arrays: list[np.ndarray], weights: np.ndarray | None
) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """The distinct tuples and their counts or summed weights (one grouping for labels)."""
    if all(array.ndim == 1 for array in arrays):
        summed = _grouped(arrays, 1 if weights is None else weights)["w"].sum()
        return _index_labels(summed.index, len(arrays)), summed.to_numpy()
    labels, code = distinct_tuples(arrays)
    if weights is None:
        return labels, np.bincount(code, minlength=labels[0].shape[0])
    return labels, pd.Series(weights).groupby(code, sort=True).sum().to_numpy()


def partition_tuples(
    index: int, n_partitions: int, columns: list[Any], sample_weight: Any, names: list[str]
) -> Tuples:
    """One partition's distinct label tuples with their counts (int64) or summed weights
    (integer weights stay int64: their sums are exact)."""
    if all(len(column) == 0 for column in columns):
        return Tuples(tuple(_MISSING for _ in columns), _MISSING, 0)

    def tuples() -> Tuples:
        arrays = [label_array(column) for column in columns]
        n = check_same_length(**dict(zip(names, arrays, strict=True)))
        weights = partition_weights(sample_weight, n)
        if weights is not None and np.asarray(sample_weight).dtype.kind in "biu":
            weights = np.asarray(sample_weight, dtype=np.int64)  # integer sums stay exact
        return Tuples(*_summed_tuples(arrays, weights), n)

    result: Tuples = in_partition(index, n_partitions, tuples)
    return result


def partition_pairs(
    index: int,
    n_partitions: int,
    first: Any,
    second: Any,
    sample_weight: Any,
    names: tuple[str, str],
) -> Pairs:
    """The label pairs of one partition with their counts or summed weights."""
    found = partition_tuples(index, n_partitions, [first, second], sample_weight, list(names))
    first_labels, second_labels = found.labels
    return Pairs(first_labels, second_labels, found.weight)


class Outcome(NamedTuple):
    value: Any
    warnings: list[tuple[str, type[Warning]]]
    """The warnings given, as ``(message, category)``."""


def _evaluate(function: Callable[..., Any], parts: list[Pairs], options: dict[str, Any]) -> Any:
    present = [p for p in parts if p.weight.shape[0] > 0]
    if not present:
        return function(_MISSING, _MISSING, sample_weight=_MISSING, **options)
    return function(
        np.concatenate([p.first for p in present]),
        np.concatenate([p.second for p in present]),
        sample_weight=np.concatenate([p.weight for p in present]),
        **options,
    )


def checked(parts: list[Any], run: Callable[[list[Any]], Any]) -> Outcome:
    """``run(parts)`` with its warnings recorded; a ValueError found in a partition's
    labels names the first partition after which the parts seen give it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = run(parts)
        except ValueError as error:
            message = str(error)
            for stop in range(1, len(parts) + 1):
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        run(parts[:stop])
                except ValueError as partial:
                    if str(partial) == message:
                        raise ValueError(
                            f"In partition {stop - 1} of {len(parts)}: {message}"
                        ) from error
            raise
    return Outcome(value, [(str(w.message), w.category) for w in caught])


def evaluate_pairs(
    function: Callable[..., Any], parts: list[Pairs], options: dict[str, Any]
) -> Outcome:
    """The single-machine ``function`` of all partitions' pairs; an error found in a
    partition's labels names the first partition after which the pairs seen give it."""
    return checked(parts, lambda some: _evaluate(function, some, options))


def _value(outcome: Outcome) -> Any:
    return outcome.value


def confusion_function(name: str) -> Callable[..., Any]:
    """The dask version of the single-machine confusion-matrix function ``name``."""
    function = getattr(metrics, name)
    signature = inspect.signature(function)
    names = tuple(list(signature.parameters)[:2])

    def dask_function(
        first: Any,
        second: Any,
        *,
        sample_weight: Any = None,
        compute: bool = True,
        **options: Any,
    ) -> Any:
        signature.bind(first, second, sample_weight=sample_weight, **options)  # names
        if options.get("samplewise"):
            raise NotImplementedError(
                "`samplewise=True` gives one matrix per row, which a sum over the "
                "partitions does not keep; on Dask the matrices are per label."
            )
        parts, _ = partition_tasks(
            partition_pairs,
            {names[0]: first, names[1]: second, "sample_weight": sample_weight},
            names,
            two_d=True,
        )
        outcome = delayed(evaluate_pairs, pure=True)(function, parts, options)
        if not compute:
            return delayed(_value, pure=True)(outcome)
        (result,) = dask.compute(outcome)
        for message, category in result.warnings:
            warnings.warn(message, category, stacklevel=2)
        return result.value

    parameters = [*signature.parameters.values()]
    compute_parameter = inspect.Parameter(
        "compute", inspect.Parameter.KEYWORD_ONLY, default=True, annotation=bool
    )
    dask_function.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*parameters, compute_parameter]
    )
    dask_function.__name__ = dask_function.__qualname__ = name
    dask_function.__module__ = "assay.dask"
    dask_function.__doc__ = _DOCSTRING.format(
        name=name,
        first=names[0],
        second=names[1],
        summary=_summary(function),
        example_options=_EXAMPLE_OPTIONS.get(name, ""),
    )
    return dask_function


def _summary(function: Callable[..., Any]) -> str:
    return (function.__doc__ or "").strip().splitlines()[0].rstrip(".")


# the options a function's example needs besides the labels
_EXAMPLE_OPTIONS = {"fbeta_score": ", beta=0.5", "expected_cost": ", cost_matrix=[[0, 1], [5, 0]]"}

_DOCSTRING = """{summary}, of dask collections (the cells of the partitions, summed).

Parameters
----------
{first}, {second} : dask Series or 1-D dask array, or 2-D dask array or DataFrame
    Labels, partitioned alike (same number of partitions, same lengths); multilabel
    indicators as a 2-D dask array or a dask DataFrame (one column per label).
sample_weight : dask Series or 1-D dask array, default=None
    Non-negative weights, partitioned like the labels.
compute : bool, default=True
    Compute now; False returns a ``dask.delayed`` object (which cannot warn).
**options
    The keyword options of :func:`assay.{name}`.

Returns
-------
The value of :func:`assay.{name}` on the same rows (bit for bit for counts and
integer weights; summed weights to rounding; multilabel ``average="samples"``, a mean
over rows taken as a weighted mean over the partitions' distinct rows, to rounding).

Raises
------
ValueError
    The single-machine errors; an error found in a partition names it.

Examples
--------
>>> import dask.array as da
>>> import assay.dask
>>> first = da.from_array([0, 1, 1, 0, 1, 1], chunks=4)
>>> second = da.from_array([0, 1, 0, 0, 1, 1], chunks=4)
>>> value = assay.dask.{name}(first, second{example_options})
"""

CONFUSION_FUNCTIONS = (
    "confusion_matrix",
    "multilabel_confusion_matrix",
    *(name for name, declaration in METRICS.items() if declaration.computed_from == "confusion"),
)
"""The confusion-matrix functions of :mod:`assay.dask` (every one of the registry)."""
