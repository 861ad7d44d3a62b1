"""assay: fast, statistically honest evaluation of classifiers and regressors."""

from assay import metrics
from assay._version import __version__
from assay.exceptions import (
    AssayError,
    AssayWarning,
    CompilationCacheWarning,
    DegenerateDataWarning,
    SelfCheckError,
    UndefinedMetricWarning,
)
from assay.metrics import *  # noqa: F403
from assay.metrics import __all__ as _metrics_all

__all__ = [
    "AssayError",
    "AssayWarning",
    "CompilationCacheWarning",
    "DegenerateDataWarning",
    "SelfCheckError",
    "UndefinedMetricWarning",
    "__version__",
    "metrics",
    *_metrics_all,
]
