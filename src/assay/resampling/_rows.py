"""Rows of targets and predictions as the generic resampling path takes them.

A replicate of the generic path takes whole rows: of 1-D targets, of 2-D scores, and of
multilabel indicators, whose labels of one sample stay together (the dependence between
labels is kept).  A scipy.sparse indicator stays sparse: its rows are taken from CSR.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from assay.metrics._multilabel import any_multilabel, is_sparse

__all__ = ["as_rows", "count_rows", "swap_rows", "whole_rows"]


def as_rows(values: Any) -> Any:
    """``values`` as an array whose rows a replicate takes: a numpy array, or a
    scipy.sparse matrix in CSR form (a sparse indicator is never densified)."""
    if is_sparse(values):
        return sys.modules["scipy.sparse"].csr_matrix(values)
    return np.asarray(values)


def count_rows(values: Any) -> int:
    """Number of rows (samples) of targets or predictions, sparse ones included."""
    return int(values.shape[0]) if is_sparse(values) else len(values)


def swap_rows(first: Any, second: Any, swap: np.ndarray) -> Any:
    """Rows of ``second`` where ``swap`` is True, of ``first`` elsewhere (dense arrays of
    any number of axes, or sparse matrices, which stay sparse)."""
    if is_sparse(first) or is_sparse(second):
        sparse = sys.modules["scipy.sparse"]
        both = sparse.vstack([sparse.csr_matrix(first), sparse.csr_matrix(second)], format="csr")
        rows = np.arange(swap.shape[0])
        return both[np.where(swap, rows + swap.shape[0], rows)]
    return np.where(swap.reshape((-1,) + (1,) * (np.ndim(first) - 1)), second, first)


def whole_rows(y_true: Any, y_pred: Any) -> bool:
    """Whether the targets are 2-D indicators (multilabel): a replicate then draws
    whole rows on the generic path, never confusion cells."""
    return any_multilabel(y_true, y_pred)
