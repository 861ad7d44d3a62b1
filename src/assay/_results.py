"""Result types.  Curves are NamedTuples so they unpack like scikit-learn's tuples."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["ConfusionAtThresholds", "DetCurve", "PrecisionRecallCurve", "RocCurve"]


class RocCurve(NamedTuple):
    """ROC curve: ``fpr[i]``, ``tpr[i]`` for predictions ``score >= thresholds[i]``."""

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


class PrecisionRecallCurve(NamedTuple):
    """Precision-recall curve (increasing thresholds; one more point than thresholds)."""

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray


class DetCurve(NamedTuple):
    """Detection error trade-off curve: false positive and false negative rates."""

    fpr: np.ndarray
    fnr: np.ndarray
    thresholds: np.ndarray


class ConfusionAtThresholds(NamedTuple):
    """Cutoff table: the binary confusion matrix at every distinct threshold."""

    tns: np.ndarray
    fps: np.ndarray
    fns: np.ndarray
    tps: np.ndarray
    thresholds: np.ndarray
