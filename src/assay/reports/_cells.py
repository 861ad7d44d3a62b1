"""The report's confusion-matrix numbers from the cells alone (the Dask report's path).

A confusion-matrix metric, its Wilson interval and its Poisson bootstrap depend on the
rows only through the confusion cells; a paired comparison of two models' predictions
and McNemar's test only through the joint (truth, prediction A, prediction B) cells.
Summed over the partitions of a dask DataFrame, the cells give these numbers with the
same single-machine code that the one-machine report runs on the rows (the bootstrap
draws every cell's Poisson count from the stream keyed by the cell), so they are the
same numbers, bit for bit.

The report's labels and predictions are 0/1 bytes (1: the positive class) and the
target holds both classes, so every confusion matrix is over the labels ``[0, 1]``.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from assay._kernels import resample
from assay._results import BootstrapResult, ComparisonResult
from assay.dask._compare import comparison_result
from assay.dask._graph import ScanValue
from assay.metrics._registry import metric_range, resolve_metric_call
from assay.resampling._bootstrap import _cells_distribution, bootstrap_result
from assay.resampling._interval_pvalues import difference_range
from assay.resampling._joint_cells import joint_cells_of_counts
from assay.resampling._paired_replicates import _cells_pairs
from assay.resampling._plans import replicate_options, scalar

LABELS = np.array([0, 1], dtype=np.int8)
"""The report's labels (0/1 bytes)."""

# One row of each cell (t, p) of the 2 x 2 matrix: a data set with the report's labels,
# from which the metrics resolve their options (which depend on the labels only).
_CELL_TRUE = np.array([0, 0, 1, 1], dtype=np.int8)
_CELL_PRED = np.array([0, 1, 0, 1], dtype=np.int8)


def as_matrix(cells: Any) -> np.ndarray:
    """A 2 x 2 matrix of counts (rows true, columns predicted) as int64."""
    return np.asarray(cells, dtype=np.int64).reshape(2, 2)


def cells_bootstrap(
    function: Any,
    matrix: np.ndarray,
    keywords: dict[str, Any],
    *,
    n_resamples: int,
    confidence_level: float,
    seed: int,
    progress: bool,
) -> BootstrapResult:
    """``assay.bootstrap(function, y_true, y_pred, resampling="poisson", **keywords)`` of
    the rows whose confusion matrix is ``matrix`` (the same steps as its confusion path)."""
    declaration, function, name, metric_kwargs = resolve_metric_call(function, dict(keywords))
    assert declaration is not None and declaration.from_confusion is not None
    from_confusion = declaration.from_confusion
    _, resolved = declaration.resolve_arguments(_CELL_TRUE, _CELL_PRED, **metric_kwargs)
    warns = "stacklevel" in inspect.signature(from_confusion).parameters
    where = {"stacklevel": 3} if warns else {}
    estimate = scalar(from_confusion(matrix, **resolved, **where), name)
    if resolved.get("zero_division") == "warn":
        resolved["zero_division"] = np.nan
    distribution = _cells_distribution(
        matrix, from_confusion, resolved, resample.POISSON, seed, n_resamples, progress
    )
    return bootstrap_result(
        distribution,
        estimate,
        None,
        method="percentile",
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        seed=seed,
        name=name,
        value_range=metric_range(declaration, function, metric_kwargs),
        stacklevel=3,
    )


def cells_compare(
    function: Any,
    joint: np.ndarray,
    estimates: tuple[float, float],
    keywords: dict[str, Any],
    *,
    n_resamples: int,
    confidence_level: float,
    seed: int,
    progress: bool,
    alternative: str = "two-sided",
) -> ComparisonResult:
    """``assay.compare(function, y_true, pred_a, pred_b, resampling="poisson",
    **keywords)`` of the rows whose joint table is ``joint`` (8 counts, cell
    ``(t * 2 + a) * 2 + b``), given both models' ``estimates`` of the metric."""
    declaration, function, name, metric_kwargs = resolve_metric_call(function, dict(keywords))
    assert declaration is not None and declaration.from_confusion is not None
    options = replicate_options(declaration, function, metric_kwargs)
    cells = joint_cells_of_counts(
        declaration, LABELS, np.asarray(joint, dtype=np.int64), options, mirrors=False
    )
    values = _cells_pairs(
        cells, declaration.from_confusion, False, resample.POISSON, seed, n_resamples, progress
    )
    return comparison_result(
        [ScanValue(estimates[0], ""), ScanValue(estimates[1], "")],
        list(values),
        interval="basic",
        confidence_level=confidence_level,
        alternative=alternative,
        n_resamples=n_resamples,
        seed=seed,
        name=name,
        value_range=difference_range(declaration),
        stacklevel=2,
    )


def cells_error_rate_ci(matrix: np.ndarray, confidence_level: float) -> Any:
    """``assay.error_rate_ci`` (Wilson) of the rows whose confusion matrix is ``matrix``:
    one row per cell with its count as frequency weight (the interval depends on the
    number of errors and of rows only)."""
    import assay

    return assay.error_rate_ci(
        _CELL_TRUE, _CELL_PRED, sample_weight=matrix.ravel(), confidence_level=confidence_level
    )


def cells_mcnemar(joint: np.ndarray, alternative: str = "two-sided") -> Any:
    """``assay.mcnemar(y_true, pred_a, pred_b, alternative=...)`` from the joint table
    (8 counts)."""
    import assay

    counts = np.asarray(joint, dtype=np.int64).reshape(2, 2, 2)  # truth, a, b
    right_a = np.array([[1, 0], [0, 1]], dtype=bool)  # [truth, prediction] correct
    table = np.zeros((2, 2), dtype=np.int64)  # rows A right / wrong, columns B
    for t in range(2):
        for a in range(2):
            for b in range(2):
                table[0 if right_a[t, a] else 1, 0 if right_a[t, b] else 1] += counts[t, a, b]
    return assay.mcnemar(table=table, alternative=alternative)


def metric_of_cells(function: Any, matrix: np.ndarray, keywords: dict[str, Any]) -> float:
    """``function(y_true, y_pred, **keywords)`` of the rows whose confusion matrix is
    ``matrix`` (the same steps as the metric's confusion path)."""
    declaration, function, name, metric_kwargs = resolve_metric_call(function, dict(keywords))
    assert declaration is not None and declaration.from_confusion is not None
    _, resolved = declaration.resolve_arguments(_CELL_TRUE, _CELL_PRED, **metric_kwargs)
    return scalar(declaration.from_confusion(matrix, **resolved), name)


def baseline_joint(matrix: np.ndarray, majority: int) -> np.ndarray:
    """The joint table (8 counts, cell ``(t * 2 + a) * 2 + b``) of a model whose
    confusion matrix is ``matrix`` (A) and of the majority-class predictor (B)."""
    joint = np.zeros(8, dtype=np.int64)
    for t in range(2):
        for a in range(2):
            joint[(t * 2 + a) * 2 + majority] = matrix[t, a]
    return joint


def class_rows(n_negative: int, n_positive: int) -> tuple[np.ndarray, np.ndarray]:
    """Two rows, a negative and a positive, weighted by the classes' counts: the data
    of the majority-class baseline (a constant score and prediction), which depends on
    the rows only through those counts."""
    return LABELS.copy(), np.array([n_negative, n_positive], dtype=np.int64)
