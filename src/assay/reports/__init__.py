"""Evaluation reports of scored models on a labelled data set (``assay.report``)."""

from assay.reports._build import report
from assay.reports._result import (
    SCHEMA,
    BaselineTest,
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
    "BaselineTest",
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
