"""A model's ranking numbers from one sort of its rows.

The report needs, per model, the ROC AUC, DeLong's interval of it, the average precision,
the trapezoidal AUC-PR and the equal error rate.  Each public function sorts the rows
again; here one sort (:func:`assay.metrics._sorted.sort_binary`, what every one of them
starts with) feeds the same scans, so every value is bit for bit the public function's:
``roc_auc`` is :func:`assay.roc_auc_score`'s, ``delong`` is :func:`assay.auc_ci`'s (logit
interval) and ``ranking`` holds :func:`assay.average_precision_score`'s,
:func:`assay.pr_auc_score`'s and :func:`assay.equal_error_rate`'s values.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

__all__ = ["RankedModel", "ranked_model", "ranking_metrics"]


class RankedModel(NamedTuple):
    roc_auc: float
    delong: Any  # IntervalResult of auc_ci
    ranking: dict[str, float]


def ranking_metrics(data: Any) -> dict[str, float]:
    """AP, the trapezoidal AUC-PR and the EER of one sorted model (the public scans)."""
    from assay.metrics import _ranking as ranking

    return {
        "average_precision": ranking.average_precision_from_sorted(data),
        "pr_auc": ranking.pr_auc_from_sorted(data),
        "equal_error_rate": ranking.equal_error_rate_from_sorted(data),
    }


def ranked_model(
    y_true: np.ndarray,
    score: np.ndarray,
    sample_weight: np.ndarray | None,
    confidence_level: float,
) -> RankedModel:
    """One sort of a model's rows (float64 scores), and its ranking numbers from it."""
    from assay.inference._delong import auc_ci_result, sorted_auc_variance
    from assay.metrics._ranking import roc_auc_from_sorted
    from assay.metrics._sorted import sort_binary

    data = sort_binary(y_true, score, sample_weight=sample_weight)
    n_rows = y_true.shape[0] if sample_weight is None else int(np.count_nonzero(sample_weight))
    variance = sorted_auc_variance(data, n_rows, weighted=sample_weight is not None)
    delong = auc_ci_result(
        *variance,
        confidence_level=confidence_level,
        method="delong",
        interval="logit",
        stacklevel=2,
    )
    return RankedModel(float(roc_auc_from_sorted(data)), delong, ranking_metrics(data))
