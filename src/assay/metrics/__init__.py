"""Metrics: ranking (ROC/PR curves and areas), confusion-matrix metrics, costs, regression.

Each submodule declares its public names in ``__all__``; this package re-exports them all.
"""

from assay.metrics import _curves, _ranking

__all__: list[str] = [*_curves.__all__, *_ranking.__all__]

from assay.metrics._curves import *  # noqa: E402, F403
from assay.metrics._ranking import *  # noqa: E402, F403
