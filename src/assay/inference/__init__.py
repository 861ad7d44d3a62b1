"""Statistical inference: bootstrap intervals, permutation tests, comparisons of models.

The public functions (``bootstrap``, ``compare``, ``permutation_test``) are built on
the interval and p-value arithmetic of :mod:`assay.inference._intervals`.
"""

from __future__ import annotations

from assay.inference._bootstrap import bootstrap
from assay.inference._compare import compare
from assay.inference._permutation import permutation_test

__all__ = ["bootstrap", "compare", "permutation_test"]
