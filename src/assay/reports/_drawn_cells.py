"""The threshold metrics' bootstrap rows and the paired F1 from the report's one draw.

The draw (:mod:`assay.reports._draw`) counts every replicate's rows in joint cells of the
label and every model's prediction at the threshold: cell ``y + 2 p_0 + 4 p_1 + ...``
(``p_i`` the i-th model's prediction).  A model's confusion matrix of a replicate is a sum
of those cells, and a confusion metric depends on the rows only through it (ARCHITECTURE
rule 4): each threshold metric's replicates are the metric's function of those matrices,
summarised as :func:`assay.bootstrap` summarises its own (percentile interval), and the
paired F1 of two models is the difference of their F1 replicates, summarised as
:func:`assay.compare` summarises its own.
"""

from __future__ import annotations

import warnings
from itertools import combinations
from typing import Any

import numpy as np

from assay._validation import resolve_seed
from assay.metrics._registry import metric_range, resolve_metric_call
from assay.resampling._bootstrap import bootstrap_result
from assay.resampling._compare import bootstrap_comparison
from assay.resampling._paired_replicates import PairedReplicates
from assay.resampling._plans import call_metric, scalar

__all__ = [
    "MAX_JOINT_MODELS",
    "cell_matrices",
    "drawn_f1_pairs",
    "drawn_metric",
    "drawn_pair",
    "joint_codes",
]

MAX_JOINT_MODELS = 7
"""Models whose joint cells one draw counts (2 ** (models + 1) cells a replicate, a row's
cell one byte); a report of more models bootstraps its threshold metrics with the public
functions."""


def joint_codes(y_true: np.ndarray, y_preds: list[np.ndarray]) -> np.ndarray | None:
    """Every row's joint cell (uint8: one byte a row), or None for more than
    ``MAX_JOINT_MODELS`` models.  ``y_true`` and the predictions hold 0 and 1."""
    if len(y_preds) > MAX_JOINT_MODELS:
        return None
    codes = y_true.astype(np.uint8)
    for index, prediction in enumerate(y_preds):
        codes += prediction.astype(np.uint8) << np.uint8(index + 1)
    return codes


def cell_matrices(cells: np.ndarray, index: int) -> np.ndarray:
    """Model ``index``'s 2 x 2 confusion matrices (rows true, columns predicted) of the
    joint cells (replicates x cells), as float64."""
    n_cells = cells.shape[1]
    unit = np.zeros((n_cells, 4), dtype=np.int64)
    codes = np.arange(n_cells)
    unit[codes, 2 * (codes & 1) + ((codes >> (index + 1)) & 1)] = 1
    return (cells @ unit).reshape(-1, 2, 2).astype(np.float64)


def drawn_metric(
    function: Any,
    keywords: dict[str, Any],
    y_true: np.ndarray,
    y_pred: np.ndarray,
    matrices: np.ndarray,
    data_matrix: np.ndarray,
    resampled: dict[str, Any],
) -> Any | None:
    """``bootstrap(function, y_true, y_pred, **keywords)`` made from the draw's confusion
    matrices of the model (``BootstrapResult``), or None when the metric is not computed
    from the matrix the cells make (``data_matrix``, the cells of the data: the caller
    then calls ``bootstrap``)."""
    declaration, metric, name, metric_kwargs = resolve_metric_call(function, dict(keywords))
    if declaration is None or declaration.computed_from != "confusion":
        return None
    assert declaration.from_confusion is not None
    matrix, resolved = declaration.resolve_arguments(y_true, y_pred, **metric_kwargs)
    if matrix.shape != (2, 2) or not np.array_equal(matrix, data_matrix):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the report's own call of the function warns
        estimate = scalar(declaration.from_confusion(matrix, **resolved), name)
        if resolved.get("zero_division") == "warn":
            resolved["zero_division"] = np.nan
        replicates = np.asarray(declaration.from_confusion(matrices, **resolved), dtype=float)
    return bootstrap_result(
        replicates,
        estimate,
        None,
        method="percentile",
        confidence_level=resampled["confidence_level"],
        n_resamples=resampled["n_resamples"],
        seed=resolve_seed(resampled["rng"]),
        name=name,
        value_range=metric_range(declaration, metric, metric_kwargs),
        stacklevel=3,
    )


def drawn_pair(
    function: Any,
    keywords: dict[str, Any],
    y_true: np.ndarray,
    predictions: tuple[np.ndarray, np.ndarray],
    matrices: tuple[np.ndarray, np.ndarray],
    resampled: dict[str, Any],
) -> Any:
    """``compare(function, y_true, pred_a, pred_b, **keywords)``'s paired bootstrap made
    from the draw's confusion matrices of both models (basic interval, two-sided)."""
    declaration, metric, name, metric_kwargs = resolve_metric_call(function, dict(keywords))
    assert declaration is not None and declaration.from_confusion is not None
    values = []
    estimates = []
    for prediction, matrix_stack in zip(predictions, matrices, strict=True):
        _, resolved = declaration.resolve_arguments(y_true, prediction, **metric_kwargs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            estimates.append(scalar(call_metric(metric, y_true, prediction, None, metric_kwargs),
                                    name))  # fmt: skip
            if resolved.get("zero_division") == "warn":
                resolved["zero_division"] = np.nan
            values.append(
                np.asarray(declaration.from_confusion(matrix_stack, **resolved), dtype=float)
            )
    return bootstrap_comparison(
        PairedReplicates(values[0], values[1], None),
        estimates[0],
        estimates[1],
        interval="basic",
        confidence_level=resampled["confidence_level"],
        alternative="two-sided",
        n_resamples=resampled["n_resamples"],
        seed=resolve_seed(resampled["rng"]),
        name=name,
        declaration=declaration,
        stacklevel=3,
    )


def drawn_f1_pairs(
    names: list[str],
    y_true: np.ndarray,
    y_preds: dict[str, np.ndarray],
    matrices: dict[str, tuple[np.ndarray, np.ndarray]],
    resampled: dict[str, Any],
) -> dict[tuple[str, str], Any]:
    """Every pair's paired bootstrap of F1 (``zero_division=nan``) from the draw's
    matrices (``matrices[name][0]``)."""
    import assay

    return {
        (a, b): drawn_pair(
            assay.f1_score,
            {"zero_division": np.nan},
            y_true,
            (y_preds[a], y_preds[b]),
            (matrices[a][0], matrices[b][0]),
            resampled,
        )
        for a, b in combinations(names, 2)
    }
