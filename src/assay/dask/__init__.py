"""Exact evaluation of dask collections: the metrics of :mod:`assay` beyond one machine.

The functions take dask Series or 1-D dask arrays (for a dask DataFrame, pass its
columns: ``frame["label"], frame["score"]``), partitioned alike, with the names and
keyword arguments of the top-level functions and ``compute=True`` (``compute=False``
returns a ``dask.delayed`` object).  Every result equals the single-machine result on
the same rows: bit for bit for counts (no weights, or integer weights), to rounding
(1e-12 relative) for fractional weights.  Ranking metrics and curves range-partition
the rows by score and run the same scans as on one machine
(:mod:`assay.dask._buckets`); confusion-matrix metrics sum the cells of the
partitions (they, and :func:`bootstrap` and :func:`compare` of them, also take multilabel
indicators: 2-D dask arrays or dask DataFrames, one column per label); regression losses
sum per partition.  :func:`bootstrap` and :func:`compare` are the Poisson bootstrap of
the ranking and confusion-matrix metrics, with the replicates of the single machine
(:mod:`assay.dask._replicates`, :mod:`assay.dask._cells_resampling`).

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

from assay.dask._bootstrap import bootstrap
from assay.dask._compare import compare
from assay.dask._confusion import confusion_function
from assay.dask._delong import auc_ci, delong_test
from assay.dask._ranking import (
    average_precision_score,
    equal_error_rate,
    pr_auc_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)
from assay.dask._regression import (
    mean_absolute_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
)

# The confusion-matrix functions, one for each of the top level (the same checks and
# cell functions, given the partitions' summed cells).
confusion_matrix = confusion_function("confusion_matrix")
accuracy_score = confusion_function("accuracy_score")
error_rate = confusion_function("error_rate")
precision_score = confusion_function("precision_score")
recall_score = confusion_function("recall_score")
f1_score = confusion_function("f1_score")
fbeta_score = confusion_function("fbeta_score")
specificity_score = confusion_function("specificity_score")
npv_score = confusion_function("npv_score")
false_positive_rate = confusion_function("false_positive_rate")
false_negative_rate = confusion_function("false_negative_rate")
false_discovery_rate = confusion_function("false_discovery_rate")
matthews_corrcoef = confusion_function("matthews_corrcoef")
balanced_accuracy_score = confusion_function("balanced_accuracy_score")
cohen_kappa_score = confusion_function("cohen_kappa_score")
expected_cost = confusion_function("expected_cost")
jaccard_score = confusion_function("jaccard_score")
hamming_loss = confusion_function("hamming_loss")
zero_one_loss = confusion_function("zero_one_loss")
multilabel_confusion_matrix = confusion_function("multilabel_confusion_matrix")

__all__ = [
    "accuracy_score",
    "auc_ci",
    "average_precision_score",
    "balanced_accuracy_score",
    "bootstrap",
    "cohen_kappa_score",
    "compare",
    "confusion_matrix",
    "delong_test",
    "equal_error_rate",
    "error_rate",
    "expected_cost",
    "f1_score",
    "false_discovery_rate",
    "false_negative_rate",
    "false_positive_rate",
    "fbeta_score",
    "hamming_loss",
    "jaccard_score",
    "matthews_corrcoef",
    "mean_absolute_error",
    "mean_squared_error",
    "multilabel_confusion_matrix",
    "npv_score",
    "pr_auc_score",
    "precision_recall_curve",
    "precision_score",
    "r2_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
    "root_mean_squared_error",
    "specificity_score",
    "zero_one_loss",
]
