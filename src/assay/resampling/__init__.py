"""Resampling: bootstrap intervals, paired comparisons and permutation tests.

The engine behind :func:`bootstrap`, :func:`compare` and :func:`permutation_test`:
resampling plans over once-sorted data, the replicate kernels' drivers, and the interval
and p-value arithmetic of resampled statistics (:mod:`assay.resampling._intervals`,
:mod:`assay.resampling._interval_pvalues`).  The analytic intervals and tests (DeLong,
McNemar, t-tests, ranks) live in :mod:`assay.inference`.
"""

from __future__ import annotations

from assay.resampling._bootstrap import bootstrap
from assay.resampling._compare import compare
from assay.resampling._permutation import permutation_test

__all__ = ["bootstrap", "compare", "permutation_test"]
