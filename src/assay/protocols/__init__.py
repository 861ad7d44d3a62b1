"""Estimation protocols: splitters, cross-validation, bootstrap estimators of the error,
and the bias-variance decomposition.

How an error rate is estimated (holdout, k-fold, leave-one-out, bootstrap, .632) and
where the error comes from (bias, variance, noise).
"""

from __future__ import annotations

__all__: list[str] = []
