"""Evaluation reports of scored models on a labelled data set (``assay.report``)."""

from assay.reports._build import report
from assay.reports._result import (
    SCHEMA,
    CurveReport,
    DataSummary,
    MetricRow,
    ModelReport,
    PairReport,
    Report,
    Settings,
    TestRow,
)

__all__ = [
    "SCHEMA",
    "CurveReport",
    "DataSummary",
    "MetricRow",
    "ModelReport",
    "PairReport",
    "Report",
    "Settings",
    "TestRow",
    "report",
]
