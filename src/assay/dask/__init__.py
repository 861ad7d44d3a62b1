"""Exact evaluation of dask collections: the metrics of :mod:`assay` beyond one machine.

The functions take dask Series or 1-D dask arrays (for a dask DataFrame, pass its
columns: ``frame["label"], frame["score"]``), partitioned alike, with the names and
keyword arguments of the top-level functions and ``compute=True`` (``compute=False``
returns a ``dask.delayed`` object).  Every result equals the single-machine result on
the same rows: bit for bit for counts (no weights, or integer weights), to rounding
(1e-12 relative) for fractional weights.  Ranking metrics and curves range-partition
the rows by score and run the same scans as on one machine
(:mod:`assay.dask._buckets`); confusion-matrix metrics sum the cells of the
partitions; regression losses sum per partition.

Needs the extra ``assay[dask]`` (dask[dataframe], distributed, pyarrow).
"""

from __future__ import annotations

try:
    import dask.dataframe  # noqa: F401
except ImportError as error:  # pragma: no cover - exercised without dask installed
    raise ImportError(
        "assay.dask needs Dask with its dataframe extra; install it with "
        "`pip install 'assay[dask]'` (dask[dataframe], distributed, pyarrow)."
    ) from error

from assay.dask._ranking import (
    average_precision_score,
    equal_error_rate,
    pr_auc_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

__all__ = [
    "average_precision_score",
    "equal_error_rate",
    "pr_auc_score",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
]
