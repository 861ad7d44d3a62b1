"""Plots (optional: needs matplotlib, ``pip install 'assay[plot]'``).

matplotlib is imported when a plot is drawn, not when this package is imported, so
``import assay.plot`` works without it.
"""

from __future__ import annotations

from assay.plot._calibration import CalibrationDisplay
from assay.plot._critical_difference import (
    CriticalDifferenceDisplay,
    CriticalDifferenceLayout,
    critical_difference_diagram,
    critical_difference_layout,
)
from assay.plot._curves import DetCurveDisplay, PrecisionRecallDisplay, RocCurveDisplay
from assay.plot._diagnostics import BiasVarianceDisplay, PairedDifferenceDisplay, ThresholdDisplay
from assay.plot._gain import CumulativeGainDisplay

__all__ = [
    "BiasVarianceDisplay",
    "CalibrationDisplay",
    "CriticalDifferenceDisplay",
    "CriticalDifferenceLayout",
    "CumulativeGainDisplay",
    "DetCurveDisplay",
    "PairedDifferenceDisplay",
    "PrecisionRecallDisplay",
    "RocCurveDisplay",
    "ThresholdDisplay",
    "critical_difference_diagram",
    "critical_difference_layout",
]
