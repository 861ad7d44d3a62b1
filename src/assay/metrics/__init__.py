"""Metrics: ranking (ROC/PR curves and areas), confusion-matrix metrics, costs, regression.

Each submodule declares its public names in ``__all__``; this package re-exports them all.
"""

from assay.metrics import (
    _agreement,
    _classification,
    _confusion,
    _costs,
    _curves,
    _ranking,
    _rates,
    _regression,
    _report,
)

__all__: list[str] = [*_curves.__all__, *_ranking.__all__]
__all__ += [*_confusion.__all__, *_classification.__all__, *_rates.__all__]
__all__ += [*_agreement.__all__, *_report.__all__, *_costs.__all__, *_regression.__all__]

from assay.metrics._agreement import *  # noqa: E402, F403
from assay.metrics._classification import *  # noqa: E402, F403
from assay.metrics._confusion import *  # noqa: E402, F403
from assay.metrics._costs import *  # noqa: E402, F403
from assay.metrics._curves import *  # noqa: E402, F403
from assay.metrics._ranking import *  # noqa: E402, F403
from assay.metrics._rates import *  # noqa: E402, F403
from assay.metrics._regression import *  # noqa: E402, F403
from assay.metrics._report import *  # noqa: E402, F403
