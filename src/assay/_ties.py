"""Runs of equal values in each row of a table, and the average ranks they give.

Shared by the label-ranking metrics (how many labels score at least as high as each
label), the tests over data sets (each data set's ranks of the models) and Wilcoxon's
signed-rank test (the ranks of the absolute differences).  Each row is sorted once; a run
of equal values is found by comparing neighbours, so ``-0.0`` and ``0.0`` are one run.
"""

from __future__ import annotations

import numpy as np

__all__ = ["average_ranks", "row_runs"]


def row_runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(order, first, last)`` of each row of a 2-D array sorted ascending.

    ``order`` is the stable argsort of each row; at every sorted position, ``first`` and
    ``last`` are the first and last positions (0-based, inclusive) of its run of equal
    values.
    """
    order = np.argsort(values, axis=1, kind="stable")
    ordered = np.take_along_axis(values, order, axis=1)
    n_columns = ordered.shape[1]
    positions = np.arange(n_columns)
    starts = np.ones(ordered.shape, dtype=bool)  # a run of equal values starts here
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    ends = np.ones(ordered.shape, dtype=bool)  # ... and ends here
    ends[:, :-1] = starts[:, 1:]
    first = np.maximum.accumulate(np.where(starts, positions, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, positions, n_columns)[:, ::-1], axis=1)[:, ::-1]
    return order, first, last


def average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..k within each row of a 2-D array, equal values sharing the mean of theirs.

    ``scipy.stats.rankdata(values, method="average", axis=1)``, without importing
    ``scipy.stats`` (slow to import): a rank is ``(first + last) / 2 + 1``, a half-integer,
    exact in float64.
    """
    order, first, last = row_runs(values)
    ranks = np.empty(values.shape, dtype=np.float64)
    np.put_along_axis(ranks, order, (first + last) / 2.0 + 1.0, axis=1)
    return ranks
